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
    core,
    possible_colours,
    propagate_and_probe,
)
from nonocp.engines.native.cdcl import cdcl_enumerate
from nonocp.engines.native.engine import Engine
from nonocp.engines.native.line import solve_line
from nonocp.engines.native.reference_cdcl import AUDIT_EXPLAIN, AUDIT_LEARN, AUDIT_REASON
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


# 10x10 permutations: 3,628,800 solutions, which no search enumerates in a fraction of a second, however fast
PERMUTATIONS_10 = Puzzle(((Block(1),),) * 10, ((Block(1),),) * 10)


def test_time_limit_ends_the_search_keeping_what_it_found():
    r = NativeBackend().solve(PERMUTATIONS_10, SolveOptions(max_solutions=None, time_limit=0.3))
    assert r.timed_out and r.stop == "timeout" and not r.exhausted
    assert len(set(r.solutions)) == len(r.solutions) < 3_628_800
    assert all(PERMUTATIONS_10.is_solution(g) for g in r.solutions)


# the cores to run the engine's own tests on: the compiled one where it is built, and the reference
CORES = ["c", "python"] if core.available() else ["python"]


@pytest.mark.parametrize("which", CORES)
@pytest.mark.parametrize("search", ["", "dfs"])
def test_keyboard_interrupt_propagates(which, search):
    """Ctrl-C in the middle of a long search (here a CPU-time timer's signal whose handler raises
    KeyboardInterrupt, delivered while the compiled core runs) stops it and reaches the caller."""
    import signal

    def interrupt(signum, frame):
        # only inside the engine: a handler run in a gc callback (hypothesis installs one) would have its
        # exception ignored; the timer repeats until the signal lands in the engine
        if frame is not None and "nonocp" not in frame.f_code.co_filename:
            return
        signal.setitimer(signal.ITIMER_PROF, 0)
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGPROF, interrupt)
    try:
        signal.setitimer(signal.ITIMER_PROF, 0.05, 0.05)
        with pytest.raises(KeyboardInterrupt):
            solve(PERMUTATIONS_10, None, search, extra={"core": which}, time_limit=120)  # never hangs the suite
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


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
        # no root probing and no beliefs: the beliefs alone take these to their solutions without a conflict
        a = solve(puzzle, 12, "", extra={"probe": False, "beliefs": False})
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


class Auditor:
    """Checks what a CDCL search reports (core.py: audit) as it goes:

    * every explanation (found now or remembered from an earlier state) names only the line's removals
      (above level 0, or level-0 facts by now) and, on top of the line's level-0 state, makes the line
      solver draw the same conclusion (colour k leaves cell i, or, for i < 0, no placement at all);
    * every reason names earlier trail entries, and a line step's reason only entries made before the line
      was solved;
    * every learned clause holds in every solution of the puzzle not yet found when it was learned (the
      search blocks the solutions it finds, so later clauses may exclude those).
    """

    def __init__(self, puzzle: Puzzle, solutions: list | None, found: list) -> None:
        self.blocks = [tuple((b.length, b.color) for b in clue) for clue, _ in puzzle.lines()]
        self.lengths = [n for _, n in puzzle.lines()]
        self.W, self.ncol = puzzle.width, len(puzzle.palette)
        self.solutions = solutions
        self.found = found
        self.checked = {AUDIT_EXPLAIN: 0, AUDIT_REASON: 0, AUDIT_LEARN: 0}

    def __call__(self, kind: int, *args) -> None:
        self.checked[kind] += 1
        if kind == AUDIT_EXPLAIN:
            ln, i, k, base, removed, need = args
            assert all(r & ~b == 0 for r, b in zip(removed, base, strict=True)), "a level-0 fact as a removal"
            # a remembered explanation may name removals that have become level-0 facts since (gone from base)
            assert all(x & b & ~r == 0 for x, b, r in zip(need, base, removed, strict=True)), "not a removal"
            masks = [b & ~x for b, x in zip(base, need, strict=True)]
            res = solve_line(self.blocks[ln], self.lengths[ln], masks)
            assert res is None if i < 0 else (res is None or not (res[k] >> i) & 1), "an explanation too weak"
        elif kind == AUDIT_REASON:
            t, rlim, out = args
            assert all(x < t for x in out)
            if rlim >= 0:
                assert all(x < rlim for x in out)
        elif self.solutions is not None:
            (clause,) = args
            blocked = {self.grid_of(st) for st in self.found}
            for grid in self.solutions:
                if grid in blocked:
                    continue
                assert any(grid.cells[v // self.ncol // self.W][v // self.ncol % self.W] == v % self.ncol
                           for v in clause), "a learned clause cuts off a solution"

    def grid_of(self, st: list[int]) -> Grid:
        H = len(self.lengths) - self.W
        rows = []
        for r in range(H):
            row = [0] * self.W
            for k in range(1, self.ncol):
                for c in range(self.W):
                    if (st[r * self.ncol + k] >> c) & 1:
                        row[c] = k
            rows.append(tuple(row))
        return Grid(tuple(rows))


def audited_search(puzzle: Puzzle, which: str, limit: int | None, solutions: list | None) -> tuple[Auditor, bool]:
    c = core.core_for(puzzle, compiled=which == "c")
    found: list = []
    auditor = Auditor(puzzle, solutions, found)
    if c.propagate() < 0:
        return auditor, True
    exhausted = cdcl_enumerate(c, limit, found, audit=auditor)
    assert all(puzzle.is_solution(auditor.grid_of(st)) for st in found)
    if solutions is not None and exhausted:
        assert {auditor.grid_of(st) for st in found} == set(solutions)
    return auditor, exhausted


@pytest.mark.parametrize("which", CORES)
@pytest.mark.parametrize("shape", ["random", "mirrored"])
def test_every_explanation_implies_its_step(which, shape):
    """Soundness of learning rests on the explanations (see Auditor), checked on the core that runs.

    The mirrored grids repeat every clue in several lines: an explanation remembered for one line must not
    be handed to another line with the same clue and state (their level-0 facts differ). Keyed by clue, the
    memo would do exactly that, and the search would answer `none` on Thing (webpbn 18297)."""
    # Sparse random grids (a third of the cells filled) have many solutions and make the search conflict;
    # for black-and-white and for 3 colours, puzzles until enough explanations were checked.
    total = {AUDIT_EXPLAIN: 0, AUDIT_REASON: 0}
    for ncol in (2, 3):
        rng = random.Random(11 + ncol)
        before = total[AUDIT_EXPLAIN]
        for n in range(40):
            density = 0.35 + 0.05 * (n % 3)
            if shape == "random":
                grid = random_grid(rng, 13, 13, ncol, density)
            else:
                grid = mirrored_grid(rng, 13, ncol, density)
            puzzle = puzzle_from_grid(grid, palette_of(ncol))
            auditor, _ = audited_search(puzzle, which, 8, None)
            for kind in total:
                total[kind] += auditor.checked[kind]
            if total[AUDIT_EXPLAIN] - before > 150 and shape == "random":
                break  # (mirrored: every puzzle, as the shared-clue cases come from a few of them)
        assert total[AUDIT_EXPLAIN] - before > 150, (ncol, total)  # the learning machinery ran
    assert total[AUDIT_REASON] > 150, total


@pytest.mark.parametrize("which", CORES)
def test_every_learned_clause_holds_in_every_solution_left(which):
    """Learned clauses against every solution (found by brute force over the sat engine's enumeration, on
    grids small enough to have few): none may cut off a solution the search has not yet reported."""
    rng = random.Random(23)
    learned = 0
    for n in range(16):
        ncol = (2, 2, 3)[n % 3]
        grid = random_grid(rng, 11, 11, ncol, 0.35 + 0.05 * (n % 2))
        puzzle = puzzle_from_grid(grid, palette_of(ncol))
        every = get_backend("sat").solve(puzzle, SolveOptions(max_solutions=300))
        if not every.exhausted:
            continue
        auditor, exhausted = audited_search(puzzle, which, None, list(every.solutions))
        assert exhausted
        learned += auditor.checked[AUDIT_LEARN]
    assert learned > 100, learned


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
