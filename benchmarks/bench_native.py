"""Benchmark of the native engine, in-process: survey puzzles, a tournament set, peak memory.

    python benchmarks/bench_native.py                     # survey (free + restricted), 3 runs each
    python benchmarks/bench_native.py --tournament 1000   # + the first N puzzles of a tournament set
    python benchmarks/bench_native.py --only Forever,9-Dom --runs 5 --timeout 60
    python benchmarks/bench_native.py --searches cdcl,dfs        # both searches, side by side per puzzle

Reads the corpus by path (../shared/corpus beside the project; never copied). Each puzzle is solved
`--runs` times with max_solutions=2 (so every verdict says unique / multiple / none; `--max-solutions 1`
finds one solution each, as the tournaments score); the table gives
the median and the minimum wall time and the median CPU time (time.process_time) per puzzle, the
verdict, whether the `goal` is among the solutions, and the search counters. On a shared machine the
minimum is the closest to the unloaded cost, and CPU time is less noisy than wall time; say which
you quote. Peak memory is the process's peak RSS (resource.getrusage) at the end.
"""

from __future__ import annotations

import argparse
import glob
import os
import resource
import statistics
import sys
import time

from machine import CpuSplit

from nonocp.engines import SolveOptions
from nonocp.engines.native import NativeBackend
from nonocp.formats import load

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "shared", "corpus")

# webpbn number -> the survey's short name (Wolter's survey order)
NAMES = {
    1: "Dancer", 6: "Cat", 21: "Skid", 27: "Bucks", 23: "Edge", 2413: "Smoke", 16: "Knot", 529: "Swing",
    65: "Mum", 1694: "Tragic", 1611: "Merka", 436: "Petro", 4645: "M&M", 3541: "Signed", 803: "Light",
    6574: "Forever", 2040: "Hot", 6739: "Karate", 8098: "9-Dom", 2556: "Flag", 2712: "Lion",
    10088: "Marley", 18297: "Thing", 9892: "Nature", 12548: "Sierp", 22336: "Gettys", 7604: "DiCap",
    10810: "Center",
}
ORDER = list(NAMES.values()) + ["Knotty", "Meow", "Faase"]


def survey_files() -> list[tuple[str, str]]:
    out = []
    for folder in ("free", "restricted"):
        for path in sorted(glob.glob(os.path.join(CORPUS, "webpbn-survey", folder, "*.txt"))):
            base = os.path.basename(path)
            parts = base.split("-")
            if parts[1].isdigit():
                name = NAMES.get(int(parts[1]), base)
            else:
                name = parts[1].split(".")[0].capitalize()
            out.append((name, path))
    for folder in ("xml-free",):
        for path in sorted(glob.glob(os.path.join(CORPUS, "webpbn-survey", folder, "webpbn-color-*.xml"))):
            out.append(("colour-" + os.path.basename(path).split("-")[-1].split(".")[0], path))
    rank = {n: i for i, n in enumerate(ORDER)}
    return sorted(out, key=lambda t: rank.get(t[0], len(rank)))


# 2: every verdict says unique / multiple / none (the default); 1: find one solution, as tournaments score
MAX_SOLUTIONS = 2


def run_one(puzzle, timeout: float | None, search: str = ""):
    t, c = time.perf_counter(), time.process_time()
    backend = NativeBackend("" if search == "cdcl" else search)
    r = backend.solve(puzzle, SolveOptions(max_solutions=MAX_SOLUTIONS, time_limit=timeout))
    return r, time.perf_counter() - t, time.process_time() - c


def bench_survey(runs: int, timeout: float | None, only: set[str] | None, searches: list[str]) -> None:
    print(f"{'puzzle':10} {'search':6} {'size':>7} {'verdict':9} {'goal':5} {'wall med':>9} {'wall min':>9} "
          f"{'cpu med':>9} "
          f"{'nodes':>6} {'confl':>6} {'probes':>7} {'lines':>7} {'hits':>8} {'depth':>5}")
    for name, path in survey_files():
        if only and name not in only:
            continue
        puzzle = load(path)[0]
        for search in searches:
            bench_puzzle(name, puzzle, runs, timeout, search)


def bench_puzzle(name: str, puzzle, runs: int, timeout: float | None, search: str) -> None:
    walls, cpus = [], []
    r = None
    for _ in range(runs):
        r, wall, cpu = run_one(puzzle, timeout, search)
        walls.append(wall)
        cpus.append(cpu)
        if r.status.value == "timeout":
            break  # one timeout is enough to know
    assert r is not None
    ok = all(puzzle.is_solution(g) for g in r.solutions)
    goal = "-" if puzzle.meta.goal is None else ("yes" if puzzle.meta.goal in r.solutions else "no")
    verdict = r.status.value if ok else "WRONG"
    s = r.stats
    print(f"{name:10} {search:6} {puzzle.width:>3}x{puzzle.height:<3} {verdict:9} {goal:5} "
          f"{statistics.median(walls):9.3f} {min(walls):9.3f} {statistics.median(cpus):9.3f} {s['nodes']:6} "
          f"{s.get('conflicts', 0):6} {s['probes']:7} "
          f"{s['line_solves']:7} {s['cache_hits']:8} {s['max_depth']:5}", flush=True)


def bench_tournament(path: str, count: int, timeout: float | None, search: str) -> None:
    puzzles = load(path)[:count]
    # tracemalloc is off: tracing every allocation slowed this batch several times (taai2011 #24: 47.7 s
    # wall under it, 4.5 s wall in the next run without it); peak RSS, printed at the end, is the memory figure.
    t0, c0 = time.perf_counter(), time.process_time()
    verdicts: dict[str, int] = {}
    worst: list[tuple[float, int]] = []
    wrong = 0
    work = {"line_solves": 0, "conflicts": 0}  # deterministic counters: comparable across noisy runs
    for i, p in enumerate(puzzles, 1):
        r, wall, _ = run_one(p, timeout, search)
        for key in work:
            work[key] += r.stats.get(key, 0) or 0
        verdicts[r.status.value] = verdicts.get(r.status.value, 0) + 1
        wrong += not all(p.is_solution(g) for g in r.solutions)
        worst.append((wall, i))
        if i % 100 == 0:
            print(f"  {i} puzzles: {time.perf_counter() - t0:.1f} s wall, {time.process_time() - c0:.1f} s cpu",
                  flush=True)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    worst.sort(reverse=True)
    print(f"tournament {os.path.basename(path)} ({search}) first {len(puzzles)}: {wall:.1f} s wall, {cpu:.1f} s cpu, "
          f"verdicts {verdicts}, wrong {wrong}, line solves {work['line_solves']}, conflicts {work['conflicts']}")
    print("  slowest (s, #): " + ", ".join(f"{w:.2f} #{i}" for w, i in worst[:8]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--only", default="", help="comma-separated survey names (e.g. Forever,9-Dom)")
    ap.add_argument("--no-survey", action="store_true")
    ap.add_argument("--tournament", type=int, default=0, help="solve the first N puzzles of --set")
    ap.add_argument("--set", default=os.path.join(CORPUS, "nonogram-record", "question", "taai2011.txt"))
    ap.add_argument("--max-solutions", type=int, default=2,
                    help="2 (default): decide unique or multiple; 1: one solution each, as a tournament scores")
    ap.add_argument("--searches", default="cdcl", help="comma-separated native searches: cdcl (default), dfs")
    args = ap.parse_args(argv)
    searches = [x for x in args.searches.split(",") if x]
    if not os.path.isdir(os.path.join(CORPUS, "webpbn-survey")):
        print(f"corpus not found at {CORPUS}", file=sys.stderr)
        return 2
    global MAX_SOLUTIONS
    MAX_SOLUTIONS = args.max_solutions
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; max_solutions={MAX_SOLUTIONS}")
    split = CpuSplit()
    if not args.no_survey:
        bench_survey(args.runs, args.timeout, set(filter(None, args.only.split(","))) or None, searches)
    if args.tournament:
        for search in searches:
            bench_tournament(args.set, args.tournament, args.timeout, search)
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak_rss:.0f} MiB; load average at end: {os.getloadavg()[0]:.1f}")
    print(split.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
