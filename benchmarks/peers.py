"""nonocp against other solvers, puzzle by puzzle: CPU seconds, verdicts, agreement, machine load.

    python benchmarks/peers.py survey                          # the 28 numbered survey puzzles
    python benchmarks/peers.py hard --timeout 300              # Knotty, Faase, Meow
    python benchmarks/peers.py taai2011 --every 10 -n 1        # a tournament set, first solution only
    python benchmarks/peers.py random30 --count 500            # the project's random 30x30 set (seeded)
    python benchmarks/peers.py colour30                        # the project's random colour set
    python benchmarks/peers.py FILE... --nonocp process        # any puzzle files; nonocp as a whole process
    python benchmarks/peers.py survey --json /tmp/survey.json --markdown /tmp/survey.md

The peers are never part of this repository: they are found by path, from the environment,

    NONOCP_NONOSOLVE=/path/to/nonosolve   (github hyouv/FastNonogramSolver; black and white only)
    NONOCP_NONOGRID=/path/to/nonogrid     (github tsionyx/nonogrid, built with --no-default-features;
                                           reads Olsak .g; a second argument caps the solutions)
    NONOCP_PBNSOLVE=/path/to/pbnsolve     (pbnsolve 1.10 by Jan Wolter; reads webpbn XML)

or `--peer name=PATH`; results/peers.md says how each was built. A peer whose variable is unset is left
out, so without any the script still measures nonocp alone.

Each puzzle is converted once into the peers' formats (in a temporary folder), then every solver runs on
it in turn before the next puzzle starts (interleaved, so a change of machine load hits all alike). A peer
runs as a child process; its CPU seconds are the child's user + system time from wait4 (start-up
included), with RLIMIT_CPU as the time limit. nonocp runs either in this process (`--nonocp inproc`,
the default: CPU of `solve()`, forked children included, no start-up) or as `nonocp solve -f json` (`process`:
the whole command, start-up included, as a user runs it), or both. Every grid any solver reports is
checked against the clues; a wrong grid is a `wrong` verdict. Verdicts are compared per puzzle: unique,
multiple and none are proofs; `found` (first-solution mode) agrees with unique and multiple.

The load average (1 minute) is recorded before each puzzle; the summary gives its range.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from machine import CpuSplit, cpu_seconds

from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.engines import SolveOptions, get_backend
from nonocp.formats import load

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = Path(os.environ.get("NONOCP_CORPUS", ROOT.parent / "shared" / "corpus"))
sys.path.insert(0, str(ROOT / "puzzles" / "tools"))

PROOFS = ("unique", "multiple", "none")
PEER_ENV = {"nonosolve": "NONOCP_NONOSOLVE", "nonogrid": "NONOCP_NONOGRID", "pbnsolve": "NONOCP_PBNSOLVE"}


# --- converters: one puzzle into each peer's input format -------------------------------------------------

def to_nin(p: Puzzle) -> str:
    """Jakub Wilk's .nin: `W H`, the row clues, the column clues; `0` for an empty line."""
    def line(clue) -> str:  # noqa: ANN001 - a Clue
        return " ".join(str(b.length) for b in clue) or "0"
    return "\n".join([f"{p.width} {p.height}", *map(line, p.rows), *map(line, p.cols)]) + "\n"


def _symbols(p: Puzzle) -> list[str]:
    """One letter per ink (palette index 1..); the background is `.` in every peer format written here."""
    return [chr(ord("a") + i) for i in range(len(p.palette) - 1)]


def to_olsak(p: Puzzle) -> str:
    """Olsak .g as nonogrid reads it: a first line, `#d` colour declarations, `: rows`, `: columns`, each
    clue line a list of `<length><colour letter>` (an empty line is an empty clue; nothing may follow)."""
    sym = _symbols(p)
    decl = ["   0:   #FFFFFF   white"]
    if p.palette.is_black_and_white:
        decl.append("   a:X  #000000   black")
    else:
        decl += [f"   {s}:{s}  {p.palette[i + 1].rgb.upper()}   ink{i + 1}" for i, s in enumerate(sym)]

    def line(clue) -> str:  # noqa: ANN001
        return " ".join(f"{b.length}{sym[b.color - 1]}" for b in clue)
    return "\n".join(["nonocp", "#d", *decl, ": rows", *map(line, p.rows), ": columns", *map(line, p.cols)]) + "\n"


def to_webpbn_xml(p: Puzzle) -> str:
    """webpbn XML as pbnsolve reads it, without a DOCTYPE (libxml2 would try to fetch the DTD)."""
    sym = _symbols(p)
    out = ['<?xml version="1.0"?>', "<puzzleset>", '<puzzle type="grid" backgroundcolor="white" defaultcolor="c1">',
           '<color name="white" char=".">ffffff</color>']
    out += [f'<color name="c{i + 1}" char="{s}">{p.palette[i + 1].rgb.lstrip("#")}</color>' for i, s in enumerate(sym)]
    for kind, clues in (("columns", p.cols), ("rows", p.rows)):
        out.append(f'<clues type="{kind}">')
        for clue in clues:
            out.append("<line>" + "".join(f'<count color="c{b.color}">{b.length}</count>' for b in clue) + "</line>")
        out.append("</clues>")
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"


# --- running a child: CPU seconds from wait4, a CPU-time limit, a wall-clock guard -----------------------

@dataclass
class Run:
    solver: str
    verdict: str  # unique, multiple, none, found (first solution), timeout, stalled (no claim), error, wrong
    cpu: float
    wall: float
    note: str = ""
    grids: list = field(default_factory=list, repr=False)


def run_child(cmd: Sequence[str], cpu_limit: float, cwd: str | None = None) -> tuple[int, str, str, float, float]:
    """(exit status or -signal, stdout, stderr, CPU seconds, wall seconds) of one child process."""
    def limits() -> None:
        os.setsid()
        lim = max(1, int(cpu_limit + 1))
        resource.setrlimit(resource.RLIMIT_CPU, (lim, lim + 2))
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=cwd, preexec_fn=limits)
        guard = t0 + 20 * cpu_limit + 30  # a child stuck off the CPU (sleeping, swapping) is still stopped
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > guard:
                os.killpg(proc.pid, signal.SIGKILL)
            time.sleep(0.002)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        return (proc.returncode, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                usage.ru_utime + usage.ru_stime, wall)


def _grid_from_text(lines: list[str], p: Puzzle, ink: Callable[[str], int]) -> Grid | None:
    if len(lines) != p.height or any(len(ln) != p.width for ln in lines):
        return None
    try:
        return Grid.from_rows([[ink(ch) for ch in ln] for ln in lines])
    except (KeyError, ValueError):
        return None


def _letter_ink(p: Puzzle, black: str) -> Callable[[str], int]:
    table = {".": 0, " ": 0}
    if p.palette.is_black_and_white:
        table[black] = 1
    else:
        table.update({s: i + 1 for i, s in enumerate(_symbols(p))})
    return table.__getitem__


class Peer:
    name = ""
    takes_colour = True
    ext = ""

    def __init__(self, path: str) -> None:
        self.path = path

    def convert(self, p: Puzzle) -> str:
        raise NotImplementedError

    def command(self, file: str, max_solutions: int) -> list[str]:
        raise NotImplementedError

    def parse(self, code: int, out: str, err: str, p: Puzzle, max_solutions: int) -> tuple[str, list[Grid], str]:
        raise NotImplementedError

    def run(self, file: str, p: Puzzle, max_solutions: int, timeout: float) -> Run:
        code, out, err, cpu, wall = run_child(self.command(file, max_solutions), timeout, cwd=os.path.dirname(file))
        if code in (-signal.SIGXCPU, -signal.SIGKILL) or cpu >= timeout:
            return Run(self.name, "timeout", cpu, wall)
        verdict, grids, note = self.parse(code, out, err, p, max_solutions)
        return Run(self.name, verdict, cpu, wall, note, grids)


class Nonosolve(Peer):
    """`nonosolve [-n N] --json OUT -q FILE.nin`: the verdict word and every solution as a 0/1 string."""

    name, takes_colour, ext = "nonosolve", False, ".nin"

    def convert(self, p: Puzzle) -> str:
        return to_nin(p)

    def command(self, file: str, max_solutions: int) -> list[str]:
        return [self.path, "-n", str(max_solutions), "-q", "--json", file + ".json", file]

    def parse(self, code, out, err, p, max_solutions):  # noqa: ANN001, ANN201
        try:
            with open(self.last_file + ".json", encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            return "error", [], f"exit {code}: {err.strip()[-200:]}"
        word = {"UNIQUE": "unique", "MULTIPLE": "multiple", "NONE": "none", "FOUND": "found",
                "TIMEOUT": "timeout"}.get(data.get("status"), "error")
        grids = [Grid.from_rows([[int(s[r * p.width + c]) for c in range(p.width)] for r in range(p.height)])
                 for s in data.get("solutions", [])]
        return word, grids, ""

    def run(self, file: str, p: Puzzle, max_solutions: int, timeout: float) -> Run:
        self.last_file = file
        return super().run(file, p, max_solutions, timeout)


class Nonogrid(Peer):
    """`nonogrid FILE.g N`: every solution it printed (or the grid propagation alone solved); a puzzle
    proved contradictory ends in a panic naming the line that failed. On a few colour puzzles it ends with
    cells open and nothing printed: `stalled`, no verdict."""

    name, ext = "nonogrid", ".g"

    def convert(self, p: Puzzle) -> str:
        return to_olsak(p)

    def command(self, file: str, max_solutions: int) -> list[str]:
        return [self.path, file, str(max_solutions)]

    def parse(self, code, out, err, p, max_solutions):  # noqa: ANN001, ANN201
        if code != 0:
            if "Bad puzzle" in err or "Unsolvable" in err or "contradiction" in err.lower():
                return "none", [], ""
            return "error", [], f"exit {code}: {err.strip().splitlines()[0][:200] if err.strip() else ''}"
        lines = out.splitlines()
        ink = _letter_ink(p, "\u25a0")
        grids = []
        for k, ln in enumerate(lines):
            if ln.startswith("solved-grid:") or ln.endswith("-th solution:"):
                g = _grid_from_text(lines[k + 1:k + 1 + p.height], p, ink)
                grids.append(g)
        grids = [g for g in grids if g is not None]
        unique = {tuple(map(tuple, g.cells)) for g in grids}
        if len(unique) >= 2:
            return ("found" if max_solutions == 1 else "multiple"), grids, ""
        if len(unique) == 1:
            return ("found" if max_solutions == 1 else "unique"), grids, ""
        # exit 0, cells left open and no solution printed: its search gave up without a claim
        return "stalled", [], "no solution printed, no contradiction reported"


class Pbnsolve(Peer):
    """`pbnsolve [-u] FILE.xml`: its verdict headline and the one or two grids printed after it."""

    name, ext = "pbnsolve", ".xml"
    HEADS = {"UNIQUE LINE SOLUTION:": "unique", "UNIQUE SOLUTION:": "unique", "FOUND MULTIPLE SOLUTIONS:": "multiple",
             "STOPPED WITH SOLUTION:": "found", "NO SOLUTION": "none", "NO SOLUTION.": "none"}

    def convert(self, p: Puzzle) -> str:
        return to_webpbn_xml(p)

    def command(self, file: str, max_solutions: int) -> list[str]:
        return [self.path, *(["-u"] if max_solutions >= 2 else []), file]

    def parse(self, code, out, err, p, max_solutions):  # noqa: ANN001, ANN201
        lines = out.splitlines()
        ink = _letter_ink(p, "a")
        verdict, grids = "error", []
        for k, ln in enumerate(lines):
            head = ln.strip()
            if head.startswith("UNIQUE DEPTH-"):
                head = "UNIQUE SOLUTION:"
            if head in self.HEADS:
                verdict = self.HEADS[head]
                g = _grid_from_text(lines[k + 1:k + 1 + p.height], p, ink)
                if g is not None:
                    grids.append(g)
            elif head == "ALTERNATE SOLUTION":
                g = _grid_from_text(lines[k + 1:k + 1 + p.height], p, ink)
                if g is not None:
                    grids.append(g)
        if max_solutions == 1 and verdict in ("unique", "multiple"):
            verdict = "found"
        return verdict, grids, "" if verdict != "error" else f"exit {code}: {(err or out).strip()[-200:]}"


PEERS = {"nonosolve": Nonosolve, "nonogrid": Nonogrid, "pbnsolve": Pbnsolve}


def find_peers(explicit: list[str]) -> list[Peer]:
    paths = {name: os.environ.get(env, "") for name, env in PEER_ENV.items()}
    for item in explicit:
        name, _, path = item.partition("=")
        if name not in PEERS:
            raise SystemExit(f"--peer {item}: unknown peer (choose from {', '.join(PEERS)})")
        paths[name] = path
    out = []
    for name, path in paths.items():
        if not path:
            continue
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise SystemExit(f"{name}: {path} is not an executable file")
        out.append(PEERS[name](path))
    return out


# --- nonocp, in this process or as a command -------------------------------------------------------------

# The in-process limit is CPU seconds like the peers' RLIMIT_CPU: solve() gets WALL_SLACK times as much wall
# clock (on a busy machine at nice 10 a 60 s wall limit is a few CPU seconds), and a run that used the CPU
# limit counts as a time-out whatever it answered.
WALL_SLACK = 10.0


def nonocp_inproc(p: Puzzle, backend: str, max_solutions: int, timeout: float) -> Run:
    options = SolveOptions(max_solutions=max_solutions, time_limit=timeout * WALL_SLACK, workers=1)
    t, c = time.perf_counter(), cpu_seconds()
    r = get_backend(backend).solve(p, options)
    wall, cpu = time.perf_counter() - t, cpu_seconds() - c
    status = r.status.value
    verdict = {"unique": "unique", "multiple": "multiple", "none": "none"}.get(status, status)
    if status == "unique" and max_solutions == 1:
        verdict = "found"
    if verdict not in PROOFS + ("found",):
        verdict = "timeout" if "time" in status or "unknown" in status else verdict
    if cpu >= timeout:
        return Run(f"nonocp-{backend}", "timeout", cpu, wall, str(r.stats.get("decided_by", "")))
    if max_solutions == 1 and r.solutions:
        verdict = "found"
    return Run(f"nonocp-{backend}", verdict, cpu, wall, str(r.stats.get("decided_by", "")), list(r.solutions))


def nonocp_process(file: str, p: Puzzle, backend: str, max_solutions: int, timeout: float) -> Run:
    exe = shutil.which("nonocp", path=os.path.dirname(sys.executable)) or "nonocp"
    cmd = [exe, "solve", "-f", "json", "-b", backend, "-n", str(max_solutions), "--from", "non", file]
    code, out, err, cpu, wall = run_child(cmd, timeout)
    name = f"nonocp-{backend}-process"
    if code in (-signal.SIGXCPU, -signal.SIGKILL) or cpu >= timeout:
        return Run(name, "timeout", cpu, wall)
    try:
        data = json.loads(out.splitlines()[0])
    except (ValueError, IndexError):
        return Run(name, "error", cpu, wall, f"exit {code}: {err.strip()[-200:]}")
    status = data.get("status", "error")
    grids = [Grid.from_strings(rows, p.palette) for rows in data.get("solutions", [])]
    verdict = "found" if max_solutions == 1 and grids else status
    return Run(name, verdict, cpu, wall, data.get("decided_by", ""), grids)


# --- puzzle sets ------------------------------------------------------------------------------------------

def survey(hard: bool) -> list[tuple[str, Puzzle]]:
    out = []
    for folder in ("free", "restricted"):
        for path in sorted(glob.glob(str(CORPUS / "webpbn-survey" / folder / "webpbn-*.txt"))):
            tag = os.path.basename(path)[len("webpbn-"):].split("-")[0].split(".")[0]
            if tag.isdigit() != (not hard):
                continue
            out.append((os.path.basename(path)[:-4], load(path)[0]))
    return out


def puzzle_set(name: str, count: int | None, seed: int) -> list[tuple[str, Puzzle]]:
    import make_reference_sets as refs

    if name in ("survey", "hard"):
        return survey(name == "hard")
    if name in refs.SETS:
        path = refs.write_set(name, seed=seed, count=count)
        return [(f"{name}#{k + 1}", p) for k, p in enumerate(load(str(path)))]
    path = name if os.path.exists(name) else str(CORPUS / "nonogram-record" / "question" / f"{name}.txt")
    if not os.path.exists(path):
        raise SystemExit(f"{name}: no such set or file")
    stem = os.path.basename(path).rsplit(".", 1)[0]
    return [(f"{stem}#{k + 1}", p) for k, p in enumerate(load(path))]


# --- the run ----------------------------------------------------------------------------------------------

def agree(runs: list[Run]) -> bool:
    proofs = {r.verdict for r in runs if r.verdict in PROOFS}
    found = any(r.verdict == "found" for r in runs)
    return len(proofs) <= 1 and not (found and "none" in proofs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="+", help="survey, hard, random30, colour30, a tournament set name, or files")
    ap.add_argument("-n", "--max-solutions", type=int, default=2, help="2: with uniqueness (default); 1: first")
    ap.add_argument("-t", "--timeout", type=float, default=60.0, help="CPU seconds per puzzle and solver")
    ap.add_argument("-b", "--backend", default="auto", help="nonocp engine (default auto)")
    ap.add_argument("--nonocp", choices=("inproc", "process", "both", "none"), default="inproc")
    ap.add_argument("--peer", action="append", default=[], help="name=PATH (else from the environment)")
    ap.add_argument("--only-peers", default="", help="comma-separated subset of the peers found")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--count", type=int, default=None, help="puzzles of a generated set (default: all)")
    ap.add_argument("--seed", type=int, default=2026, help="seed of a generated set")
    ap.add_argument("--json", help="write every run here")
    ap.add_argument("--markdown", help="append a summary table here")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)

    peers = find_peers(args.peer)
    if args.only_peers:
        keep = set(args.only_peers.split(","))
        peers = [q for q in peers if q.name in keep]
    items: list[tuple[str, Puzzle]] = []
    for s in args.sets:
        items += puzzle_set(s, args.count, args.seed)
    items = items[args.offset::args.every][:args.limit] if args.limit else items[args.offset::args.every]
    label = " ".join(os.path.basename(s) for s in args.sets)
    solvers = ([f"nonocp-{args.backend}"] if args.nonocp in ("inproc", "both") else [])
    solvers += [f"nonocp-{args.backend}-process"] if args.nonocp in ("process", "both") else []
    solvers += [q.name for q in peers]
    print(f"{label}: {len(items)} puzzles, -n {args.max_solutions}, limit {args.timeout} CPU s; solvers "
          f"{', '.join(solvers)}; load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    if args.nonocp in ("inproc", "both"):  # imports and first-call set-up are not the first puzzle's
        nonocp_inproc(Puzzle(rows=[[1], [1]], cols=[[1], [1]]), args.backend, 2, 10.0)
    split = CpuSplit()
    rows: list[dict] = []
    loads: list[float] = []
    tmp = tempfile.mkdtemp(prefix="nonocp-peers-")
    try:
        for name, p in items:
            loads.append(os.getloadavg()[0])
            runs: list[Run] = []
            base = os.path.join(tmp, "p")
            need_file = args.nonocp in ("process", "both")
            if need_file:
                from nonocp.formats import dumps
                with open(base + ".non", "w", encoding="utf-8") as f:
                    f.write(dumps(p, "non"))
            if args.nonocp in ("inproc", "both"):
                runs.append(nonocp_inproc(p, args.backend, args.max_solutions, args.timeout))
            if need_file:
                runs.append(nonocp_process(base + ".non", p, args.backend, args.max_solutions, args.timeout))
            for q in peers:
                if not q.takes_colour and not p.palette.is_black_and_white:
                    continue
                file = base + q.ext
                with open(file, "w", encoding="utf-8") as f:
                    f.write(q.convert(p))
                runs.append(q.run(file, p, args.max_solutions, args.timeout))
            for r in runs:
                bad = [g for g in r.grids if g is None or not p.is_solution(g)]
                if bad or (r.verdict in ("unique", "multiple", "found") and not r.grids):
                    r.note = (r.note + " " if r.note else "") + ("wrong grid" if bad else "no grid to check")
                    if bad:
                        r.verdict = "wrong"
            ok = agree(runs)
            for r in runs:
                d = asdict(r)
                d.pop("grids")
                d.update(puzzle=name, load=loads[-1], agree=ok)
                rows.append(d)
            if not args.quiet:
                cells = "  ".join(f"{r.solver} {r.verdict:8} {r.cpu:7.3f}" for r in runs)
                print(f"{name:34} {cells}{'' if ok else '  DISAGREE'}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    end_load = os.getloadavg()[0]
    print(f"load at end {end_load:.2f}; {split.report()}")
    summary = summarise(rows, solvers, loads + [end_load])
    print(summary)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"args": vars(args), "rows": rows}, f, indent=1)
    if args.markdown:
        with open(args.markdown, "a", encoding="utf-8") as f:
            f.write(f"\n`python benchmarks/peers.py {' '.join(argv if argv is not None else sys.argv[1:])}`\n\n"
                    + summary + "\n")
    return 1 if any(not r["agree"] for r in rows) else 0


def summarise(rows: list[dict], solvers: list[str], loads: list[float]) -> str:
    base = solvers[0] if solvers else None
    by = {s: {r["puzzle"]: r for r in rows if r["solver"] == s} for s in solvers}
    lines = ["| solver | puzzles | CPU s | ratio to " + str(base) + " | median s | slowest | verdicts |",
             "|---|---:|---:|---:|---:|---|---|"]
    for s in solvers:
        mine = list(by[s].values())
        if not mine:
            continue
        cpu = sum(r["cpu"] for r in mine)
        common = [k for k in by[s] if base and k in by[base]]
        ratio = (sum(by[s][k]["cpu"] for k in common) / max(1e-9, sum(by[base][k]["cpu"] for k in common))
                 if common and s != base else 1.0)
        counts: dict[str, int] = {}
        for r in mine:
            counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
        worst = max(mine, key=lambda r: r["cpu"])
        lines.append(f"| {s} | {len(mine)} | {cpu:.2f} | {ratio:.2f} | {statistics.median(r['cpu'] for r in mine):.3f} "
                     f"| {worst['puzzle']} {worst['cpu']:.2f} | "
                     + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + " |")
    dis = sorted({r["puzzle"] for r in rows if not r["agree"]})
    lines.append("")
    lines.append(f"Load (1 min) {min(loads):.2f}-{max(loads):.2f}, median {statistics.median(loads):.2f}. "
                 f"Disagreements: {', '.join(dis) if dis else 'none'}.")
    if base in by and by[base]:
        worst = sorted(by[base].values(), key=lambda r: -r["cpu"])[:10]
        lines.append(f"Worst 10 for {base}: " + ", ".join(
            f"{r['puzzle']} {r['cpu']:.2f}" + "".join(f"/{s} {by[s][r['puzzle']]['cpu']:.2f}" for s in solvers[1:]
                                                       if r["puzzle"] in by[s]) for r in worst))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
