"""Tournament sets and the survey, in-process, one engine configuration at a time: sums, worst puzzles, work.

    python benchmarks/bench_sets.py taai2011 --every 10                  # every 10th puzzle, default engine
    python benchmarks/bench_sets.py icga2017 -b native -b auto -n 1      # two engines, first solution only
    python benchmarks/bench_sets.py survey -b auto -b native -b sat --runs 3
    python benchmarks/bench_sets.py taai2011 --json /tmp/taai.json       # every row, for a later comparison
    python benchmarks/bench_sets.py survey -b auto -b auto,native_first=false   # options of one configuration
    python benchmarks/bench_sets.py tournaments --every 20 -b native            # #1, #21, ... of all 30 sets
    python benchmarks/bench_sets.py tails -b native -n 1                        # the tail puzzles (TAILS)

A set is a tournament file name under ../shared/corpus/nonogram-record/question/ (taai2011, icga2017, ...),
`survey` (the 28 numbered survey puzzles), `hard` (Knotty, Faase, Meow), `tournaments` (all 30 sets, each
sliced by --every and --offset: `--every 20` is the 1,500-puzzle sample of results/native-core.md), `tails` (TAILS)
or a path. Each puzzle is solved
in this process by `nonocp.engines.solve`-style backends with `workers=1` (as `nonocp bench --jobs 1` runs
them: no race) unless `--workers 2`; the figures are wall and CPU seconds around `solve()` (CPU includes
forked children: machine.cpu_seconds), plus the engine's deterministic counters (conflicts, line solves,
nodes), which compare across noisy runs. Every grid is checked against the clues. With `--runs N` each
puzzle is solved N times and the median is kept.

The machine is shared: the load average at the start and end is printed, and the CPU split (stolen time).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import statistics
import sys
import time

from machine import CpuSplit, cpu_seconds

from nonocp.engines import SolveOptions, get_backend
from nonocp.formats import load

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("NONOCP_CORPUS", os.path.join(HERE, "..", "..", "shared", "corpus"))
HARD = ("knotty", "faase", "meow")
# The tournament puzzles where the native search was slowest against nonosolve in the whole-set run of
# results/peers.md (tens of thousands of conflicts each): what results/native-core.md, "Tails", measures.
TAILS = (("taai2021", 603), ("taai2015", 575), ("icga2021", 536), ("taai2020", 573), ("tcga2019", 442),
         ("taai2017", 452), ("tcga2015", 508), ("taai2013", 523), ("tcga2013", 703), ("taai2014", 404),
         ("icga2023", 581), ("tcga2020", 538), ("tcga2012", 692))


def tournament_file(name: str) -> str:
    return os.path.join(CORPUS, "nonogram-record", "question", f"{name}.txt")


def survey_puzzles(hard: bool) -> list[tuple[str, object]]:
    """The 28 numbered survey puzzles (free and restricted), or the three unnumbered hard ones."""
    out = []
    for folder in ("free", "restricted"):
        for path in sorted(glob.glob(os.path.join(CORPUS, "webpbn-survey", folder, "webpbn-*.txt"))):
            tag = os.path.basename(path)[len("webpbn-"):].split("-")[0].split(".")[0]
            if tag.isdigit() != (not hard):
                continue
            out.append((os.path.basename(path)[:-4], load(path)[0]))
    return out


def puzzles_of(name: str, every: int, offset: int, limit: int | None) -> list[tuple[str, object]]:
    if name == "survey":
        items = survey_puzzles(False)
    elif name == "hard":
        items = survey_puzzles(True)
    elif name == "tournaments":
        items = []
        for path in sorted(glob.glob(tournament_file("*"))):
            tag = os.path.basename(path)[:-4]
            items += [(f"{tag}#{i + 1}", p) for i, p in enumerate(load(path))][offset::every]
        return items[:limit] if limit else items
    elif name == "tails":
        items = [(f"{tag}#{n}", load(tournament_file(tag))[n - 1]) for tag, n in TAILS]
    else:
        path = name if os.path.exists(name) else tournament_file(name)
        items = [(f"#{i + 1}", p) for i, p in enumerate(load(path))]
    items = items[offset::every]
    return items[:limit] if limit else items


def options_of(pairs: list[str]) -> dict:
    """`["probe=true", "encoding=automaton"]` -> {"probe": True, "encoding": "automaton"}."""
    extra: dict = {}
    for kv in pairs:
        k, v = kv.split("=", 1)
        extra[k] = {"true": True, "false": False}.get(v.lower(), v)
    return extra


def run(backend_spec: str, puzzle, max_solutions: int, timeout: float, workers: int, extra: dict) -> dict:
    """One solve; `backend_spec` is an engine name with its own options after commas (`auto,probe=true`), on
    top of the `-O` ones."""
    name, *own = backend_spec.split(",")
    backend = get_backend(name)
    options = SolveOptions(max_solutions=max_solutions, time_limit=timeout or None, workers=workers,
                           extra={**extra, **options_of(own)})
    t, c = time.perf_counter(), cpu_seconds()
    r = backend.solve(puzzle, options)
    wall, cpu = time.perf_counter() - t, cpu_seconds() - c
    ok = all(puzzle.is_solution(g) for g in r.solutions)
    s = r.stats
    return {"status": r.status.value if ok else "WRONG", "wall": wall, "cpu": cpu,
            "conflicts": s.get("conflicts", s.get("native_conflicts", 0)) or 0,
            "line_solves": s.get("line_solves", s.get("native_line_solves", 0)) or 0,
            "nodes": s.get("nodes", 0) or 0, "decided_by": s.get("decided_by", s.get("phase", ""))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", help="taai2011, icga2017, ..., survey, hard, or a path")
    ap.add_argument("-b", "--backend", action="append",
                    help="engine, options of its own after commas: auto,native_first=false (repeatable; default: auto)")
    ap.add_argument("-n", "--max-solutions", type=int, default=2)
    ap.add_argument("-t", "--timeout", type=float, default=60.0)
    ap.add_argument("--every", type=int, default=1, help="every Nth puzzle (a slice of the set)")
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--runs", type=int, default=1, help="solves per puzzle (median kept)")
    ap.add_argument("--workers", type=int, default=1, help="1 (as bench --jobs 1); 2 lets auto race")
    ap.add_argument("-O", "--option", action="append", default=[], help="engine option key=value")
    ap.add_argument("--json", help="write every row here")
    ap.add_argument("--quiet", action="store_true", help="no line per puzzle")
    args = ap.parse_args(argv)
    extra = options_of(args.option)
    backends = args.backend or ["auto"]
    items = puzzles_of(args.set, args.every, args.offset, args.limit)
    print(f"{args.set}: {len(items)} puzzles, every {args.every} from {args.offset}, -n {args.max_solutions}, "
          f"timeout {args.timeout}, workers {args.workers}, options {extra}; load {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores", flush=True)
    split = CpuSplit()
    rows = []
    for name, puzzle in items:
        line = [f"{name:28}"]
        for b in backends:
            runs = [run(b, puzzle, args.max_solutions, args.timeout, args.workers, extra) for _ in range(args.runs)]
            row = dict(runs[0])
            row["wall"] = statistics.median(r["wall"] for r in runs)
            row["cpu"] = statistics.median(r["cpu"] for r in runs)
            row.update(puzzle=name, backend=b)
            rows.append(row)
            line.append(f"{b}: {row['status']:8} {row['wall']:7.3f}s cpu {row['cpu']:7.3f} "
                        f"c {row['conflicts']:6} ls {row['line_solves']:8}")
        if not args.quiet:
            print("  ".join(line), flush=True)
    print(f"load at end {os.getloadavg()[0]:.1f}; {split.report()}")
    for b in backends:
        mine = [r for r in rows if r["backend"] == b]
        statuses: dict[str, int] = {}
        for r in mine:
            statuses[r["status"]] = statuses.get(r["status"], 0) + 1
        worst = sorted(mine, key=lambda r: -r["wall"])[:10]
        print(f"{b}: {len(mine)} puzzles, wall {sum(r['wall'] for r in mine):.2f} s, cpu "
              f"{sum(r['cpu'] for r in mine):.2f} s, conflicts {sum(r['conflicts'] for r in mine)}, line solves "
              f"{sum(r['line_solves'] for r in mine)}, {statuses}")
        print("  worst: " + ", ".join(f"{r['puzzle']} {r['wall']:.2f}s ({r['status']})" for r in worst))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"args": vars(args), "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
