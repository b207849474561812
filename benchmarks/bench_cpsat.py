"""Benchmark the cpsat engine on every numbered webpbn survey puzzle (free/ and restricted/, read in place).

Each puzzle is decided (max_solutions=2: a solution, and unique or multiple) by each configuration in the
same run, configurations interleaved per puzzle so that a busy machine slows them alike. Reported per
puzzle and configuration: verdict, whether every solution satisfies the clues (and equals the goal when
unique), wall seconds, process CPU seconds and CP-SAT's deterministic time. The machine is shared, so
wall time is noisy; CPU time is less so and deterministic time (CP-SAT's own work measure) not at all.

    nice -n 10 python benchmarks/bench_cpsat.py                       # default vs plain vs block
    nice -n 10 python benchmarks/bench_cpsat.py --only 09892 --only 12548 --configs default,default-w2
    nice -n 10 python benchmarks/bench_cpsat.py --json out.json
    # the targets under a machine-independent work limit (CP-SAT deterministic time) instead of seconds:
    nice -n 10 python benchmarks/bench_cpsat.py --only 09892 --only 10088 --only 18297 --only 12548 \
        --only 22336 --configs plain,default --dtime-limit 10 --time-limit 900

Configurations: see CONFIGS below ("default" is what `--backend cpsat` does; "plain" is the textbook
model: every cell may take every colour, enumerate_all_solutions, no per-line domain cuts).
Restricted puzzles are personal-use only: they are read from the corpus, never copied.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

from nonocp.engines import SolveOptions, get_backend
from nonocp.formats import load

ROOT = Path(__file__).resolve().parent.parent
SURVEY = ROOT.parent / "shared" / "corpus" / "webpbn-survey"
NUMBERED = re.compile(r"^webpbn-(\d+)-")

# name -> (backend name, SolveOptions keyword arguments).
CONFIGS: dict[str, tuple[str, dict]] = {
    "default": ("cpsat", {}),  # enumerate mode, cell domains cut by each line, light probing, 1 worker
    "plain": ("cpsat:enumerate,plain", {}),  # the plain enumerate_all_solutions model, CP-SAT's parameters
    "block": ("cpsat:block", {}),  # solve, forbid, solve again until INFEASIBLE
    "default-w2": ("cpsat", {"workers": 2}),
    "block-w2": ("cpsat:block", {"workers": 2}),
    "bool": ("cpsat:bool", {}),  # colour puzzles: one Boolean per cell and colour
    "block-nosym": ("cpsat:block", {"extra": {"params": {"symmetry_level": 0}}}),
    "noprobing": ("cpsat", {"extra": {"params": {"cp_model_probing_level": 0}}}),  # no probing in presolve
    "nolp": ("cpsat", {"extra": {"params": {"linearization_level": 0}}}),  # no LP relaxation
    # CP-SAT's own probing effort on our model (see DEFAULT_PROBING in cpsat.py, benchmarks/results/cpsat.md)
    "fullprobing": ("cpsat", {"extra": {"probing": "full"}}),
}
TARGETS = {"09892": 10.0, "10088": 10.0, "18297": 10.0, "12548": 10.0, "22336": 30.0}


def survey_files() -> list[tuple[str, Path]]:
    """(number, path) of every numbered survey puzzle, in number order."""
    out = []
    for folder in ("free", "restricted"):
        for path in (SURVEY / folder).glob("webpbn-*.txt"):
            m = NUMBERED.match(path.name)
            if m:
                out.append((m.group(1).zfill(5), path))
    return sorted(out)


def run_one(puzzle, config: str, time_limit: float, dtime_limit: float | None = None) -> dict:
    backend_name, kwargs = CONFIGS[config]
    backend = get_backend(backend_name)
    if dtime_limit is not None:
        # CP-SAT's own work limit: unlike seconds it does not depend on how loaded the machine is
        extra = dict(kwargs.get("extra", {}))
        extra["params"] = {**extra.get("params", {}), "max_deterministic_time": dtime_limit}
        kwargs = {**kwargs, "extra": extra}
    options = SolveOptions(max_solutions=2, time_limit=time_limit, **kwargs)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    result = backend.solve(puzzle, options)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    valid = all(puzzle.is_solution(g) for g in result.solutions)
    goal = puzzle.meta.goal
    if result.status.value == "unique" and goal is not None:
        valid = valid and result.solutions[0] == goal
    return {
        "config": config,
        "status": result.status.value,
        "solutions": len(result.solutions),
        "valid": valid,
        "wall": round(wall, 3),
        "cpu": round(cpu, 3),
        "dtime": result.stats.get("deterministic_time"),
        "conflicts": result.stats.get("conflicts"),
        "solves": result.stats.get("solves"),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--configs", default="default,plain,block", help=f"comma list from {', '.join(CONFIGS)}")
    ap.add_argument("--only", action="append", default=[], help="puzzle number (repeatable)")
    ap.add_argument("--time-limit", type=float, default=300.0, help="seconds per puzzle and configuration")
    ap.add_argument("--dtime-limit", type=float, default=None,
                    help="also stop CP-SAT at this deterministic time (a machine-independent work limit)")
    ap.add_argument("--json", help="write every record to this file")
    args = ap.parse_args(argv)
    configs = args.configs.split(",")
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        ap.error(f"unknown configuration(s) {unknown}")
    if not SURVEY.exists():
        print(f"corpus not found at {SURVEY}", file=sys.stderr)
        return 2
    files = [(n, p) for n, p in survey_files() if not args.only or n in {o.zfill(5) for o in args.only}]
    load_start = os.getloadavg()
    print(f"# {len(files)} puzzles, configs {configs}, time limit {args.time_limit}s, "
          f"load average at start {load_start[0]:.1f}/{load_start[1]:.1f}/{load_start[2]:.1f} on {os.cpu_count()} cpus")
    # Import ortools before the clock runs: the first solve would otherwise count the import (7 CPU s and
    # 15 s of wall time on the first puzzle in one run here) against the first configuration.
    import ortools.sat.python.cp_model  # noqa: F401

    records = []
    totals = {c: {"wall": 0.0, "cpu": 0.0, "dtime": 0.0, "decided": 0} for c in configs}
    header = f"{'puzzle':22} {'size':>6} " + " ".join(f"{c:>38}" for c in configs)
    print(header)
    for number, path in files:
        puzzle = load(str(path))[0]
        cells = []
        for config in configs:
            rec = run_one(puzzle, config, args.time_limit, args.dtime_limit)
            rec.update(puzzle=number, title=path.stem[len("webpbn-"):], size=f"{puzzle.width}x{puzzle.height}")
            records.append(rec)
            t = totals[config]
            t["wall"] += rec["wall"]
            t["cpu"] += rec["cpu"]
            t["dtime"] += rec["dtime"] or 0.0
            t["decided"] += rec["status"] in ("unique", "multiple") and rec["valid"]
            flag = "" if rec["valid"] else " INVALID"
            target = TARGETS.get(number)
            if target is not None and config == configs[0]:
                flag += " ok" if rec["wall"] < target else f" >{target:g}s"
            cells.append(f"{rec['status']:>8} {rec['wall']:7.2f}w {rec['cpu']:7.2f}c {rec['dtime'] or 0:6.2f}d{flag}")
        print(f"{path.stem[7:29]:22} {records[-1]['size']:>6} " + " ".join(f"{c:>38}" for c in cells), flush=True)
    load_end = os.getloadavg()
    print(f"# load average at end {load_end[0]:.1f}/{load_end[1]:.1f}/{load_end[2]:.1f}")
    for c in configs:
        t = totals[c]
        print(f"TOTAL {c:14} decided {t['decided']}/{len(files)}  wall {t['wall']:8.2f}s  cpu {t['cpu']:8.2f}s  "
              f"dtime {t['dtime']:7.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"load": [load_start, load_end], "records": records}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
