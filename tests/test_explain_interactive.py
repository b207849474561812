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
        # undecided colour cells list their candidates (background `.` and colour symbols)
        assert re.search(r"\.[a-z]{2,}", screen)
        t.type("g r1c1 zz")
        screen = t.read_until(r"q quit")
        assert "No colour 'zz'." in screen
        t.type("x")
        screen = t.read_until(r"q quit")
        assert "Unknown command 'x'" in screen
    finally:
        t.type("q")
        assert t.close() == 0


def test_refuses_without_a_terminal():
    res = CliRunner().invoke(app, ["explain", str(PUZZLES / "heart.non"), "--interactive"])
    assert res.exit_code == 2
    assert "--interactive needs a terminal" in res.output and "Traceback" not in res.output
