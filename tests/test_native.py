"""The native engine: search and counting against brute force, random grids, the survey corpus, the
propagate_and_probe entry point and its replayable trace, time limits and Ctrl-C."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import corpus_path, examples
from nonocp.backends import SolveOptions
from nonocp.backends.native import NativeBackend, propagate_and_probe
from nonocp.backends.native.engine import Engine
from nonocp.backends.native.search import all_remaining_cells
from nonocp.grid import Grid
from nonocp.puzzle import Block, Puzzle
from nonocp.result import Status
from oracle import brute_force
from strategies import grids, palette_of, puzzle_from_grid


def solve(puzzle: Puzzle, limit: int | None = 2, **kw) -> object:
    return NativeBackend().solve(puzzle, SolveOptions(max_solutions=limit, **kw))


def random_grid(rng: random.Random, w: int, h: int, ncol: int, density: float) -> Grid:
    rows = [[rng.randrange(1, ncol) if rng.random() < density else 0 for _ in range(w)] for _ in range(h)]
    return Grid.from_rows(rows)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ncol=st.sampled_from([2, 3, 4]), data=st.data())
def test_every_solution_up_to_5x5_matches_brute_force(ncol, data):
    grid = data.draw(grids(5 if ncol == 2 else 4, 5 if ncol == 2 else 4, ncol))
    puzzle = puzzle_from_grid(grid, palette_of(ncol))
    expected = set(brute_force(puzzle))
    result = solve(puzzle, None)
    assert result.exhausted
    assert len(result.solutions) == len(set(result.solutions)) == len(expected)
    assert set(result.solutions) == expected


def test_counts_zero_and_many():
    # no solution although every total agrees
    none = Puzzle(((Block(2),), (Block(1),), ()), ((Block(1), Block(1)), (Block(1),), ()))
    r = solve(none, None)
    assert r.status is Status.NONE and r.exhausted and not r.solutions
    # 5x5 permutation matrices: 120 solutions, all of them, then a limit of 7
    perm = Puzzle(((Block(1),),) * 5, ((Block(1),),) * 5)
    r = solve(perm, None)
    assert r.exhausted and len(set(r.solutions)) == 120
    r = solve(perm, 7)
    assert r.status is Status.MULTIPLE and len(set(r.solutions)) == 7 and not r.exhausted
    assert all(perm.is_solution(g) for g in r.solutions)


@pytest.mark.parametrize("ncol", [2, 3, 5])
def test_source_grid_among_solutions_up_to_30x30(ncol):
    rng = random.Random(1000 + ncol)
    for size in (10, 20, 30):
        for density in (0.6, 0.75):
            grid = random_grid(rng, size, size - 3, ncol, density)
            puzzle = puzzle_from_grid(grid, palette_of(ncol))
            r = solve(puzzle, None if size == 10 and density > 0.7 else 2)
            assert all(puzzle.is_solution(g) for g in r.solutions)
            if r.exhausted and len(r.solutions) < 50:
                assert grid in r.solutions
            if r.status is Status.UNIQUE:
                assert r.solutions == (grid,)
            assert r.status in (Status.UNIQUE, Status.MULTIPLE)


def test_stats_and_result_fields():
    grid = Grid.from_rows([[1, 0, 1], [1, 1, 0], [0, 1, 1]])
    puzzle = puzzle_from_grid(grid, palette_of(2))
    r = solve(puzzle)
    assert r.backend == "native" and r.seconds >= 0
    for key in ("line_solves", "cache_hits", "probes", "nodes", "max_depth", "seconds"):
        assert key in r.stats
    assert r.stats["line_solves"] > 0 and "total" in r.stats["seconds"]


def test_max_solutions_one_says_solved_or_unique():
    perm = Puzzle(((Block(1),),) * 3, ((Block(1),),) * 3)
    r = solve(perm, 1)
    assert r.status is Status.SOLVED and len(r.solutions) == 1 and perm.is_solution(r.solutions[0])


def test_fixed_cells():
    perm = Puzzle(((Block(1),),) * 3, ((Block(1),),) * 3)
    r = NativeBackend().solve(perm, SolveOptions(max_solutions=None, fixed={(0, 0): 2, (1, 1): 2}))
    assert r.status is Status.UNIQUE and r.solutions[0].cells == ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    r = NativeBackend().solve(perm, SolveOptions(max_solutions=None, fixed={(0, 0): 0}))
    assert r.status is Status.NONE


# ----------------------------------------------------------------- propagate_and_probe and the trace


def test_propagate_and_probe_fixpoint_and_trace_replay():
    rng = random.Random(5)
    for ncol in (2, 3):
        for _ in range(6):
            grid = random_grid(rng, 12, 9, ncol, 0.65)
            puzzle = puzzle_from_grid(grid, palette_of(ncol))
            trace: list = []
            masks, contradiction, stats = propagate_and_probe(puzzle, trace=trace)
            assert not contradiction and len(masks) == 12 * 9
            # sound: every solution lies inside the masks; in particular the source grid
            for r in range(9):
                for c in range(12):
                    assert (masks[r * 12 + c] >> grid.cells[r][c]) & 1
            # replay: applying the recorded steps in order to full domains gives the same masks, and every
            # step only narrows
            full = (1 << ncol) - 1
            replay = [full] * (12 * 9)
            for step in trace:
                assert step.kind in ("row", "col") and step.technique in (
                    "line", "probe-contradiction", "probe-agreement")
                for r, c, m in step.changes:
                    assert m & ~replay[r * 12 + c] == 0 and m != replay[r * 12 + c]
                    replay[r * 12 + c] = m
            assert replay == masks
            assert stats["line_solves"] > 0


def test_propagate_and_probe_reports_contradiction():
    none = Puzzle(((Block(2),), (Block(1),), ()), ((Block(1), Block(1)), (Block(1),), ()))
    masks, contradiction, _ = propagate_and_probe(none)
    assert contradiction


def test_all_remaining_cells_is_the_union_of_solutions():
    perm = Puzzle(((Block(1),),) * 3, ((Block(2),), (Block(1),), ()))
    engine = Engine(perm)
    st = engine.initial_state()
    assert engine.propagate(st, range(engine.nlines)) >= 0
    union = all_remaining_cells(engine, st)
    sols = brute_force(perm)
    expected = [0] * 9
    for g in sols:
        for r in range(3):
            for c in range(3):
                expected[r * 3 + c] |= 1 << g.cells[r][c]
    assert union is not None and engine.to_masks(union) == expected


# ----------------------------------------------------------------- time limit and Ctrl-C


def test_time_limit_gives_timeout():
    path = corpus_path("webpbn-survey", "free", "webpbn-knotty.txt")
    from nonocp.formats import load

    puzzle = load(str(path))[0]
    r = NativeBackend().solve(puzzle, SolveOptions(max_solutions=2, time_limit=0.3))
    assert r.status is Status.TIMEOUT and not r.exhausted


def test_keyboard_interrupt_propagates(monkeypatch):
    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Engine, "probe", interrupted)
    perm = Puzzle(((Block(1),),) * 3, ((Block(1),),) * 3)
    with pytest.raises(KeyboardInterrupt):
        solve(perm)


# ----------------------------------------------------------------- the survey corpus

FAST_SURVEY = [
    "webpbn-00001-demo.txt",
    "webpbn-00006-Scardy Cat.txt",
    "webpbn-00016-Probably Not.txt",
    "webpbn-00021-Slippery Conditions.txt",
    "webpbn-00023-Test Pattern.txt",
    "webpbn-00027-the right.txt",
    "webpbn-00529-swing.txt",
]


@pytest.mark.parametrize("name", FAST_SURVEY)
def test_survey_puzzles_solved_to_their_goal(name):
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", name)))[0]
    r = solve(puzzle)
    assert r.status is Status.UNIQUE
    assert r.solutions == (puzzle.meta.goal,)


def test_colour_survey_puzzles():
    from nonocp.formats import load

    for name in ("webpbn-color-00047.xml",):
        puzzle = load(str(corpus_path("webpbn-survey", "xml-free", name)))[0]
        r = solve(puzzle)
        assert r.status is Status.UNIQUE
        assert r.solutions == (puzzle.meta.goal,)
