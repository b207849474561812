"""Messages that name the real problem, through the real command line: what convert cannot write
and what draws it instead, a document given as a puzzle, an engine named by its SAT solver, and the names
files without a title field carry in their text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PUZZLES, ROOT

HEART = str(PUZZLES / "heart.non")
CORPUS = ROOT.parent / "shared" / "corpus"


def nonocp(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonocp.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"})


def one_error(p: subprocess.CompletedProcess) -> str:
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stdout, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("nonocp: ") and "Traceback" not in p.stderr, p.stderr
    return lines[0]


@pytest.mark.parametrize("args", [["demo.svg"], ["demo.png"], ["-", "--to", "svg"], ["out.non", "--to", "png"]])
def test_convert_to_a_picture_says_what_draws_it_and_that_command_works(tmp_path, args):
    line = one_error(nonocp("convert", HEART, *args, cwd=tmp_path))
    picture = "svg" if "svg" in " ".join(args) else "png"
    assert f"convert writes puzzle files, not {picture.upper()} pictures" in line and "--to" not in line.split(";")[0]
    assert not any(tmp_path.iterdir())  # nothing written
    # the commands it suggests are real and draw the picture
    for command in ("show", "solve"):
        suggested = line.split(f"`nonocp {command} ", 1)[1].split("`", 1)[0].split()
        assert suggested[:3] == [HEART, "-f", picture], line
        assert nonocp(command, *suggested, cwd=tmp_path).returncode == 0
        written = (tmp_path / suggested[-1]).read_bytes()
        assert written.startswith(b"<?xml" if picture == "svg" else b"\x89PNG")
        (tmp_path / suggested[-1]).unlink()


def test_a_document_is_not_a_puzzle_file(tmp_path):
    # the project's README resembles a .non file here and there (a `rows` line, a `color` word)
    line = one_error(nonocp("solve", "README.md"))
    assert line == "nonocp: README.md: not a puzzle file (Markdown); give --from FORMAT to read it as one"
    (tmp_path / "notes.toml").write_text("[tool]\nname = 1\n")
    assert "notes.toml: not a puzzle file (TOML)" in one_error(nonocp("rate", tmp_path / "notes.toml"))


def test_text_that_only_looks_like_a_format_is_not_a_puzzle_file(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("Notes on the puzzle\n\nwidth 5\nheight 5\n\nrows\n1 1\n2\n\ncolumns\n1\n\nThat was all.\n")
    line = one_error(nonocp("solve", notes))
    assert f"{notes}: not a puzzle file nonocp can read (it looked like non, but line " in line
    assert "give --from FORMAT if it is one" in line
    (tmp_path / "prose.txt").write_text("Nothing here is a clue.\nNor here.\n")
    assert "prose.txt: not a puzzle file: cannot tell the puzzle format" in one_error(nonocp("show",
                                                                                            tmp_path / "prose.txt"))


def test_an_engine_named_by_its_sat_solver_points_to_the_variant():
    line = one_error(nonocp("solve", HEART, "-b", "glucose"))
    assert "sat:glucose4" in line


G_FILE = """This file declares the task "rose" from www.griddlers.net

#d
   r:r  #ff0000  red
:rows
1r
1r 1
:columns
2r
1
:
"""
MK_FILE = "Little owl\n2 2\n1\n2\n#\n2\n1\n"
NON_FILE = ("https://www.iwriteiam.nl/D0601.html#3\nFrans Faase's portait\n\nnonogram clues data:\n\n"
            "width 2\nheight 2\n\nrows\n1\n2\n\ncolumns\n2\n1\n")


@pytest.mark.parametrize(("name", "text", "title"), [
    ("rose.g", G_FILE, "rose"),
    ("bicycle.g", "Bicykl\n:\n1\n1\n:\n1\n1\n:\n", "Bicykl"),
    ("owl.mk", MK_FILE, "Little owl"),
    ("tail.mk", "2 2\n1\n2\n#\n2\n1\nTail owl\n", "Tail owl"),
    ("faase.txt", NON_FILE, "Frans Faase's portait"),
    ("notitle.g", "Lines of colour declarations have this format:\n:\n1\n1\n:\n1\n1\n:\n", ""),
])
def test_the_name_in_a_file_without_a_title_field_is_its_title(tmp_path, name, text, title):
    (tmp_path / name).write_text(text)
    p = nonocp("show", tmp_path / name, "-f", "json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["title"] == title
    shown = nonocp("show", tmp_path / name).stdout.splitlines()[0]
    assert shown == f"title: {title or '(untitled)'}"


def test_faase_from_the_corpus_shows_its_name():
    faase = CORPUS / "webpbn-survey" / "free" / "webpbn-faase.txt"
    if not faase.exists():
        pytest.skip(f"{faase} is not here (the corpus is beside the project in CI)")
    p = nonocp("solve", faase, "-t", "0.01", "-f", "json", "-b", "native")
    assert json.loads(p.stdout)["puzzle"]["title"] == "Frans Faase's portait"
