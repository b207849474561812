"""One conformance suite, run against every engine in tests/engines.py (the `engine` fixture; `--backend` picks).

Oracles: the brute-force solver (tests/oracle.py) on small puzzles, hand-made puzzles with known
solution counts, and random grids (whose clues have that grid among their solutions).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.result import Status
from nonocp.engines import SolveOptions
from oracle import brute_force
from strategies import grids, palette_of, puzzle_from_grid, puzzles_with_grid


def solve_all(engine, puzzle: Puzzle, limit: int | None = None):
    return engine.solve(puzzle, SolveOptions(max_solutions=limit))


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


BW = Palette.black_and_white()
RGB = palette_of(4)

# (name, puzzle, exact number of solutions)
HAND_MADE = [
    ("1x1 black", Puzzle((B(1),), (B(1),)), 1),
    ("1x1 white", Puzzle(((),), ((),)), 1),
    ("all empty 3x4", Puzzle(((),) * 4, ((),) * 3), 1),
    ("full 4x3", Puzzle((B(4),) * 3, (B(3),) * 4), 1),
    ("diagonal 2x2", Puzzle((B(1), B(1)), (B(1), B(1))), 2),
    ("3x3 permutations", Puzzle((B(1),) * 3, (B(1),) * 3), 6),
    ("empty middle line", Puzzle((B(1, 1), (), B(1, 1)), (B(1, 1), (), B(1, 1))), 1),
    ("gap forbids touching", Puzzle((B(1), B(1)), (B(2), ())), 1),
    ("no solution totals ok", Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ())), 0),
    (
        "colour blocks touch",
        Puzzle(((Block(1, 1), Block(1, 2)),), ((Block(1, 1),), (Block(1, 2),)), RGB),
        1,
    ),
    (
        "same colour needs a gap",
        Puzzle(((Block(1, 1), Block(1, 1)),), ((Block(1, 1),), (), (Block(1, 1),)), RGB),
        1,
    ),
    (
        "colours 2x2 two ways",
        Puzzle(
            ((Block(1, 1), Block(1, 2)), (Block(1, 2), Block(1, 1))),
            ((Block(1, 1), Block(1, 2)), (Block(1, 2), Block(1, 1))),
            RGB,
        ),
        1,
    ),
]


@pytest.mark.parametrize("case", HAND_MADE, ids=[c[0] for c in HAND_MADE])
def test_hand_made_counts(engine, case):
    _, puzzle, count = case
    try:
        puzzle.validate()
    except Exception:
        pytest.fail("hand-made puzzle should be well-formed")
    assert len(brute_force(puzzle)) == count, "the oracle disagrees with the recorded count"
    result = solve_all(engine, puzzle, None)
    assert result.exhausted
    assert len(result.solutions) == count
    assert all(puzzle.is_solution(g) for g in result.solutions)
    assert len(set(result.solutions)) == count
    limited = solve_all(engine, puzzle, 2)
    expected = {0: Status.NONE, 1: Status.UNIQUE}.get(count, Status.MULTIPLE)
    assert limited.status is expected


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3, 4)))
def test_random_small_puzzles_match_brute_force(engine, data):
    puzzle, grid = data
    expected = set(brute_force(puzzle))
    assert grid in expected
    result = solve_all(engine, puzzle, None)
    assert result.exhausted
    assert set(result.solutions) == expected
    assert len(result.solutions) == len(expected)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3)), row=st.integers(0, 3), delta=st.sampled_from([1, -1])
)
def test_perturbed_clues_match_brute_force(engine, data, row, delta):
    """Clues changed by one cell: often unsolvable, sometimes not; the oracle decides."""
    puzzle, _ = data
    r = row % puzzle.height
    clue = puzzle.rows[r]
    if clue:
        first = clue[0]
        new_len = first.length + delta
        new_clue = ((Block(new_len, first.color),) if new_len > 0 else ()) + clue[1:]
    else:
        new_clue = (Block(1, 1),)
    rows = puzzle.rows[:r] + (new_clue,) + puzzle.rows[r + 1:]
    changed = Puzzle(rows, puzzle.cols, puzzle.palette)
    try:
        changed.validate()
    except Exception:
        return  # the model rejects it before any engine sees it (e.g. a clue longer than its line)
    expected = brute_force(changed)
    result = solve_all(engine, changed, 2)
    want = {0: Status.NONE, 1: Status.UNIQUE}.get(len(expected), Status.MULTIPLE)
    assert result.status is want
    assert all(changed.is_solution(g) for g in result.solutions)


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(ncolors=st.sampled_from([2, 3, 5]), data=st.data())
def test_random_larger_grids_have_their_source_among_solutions(engine, ncolors, data):
    grid = data.draw(grids(14, 14, ncolors, density=data.draw(st.sampled_from([0.5, 0.7]))))
    puzzle = puzzle_from_grid(grid, palette_of(ncolors))
    result = solve_all(engine, puzzle, 2)
    assert result.status in (Status.UNIQUE, Status.MULTIPLE)
    assert all(puzzle.is_solution(g) for g in result.solutions)
    if result.status is Status.UNIQUE:
        assert result.solutions == (grid,)
    else:
        assert len(set(result.solutions)) == 2


def test_enumerates_all_solutions_of_many(engine):
    # 4x4 permutation matrices: 24 solutions
    puzzle = Puzzle((B(1),) * 4, (B(1),) * 4)
    result = solve_all(engine, puzzle, None)
    assert result.exhausted and len(set(result.solutions)) == 24
    five = solve_all(engine, puzzle, 5)
    assert len(set(five.solutions)) == 5 and five.status is Status.MULTIPLE
    assert all(puzzle.is_solution(g) for g in five.solutions)


def test_oracle_finds_known_grid():
    grid = Grid.from_rows([[1, 0], [1, 1]])
    puzzle = puzzle_from_grid(grid, BW)
    assert brute_force(puzzle) == [grid]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3)),
    picks=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 7)), max_size=3),
)
def test_fixed_cells_restrict_solutions(engine, data, picks):
    """SolveOptions.fixed = {(r, c): allowed colour mask}: every engine must return exactly the solutions
    whose cells lie in their masks (backbone queries and the auto hybrid depend on it)."""
    puzzle, _ = data
    k = len(puzzle.palette)
    fixed = {(r % puzzle.height, c % puzzle.width): m & ((1 << k) - 1) for r, c, m in picks}
    expected = {g for g in brute_force(puzzle) if all(fixed[(r, c)] >> g.cells[r][c] & 1 for (r, c) in fixed)}
    result = engine.solve(puzzle, SolveOptions(max_solutions=None, fixed=fixed))
    assert result.exhausted
    assert set(result.solutions) == expected
