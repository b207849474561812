"""One vocabulary across the commands: every command's declared options walked (a short name stands for one
long name everywhere; a long name has one metavar and one default, or a declared reason why not; the same
options on every command that does long work), and every exit code a command's help documents made to
happen through the real command line.

The exit codes come from each command's help (`Exit codes: 0 done, 1 no solution ...`, its epilog): a code
documented without a case here fails the walk, and so does a case that ends with another code. Interrupts
(130) are real SIGINTs to a real process, sent once its progress line is on the terminal (so they also show
that every long command draws one); the closed pipe (141) is a real pipe.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

import nonocp
import nonocp.engines
from conftest import PUZZLES, ROOT
from nonocp.cli.app import app
from nonocp.cli.parsing import HIDDEN_ALIASES

runner = CliRunner()
GROUP = typer.main.get_command(app)
COMMANDS = sorted(GROUP.commands)
NONOCP = [sys.executable, "-m", "nonocp.cli"]

# Where a long option legitimately differs between commands, and why (anything else must be the same).
METAVAR_DIFFERS = {
    "--output": "what is written differs: a FILE, a PATH (file or folder), a DIR of puzzles, a PUZZLE file",
    "--backend": "one ENGINE in solve; ENGINE,... where several engines run",
}
DEFAULT_DIFFERS = {
    ("bench", "--timeout"): "a benchmark needs a bound per puzzle (60 s)",
    ("bench", "--backend"): "the default engine, resolved when the command runs",
    ("check", "--backend"): "every independent engine, resolved when the command runs",
    ("solve", "--max-solutions"): "without -n, solve asks for 2 and prints the verdict, not a stream",
    ("explain", "--max-solutions"): "explain stops at the first solution unless asked for more",
    ("generate", "--to"): "generate always writes puzzle files (.non), convert and design as their output says",
}
# The options every command that may run long takes.
LONG_WORK_OPTIONS = {"--progress", "--timeout"}


def options_of(command: str):
    """(long name, short names, metavar, default, is_flag) of each shown option of `command`."""
    out = []
    for p in GROUP.commands[command].params:
        if p.param_type_name != "option" or p.hidden or p.name == "help":
            continue
        names = [o for o in p.opts if o not in HIDDEN_ALIASES]
        long = next(o for o in names if o.startswith("--"))
        out.append((long, [o for o in names if not o.startswith("--")], p.metavar, p.default, p.is_flag))
    return out


def documented_codes(command: str) -> list[int]:
    epilog = GROUP.commands[command].epilog or ""
    m = re.search(r"Exit codes: (.*)\.", epilog, re.S)
    assert m, f"nonocp {command} --help does not say its exit codes"
    return [int(code) for code in re.findall(r"(?:^|, )(\d+) ", m.group(1))]


def test_a_short_option_stands_for_one_long_option_everywhere():
    meaning = defaultdict(set)
    for command in COMMANDS:
        for long, shorts, *_ in options_of(command):
            for short in shorts:
                meaning[short].add(long)
    assert {s: ls for s, ls in meaning.items() if len(ls) > 1} == {}
    assert meaning["-n"] == {"--max-solutions"} and meaning["-f"] == {"--format"} and meaning["-t"] == {"--timeout"}


def test_a_long_option_has_one_metavar_and_one_default():
    uses = defaultdict(list)
    for command in COMMANDS:
        for long, _, metavar, default, is_flag in options_of(command):
            uses[long].append((command, metavar, default, is_flag))
    for long, where in uses.items():
        if long not in METAVAR_DIFFERS:
            assert len({m for _, m, _, _ in where}) == 1, (long, where)
        defaults = {repr(d) for c, _, d, _ in where if (c, long) not in DEFAULT_DIFFERS}
        assert len(defaults) <= 1, (long, where)


def test_commands_that_run_long_take_progress_and_timeout_and_say_130():
    for command in COMMANDS:
        longs = {long for long, *_ in options_of(command)}
        if 130 in documented_codes(command):
            assert LONG_WORK_OPTIONS <= longs, command
        if "--timeout" in longs and command != "bench":  # bench's timeouts are rows of its report
            assert 3 in documented_codes(command) and "--progress" in longs, command


def test_every_command_documents_its_exit_codes_in_its_help():
    for command in COMMANDS:
        codes = documented_codes(command)
        assert codes[0] == 0 and 2 in codes, command
        r = runner.invoke(app, [command, "--help"])
        assert "Exit codes: 0 done" in " ".join(r.stdout.split())


# ---- every documented exit code, through the real command line ----------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("vocabulary")
    for n in (10, 12):
        (d / f"perm{n}.non").write_text(nonocp.dumps(nonocp.Puzzle.from_clues([[1]] * n, [[1]] * n,
                                                                              title=f"perm{n}"), "non"))
    import random

    rng = random.Random(5)  # a 60x60 noise picture: making it unique takes minutes
    (d / "noise.txt").write_text("\n".join("".join("#" if rng.random() < 0.5 else "." for _ in range(60))
                                           for _ in range(60)) + "\n")
    return d


def fakes(monkeypatch):
    """test_check's fake engines registered (brute: right; saysnone: always `none`; slow: always timeout)."""
    import test_check

    for name, cls in test_check.FAKES.items():
        monkeypatch.setitem(nonocp.engines.BACKENDS, name, f"test_check:{cls}")


HEART, NO_WAY, MISSING = str(PUZZLES / "heart.non"), str(PUZZLES / "no-way.non"), "no-such-file.non"


def cases(d: Path, tmp: Path) -> dict[tuple[str, int], list[str]]:
    """(command, code) -> the arguments that end with that code (in process, through typer's runner)."""
    p10, p12, noise = str(d / "perm10.non"), str(d / "perm12.non"), str(d / "noise.txt")
    return {
        ("backends", 0): ["backends"],
        ("backends", 2): ["backends", "-f", "xml"],
        ("bench", 0): ["bench", HEART, "-b", "native", "--no-progress"],
        ("bench", 2): ["bench", MISSING, "--no-progress"],
        ("bench", 4): ["bench", HEART, "-b", "brute,saysnone", "--no-progress"],
        ("check", 0): ["check", HEART, "-b", "native,sat"],
        ("check", 1): ["check", NO_WAY, "-b", "native,sat"],
        ("check", 2): ["check", MISSING],
        ("check", 3): ["check", HEART, "-b", "slow,slow"],
        ("check", 4): ["check", HEART, "-b", "brute,saysnone"],
        ("convert", 0): ["convert", HEART, str(tmp / "heart.xml")],
        ("convert", 2): ["convert", MISSING, str(tmp / "x.xml")],
        ("design", 0): ["design", HEART],
        ("design", 2): ["design", MISSING],
        ("design", 3): ["design", noise, "--from", "picture", "-u", "-t", "0.5"],
        ("design", 4): ["design", HEART, "-u"],  # with `sat` replaced by a fake that says `none`
        ("explain", 0): ["explain", HEART],
        ("explain", 1): ["explain", NO_WAY],
        ("explain", 2): ["explain", MISSING],
        ("explain", 3): ["explain", p12, "--all", "-t", "0.5"],
        ("generate", 0): ["generate", "-s", "5x5", "--seed", "1", "-o", str(tmp / "gen")],
        ("generate", 2): ["generate", "-s", "5x5", "-o", "-"],
        ("generate", 3): ["generate", "-s", "4x4", "--difficulty", "BRANCH", "--attempts", "10000", "-t", "0.5",
                          "-o", str(tmp / "gen3")],
        ("rate", 0): ["rate", HEART],
        ("rate", 1): ["rate", NO_WAY],
        ("rate", 2): ["rate", MISSING],
        ("rate", 3): ["rate", p12, "-n", "0", "-t", "0.5"],
        ("serve", 0): ["serve", "--help"],
        ("serve", 2): ["serve", "--port", "-5"],
        ("show", 0): ["show", HEART],
        ("show", 2): ["show", MISSING],
        ("solve", 0): ["solve", HEART],
        ("solve", 1): ["solve", NO_WAY],
        ("solve", 2): ["solve", MISSING],
        ("solve", 3): ["solve", p10, "--all", "-t", "0.5", "-b", "native"],
    }


# Commands that run until interrupted, for 130: each draws its progress line on a terminal first.
ENDLESS = {
    "bench": ["bench", "{p12}", "-n", "0", "-t", "0", "-b", "native"],
    "check": ["check", "{p12}", "--all", "-b", "native,sat"],
    "design": ["design", "{noise}", "--from", "picture", "-u", "-n", "0"],
    "explain": ["explain", "{p12}", "--all", "-o", "{tmp}/explained.txt"],
    "generate": ["generate", "-s", "4x4", "--difficulty", "BRANCH", "--attempts", "10000", "-o", "{tmp}/endless"],
    "rate": ["rate", "{p12}", "-n", "0"],
    "solve": ["solve", "{p12}", "--all", "-b", "native", "-o", "{tmp}/solutions.txt"],
}


def documented() -> list[tuple[str, int]]:
    return [(c, code) for c in COMMANDS for code in documented_codes(c)]


@pytest.mark.parametrize(("command", "code"), [(c, k) for c, k in documented() if k not in (130, 141)])
def test_each_documented_exit_code_happens(command, code, files, tmp_path, monkeypatch):
    table = cases(files, tmp_path)
    assert (command, code) in table, f"nonocp {command} documents exit {code}: add a case that makes it happen"
    fakes(monkeypatch)
    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    if (command, code) == ("design", 4):
        import test_check

        monkeypatch.setitem(nonocp.engines.BACKENDS, "sat", f"test_check:{test_check.FAKES['saysnone']}")
    r = runner.invoke(app, table[(command, code)])
    assert r.exit_code == code, (table[(command, code)], r.output)
    if code == 2:
        assert "Traceback" not in r.output and r.stderr.startswith("nonocp: ")


def on_terminal(args: list[str]) -> tuple[subprocess.Popen, int]:
    """`nonocp ARGS` with standard error on a pseudo-terminal (standard output to a pipe); the master end."""
    master, slave = os.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env.update(TERM="xterm", COLUMNS="100")
    proc = subprocess.Popen([*NONOCP, *args], stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL,
                            env=env, cwd=ROOT)
    os.close(slave)
    return proc, master


def read_until(master: int, pattern: str, limit: float = 120.0) -> str:
    """What the terminal shows until `pattern` appears (a bound against hanging the suite, not a timing)."""
    seen = b""
    give_up = time.monotonic() + limit
    while pattern.encode() not in seen:
        ready, _, _ = select.select([master], [], [], max(0.0, give_up - time.monotonic()))
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    return seen.decode("utf-8", "replace")


def drain(master: int) -> str:
    return read_until(master, "\0never\0", limit=60.0)


@pytest.mark.parametrize("command", [c for c, k in documented() if k == 130])
def test_an_interrupt_after_the_progress_line_exits_130(command, files, tmp_path):
    assert command in ENDLESS, f"nonocp {command} documents exit 130: give it an endless case"
    args = [a.format(p12=files / "perm12.non", noise=files / "noise.txt", tmp=tmp_path) for a in ENDLESS[command]]
    proc, master = on_terminal(args)
    try:
        shown = read_until(master, "nonocp: " if command != "bench" else "\r")
        assert ("nonocp: " in shown or command == "bench") and proc.poll() is None, shown
        proc.send_signal(signal.SIGINT)
        rest = drain(master)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert code == 130, (command, shown[-300:], rest[-500:])
    assert "interrupted" in rest and "Traceback" not in rest


def test_a_reader_that_goes_away_is_141(files):
    proc = subprocess.Popen([*NONOCP, "solve", str(files / "perm12.non"), "--all", "-b", "native"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10_000)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141 and err == b""


# ---- progress: on a terminal only, never with --no-progress ---------------------------------------------


def test_progress_shows_on_a_terminal_and_is_erased(files):
    proc, master = on_terminal(["solve", str(files / "perm10.non"), "--all", "-t", "2", "-b", "native"])
    try:
        shown = drain(master)
        assert proc.wait(timeout=60) == 3
    finally:
        os.close(master)
    assert re.search(r"nonocp: solving perm10 \(10x10\) with native, [\d,]+ solutions \(\d+ s\)", shown), shown
    assert shown.endswith("\r\x1b[K")  # the line is taken away at the end: the screen keeps only the output


def test_no_progress_on_a_terminal_with_no_progress_nor_on_a_pipe(files):
    args = ["solve", str(files / "perm10.non"), "--all", "-t", "2", "-b", "native"]
    proc, master = on_terminal([*args, "--no-progress"])
    try:
        shown = drain(master)
        proc.wait(timeout=60)
    finally:
        os.close(master)
    assert shown == ""
    r = subprocess.run([*NONOCP, *args], capture_output=True, cwd=ROOT, timeout=60)
    assert r.returncode == 3 and r.stderr == b""
