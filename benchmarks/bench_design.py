"""make_unique on multi-solution designs: cells changed and time, against a simple baseline and against the
exact minimum; and how many reach LINE under --max-difficulty LINE.

    nice -n 10 python benchmarks/bench_design.py                      # every set; results/design.md
    nice -n 10 python benchmarks/bench_design.py --sets tournament --tournament 10 --runs 1
    nice -n 10 python benchmarks/bench_design.py --sets small --exact-limit 120
    nice -n 10 python benchmarks/bench_design.py --random 25,50 --timeout 300   # `design -u` on random pictures

Designs (each one a picture whose clues have two solutions or more):
  tournament  the stored boards of tournament puzzles (25x25; ../shared/corpus/nonogram-record/solution,
              taai2011 and icga2017 alternately), the first that are not unique;
  survey      the goals of the webpbn survey puzzles with several solutions (Karate, Nature, Center, Sierp,
              Flag, Lion, Marley, Thing, Gettys; the restricted ones are read in place and never copied);
              their search runs on the `auto` engine (native alone does not decide Thing and Gettys in minutes);
  generated   random pictures from nonocp.design.generator (smoothed shapes: 20x20 and 30x30 black and
              white, 20x20 with 3 colours), seeds from 1, the first that are not unique;
  small       random dots (8x8 to 12x12), where the exact minimum is found, to measure the gap.
Methods, each with a time limit per design:
  make_unique              the library's method (nonocp.design.unique);
  baseline                 ask the engine for two solutions; paint the first cell (reading order) in which
                           the first other solution differs with that solution's colour, skipping cells it
                           painted before (else it paints one cell back and forth for ever on some designs);
                           repeat until unique;
  make_unique LINE         --max-difficulty LINE: reached when line logic alone solves the result;
  exact                    fewest_changes (iterative deepening): the minimum, or a lower bound when its
                           time limit runs out (small set, and the tournament set with --exact-tournament).
--random SIZES: `nonocp design PICTURE -u -f json` as a process on 20 random pictures of each size (picture
k: each cell black with probability 0.5 + 0.15 k / 19, drawn by random.Random(f"mu-{size}-{k}") row by row),
with the process's CPU seconds, wall seconds, load, status and changes.
Every result is proven unique by a second engine (make_unique does it itself: native and sat). Times are CPU
seconds of the process and its children, median of --runs runs (changes are the same in every run: the
methods are deterministic). Results: benchmarks/results/design.md.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from machine import CpuSplit, cpu_seconds

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"

from nonocp import solve  # noqa: E402
from nonocp.core.errors import OutOfTime  # noqa: E402
from nonocp.core.grid import Grid  # noqa: E402
from nonocp.design import Design, fewest_changes, make_unique  # noqa: E402
from nonocp.design.checks import puzzle_of  # noqa: E402
from nonocp.design.generator import palette_for, random_picture  # noqa: E402
from nonocp.formats import load  # noqa: E402

SURVEY = ("karate", "Lithuanian nature", "centre piece", "Iteration", "Whos flag", "Lion", "Buffalo", "It's cold",
          "November 19")


@dataclass
class Row:
    set: str
    name: str
    size: str
    engine: str
    method: dict = field(default_factory=dict)
    baseline: dict = field(default_factory=dict)
    line: dict = field(default_factory=dict)
    exact: dict = field(default_factory=dict)


def is_multiple(design: Design, engine: str) -> bool:
    return solve(design.puzzle(), engine, max_solutions=2, time_limit=120, workers=1).status.value == "multiple"


def tournament_designs(n: int) -> list[tuple[str, Design, str]]:
    files = [CORPUS / "nonogram-record" / "solution" / f"{s}.txt" for s in ("taai2011", "icga2017")]
    if not all(f.exists() for f in files):
        return []
    sets = [load(str(f)) for f in files]
    out, i = [], 0
    while len(out) < n and i < len(sets[0]):
        for f, puzzles in zip(files, sets, strict=True):
            d = Design.from_puzzle(puzzles[i])
            if len(out) < n and is_multiple(d, "native"):
                out.append((f"{f.stem} #{i + 1}", d, "native"))
        i += 1
    return out


def survey_designs() -> list[tuple[str, Design, str]]:
    out = []
    for key in SURVEY:
        found = sorted(glob.glob(str(CORPUS / "webpbn-survey" / "*" / f"*{key}*.txt")))
        if found:
            p = load(found[0])[0]
            out.append((Path(found[0]).stem.replace("webpbn-", ""), Design.from_puzzle(p), "auto"))
    return out


def generated_designs(n: int) -> list[tuple[str, Design, str]]:
    kinds = [(20, 20, 1), (30, 30, 1), (20, 20, 3)]
    out, seed = [], 1
    while len(out) < n:
        w, h, k = kinds[len(out) % len(kinds)]
        while True:
            grid = random_picture(random.Random(f"bench/{seed}"), w, h, k, 0.5, 1)
            seed += 1
            d = Design(grid, palette_for(k))
            if is_multiple(d, "native"):
                out.append((f"{w}x{h} c{k} seed {seed - 1}", d, "native"))
                break
    return out


def small_designs(n: int) -> list[tuple[str, Design, str]]:
    out, seed = [], 1
    while len(out) < n:
        side = (8, 10, 12)[len(out) % 3]
        grid = random_picture(random.Random(f"small/{seed}"), side, side, 1, 0.5, 0)
        seed += 1
        d = Design(grid, palette_for(1))
        if is_multiple(d, "native"):
            out.append((f"{side}x{side} seed {seed - 1}", d, "native"))
    return out


def random_picture_text(size: int, k: int) -> str:
    """Random picture k of a side: each cell black with probability 0.5 + 0.15 k / 19 (0.50 to 0.65)."""
    density = 0.5 + 0.15 * k / 19
    rng = random.Random(f"mu-{size}-{k}")
    rows = ["".join("#" if rng.random() < density else "." for _ in range(size)) for _ in range(size)]
    return "\n".join(rows) + "\n"


def run_random(sizes: list[int], count: int, timeout: float) -> None:
    """`nonocp design -u` as a process on each random picture: one line each, then a table."""
    import subprocess
    import tempfile

    nonocp = Path(sys.executable).with_name("nonocp")
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            for k in range(count):
                path = Path(tmp) / f"mu{size}-{k:02d}.txt"
                path.write_text(random_picture_text(size, k))
                c0, w0 = cpu_seconds(), time.perf_counter()
                proc = subprocess.run([str(nonocp), "design", str(path), "--from", "picture", "-u", "-f", "json",
                                       "--timeout", str(timeout)], capture_output=True, text=True)
                wall, cpu = time.perf_counter() - w0, cpu_seconds() - c0
                try:
                    mu = json.loads(proc.stdout)["make_unique"]
                    status, changes, level = mu["status"], len(mu["changes"]), mu["difficulty"]
                except (ValueError, KeyError, TypeError):
                    status, changes, level = f"exit {proc.returncode}", "", ""
                line = (f"| mu{size}-{k:02d} | {size}x{size} | {0.5 + 0.15 * k / 19:.2f} | {status} | {changes} | "
                        f"{level} | {cpu:.1f} | {wall:.1f} | {os.getloadavg()[0]:.1f} |")
                print(line, flush=True)
                lines.append(line)
    print()
    print("| picture | size | density | status | changes | difficulty | CPU s | wall s | load |")
    print("|---|---|---:|---|---:|---|---:|---:|---:|")
    for line in lines:
        print(line)


def baseline(design: Design, engine: str, time_limit: float) -> tuple[str, int]:
    """Flip one differing cell of the first alternative solution, repeat: (status, cells changed)."""
    deadline = time.monotonic() + time_limit
    x = [list(r) for r in design.grid.cells]
    painted: set[tuple[int, int]] = set()
    for _ in range(10 * design.width * design.height):
        rest = deadline - time.monotonic()
        if rest <= 0:
            break
        r = solve(puzzle_of(x, design.palette), engine, max_solutions=2, time_limit=rest, workers=1)
        if r.status.value == "unique":
            final = Grid.from_rows(x)
            check = solve(puzzle_of(final, design.palette), "sat", max_solutions=2)
            return ("unique" if check.status.value == "unique" else "DISAGREE"), _distance(design.grid, final)
        if r.status.value != "multiple":
            break
        other = next(g for g in r.solutions if [list(row) for row in g.cells] != x)
        differ = [(i, j) for i, line in enumerate(x) for j, v in enumerate(line) if other.cells[i][j] != v]
        # the first differing cell not painted before (painting one back and forth forever is no baseline)
        row, col = next((cell for cell in differ if cell not in painted), differ[0])
        painted.add((row, col))
        x[row][col] = other.cells[row][col]
    return "timeout", _distance(design.grid, Grid.from_rows(x))


def _distance(a: Grid, b: Grid) -> int:
    return sum(u != v for ra, rb in zip(a.cells, b.cells, strict=True) for u, v in zip(ra, rb, strict=True))


def timed(fn, runs: int):
    """(result of the last run, median CPU seconds, median wall seconds)."""
    cpu, wall, out = [], [], None
    for _ in range(runs):
        c0, w0 = cpu_seconds(), time.perf_counter()
        out = fn()
        cpu.append(cpu_seconds() - c0)
        wall.append(time.perf_counter() - w0)
    return out, statistics.median(cpu), statistics.median(wall)


def measure(set_name: str, name: str, design: Design, engine: str, args) -> Row:
    row = Row(set_name, name, f"{design.width}x{design.height}" + (f" c{design.colors}" if design.colors > 1 else ""),
              engine)
    runs = 1 if set_name == "survey" else args.runs

    def fix(level=None):
        return make_unique(design, engine=engine, max_difficulty=level, time_limit=args.timeout, rate_result=False)

    result, cpu, wall = timed(fix, runs)
    row.method = {"status": result.status, "changes": len(result.changes), "cpu": cpu, "wall": wall,
                  "rounds": result.rounds, "engine_calls": result.engine_calls}
    (status, changes), cpu, wall = timed(lambda: baseline(design, engine, args.timeout), runs)
    row.baseline = {"status": status, "changes": changes, "cpu": cpu, "wall": wall}
    result, cpu, wall = timed(lambda: fix("LINE"), runs)
    line = result.unique and not _open_cells(result)
    row.line = {"status": result.status, "changes": len(result.changes), "cpu": cpu, "wall": wall, "line": line}
    if set_name == "small" or (set_name == "tournament" and args.exact_tournament):
        c0 = cpu_seconds()
        try:
            best = fewest_changes(design, max_changes=8, time_limit=args.exact_limit, engine=engine)
            row.exact = {"optimal": best.optimal, "changes": None if best.changes is None else len(best.changes),
                         "lower_bound": best.lower_bound, "nodes": best.nodes, "cpu": cpu_seconds() - c0}
        except OutOfTime:
            row.exact = {"optimal": False, "changes": None, "lower_bound": 1, "cpu": cpu_seconds() - c0}
    return row


def _open_cells(result) -> int:
    from nonocp.engines.native import propagate_and_probe

    masks, contradiction, _ = propagate_and_probe(result.puzzle(), probe=False)
    return len(masks) if contradiction else sum(1 for m in masks if m & (m - 1))


# --- report -----------------------------------------------------------------------------------------


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def _changes(rows: list[Row], key: str) -> str:
    counts = [getattr(r, key)["changes"] for r in rows]
    return f"{sum(counts)} / {_median(counts):g}"


def _cpu(rows: list[Row], key: str) -> str:
    times = [getattr(r, key)["cpu"] for r in rows]
    return f"{_median(times):.2f} / {max(times):.2f}"


def summary(rows: list[Row]) -> list[str]:
    out = ["| set | designs | make_unique: unique | changes (total / median) | CPU s (median / max) | "
           "baseline: unique | changes (total / median) | CPU s (median / max) | fewer / same / more than baseline "
           "| LINE reached | LINE changes (median) | LINE CPU s (median) |",
           "|---|---:|---:|---|---|---:|---|---|---|---:|---:|---:|"]
    for name in dict.fromkeys(r.set for r in rows):
        rs = [r for r in rows if r.set == name]
        ok = [r for r in rs if r.method["status"] == "unique"]
        base_ok = [r for r in rs if r.baseline["status"] == "unique"]
        both = [r for r in ok if r in base_ok]
        fewer = sum(r.method["changes"] < r.baseline["changes"] for r in both)
        same = sum(r.method["changes"] == r.baseline["changes"] for r in both)
        more = sum(r.method["changes"] > r.baseline["changes"] for r in both)
        line_ok = [r for r in rs if r.line.get("line")]
        out.append(f"| {name} | {len(rs)} | {len(ok)} | {_changes(ok, 'method')} | {_cpu(rs, 'method')} | "
                   f"{len(base_ok)} | {_changes(base_ok, 'baseline')} | {_cpu(rs, 'baseline')} | "
                   f"{fewer} / {same} / {more} | "
                   f"{len(line_ok)} of {len(rs)} | {_median([r.line['changes'] for r in line_ok]):g} | "
                   f"{_median([r.line['cpu'] for r in rs]):.2f} |")
    return out


def exact_summary(rows: list[Row]) -> list[str]:
    rs = [r for r in rows if r.exact]
    if not rs:
        return []
    proven = [r for r in rs if r.exact["optimal"]]
    equal = sum(r.method["changes"] == r.exact["changes"] for r in proven)
    gaps = [r.method["changes"] - r.exact["changes"] for r in proven]
    open_ = [r for r in rs if not r.exact["optimal"]]
    at_bound = sum(r.method["changes"] == r.exact["lower_bound"] for r in open_)
    lines = [f"- exact minimum found for {len(proven)} of {len(rs)} designs; make_unique's count equals it on "
             f"{equal}" + (f" (gaps {sorted(gaps)})" if any(gaps) else "") + ".",
             f"- the other {len(open_)}: the search proved a lower bound (no fix with fewer changes); make_unique "
             f"meets it on {at_bound}; above it by "
             f"{sorted(r.method['changes'] - r.exact['lower_bound'] for r in open_)}."]
    return lines


def table(rows: list[Row]) -> list[str]:
    out = ["| set | design | size | engine | make_unique changes | CPU s | baseline changes | CPU s | LINE changes | "
           "LINE? | CPU s | exact |", "|---|---|---|---|---:|---:|---:|---:|---:|---|---:|---|"]
    for r in rows:
        m, b, ln, e = r.method, r.baseline, r.line, r.exact

        def shown(d):
            return str(d["changes"]) + ("" if d["status"] in ("unique", "already-unique") else f" ({d['status']})")

        if not e:
            exact = ""
        elif e["optimal"]:
            exact = f"{e['changes']} (min)"
        else:
            exact = f">= {e['lower_bound']}"
        out.append(f"| {r.set} | {r.name} | {r.size} | {r.engine} | {shown(m)} | {m['cpu']:.2f} | {shown(b)} | "
                   f"{b['cpu']:.2f} | {shown(ln)} | {'yes' if ln.get('line') else 'no'} | {ln['cpu']:.2f} | {exact} |")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="tournament,survey,generated,small")
    ap.add_argument("--tournament", type=int, default=30, help="tournament designs")
    ap.add_argument("--generated", type=int, default=15, help="generated designs")
    ap.add_argument("--small", type=int, default=15, help="small designs for the exact comparison")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per design and method")
    ap.add_argument("--exact-limit", type=float, default=120.0, help="seconds for each exact search")
    ap.add_argument("--exact-tournament", action="store_true", help="the exact search on tournament designs too")
    ap.add_argument("--runs", type=int, default=3, help="runs per method (median time); the survey set runs once")
    ap.add_argument("--json", help="write every row here (JSON lines)")
    ap.add_argument("--random", help="sides (25,50): `design -u` on 20 random pictures of each, instead of the sets")
    ap.add_argument("--random-count", type=int, default=20, help="random pictures per side")
    args = ap.parse_args()
    if args.random:
        run_random([int(s) for s in args.random.split(",")], args.random_count, args.timeout)
        return
    chosen = args.sets.split(",")
    split = CpuSplit()
    load_before = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M")
    designs = []
    if "tournament" in chosen:
        designs += [("tournament", *d) for d in tournament_designs(args.tournament)]
    if "survey" in chosen:
        designs += [("survey", *d) for d in survey_designs()]
    if "generated" in chosen:
        designs += [("generated", *d) for d in generated_designs(args.generated)]
    if "small" in chosen:
        designs += [("small", *d) for d in small_designs(args.small)]
    rows = []
    for set_name, name, design, engine in designs:
        row = measure(set_name, name, design, engine, args)
        rows.append(row)
        print(f"{set_name:10} {name:40} {row.size:10} make_unique {row.method['changes']:3} "
              f"{row.method['status']:8} {row.method['cpu']:7.2f}s  baseline {row.baseline['changes']:3} "
              f"{row.baseline['status']:8} {row.baseline['cpu']:7.2f}s  LINE {row.line['changes']:3} "
              f"{'yes' if row.line['line'] else 'no ':3} {row.line['cpu']:7.2f}s"
              + (f"  exact {row.exact}" if row.exact else ""), flush=True)
        if args.json:
            with open(args.json, "a", encoding="utf-8") as f:
                f.write(json.dumps(asdict(row)) + "\n")
    print()
    print(f"started {started}; load average at start {load_before[0]:.2f}, at end {os.getloadavg()[0]:.2f}; "
          f"{split.report()}")
    print("command: python benchmarks/bench_design.py " + " ".join(sys.argv[1:]))
    print()
    for line in summary(rows) + [""] + exact_summary(rows) + [""] + table(rows):
        print(line)


if __name__ == "__main__":
    main()
