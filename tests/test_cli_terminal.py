"""What a person sees on a terminal: real processes on a pseudo-terminal, with and without colour."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import PUZZLES, ROOT

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def on_pty(*args: str, **env: str) -> tuple[int, str, str]:
    """Run `nonocp ARGS` with stdout on a pseudo-terminal; (exit code, what the terminal got, stderr)."""
    master, slave = os.openpty()
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    environ.update({"TERM": "xterm-256color", "COLUMNS": "120", **env})
    environ = {k: v for k, v in environ.items() if v is not None}
    proc = subprocess.Popen([sys.executable, "-m", "nonocp.cli", *args], stdout=slave, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env=environ, cwd=ROOT)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    err = proc.stderr.read().decode()
    proc.stderr.close()
    code = proc.wait()
    return code, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n"), err


def grid_rows(text: str) -> list[list[str]]:
    """The cells of each grid row (after the `|`), colour codes removed."""
    rows = []
    for line in ANSI.sub("", text).splitlines():
        if "|" in line:
            rows.append(line.split("|", 1)[1].split())
    return rows


HEART = [
    ". # # . . . # # .", "# # # # . # # # #", "# # # # # # # # #", "# # # # # # # # #",
    ". # # # # # # # .", ". . # # # # # . .", ". . . # # # . . .", ". . . . # . . . .",
]


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_without_colour_a_terminal_gets_the_plain_grid(env):
    code, out, err = on_pty("solve", str(PUZZLES / "heart.non"), **env)
    assert code == 0, err
    assert not ANSI.search(out), "no colour codes when colour is off"
    assert grid_rows(out) == [r.split() for r in HEART]


def test_color_never_on_a_colour_terminal_is_plain():
    code, out, _ = on_pty("solve", str(PUZZLES / "heart.non"), "--color", "never")
    assert code == 0 and not ANSI.search(out)
    assert grid_rows(out) == [r.split() for r in HEART]


def test_painted_cells_keep_their_symbols():
    """On a colour terminal the cells are painted and still carry `#` and `.`: a copy reads as the grid."""
    code, out, _ = on_pty("solve", str(PUZZLES / "heart.non"))
    assert code == 0
    assert ANSI.search(out), "a colour terminal is painted"
    rows = ["".join(r) for r in grid_rows(out)]
    assert rows == ["".join(r.split()) for r in HEART]


def test_colour_puzzle_painted_cells_show_the_colour_symbols():
    code, out, _ = on_pty("show", str(PUZZLES / "rainbow.non"))
    assert code == 0 and ANSI.search(out)
    (puzzle,) = __import__("nonocp").load(str(PUZZLES / "rainbow.non"))
    want = [row.replace("0", ".") for row in puzzle.meta.goal.to_strings(puzzle.palette)]
    assert ["".join(r) for r in grid_rows(out)] == want


def test_color_always_paints_into_a_pipe_and_keeps_the_symbols():
    p = subprocess.run([sys.executable, "-m", "nonocp.cli", "solve", str(PUZZLES / "heart.non"), "--color", "always"],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, cwd=ROOT)
    assert p.returncode == 0 and ANSI.search(p.stdout)
    assert ["".join(r) for r in grid_rows(p.stdout)] == ["".join(r.split()) for r in HEART]
    plain = subprocess.run([sys.executable, "-m", "nonocp.cli", "solve", str(PUZZLES / "heart.non")],
                           capture_output=True, text=True, stdin=subprocess.DEVNULL, cwd=ROOT)
    assert not ANSI.search(plain.stdout), "a pipe gets plain text by default"


def test_verdict_names_the_stage_that_decided():
    code, out, _ = on_pty("solve", str(PUZZLES / "heart.non"), str(PUZZLES / "eyes.non"), NO_COLOR="1")
    assert code == 0
    lines = [ln for ln in out.splitlines() if "[" in ln and "]" in ln]
    assert "[auto: native line logic," in lines[0]
    assert "[auto: native line logic + native CDCL," in lines[1], lines[1]  # eyes: line logic leaves cells open
    code, out, _ = on_pty("solve", str(PUZZLES / "eyes.non"), "-O", "native_first=false", NO_COLOR="1")
    assert code == 0
    assert re.search(r"\[auto: native \+ \w+,", out), out


def test_usage_error_is_one_line_on_a_terminal_too():
    code, out, err = on_pty("solve", str(PUZZLES / "heart.non"), "--bogus")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and "--bogus" in err and "solve --help" in err
