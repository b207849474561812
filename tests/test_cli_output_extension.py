"""`solve` and `show` draw what --output's extension names when --format is left out (`-o pic.svg` is an
SVG, not text in a file named .svg); a --format given wins; commands whose --output is a puzzle file
(convert) keeps its report format."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PUZZLES, ROOT

HEART = PUZZLES / "heart.non"


def nonocp(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonocp.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"})


def kind(path: Path) -> str:
    data = path.read_bytes()
    if data.startswith(b"\x89PNG"):
        return "png"
    if b"<svg" in data[:200]:
        return "svg"
    if data.lstrip().startswith(b"{"):
        json.loads(data)  # one object: a JSON puzzle, or one puzzle's report
        return "json"
    return "non" if b"\ntitle " in data or data.startswith(b"catalogue") else "text"


@pytest.mark.parametrize("command", ["solve", "show"])
@pytest.mark.parametrize("suffix", ["svg", "png", "json", "txt"])
def test_the_output_extension_chooses_the_format(tmp_path, command, suffix):
    out = tmp_path / f"heart.{suffix}"
    p = nonocp(command, HEART, "-o", out)
    assert p.returncode == 0, p.stderr
    assert kind(out) == ("text" if suffix == "txt" else suffix)


def test_solve_writes_a_non_file_with_the_solution_as_goal(tmp_path):
    out = tmp_path / "solved.non"
    assert nonocp("solve", HEART, "-o", out).returncode == 0
    back = nonocp("show", out, "-f", "json")
    assert back.returncode == 0 and json.loads(back.stdout.splitlines()[0])["goal"], back.stdout


def test_a_format_given_wins_over_the_extension(tmp_path):
    out = tmp_path / "heart.svg"
    assert nonocp("solve", HEART, "-f", "text", "-o", out).returncode == 0
    assert kind(out) == "text" and out.read_text().startswith("Heart (9x8): unique solution")


def test_convert_keeps_its_report_format_when_writing_json(tmp_path):
    out = tmp_path / "heart.json"
    p = nonocp("convert", HEART, out)
    assert p.returncode == 0 and not p.stdout.lstrip().startswith("{"), p.stdout
    assert kind(out) == "json"
