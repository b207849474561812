"""Beliefs (engines/native/belief.py) and the CDCL search that keeps them (cdcl.py's `prefer`).

A line's message is checked exactly against every line that reads back its clue; the loopy whole is a guide
only, so what must hold is that the engine's answers stay those of brute force when its decisions follow the
beliefs from the first conflict on, and that the beliefs decide the big pictures they were built for."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import corpus_path, examples
from nonocp.core.result import Status
from nonocp.engines import SolveOptions
from nonocp.engines.native import NativeBackend, backend, belief, core
from oracle import brute_force, clue_pairs, line_runs
from strategies import puzzles_with_grid


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_a_line_message_is_the_weighted_count_of_the_placements(data):
    """For each cell and colour: the sum, over the lines that read back the clue with that colour there, of the
    product of the other cells' weights; colours included, adjacent blocks of different colours included."""
    ncol = data.draw(st.integers(2, 4))
    n = data.draw(st.integers(1, 7))
    cells = data.draw(st.lists(st.integers(0, ncol - 1), min_size=n, max_size=n))
    from nonocp.core.puzzle import line_clue

    clue = line_clue(cells)
    weights = np.array(data.draw(st.lists(st.floats(0.05, 1.0), min_size=n * ncol, max_size=n * ncol)))
    weights = weights.reshape(1, n, ncol)
    got = belief.line_messages(belief._Automata([clue], ncol), weights)[0]

    want = clue_pairs(clue)
    expected = np.zeros((n, ncol))
    for line in itertools.product(range(ncol), repeat=n):
        if line_runs(line) != want:
            continue
        for i in range(n):
            expected[i, line[i]] += np.prod([weights[0, j, line[j]] for j in range(n) if j != i])
    expected /= expected.sum(1, keepdims=True)
    assert np.allclose(got, expected, atol=1e-9), (clue, got, expected)


def test_likely_colours_leave_decided_cells_alone_and_give_up_on_huge_tables(monkeypatch):
    from nonocp.core.puzzle import Block

    rows = [(Block(2),), (Block(1),)]
    cols = [(Block(2),), (Block(1),)]
    # every cell open, except (1, 1), which is background only
    masks = [3, 3, 3, 1]
    got = belief.likely_colours(rows, cols, 2, masks)
    assert got == [1, 1, 1, -1]  # the one solution: ink in the top row and the left column
    monkeypatch.setattr(belief, "MAX_TABLE", 5)
    assert belief.likely_colours(rows, cols, 2, masks) == [-1] * 4


@settings(max_examples=examples(60), deadline=None)
@given(puzzles_with_grid(max_size=5))
def test_the_engine_keeping_beliefs_from_the_start_counts_as_brute_force(case):
    """Beliefs steer decisions only: with them in force from the first decision, the native engine still finds
    exactly the puzzle's solutions, colours included, on both cores."""
    puzzle, grid = case
    expected = set(brute_force(puzzle))
    saved = backend.BELIEF_STAGES
    backend.BELIEF_STAGES = ((0, 20, 0.0),)
    try:
        for which in ("auto", "python"):
            got = NativeBackend().solve(puzzle, SolveOptions(max_solutions=None, extra={"core": which}))
            assert got.exhausted and set(got.solutions) == expected and grid in got.solutions
    finally:
        backend.BELIEF_STAGES = saved


def test_beliefs_are_asked_for_once_and_only_after_the_threshold(monkeypatch):
    """On a search that conflicts, the driver asks for a stage's beliefs once, at the first restart past its
    conflicts, with the masks the search started from; `beliefs=false` never asks. Restarts every 64
    conflicts a unit here, so that this puzzle restarts past the threshold of 100."""
    from nonocp.engines.native import cdcl
    from nonocp.formats import load

    puzzle = load(str(corpus_path("nonogram-record", "question", "taai2011.txt")))[365]  # #366: restarts
    calls: list = []
    real = belief.likely_colours

    def spy(rows, cols, ncol, masks, **kw):
        calls.append(masks)
        return real(rows, cols, ncol, masks, **kw)

    monkeypatch.setattr(belief, "likely_colours", spy)
    monkeypatch.setattr(backend, "BELIEF_STAGES", ((100, 50, 0.0),))
    monkeypatch.setattr(cdcl, "RESTART_UNIT", 64)
    got = NativeBackend().solve(puzzle, SolveOptions(max_solutions=2))
    assert got.stats["conflicts"] > 100 and len(calls) == 1
    assert len(calls[0]) == puzzle.width * puzzle.height
    # the answer says when the beliefs came in (at a restart: at or past the threshold) and what they cost
    assert 100 <= got.stats["beliefs_at"] <= got.stats["conflicts"] and "beliefs" in got.stats["seconds"]
    calls.clear()
    off = NativeBackend().solve(puzzle, SolveOptions(max_solutions=2, extra={"beliefs": False}))
    assert not calls and off.status is got.status and "beliefs_at" not in off.stats


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built here (the reference core would "
                    "take hours on these pictures)")
@pytest.mark.slow  # seconds each, and it needs the beliefs to keep deciding them
@pytest.mark.parametrize("name", ["webpbn-knotty.txt", "webpbn-faase.txt"])
def test_beliefs_decide_the_big_pictures_the_search_alone_cannot(name):
    """Knotty and Faase have several solutions; without beliefs the native search finds no first solution of
    either in minutes (benchmarks/results/native-core.md). With them the engine finds two, each checked
    against the clues here. The time limit only keeps a broken build from running for ever."""
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", name)))[0]
    got = NativeBackend().solve(puzzle, SolveOptions(max_solutions=2, time_limit=600))
    assert got.status is Status.MULTIPLE, got.status
    assert len(set(got.solutions)) == 2 and all(puzzle.is_solution(g) for g in got.solutions)


def test_random_preferences_never_change_a_count():
    """The hook itself, without beliefs: random preferred colours (some out of range) from the start still
    give brute force's solutions on random grids, colours included (reference core)."""
    from nonocp.core.grid import Grid
    from nonocp.engines.native.cdcl import cdcl_enumerate
    from nonocp.engines.native.engine import Engine
    from strategies import palette_of, puzzle_from_grid

    rng = random.Random(7)
    for n in range(12):
        ncol = (2, 3, 4)[n % 3]
        h, w = rng.randint(2, 4), rng.randint(2, 4)
        grid = Grid(tuple(tuple(rng.randrange(ncol) for _ in range(w)) for _ in range(h)))
        puzzle = puzzle_from_grid(grid, palette_of(ncol))
        engine = Engine(puzzle, compiled=False)
        assert engine.core.propagate() >= 0  # the grid is a solution
        found: list = []
        colours = [rng.randrange(-1, ncol + 1) for _ in range(h * w)]
        assert cdcl_enumerate(engine.core, None, found, prefer=lambda m, how, colours=colours: colours)
        assert {backend.state_to_grid(engine, st) for st in found} == set(brute_force(puzzle))


def draw_start(puzzle, data) -> tuple[int, list[int], int]:  # noqa: ANN001 - a Puzzle, hypothesis data
    """A start for the beliefs: the colour count, each cell open (two times in three) or decided, and the
    rounds."""
    ncol = len(puzzle.palette)
    full = (1 << ncol) - 1
    masks = [data.draw(st.sampled_from([full, full, 1 << data.draw(st.integers(0, ncol - 1))]))
             for _ in range(puzzle.width * puzzle.height)]
    return ncol, masks, data.draw(st.integers(0, 12))


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
@settings(max_examples=examples(60), deadline=None)
@given(puzzles_with_grid(max_size=9), st.data())
def test_the_compiled_beliefs_are_the_numpy_ones(pg, data):
    """csrc/belief.c computes belief.py's sums: the same beliefs (to rounding) on any puzzle and any start,
    colours and adjacent blocks of different colours included, with cells already decided."""
    puzzle, _ = pg
    ncol, masks, rounds = draw_start(puzzle, data)
    want = belief.beliefs(puzzle.rows, puzzle.cols, ncol, masks, rounds, compiled=False)
    got = belief.beliefs(puzzle.rows, puzzle.cols, ncol, masks, rounds, compiled=True)
    assert got.shape == want.shape
    assert np.abs(got - want).max() < 1e-9


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
def test_the_compiled_beliefs_on_a_survey_picture_and_their_deadline():
    from nonocp.core.errors import OutOfTime
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", "webpbn-00016-Probably Not.txt")))[0]
    masks = [3] * (puzzle.width * puzzle.height)
    want = belief.beliefs(puzzle.rows, puzzle.cols, 2, masks, compiled=False)
    got = belief.beliefs(puzzle.rows, puzzle.cols, 2, masks, compiled=True)
    assert np.abs(got - want).max() < 1e-9
    assert (got.argmax(2) == want.argmax(2)).all()
    with pytest.raises(OutOfTime):
        belief.beliefs(puzzle.rows, puzzle.cols, 2, masks, deadline=0.0, compiled=True)


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
@settings(max_examples=examples(60), deadline=None)
@given(puzzles_with_grid(max_size=9), st.data())
def test_likely_colours_from_the_compiled_core_are_the_numpy_argmax(pg, data):
    """likely_colours reads the compiled core's beliefs without numpy (so that a search does not import it):
    the colour it picks per cell is numpy's argmax of the same beliefs, the first of equals, -1 where decided."""
    puzzle, _ = pg
    ncol, masks, rounds = draw_start(puzzle, data)
    want = belief.beliefs(puzzle.rows, puzzle.cols, ncol, masks, rounds, compiled=True).argmax(2).ravel()
    got = belief.likely_colours(puzzle.rows, puzzle.cols, ncol, masks, rounds)
    assert got == [int(k) if m & (m - 1) else -1 for k, m in zip(want, masks, strict=True)]
