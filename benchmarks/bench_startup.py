"""Whole-process start-up time of `nonocp` commands against the floors every Python/typer command pays.

Runs each command N times (interleaved: one round runs every command once, so a burst of load from other
work hits all of them alike) and prints a Markdown table of the median CPU seconds (user + system of the
child, from wait4) and the median wall seconds, with the ratio to `python -c "import typer"`.

    python benchmarks/bench_startup.py                  # 10 rounds, the default commands
    python benchmarks/bench_startup.py --runs 20 --python .venv/bin/python
    python benchmarks/bench_startup.py --extra "nonocp show puzzles/heart.non"
    git archive main | tar -x -C /tmp/before && cp src/nonocp/engines/native/_core*.so \
        /tmp/before/src/nonocp/engines/native/
    python benchmarks/bench_startup.py --baseline /tmp/before/src     # before/after in the same rounds

With `--baseline SRC`, every nonocp command also runs with PYTHONPATH=SRC (another checkout's `src/`, e.g.
main before a change), interleaved with the current one, and the table gains a "before" column.

Results and the machine they come from: benchmarks/results/startup.md.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = "puzzles/heart.non"  # 9x8, decided by line logic alone


def default_commands(python: str, nonocp: str) -> list[tuple[str, list[str]]]:
    """(label, argv): the floors first, then the commands whose start-up the issue sets targets for."""
    return [
        ("python -c pass", [python, "-c", "pass"]),
        ('python -c "import typer"', [python, "-c", "import typer"]),
        ('python -c "from ortools.sat.python import cp_model"',
         [python, "-c", "from ortools.sat.python import cp_model"]),
        ("nonocp --help", [nonocp, "--help"]),
        (f"nonocp solve {PUZZLE}", [nonocp, "solve", PUZZLE]),
        (f"nonocp solve {PUZZLE} -b native", [nonocp, "solve", PUZZLE, "-b", "native"]),
        (f"nonocp solve {PUZZLE} -b cpsat", [nonocp, "solve", PUZZLE, "-b", "cpsat"]),
        (f"nonocp solve {PUZZLE} -b sat", [nonocp, "solve", PUZZLE, "-b", "sat"]),
        (f"nonocp show {PUZZLE}", [nonocp, "show", PUZZLE]),
        (f"nonocp solve {PUZZLE} -f json", [nonocp, "solve", PUZZLE, "-f", "json"]),
        # an option the quick path (nonocp/cli/quick.py) leaves to typer: the same solve, read by typer
        (f"nonocp solve {PUZZLE} --cell-size 20", [nonocp, "solve", PUZZLE, "--cell-size", "20"]),
    ]


def run_once(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """(CPU seconds of the child, wall seconds, exit code); output discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, wall, proc.returncode


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=10, help="rounds (median over them); default 10")
    ap.add_argument("--python", default=sys.executable, help="the interpreter nonocp is installed in")
    ap.add_argument("--nonocp", default=None, help="the nonocp script (default: beside --python)")
    ap.add_argument("--extra", action="append", default=[], help="another command line to time (repeatable)")
    ap.add_argument("--only", default=None, help="comma-separated substrings: time only matching labels")
    ap.add_argument("--baseline", default=None, metavar="SRC",
                    help="another checkout's src/ folder: its nonocp runs the same commands in the same rounds")
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="compile nonocp's modules from source on every run, as an editable install does with "
                    "PYTHONDONTWRITEBYTECODE=1 (its __pycache__ folders are removed first; the libraries keep "
                    "theirs). By default PYTHONDONTWRITEBYTECODE is removed, so that the warm-up run writes .pyc "
                    "files and the timed runs use them, as on a user's machine")
    args = ap.parse_args(argv)
    env = dict(os.environ)
    if args.no_bytecode_cache:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        for tree in [ROOT / "src", *([Path(args.baseline)] if args.baseline else [])]:
            for cache in tree.rglob("__pycache__"):
                shutil.rmtree(cache, ignore_errors=True)
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)

    nonocp = args.nonocp or str(Path(args.python).with_name("nonocp"))
    if not Path(nonocp).exists():
        nonocp = shutil.which("nonocp") or nonocp
    commands = default_commands(args.python, nonocp)
    for line in args.extra:
        words = shlex.split(line)
        if words and words[0] == "nonocp":
            words[0] = nonocp
        commands.append((line, words))
    if args.only:
        keys = [k.strip() for k in args.only.split(",")]
        commands = [c for c in commands if c[0].startswith("python") or any(k in c[0] for k in keys)]

    # (label, argv, env, is_baseline): the baseline's runs go right after the current one's in each round
    runs: list[tuple[str, list[str], dict[str, str], bool]] = []
    for label, words in commands:
        runs.append((label, words, env, False))
        if args.baseline and label.startswith("nonocp"):
            runs.append((label, words, {**env, "PYTHONPATH": os.path.abspath(args.baseline)}, True))
    cpu: dict[tuple[str, bool], list[float]] = {(r[0], r[3]): [] for r in runs}
    wall: dict[tuple[str, bool], list[float]] = {(r[0], r[3]): [] for r in runs}
    codes: dict[tuple[str, bool], set[int]] = {(r[0], r[3]): set() for r in runs}
    for _, words, run_env, _ in runs:  # one warm-up each: page cache and .pyc files
        run_once(words, run_env)
    for _ in range(args.runs):
        for label, words, run_env, base in runs:
            c, w, code = run_once(words, run_env)
            cpu[(label, base)].append(c)
            wall[(label, base)].append(w)
            codes[(label, base)].add(code)

    floor = statistics.median(cpu[('python -c "import typer"', False)])
    load = os.getloadavg()
    cache = "no .pyc cache (PYTHONDONTWRITEBYTECODE)" if "PYTHONDONTWRITEBYTECODE" in env else ".pyc cached"
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average {load[0]:.2f} after the "
          f"runs; {args.runs} rounds, median; Python {sys.version.split()[0]}; {cache}")
    print()
    if args.baseline:
        print("| command | CPU s before | CPU s | wall s before | wall s | CPU / import typer before | "
              "CPU / import typer | exit |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
    else:
        print("| command | CPU s | wall s | CPU / import typer | exit |")
        print("|---|---:|---:|---:|---:|")
    for label, _ in commands:
        c, w = statistics.median(cpu[(label, False)]), statistics.median(wall[(label, False)])
        exits = ",".join(str(x) for x in sorted(codes[(label, False)]))
        if not args.baseline:
            print(f"| `{label}` | {c:.3f} | {w:.3f} | {c / floor:.2f} | {exits} |")
        elif (label, True) in cpu:
            cb, wb = statistics.median(cpu[(label, True)]), statistics.median(wall[(label, True)])
            print(f"| `{label}` | {cb:.3f} | {c:.3f} | {wb:.3f} | {w:.3f} | {cb / floor:.2f} | {c / floor:.2f} "
                  f"| {exits} |")
        else:
            print(f"| `{label}` | | {c:.3f} | | {w:.3f} | | {c / floor:.2f} | {exits} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
