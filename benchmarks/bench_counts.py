"""Count-and-contiguity puzzles: the three engines on generated puzzles, and the native line solver alone.

    nice -n 10 python benchmarks/bench_counts.py                    # 100 puzzles, native cpsat sat, 60 s each
    nice -n 10 python benchmarks/bench_counts.py --puzzles 20 --engines native,sat --timeout 30
    nice -n 10 python benchmarks/bench_counts.py --engines cpsat,cpsat@count_runs=automaton   # an option
    nice -n 10 python benchmarks/bench_counts.py --engines sat#seqcounter,sat#totalizer   # cardinality encodings
    nice -n 10 python benchmarks/bench_counts.py --lines            # the line solver on random lines

Puzzles: pictures from puzzles/tools/make_count_puzzles.py's generator (random colours smoothed twice by the majority
of each cell's neighbourhood), seeds 1..N, half 15x15 and half 20x20, with 4, 5 and 6 colours in turn. Each
engine answers with max_solutions=2 (so that unique / multiple is decided, as `nonocp solve` asks); the
engines take turns on each puzzle (so that a busy spell of the shared machine hits them alike); every
solution is checked against the clues and the verdicts are compared. Times are CPU seconds of the process and
its children (the sat engine solves in a forked child) and wall seconds; cpsat's import of ortools is done
once before timing. Results: benchmarks/results/count-clues.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

from machine import CpuSplit, cpu_seconds

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "puzzles" / "tools"))

from make_count_puzzles import Recipe  # noqa: E402

from nonocp.core.verify import verify  # noqa: E402
from nonocp.engines import SolveOptions, get_backend  # noqa: E402


def puzzles(n: int) -> list[tuple[str, object]]:
    out = []
    for seed in range(1, n + 1):
        side = 15 if seed % 2 else 20
        ncolors = 4 + seed % 3
        recipe = Recipe(f"bench-{seed}", seed, side, side, ncolors, smooth=2)
        out.append((f"{side}x{side} c{ncolors} seed {seed}", recipe.puzzle()))
    return out


class _SatWith:
    """The sat engine with another pysat cardinality encoding for count clues (sat.CARDINALITY_ENCODING)."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self.sat = get_backend("sat")

    def solve(self, puzzle, options):
        from nonocp.engines import sat

        saved, sat.CARDINALITY_ENCODING = sat.CARDINALITY_ENCODING, self.encoding
        try:
            return self.sat.solve(puzzle, options)
        finally:
            sat.CARDINALITY_ENCODING = saved


def engine_of(spec: str):
    """`name`, `name@option=value` (an engine option, as `nonocp solve --option`) or `sat#ENCODING` (a pysat
    cardinality encoding, as EncType names it): (backend, extra)."""
    if spec.startswith("sat#"):
        return _SatWith(spec[4:]), {}
    name, _, option = spec.partition("@")
    backend = get_backend(name)
    return backend, backend.settings.parse([option], backend.name) if option else {}


def run_engines(args) -> None:
    engines = {spec: engine_of(spec) for spec in args.engines.split(",")}
    for backend, _ in engines.values():  # import ortools (and anything else) before any clock starts
        backend.solve(puzzles(1)[0][1], SolveOptions(max_solutions=1))
    rows = []
    split = CpuSplit()
    started = time.monotonic()
    for label, p in puzzles(args.puzzles):
        row = {"puzzle": label, "size": f"{p.width}x{p.height}", "colours": len(p.palette)}
        for name, (engine, extra) in engines.items():
            c0, w0 = cpu_seconds(), time.perf_counter()
            r = engine.solve(p, SolveOptions(max_solutions=2, time_limit=args.timeout, extra=extra))
            cpu, wall = cpu_seconds() - c0, time.perf_counter() - w0
            bad = sum(1 for g in r.solutions if not verify(p, g).ok)
            row[name] = {"status": str(r.status), "cpu": round(cpu, 4), "wall": round(wall, 4), "wrong": bad}
        verdicts = {row[n]["status"] for n in engines if row[n]["status"] != "timeout"}
        row["agree"] = len(verdicts) <= 1
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    elapsed = time.monotonic() - started
    print(f"# {len(rows)} puzzles, engines {', '.join(engines)}, time limit {args.timeout} s, "
          f"{elapsed:.0f} s in all; load average at the end {os.getloadavg()[0]:.1f}; {split.report()}")
    print()
    print("| size | engine | median CPU s | worst CPU s | median wall s | worst wall s | timeouts | wrong |")
    print("|---|---|---|---|---|---|---|---|")
    for size in sorted({r["size"] for r in rows}):
        group = [r for r in rows if r["size"] == size]
        for name in engines:
            cpu = [r[name]["cpu"] for r in group]
            wall = [r[name]["wall"] for r in group]
            timeouts = sum(1 for r in group if r[name]["status"] == "timeout")
            wrong = sum(r[name]["wrong"] for r in group)
            print(f"| {size} ({len(group)}) | {name} | {statistics.median(cpu):.3f} | {max(cpu):.3f} | "
                  f"{statistics.median(wall):.3f} | {max(wall):.3f} | {timeouts} | {wrong} |")
    verdicts: dict[str, int] = {}
    for r in rows:
        s = next((r[n]["status"] for n in engines if r[n]["status"] != "timeout"), "timeout")
        verdicts[s] = verdicts.get(s, 0) + 1
    print()
    print(f"verdicts: {verdicts}; engines disagree on {sum(1 for r in rows if not r['agree'])} puzzles")
    fastest = {n: 0 for n in engines}
    for r in rows:
        fastest[min(engines, key=lambda n: r[n]["cpu"])] += 1
    print(f"fastest by CPU time, puzzles each: {fastest}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


def run_lines(args) -> None:
    """The native count line solver on random lines: lengths and colours as asked, some cells decided."""
    from nonocp.core.counts import count_clue
    from nonocp.engines.native import count_line

    rnd = random.Random(1)
    print(f"# count line solver, {args.line_samples} random lines per row; load average "
          f"{os.getloadavg()[0]:.1f}")
    print()
    print("| cells | colours | decided | median us | p90 us | worst us |")
    print("|---|---|---|---|---|---|")
    for n in (15, 20, 30, 50):
        for ncolors in (4, 6):
            for decided in (0.0, 0.3, 0.6):
                times = []
                for _ in range(args.line_samples):
                    line = []
                    while len(line) < n:  # runs of 1 to 4 cells, as in pictures
                        line += [rnd.randrange(ncolors)] * rnd.randint(1, 4)
                    line = line[:n]
                    clue = count_clue(line, ncolors)
                    masks = [0] * ncolors
                    for i in range(n):
                        if rnd.random() < decided:
                            masks[line[i]] |= 1 << i
                        else:
                            for k in range(ncolors):
                                masks[k] |= 1 << i
                    plan = count_line.plan_of(clue, n)
                    count_line.solve_planned(plan, n, masks)  # the plan's state spaces made (once per clue)
                    t = time.process_time()
                    for _ in range(3):
                        count_line.solve_planned(plan, n, masks)
                    times.append((time.process_time() - t) / 3 * 1e6)
                times.sort()
                print(f"| {n} | {ncolors} | {decided:.0%} | {statistics.median(times):.0f} | "
                      f"{times[int(len(times) * 0.9)]:.0f} | {times[-1]:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=int, default=100)
    ap.add_argument("--engines", default="native,cpsat,sat")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--json", help="write every row here")
    ap.add_argument("--lines", action="store_true", help="the line solver alone instead")
    ap.add_argument("--line-samples", type=int, default=60)
    args = ap.parse_args()
    if args.lines:
        run_lines(args)
    else:
        run_engines(args)


if __name__ == "__main__":
    main()
