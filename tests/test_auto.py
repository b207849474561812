"""The auto hybrid (native propagation, then SAT on what is left): the same answers as the oracle."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import corpus_path, examples
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.result import Status
from nonocp.engines import SolveOptions, get_backend
from oracle import brute_force
from strategies import grids, palette_of, puzzle_from_grid, puzzles_with_grid

pytest.importorskip("pysat")


def B(*lengths: int):
    return tuple(Block(n) for n in lengths)


@pytest.mark.parametrize("probe", [False, True])
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3, 4)))
def test_random_small_puzzles_match_brute_force(probe, data):
    puzzle, _ = data
    expected = set(brute_force(puzzle))
    result = get_backend("auto").solve(puzzle, SolveOptions(max_solutions=None, extra={"probe": probe}))
    assert result.exhausted
    assert len(result.solutions) == len(expected) and set(result.solutions) == expected


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=grids(12, 12, 3, density=0.6))
def test_larger_grids_have_their_source_among_solutions(data):
    puzzle = puzzle_from_grid(data, palette_of(3))
    result = get_backend("auto").solve(puzzle, SolveOptions(max_solutions=2))
    assert result.status in (Status.UNIQUE, Status.MULTIPLE)
    assert all(puzzle.is_solution(g) for g in result.solutions)
    if result.status is Status.UNIQUE:
        assert result.solutions == (data,)


def test_counts_and_phases():
    auto = get_backend("auto")
    line_solvable = Puzzle((B(2), B(1)), (B(2), B(1)))
    r = auto.solve(line_solvable, SolveOptions())
    assert r.status is Status.UNIQUE and r.stats["phase"] == "native"
    perms = Puzzle((B(1),) * 4, (B(1),) * 4)  # nothing to propagate: all 24 come from SAT
    r = auto.solve(perms, SolveOptions(max_solutions=None))
    assert r.exhausted and len(set(r.solutions)) == 24 and r.stats["phase"] == "sat"
    unsat = Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ()))
    assert auto.solve(unsat, SolveOptions()).status is Status.NONE


def test_fixed_cells_and_solver_variant():
    perms = Puzzle((B(1),) * 3, (B(1),) * 3)
    r = get_backend("auto:glucose4").solve(perms, SolveOptions(max_solutions=None, fixed={(1, 1): 0b10}))
    assert r.exhausted and len(r.solutions) == 2 and all(g.cells[1][1] == 1 for g in r.solutions)
    assert r.backend == "auto:glucose4"


def test_survey_goal():
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", "webpbn-00006-Scardy Cat.txt")))[0]
    r = get_backend("auto").solve(puzzle, SolveOptions())
    assert r.status is Status.UNIQUE and r.solutions == (puzzle.meta.goal,)
