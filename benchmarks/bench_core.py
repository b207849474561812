"""Before against after in the same run: one set, some engines, two checkouts, each solving in its own process.

    git worktree add --detach /tmp/nonocp-before main      # the baseline (build its C extension there)
    nice -n 10 python benchmarks/bench_core.py --before /tmp/nonocp-before taai2011 --every 10 -b auto -b native
    nice -n 10 python benchmarks/bench_core.py --before /tmp/nonocp-before survey -b auto -b native -b sat --runs 3

Each run solves the whole sample once per checkout, in a child process running bench_sets.py from this
folder with the checkout's `src/` first on PYTHONPATH (so the same driver measures both); the order of the
two checkouts alternates between runs. Per puzzle the median CPU seconds over the runs is kept (bench_sets.py
measures whole-process CPU, forked children included). The summary is one markdown table row per checkout
and engine: puzzles, CPU and wall sums, time-outs, conflicts, and the worst puzzles by CPU; any puzzle on
which the two checkouts reach different verdicts (neither a time-out) is listed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
AFTER = os.path.dirname(HERE)


def run_tree(tree: str, args: argparse.Namespace, passthrough: list[str]) -> dict:
    """One pass over the sample by checkout `tree`: bench_sets.py's rows."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    env = {**os.environ, "PYTHONPATH": os.path.join(tree, "src")}
    cmd = [sys.executable, os.path.join(HERE, "bench_sets.py"), args.set, "--quiet", "--json", out, *passthrough]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"{tree}: bench_sets.py failed:\n{proc.stderr[-2000:]}")
    print(f"  [{os.path.basename(tree.rstrip('/'))}] " + proc.stdout.strip().splitlines()[-1 - 2 * len(args.backend)],
          flush=True)
    with open(out, encoding="utf-8") as f:
        rows = json.load(f)["rows"]
    os.unlink(out)
    return {(r["backend"], r["puzzle"]): r for r in rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set")
    ap.add_argument("--before", required=True, help="the baseline checkout (its src/ is imported)")
    ap.add_argument("--after", default=AFTER, help="the checkout measured (default: this one)")
    ap.add_argument("-b", "--backend", action="append", default=[])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--worst", type=int, default=10)
    args, passthrough = ap.parse_known_args(argv)
    args.backend = args.backend or ["auto"]
    for b in args.backend:
        passthrough += ["-b", b]
    print(f"{args.set} {' '.join(passthrough)}; runs {args.runs}; load {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} cores", flush=True)
    trees = {"before": args.before, "after": args.after}
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    for r in range(args.runs):
        for name in (("before", "after") if r % 2 == 0 else ("after", "before")):
            runs[name].append(run_tree(trees[name], args, passthrough))
    print(f"load at end {os.getloadavg()[0]:.2f}")
    print("\n| engine | checkout | puzzles | CPU s | wall s | time-outs | conflicts | worst by CPU |")
    print("|---|---|---|---|---|---|---|---|")
    merged: dict[str, dict] = {}
    for b in args.backend:
        for name in ("before", "after"):
            rows = {}
            for key in runs[name][0]:
                if key[0] != b:
                    continue
                each = [run[key] for run in runs[name]]
                row = dict(each[0])
                row["cpu"] = statistics.median(x["cpu"] for x in each)
                row["wall"] = statistics.median(x["wall"] for x in each)
                rows[key] = row
            merged[name + b] = rows
            vals = list(rows.values())
            worst = sorted(vals, key=lambda x: -x["cpu"])[:args.worst]
            print(f"| {b} | {name} | {len(vals)} | {sum(x['cpu'] for x in vals):.1f} | "
                  f"{sum(x['wall'] for x in vals):.1f} | {sum(x['status'] == 'timeout' for x in vals)} | "
                  f"{sum(x['conflicts'] for x in vals):,} | "
                  + ", ".join(f"{x['puzzle']} {x['cpu']:.1f}" for x in worst) + " |")
        wrong = [k for name in ("before", "after") for k, x in merged[name + b].items() if x["status"] == "WRONG"]
        differ = [k[1] for k, x in merged["after" + b].items()
                  if "timeout" not in (x["status"], merged["before" + b][k]["status"])
                  and x["status"] != merged["before" + b][k]["status"]]
        if wrong or differ:
            print(f"{b}: grids not solutions: {wrong}; verdicts differ on: {differ}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
