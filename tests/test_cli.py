"""The `nonocp` command line: every command, every output format, exit codes, JSON shape, bad input.

Solving runs on fake engines registered in the real registry for the duration of a test (brute force
from tests/oracle.py, and engines that time out or crash), so these tests do not depend on which real
engines exist yet and take seconds. tests/test_puzzles.py runs the real engines.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

import nonocp.engines
from conftest import PUZZLES
from nonocp.cli.app import app
from nonocp.core.grid import Grid
from nonocp.core.palette import WHITE, Color, Palette
from nonocp.core.puzzle import Block, Meta, Puzzle, clues_of
from nonocp.core.result import SolveResult, Status, status_of
from nonocp.engines import Backend, SolveOptions
from nonocp.engines.found import Found
from nonocp.formats import dumps, loads
from oracle import brute_force

# ---- fake engines --------------------------------------------------------------------------------

SEEN: list[SolveOptions] = []  # the options the fake engines were called with, newest last


class BruteBackend(Backend):
    """A correct engine for tiny puzzles (brute force), honouring max_solutions."""

    name = "brute"

    def available(self) -> bool:
        return True

    def version(self) -> str:
        return "test-1"

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        SEEN.append(options)
        start = time.perf_counter()
        every = brute_force(puzzle)
        limit = options.max_solutions
        found = Found.of(options)  # streamed and kept as the contract says
        for grid in every if limit is None else every[:limit]:
            found.add(grid)
        exhausted = len(found) == len(every) and (limit is None or len(every) < limit)
        status = status_of(len(found), exhausted, limit)
        return SolveResult(status, found.grids(), exhausted, self.name, time.perf_counter() - start, {"nodes": 7},
                           found=len(found))


class SlowBackend(BruteBackend):
    """Runs out of time: found one solution of a puzzle that may have more, no verdict."""

    name = "slow"

    def solve(self, puzzle, options):
        SEEN.append(options)
        found = Found.of(options)
        for grid in brute_force(puzzle, 1):
            found.add(grid)
        return SolveResult(Status.TIMEOUT, found.grids(), False, self.name, 1.0, found=len(found))


class CrashBackend(BruteBackend):
    """Must never be called (puzzles that counting alone proves unsolvable)."""

    name = "crash"

    def solve(self, puzzle, options):
        raise AssertionError("the engine was called")


class MissingBackend(BruteBackend):
    name = "missing"

    def available(self) -> bool:
        return False


@pytest.fixture(autouse=True)
def fakes(monkeypatch):
    for cls in (BruteBackend, SlowBackend, CrashBackend, MissingBackend):
        monkeypatch.setitem(nonocp.engines.BACKENDS, cls.name, f"{__name__}:{cls.__name__}")
    monkeypatch.setitem(nonocp.engines.BACKENDS, "ghost", "nonocp_no_such_module:Nothing")
    SEEN.clear()


# ---- puzzles -------------------------------------------------------------------------------------


def B(*lengths, color=1):
    return tuple(Block(n, color) for n in lengths)


PLUS_GRID = Grid.from_rows([[0, 1, 0], [1, 1, 1], [0, 1, 0]])
PLUS = Puzzle(*clues_of(PLUS_GRID), meta=Meta(title="Plus", goal=PLUS_GRID))
MULTI = Puzzle((B(1),) * 3, (B(1),) * 3, meta=Meta(title="Permutations"))  # 6 solutions
NONE = Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ()), meta=Meta(title="Impossible"))  # totals agree
MISCOUNT = Puzzle((B(2), B(2)), (B(1), B(1)), meta=Meta(title="Miscount"))  # rows paint 4, columns 2
COLOURS = Palette((WHITE, Color("red", "#e6194b", "r"), Color("green", "#3cb44b", "g")))
FLAG_GRID = Grid.from_rows([[1, 1, 2], [2, 0, 1]])
FLAG = Puzzle(*clues_of(FLAG_GRID), COLOURS, Meta(title="Flag & <co>", goal=FLAG_GRID))


# (.non keeps clues, colour values and symbols, not colour names: compare puzzles by fingerprint)


def write(tmp_path, name, *puzzles):
    path = tmp_path / name
    path.write_text(dumps(puzzles[0] if len(puzzles) == 1 else list(puzzles), "non"))
    return str(path)


runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def solve_json(*args):
    r = run("solve", *args, "--format", "json")
    return r, [json.loads(line) for line in r.stdout.splitlines()]


# ---- solve: text ---------------------------------------------------------------------------------


def test_solve_text_prints_verdict_and_the_solved_grid(tmp_path):
    r = run("solve", write(tmp_path, "plus.non", PLUS), "-b", "brute")
    assert r.exit_code == 0, r.stderr
    assert "Plus" in r.stdout and "unique" in r.stdout
    grid_lines = [line.split("|")[1].split() for line in r.stdout.splitlines() if "|" in line]
    assert grid_lines == [[".", "#", "."], ["#", "#", "#"], [".", "#", "."]]


def test_solve_text_shows_every_solution_found(tmp_path):
    r = run("solve", write(tmp_path, "m.non", MULTI), "-b", "brute", "--all")
    assert r.exit_code == 0
    assert r.stdout.count("solution ") == 6 and "exactly 6 solutions (all shown)" in r.stdout
    r = run("solve", write(tmp_path, "m.non", MULTI), "-b", "brute", "-n", "3")
    assert r.stdout.count("solution ") == 3 and "several solutions (3 shown)" in r.stdout


def test_solve_text_colour_uses_the_colour_symbols(tmp_path):
    r = run("solve", write(tmp_path, "flag.non", FLAG), "-b", "brute")
    assert r.exit_code == 0
    grid_lines = [line.split("|")[1].split() for line in r.stdout.splitlines() if "|" in line]
    assert grid_lines == [["r", "r", "g"], ["g", ".", "r"]]


# ---- solve: json ---------------------------------------------------------------------------------


def test_solve_json_shape_for_a_unique_puzzle(tmp_path):
    r, (obj,) = solve_json(write(tmp_path, "plus.non", PLUS), "-b", "brute")
    assert r.exit_code == 0
    assert set(obj) == {"file", "index", "puzzle", "backend", "decided_by", "status", "exhaustive", "stopped",
                        "count", "solutions", "seconds", "stats"}
    assert obj["file"].endswith("plus.non") and obj["index"] == 1
    assert (obj["decided_by"], obj["exhaustive"], obj["stopped"], obj["count"]) == ("brute", True, "exhausted", 1)
    assert obj["puzzle"] == {"title": "Plus", "width": 3, "height": 3, "colors": {"0": "#ffffff", "1": "#000000"}}
    assert obj["backend"] == "brute"
    assert obj["status"] == "unique"
    assert obj["solutions"] == [["010", "111", "010"]]
    assert isinstance(obj["seconds"], float) and obj["seconds"] >= 0
    assert obj["stats"] == {"nodes": 7}


def test_solve_json_colour_solution_in_goal_alphabet(tmp_path):
    r, (obj,) = solve_json(write(tmp_path, "flag.non", FLAG), "-b", "brute")
    assert r.exit_code == 0
    assert obj["puzzle"]["colors"] == {"0": "#ffffff", "r": "#e6194b", "g": "#3cb44b"}
    assert obj["solutions"] == [["rrg", "g0r"]]
    assert obj["puzzle"]["title"] == "Flag & <co>"


def test_solve_json_multiple_default_limit_is_two(tmp_path):
    r, (obj,) = solve_json(write(tmp_path, "m.non", MULTI), "-b", "brute")
    assert r.exit_code == 0
    assert obj["status"] == "multiple" and len(obj["solutions"]) == 2
    assert len({"".join(s) for s in obj["solutions"]}) == 2
    assert SEEN[-1].max_solutions == 2


@pytest.mark.parametrize("args,count,status", [(["--all"], 6, "multiple"), (["-n", "4"], 4, "multiple"),
                                               (["--max-solutions", "1"], 1, "solved")])
def test_solve_json_solution_limits(tmp_path, args, count, status):
    r, (obj,) = solve_json(write(tmp_path, "m.non", MULTI), "-b", "brute", *args)
    assert r.exit_code == 0
    assert (len(obj["solutions"]), obj["status"]) == (count, status)
    every = {tuple(g.to_strings(MULTI.palette)) for g in brute_force(MULTI)}
    assert {tuple(s) for s in obj["solutions"]} <= every


def test_solve_none_exits_1(tmp_path):
    r, (obj,) = solve_json(write(tmp_path, "none.non", NONE), "-b", "brute")
    assert r.exit_code == 1
    assert obj["status"] == "none" and obj["solutions"] == []


def test_solve_unequal_totals_is_none_without_calling_the_engine(tmp_path):
    r, (obj,) = solve_json(write(tmp_path, "miscount.non", MISCOUNT), "-b", "crash")
    assert r.exit_code == 1, r.stderr
    assert obj["status"] == "none" and obj["stats"]["proof"] == "counting"
    r = run("solve", write(tmp_path, "miscount.non", MISCOUNT), "-b", "crash")
    assert r.exit_code == 1 and "no solution" in r.stdout


def test_solve_timeout_exits_3_and_shows_what_was_found(tmp_path):
    r, (obj,) = solve_json(write(tmp_path, "m.non", MULTI), "-b", "slow", "--timeout", "0.5")
    assert r.exit_code == 3
    assert obj["status"] == "timeout" and len(obj["solutions"]) == 1
    assert SEEN[-1].time_limit == 0.5
    r = run("solve", write(tmp_path, "m.non", MULTI), "-b", "slow")
    assert r.exit_code == 3 and "time limit" in r.stdout


def test_solve_passes_seed_workers_and_proof_dir(tmp_path):
    proof = tmp_path / "proofs"
    r = run("solve", write(tmp_path, "none.non", NONE), "-b", "brute", "--seed", 9, "--workers", 2, "--proof", proof)
    assert r.exit_code == 1
    opts = SEEN[-1]
    assert (opts.seed, opts.workers, opts.extra) == (9, 2, {"proof_dir": str(proof)})
    assert proof.is_dir()
    run("solve", write(tmp_path, "plus.non", PLUS), "-b", "brute")
    assert SEEN[-1].extra == {} and SEEN[-1].seed is None


def test_solve_without_backend_uses_the_registry_default(tmp_path):
    r, objs = solve_json(write(tmp_path, "plus.non", PLUS))
    default = nonocp.engines.DEFAULT_BACKEND
    if r.exit_code == 2:  # the default engine is not installed here: the message names it
        assert default in r.stderr and len(r.stderr.splitlines()) == 1
    else:
        assert r.exit_code == 0 and objs[0]["backend"].startswith(default)
        assert objs[0]["solutions"] == [["010", "111", "010"]]


# ---- several puzzles in one file -----------------------------------------------------------------


def test_bundle_json_one_object_per_puzzle_per_line(tmp_path):
    path = write(tmp_path, "b.nonpack", PLUS, FLAG, MULTI)
    r, objs = solve_json(path, "-b", "brute")
    assert r.exit_code == 0
    assert [o["puzzle"]["title"] for o in objs] == ["Plus", "Flag & <co>", "Permutations"]
    assert [o["status"] for o in objs] == ["unique", "unique", "multiple"]


@pytest.mark.parametrize("backend,puzzles,code", [
    ("brute", (PLUS, NONE), 1), ("brute", (NONE, PLUS), 1), ("slow", (PLUS, MULTI), 3), ("brute", (PLUS, FLAG), 0),
])
def test_bundle_exit_code(tmp_path, backend, puzzles, code):
    r = run("solve", write(tmp_path, "b.nonpack", *puzzles), "-b", backend, "-f", "json")
    assert r.exit_code == code
    assert len(r.stdout.splitlines()) == len(puzzles)


def test_bundle_text_names_each_puzzle(tmp_path):
    r = run("solve", write(tmp_path, "b.nonpack", PLUS, NONE), "-b", "brute")
    assert r.exit_code == 1
    assert "puzzle 1 of 2: Plus" in r.stdout and "puzzle 2 of 2: Impossible" in r.stdout


# ---- other output formats ------------------------------------------------------------------------


def test_solve_non_output_carries_the_solution_as_goal(tmp_path):
    r = run("solve", write(tmp_path, "flag.non", FLAG), "-b", "brute", "-f", "non")
    assert r.exit_code == 0
    (back,) = loads(r.stdout, "non")
    assert back.fingerprint() == FLAG.fingerprint() and back.meta.goal == FLAG_GRID


def test_solve_non_bundle(tmp_path):
    r = run("solve", write(tmp_path, "b.nonpack", PLUS, MULTI), "-b", "brute", "-f", "non")
    back = loads(r.stdout, "nonpack")
    assert [p.fingerprint() for p in back] == [PLUS.fingerprint(), MULTI.fingerprint()]
    assert back[0].meta.goal == PLUS_GRID and MULTI.is_solution(back[1].meta.goal)


def cells_of_svg(text):
    root = ET.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    return [e for e in root.iter(f"{ns}rect") if e.get("class") == "cell"]


def test_solve_svg(tmp_path):
    r = run("solve", write(tmp_path, "flag.non", FLAG), "-b", "brute", "-f", "svg")
    assert r.exit_code == 0
    cells = cells_of_svg(r.stdout)
    assert len(cells) == 6
    fills = {(int(c.get("data-row")), int(c.get("data-col"))): c.get("fill") for c in cells}
    assert fills[(0, 2)] == "#3cb44b" and fills[(1, 1)] == "#ffffff"


def test_solve_png_to_file(tmp_path):
    from PIL import Image

    out = tmp_path / "flag.png"
    r = run("solve", write(tmp_path, "flag.non", FLAG), "-b", "brute", "-f", "png", "-o", out)
    assert r.exit_code == 0 and r.stdout == ""
    with Image.open(out) as img:
        assert img.format == "PNG" and img.width > 3 * 20 and img.height > 2 * 20


def test_solve_pictures_of_a_bundle_go_to_numbered_files(tmp_path):
    path = write(tmp_path, "b.nonpack", PLUS, FLAG)
    r = run("solve", path, "-b", "brute", "-f", "svg")
    assert r.exit_code == 2 and "--output" in r.stderr
    r = run("solve", path, "-b", "brute", "-f", "svg", "-o", tmp_path / "pic.svg")
    assert r.exit_code == 0
    assert len(cells_of_svg((tmp_path / "pic-1.svg").read_text())) == 9
    assert len(cells_of_svg((tmp_path / "pic-2.svg").read_text())) == 6


# ---- --output ------------------------------------------------------------------------------------


def test_output_writes_the_file_and_nothing_to_stdout(tmp_path):
    out = tmp_path / "answer.json"
    r = run("solve", write(tmp_path, "plus.non", PLUS), "-b", "brute", "-f", "json", "-o", out)
    assert r.exit_code == 0 and r.stdout == ""
    assert json.loads(out.read_text())["solutions"] == [["010", "111", "010"]]
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []  # no temp file left


def test_output_replaces_an_existing_file(tmp_path):
    out = tmp_path / "answer.txt"
    out.write_text("old and much longer content " * 50)
    r = run("solve", write(tmp_path, "plus.non", PLUS), "-b", "brute", "-o", out)
    assert r.exit_code == 0
    assert "old" not in out.read_text() and "Plus" in out.read_text()


@pytest.mark.parametrize("fmt", ["text", "json", "non", "svg", "png"])
def test_output_never_overwrites_the_input(tmp_path, fmt):
    path = write(tmp_path, "plus.non", PLUS)
    before = open(path, "rb").read()
    link = tmp_path / "link.non"
    os.symlink(path, link)
    for target in (path, link, os.path.join(str(tmp_path), ".", "plus.non")):
        r = run("solve", path, "-b", "brute", "-f", fmt, "-o", target)
        assert r.exit_code == 2 and "input" in r.stderr
        assert open(path, "rb").read() == before
    assert SEEN == []  # refused before any solving


# ---- usage errors: exit 2 with one line ----------------------------------------------------------


@pytest.mark.parametrize("args,needle", [
    (["-b", "nosuch"], "nosuch"),
    (["-b", "ghost"], "ghost"),
    (["-b", "missing"], "missing"),
    (["-b", "brute", "--format", "bmp"], "bmp"),
    (["-b", "brute", "--all", "-n", "3"], "--all"),
    (["-b", "brute", "-n", "-1"], "--max-solutions"),
    (["-b", "brute", "--timeout", "-1"], "--timeout"),
    (["-b", "brute", "--timeout", "soon"], "--timeout"),
    (["-b", "brute", "--color", "sometimes"], "--color"),
    (["-b", "brute", "--cell-size", "0"], "--cell-size"),
    (["-b", "brute", "--bogus"], "--bogus"),
    (["-b", "brute", "--workers", "0"], "--workers"),
    (["-b", "brute", "--from", "nosuchformat"], "nosuchformat"),
])
def test_usage_errors_exit_2_with_one_line(tmp_path, args, needle):
    r = run("solve", write(tmp_path, "plus.non", PLUS), *args)
    assert r.exit_code == 2
    assert r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and needle in r.stderr and "Traceback" not in r.stderr


# ---- bad input files: exit 2, one line naming the file, never a traceback ------------------------

GOOD = dumps(PLUS, "non")
BAD_FILES = {
    "missing.non": None,
    "a-directory.non": "DIR",
    "garbage.non": b"\x00\xff\xfe\x89PNG\r\n\x1a\n\x00\x00garbage\x01\x02",
    "truncated.non": GOOD[: GOOD.index("columns") + 9],
    "huge.non": "width 99999999999999999999\nheight 3\nrows\n1\n1\n1\ncolumns\n1\n1\n1\n",
    "huge-clue.non": "width 3\nheight 1\nrows\n123456789012345678901234567890\ncolumns\n1\n1\n1\n",
    "cannot-fit.non": "width 3\nheight 2\nrows\n2,2\n0\ncolumns\n1\n1\n1\n",
    "negative.non": "width -3\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n1\n",
    "empty.non": "",
    "entities.xml": '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\n'
                    "<puzzleset><puzzle><title>&lol2;</title></puzzle></puzzleset>\n",
    "unknown.weird": "hello\nworld\n",
}


def make_bad(tmp_path, name):
    content = BAD_FILES[name]
    path = tmp_path / name
    if content == "DIR":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    return str(path)


@pytest.mark.parametrize("command", [["solve", "-b", "brute"], ["solve", "-b", "brute", "-f", "json"], ["show"],
                                     ["convert", "{out}"]])
@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_input_exits_2_with_one_line_naming_the_file(tmp_path, command, name):
    path = make_bad(tmp_path, name)
    args = [a.replace("{out}", str(tmp_path / "out.non")) for a in command]
    r = run(args[0], path, *args[1:])
    assert r.exit_code == 2, (r.stdout, r.stderr, r.exception)
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and name in lines[0] and "Traceback" not in r.stderr
    assert SEEN == []
    assert not (tmp_path / "out.non").exists()


def test_bad_input_in_a_real_process_has_no_traceback(tmp_path):
    path = make_bad(tmp_path, "garbage.non")
    p = subprocess.run([sys.executable, "-m", "nonocp.cli", "solve", path], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 2
    assert p.stdout == "" and len(p.stderr.splitlines()) == 1 and "garbage.non" in p.stderr


# ---- show ----------------------------------------------------------------------------------------


def test_show_prints_header_clues_and_goal(tmp_path):
    r = run("show", write(tmp_path, "flag.non", FLAG))
    assert r.exit_code == 0
    assert "title: Flag & <co>" in r.stdout and "size: 3x2" in r.stdout and "#e6194b" in r.stdout
    rows = [line.split("|") for line in r.stdout.splitlines() if "|" in line]
    assert [clue.split() for clue, _ in rows] == [["2r", "1g"], ["1g", "1r"]]
    assert [cells.split() for _, cells in rows] == [["r", "r", "g"], ["g", ".", "r"]]


def test_show_without_goal_leaves_the_grid_empty(tmp_path):
    for args in ([write(tmp_path, "m.non", MULTI)], [write(tmp_path, "flag.non", FLAG), "--no-goal"]):
        r = run("show", *args)
        assert r.exit_code == 0
        assert all(not cells.strip() for _, cells in (ln.split("|") for ln in r.stdout.splitlines() if "|" in ln))


def test_show_bundle_and_unsolvable_counts(tmp_path):
    r = run("show", write(tmp_path, "b.nonpack", PLUS, MISCOUNT))
    assert r.exit_code == 0
    assert "puzzle 1 of 2" in r.stdout and "puzzle 2 of 2" in r.stdout
    assert "no solution: colour 'black': the row clues paint 4 cells but the column clues paint 2" in r.stdout


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_show_pictures(tmp_path, fmt):
    out = tmp_path / f"flag.{fmt}"
    r = run("show", write(tmp_path, "flag.non", FLAG), "-f", fmt, "-o", out)
    assert r.exit_code == 0
    data = out.read_bytes()
    if fmt == "svg":
        assert len(cells_of_svg(data)) == 6
    else:
        assert data.startswith(b"\x89PNG\r\n\x1a\n")


# ---- convert -------------------------------------------------------------------------------------


def test_convert_round_trip(tmp_path):
    src = write(tmp_path, "flag.non", FLAG)
    out = tmp_path / "copy.non"
    r = run("convert", src, out)
    assert r.exit_code == 0 and r.stdout == ""
    (back,) = nonocp.load(str(out))
    assert back.fingerprint() == FLAG.fingerprint() and back.meta.goal == FLAG_GRID and back.title == FLAG.title


def test_convert_to_stdout_and_bundles(tmp_path):
    r = run("convert", write(tmp_path, "b.nonpack", PLUS, FLAG), "-", "--to", "nonpack")
    assert r.exit_code == 0
    assert [p.fingerprint() for p in loads(r.stdout, "nonpack")] == [PLUS.fingerprint(), FLAG.fingerprint()]


def test_convert_refuses_unknown_output_format_and_the_input_itself(tmp_path):
    src = write(tmp_path, "flag.non", FLAG)
    before = open(src).read()
    for args in ([tmp_path / "x.unknownext"], [tmp_path / "x.non", "--to", "bogus"], [src], ["-"]):
        r = run("convert", src, *args)
        assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1
    assert open(src).read() == before


# ---- backends ------------------------------------------------------------------------------------


def test_backends_lists_every_registered_engine(tmp_path):
    r = run("backends")
    assert r.exit_code == 0
    names = [line.split()[0] for line in r.stdout.splitlines()[1:]]
    assert names == list(nonocp.engines.BACKENDS)
    rows = {line.split()[0]: line.split() for line in r.stdout.splitlines()[1:]}
    assert rows["brute"][1:3] == ["yes", "test-1"]
    assert rows["ghost"][1] == "no" and rows["missing"][1] == "no"


def test_backends_json():
    r = run("backends", "--format", "json")
    assert r.exit_code == 0
    rows = {row["name"]: row for row in map(json.loads, r.stdout.splitlines())}
    fake = {k: rows["brute"][k] for k in ("name", "available", "version", "note")}
    assert fake == {"name": "brute", "available": True, "version": "test-1", "note": ""}
    # what the class declares, from the contract's defaults for a fake that declares nothing
    assert rows["brute"]["capabilities"]["proofs"] is False and rows["brute"]["options"] == "none"
    assert rows["native"]["role"] == "independent" and rows["auto"]["role"] == "hybrid"
    assert "encoding=automaton|blocks|both" in rows["sat"]["options"]
    assert rows["ghost"]["available"] is False and "ghost" in rows["ghost"]["note"]


def test_help_lists_every_command():
    r = run("--help")
    assert r.exit_code == 0
    for command in ("solve", "show", "convert", "backends"):
        assert command in r.stdout


# ---- the real engines through the command line ---------------------------------------------------


@pytest.mark.parametrize("name,code,status", [("fish.non", 0, "unique"), ("no-way.non", 1, "none"),
                                              ("eyes.non", 0, "multiple")])
def test_real_engines_through_the_command(engine_name, name, code, status):
    path = PUZZLES / name
    r, (obj,) = solve_json(path, "-b", engine_name)
    assert (r.exit_code, obj["status"]) == (code, status), r.stderr
    (puzzle,) = nonocp.load(str(path))
    grids = [Grid.from_strings(s, puzzle.palette) for s in obj["solutions"]]
    assert all(puzzle.is_solution(g) for g in grids)
    if status == "unique":
        assert grids == [puzzle.meta.goal]


def test_help_texts_are_shown_whole():
    """Help is plain text (no rich markup, which once dropped `[...]` from a help line silently): every word
    of every option's help is shown, brackets included."""
    import re

    import typer.main

    group = typer.main.get_command(app)
    runner = CliRunner()
    for name, command in group.commands.items():
        output = runner.invoke(app, [name, "--help"]).output
        shown = set(re.findall(r"[a-z]{4,}", output.lower()))
        for param in command.params:
            text = getattr(param, "help", None) or ""
            assert "\\[" not in text, f"{name} {param.name}: no markup escapes in plain help"
            missing = set(re.findall(r"[a-z]{4,}", text.lower())) - shown
            assert not missing, f"{name} {param.name}: help words not shown: {missing}"
            for bracketed in re.findall(r"\w+\[\w+\]", text):
                assert bracketed in " ".join(output.split()), f"{name}: {bracketed} shown as written"
