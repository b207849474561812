"""Many inputs: several files, folders and `-` (standard input) for solve, show and explain; one report per
puzzle; the most serious exit code; a bad file reported in one line while the others still run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from conftest import PUZZLES, ROOT


def nonocp(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonocp.cli", *map(str, args)], input=stdin, capture_output=True,
                          cwd=ROOT, stdin=None if stdin is not None else subprocess.DEVNULL)


def lines_of(p: subprocess.CompletedProcess) -> list[dict]:
    return [json.loads(line) for line in p.stdout.decode().splitlines()]


def test_solve_several_files_one_report_each_named_by_file():
    files = [PUZZLES / "heart.non", PUZZLES / "dot.non", PUZZLES / "fish.non"]
    p = nonocp("solve", *files, "-b", "native")
    assert p.returncode == 0, p.stderr
    verdicts = [ln for ln in p.stdout.decode().splitlines() if "solution [" in ln]
    assert [v.split(":")[0] for v in verdicts] == [str(f) for f in files]
    j = lines_of(nonocp("solve", *files, "-b", "native", "-f", "json"))
    assert [(o["file"], o["index"], o["status"]) for o in j] == [(str(f), 1, "unique") for f in files]


@pytest.mark.parametrize("files,code", [
    (("heart.non", "no-way.non"), 1),
    (("no-way.non", "heart.non"), 1),
    (("heart.non", "missing.non", "no-way.non"), 2),
    (("heart.non", "dot.non"), 0),
])
def test_exit_code_is_the_most_serious(files, code):
    p = nonocp("solve", *[PUZZLES / f for f in files], "-b", "native", "-f", "json")
    assert p.returncode == code
    out = lines_of(p)
    assert len(out) == len(files)  # every file reported, the unreadable one too
    errors = [o for o in out if "error" in o]
    assert len(errors) == (1 if "missing.non" in files else 0)
    assert len(p.stderr.decode().splitlines()) == len(errors)


def test_a_bad_file_among_good_ones_is_one_line_and_the_others_are_solved(tmp_path):
    bad = tmp_path / "bad.non"
    bad.write_text("width 3\nheight x\n")
    p = nonocp("solve", PUZZLES / "heart.non", bad, PUZZLES / "dot.non", "-b", "native")
    assert p.returncode == 2
    err = p.stderr.decode().splitlines()
    assert len(err) == 1 and "bad.non" in err[0] and "Traceback" not in p.stderr.decode()
    out = p.stdout.decode()
    assert "Heart" in out and "Dot" in out


def test_folders_are_searched_recursively_for_puzzle_files(tmp_path):
    (tmp_path / "sub").mkdir()
    shutil.copy(PUZZLES / "heart.non", tmp_path / "heart.non")
    shutil.copy(PUZZLES / "fish.non", tmp_path / "sub" / "fish.non")
    (tmp_path / "README.txt").write_text("not a puzzle")
    (tmp_path / "notes.md").write_text("# not a puzzle either")
    p = nonocp("solve", tmp_path, "-b", "native", "-f", "json")
    assert p.returncode == 0, p.stderr
    assert sorted(o["puzzle"]["title"] for o in lines_of(p)) == ["Fish", "Heart"]
    empty = tmp_path / "empty"
    empty.mkdir()
    p = nonocp("solve", empty)
    assert p.returncode == 2 and "no puzzle files" in p.stderr.decode()


@pytest.mark.parametrize("fmt", [None, "non"])
def test_stdin_with_and_without_from(fmt):
    data = (PUZZLES / "heart.non").read_bytes()
    p = nonocp("solve", "-", *(["--from", fmt] if fmt else []), "-b", "native", "-f", "json", stdin=data)
    assert p.returncode == 0, p.stderr
    (obj,) = lines_of(p)
    assert obj["file"] == "<stdin>" and obj["status"] == "unique" and obj["puzzle"]["title"] == "Heart"


def test_stdin_as_a_picture_and_mixed_with_files():
    # --from applies to every input; without it each file's format comes from its name, stdin's from its content
    p = nonocp("solve", PUZZLES / "dot.non", "-", "-b", "native", "-f", "json", stdin=b".#.\n###\n.#.\n")
    assert p.returncode == 0, p.stderr
    assert [o["file"] for o in lines_of(p)] == [str(PUZZLES / "dot.non"), "<stdin>"]
    assert lines_of(p)[1]["solutions"] == [["010", "111", "010"]]


def test_stdin_errors_are_one_line_naming_stdin():
    p = nonocp("solve", "-", "--from", "non", stdin=b"width 3\nheight\n")
    assert p.returncode == 2 and "<stdin>" in p.stderr.decode() and len(p.stderr.decode().splitlines()) == 1
    p = nonocp("solve", "-", "-", stdin=b"")
    assert p.returncode == 2 and "once" in p.stderr.decode()


def test_show_and_explain_take_several_files_and_stdin():
    p = nonocp("show", PUZZLES / "heart.non", "-", stdin=(PUZZLES / "dot.non").read_bytes())
    assert p.returncode == 0, p.stderr
    out = p.stdout.decode()
    assert "title: Heart" in out and "title: Dot" in out and "<stdin>" in out
    p = nonocp("explain", PUZZLES / "heart.non", PUZZLES / "no-way.non", "-f", "json")
    assert p.returncode == 1  # no-way has no solution
    assert [(o["file"].rsplit("/", 1)[-1], o["outcome"]) for o in lines_of(p)] == [
        ("heart.non", "solved"), ("no-way.non", "no-solution")]


def test_output_file_collects_every_puzzle_and_is_never_an_input(tmp_path):
    out = tmp_path / "all.jsonl"
    p = nonocp("solve", PUZZLES / "heart.non", PUZZLES / "dot.non", "-b", "native", "-f", "json", "-o", out)
    assert p.returncode == 0 and p.stdout == b""
    assert [json.loads(x)["puzzle"]["title"] for x in out.read_text().splitlines()] == ["Heart", "Dot"]
    copy = tmp_path / "heart.non"
    shutil.copy(PUZZLES / "heart.non", copy)
    before = copy.read_bytes()
    p = nonocp("solve", PUZZLES / "dot.non", copy, "-o", copy)
    assert p.returncode == 2 and "input" in p.stderr.decode() and copy.read_bytes() == before


def test_pictures_of_several_files_are_numbered(tmp_path):
    p = nonocp("solve", PUZZLES / "heart.non", PUZZLES / "dot.non", "-b", "native", "-f", "svg")
    assert p.returncode == 2 and "--output" in p.stderr.decode()
    p = nonocp("solve", PUZZLES / "heart.non", PUZZLES / "dot.non", "-b", "native", "-f", "svg",
               "-o", tmp_path / "pic.svg")
    assert p.returncode == 0
    assert sorted(f.name for f in tmp_path.iterdir()) == ["pic-1.svg", "pic-2.svg"]


def test_convert_reads_stdin():
    p = nonocp("convert", "-", "-", "--from", "picture", "--to", "non", stdin=b"#.\n.#\n")
    assert p.returncode == 0, p.stderr
    assert "rows" in p.stdout.decode() and "goal" in p.stdout.decode()


def test_show_pictures_of_several_puzzles_are_numbered(tmp_path):
    p = nonocp("show", PUZZLES / "gen-bundle.nonpack", "-f", "svg")
    assert p.returncode == 2 and "--output" in p.stderr.decode()
    p = nonocp("show", PUZZLES / "gen-bundle.nonpack", PUZZLES / "heart.non", "-f", "svg", "-o", tmp_path / "p.svg")
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in tmp_path.iterdir()) == [f"p-{i}.svg" for i in range(1, 6)]
    assert "Heart" in (tmp_path / "p-5.svg").read_text()
