"""The sat engine's `phase` option: the first value tried per cell changes the search, never the answer."""

from __future__ import annotations

import pytest

pytest.importorskip("pysat")

from hypothesis import given, settings  # noqa: E402

from nonocp.backends import SolveOptions, get_backend  # noqa: E402
from nonocp.backends.sat import PHASES  # noqa: E402
from nonocp.errors import NonocpError  # noqa: E402
from nonocp.grid import Grid  # noqa: E402
from strategies import palette_of, puzzle_from_grid, puzzles_with_grid  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(data=puzzles_with_grid(max_size=5, ncolors_choices=(2, 3, 4)))
def test_every_phase_finds_the_same_solution_set(data):
    """Enumerating all solutions with each phase gives the same set, and it holds the source grid."""
    puzzle, grid = data
    found = {}
    for phase in PHASES:
        result = get_backend("sat").solve(puzzle, SolveOptions(max_solutions=None, extra={"phase": phase}))
        assert result.exhausted
        assert all(puzzle.is_solution(g) for g in result.solutions)
        assert len(set(result.solutions)) == len(result.solutions)
        found[phase] = set(result.solutions)
    assert grid in found["background"]
    assert found["background"] == found["solver"]


def test_background_phase_reaches_the_solver():
    puzzle = puzzle_from_grid(Grid.from_rows([[1, 0], [0, 1]]), palette_of(2))
    result = get_backend("sat").solve(puzzle, SolveOptions(extra={"phase": "background"}))
    assert result.stats.get("phase") == "background"
    assert result.status.value == "multiple"


def test_an_unknown_phase_is_a_clear_error():
    puzzle = puzzle_from_grid(Grid.from_rows([[1]]), palette_of(2))
    with pytest.raises(NonocpError, match="unknown phase"):
        get_backend("sat").solve(puzzle, SolveOptions(extra={"phase": "sideways"}))
