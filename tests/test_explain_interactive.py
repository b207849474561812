"""`nonocp explain --interactive` through a pseudo-terminal: typed keys in, the screen read back."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios

import pytest
from typer.testing import CliRunner

from conftest import PUZZLES
from nonocp.cli.app import app

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    """A child process on a pseudo-terminal of 120x50: type lines, read what it drew (escapes removed)."""

    def __init__(self, *args: str) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
        env["TERM"] = "xterm-256color"
        self.proc = subprocess.Popen([sys.executable, "-m", "nonocp", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.master = master
        self.seen = ""

    def read_until(self, pattern: str, timeout: float = 60.0) -> str:
        """Everything drawn until `pattern` (a regex) shows in the text since the last call."""
        start = len(self.seen)
        rx = re.compile(pattern)
        while not rx.search(self.seen, start):
            ready, _, _ = select.select([self.master], [], [], timeout)
            if not ready:
                raise AssertionError(f"{pattern!r} never showed; the screen had:\n{self.seen[start:]}")
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
            if not data:
                raise AssertionError(f"the program ended before {pattern!r}; it drew:\n{self.seen[start:]}")
            self.seen += ANSI.sub("", data.decode("utf-8", "replace"))
        return self.seen[start:]

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=60)
        finally:
            os.close(self.master)


def test_stepping_on_a_terminal():
    t = Terminal("explain", str(PUZZLES / "heart.non"), "--interactive")
    try:
        screen = t.read_until(r"q quit")
        assert "Heart (9x8)" in screen and "The empty grid" in screen and "0 steps" in screen
        t.type("")  # Enter: the engine's first step
        screen = t.read_until(r"q quit")
        assert "Step 1: Row 2 [4 4]: the leftmost and rightmost placements of a block overlap" in screen
        assert "1 steps" in screen
        t.type("c5")  # the user's choice: column 5
        screen = t.read_until(r"q quit")
        assert re.search(r"Step \d+: Column 5 \[", screen)
        t.type("b")
        screen = t.read_until(r"q quit")
        assert "Took back step" in screen
        t.type("r9")  # row 9 does not exist: said, nothing done
        screen = t.read_until(r"q quit")
        assert "No row 9: 1 to 8." in screen
        t.type("a")  # all remaining cells at once: the unique solution
        screen = t.read_until(r"q quit")
        assert "All remaining cells" in screen and "Solved" in screen and "1 solution found" in screen
        # the grid on screen is the solution: row 1 of the heart (clue 2 2) reads .##...##. (the cells
        # the step changed are marked with `*`)
        row1 = next(line for line in screen.splitlines() if line.startswith("2 2 |"))
        assert re.sub(r"[* ]", "", row1.split("|", 1)[1]) == ".##...##."
        t.type("n")
        screen = t.read_until(r"q quit")
        assert "Finished: every solution has been found." in screen
        t.type("q")
        assert t.close() == 0
    finally:
        if t.proc.poll() is None:
            t.proc.kill()


def test_candidates_show_on_a_colour_puzzle_and_guesses():
    t = Terminal("explain", str(PUZZLES / "rainbow.non"), "--interactive")
    try:
        t.read_until(r"q quit")
        t.type("n")
        screen = t.read_until(r"q quit")
        # undecided colour cells say how many colours they may still be (`3?`), or their two candidates
        assert re.search(r"\b[3-9]\?", screen)
        assert not re.search(r"[.a-z]{3,}", grid_part(screen))  # no cell over 2 characters wide
        rows = [line.split(" | ", 1)[1] for line in grid_part(screen).splitlines() if " | " in line]
        assert len(rows) == 7 and max(map(len, rows)) <= 12 * 3  # 12 cells of at most 2, each with its mark
        t.type("g r1c1 zz")
        screen = t.read_until(r"q quit")
        assert "No colour 'zz'." in screen
        t.type("x")
        screen = t.read_until(r"q quit")
        assert "Unknown command 'x'" in screen
    finally:
        t.type("q")
        assert t.close() == 0


def grid_part(screen: str) -> str:
    """The last grid drawn on the screen (its rows hold ` | `), without the words under it."""
    lines = screen.splitlines()
    last = max(i for i, line in enumerate(lines) if " | " in line)
    first = last
    while first > 0 and " | " in lines[first - 1]:
        first -= 1
    return "\n".join(lines[first:last + 1])


def steps_shown(screen: str) -> int:
    return int(re.findall(r"(\d+) steps · pass", screen)[-1])


def test_back_takes_back_the_whole_line_just_examined():
    t = Terminal("explain", str(PUZZLES / "heart.non"), "--interactive")
    try:
        t.read_until(r"q quit")
        t.type("")
        before = t.read_until(r"q quit")
        assert steps_shown(before) == 1
        t.type("c5")  # column 5 [6]: the overlap, then what row 2's cell leaves: more than one step
        examined = t.read_until(r"q quit")
        taken = steps_shown(examined) - 1
        # the last six steps are listed: every one of them column 5's
        assert taken >= 2 and len(re.findall(r"Step \d+: Column 5 \[", examined)) == min(taken, 6), examined
        t.type("b")
        back = t.read_until(r"q quit")
        assert steps_shown(back) == 1, back  # every step of column 5 went, row 2's first step stayed
        assert f"Took back steps 2 to {1 + taken} (what 'c5' did)." in back
        assert grid_part(back) == grid_part(before).replace("*", " ")  # the same cells (no step marked now)
        t.type("b")
        assert "Took back step 1 (what 'n' did)." in t.read_until(r"q quit")
        t.type("b")
        assert "Nothing to take back." in t.read_until(r"q quit")
    finally:
        t.type("q")
        assert t.close() == 0


def test_refuses_without_a_terminal():
    res = CliRunner().invoke(app, ["explain", str(PUZZLES / "heart.non"), "--interactive"])
    assert res.exit_code == 2
    assert "--interactive needs a terminal" in res.output and "Traceback" not in res.output
