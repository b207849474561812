"""Count-and-contiguity clues in the model (core/counts.py, Puzzle.clue_kind): clues of a grid, validation,
solutions, verification, and the brute-force engine against the definition."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import examples
from nonocp.core.counts import Count, count_clue, count_clues_of
from nonocp.core.errors import InvalidPuzzleError, NonocpError
from nonocp.core.grid import Grid
from nonocp.core.puzzle import COUNTS, Puzzle
from nonocp.core.verify import verify
from nonocp.engines import SolveOptions, get_backend
from nonocp.engines.brute import count_could_begin, count_placements
from oracle import count_lines, every_count_solution
from strategies import count_palette, count_puzzle_from_grid, count_puzzles_with_grid

C = Count


def test_count_clue_of_a_line():
    # colours a, b, c: a in one run of 3, b in two runs, c once, and a colour the line lacks
    assert count_clue([0, 0, 0, 1, 2, 1], 4) == (C(3, True), C(2, False), C(1), C(0))
    assert count_clue([1, 1], 2) == (C(0), C(2, True))
    assert [e.token() for e in count_clue([0, 0, 0, 1, 2, 1], 4)] == ["3*", "2", "1", "0"]


def test_clues_of_a_grid_and_its_solution():
    grid = Grid.from_rows([[0, 0, 1], [2, 1, 1], [0, 2, 0]])
    rows, cols = count_clues_of(grid.cells, 3)
    p = Puzzle(rows, cols, count_palette(3), clue_kind=COUNTS).validate()
    assert p.has_counts and p.width == p.height == 3
    assert rows[2] == (C(2, False), C(0), C(1))
    assert p.is_solution(grid)
    assert verify(p, grid).ok
    assert not p.is_solution(Grid.from_rows([[0, 1, 0], [2, 1, 1], [0, 2, 0]]))


def test_validation_says_what_is_wrong():
    pal = count_palette(2)
    ok_row = (C(1), C(1))
    with pytest.raises(InvalidPuzzleError, match="row 1: the counts add up to 3 but the line has 2"):
        Puzzle(((C(2, True), C(1)), ok_row), (ok_row, ok_row), pal, clue_kind=COUNTS).validate()
    with pytest.raises(InvalidPuzzleError, match="count 1 cannot be marked all in a row"):
        Puzzle(((C(1, True), C(1)), ok_row), (ok_row, ok_row), pal, clue_kind=COUNTS).validate()
    with pytest.raises(InvalidPuzzleError, match="column 2: 1 counts for 2 colours"):
        Puzzle((ok_row, ok_row), (ok_row, (C(2),)), pal, clue_kind=COUNTS).validate()
    with pytest.raises(InvalidPuzzleError, match="the row counts add up to 2 cells but the column counts to 1"):
        Puzzle(((C(2, True), C(0)), (C(0), C(2, True))), ((C(1), C(1)), (C(0), C(2, False))), pal,
               clue_kind=COUNTS).validate()
    with pytest.raises(InvalidPuzzleError, match="unknown clue kind"):
        Puzzle(((), ()), ((), ()), pal, clue_kind="stripes").validate()
    # plain data: a count as a number or a (count, all in a row) pair
    p = Puzzle([[(2, True), 0], [1, 1]], [[1, 1], [1, 1]], pal, clue_kind=COUNTS)
    assert p.rows[0] == (C(2, True), C(0)) and p.rows[1] == (C(1), C(1))
    with pytest.raises(InvalidPuzzleError, match="row 1: 'x' is not a count"):
        Puzzle([["x", 1]], [[1, 0]], pal, clue_kind=COUNTS)


def test_count_clues_are_refused_where_run_clues_are_read():
    p = count_puzzle_from_grid(Grid.from_rows([[0, 1]]), 2)
    with pytest.raises(NonocpError, match="takes run clues only; this puzzle has count-and-contiguity clues"):
        p.require_runs("the .non writer")
    assert p.count_mismatch() is None  # totals are part of validation for count clues


def test_fingerprint_tells_the_kinds_and_flags_apart():
    grid = Grid.from_rows([[0, 0, 1], [1, 0, 1]])
    p = count_puzzle_from_grid(grid, 2)
    flipped = list(p.rows)
    flipped[1] = (C(1), C(2, not p.rows[1][1].together))
    assert p.fingerprint() != dataclasses.replace(p, rows=tuple(flipped)).fingerprint()
    assert p.fingerprint() == count_puzzle_from_grid(grid, 2).fingerprint()


def test_verify_names_the_broken_count_or_flag():
    grid = Grid.from_rows([[0, 0, 1, 1]])
    p = count_puzzle_from_grid(grid, 2)  # row: 2* 2*
    wrong = verify(p, Grid.from_rows([[0, 1, 0, 1]]))
    assert not wrong.ok
    assert "row 1: #fff44f is all in a row in the clue, in 2 runs in the grid" in wrong.summary()
    short = verify(p, Grid.from_rows([[0, 1, 1, 1]]))
    assert "row 1: 2 cells of #fff44f in the clue, 1 in the grid" in short.summary()
    assert "the grid is 3x1" in verify(p, Grid.from_rows([[0, 0, 1]])).summary()


@pytest.mark.parametrize("ncolors", [2, 3, 4])
def test_brute_placements_are_the_definition(ncolors):
    import itertools

    for length in range(1, 7):
        by_clue: dict = {}
        for line in itertools.product(range(ncolors), repeat=length):
            by_clue.setdefault(count_clue(line, ncolors), set()).add(line)
        for clue, lines in by_clue.items():
            got = count_placements(clue, length)
            assert len(got) == len(set(got)) and set(got) == lines == set(count_lines(clue, length))


def test_brute_column_beginnings():
    clue = (C(2, True), C(2, False), C(1))
    beginnings = {line[:k] for line in count_lines(clue, 5) for k in range(6)}
    import itertools

    for k in range(6):
        for cells in itertools.product(range(3), repeat=k):
            if count_could_begin(cells, clue):
                # a prefix it accepts exceeds no count and breaks no run (it may still have no completion)
                assert all(cells.count(j) <= clue[j].count for j in range(3))
            else:
                assert cells not in beginnings


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=count_puzzles_with_grid(max_size=4, ncolors_choices=(2, 3)))
def test_brute_finds_every_solution_of_the_definition(data):
    puzzle, grid = data
    result = get_backend("brute").solve(puzzle, SolveOptions(max_solutions=None))
    assert result.exhausted and grid in result.solutions
    assert sorted(result.solutions, key=lambda g: g.cells) == sorted(every_count_solution(puzzle),
                                                                    key=lambda g: g.cells)
