"""The brute-force engine `brute`: the tests' oracle (tests/oracle.py), so it is checked here against the
definition itself (every line of k**n, every product of rows), and its size bound is a clear refusal.
What every engine must do is checked for it too, by tests/test_contract.py."""

from __future__ import annotations

import itertools
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import examples
from nonocp.core.errors import BackendUnavailable
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.result import Status
from nonocp.engines import SolveOptions, get_backend
from nonocp.engines.brute import MAX_CELLS, could_begin, placements
from oracle import every_solution, line_runs
from strategies import puzzles_with_grid


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


@pytest.mark.parametrize("ncolors", [2, 3])
def test_placements_are_exactly_the_lines_that_read_back_the_clue(ncolors):
    for length in range(0, 8):
        by_clue = defaultdict(set)
        for line in itertools.product(range(ncolors), repeat=length):
            by_clue[tuple(line_runs(line))].add(line)
        for runs, lines in by_clue.items():
            clue = tuple(Block(n, c) for n, c in runs)
            got = placements(clue, length)
            assert len(got) == len(set(got)) and set(got) == lines, (clue, length)


def test_could_begin_accepts_exactly_the_beginnings_of_lines_that_read_back_the_clue():
    clue = [(2, 1), (1, 2), (1, 2)]
    blocks = tuple(Block(n, c) for n, c in clue)
    for n in range(8):
        # a column's first n cells: the rest of the line may be any length
        beginnings = {line[:n] for length in range(n, n + 8) for line in placements(blocks, length)}
        for cells in itertools.product(range(3), repeat=n):
            assert could_begin(cells, clue) == (cells in beginnings), cells


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3, 4)))
def test_every_solution_of_the_definition_and_no_other(data):
    puzzle, grid = data
    expected = every_solution(puzzle)
    result = get_backend("brute").solve(puzzle, SolveOptions(max_solutions=None))
    assert result.exhausted and grid in result.solutions
    assert len(result.solutions) == len(set(result.solutions)) == len(expected)
    assert set(result.solutions) == set(expected)


def test_a_puzzle_without_solution():
    puzzle = Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ()))  # totals agree, no solution
    assert every_solution(puzzle) == []
    result = get_backend("brute").solve(puzzle, SolveOptions())
    assert result.status is Status.NONE and result.exhausted


def test_puzzles_above_the_size_bound_are_refused_in_one_line():
    side = MAX_CELLS // 10
    at_bound = Puzzle((B(10),) * side, (B(side),) * 10)  # every cell inked: one solution
    assert at_bound.width * at_bound.height == MAX_CELLS
    assert get_backend("brute").solve(at_bound, SolveOptions()).status is Status.UNIQUE
    too_big = Puzzle((B(11),) * side, (B(side),) * 11)
    message = rf"brute: 11x{side} = {11 * side} cells is too big .*at most {MAX_CELLS} cells"
    with pytest.raises(BackendUnavailable, match=message):
        get_backend("brute").solve(too_big, SolveOptions())


def test_a_spent_time_limit_answers_timeout_with_valid_solutions():
    puzzle = Puzzle((B(1),) * 10, (B(1),) * 10)  # 10! solutions: far more than one time check's worth of nodes
    result = get_backend("brute").solve(puzzle, SolveOptions(max_solutions=None, time_limit=0))
    assert result.status in (Status.MULTIPLE, Status.TIMEOUT) and not result.exhausted  # what it had by then
    assert all(puzzle.is_solution(g) for g in result.solutions)
    assert result.stats["nodes"] <= 1024  # stopped at its first look at the clock
