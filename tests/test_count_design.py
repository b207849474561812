"""Count-and-contiguity puzzles made from pictures: `convert --to counts` / `--clues counts` from any puzzle
with a goal (text pictures, PBM, .non...), `design --clues counts` from an image, and `--make-unique` on a
count design (design/unique.py with count clues' moves). Through the real command line, with the engines and
the brute-force oracle as judges."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import PUZZLES, examples
from nonocp import solve
from nonocp.core.counts import count_clue, count_clues_of
from nonocp.core.errors import NonocpError
from nonocp.core.grid import Grid
from nonocp.core.puzzle import COUNTS, RUNS, picture_puzzle, with_clue_kind
from nonocp.design import Design, apply_changes, changes_between, make_unique
from nonocp.design.moves import counts, is_valid, kills, move_between, split_move
from nonocp.formats import load, loads
from oracle import brute_force
from strategies import palette_of
from test_design_image import COLOURS, draw, encoded, with_white_border


def nonocp(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonocp.cli", *map(str, args)], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=900)


def first_json(out: str) -> dict:
    return json.loads(out.splitlines()[0])


# ---- the pieces: a line's count clue as moves compare it, pictures recoloured, moves in count puzzles ---------


@settings(max_examples=examples(200), deadline=None)
@given(a=st.lists(st.integers(0, 3), min_size=1, max_size=8), b=st.lists(st.integers(0, 3), min_size=1, max_size=8))
def test_moves_compare_count_clues_exactly(a, b):
    assert (counts(a) == counts(b)) == (count_clue(a, 4) == count_clue(b, 4))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cells=st.lists(st.lists(st.integers(0, 4), min_size=3, max_size=3), min_size=1, max_size=4))
def test_a_picture_becomes_a_count_puzzle_it_solves(cells):
    """Any run-clue puzzle with a goal: the count puzzle of its goal has that picture among its solutions, in
    the colours the picture uses (the background one of them), named a, b, c..."""
    grid = Grid.from_rows(cells)
    puzzle = picture_puzzle(grid, palette_of(5))
    assert puzzle.meta.goal == grid and not puzzle.has_counts
    used = sorted({v for row in cells for v in row})
    if len(used) < 2:
        with pytest.raises(NonocpError, match="at least two"):
            with_clue_kind(puzzle, COUNTS)
        return
    made = with_clue_kind(puzzle, COUNTS)
    assert made.has_counts and made.title == puzzle.title
    assert [c.rgb for c in made.palette.colors] == [puzzle.palette[v].rgb for v in used]
    assert [c.symbol for c in made.palette.colors] == list("abcde"[:len(used)])
    picture = [[used.index(v) for v in row] for row in cells]
    assert made.meta.goal == Grid.from_rows(picture)
    assert count_clues_of(picture, len(used)) == (made.rows, made.cols)
    assert made.meta.goal in brute_force(made)
    assert with_clue_kind(made, RUNS).has_counts is False


def count_design(seed: int, w: int, h: int, ncolors: int) -> Design:
    rng = random.Random(seed)
    cells = [[rng.randrange(ncolors) for _ in range(w)] for _ in range(h)]
    cells[0][:ncolors] = list(range(ncolors))  # every colour used
    return Design(Grid.from_rows(cells), palette_of(ncolors)).as_counts()


def test_count_moves_are_second_solutions_and_kills_agrees():
    design = next(d for d in (count_design(s, 6, 6, 3) for s in range(50))
                  if solve(d.puzzle(), "native").status.value == "multiple")
    x = [list(r) for r in design.grid.cells]
    answer = solve(design.puzzle(), "native", max_solutions=6)
    moves = [m for g in answer.solutions for m in split_move(move_between(x, [list(r) for r in g.cells]), COUNTS)]
    assert moves
    for m in moves:
        assert is_valid(x, m)
        moved = [row[:] for row in x]
        for (r, c), v in m.cells.items():
            moved[r][c] = v
        assert count_clues_of(moved, 3) == count_clues_of(x, 3)  # each group alone keeps every count clue
        for r in range(6):
            for c in range(6):
                for v in range(3):
                    if v != x[r][c]:
                        old, x[r][c] = x[r][c], v
                        after = is_valid(x, m)
                        x[r][c] = old
                        assert kills(x, (r, c), v, m) == (not after)


@settings(max_examples=examples(16), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), w=st.integers(2, 5), h=st.integers(2, 5), ncolors=st.sampled_from([2, 3]))
def test_small_count_designs_end_unique_by_brute_force(seed, w, h, ncolors):
    design = count_design(seed, max(w, ncolors), h, ncolors)
    result = make_unique(design, rate_result=False)
    assert result.unique, result.status
    assert {p.engine for p in result.proofs} == {"native", "sat"}
    final = result.design.grid
    assert changes_between(design.grid, final) == result.changes and apply_changes(design.grid, result.changes) == final
    puzzle = result.design.puzzle()
    assert puzzle.has_counts and count_clues_of(final.cells, ncolors) == (puzzle.rows, puzzle.cols)
    assert brute_force(puzzle, 2) == [final]
    if brute_force(design.puzzle(), 2) == [design.grid]:
        assert result.status == "already-unique" and not result.changes


# ---- convert --to counts ----------------------------------------------------------------------------------

PLUS = """\
..#..
.###.
#####
.###.
..#..
"""


def test_convert_a_text_picture_to_counts_and_back_to_the_same_picture(tmp_path):
    pic = tmp_path / "plus.txt"
    pic.write_text(PLUS)
    out = tmp_path / "plus.counts"
    r = nonocp("convert", pic, out, "--from", "picture")
    assert r.returncode == 0, r.stderr
    picture = [[1 if ch == "#" else 0 for ch in row] for row in PLUS.split()]
    puzzle = load(str(out))[0]
    assert puzzle.has_counts and (puzzle.rows, puzzle.cols) == count_clues_of(picture, 2)
    solved = nonocp("solve", out, "-f", "json")
    assert solved.returncode == 0, solved.stderr
    answer = first_json(solved.stdout)
    assert answer["status"] == "unique"
    assert answer["solutions"] == [["".join("ab"[v] for v in row) for row in picture]]
    # the JSON form too, with --clues counts; and from a .non with a goal
    js = tmp_path / "plus.json"
    assert nonocp("convert", pic, js, "--from", "picture", "--clues", "counts").returncode == 0
    assert loads(js.read_text(), "json")[0] == puzzle
    heart = tmp_path / "heart.counts"
    assert nonocp("convert", PUZZLES / "heart.non", heart).returncode == 0
    source = load(str(PUZZLES / "heart.non"))[0]
    made = load(str(heart))[0]
    assert made.meta.goal == source.meta.goal and made.title == "Heart"
    assert [c.rgb for c in made.palette.colors] == [c.rgb for c in source.palette.colors]


def test_convert_refuses_a_puzzle_without_a_goal_naming_it(tmp_path):
    bundle = tmp_path / "bundle.nonpack"
    text = (PUZZLES / "gen-bundle.nonpack").read_text()
    bundle.write_text(text)
    r = nonocp("convert", PUZZLES / "gen-c3-12x12.non", tmp_path / "x.counts")
    assert r.returncode == 2 and "has run clues and no goal picture" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "x.counts").exists()
    r = nonocp("convert", bundle, tmp_path / "x.json", "--clues", "counts")
    assert r.returncode == 0, r.stderr  # every puzzle of that bundle has its goal
    assert all(p.has_counts for p in load(str(tmp_path / "x.json")))
    r = nonocp("convert", PUZZLES / "heart.non", tmp_path / "x.non", "--clues", "counts")
    assert r.returncode == 2 and "cannot hold count-and-contiguity clues" in r.stderr, r.stderr


# ---- design --clues counts ---------------------------------------------------------------------------------


def picture_png(tmp_path, seed: int, colours: int) -> tuple:
    """A picture (8 pixels a cell, a white border) whose count clues have several solutions, and its cells."""
    rng = random.Random(seed)
    while True:
        inner = [[rng.randint(0, colours) for _ in range(6)] for _ in range(5)]
        if len({v for row in inner for v in row}) <= colours:
            continue  # every colour in the picture, so that the letters a, b, c... are the drawn colours
        cells = with_white_border(inner)
        grid = Grid.from_rows(cells)
        if solve(Design(grid, palette_of(colours + 1)).as_counts().puzzle(), "native").status.value == "multiple":
            break
    path = tmp_path / "pic.png"
    path.write_bytes(encoded(draw(cells, 8), "PNG"))
    return path, cells


@pytest.mark.parametrize("seed, colours", [(1, 1), (2, 2)])
def test_design_makes_a_count_puzzle_whose_clues_reread_to_the_picture(tmp_path, seed, colours):
    path, cells = picture_png(tmp_path, seed, colours)
    out = tmp_path / "design.json"
    r = nonocp("design", path, "--clues", "counts", "-c", colours, "--make-unique", "-o", out, "-f", "json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["clues"] == "counts" and report["design"]["verdict"] == "multiple"
    fixed = report["make_unique"]
    assert fixed["status"] == "unique" and fixed["changes"]
    assert {p["engine"]: p["status"] for p in fixed["proofs"]} == {"native": "unique", "sat": "unique"}
    # the picture as read (each drawn colour one of the puzzle's), with the listed changes, is the goal
    # written; its clues are the file's
    written = load(str(out))[0]
    def nearest(rgb) -> str:  # the design names each colour it finds by a nearby value
        def distance(c):
            return sum((int(c.rgb[1 + 2 * i:3 + 2 * i], 16) - rgb[i]) ** 2 for i in range(3))
        return min(written.palette.colors, key=distance).symbol

    drawn = ["".join(nearest(COLOURS[v]) for v in row) for row in cells]
    assert len(written.palette) == colours + 1 and report["goal"] == drawn
    goal = [list(row) for row in report["goal"]]
    for ch in fixed["changes"]:
        assert goal[ch["row"]][ch["col"]] == ch["from"]
        goal[ch["row"]][ch["col"]] = ch["to"]
    goal_rows = ["".join(row) for row in goal]
    assert fixed["goal"] == goal_rows
    assert written.has_counts and written.meta.goal.to_strings(written.palette) == goal_rows
    index = {c.symbol: i for i, c in enumerate(written.palette.colors)}
    assert (written.rows, written.cols) == count_clues_of([[index[s] for s in row] for row in goal_rows],
                                                          len(written.palette))
    # every engine re-reads those clues to that picture and nothing else
    for engine in ("native", "sat", "cpsat"):
        solved = nonocp("solve", out, "-b", engine, "-f", "json")
        assert solved.returncode == 0, solved.stderr
        answer = first_json(solved.stdout)
        assert answer["status"] == "unique" and answer["solutions"] == [goal_rows], engine


def test_design_refuses_what_cannot_be_a_count_puzzle(tmp_path):
    path, _ = picture_png(tmp_path, 1, 1)
    r = nonocp("design", path, "--clues", "counts", "-o", tmp_path / "x.non")
    assert r.returncode == 2, r.stderr
    assert "format 'non' cannot hold count-and-contiguity clues; write counts or json" in r.stderr
    assert not (tmp_path / "x.non").exists()
    blank = tmp_path / "blank.png"
    blank.write_bytes(encoded(draw([[0] * 4] * 3, 8), "PNG"))
    r = nonocp("design", blank, "--clues", "counts")
    assert r.returncode == 2 and "a count puzzle needs at least two" in r.stderr, r.stderr
    r = nonocp("design", path, "--clues", "pairs")
    assert r.returncode == 2 and "'pairs' is not one of runs, counts" in r.stderr, r.stderr


def test_design_keeps_a_count_puzzles_clue_kind(tmp_path):
    sunset = PUZZLES / "counts-sunset.counts"
    r = nonocp("design", sunset, "-f", "json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["clues"] == "counts" and report["design"]["verdict"] == "unique"
    r = nonocp("design", sunset, "--clues", "runs", "-o", tmp_path / "sunset.non", "-f", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["clues"] == "runs" and not load(str(tmp_path / "sunset.non"))[0].has_counts
