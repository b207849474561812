"""The native engine: search and counting against brute force, random grids, the survey corpus, the
propagate_and_probe entry point and its replayable trace, time limits and Ctrl-C."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FULL_DEPTH, corpus_path, examples
from nonocp.core.errors import BackendUnavailable
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Puzzle, line_clue
from nonocp.core.result import Status
from nonocp.engines import SolveOptions, get_backend
from nonocp.engines.native import (
    LineDeduction,
    NativeBackend,
    ProbeAgreement,
    ProbeContradiction,
    possible_colours,
    propagate_and_probe,
)
from nonocp.engines.native.cdcl import Cdcl
from nonocp.engines.native.engine import Engine
from nonocp.engines.native.search import all_remaining_cells
from oracle import brute_force
from strategies import grids, palette_of, puzzle_from_grid


def solve(puzzle: Puzzle, limit: int | None = 2, search: str = "", **kw) -> object:
    return NativeBackend(search).solve(puzzle, SolveOptions(max_solutions=limit, **kw))


# Both searches: "" is the default (CDCL after root probing), "dfs" the probing depth-first search.
SEARCHES = ["", "dfs"]


def random_grid(rng: random.Random, w: int, h: int, ncol: int, density: float) -> Grid:
    rows = [[rng.randrange(1, ncol) if rng.random() < density else 0 for _ in range(w)] for _ in range(h)]
    return Grid.from_rows(rows)


@pytest.mark.parametrize("search", SEARCHES)
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ncol=st.sampled_from([2, 3, 4]), data=st.data())
def test_every_solution_up_to_5x5_matches_brute_force(search, ncol, data):
    grid = data.draw(grids(5 if ncol == 2 else 4, 5 if ncol == 2 else 4, ncol))
    puzzle = puzzle_from_grid(grid, palette_of(ncol))
    expected = set(brute_force(puzzle))
    result = solve(puzzle, None, search)
    assert result.exhausted
    assert len(result.solutions) == len(set(result.solutions)) == len(expected)
    assert set(result.solutions) == expected


@pytest.mark.parametrize("search", SEARCHES)
def test_counts_zero_and_many(search):
    # no solution although every total agrees
    none = Puzzle(((Block(2),), (Block(1),), ()), ((Block(1), Block(1)), (Block(1),), ()))
    r = solve(none, None, search)
    assert r.status is Status.NONE and r.exhausted and not r.solutions
    # 5x5 permutation matrices: 120 solutions, all of them, then a limit of 7
    perm = Puzzle(((Block(1),),) * 5, ((Block(1),),) * 5)
    r = solve(perm, None, search)
    assert r.exhausted and len(set(r.solutions)) == 120
    r = solve(perm, 7, search)
    assert r.status is Status.MULTIPLE and len(set(r.solutions)) == 7 and not r.exhausted
    assert all(perm.is_solution(g) for g in r.solutions)


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("ncol", [2, 3, 5])
def test_source_grid_among_solutions_up_to_30x30(search, ncol):
    rng = random.Random(1000 + ncol)
    for size in (10, 20, 30):
        for density in (0.6, 0.75):
            grid = random_grid(rng, size, size - 3, ncol, density)
            puzzle = puzzle_from_grid(grid, palette_of(ncol))
            r = solve(puzzle, None if size == 10 and density > 0.7 else 2, search)
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


@pytest.mark.parametrize("search", SEARCHES)
def test_fixed_cells(search):
    perm = Puzzle(((Block(1),),) * 3, ((Block(1),),) * 3)
    r = NativeBackend(search).solve(perm, SolveOptions(max_solutions=None, fixed={(0, 0): 2, (1, 1): 2}))
    assert r.status is Status.UNIQUE and r.solutions[0].cells == ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    r = NativeBackend(search).solve(perm, SolveOptions(max_solutions=None, fixed={(0, 0): 0}))
    assert r.status is Status.NONE


# ----------------------------------------------------------------- propagate_and_probe and the trace


def test_propagate_and_probe_fixpoint_and_trace_replay():
    rng = random.Random(5)
    for ncol in (2, 3):
        for _ in range(6):
            grid = random_grid(rng, 12, 9, ncol, 0.65)
            puzzle = puzzle_from_grid(grid, palette_of(ncol))
            trace: list = []
            masks, contradiction, stats = propagate_and_probe(puzzle, observer=trace.append)
            assert not contradiction and len(masks) == 12 * 9
            # sound: every solution lies inside the masks; in particular the source grid
            for r in range(9):
                for c in range(12):
                    assert (masks[r * 12 + c] >> grid.cells[r][c]) & 1
            # replay: applying the reported events in order to full domains gives the same masks, every
            # event only narrows, and each says what the cell was before
            full = (1 << ncol) - 1
            replay = [full] * (12 * 9)
            for event in trace:
                assert isinstance(event, (LineDeduction, ProbeContradiction, ProbeAgreement))
                for r, c, old, m in event.changes:
                    assert old == replay[r * 12 + c]
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
    assert union is not None and engine.to_masks(union) == _colours_used(brute_force(perm), 3, 3)


def _colours_used(solutions, width: int, height: int) -> list[int]:
    """Per cell (row-major), the mask of the colours some of `solutions` gives it."""
    out = [0] * (width * height)
    for g in solutions:
        for r, cells in enumerate(g.cells):
            for c, v in enumerate(cells):
                out[r * width + c] |= 1 << v
    return out


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), ncol=st.sampled_from([2, 3]))
def test_possible_colours_is_the_union_of_all_solutions(data, ncol):
    """The public all-remaining-cells entry point against brute force, on puzzles with any number of
    solutions and (unlike test_backbone's check of native_backbone) on clue sets with none: a row's clue
    swapped for a random row's."""
    grid = data.draw(grids(max_width=4, max_height=4, ncolors=ncol))
    puzzle = puzzle_from_grid(grid, palette_of(ncol))
    if data.draw(st.booleans()):
        row = data.draw(st.lists(st.integers(0, ncol - 1), min_size=grid.width, max_size=grid.width))
        puzzle = Puzzle((line_clue(row),) + puzzle.rows[1:], puzzle.cols, puzzle.palette)
    sols = brute_force(puzzle)
    got = possible_colours(puzzle)
    assert got == (_colours_used(sols, grid.width, grid.height) if sols else None)


# ----------------------------------------------------------------- time limit and Ctrl-C


def test_time_limit_gives_timeout():
    path = corpus_path("webpbn-survey", "free", "webpbn-knotty.txt")
    from nonocp.formats import load

    puzzle = load(str(path))[0]
    r = NativeBackend().solve(puzzle, SolveOptions(max_solutions=2, time_limit=0.3))
    assert r.status is Status.TIMEOUT and not r.exhausted


@pytest.mark.parametrize("search,where", [("", "cdcl"), ("dfs", "probe")])
def test_keyboard_interrupt_propagates(monkeypatch, search, where):
    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    if where == "cdcl":
        monkeypatch.setattr(Cdcl, "_propagate", interrupted)
    else:
        monkeypatch.setattr(Engine, "probe", interrupted)
    perm = Puzzle(((Block(1),),) * 3, ((Block(1),),) * 3)
    with pytest.raises(KeyboardInterrupt):
        solve(perm, search=search, extra={"probe": False})


def test_unknown_search_is_refused():
    with pytest.raises(BackendUnavailable):
        NativeBackend("bfs")


# ----------------------------------------------------------------- the CDCL search

def _learning_puzzles(count: int):
    """Random 10x10 to 14x14 black-and-white grids at half density: many have several solutions and need
    real search (conflicts, learned clauses, backjumps), unlike denser grids that line logic solves."""
    rng = random.Random(7)
    for _ in range(count):
        size = rng.randint(10, 14)
        grid = random_grid(rng, size, size, 2, 0.5)
        yield grid, puzzle_from_grid(grid, palette_of(2))


def test_cdcl_agrees_with_the_probing_search_on_random_grids():
    conflicts = 0
    for grid, puzzle in _learning_puzzles(12 if not FULL_DEPTH else 60):
        a = solve(puzzle, 12, "", extra={"probe": False})
        b = solve(puzzle, 12, "dfs")
        conflicts += a.stats["conflicts"]
        assert all(puzzle.is_solution(g) for g in a.solutions)
        assert len(set(a.solutions)) == len(a.solutions)
        assert (a.status, a.exhausted, len(a.solutions)) == (b.status, b.exhausted, len(b.solutions))
        if a.exhausted:  # every solution found by both: the same set
            assert set(a.solutions) == set(b.solutions) and grid in a.solutions
    assert conflicts > 0  # the learning machinery was exercised, not only propagation


def test_cdcl_agrees_with_the_sat_engine_on_mirrored_grids():
    """Mirrored grids repeat every clue in two or four lines (the case unsound explanation reuse got wrong):
    the learning search and the independent sat engine must find the same solutions, up to 12 of them.
    (An end-to-end oracle only: with the old clue-keyed memo these grids still gave the right answers,
    because a wrong clause need not cut a solution; test_every_explanation_implies_its_step catches it.)"""
    pytest.importorskip("pysat")
    rng = random.Random(5)
    conflicts = 0
    for n in range(24 if not FULL_DEPTH else 120):
        grid = mirrored_grid(rng, 15 + 2 * (n % 3), 2, 0.3 + 0.05 * (n % 4))
        puzzle = puzzle_from_grid(grid, palette_of(2))
        a = solve(puzzle, 12, "", extra={"probe": False})
        b = get_backend("sat").solve(puzzle, SolveOptions(max_solutions=12))
        conflicts += a.stats["conflicts"]
        assert all(puzzle.is_solution(g) for g in a.solutions)
        assert (a.status, a.exhausted, len(a.solutions)) == (b.status, b.exhausted, len(b.solutions))
        if a.exhausted:
            assert set(a.solutions) == set(b.solutions) and grid in a.solutions
    assert conflicts > 0


def test_cdcl_settings_change_the_path_not_the_answer():
    """Whole-line explanations, no root probing, no probe-guided decision order: the same solution sets."""
    for _, puzzle in _learning_puzzles(6):
        a = solve(puzzle, None, "")
        for extra in ({"probe": False}, {"minimize": False}, {"guide": False}):
            b = solve(puzzle, None, "", extra=extra)
            assert a.exhausted and b.exhausted and set(a.solutions) == set(b.solutions), extra


def mirrored_grid(rng: random.Random, size: int, ncol: int, density: float) -> Grid:
    """A random grid mirrored left-right and top-bottom: row r and row size-1-r (and the columns likewise)
    are the same line, so many lines share a clue while their states in a search differ."""
    half = (size + 1) // 2
    quarter = [[rng.randrange(1, ncol) if rng.random() < density else 0 for _ in range(half)] for _ in range(half)]
    rows = [row + row[: size - half][::-1] for row in quarter]
    return Grid.from_rows(rows + rows[: size - half][::-1])


@pytest.mark.parametrize("shape", ["random", "mirrored"])
def test_every_explanation_implies_its_step(monkeypatch, shape):
    """Soundness of learning rests on the explanations: each set of removals that `_shrink` returns (found
    now or remembered from an earlier state) must, on top of the line's level-0 facts, make the line solver
    draw the same conclusion, and must consist of removals in that line made before the step.

    The mirrored grids repeat every clue in several lines: an explanation remembered for one line must not
    be handed to another line with the same clue and state (their level-0 facts differ). Keyed by clue, the
    memo would do exactly that, and the search would answer `none` on Thing (webpbn 18297)."""
    from nonocp.engines.native.line import solve_line

    shrink, reason_of = Cdcl._shrink, Cdcl._reason_of
    checked = [0, 0]

    def checked_shrink(self, ln, packed, i, k):
        out = shrink(self, ln, packed, i, k)
        ncol = self.ncol
        masks = list((self.snapshots[0] if self.snapshots else self.st)[ln * ncol:(ln + 1) * ncol])
        for t in out:
            if t >= 0 and self.tlevel[t] > 0:  # level-0 removals are in the snapshot already
                assert t in self.line_trail[ln], "an explanation names a removal outside its line"
                colour, at = self._in_line(self.trail[t], ln)
                masks[colour] &= ~(1 << at)
        res = solve_line(self.e.blocks[ln], self.e.length[ln], masks)
        assert res is None if i < 0 else (res is None or not (res[k] >> i) & 1)
        checked[0] += 1
        return out

    def checked_reason_of(self, t):
        out = reason_of(self, t)
        assert all(x < t for x in out)
        if type(self.reason[t]) is int:
            assert all(x < self.rlim[t] for x in out)
            checked[1] += 1
        return out

    monkeypatch.setattr(Cdcl, "_shrink", checked_shrink)
    monkeypatch.setattr(Cdcl, "_reason_of", checked_reason_of)
    # the analysis in Python, which calls the two checked methods (the C analysis, fast.cdcl_analyze, calls
    # the same C explanations directly; tests/test_fastline.py checks that it takes the same search path)
    monkeypatch.setattr(Cdcl, "_analyze", Cdcl._analyze_python)
    # Sparse random grids (a third of the cells filled) have many solutions and make the search conflict;
    # for black-and-white and for 3 colours, puzzles until enough explanations were checked.
    for ncol in (2, 3):
        rng = random.Random(11 + ncol)
        before = checked[0]
        for n in range(40):
            density = 0.35 + 0.05 * (n % 3)
            if shape == "random":
                grid = random_grid(rng, 13, 13, ncol, density)
            else:
                grid = mirrored_grid(rng, 13, ncol, density)
            puzzle = puzzle_from_grid(grid, palette_of(ncol))
            r = solve(puzzle, 8, "", extra={"probe": False})
            assert all(puzzle.is_solution(g) for g in r.solutions) and len(set(r.solutions)) == len(r.solutions)
            if r.exhausted:
                assert grid in r.solutions
            if checked[0] - before > 150 and shape == "random":
                break  # (mirrored: every puzzle, as the shared-clue cases come from a few of them)
        assert checked[0] - before > 150, (ncol, checked)  # the learning machinery ran, not just propagation
    assert checked[1] > 150, checked


def test_cdcl_learns_on_a_survey_puzzle_that_line_logic_cannot_solve():
    """Edge (webpbn #23) is not line-solvable; without probing the CDCL search must conflict and learn."""
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", "webpbn-00023-Test Pattern.txt")))[0]
    r = solve(puzzle, 2, "", extra={"probe": False})
    assert r.status is Status.UNIQUE and r.solutions == (puzzle.meta.goal,)
    assert r.stats["conflicts"] > 0 and r.stats["nodes"] > 0


@pytest.mark.slow
def test_cdcl_solves_forever():
    """Forever (webpbn #6574): the probing DFS never finished it; CDCL proves it unique in seconds."""
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", "webpbn-06574-Lasts Forever.txt")))[0]
    r = solve(puzzle, 2)
    assert r.status is Status.UNIQUE and r.solutions == (puzzle.meta.goal,)


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
