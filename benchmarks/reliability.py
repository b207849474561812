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
