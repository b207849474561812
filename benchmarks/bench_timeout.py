"""How late each engine answers `timeout`: the wall time past the time limit on puzzles it cannot decide.

    nice -n 10 python benchmarks/bench_timeout.py                       # sat with and without the hard stop
    nice -n 10 python benchmarks/bench_timeout.py --limit 5 --rounds 3 --engines sat,sat:kissat404,cpsat,native

A user's `--timeout S` promises an answer after about S seconds. The sat engine's CaDiCaL cannot be
interrupted in pysat, so without the hard stop (nonocp.engines.forked) it ends only between conflict slices, and
Kissat not at all. For each engine (and for sat also with `extra={"hard_stop": False}`, the in-process
stop, as the baseline measured in the same run) every puzzle is solved `--rounds` times, interleaved, and
the overrun (wall seconds past the limit, for runs that timed out) is summarised: median and maximum.

The puzzles are taai2011 tournament puzzles (and Knotty, Faase from the survey set) that no engine
decided within 30 s in the cross-check, read by path from ../shared/corpus (skipped when absent).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from machine import CpuSplit

from nonocp.engines import SolveOptions, get_backend
from nonocp.formats import load

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
TOURNAMENT = CORPUS / "nonogram-record" / "question" / "taai2011.txt"
# sat timed out at 30 s on these in the cross-check, ending 19-27 s late (benchmarks/out/crosscheck.jsonl)
DEFAULT_PUZZLES = "574,629,619,586,664,651"
SURVEY_HARD = ("free/webpbn-knotty.txt", "free/webpbn-faase.txt")


def puzzles(numbers: str, survey: bool) -> list[tuple[str, object]]:
    found = []
    if TOURNAMENT.exists():
        tour = load(TOURNAMENT)
        found += [(f"taai2011#{n}", tour[int(n) - 1]) for n in numbers.split(",") if n]
    for rel in SURVEY_HARD if survey else ():
        path = CORPUS / "webpbn-survey" / rel
        if path.exists():
            found.append((path.stem, load(path)[0]))
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default="sat", help="comma-separated; sat also runs without the hard stop")
    ap.add_argument("--limit", type=float, default=10.0, help="the time limit, seconds")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--puzzles", default=DEFAULT_PUZZLES, help="taai2011 puzzle numbers")
    ap.add_argument("--survey", action="store_true", help="add Knotty and Faase")
    args = ap.parse_args(argv)
    items = puzzles(args.puzzles, args.survey)
    if not items:
        print("no puzzles: ../shared/corpus is absent", file=sys.stderr)
        return 0
    variants = []
    for engine in args.engines.split(","):
        variants.append((engine, {}))
        if engine.split(":")[0] in ("sat", "auto"):
            variants.append((engine + " (in-process stop)", {"hard_stop": False}))
    # warm up: each engine's one-off imports (ortools: 8-28 s on a loaded machine here) are not part of a
    # solve's time limit (cpsat starts its clock after the import, on purpose), so they stay out of the figures
    for label, extra in variants:
        get_backend(label.split(" ")[0]).solve(items[0][1], SolveOptions(max_solutions=2, time_limit=0.1, extra=extra))
    split = CpuSplit()
    overruns: dict[str, list[float]] = {label: [] for label, _ in variants}
    decided: dict[str, int] = {label: 0 for label, _ in variants}
    for rnd in range(args.rounds):
        for name, puzzle in items:
            for label, extra in variants:  # interleaved: each variant sees the same machine moments
                backend = get_backend(label.split(" ")[0])
                t = time.monotonic()
                result = backend.solve(puzzle, SolveOptions(max_solutions=2, time_limit=args.limit, extra=extra))
                wall = time.monotonic() - t
                if result.status.value == "timeout":
                    overruns[label].append(wall - args.limit)
                else:
                    decided[label] += 1
                print(f"round {rnd + 1} {name:24} {label:28} {result.status.value:9} {wall:7.2f} s", flush=True)
    print(f"\nlimit {args.limit:g} s, {len(items)} puzzles x {args.rounds} rounds")
    print(f"{'engine':28} {'timeouts':>8} {'decided':>7} {'median over':>11} {'max over':>9}")
    for label, _ in variants:
        v = overruns[label]
        med = f"{statistics.median(v):.2f} s" if v else "-"
        top = f"{max(v):.2f} s" if v else "-"
        print(f"{label:28} {len(v):8} {decided[label]:7} {med:>11} {top:>9}")
    print(split.report())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
