"""The independent checker (nonocp.core.verify) against known good and bad grids."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.verify import runs_of, verify
from oracle import brute_force
from strategies import palette_of, puzzles_with_grid

BW = Palette.black_and_white()
RGB = palette_of(4)


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


def test_runs_of_reads_colour_changes_as_run_ends():
    assert runs_of([]) == ()
    assert runs_of([0, 0]) == ()
    assert runs_of([1, 1, 0, 1]) == ((1, 2), (1, 1))
    assert runs_of([1, 2, 2, 0, 3]) == ((1, 1), (2, 2), (3, 1))
    assert runs_of([2, 2, 2]) == ((2, 3),)


def test_accepts_a_known_solution():
    # demo puzzle from webpbn's front page is larger; this 3x3 cross is enough to read every line
    puzzle = Puzzle((B(1), B(3), B(1)), (B(1), B(3), B(1)), BW)
    grid = Grid.from_rows([[0, 1, 0], [1, 1, 1], [0, 1, 0]])
    assert verify(puzzle, grid).ok
    assert verify(puzzle, grid.cells).ok  # plain rows work too


def test_rejects_one_wrong_cell_and_names_the_lines():
    puzzle = Puzzle((B(1), B(3), B(1)), (B(1), B(3), B(1)), BW)
    grid = Grid.from_rows([[0, 1, 0], [1, 1, 1], [0, 1, 1]])
    result = verify(puzzle, grid)
    assert not result.ok
    where = {(m.kind, m.index) for m in result.mismatches}
    assert where == {("row", 2), ("column", 2)}
    assert "row 3" in result.summary() and "column 3" in result.summary()


def test_rejects_wrong_shape_and_foreign_colours():
    puzzle = Puzzle((B(1),), (B(1),), BW)
    assert not verify(puzzle, Grid.from_rows([[1, 0]])).ok
    assert not verify(puzzle, Grid.from_rows([[1], [0]])).ok
    assert not verify(puzzle, [[2]]).ok  # colour 2 does not exist in black and white
    assert not verify(puzzle, [[-1]]).ok
    assert not verify(puzzle, []).ok


def test_same_colour_blocks_must_be_separated_but_different_colours_may_touch():
    touching = Puzzle(((Block(1, 1), Block(1, 2)),), ((Block(1, 1),), (Block(1, 2),)), RGB)
    assert verify(touching, [[1, 2]]).ok
    assert not verify(touching, [[2, 1]]).ok  # order matters
    two_ones = Puzzle(((Block(1, 1), Block(1, 1)),), ((Block(1, 1),), (), (Block(1, 1),)), RGB)
    assert verify(two_ones, [[1, 0, 1]]).ok
    merged = Puzzle(((Block(1, 1), Block(1, 1)),), ((Block(1, 1),), (Block(1, 1),)), RGB)
    assert not verify(merged, [[1, 1]]).ok  # one run of 2, not two runs of 1


def test_block_colour_is_checked_not_only_lengths():
    puzzle = Puzzle(((Block(2, 2),),), ((Block(1, 2),), (Block(1, 2),)), RGB)
    assert verify(puzzle, [[2, 2]]).ok
    assert not verify(puzzle, [[3, 3]]).ok


def test_empty_lines():
    puzzle = Puzzle(((), B(2)), (B(1), B(1)), BW)
    assert verify(puzzle, [[0, 0], [1, 1]]).ok
    assert not verify(puzzle, [[1, 1], [0, 0]]).ok


@settings(max_examples=examples(150), deadline=None)
@given(data=puzzles_with_grid(max_size=6, ncolors_choices=(2, 3, 4)))
def test_source_grid_of_random_puzzle_is_accepted(data):
    puzzle, grid = data
    assert verify(puzzle, grid).ok


@settings(max_examples=examples(60), deadline=None)
@given(data=puzzles_with_grid(max_size=3, ncolors_choices=(2, 3)))
def test_agrees_with_brute_force_on_every_grid_of_tiny_puzzles(data):
    """Over every possible grid of a tiny puzzle, verify() accepts exactly the brute-force solutions."""
    puzzle, _ = data
    solutions = set(brute_force(puzzle))
    k, w, h = len(puzzle.palette), puzzle.width, puzzle.height
    if k ** (w * h) > 20000:
        return
    accepted = set()
    for flat in itertools.product(range(k), repeat=w * h):
        grid = Grid.from_rows([flat[r * w:(r + 1) * w] for r in range(h)])
        if verify(puzzle, grid).ok:
            accepted.add(grid)
    assert accepted == solutions


@settings(max_examples=examples(100), deadline=None)
@given(data=puzzles_with_grid(max_size=6, ncolors_choices=(2, 3, 4)), pos=st.integers(0, 35), shift=st.integers(1, 3))
def test_changing_one_cell_breaks_the_solution(data, pos, shift):
    """A single changed cell always changes the runs of its row (and column): never a solution."""
    puzzle, grid = data
    k = len(puzzle.palette)
    r, c = divmod(pos % (grid.width * grid.height), grid.width)
    rows = [list(row) for row in grid.cells]
    rows[r][c] = (rows[r][c] + shift) % k if shift % k else (rows[r][c] + 1) % k
    if rows[r][c] == grid.cells[r][c]:
        return
    result = verify(puzzle, rows)
    assert not result.ok
    assert ("row", r) in {(m.kind, m.index) for m in result.mismatches}
