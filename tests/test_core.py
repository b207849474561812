"""The compiled core (csrc/, through nonocp.engines.native.core) against the Python reference core
(reference.py, reference_cdcl.py), which tests/test_line_solver.py and tests/test_native.py check against
brute force and other engines. The engine picks one core or the other by what is built and what fits, so
both must give the same answers; they must also take the same steps: the same line solves, probes, trace
events, explanations, learned clauses, conflicts and solutions in the same order."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import sysconfig

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Puzzle, line_clue
from nonocp.core.result import Status
from nonocp.engines import SolveOptions
from nonocp.engines.native import NativeBackend, core
from nonocp.engines.native.cdcl import cdcl_enumerate
from nonocp.engines.native.line import plan_of, solve_planned
from strategies import grids, palette_of, puzzle_from_grid

needs_c = pytest.mark.skipif(not core.available(), reason="the compiled core is not built here")


def _compiler_and_headers() -> bool:
    include = sysconfig.get_paths().get("include")
    return bool(shutil.which("cc") or shutil.which("gcc")) and bool(include) and os.path.exists(
        os.path.join(include, "Python.h"))


def test_the_compiled_core_is_built_where_it_can_be():
    """CI installs on a machine with a C compiler: a build that failed quietly (setup.py marks it optional)
    would leave every comparison below skipped and the engine many times slower, so it fails here instead."""
    if os.environ.get("NONOCP_PURE_PYTHON"):
        pytest.skip("NONOCP_PURE_PYTHON is set")
    if not (os.environ.get("CI") and _compiler_and_headers()):
        pytest.skip("checked in CI, where a compiler and the Python headers are there")
    assert core.available()


def test_pure_python_can_be_forced():
    code = ("from nonocp.engines.native import core; from nonocp.core.puzzle import Puzzle, Block; "
            "p = Puzzle(((Block(1),),), ((Block(1),),)); print(core.available(), core.core_for(p).implementation)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "NONOCP_PURE_PYTHON": "1"}).stdout
    assert out.split() == ["False", "python"]


def both(puzzle: Puzzle):
    return core.core_for(puzzle, compiled=True), core.core_for(puzzle, compiled=False)


def work(counters: dict) -> dict:
    """The counters both cores keep (the reference's line cache hits are its own)."""
    return {k: v for k, v in counters.items() if k != "cache_hits"}


def random_puzzle(rng: random.Random, w: int, h: int, ncol: int, density: float) -> Puzzle:
    grid = Grid.from_rows([[rng.randrange(1, ncol) if rng.random() < density else 0 for _ in range(w)]
                           for _ in range(h)])
    return puzzle_from_grid(grid, palette_of(ncol))


# ----------------------------------------------------------------- the line solver


@st.composite
def clue_and_masks(draw):
    ncol = draw(st.sampled_from([2, 2, 3, 5]))
    n = draw(st.integers(1, core.MAX_LENGTH or 63))
    runs = draw(st.lists(st.tuples(st.integers(0, ncol - 1), st.integers(1, 9)), min_size=1, max_size=40))
    source = [v for v, k in runs for _ in range(k)][:n]
    source += [0] * (n - len(source))
    clue = tuple((b.length, b.color) for b in line_clue(source))
    full = (1 << n) - 1
    # each colour loses a random set of cells; sometimes the source line is kept possible
    masks = [full & ~draw(st.integers(0, full)) if draw(st.booleans()) else full for _ in range(ncol)]
    if draw(st.booleans()):
        masks = [m | sum(1 << i for i, v in enumerate(source) if v == c) for c, m in enumerate(masks)]
    return clue, n, masks


def one_line_core(clue, n: int, ncol: int):
    """A compiled core whose row 0 has `clue` (the columns are one empty cell each)."""
    return core.new_core([clue] + [()] * n, [n] + [1] * n, 1, n, ncol, compiled=True)


@needs_c
@settings(max_examples=examples(400), deadline=None)
@given(case=clue_and_masks())
def test_compiled_line_solver_equals_python(case):
    clue, n, masks = case
    expected = solve_planned(plan_of(clue), n, masks)
    c = one_line_core(clue, n, len(masks))
    assert c.solve_line(0, masks) == expected
    assert c.counters()["line_solves"] == 1


@needs_c
def test_grids_too_big_for_the_compiled_core_use_the_reference():
    n = core.MAX_LENGTH + 1
    wide = Puzzle((tuple([Block(n)]),), tuple((Block(1),) for _ in range(n)))
    assert core.core_for(wide).implementation == "python"
    with pytest.raises(ValueError):
        core.core_for(wide, compiled=True)
    fits = Puzzle((tuple([Block(n - 1)]),), tuple((Block(1),) for _ in range(n - 1)))
    assert core.core_for(fits).implementation == "c"


@pytest.mark.parametrize("which", ["auto", "python"])
def test_a_clue_longer_than_its_line_is_no_solution_not_a_crash(which):
    """Files are checked when read (tests/test_formats.py), but a Puzzle built in code may hold such a clue."""
    puzzle = Puzzle(((Block(200),), (Block(1),)), ((Block(1),),) * 3)
    r = NativeBackend().solve(puzzle, SolveOptions(extra={"core": which}))
    assert r.status is Status.NONE


@needs_c
def test_the_compiled_core_rejects_what_it_cannot_take():
    c = one_line_core(((2, 1),), 5, 2)
    with pytest.raises(ValueError):
        c.solve_line(0, (1 << 5, 31))  # wider than the line
    with pytest.raises(ValueError):
        c.solve_line(0, (-1, 31))
    with pytest.raises(TypeError):
        c.solve_line(0, ("x", 31))
    with pytest.raises(ValueError):
        c.solve_line(0, (31,))  # one mask per colour
    with pytest.raises(IndexError):
        c.solve_line(9, (31, 31))
    with pytest.raises(ValueError):
        c.set_state([31])
    with pytest.raises(IndexError):
        c.assign(0, 5, 1)
    with pytest.raises(IndexError):
        c.propagate([99])
    with pytest.raises(RuntimeError):
        c.cdcl_search(10)  # no search begun
    with pytest.raises(ValueError):
        core.new_core([((1, 2),)] + [()] * 3, [3, 1, 1, 1], 1, 3, 2, compiled=True)  # colour 2 of 2


# ----------------------------------------------------------------- propagation and probing


@needs_c
@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(grid=st.integers(2, 4).flatmap(lambda k: st.tuples(st.just(k), grids(30, 30, k))), data=st.data())
def test_propagation_takes_the_same_steps(grid, data):
    ncol, g = grid
    puzzle = puzzle_from_grid(g, palette_of(ncol))
    compiled, reference = both(puzzle)
    # remove some random colours from some cells (may make the puzzle contradictory: both must say so)
    for _ in range(data.draw(st.integers(0, 12))):
        cell = (data.draw(st.integers(0, puzzle.height - 1)), data.draw(st.integers(0, puzzle.width - 1)),
                data.draw(st.integers(0, ncol - 1)))
        compiled.forbid(*cell)
        reference.forbid(*cell)
    assert compiled.state() == reference.state()
    lines = data.draw(st.lists(st.integers(0, compiled.nlines - 1), max_size=compiled.nlines)) or [0]
    events: tuple[list, list] = ([], [])
    got = compiled.propagate(lines, lambda *e: events[0].append(e))
    expected = reference.propagate(lines, lambda *e: events[1].append(e))
    assert got == expected and events[0] == events[1]
    assert work(compiled.counters()) == work(reference.counters())
    if expected < 0:
        assert compiled.failed_line == reference.failed_line
    else:
        assert compiled.state() == reference.state() and compiled.masks() == reference.masks()


@needs_c
def test_probing_takes_the_same_steps():
    """Probing to a fixpoint with every report traced, the branch it picks and the scores it keeps, on random
    grids dense enough that line logic stalls and probing refutes, agrees and branches."""
    rng = random.Random(17)
    seen = {0: 0, 1: 0, 2: 0}
    branched = 0
    for n in range(30):
        ncol = (2, 2, 3, 4)[n % 4]
        puzzle = random_puzzle(rng, rng.randint(6, 18), rng.randint(6, 18), ncol, rng.uniform(0.4, 0.6))
        compiled, reference = both(puzzle)
        results, events = [], []
        for c in (compiled, reference):
            trace: list = []
            c.propagate(None, lambda *e, t=trace: t.append(e))
            results.append((c.probe(lambda *e, t=trace: t.append(e), branch=True), c.state(), c.scores(),
                            work(c.counters())))
            events.append(trace)
        assert results[0] == results[1]
        assert events[0] == events[1]
        for e in events[0]:
            seen[e[0]] += 1
        branched += results[0][0][1] is not None
    assert all(seen.values()) and branched > 5, (seen, branched)  # every kind of step was compared


# ----------------------------------------------------------------- the CDCL search


def _search_trace(puzzle: Puzzle, compiled: bool, limit: int, probe: bool, minimize: bool = True, prefer=None):
    """Root propagation and probing, then the CDCL search with every explanation, reason and learned clause
    recorded: (solutions, exhausted, counters, audit stream). `prefer`: preferred colours from the start
    (cdcl_enumerate's `prefer`)."""
    c = core.core_for(puzzle, compiled=compiled)
    audit: list = []
    if c.propagate() < 0:
        return [], True, work(c.counters()), audit
    if probe and not c.probe()[0]:
        return [], True, work(c.counters()), audit
    found: list = []
    exhausted = cdcl_enumerate(c, limit, found, minimize=minimize, audit=lambda *e: audit.append(e), prefer=prefer,
                               prefer_stages=((0, None),))
    return found, exhausted, work(c.counters()), audit


@needs_c
def test_cdcl_takes_the_same_search_path():
    """The same solutions in the same order, the same counts, and the same explanations, reasons and learned
    clauses one by one, black-and-white and colour, with and without root probing and shrinking; on random
    sparse grids, which make the search conflict (tests/test_native.py checks the answers and the
    soundness of every explanation and learned clause)."""
    rng = random.Random(3)
    conflicts = colour_conflicts = 0
    for n in range(30):
        ncol = (2, 2, 3, 4, 2)[n % 5]
        puzzle = random_puzzle(rng, rng.randint(10, 17), rng.randint(10, 17), ncol, rng.uniform(0.3, 0.42))
        probe, minimize = n % 3 == 1, n % 7 != 3
        got = _search_trace(puzzle, True, 5, probe, minimize)
        expected = _search_trace(puzzle, False, 5, probe, minimize)
        assert got[:3] == expected[:3]
        assert got[3] == expected[3]
        conflicts += got[2].get("conflicts", 0)
        if ncol > 2:
            colour_conflicts += got[2].get("conflicts", 0)
    assert conflicts > 300 and colour_conflicts > 50, (conflicts, colour_conflicts)


@needs_c
def test_preferred_colours_take_the_same_search_path():
    """Decisions that keep preferred colours (the beliefs' hook, here random colours, some out of range or
    already removed) take both cores the same way; and the preferences change the path, so the hook is live."""
    rng = random.Random(5)
    changed = 0
    for n in range(16):
        ncol = (2, 3, 2, 4)[n % 4]
        puzzle = random_puzzle(rng, rng.randint(10, 16), rng.randint(10, 16), ncol, rng.uniform(0.3, 0.42))
        colours = [rng.randrange(-1, ncol + 1) for _ in range(puzzle.width * puzzle.height)]
        seen: list = []

        def prefer(masks, how, colours=colours, seen=seen):
            seen.append(masks)
            return colours

        got = _search_trace(puzzle, True, 5, n % 2 == 0, prefer=prefer)
        expected = _search_trace(puzzle, False, 5, n % 2 == 0, prefer=prefer)
        assert got[:3] == expected[:3] and got[3] == expected[3]
        assert len(seen) == 2 and seen[0] == seen[1]  # once per core (at the start), from the same masks
        if got[2] != _search_trace(puzzle, True, 5, n % 2 == 0)[2]:
            changed += 1
    assert changed >= 3, changed


@needs_c
@pytest.mark.parametrize("search", ["", "dfs"])
def test_the_backend_gives_the_same_answers_and_statistics_with_either_core(search):
    rng = random.Random(11)
    keys = ("conflicts", "restarts", "nodes", "max_depth", "line_solves", "probes", "probe_passes")
    for n in range(12):
        puzzle = random_puzzle(rng, rng.randint(8, 14), rng.randint(8, 14), (2, 3, 5)[n % 3], 0.45)
        results = [NativeBackend(search).solve(puzzle, SolveOptions(max_solutions=4, extra={"core": which}))
                   for which in ("c", "python")]
        assert results[0].stats["core"] == "c" and results[1].stats["core"] == "python"
        assert results[0].solutions == results[1].solutions and results[0].status is results[1].status
        assert {k: results[0].stats[k] for k in keys} == {k: results[1].stats[k] for k in keys}


def test_count_clues_run_on_the_reference_core():
    """The compiled core takes run clues only: a count-and-contiguity puzzle gets the reference core (with
    count_line.py's line solver), and asking for the compiled one is refused in one line."""
    from nonocp.core.errors import BackendUnavailable
    from oracle import brute_force
    from strategies import count_puzzle_from_grid

    grid = Grid.from_rows([[0, 1, 1, 2], [2, 2, 0, 1], [1, 0, 2, 2], [0, 1, 2, 0]])
    puzzle = count_puzzle_from_grid(grid, 3)
    assert core.core_for(puzzle).implementation == "python"
    got = NativeBackend().solve(puzzle, SolveOptions(max_solutions=None))
    assert got.stats["core"] == "python" and got.exhausted
    assert set(got.solutions) == set(brute_force(puzzle)) and grid in got.solutions
    with pytest.raises(BackendUnavailable, match="run clues only"):
        NativeBackend().solve(puzzle, SolveOptions(extra={"core": "c"}))


@needs_c
@pytest.mark.parametrize("folder,name", [
    ("free", "webpbn-00023-Test Pattern.txt"), ("free", "webpbn-00436-Old stone face.txt"),
    ("free", "webpbn-00803-You light up my life.txt"), ("free", "webpbn-06574-Lasts Forever.txt"),
    ("restricted", "webpbn-04645-m&m.txt"), ("restricted", "webpbn-02040-Be wonderful.txt")])
def test_both_cores_find_the_corpus_goal_with_the_same_statistics(folder, name):
    """Survey puzzles that take probing or CDCL conflicts, with their published solution: each core proves it
    the one solution, by the same steps."""
    from conftest import corpus_path
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", folder, name)))[0]
    keys = ("conflicts", "restarts", "nodes", "max_depth", "line_solves", "probes", "probe_passes")
    results = [NativeBackend().solve(puzzle, SolveOptions(extra={"core": which})) for which in ("c", "python")]
    for r in results:
        assert r.status is Status.UNIQUE and r.solutions == (puzzle.meta.goal,)
    assert {k: results[0].stats[k] for k in keys} == {k: results[1].stats[k] for k in keys}


@needs_c
def test_both_cores_take_the_same_path_through_restarts_and_rephasing(monkeypatch):
    """A tournament puzzle whose search restarts more than REPHASE_EVERY times (its target phases are
    forgotten), reuses remembered explanations, and gives line reasons kept from an earlier conflict (a
    reason not just worked out): the same solutions, counts and audit stream. Restarts come every 64
    conflicts a unit here, so that the Python core gets past REPHASE_EVERY restarts in a few thousand."""
    from conftest import corpus_path
    from nonocp.engines.native import cdcl
    from nonocp.engines.native.reference_cdcl import AUDIT_EXPLAIN, AUDIT_REASON, REPHASE_EVERY
    from nonocp.formats import load

    puzzle = load(str(corpus_path("nonogram-record", "question", "taai2011.txt")))[365]  # #366
    monkeypatch.setattr(cdcl, "RESTART_UNIT", 64)
    got = _search_trace(puzzle, True, 2, True)
    expected = _search_trace(puzzle, False, 2, True)
    assert got[:3] == expected[:3] and got[3] == expected[3]
    assert len(got[0]) == 2 and got[2]["restarts"] > REPHASE_EVERY, got[2]
    audit = got[3]
    kept = sum(1 for before, e in zip(audit, audit[1:], strict=False)
               if e[0] == AUDIT_REASON and e[2] >= 0 and before[0] != AUDIT_EXPLAIN)  # a line reason, rlim >= 0
    assert kept > 0
    # with preferred colours (random ones) through periods with and without them (preferences_in_force)
    rng = random.Random(2)
    colours = [rng.randrange(2) for _ in range(puzzle.width * puzzle.height)]
    got = _search_trace(puzzle, True, 2, True, prefer=lambda masks, how: colours)
    expected = _search_trace(puzzle, False, 2, True, prefer=lambda masks, how: colours)
    assert got[:3] == expected[:3] and got[3] == expected[3]
    assert got[2]["restarts"] > 2 * REPHASE_EVERY, got[2]


def _first_solution(puzzle: Puzzle, compiled: bool, prefer: list[int] | None, restarts: int,
                    prefer_again: bool = False) -> list[int]:
    """The CDCL search's first solution (cell masks) after `prefer` at the start, then `restarts` restarts (and
    `prefer` again after them when `prefer_again`); no root probing, no restart while it searches."""
    from nonocp.engines.native.reference_cdcl import SOLUTION

    c = core.core_for(puzzle, compiled=compiled)
    assert c.propagate() >= 0
    c.cdcl_begin()
    if prefer is not None:
        c.cdcl_prefer(prefer)
    for _ in range(restarts):
        c.cdcl_restart()
    if prefer_again and prefer is not None:
        c.cdcl_prefer(prefer)
    assert c.cdcl_search(1 << 40) == SOLUTION
    return c.masks()


@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=needs_c)])
def test_preferred_colours_are_in_force_every_other_rephase_period(compiled):
    """The definition of preferences_in_force (reference_cdcl.py), on both cores: decisions keep the preferred
    colours for REPHASE_EVERY restarts from the driver's last prefer, then not for as many, and so on; a new
    prefer starts a period in force. On a 6x6 permutation puzzle (720 solutions, no line logic) preferences
    that spell a solution lead the search to exactly it without a conflict, while the search's own phases
    (none yet, so ink first) lead elsewhere."""
    from nonocp.engines.native.reference_cdcl import REPHASE_EVERY

    n = 6
    one = (Block(1),)
    puzzle = Puzzle((one,) * n, (one,) * n)
    own = _first_solution(puzzle, compiled, None, 0)
    # a solution other than the one the search finds on its own: its permutation shifted by one column
    black = [cell % n for cell in range(n * n) if own[cell] == 2]
    assert len(black) == n
    wanted = [0] * (n * n)
    for r, c in enumerate(black):
        wanted[r * n + (c + 1) % n] = 1
    expected_masks = [1 << k for k in wanted]
    R = REPHASE_EVERY
    for restarts, in_force in [(0, True), (R - 1, True), (R, False), (2 * R - 1, False), (2 * R, True),
                               (3 * R, False)]:
        got = _first_solution(puzzle, compiled, wanted, restarts)
        assert (got == expected_masks) is in_force, (restarts, got)
        if not in_force:
            assert got == own  # out of force: the search's own choice, as without preferences
    # a new look (prefer) starts a period in force, whatever the restarts so far
    assert _first_solution(puzzle, compiled, wanted, R, prefer_again=True) == expected_masks


# ------------------------------------------------------------- auto's native-first option

@needs_c
def test_auto_native_first_decides_with_the_native_search():
    """`native_first`: what line logic leaves open goes to the native CDCL search first; the answers are the
    SAT stage's (brute force on small puzzles, the default auto on bigger random ones)."""
    from nonocp.engines import get_backend
    from oracle import brute_force

    auto = get_backend("auto")
    perms = Puzzle(((Block(1),),) * 4, ((Block(1),),) * 4)  # line logic decides nothing: 24 solutions
    r = auto.solve(perms, SolveOptions(max_solutions=None, workers=1, extra={"native_first": True}))
    assert r.stats["phase"] == "native search" and r.backend == "auto:native" and r.exhausted
    assert set(r.solutions) == set(brute_force(perms))
    rng = random.Random(5)
    for n in range(8):
        puzzle = random_puzzle(rng, rng.randint(10, 18), rng.randint(10, 18), (2, 3)[n % 2], 0.5)
        first, sat = (auto.solve(puzzle, SolveOptions(max_solutions=3, workers=1, extra={"native_first": on}))
                      for on in (True, False))
        assert first.status is sat.status and all(puzzle.is_solution(g) for g in first.solutions)
        if first.exhausted:
            assert set(first.solutions) == set(sat.solutions)


@needs_c
@pytest.mark.parametrize("found", [0, 2])  # nothing yet; an enumeration cut short (`multiple`, not complete)
def test_auto_native_first_hands_over_to_sat_when_its_budget_is_spent(monkeypatch, found):
    from nonocp.core.result import SolveResult, status_of
    from nonocp.engines import get_backend
    from oracle import brute_force

    def slice_ended(self, puzzle, options):
        # a budget of work, the compiled core, otherwise the native defaults
        assert options.budget is not None and options.extra == {"core": "c"}
        grids = tuple(brute_force(puzzle))[:found]
        return SolveResult(status=status_of(found, False, None, True), solutions=grids, exhausted=False,
                           backend="native", timed_out=True)

    monkeypatch.setattr(NativeBackend, "solve", slice_ended)
    perms = Puzzle(((Block(1),),) * 4, ((Block(1),),) * 4)
    r = get_backend("auto").solve(perms, SolveOptions(max_solutions=None, workers=1, time_limit=60,
                                                      extra={"native_first": True}))
    assert r.stats["phase"] == "sat" and r.stats["native_first"].startswith("undecided") and len(r.solutions) == 24
