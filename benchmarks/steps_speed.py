"""The native probing search (`native:dfs`) with no observer attached: CPU seconds per puzzle, so that two
checkouts can be compared (the trace hooks must cost nothing when nobody listens).

    python benchmarks/steps_speed.py [ROUNDS]    # prints one line per puzzle: median CPU seconds

Run it once per checkout (PYTHONPATH=other/src for the baseline), interleaved, on the same machine.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from nonocp.engines import SolveOptions, get_backend
from nonocp.formats import load

ROOT = Path(__file__).resolve().parent.parent
SURVEY = ROOT.parent / "shared" / "corpus" / "webpbn-survey" / "free"
PUZZLES = ["webpbn-00436-Old stone face.txt", "webpbn-00021-Slippery Conditions.txt", "webpbn-00023-Test Pattern.txt",
           "webpbn-00529-swing.txt", "webpbn-00803-You light up my life.txt"]
# taai2011 puzzles (0-based) that native:dfs decides in a fraction of a second to about a second: they spend
# their time in the search loop, where the trace hooks sit
PICKED = (350, 450, 550, 850, 900, 950)
TOURNAMENT = ROOT.parent / "shared" / "corpus" / "nonogram-record" / "question" / "taai2011.txt"


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    engine = get_backend("native:dfs")
    for name in PUZZLES:
        path = SURVEY / name
        if not path.exists():
            continue
        puzzle = load(str(path))[0]
        times = []
        for _ in range(rounds):
            t = time.process_time()
            r = engine.solve(puzzle, SolveOptions(max_solutions=2, time_limit=120))
            times.append(time.process_time() - t)
        print(f"{name[:34]:34} {r.status!s:9} {statistics.median(times):8.3f}")
    if TOURNAMENT.exists():
        every = load(str(TOURNAMENT))
        puzzles = [every[i] for i in PICKED]
        times = []
        for _ in range(rounds):
            t = time.process_time()
            for puzzle in puzzles:
                engine.solve(puzzle, SolveOptions(max_solutions=2, time_limit=120))
            times.append(time.process_time() - t)
        print(f"{'taai2011, 6 that need search':34} {'':9} {statistics.median(times):8.3f}")


if __name__ == "__main__":
    main()
