"""The sat engine's `phase` option: the first value tried per cell changes the search, never the answer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings  # noqa: E402

from nonocp.core.errors import NonocpError  # noqa: E402
from nonocp.core.grid import Grid  # noqa: E402
from nonocp.encode.cnf import TRUE, encode_puzzle  # noqa: E402
from nonocp.engines import SolveOptions, get_backend  # noqa: E402
from nonocp.engines.sat import PHASES  # noqa: E402
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


@pytest.mark.parametrize("ncolors", [2, 3])
def test_background_phase_reaches_the_solver(monkeypatch, ncolors):
    """The solver is given, for every cell that is not a constant, background true and every ink false."""
    from pysat.solvers import Solver

    given_phases: list[list[int]] = []
    real = Solver.set_phases
    monkeypatch.setattr(Solver, "set_phases", lambda self, lits: (given_phases.append(list(lits)), real(self, lits)))
    puzzle = puzzle_from_grid(Grid.from_rows([[1, 0], [0, 1]]), palette_of(ncolors))
    # in this process: the spy cannot hear a forked child
    result = get_backend("sat").solve(puzzle, SolveOptions(extra={"phase": "background", "hard_stop": False}))
    assert result.stats.get("phase") == "background"
    assert result.status.value == "multiple"
    cnf = encode_puzzle(puzzle)
    expected = {lit if v == 0 else -lit for lits in cnf.cell_literals for v, lit in enumerate(lits) if abs(lit) != TRUE}
    assert len(given_phases) == 1 and set(given_phases[0]) == expected and expected
    given_phases.clear()
    get_backend("sat").solve(puzzle, SolveOptions(extra={"phase": "solver"}))
    assert given_phases == []  # the solver's own phase: nothing set


def test_an_unknown_phase_is_a_clear_error():
    puzzle = puzzle_from_grid(Grid.from_rows([[1]]), palette_of(2))
    with pytest.raises(NonocpError, match="unknown phase"):
        get_backend("sat").solve(puzzle, SolveOptions(extra={"phase": "sideways"}))
