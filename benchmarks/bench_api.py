"""The Python API's promises that are about time, measured per engine:

- first: `nonocp.solutions(perm20)` (a 20x20 puzzle whose every clue is `1`: 20! ~ 2.4e18 solutions), the
  wall seconds to the first grid (in a fresh process, so an engine's import counts) and from `close()` to
  the search having ended (its thread joined, any child process gone);
- cancel: `nonocp.solve(..., cancel=stop)` on a search that runs for minutes (a 28x28 permutation puzzle
  with 15 rows fixed to put their one cell in 14 columns: no solution, long to prove), `stop.cancel()`
  from a timer thread after 0.3, 1 or 3 s (in turn: the engines are in different phases then), and the wall
  seconds from `cancel()` to `solve` returning.

Each measurement runs in a fresh child process, `--runs` times, interleaved over the engines; the table
gives the median and the worst. The issue's targets: first solution under 1 s, cancellation under 0.5 s.

    python benchmarks/bench_api.py                 # 5 runs, every engine
    python benchmarks/bench_api.py --runs 3 --engines native,sat

Results: benchmarks/results/api.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

ENGINES = ("native", "sat", "cpsat", "auto")

FIRST = r"""
import json, sys, time
t0 = time.monotonic()
import nonocp
p = nonocp.Puzzle.from_clues([[1]] * 20, [[1]] * 20)
stream = nonocp.solutions(p, sys.argv[1])
first = next(stream)
t1 = time.monotonic()
stream.close()
t2 = time.monotonic()
assert p.is_solution(first) and stream.result.stop == "cancelled"
print(json.dumps({"first": t1 - t0, "close": t2 - t1}))
"""

CANCEL = r"""
import json, sys, threading, time
import nonocp
n, k = 28, 14
p = nonocp.Puzzle.from_clues([[1]] * n, [[1]] * n)
fixed = {(r, c): 0 for r in range(k + 1) for c in range(k, n)}
stop = nonocp.Cancel()
at = []
def cancel():
    at.append(time.monotonic())
    stop.cancel()
threading.Timer(float(sys.argv[2]), cancel).start()
result = nonocp.solve(p, sys.argv[1], fixed=fixed, cancel=stop)
done = time.monotonic()
assert result.stop == "cancelled", result.stop
print(json.dumps({"cancel": done - at[0]}))
"""


DELAYS = ("0.3", "1.0", "3.0")


def measure(script: str, engine: str, delay: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", script, engine, delay], capture_output=True, text=True, timeout=300,
                         check=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--engines", default=",".join(ENGINES))
    args = ap.parse_args(argv)
    engines = args.engines.split(",")
    samples: dict[tuple[str, str], list[float]] = {}
    for run in range(args.runs):
        for engine in engines:
            for script in (FIRST, CANCEL):
                for key, value in measure(script, engine, DELAYS[run % len(DELAYS)]).items():
                    samples.setdefault((engine, key), []).append(value)
    print(f"load average before the table: {os.getloadavg()[0]:.1f}; {args.runs} runs each\n")
    print("| engine | first of 20! solutions (s) | close() to ended (s) | cancel() to solve returning (s) |")
    print("|---|---:|---:|---:|")
    for engine in engines:
        cells = []
        for key in ("first", "close", "cancel"):
            values = samples[(engine, key)]
            cells.append(f"{statistics.median(values):.3f} (worst {max(values):.3f})")
        print(f"| {engine} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
