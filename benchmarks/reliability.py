"""The hardening campaign, rerunnable: hostile but fair inputs through every reader and command, special
files, full disks, signals on every engine, titles that attack terminals and formats, cut enumerations.

    nice -n 10 python benchmarks/reliability.py --quick      # ~600 inputs, a few minutes: while iterating
    nice -n 10 python benchmarks/reliability.py              # ~10,000 inputs
    python benchmarks/reliability.py --write benchmarks/results/reliability.md

It prints one table: category, inputs tried, failures, and each failure (the input and what went wrong).
What counts as a failure, by category:

- readers (mutated files, in process): anything but a ParseError/NonocpError escaping `formats.load`, a
  message that does not start with the file's name, or a read still running after 20 s; a puzzle that
  loads but whose `.non`/JSON/XML writing does not read back to the same clues.
- commands (mutated files through solve/show/convert/check/rate/explain, in process via typer's runner,
  outputs written with -o into a temp folder): an exit code the command does not document, an exception
  escaping the command, a traceback, or an exit-2 message that is not one `nonocp: ` line.
- special files: FIFOs, devices, directories, symlinks (loops, dangling, to /proc/self/fd/1), empty and
  oversized files, as inputs and as `-o` outputs of the real command (a subprocess): it must end (no hang),
  exit 0 or 2 with one line, and leave every special file what it was (a FIFO a FIFO, /dev/null a device).
- full disk: ENOSPC injected into every writer (solve -o, show -o, convert, --proof): exit 2, one line
  naming the output, the previous file intact, no temp file left.
- signals: SIGINT and SIGTERM to `nonocp solve --all` on every engine, with and without --timeout, and to
  `check`: exit 130 and "interrupted" (SIGINT; SIGTERM on check), `solve` dead of SIGTERM, and no solver
  process left behind either way.
- titles: random control characters, bidi overrides, line breaks and non-ASCII in titles, through the
  text and JSON output and every writer: no raw control character in text, JSON that decodes to the exact
  title, files that read back.
- enumerations: `--all --timeout` on a 20x20 permutation puzzle (20! solutions) on every engine: exit 3,
  `"exhaustive": false`, `"stopped": "timeout"`.
- time limits: `--timeout 2` and `5` on a random 200x200 grid and on that enumeration, every engine: the
  answer comes at most 1.5 s after the limit (the engine's own `seconds`; CP-SAT overshot by seconds).
- XML attacks: billion laughs, external entities, parameter entities, external DTDs: refused (exit 2) in
  one line, nothing fetched.
- api arguments: every public function of the Python API called with arguments hypothesis draws: only
  TypeError, ValueError or nonocp's own errors, each with a message, never another exception or a hang.
- long enumerations: `solve --all -t 75` on perm20 (20! solutions) and `-t 10` on puzzles with 10^8 to 10^26
  solutions (5 and 3 s in the quick run), every engine, text and JSON, to standard output and to a file,
  under a memory probe: the largest process peaks under 256 MiB, the command exits 3 on time and writes
  what it found.
- output policy: every writer pointed at its own input (the same path, another spelling, a symbolic or
  hard link, a link to its folder, a puzzle found by scanning a folder, standard input read from the
  file), with and without --force; two outputs on one path; read-only outputs: a one-line refusal and
  the input unchanged byte for byte and mode for mode; a read-only output replaced only with --force.
- hostile pictures: generated PNG/GIF/JPEG that are small files and big decoded (up to 50 million
  pixels), thin, RGBA over the decoded budget, many frames, truncated, lying headers, through `design` in a
  process of its own: exit 0 or 2 in one line, no traceback, peak resident size under 256 MiB.
- server: a running `serve`: generated requests from other origins (403, no worker started), bodies of
  other types (415), floods of 50 hostile requests (every request answered, /api/info answered
  throughout, no worker left, no traceback in the log).
- cluster addresses: generated `--cluster` addresses (ClusterError or well formed, never another
  exception; a sample through the real command: one line, exit 2), endpoints that are not Dask
  schedulers, local:N over the cap.

Inputs come from ../shared/corpus (a sample of every folder, or every file in the full run) and the
shipped puzzles/; the mutations are seeded, so a run is reproducible (`--seed`).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = ROOT.parent / "shared" / "corpus"
PUZZLES = ROOT / "puzzles"
NONOCP = [sys.executable, "-m", "nonocp.cli"]
ENGINES = ("native", "cpsat", "sat", "auto")

sys.path.insert(0, str(ROOT / "tests"))
from procs import alive, children, cpu_seconds  # noqa: E402


@dataclass
class Category:
    name: str
    tried: int = 0
    failures: list[str] = field(default_factory=list)

    def check(self, ok: bool, what: str) -> None:
        self.tried += 1
        if not ok:
            self.failures.append(what)


# --- inputs -------------------------------------------------------------------------------------------


def source_files(full: bool, rng: random.Random) -> list[Path]:
    """Puzzle files to mutate: every shipped puzzle, and corpus files (a few per folder, or all)."""
    files = sorted(p for p in PUZZLES.iterdir() if p.suffix in (".non", ".nonpack"))
    if CORPUS.exists():
        by_folder: dict[Path, list[Path]] = {}
        for root, _, names in os.walk(CORPUS):
            for name in sorted(names):
                p = Path(root) / name
                if name.lower().startswith(("readme", "license")) or p.suffix in (".md", ".csv"):
                    continue
                if p.stat().st_size > 300_000:  # the tournament sets: one file is 1,000 puzzles
                    continue
                by_folder.setdefault(Path(root), []).append(p)
        for folder in sorted(by_folder):
            group = by_folder[folder]
            files += group if full else rng.sample(group, min(3, len(group)))
    return files


_HOSTILE_BYTES = [b".", b";", b"l", b"O", b"x", b"-", b"9999999", b"\x00", b"\x1b", "é".encode(), b"\xff", b"#",
                  b"\"", b"\n", b",", b" ", b"0", b"1.5", b"&#x0;", b"<!ENTITY a 'b'>"]


def mutations(data: bytes, rng: random.Random) -> Iterator[tuple[str, bytes]]:
    """Named mutations of a file's bytes (each seeded by `rng`)."""
    n = len(data)
    lines = data.split(b"\n")
    yield "truncated", data[: rng.randrange(n)] if n else b""
    k = rng.randrange(max(n, 1))
    yield "byte flipped", data[:k] + bytes([rng.randrange(256)]) + data[k + 1:]
    k = rng.randrange(max(n, 1))
    yield "hostile bytes inserted", data[:k] + rng.choice(_HOSTILE_BYTES) + data[k:]
    digits = [i for i, b in enumerate(data) if 48 <= b <= 57]
    if digits:
        k = rng.choice(digits)
        yield "digit replaced", data[:k] + rng.choice(_HOSTILE_BYTES) + data[k + 1:]
    if len(lines) > 2:
        k = rng.randrange(len(lines))
        yield "line deleted", b"\n".join(lines[:k] + lines[k + 1:])
        yield "line doubled", b"\n".join(lines[:k] + [lines[k]] + lines[k:])
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        swapped = list(lines)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        yield "lines swapped", b"\n".join(swapped)
    yield "junk appended", data + b"\n" + bytes(rng.randrange(32, 127) for _ in range(rng.randrange(1, 200)))
    with contextlib.suppress(UnicodeDecodeError):
        yield "UTF-16", data.decode("utf-8").encode("utf-16")
    yield "random bytes", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))


# --- categories ---------------------------------------------------------------------------------------


class Alarm(Exception):
    pass


@contextlib.contextmanager
def deadline(seconds: float):
    def ring(signum, frame):
        raise Alarm

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def readers(cat: Category, inputs: list[tuple[str, str, bytes]], work: Path) -> None:
    from nonocp.core.errors import NonocpError
    from nonocp.formats import dumps, load, loads

    for label, ext, data in inputs:
        path = work / f"in{ext}"
        path.write_bytes(data)
        try:
            with deadline(20):
                puzzles = load(str(path))
        except NonocpError as e:
            cat.check(str(e).startswith(str(path)), f"{label}: message does not name the file: {e}")
            continue
        except Alarm:
            cat.check(False, f"{label}: reading took over 20 s")
            continue
        except Exception as e:  # noqa: BLE001 - the finding
            cat.check(False, f"{label}: {type(e).__name__}: {e}")
            continue
        ok, why = True, ""
        for fmt in ("non", "json", "xml"):
            try:
                back = loads(dumps(puzzles, fmt if len(puzzles) == 1 or fmt != "non" else "nonpack"),
                             fmt if len(puzzles) == 1 or fmt != "non" else "nonpack")
                if [(p.rows, p.cols) for p in back] != [(p.rows, p.cols) for p in puzzles]:
                    ok, why = False, f"{fmt} round trip changed the clues"
            except Exception as e:  # noqa: BLE001 - the finding
                ok, why = False, f"{fmt} round trip: {type(e).__name__}: {e}"
        cat.check(ok, f"{label}: {why}")


# exit codes each command documents
EXITS = {"solve": {0, 1, 2, 3}, "show": {0, 2}, "convert": {0, 2}, "check": {0, 2, 3}, "rate": {0, 2, 3},
         "explain": {0, 1, 2, 3}}


def command_lines(path: Path, out: Path, rng: random.Random) -> list[list[str]]:
    engine = rng.choice(("native", "native", "sat", "auto", "cpsat"))
    return [
        ["solve", str(path), "-b", engine, "--timeout", "2", "-f", rng.choice(("text", "json", "non")),
         "-o", str(out / "solved.out")],
        ["show", str(path)],
        ["convert", str(path), str(out / f"c.{rng.choice(('non', 'xml', 'json'))}"), "--force"],
        ["check", str(path), "--backends", "native,sat", "--timeout", "2"],
        ["rate", str(path), "--timeout", "2"],
        ["explain", str(path), "--timeout", "2", "--no-grid"],
    ]


def commands(cat: Category, inputs: list[tuple[str, str, bytes]], work: Path, rng: random.Random) -> None:
    from typer.testing import CliRunner

    from nonocp.cli.app import app

    runner = CliRunner()
    out = work / "out"
    out.mkdir(exist_ok=True)
    for label, ext, data in inputs:
        path = work / f"in{ext}"
        path.write_bytes(data)
        for args in command_lines(path, out, rng):
            try:
                with deadline(60):
                    r = runner.invoke(app, args)
            except Alarm:
                cat.check(False, f"{label}: nonocp {args[0]} ran over 60 s")
                continue
            text = r.output
            ok = r.exit_code in EXITS[args[0]] and "Traceback" not in text
            if r.exception is not None and not isinstance(r.exception, SystemExit):
                ok = False
                text = f"{type(r.exception).__name__}: {r.exception}"
            if r.exit_code == 2:
                errs = [ln for ln in text.splitlines() if ln.startswith("nonocp: ")]
                ok = ok and len(errs) == 1
            cat.check(ok, f"{label}: nonocp {' '.join(args[:1])} exit {r.exit_code}: {text.strip()[:200]}")


def run(args: list[str], timeout: float = 120, **kw) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run([*NONOCP, *args], capture_output=True, text=True, errors="replace", timeout=timeout,
                              **kw)
    except subprocess.TimeoutExpired:
        return None


def one_line_error(r: subprocess.CompletedProcess | None) -> bool:
    return r is not None and r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith("nonocp: ")


def one_error_per_file(r: subprocess.CompletedProcess | None, folder: Path, files: int) -> bool:
    lines = r.stderr.splitlines() if r is not None else []
    return r is not None and r.returncode == 2 and len(lines) == files \
        and all(ln.startswith(f"nonocp: {folder}/") for ln in lines)


def special_files(cat: Category, work: Path) -> None:
    work.mkdir()
    heart = str(PUZZLES / "heart.non")
    fifo = work / "fifo.non"
    os.mkfifo(fifo)
    loop = work / "loop.non"
    loop.symlink_to(loop.name)
    dangling = work / "dangling.non"
    dangling.symlink_to("missing.non")
    empty = work / "empty.non"
    empty.write_bytes(b"")
    sparse = work / "huge.non"
    with open(sparse, "wb") as f:
        f.truncate(100 << 20)
    inputs = [str(fifo), "/dev/null", "/dev/zero", "/dev/full", str(work), str(loop), str(dangling), str(empty),
              str(sparse), "/proc/self/fd/0"]
    for target in inputs:
        for command in (["solve", target, "-b", "native"], ["show", target], ["convert", target, "-", "--to", "json"],
                        ["check", target, "--backends", "native"], ["rate", target]):
            r = run(command, timeout=60, stdin=subprocess.DEVNULL)
            if command[0] == "rate" and target == str(work):
                # a folder: rate walks it and reports every unreadable file as an ERROR row, exit 2
                ok = r is not None and r.returncode == 2 and "Traceback" not in r.stdout + r.stderr \
                    and r.stdout.count("ERROR") >= 5
            elif command[0] in ("solve", "show") and target == str(work):
                # a folder: every file is read, and each unreadable one gets its own line naming it
                ok = one_error_per_file(r, work, 5)
            else:
                ok = one_line_error(r)
            cat.check(ok, f"input {target}: nonocp {command[0]}: "
                      f"{'hung' if r is None else (r.returncode, r.stderr.strip()[:160])}")
        cat.check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO is no longer a FIFO")
    # outputs
    ro = work / "ro.json"
    ro.write_text("keep")
    ro.chmod(0o444)
    real = work / "real.json"
    real.write_text("old")
    link = work / "link.json"
    link.symlink_to(real.name)
    tofd = work / "tofd1"
    tofd.symlink_to("/proc/self/fd/1")
    cases: list[tuple[str, Callable[[subprocess.CompletedProcess | None], bool]]] = [
        (str(fifo), one_line_error),
        (str(ro), lambda r: one_line_error(r) and ro.read_text() == "keep"),
        (str(link), lambda r: r is not None and r.returncode == 0 and link.is_symlink()
         and real.read_bytes() not in (b"", b"old")),
        (str(tofd), lambda r: r is not None and r.returncode == 0 and len(r.stdout) > 50 and tofd.is_symlink()),
        ("/dev/full", lambda r: one_line_error(r) and "/dev/full: No space left on device" in r.stderr),
        (str(work), one_line_error),
        (str(dangling), one_line_error),
    ]
    if os.geteuid() == 0:
        cases.append(("/dev/null", lambda r: r is not None and r.returncode == 0))
    for fmt in ("json", "text", "svg", "png", "non"):
        for target, ok in cases:
            real.write_text("old")
            r = run(["solve", heart, "-b", "native", "-f", fmt, "-o", target], timeout=60)
            cat.check(ok(r), f"-o {target} ({fmt}): {'hung' if r is None else (r.returncode, r.stderr.strip()[:160])}")
            cat.check(stat.S_ISCHR(os.stat("/dev/null").st_mode) and stat.S_ISCHR(os.stat("/dev/full").st_mode)
                      and stat.S_ISFIFO(os.lstat(fifo).st_mode), f"-o {target} ({fmt}): a special file changed")


def full_disk(cat: Category, work: Path) -> None:
    """ENOSPC injected into the one write path (and the proof writer) for every command that writes."""
    from typer.testing import CliRunner

    import nonocp.core.outputs as files
    import nonocp.engines.sat as sat
    from nonocp.cli.app import app

    heart = str(PUZZLES / "heart.non")
    out = work / "disk"
    out.mkdir()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    runner = CliRunner()
    target = out / "out.file"
    cases = [["solve", heart, "-b", "native", "-f", f, "-o", str(target)]
             for f in ("json", "text", "svg", "png", "non")]
    cases += [["show", heart, "-o", str(target)], ["convert", heart, str(out / "c.json"), "--force"],
              ["convert", heart, str(out / "c.xml"), "--force"]]
    for args in cases:
        dest = Path(args[args.index("-o") + 1]) if "-o" in args else Path(args[2])
        dest.write_text("previous")
        saved = files._write_all
        files._write_all = full
        try:
            r = runner.invoke(app, args)
        finally:
            files._write_all = saved
        left = sorted(p.name for p in out.iterdir() if p.name.startswith("."))
        ok = (r.exit_code == 2 and f"nonocp: {dest}: No space left on device" in r.output
              and dest.read_text() == "previous" and not left)
        cat.check(ok, f"ENOSPC {' '.join(args[:1] + args[3:])}: exit {r.exit_code} {r.output.strip()[:160]} {left}")
    # the --proof writer (the CNF of a unique puzzle)
    proofs = out / "proofs"
    saved_replace = sat.os.replace
    sat.os.replace = full
    try:
        r = runner.invoke(app, ["solve", heart, "-b", "sat", "--proof", str(proofs)])
    finally:
        sat.os.replace = saved_replace
    leftovers = list(proofs.glob("*")) if proofs.exists() else []
    cat.check(r.exit_code == 2 and "No space left on device" in r.output and str(proofs) in r.output
              and not leftovers, f"ENOSPC --proof: exit {r.exit_code} {r.output.strip()[:160]} {leftovers}")


def signals(cat: Category, work: Path, repeats: int) -> None:
    perm = work / "perm16.non"
    perm.write_text("width 16\nheight 16\nrows\n" + "1\n" * 16 + "columns\n" + "1\n" * 16)
    runs = []
    for engine in ("native", "cpsat", "sat", "sat:glucose4", "auto"):
        for limit in ([], ["--timeout", "600"]):
            runs.append(["solve", str(perm), "--all", "-f", "json", "-b", engine, *limit])
    runs.append(["solve", str(perm), "--all", "-f", "json", "-b", "auto", "--workers", "1"])
    runs.append(["check", str(perm), "--all", "--backends", "cpsat"])
    runs.append(["check", str(perm), "--all", "--backends", "sat"])
    for _ in range(repeats):
        for args in runs:
            for sig in (signal.SIGINT, signal.SIGTERM):
                proc = subprocess.Popen([*NONOCP, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                native = "native" in args
                for _ in range(6000):
                    if proc.poll() is not None or (cpu_seconds(proc.pid) > 1.0 if native else children(proc.pid)):
                        break
                    time.sleep(0.02)
                kids = children(proc.pid)
                proc.send_signal(sig)
                try:
                    _, err = proc.communicate(timeout=60)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    _, err = proc.communicate()
                    cat.check(False, f"{sig.name} {' '.join(args[3:])}: did not end")
                    continue
                for _ in range(300):
                    if not any(alive(k) for k in kids):
                        break
                    time.sleep(0.01)
                left = [k for k in kids if alive(k)]
                said = "nonocp: interrupted" in err or (native and err == "")
                if sig == signal.SIGTERM and args[0] == "solve":  # solve dies of it; check stops as for Ctrl-C
                    ok = proc.returncode == -signal.SIGTERM and not left
                else:
                    ok = proc.returncode == 130 and said and "Traceback" not in err and not left
                cat.check(ok, f"{sig.name} nonocp {args[0]} {' '.join(args[4:])}: exit {proc.returncode} "
                          f"{err.strip()[:120]!r} left {left}")


_NASTY = ["\x1b]0;pwned\x07", "\r", "\n", "\x9b2J", "\u202e", "\u2028", "\x00", "\x7f", "Żółw", "\ud800", "\t",
          "&amp;", '"', "<b>", "]]>", "\x1b[31m"]


def titles(cat: Category, work: Path, rng: random.Random, n: int) -> None:
    from typer.testing import CliRunner

    from nonocp.cli.app import app
    from nonocp.formats import load

    runner = CliRunner()
    for k in range(n):
        title = "".join(rng.choice(_NASTY + ["a", "b", " "]) for _ in range(rng.randrange(1, 12)))
        src = work / f"source{k}.json"
        src.write_text(json.dumps({"title": title, "author": title[::-1], "rows": [[2], [2]], "columns": [[2], [2]]}))
        for command in (["solve", str(src), "-b", "native"], ["show", str(src)], ["rate", str(src)],
                        ["check", str(src), "--backends", "native,sat"]):
            r = runner.invoke(app, command)
            raw = set(r.output) & set("\x1b\x07\r\x9b\u202e\u2028\x00\x7f")
            cat.check(r.exit_code == 0 and not raw, f"title {title!r}: {command[0]} exit {r.exit_code}, raw {raw}")
        r = runner.invoke(app, ["solve", str(src), "-b", "native", "-f", "json"])
        try:
            same = json.loads(r.output)["puzzle"]["title"] == title
        except (ValueError, KeyError):
            same = False
        cat.check(r.exit_code == 0 and same, f"title {title!r}: JSON does not decode to it")
        for ext in ("non", "xml", "json", "nonpack", "cnf"):
            out = work / f"t{k}.{ext}"
            r = runner.invoke(app, ["convert", str(src), str(out), "--force"])
            ok = r.exit_code == 0
            if ok and ext != "cnf":
                try:
                    load(str(out))
                except Exception:  # noqa: BLE001 - the finding
                    ok = False
            elif ok:
                ok = out.read_bytes().isascii()
            cat.check(ok, f"title {title!r}: convert to .{ext}: exit {r.exit_code} {r.output.strip()[:120]}")


def enumerations(cat: Category, work: Path) -> None:
    perm = work / "perm20.non"
    perm.write_text("width 20\nheight 20\nrows\n" + "1\n" * 20 + "columns\n" + "1\n" * 20)
    for engine in ENGINES:
        r = run(["solve", str(perm), "--all", "--timeout", "1", "-b", engine, "-f", "json"])
        try:
            doc = json.loads(r.stdout.splitlines()[0]) if r else {}
        except (ValueError, IndexError):
            doc = {}
        ok = r is not None and r.returncode == 3 and doc.get("exhaustive") is False \
            and doc.get("stopped") == "timeout" and doc.get("status") == "multiple"
        cat.check(ok, f"--all --timeout 1 -b {engine}: exit {r and r.returncode} {r and r.stderr.strip()[:120]}")


# --- the Python API fuzzed (hypothesis) -------------------------------------------------------------------


def api_arguments(cat: Category, rng: random.Random, n: int) -> None:
    """Every public function of `nonocp` called with arguments hypothesis draws (wrong types, odd values, real
    puzzles and grids among them): the only exceptions allowed are TypeError, ValueError and nonocp's own
    errors, each with a message; anything else (AttributeError, KeyError, IndexError, a hang) is a failure."""
    from hypothesis import HealthCheck, given, seed, settings
    from hypothesis import strategies as st

    import nonocp

    small = nonocp.Puzzle.from_clues([[1], [1]], [[1], [1]])
    solved = nonocp.Grid(((1, 2), (0, 1)))
    colour = nonocp.Puzzle.from_clues([[(1, "red"), (1, "blue")]], [[(1, "red")], [(1, "blue")]], ["red", "blue"])
    junk = st.one_of(
        st.none(), st.booleans(), st.integers(-3, 3), st.integers(), st.floats(allow_nan=True), st.text(max_size=8),
        st.binary(max_size=8), st.lists(st.integers(-1, 3), max_size=4),
        st.lists(st.lists(st.integers(-1, 3), max_size=3), max_size=3), st.lists(st.text(max_size=3), max_size=3),
        st.dictionaries(st.tuples(st.integers(-1, 3), st.integers(-1, 3)), st.integers(-1, 3) | st.text(max_size=2),
                        max_size=3),
        st.sampled_from([small, colour, [small], str(PUZZLES / "heart.non"), object(), nonocp.Cancel(),
                         ["#.", ".#"], ["?#", "??"], ("row", 0), ("column", 1), ("col", 9), "native", "sat:g4",
                         "glucose", "json", "non", 0, 0.0, float("inf"), -1e9, 10**30]))
    puzzles = st.sampled_from([small, colour]) | junk
    keywords = ("backend", "max_solutions", "timeout", "time_limit", "fixed", "seed", "workers", "progress",
                "cancel", "fmt", "max_steps", "engines", "grid", "marked", "probe", "encoding", "bogus")
    calls = {
        "solve": lambda a, k: nonocp.solve(a[0], *a[1:2], **k),
        "solutions": lambda a, k: list(nonocp.solutions(a[0], *a[1:2], **k)),
        "explain": lambda a, k: nonocp.explain(a[0], **k),
        "rate": lambda a, k: nonocp.rate(*a[:2], **k),
        "backbone": lambda a, k: nonocp.backbone(*a[:2], **k),
        "check": lambda a, k: nonocp.check(*a[:2], **k),
        "render_text": lambda a, k: nonocp.render_text(*a[:3], **k),
        "loads": lambda a, k: nonocp.loads(*a[:2], **k),
        "dumps": lambda a, k: nonocp.dumps(*a[:2], **k),
        "from_clues": lambda a, k: nonocp.Puzzle.from_clues(*a[:3], **k),
        "Puzzle": lambda a, k: nonocp.Puzzle(*a[:3], **k),
        "Stepper.examine": lambda a, k: nonocp.Stepper(a[0]).examine(a[1] if len(a) > 1 else None),
        "is_solution": lambda a, k: small.is_solution(a[0]),
        "to_strings": lambda a, k: solved.to_strings(a[0]),
    }
    allowed = (TypeError, ValueError, nonocp.NonocpError)
    seen: list[str] = []

    @seed(rng.randrange(2**32))  # the campaign's --seed: reproducible
    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(name=st.sampled_from(sorted(calls)), args=st.lists(puzzles, min_size=1, max_size=3),
           kwargs=st.dictionaries(st.sampled_from(keywords), junk, max_size=3))
    def probe(name, args, kwargs):
        if name in ("solve", "solutions", "backbone", "check", "rate", "explain") and "timeout" not in kwargs:
            kwargs = {**kwargs, "timeout": 5}  # a valid call may search: bounded, as a user would
        what = f"{name}(*{args!r:.80}, **{kwargs!r:.80})"
        try:
            with deadline(30):
                calls[name](args, kwargs)
            ok = True
        except Alarm:
            ok = False
            what += ": still running after 30 s"
        except allowed as e:
            ok = bool(str(e).strip())
            if not ok:
                what += f": {type(e).__name__} without a message"
        except Exception as e:  # noqa: BLE001 - what the family looks for
            ok = False
            what += f": {type(e).__name__}: {str(e)[:100]}"
        seen.append(name)
        cat.check(ok, what)

    probe()


# --- long enumerations under a memory probe ------------------------------------------------------------

# Peak memory any one process of `solve --all` may reach, whatever the enumeration runs into
# (solutions stream to the output; holding them all would take over a GiB on perm20 in 75 s).
ENUMERATION_MEMORY = 256 * 1024 * 1024
_PROBE = ("import resource, subprocess, sys, time; t = time.monotonic(); "
          "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
          "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024, "
          "round(time.monotonic() - t, 2), repr(r.stderr[-200:]))")


def long_enumerations(cat: Category, work: Path, long: float, short: float) -> None:
    """`solve --all -t S` on puzzles with astronomically many solutions (n x n permutation puzzles, black and
    white and in colour), every engine and output form (text, JSON, `-o FILE`), each under a memory probe:
    the peak of the largest process stays under ENUMERATION_MEMORY, the command ends with exit 3 within
    the limit plus the hard stop's grace and start-up, and writes what it found. The issue's own command
    (perm20, JSON to a file) runs `long` seconds on every engine, the others `short`."""
    puzzles = {}
    for n in (12, 20, 26):
        path = work / f"perm{n}.non"
        path.write_text(f"width {n}\nheight {n}\nrows\n" + "1\n" * n + "columns\n" + "1\n" * n)
        puzzles[f"perm{n}"] = path
    # two colours, each a permutation (a in the top half, b in the bottom): (n!)^2 solutions
    n = 12
    colour = work / "perm12x2.non"
    colour.write_text(f"width {n}\nheight {2 * n}\ncolor a #d01c1f\ncolor b #2e8b57\nrows\n" + "1a\n" * n
                      + "1b\n" * n + "columns\n" + "1a,1b\n" * n)
    puzzles["perm12 two colours"] = colour
    for label, path in puzzles.items():
        for engine in ENGINES:
            for form in (["-f", "text"], ["-f", "json"], ["-f", "json", "-o", str(work / "enumeration.json")]):
                seconds = long if label == "perm20" and "-o" in form else short
                args = ["solve", str(path), "--all", "-t", str(seconds), "-b", engine, *form]
                try:
                    out = subprocess.run([sys.executable, "-c", _PROBE, *NONOCP, *args], capture_output=True,
                                         text=True, timeout=seconds * 3 + 120).stdout.split(maxsplit=3)
                    code, peak, wall, err = int(out[0]), int(out[1]), float(out[2]), out[3]
                except (subprocess.TimeoutExpired, ValueError, IndexError):
                    cat.check(False, f"{label} {' '.join(args[2:])}: did not end")
                    continue
                written = "-o" not in form or (work / "enumeration.json").stat().st_size > 0
                ok = code == 3 and peak < ENUMERATION_MEMORY and wall <= seconds + 5 and written
                cat.check(ok, f"{label} {' '.join(args[2:])}: exit {code}, peak {peak >> 20} MiB, {wall} s, "
                          f"{err.strip()[:100]}")


def time_limits(cat: Category, work: Path) -> None:
    """The engine's own `seconds` past `--timeout`: at most the hard stop's grace (0.5 s) and a little.
    Puzzles on which an engine cannot stop itself in time: a random 200x200 grid (CP-SAT's presolve and
    the CNF's encoding take minutes) and a permutation puzzle enumerated with --all."""
    import random as _random

    rng = _random.Random(200)
    size = 200
    cells = [[rng.randint(0, 1) for _ in range(size)] for _ in range(size)]
    rows = [_runs(r) for r in cells]
    cols = [_runs([cells[r][c] for r in range(size)]) for c in range(size)]
    grid = work / "random200.json"
    grid.write_text(json.dumps({"rows": rows, "columns": cols}))
    perm = work / "perm20-limits.non"
    perm.write_text("width 20\nheight 20\nrows\n" + "1\n" * 20 + "columns\n" + "1\n" * 20)
    for puzzle, extra in ((grid, []), (perm, ["--all"])):
        for engine in ENGINES:
            for limit in (2.0, 5.0):
                r = run(["solve", str(puzzle), "-b", engine, "--timeout", str(limit), "-f", "json", *extra],
                        timeout=limit * 20 + 120)
                try:
                    seconds = json.loads(r.stdout.splitlines()[0])["seconds"] if r else None
                except (ValueError, IndexError, KeyError):
                    seconds = None
                ok = r is not None and r.returncode == 3 and seconds is not None and seconds <= limit + 1.5
                cat.check(ok, f"{puzzle.name} -b {engine} --timeout {limit:g}: exit {r and r.returncode}, "
                          f"{seconds} s {r and r.stderr.strip()[:100]}")


def _runs(line: list[int]) -> list[int]:
    out, run_ = [], 0
    for v in [*line, 0]:
        if v:
            run_ += 1
        elif run_:
            out.append(run_)
            run_ = 0
    return out


XML_ATTACKS = {
    "billion laughs": '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;&a;">'
                      '<!ENTITY c "&b;&b;&b;&b;&b;">]><puzzleset><puzzle><title>&c;</title></puzzle></puzzleset>',
    "external entity": '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                       "<puzzleset><puzzle><title>&x;</title></puzzle></puzzleset>",
    "parameter entity": '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY % x SYSTEM "http://127.0.0.1:9/x.dtd">%x;]>'
                        "<puzzleset/>",
    "external DTD with entity": '<?xml version="1.0"?><!DOCTYPE p SYSTEM "http://127.0.0.1:9/x.dtd" '
                                '[<!ENTITY y "z">]><puzzleset/>',
}


def xml_attacks(cat: Category, work: Path) -> None:
    for name, text in XML_ATTACKS.items():
        path = work / "attack.xml"
        path.write_text(text)
        for command in (["show", str(path)], ["solve", str(path), "-b", "native"], ["convert", str(path), "-"]):
            r = run(command, timeout=60)
            cat.check(one_line_error(r), f"{name}: nonocp {command[0]}: {r and (r.returncode, r.stderr.strip()[:120])}")


# --- main ---------------------------------------------------------------------------------------------


# --- outputs, pictures, the server, cluster addresses -----------------------------------------------

OUTPUT_WRITERS = {  # name -> argv for (input, output); every one may be given --force
    "solve -o": lambda i, o: ["solve", i, "-b", "native", "-f", "json", "-o", o],
    "solve -o (non)": lambda i, o: ["solve", i, "-b", "native", "-f", "non", "-o", o],
    "show -o": lambda i, o: ["show", i, "-o", o],
    "convert": lambda i, o: ["convert", i, o, "--to", "json"],
    "bench --csv": lambda i, o: ["bench", i, "-b", "native", "--no-progress", "--csv", o],
    "bench --json": lambda i, o: ["bench", i, "-b", "native", "--no-progress", "--json", o],
    "explain -o": lambda i, o: ["explain", i, "-o", o],
    "design -o": lambda i, o: ["design", i, "-o", o, "--to", "non"],
}


def output_policy(cat: Category, work: Path, rng: random.Random, n: int) -> None:
    """Generated collisions of an output with what the command reads (the same path spelled otherwise, a
    symbolic link, a hard link, a link to its folder, a puzzle found by scanning a folder, standard input
    read from the file), two outputs on one path, and read-only targets, every writer, with and without
    --force: a refusal in one line (exit 2) and the input byte for byte and mode for mode as it was; a
    read-only output replaced only with --force, keeping its mode."""
    from typer.testing import CliRunner

    from nonocp.cli.app import app

    runner = CliRunner()
    sources = [p for p in sorted(PUZZLES.glob("*.non")) if b"goal" in p.read_bytes()]
    kinds = ("same path", "relative path", "symbolic link", "hard link", "folder link", "found in folder",
             "standard input")
    for k in range(n):
        case = work / f"policy-{k}"
        (case / "in").mkdir(parents=True)
        src = rng.choice(sources)
        inp = case / "in" / src.name
        inp.write_bytes(src.read_bytes())
        mode = rng.choice((0o644, 0o444))
        inp.chmod(mode)
        writer = rng.choice(sorted(OUTPUT_WRITERS))
        kind = rng.choice(kinds[:6] if writer.startswith("bench") else
                          kinds if writer.split()[0] in ("solve", "show") else kinds[:5])
        force = rng.random() < 0.5
        given, out = str(inp), str(inp)
        if kind == "relative path":
            out = os.path.relpath(inp)
        elif kind == "symbolic link":
            out = str(case / "alias.non")
            os.symlink(inp, out)
        elif kind == "hard link":
            out = str(case / "hard.non")
            os.link(inp, out)
        elif kind == "folder link":
            os.symlink(case / "in", case / "dirlink")
            out = str(case / "dirlink" / src.name)
        elif kind == "found in folder":
            given = str(case / "in")
        argv = OUTPUT_WRITERS[writer](given, out) + (["--force"] if force else [])
        before = inp.read_bytes()
        if kind == "standard input":
            argv[argv.index(given)] = "-"
            with open(inp, "rb") as stdin:
                r = run(argv, stdin=stdin)
            code, said = (None, "") if r is None else (r.returncode, r.stderr.strip())
        else:
            res = runner.invoke(app, argv)
            code, said = res.exit_code, res.output.strip()
        ok = (code == 2 and len(said.splitlines()) == 1 and "refusing to overwrite the input file" in said
              and inp.read_bytes() == before and stat.S_IMODE(os.stat(inp).st_mode) == mode)
        cat.check(ok, f"{writer} onto its input ({kind}{', --force' if force else ''}): exit {code} {said[:160]}")
    for k in range(n // 3):  # two outputs on one path, and read-only outputs
        case = work / f"pair-{k}"
        case.mkdir()
        inp = case / "heart.non"
        inp.write_bytes((PUZZLES / "heart.non").read_bytes())
        target = case / rng.choice(("r.json", "r.csv", "r.svg"))
        other = case / "other-name"
        os.symlink(target.name, other)
        spelled = rng.choice((str(target), str(other), os.path.relpath(target)))
        pair = rng.choice(("bench", "design"))
        if pair == "bench":
            argv = ["bench", str(inp), "-b", "native", "--no-progress", "--csv", str(target), "--json", spelled]
        else:
            argv = ["design", str(inp), "-o", str(target), "--to", "json", "--picture", spelled + ".svg"]
            target, spelled = Path(str(target)), str(target)
            argv[-1] = spelled
        res = runner.invoke(app, argv)
        ok = res.exit_code == 2 and "name the same file" in res.output and not target.exists()
        cat.check(ok, f"{' '.join(argv[:1] + argv[3:])}: exit {res.exit_code} {res.output.strip()[:160]}")
        ro = case / "ro.out"
        ro.write_text("kept")
        ro.chmod(0o444)
        writer = rng.choice(sorted(OUTPUT_WRITERS))
        res = runner.invoke(app, OUTPUT_WRITERS[writer](str(inp), str(ro)))
        refused = "read-only" in res.output or (writer == "convert" and "already exists" in res.output)
        ok = res.exit_code == 2 and refused and ro.read_text() == "kept"
        cat.check(ok, f"{writer} onto a read-only file: exit {res.exit_code} {res.output.strip()[:160]}")
        res = runner.invoke(app, [*OUTPUT_WRITERS[writer](str(inp), str(ro)), "--force"])
        ok = res.exit_code == 0 and ro.read_text() != "kept" and stat.S_IMODE(ro.stat().st_mode) == 0o444
        cat.check(ok, f"{writer} --force onto a read-only file: exit {res.exit_code} {res.output.strip()[:160]}")


PEAK = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
        "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024); print(r.stderr)")
MIB = 1024 * 1024


def hostile_pictures(rng: random.Random, work: Path, n: int) -> Iterator[tuple[str, Path]]:
    """Generated pictures that are small files and big decoded (1-bit and palette PNGs up to 50 million
    pixels, long thin ones, RGBA over the decoded budget, many-frame GIFs, huge JPEGs), and broken ones."""
    from PIL import Image, ImageDraw

    for k in range(n):
        kind = rng.choice(("1-bit PNG", "palette PNG", "thin PNG", "RGBA PNG", "GIF frames", "JPEG",
                           "truncated PNG", "lying header"))
        path = work / f"pic-{k}.{'gif' if kind == 'GIF frames' else 'jpg' if kind == 'JPEG' else 'png'}"
        if kind in ("1-bit PNG", "palette PNG", "truncated PNG", "lying header"):
            side = rng.randrange(2000, 7072)
            img = Image.new("1" if kind != "palette PNG" else "P", (side, side), 1)
            ImageDraw.Draw(img).ellipse((side // 5, side // 5, 4 * side // 5, 4 * side // 5), fill=0)
            img.save(path, optimize=True)
            data = path.read_bytes()
            if kind == "truncated PNG":
                path.write_bytes(data[: rng.randrange(40, len(data))])
            elif kind == "lying header":  # the header claims another size than the data holds
                path.write_bytes(data[:16] + rng.randrange(1, 60000).to_bytes(4, "big") * 2 + data[24:])
        elif kind == "thin PNG":
            w, h = rng.choice(((rng.randrange(10000, 25000), rng.randrange(1, 2000)),
                               (rng.randrange(1, 2000), rng.randrange(10000, 25000))))
            Image.new("1", (w, h), rng.randrange(2)).save(path, optimize=True)
        elif kind == "RGBA PNG":
            side = rng.randrange(3000, 7000)
            Image.new("RGBA", (side, side), (255, 255, 255, rng.randrange(256))).save(path, optimize=True)
        elif kind == "GIF frames":
            frames = [Image.new("P", (1500, 1500), i % 2) for i in range(rng.randrange(2, 40))]
            frames[0].save(path, save_all=True, append_images=frames[1:])
        else:
            side = rng.randrange(4000, 7000)
            Image.new("L", (side, side), 200).save(path, quality=30)
        yield kind, path


def pictures(cat: Category, work: Path, rng: random.Random, n: int) -> None:
    """`design` on hostile pictures, each in a process of its own: exit 0 or 2 (one line), no traceback,
    and a peak resident size under 256 MiB."""
    folder = work / "pictures"
    folder.mkdir()
    for kind, path in hostile_pictures(rng, folder, n):
        args = ["design", str(path), "-f", "json"] + (["--width", str(rng.randrange(5, 60))] if rng.random() < .5
                                                      else [])
        try:
            out = subprocess.run([sys.executable, "-c", PEAK, *NONOCP, *args], capture_output=True, text=True,
                                 timeout=300)
        except subprocess.TimeoutExpired:
            out = None
        if out is None:
            cat.check(False, f"design {kind} ({path.stat().st_size} bytes): no answer in 300 s")
            continue
        first, err = (out.stdout.split("\n", 1) + [""])[:2]
        code, peak = (int(x) for x in first.split())
        err = err.strip()
        ok = (code == 0 or (code == 2 and len(err.splitlines()) == 1)) and "Traceback" not in err and peak < 256 * MIB
        cat.check(ok, f"design {kind} {args[3:]}: exit {code}, peak {peak / MIB:.0f} MiB {err[:160]}")
        path.unlink()


def _serve() -> tuple[subprocess.Popen, str]:
    import re

    proc = subprocess.Popen([*NONOCP, "serve", "--port", "0"], stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            text=True)
    while True:
        line = proc.stderr.readline()
        if not line:
            raise RuntimeError("nonocp serve ended before it served")
        m = re.search(r"(http://\S+/) \(Ctrl-C stops it\)", line)
        if m:
            return proc, m.group(1)


def _request(url: str, path: str, body: bytes | None, headers: dict[str, str], timeout: float = 120) -> int | str:
    import urllib.error
    import urllib.request

    req = urllib.request.Request(url + path, body, headers, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError as e:
        return type(e).__name__


def server(cat: Category, work: Path, rng: random.Random, n: int) -> None:
    """A running `nonocp serve`: generated requests from other origins (Origin and Sec-Fetch-Site as
    browsers send them, every endpoint, every content type) answered 403 or 415 with no worker started;
    generated bodies of the wrong type answered 415; then floods of 50 hostile requests at once (2 MB
    bodies of a million clues, 61 KB solves, foreign posts, clients that leave mid-body, big pictures):
    every request answered (a status, or the connection closed on a client that left), /api/info answered
    throughout, no traceback in the server's log, no worker left once they are done."""
    import json as _json
    import threading

    from test_image_memory import big_one_bit_png

    proc, url = _serve()
    log: list[str] = []
    threading.Thread(target=lambda: log.extend(proc.stderr), daemon=True).start()
    try:
        def info() -> dict:
            import urllib.request

            with urllib.request.urlopen(url + "api/info", timeout=60) as r:
                return _json.loads(r.read())

        endpoints = ["solve", "open?name=x.non", "validate", "export", "backbone", "rate", "step",
                     "design/import", "play"]
        body = _json.dumps({"puzzle": {"rows": [[[1, "1"]]], "columns": [[[1, "1"]]]}}).encode()
        started = info()["workers"]["started"]
        own = url.rstrip("/")
        for _ in range(n):
            site = rng.choice(("cross-site", "same-site", None, "same-origin"))
            origin = rng.choice(("http://evil.example", own.replace("127.0.0.1", "localhost"), "null",
                                 own + ":1", None))
            if site in (None, "same-origin") and origin is None:
                origin = "http://evil.example"
            ctype = rng.choice(("text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                                "multipart/form-data; boundary=x", "application/json", "application/octet-stream"))
            headers = {"Content-Type": ctype}
            if site:
                headers["Sec-Fetch-Site"] = site
            if origin:
                headers["Origin"] = origin
            path = "api/" + rng.choice(endpoints)
            got = _request(url, path, body, headers)
            cat.check(got == 403, f"POST /{path} {headers}: {got}, not 403")
        for _ in range(n // 2):
            path = "api/" + rng.choice(endpoints)
            ctype = rng.choice(("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                                "", "application/json-seq", "image/png"))
            got = _request(url, path, body, {"Content-Type": ctype} if ctype else {})
            cat.check(got in (415, 404), f"POST /{path} as {ctype!r}: {got}, not 415")
        cat.check(info()["workers"]["started"] == started, "a refused request started a worker")
        wide = ("width 5\nheight 1\n\nrows\n" + ",".join(["1"] * 999_000) + "\n\ncolumns\n1\n1\n1\n1\n1\n").encode()
        png = big_one_bit_png(work / "flood.png").read_bytes()
        rows = [[[rng.randint(1, 3), "1"] for _ in range(rng.randint(0, 30))] for _ in range(200)]
        solve = _json.dumps({"puzzle": {"rows": rows, "columns": rows}, "time_limit": 5}).encode()
        kinds = {
            "million clues": lambda: _request(url, "api/open?name=w.non", wide,
                                              {"Content-Type": "application/octet-stream"}),
            "61 KB solve": lambda: _request(url, "api/solve", solve, {"Content-Type": "application/json"}),
            "foreign post": lambda: _request(url, "api/solve", solve, {"Content-Type": "text/plain",
                                                                       "Origin": "http://evil.example"}),
            "big picture": lambda: _request(url, "api/design/import?width=20", png,
                                            {"Content-Type": "application/octet-stream"}),
            "left mid-body": lambda: _leave_mid_body(url),
        }
        for flood in range(max(1, n // 40)):
            answers: list[tuple[str, int | str]] = []
            names = [rng.choice(sorted(kinds)) for _ in range(50)]
            threads = [threading.Thread(target=lambda k=k, got=answers: got.append((k, kinds[k]()))) for k in names]
            for t in threads:
                t.start()
            probes = 0
            while any(t.is_alive() for t in threads):
                info()
                probes += 1
                time.sleep(0.05)
            for t in threads:
                t.join()
            bad = [(k, a) for k, a in answers if not isinstance(a, int) and not (k in ("left mid-body", "61 KB solve",
                                                                                     "foreign post", "million clues")
                                                                                 and a in ("ConnectionResetError",
                                                                                           "BrokenPipeError", "left"))]
            cat.check(len(answers) == 50 and not bad, f"flood {flood}: {bad[:5]}")
            cat.check(probes > 0 and proc.poll() is None, f"flood {flood}: /api/info not answered, or the server died")
            deadline_ = time.monotonic() + 60
            while info()["workers"]["running"] and time.monotonic() < deadline_:
                time.sleep(0.1)
            cat.check(info()["workers"]["running"] == 0, f"flood {flood}: workers left running")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
    said = "".join(log)
    cat.check("Traceback" not in said, f"the server's log has a traceback: {said[-300:]}")


def _leave_mid_body(url: str) -> str:
    import socket

    host, port = url.split("//", 1)[1].rstrip("/").rsplit(":", 1)
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100000\r\n\r\n" + b"{" * 500)
    return "left"


def cluster_addresses(cat: Category, work: Path, rng: random.Random, n: int) -> None:
    """Generated `--cluster` addresses (schemes, hosts, brackets, ports, junk) read by the parser: a
    ClusterError or a well-formed address, never another exception; a sample through the real command
    (one line, exit 2); endpoints that are not Dask schedulers (an HTTP server, an SSH-like banner, random
    bytes, a connection closed at once); local:N over the cap."""
    import socket
    import threading

    from nonocp.batch.cluster import ClusterError, parse_address

    parts = ["tcp://", "tls://", "ws://", "http://", "", "local:", "LOCAL:", "tcp:/", "://"]
    hosts = ["127.0.0.1", "[::1]", "[::1", "::1]", "[zz]", "host", "a b", "ex-ample.org", "", "é", "1.2.3.4.5",
             "-x", "[::ffff:1.2.3.4]", "h\x00"]
    ports = [":8786", ":0", ":65536", ":99999", ":", ":-1", ":12ab", "", ":8786:1", ":8786/path", "?q=1"]
    sample = []
    for _ in range(n):
        text = rng.choice(parts) + rng.choice(hosts) + rng.choice(ports)
        if rng.random() < 0.2:
            text = f"local:{rng.choice(['0', '2:3', '-1', '99999999999', 'x', ' 2', '2 '])}"
        try:
            kind, value = parse_address(text)
            ok = kind == "local" or (isinstance(value, str) and ":" in value)
        except ClusterError as e:
            ok = "\n" not in str(e) and str(e).startswith("--cluster ")
            if "\x00" not in text:  # a command line cannot carry NUL
                sample.append(text)
        except Exception as e:  # noqa: BLE001 - what the campaign looks for
            ok = False
            text = f"{text}: {type(e).__name__}: {e}"
        cat.check(ok, f"--cluster {text!r}")
    heart = str(PUZZLES / "heart.non")
    for text in rng.sample(sample, min(12, len(sample))):
        r = run(["check", heart, "--cluster", text], timeout=120)
        cat.check(r is not None and one_line_error(r), f"check --cluster {text!r}: "
                                                       f"{'hung' if r is None else (r.returncode, r.stderr[-160:])}")
    replies = {"HTTP server": b"HTTP/1.0 400 Bad Request\r\n\r\n", "SSH banner": b"SSH-2.0-OpenSSH_9.6\r\n",
               "random bytes": bytes(rng.randrange(256) for _ in range(4096)), "closed at once": None}
    for name, reply in replies.items():
        srv = socket.create_server(("127.0.0.1", 0))

        def answer(srv=srv, reply=reply) -> None:
            with contextlib.suppress(OSError):
                while True:
                    conn, _ = srv.accept()
                    if reply is not None:
                        conn.sendall(reply)
                    conn.close()

        threading.Thread(target=answer, daemon=True).start()
        r = run(["bench", heart, "--no-progress", "--cluster", f"tcp://127.0.0.1:{srv.getsockname()[1]}"],
                timeout=120)
        cat.check(r is not None and one_line_error(r) and "too large" not in r.stderr,
                  f"--cluster on a {name}: {'hung' if r is None else (r.returncode, r.stderr[-160:])}")
        srv.close()
    r = run(["check", heart, "--cluster", "local:1000"], timeout=120)
    cat.check(r is not None and one_line_error(r) and "NONOCP_LOCAL_WORKERS" in r.stderr,
              f"local:1000: {'hung' if r is None else (r.returncode, r.stderr[-160:])}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a sample (~600 inputs) instead of the full campaign")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--only", default="", help="comma-separated categories to run")
    ap.add_argument("--write", help="write the table (markdown) to this file")
    args = ap.parse_args(argv)
    # Started in the background by a shell, this process ignores SIGINT, and so would every command it starts
    # (an ignored signal stays ignored across exec); a handler is reset to the default there instead.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    rng = random.Random(args.seed)
    started = time.strftime("%Y-%m-%d %H:%M")
    load_before = os.getloadavg()[0]
    t0 = time.monotonic()
    full = not args.quick
    work = Path(tempfile.mkdtemp(prefix="nonocp-reliability-"))
    cats: list[Category] = []
    wanted = set(args.only.split(",")) if args.only else None

    def want(name: str) -> Category | None:
        if wanted is not None and name not in wanted:
            return None
        cat = Category(name)
        cats.append(cat)
        return cat

    try:
        sources = source_files(full, rng)
        mutated: list[tuple[str, str, bytes]] = []
        per_file = 6 if full else 2
        for src in sources:
            data = src.read_bytes()
            rel = src.relative_to(CORPUS) if CORPUS in src.parents else src.relative_to(ROOT)
            for _ in range(per_file):
                for name, out in mutations(data, rng):
                    mutated.append((f"{rel} ({name})", src.suffix, out))
        rng.shuffle(mutated)
        limit_readers = 7000 if full else 400
        limit_commands = 400 if full else 25
        if (cat := want("readers")) is not None:
            readers(cat, mutated[:limit_readers], work)
        if (cat := want("commands")) is not None:
            commands(cat, mutated[:limit_commands], work, rng)
        if (cat := want("special files")) is not None:
            special_files(cat, work / "special")
        if (cat := want("full disk")) is not None:
            full_disk(cat, work)
        if (cat := want("signals")) is not None:
            signals(cat, work, repeats=2 if full else 1)
        if (cat := want("titles")) is not None:
            titles(cat, work, rng, 150 if full else 20)
        if (cat := want("enumerations")) is not None:
            enumerations(cat, work)
        if (cat := want("time limits")) is not None:
            time_limits(cat, work)
        if (cat := want("xml attacks")) is not None:
            xml_attacks(cat, work)
        if (cat := want("output policy")) is not None:
            output_policy(cat, work, rng, 120 if full else 24)
        if (cat := want("hostile pictures")) is not None:
            pictures(cat, work, rng, 40 if full else 8)
        if (cat := want("server")) is not None:
            server(cat, work, rng, 200 if full else 40)
        if (cat := want("cluster addresses")) is not None:
            cluster_addresses(cat, work, rng, 2000 if full else 300)
        if (cat := want("api arguments")) is not None:
            api_arguments(cat, rng, 3000 if full else 300)
        if (cat := want("long enumerations")) is not None:
            long_enumerations(cat, work, 75.0 if full else 5.0, 10.0 if full else 3.0)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows = ["| category | inputs tried | failures |", "|---|---:|---:|"]
    rows += [f"| {c.name} | {c.tried} | {len(c.failures)} |" for c in cats]
    rows.append(f"| **all** | **{sum(c.tried for c in cats)}** | **{sum(len(c.failures) for c in cats)}** |")
    header = (f"Run {started}, {os.cpu_count()} cores, load average {load_before:.1f} at the start, "
              f"{time.monotonic() - t0:.0f} s; command: `python benchmarks/reliability.py"
              f"{' --quick' if args.quick else ''} --seed {args.seed}`.")
    report = header + "\n\n" + "\n".join(rows) + "\n"
    failures = [f"- {c.name}: {f}" for c in cats for f in c.failures]
    if failures:
        report += "\nFailures:\n\n" + "\n".join(failures[:200]) + "\n"
    print(report)
    if args.write:
        Path(args.write).write_text(report, encoding="utf-8")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
