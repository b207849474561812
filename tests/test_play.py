"""nonocp.analysis.play: a person's grid checked against the puzzle's solutions, and the next hint from it,
against the brute-force oracle on random small puzzles (a random grid's clues have that grid among their
solutions), and hints followed to the end on shipped puzzles."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import PUZZLES, examples
from nonocp import load
from nonocp.analysis import play
from oracle import brute_force
from strategies import puzzles_with_grid


def flat(grid) -> list[int]:
    return [v for row in grid.cells for v in row]


def completions(solutions: list[list[int]], cells: list[int]) -> list[list[int]]:
    return [s for s in solutions if all(v < 0 or s[i] == v for i, v in enumerate(cells))]


@st.composite
def games(draw):
    """(puzzle, every solution, a player's grid): some cells marked, most of them right, some maybe wrong."""
    puzzle, grid = draw(puzzles_with_grid(max_size=5))
    truth = flat(grid)
    n = len(truth)
    ncol = len(puzzle.palette)
    cells = [-1] * n
    for i in draw(st.lists(st.integers(0, n - 1), max_size=n)):
        cells[i] = truth[i]
    for i in draw(st.lists(st.integers(0, n - 1), max_size=3)):
        cells[i] = draw(st.integers(0, ncol - 1))
    return puzzle, [flat(g) for g in brute_force(puzzle)], cells


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_check_finds_mistakes_exactly_when_the_grid_has_no_completion(game):
    puzzle, solutions, cells = game
    known = play.solutions_of(puzzle, limit=4)  # few kept: bigger puzzles take the completion search
    verdict = play.check(puzzle, cells, known)
    fits = completions(solutions, cells)
    assert (verdict.status == "ok") == bool(fits)
    assert verdict.complete == (verdict.status == "ok" and all(v >= 0 for v in cells))
    if verdict.status == "mistakes":
        w = puzzle.width
        wrong = {r * w + c for r, c in verdict.mistakes}
        assert all(cells[i] >= 0 for i in wrong)
        # unmarking the mistakes leaves a grid that has a completion
        assert completions(solutions, [-1 if i in wrong else v for i, v in enumerate(cells)])
        fewest = min(sum(1 for i, v in enumerate(cells) if v >= 0 and s[i] != v) for s in solutions)
        if verdict.exact:
            assert len(wrong) == fewest
        else:
            assert len(wrong) >= fewest


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_a_hint_decides_only_cells_that_every_completion_shares(game):
    puzzle, solutions, cells = game
    given_ = play.hint(puzzle, cells, play.solutions_of(puzzle))
    fits = completions(solutions, cells)
    if not fits:
        assert given_.kind == "mistake" and given_.mistake in given_.check.mistakes
        return
    if all(v >= 0 for v in cells):
        assert given_.kind == "solved"
        return
    assert given_.kind in ("deduction", "guess")
    if given_.kind == "deduction":
        assert given_.cells and given_.step is not None
        w = puzzle.width
        for r, c, v in given_.cells:
            assert cells[r * w + c] == -1
            assert all(s[r * w + c] == v for s in fits)
    else:
        # only a guess remains: on grids this small the stepper's last resort (every combination of the
        # undecided cells at once) decides any cell all completions share, so there must be a choice
        shared = [i for i, v in enumerate(cells) if v < 0 and len({s[i] for s in fits}) == 1]
        assert len(fits) > 1 and not shared


@pytest.mark.parametrize("name", ["fish.non", "gen-bw-20x20.non", "mushroom.non"])
def test_following_every_hint_solves_a_unique_puzzle(name):
    puzzle = load(str(PUZZLES / name))[0]
    goal = flat(puzzle.meta.goal)
    known = play.solutions_of(puzzle)
    assert known.exhausted and len(known.solutions) == 1
    cells = [-1] * len(goal)
    for _ in range(len(goal)):
        given_ = play.hint(puzzle, cells, known)
        if given_.kind != "deduction":
            break
        for r, c, v in given_.cells:
            i = r * puzzle.width + c
            assert goal[i] == v
            cells[i] = v
    assert given_.kind == "solved"
    assert cells == goal


def test_a_wrong_cell_is_the_first_hint_and_the_only_mistake():
    puzzle = load(str(PUZZLES / "gen-bw-20x20.non"))[0]
    goal = flat(puzzle.meta.goal)
    known = play.solutions_of(puzzle)
    rng = random.Random(3)
    cells = [v if rng.random() < 0.4 else -1 for v in goal]
    i = next(k for k, v in enumerate(cells) if v >= 0)
    cells[i] = 1 - cells[i]
    given_ = play.hint(puzzle, cells, known)
    assert given_.kind == "mistake" and given_.mistake == divmod(i, puzzle.width)
    assert given_.check.mistakes == (divmod(i, puzzle.width),) and given_.check.exact


def test_a_grid_that_does_not_fit_the_puzzle_is_refused():
    puzzle = load(str(PUZZLES / "heart.non"))[0]
    known = play.solutions_of(puzzle)
    with pytest.raises(ValueError, match="cells"):
        play.check(puzzle, [-1] * 3, known)
    with pytest.raises(ValueError, match="palette index"):
        play.check(puzzle, [5] * (puzzle.width * puzzle.height), known)
