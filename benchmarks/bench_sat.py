"""The sat engine on the webpbn survey set: both CNF encodings compared, and the picture targets.

    nice -n 10 python benchmarks/bench_sat.py                       # both encodings, every survey puzzle
    nice -n 10 python benchmarks/bench_sat.py --encodings blocks --only nature,sierp --timeout 300
    nice -n 10 python benchmarks/bench_sat.py --solver glucose4 --json /tmp/sat.json
    nice -n 10 python benchmarks/bench_sat.py --backends sat,native,auto,auto+probe   # engines compared

For each puzzle and encoding: variables, clauses, encoding time (CPU and wall), solve time, the verdict
with max_solutions=2 (so "unique" / "multiple" is decided), and each found solution checked against the
clues. The targets (the project's goals, on 2 cores): Nature, Marley, Thing, Sierp < 5 s; Gettys < 15 s;
Knotty and Faase < 300 s. Results: benchmarks/results/sat.md and auto.md. The machine is shared: the load
average is printed with the figures; wall seconds on a busy machine are inflated, CPU seconds less so.

Puzzles are read from ../shared/corpus/webpbn-survey/{free,restricted} by path (never copied).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from machine import cpu_seconds

from nonocp.encode.cnf import ENCODINGS, encode_puzzle
from nonocp.engines import SolveOptions, get_backend
from nonocp.engines.contract import parse_engine_options
from nonocp.formats import load

SURVEY = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "webpbn-survey"

# survey name -> file stem fragment (Wolter's survey names the puzzles by a short word)
NAMES = {
    "dancer": "00001", "cat": "00006", "skid": "00021", "bucks": "00027", "edge": "00023",
    "smoke": "02413", "knot": "00016", "swing": "00529", "mum": "00065", "dicap": "07604",
    "tragic": "01694", "merka": "01611", "petro": "00436", "m&m": "04645", "signed": "03541",
    "light": "00803", "forever": "06574", "center": "10810", "hot": "02040", "karate": "06739",
    "9-dom": "08098", "flag": "2556", "lion": "2712", "marley": "10088", "thing": "18297",
    "nature": "09892", "sierp": "12548", "gettys": "22336", "meow": "meow", "faase": "faase",
    "knotty": "knotty",
}
TARGETS = {"nature": 5, "marley": 5, "thing": 5, "sierp": 5, "gettys": 15, "knotty": 300, "faase": 300}


def survey_files() -> list[tuple[str, Path]]:
    files = sorted(SURVEY.glob("free/*.txt")) + sorted(SURVEY.glob("restricted/*.txt"))
    out = []
    for f in files:
        name = next((n for n, frag in NAMES.items() if frag in f.name), f.stem)
        out.append((name, f))
    return out


def run_one(path: Path, encoding: str, solver: str, timeout: float) -> dict:
    puzzle = load(str(path))[0]
    t0, c0 = time.perf_counter(), time.process_time()
    cnf = encode_puzzle(puzzle, encoding)
    encode_wall, encode_cpu = time.perf_counter() - t0, time.process_time() - c0
    backend = get_backend(f"sat:{solver}")
    c1 = cpu_seconds()
    result = backend.solve(puzzle, SolveOptions(max_solutions=2, time_limit=timeout, extra={"encoding": encoding}))
    return {
        "size": f"{puzzle.width}x{puzzle.height}",
        "encoding": encoding,
        "variables": cnf.n_vars,
        "clauses": len(cnf.clauses),
        "encode_cpu": round(encode_cpu, 3),
        "encode_wall": round(encode_wall, 3),
        "status": str(result.status),
        "seconds": round(result.seconds, 3),
        "cpu": round(cpu_seconds() - c1, 3),
        "solve_seconds": result.stats.get("solve_seconds"),
        "conflicts": result.stats.get("conflicts"),
        "all_valid": all(puzzle.is_solution(g) for g in result.solutions),
    }


def run_backend(path: Path, spec: str, timeout: float) -> dict:
    """One engine: `name` with its defaults, or `name+KEY=VALUE+...` with `nonocp solve --option`s
    (`sat:glucose42+phase=background`); `auto+probe` / `auto-probe` are kept as short forms."""
    puzzle = load(str(path))[0]
    name, *options = spec.split("+")
    if spec.endswith("-probe"):
        name, options = spec[: -len("-probe")], ["probe=false"]
    options = ["probe=true" if o == "probe" else o for o in options]
    backend = get_backend(name)
    extra = parse_engine_options(options, backend)
    c0 = cpu_seconds()
    result = backend.solve(puzzle, SolveOptions(max_solutions=2, time_limit=timeout, extra=extra))
    return {
        "size": f"{puzzle.width}x{puzzle.height}",
        "backend": spec,
        "status": str(result.status),
        "seconds": round(result.seconds, 3),
        "cpu": round(cpu_seconds() - c0, 3),
        "open_cells": result.stats.get("open_cells_after_native"),
        "race_winner": result.stats.get("race_winner"),
        "race_found_by": result.stats.get("race_found_by"),
        "all_valid": all(puzzle.is_solution(g) for g in result.solutions),
    }


def compare_backends(specs: list[str], only: set[str], timeout: float, json_path: str) -> int:
    print(f"# load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; timeout {timeout}s; max_solutions=2")
    print("name      size    " + "".join(f"{s:>24}" for s in specs))
    rows = []
    for name, path in survey_files():
        if only and name not in only:
            continue
        cells = []
        for spec in specs:
            row = run_backend(path, spec, timeout)
            row["name"] = name
            rows.append(row)
            cell = f"{row['status'][:7]} {row['seconds']:.2f}s/{row['cpu']:.2f}c"
            if row["race_winner"]:  # the auto race: which member answered (k: Kissat, c: CaDiCaL, ...)
                cell += row["race_winner"][0]
            cells.append(cell + ("!" if not row["all_valid"] else ""))
        print(f"{name:9} {rows[-1]['size']:7} " + "".join(f"{c:>24}" for c in cells), flush=True)
    for spec in specs:
        mine = [r for r in rows if r["backend"] == spec]
        total, cpu = sum(r["seconds"] for r in mine), sum(r["cpu"] for r in mine)
        timeouts = sum(r["status"] == "timeout" for r in mine)
        print(f"# {spec}: total {total:.1f} s wall, {cpu:.1f} s CPU, {timeouts} timeouts")
    print(f"# load average at the end {os.getloadavg()[0]:.1f}")
    if json_path:
        Path(json_path).write_text(json.dumps(rows, indent=1))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--encodings", default="blocks,automaton", help=f"comma list of {', '.join(ENCODINGS)}")
    ap.add_argument("--solver", default="cadical195")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--only", default="", help="comma list of survey names (nature,sierp,...)")
    ap.add_argument("--json", default="", help="write the rows here too")
    ap.add_argument("--backends", default="", help="compare engines instead (e.g. sat,native,auto,auto+probe)")
    args = ap.parse_args()
    if not SURVEY.exists():
        print(f"survey set not found at {SURVEY}; nothing to measure", file=sys.stderr)
        return 0
    only = {s.strip().lower() for s in args.only.split(",") if s.strip()}
    if args.backends:
        return compare_backends([b.strip() for b in args.backends.split(",")], only, args.timeout, args.json)
    encodings = [e.strip() for e in args.encodings.split(",") if e.strip()]
    load_avg = os.getloadavg()[0]
    print(f"# load average {load_avg:.1f} on {os.cpu_count()} cores; solver {args.solver}; timeout {args.timeout}s")
    header = "name      size    encoding   vars     clauses  enc_cpu  status    seconds  cpu      conflicts  target"
    print(header)
    rows = []
    for name, path in survey_files():
        if only and name not in only:
            continue
        for enc in encodings:
            row = run_one(path, enc, args.solver, args.timeout)
            row["name"] = name
            target = TARGETS.get(name)
            row["target"] = target
            met = row["status"] != "timeout" and row["seconds"] < (target or 0)
            mark = "" if target is None else ("ok" if met else "MISSED")
            print(
                f"{name:9} {row['size']:7} {enc:10} {row['variables']:<8} {row['clauses']:<8} "
                f"{row['encode_cpu']:<8} {row['status']:9} {row['seconds']:<8} {row['cpu']:<8} "
                f"{row['conflicts'] if row['conflicts'] is not None else '-':<10} "
                f"{f'<{target}s {mark}' if target else ''}"
                + ("" if row["all_valid"] else "  INVALID SOLUTION"),
                flush=True,
            )
            rows.append(row)
    for enc in encodings:
        mine = [r for r in rows if r["encoding"] == enc]
        if mine:
            total = sum(r["seconds"] for r in mine)
            cpu = sum(r["cpu"] for r in mine)
            timeouts = sum(r["status"] == "timeout" for r in mine)
            print(f"# {enc}: {len(mine)} puzzles, total {total:.1f} s wall, {cpu:.1f} s CPU, {timeouts} timeouts")
    print(f"# load average at the end {os.getloadavg()[0]:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
