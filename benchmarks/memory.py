"""Peak memory of `nonocp solve` per engine on the corpus's largest puzzles and a random 200x200 grid.

    nice -n 10 python benchmarks/memory.py                      # every engine, every puzzle, --timeout 60
    python benchmarks/memory.py --engines sat --puzzles cauldron --timeout 20
    python benchmarks/memory.py --write benchmarks/results/memory.md
    python benchmarks/memory.py --per-clause PUZZLE       # bytes each pysat solver holds per clause

What is measured: the whole process tree of one `nonocp solve PUZZLE -b ENGINE --timeout T -f json`
(the command, its forked solver children, the auto engine's race members), sampled every 50 ms. Two
figures per run: the peak of the tree's summed PSS (proportional set size: pages shared between a
parent and its forked children, copy-on-write, are counted once, split between them; this is what the
machine actually gives the run) and the peak RSS of the largest single process (what `ulimit -v` and
`/usr/bin/time` would see). The budget (issue: at most 1 GB per engine) applies to the tree's PSS.

The puzzles: the five largest puzzles of ../shared/corpus (by cells) found by scanning it, and a random
200x200 grid (half the cells black, seed 200) written to a temp file. Missing corpus: those are skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = ROOT.parent / "shared" / "corpus"
ENGINES = ("native", "cpsat", "sat", "auto")
BUDGET = 1 << 30  # bytes

sys.path.insert(0, str(ROOT / "tests"))
from procs import tree  # noqa: E402


def largest_puzzles(n: int = 5) -> list[Path]:
    """The n corpus files holding the largest puzzles by cells (tournament sets skipped: all 25x25)."""
    from nonocp.formats import load

    sized: list[tuple[int, str]] = []
    for root, _, files in os.walk(CORPUS):
        if "nonogram-record" in root:
            continue
        for name in files:
            if name.startswith("README"):
                continue
            path = os.path.join(root, name)
            try:
                puzzles = load(path)
            except Exception:  # noqa: BLE001 - a scan: unreadable files are not candidates
                continue
            sized.append((max(p.width * p.height for p in puzzles), path))
    sized.sort(reverse=True)
    return [Path(p) for _, p in sized[:n]]


def random_grid_puzzle(size: int = 200, seed: int = 200) -> Path:
    """A random size x size black-and-white picture (p = 0.5), as a .non file: hard and far from unique."""
    from nonocp.core.grid import Grid
    from nonocp.core.palette import Palette
    from nonocp.core.puzzle import Meta, Puzzle, clues_of
    from nonocp.formats import dumps

    rng = random.Random(seed)
    grid = Grid(tuple(tuple(rng.randint(0, 1) for _ in range(size)) for _ in range(size)))
    rows, cols = clues_of(grid)
    puzzle = Puzzle(rows, cols, Palette.black_and_white(), Meta(title=f"random {size}x{size} seed {seed}"))
    out = Path(tempfile.gettempdir()) / f"nonocp-random-{size}-{seed}.non"
    out.write_text(dumps(puzzle, "non"), encoding="utf-8")
    return out


def _memory(pid: int) -> tuple[int, int]:
    """(PSS, RSS) of one process in bytes; (0, 0) once it is gone."""
    pss = rss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1]) * 1024
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return pss, rss


def measure(cmd: list[str], hard_limit: float) -> dict:
    """Run `cmd`, sampling its process tree; peak tree PSS, peak single RSS, wall, CPU, exit code."""
    start = time.monotonic()
    out_file = tempfile.TemporaryFile()  # not a pipe: a 512x512 answer would fill it and block the solver
    err_file = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, stdout=out_file, stderr=err_file, start_new_session=True)
    peak_pss = peak_rss = 0
    while proc.poll() is None:
        total = 0
        for p in tree(proc.pid):
            pss, rss = _memory(p)
            total += pss
            peak_rss = max(peak_rss, rss)
        peak_pss = max(peak_pss, total)
        if time.monotonic() - start > hard_limit:
            os.killpg(proc.pid, 9)
            break
        time.sleep(0.05)
    proc.wait()
    wall = time.monotonic() - start
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    out_file.seek(0)
    err_file.seek(0)
    out, err = out_file.read(), err_file.read()
    status = ""
    try:
        status = json.loads(out.decode().splitlines()[0])["status"]
    except (ValueError, IndexError, KeyError):
        status = (err.decode().strip().splitlines() or [""])[-1][:80]
    return {"pss": peak_pss, "rss": peak_rss, "wall": wall, "cpu_total": ru.ru_utime + ru.ru_stime,
            "code": proc.returncode, "status": status}


SOLVERS = ("cadical195", "cadical153", "glucose4", "glucose42", "minisat22", "kissat404", "lingeling")


def per_clause(puzzle: str) -> None:
    """What each pysat solver holds per clause of the puzzle's CNF (the constants of engines/sat.py's
    memory estimate): each solver loaded in a fresh process, resident memory before and after loading."""
    code = (
        "import sys, os\n"
        "from nonocp.formats import load\n"
        "from nonocp.encode.cnf import encode_puzzle\n"
        "from pysat.solvers import Solver\n"
        "rss = lambda: int(open('/proc/self/statm').read().split()[1]) * os.sysconf('SC_PAGE_SIZE')\n"
        "cnf = encode_puzzle(load(sys.argv[1])[0])\n"
        "before = rss()\n"
        "s = Solver(name=sys.argv[2], bootstrap_with=cnf.clauses)\n"
        "print(len(cnf.clauses), cnf.clauses.n_literals, rss() - before)\n"
    )
    print("| solver | clauses | literals | MB after loading | bytes per clause |\n|---|---:|---:|---:|---:|")
    for name in SOLVERS:
        out = subprocess.run([sys.executable, "-c", code, puzzle, name], capture_output=True, text=True)
        clauses, literals, grew = (int(x) for x in out.stdout.split())
        print(f"| {name} | {clauses} | {literals} | {grew / 2**20:.0f} | {grew / clauses:.0f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--puzzles", default="", help="substrings of file names to keep (comma-separated)")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--write", help="write the table (markdown) to this file")
    ap.add_argument("--per-clause", metavar="PUZZLE", help="measure each pysat solver's bytes per clause")
    args = ap.parse_args(argv)
    if args.per_clause:
        per_clause(args.per_clause)
        return 0
    nonocp = str(Path(sys.executable).with_name("nonocp"))
    puzzles = largest_puzzles() if CORPUS.exists() else []
    puzzles.append(random_grid_puzzle())
    if args.puzzles:
        keep = args.puzzles.split(",")
        puzzles = [p for p in puzzles if any(k in p.name for k in keep)]
    load = os.getloadavg()
    rows = []
    cpu_before = 0.0
    for puzzle in puzzles:
        for engine in args.engines.split(","):
            cmd = [nonocp, "solve", str(puzzle), "-b", engine, "--timeout", str(args.timeout), "-f", "json"]
            m = measure(cmd, args.timeout * 3 + 60)
            cpu = m["cpu_total"] - cpu_before
            cpu_before = m["cpu_total"]
            ok = "yes" if m["pss"] <= BUDGET else "**no**"
            rows.append(f"| {puzzle.name} | {engine} | {m['pss'] / 2**20:.0f} | {m['rss'] / 2**20:.0f} | {ok} | "
                        f"{m['status']} | {m['code']} | {m['wall']:.1f} | {cpu:.1f} |")
            print(rows[-1], flush=True)
    table = ["| puzzle | engine | peak PSS of the tree, MiB | peak RSS of one process, MiB | within 1 GiB | "
             "status | exit | wall s | CPU s |", "|---|---|---:|---:|---|---|---:|---:|---:|", *rows]
    header = (f"Measured {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average at start "
              f"{load[0]:.1f}; command per row: `nonocp solve PUZZLE -b ENGINE --timeout {args.timeout:g} -f json`.")
    if args.write:
        Path(args.write).write_text(header + "\n\n" + "\n".join(table) + "\n", encoding="utf-8")
    print(header)
    return 0


if __name__ == "__main__":
    sys.exit(main())
