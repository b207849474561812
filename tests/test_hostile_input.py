"""Hostile but fair inputs through the real command: special files as input, encodings, clue typos, and
free text (titles) that tries to act on the terminal or break an output format."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PUZZLES
from nonocp.formats import load

NONOCP = [sys.executable, "-m", "nonocp.cli"]
HEART = PUZZLES / "heart.non"
# a title that would retitle the terminal window, move the cursor back over the line, reverse the text that
# follows, and break the line of a one-line format
HOSTILE = "Żółw \x1b]0;pwned\x07\rover\u202eesrever\x9b2J\nsecond line"


def nonocp(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*NONOCP, *args], capture_output=True, text=True, timeout=120, **kw)


def hostile_puzzle(tmp_path: Path) -> Path:
    """A 2x2 puzzle with one solution and the HOSTILE title, in JSON (which can carry any character)."""
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps({"title": HOSTILE, "author": "a\x1b[31mred", "rows": [[2], [2]],
                                "columns": [[2], [2]]}), encoding="utf-8")
    return path


# --- special files and encodings as input -------------------------------------------------------------


@pytest.mark.parametrize("command", [["solve", "-b", "native"], ["show"], ["convert", "-", "--to", "json"],
                                     ["check", "--backends", "native"], ["rate"]])
def test_a_fifo_as_input_is_refused_at_once(tmp_path, command):
    fifo = tmp_path / "in.non"
    os.mkfifo(fifo)
    args = [command[0], str(fifo), *command[1:]]
    r = nonocp(*args)  # a plain open() would block until a writer came
    assert r.returncode == 2, r.stderr
    assert f"{fifo}: is a FIFO (named pipe), not a puzzle file" in r.stderr
    assert "Traceback" not in r.stderr


def test_bench_on_a_fifo_finishes(tmp_path):
    fifo = tmp_path / "in.non"
    os.mkfifo(fifo)
    r = nonocp("bench", str(fifo), "--timeout", "5", "--no-progress")
    assert "Traceback" not in r.stderr
    assert "FIFO" in r.stdout + r.stderr


def test_a_character_device_as_input_is_refused():
    r = nonocp("show", "/dev/zero")
    assert r.returncode == 2 and r.stderr.strip() == "nonocp: /dev/zero: is a character device, not a puzzle file"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_files_are_decoded(tmp_path, encoding):
    path = tmp_path / "heart.non"
    path.write_bytes(HEART.read_text(encoding="utf-8").replace("Heart", "Żółw").encode(encoding))
    r = nonocp("solve", str(path), "-b", "native", "-f", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["puzzle"]["title"] == "Żółw"


def test_broken_utf16_is_refused_by_name(tmp_path):
    path = tmp_path / "broken.non"
    path.write_bytes(b"\xff\xfe" + "width 1\n".encode("utf-16-le") + b"\x00\xd8")  # a lone high surrogate
    r = nonocp("show", str(path))
    assert r.returncode == 2
    assert f"{path}: looks like UTF-16 text but does not decode" in r.stderr


def test_clue_typo_is_reported_at_line_and_column_with_a_hint(tmp_path):
    path = tmp_path / "typo.non"
    path.write_text("width 3\nheight 2\nrows\n2.1\n1\ncolumns\n2\n1\n1\n")
    r = nonocp("solve", str(path), "-b", "native")
    assert r.returncode == 2  # not a colour named `.` and the answer "no solution" (exit 1)
    assert r.stderr.strip() == (f"nonocp: {path}:4:2: clue '2.1': '.' is not a number or a separator; did you "
                                "mean 2,1? (blocks are separated by commas or spaces)")


# --- free text: one escaping rule per output -----------------------------------------------------------


def run_on_terminal(*args: str) -> str:
    """What `nonocp ARGS` writes to a pseudo-terminal (colour on: rich paints, as for a person)."""
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "FORCE_COLOR": "1"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([*NONOCP, *args], stdout=slave, stderr=slave, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other side closed
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=60)
    os.close(master)
    return out.decode("utf-8", "replace")


@pytest.mark.parametrize("command", [["show"], ["solve", "-b", "native"]])
def test_control_codes_in_titles_reach_a_terminal_as_visible_text(tmp_path, command):
    out = run_on_terminal(command[0], str(hostile_puzzle(tmp_path)), *command[1:])
    assert "\x1b]0;" not in out and "\x07" not in out  # no window retitle
    assert "\x9b" not in out and "\u202e" not in out  # no 8-bit CSI, no bidi override
    assert "\r" not in out.replace("\r\n", "")  # no carriage return but the terminal's own line ends
    assert "\x1b[31mred" not in out  # the author's colour code is not the terminal's
    assert "\\x1b]0;pwned\\x07" in out  # shown, escaped, on the title's one line
    assert "Żółw" in out


def test_json_output_escapes_terminal_characters_and_decodes_to_the_exact_title(tmp_path):
    r = nonocp("solve", str(hostile_puzzle(tmp_path)), "-b", "native", "-f", "json")
    assert r.returncode == 0, r.stderr
    assert not any(ch in r.stdout for ch in "\x1b\x07\r\x9b\u202e")
    assert json.loads(r.stdout)["puzzle"]["title"] == HOSTILE


@pytest.mark.parametrize("ext", ["non", "xml", "json"])
def test_convert_writes_titles_nonocp_reads_back(tmp_path, ext):
    out = tmp_path / f"out.{ext}"
    r = nonocp("convert", str(hostile_puzzle(tmp_path)), str(out))
    assert r.returncode == 0, r.stderr
    (p,) = load(str(out))  # control characters written raw would read as "binary data"
    if ext == "json":
        assert p.title == HOSTILE  # JSON carries every character
    else:
        assert "\n" not in p.title and p.title.isprintable() and p.title.startswith("Żółw \\x1b]0;pwned")
    assert nonocp("show", str(out)).returncode == 0


def test_proof_cnf_comments_are_one_ascii_line(tmp_path):
    proofs = tmp_path / "proofs"
    r = nonocp("solve", str(hostile_puzzle(tmp_path)), "-b", "sat", "--proof", str(proofs))
    assert r.returncode == 0, r.stderr  # not an 'ascii' codec error naming no file and a 0-byte .cnf
    (cnf,) = proofs.glob("*.cnf")
    data = cnf.read_bytes()
    assert data.isascii()
    lines = data.decode().splitlines()
    assert lines[0].startswith("c \\u017b\\xf3\\u0142w \\x1b]0;pwned")  # the title: one comment line
    assert all(line.startswith(("c ", "p cnf")) or line.endswith(" 0") for line in lines)
    assert sum(line.startswith("p cnf") for line in lines) == 1
