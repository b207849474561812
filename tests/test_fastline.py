"""The C line solver and propagation loop (_fastline.c, through nonocp.engines.native.fast) against the Python
ones (line.py, Engine.propagate), which tests/test_line_solver.py and tests/test_native.py check against brute
force. Both must give exactly the same answers: the engine picks one or the other by what is built."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from nonocp.core.puzzle import Block, Puzzle, line_clue
from nonocp.engines.native import fast
from nonocp.engines.native.engine import Engine
from nonocp.engines.native.line import plan_of, solve_planned
from strategies import grids, palette_of, puzzle_from_grid


def _compiler_and_headers() -> bool:
    include = sysconfig.get_paths().get("include")
    return bool(shutil.which("cc") or shutil.which("gcc")) and bool(include) and os.path.exists(
        os.path.join(include, "Python.h"))


def test_the_c_module_is_built_where_it_can_be():
    """CI installs on a machine with a C compiler: a build that failed quietly (setup.py marks it optional)
    would leave every C test below skipped and the engine 5-7x slower, so it fails here instead."""
    if os.environ.get("NONOCP_PURE_PYTHON"):
        pytest.skip("NONOCP_PURE_PYTHON is set")
    if not (os.environ.get("CI") and _compiler_and_headers()):
        pytest.skip("checked in CI, where a compiler and the Python headers are there")
    assert fast.available()


needs_c = pytest.mark.skipif(not fast.available(), reason="the C line solver is not built here")


def test_pure_python_can_be_forced():
    code = "from nonocp.engines.native import fast; print(fast.available(), fast.implementation())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "NONOCP_PURE_PYTHON": "1"}).stdout
    assert out.split()[0] == "False" and "Python" in out


@st.composite
def clue_and_masks(draw):
    ncol = draw(st.sampled_from([2, 2, 3, 5]))
    n = draw(st.integers(1, fast.MAX_LENGTH or 63))
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


@needs_c
@settings(max_examples=examples(400), deadline=None)
@given(case=clue_and_masks())
def test_c_line_solver_equals_python(case):
    clue, n, masks = case
    expected = solve_planned(plan_of(clue), n, masks)
    assert fast.solve_line(fast.plans_for([clue], [n], len(masks))[0], n, tuple(masks)) == expected


@needs_c
def test_lines_too_long_for_c_stay_in_python():
    n = fast.MAX_LENGTH + 1
    wide = Puzzle((tuple([Block(n)]),), tuple((Block(1),) for _ in range(n)))
    assert Engine(wide).fast_plans is None
    narrow = Puzzle((tuple([Block(n - 1)]),), tuple((Block(1),) for _ in range(n - 1)))
    assert Engine(narrow).fast_plans is not None


@needs_c
@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(grid=st.integers(2, 4).flatmap(lambda k: st.tuples(st.just(k), grids(30, 30, k))), data=st.data())
def test_c_propagation_reaches_the_same_fixpoint(grid, data):
    ncol, g = grid
    puzzle = puzzle_from_grid(g, palette_of(ncol))
    engine = Engine(puzzle)
    assert engine.fast_plans is not None
    st_ = engine.initial_state()
    # remove some random colours from some cells (may make the puzzle contradictory: both must say so)
    for _ in range(data.draw(st.integers(0, 12))):
        r = data.draw(st.integers(0, engine.H - 1))
        c = data.draw(st.integers(0, engine.W - 1))
        engine.forbid(st_, r, c, data.draw(st.integers(0, ncol - 1)))
    lines = data.draw(st.lists(st.integers(0, engine.nlines - 1), max_size=engine.nlines)) or [0]
    c_state, py_state = list(st_), list(st_)
    c_removed = engine.propagate(c_state, lines)
    py_removed = Engine.propagate(engine, py_state, lines)
    assert (c_removed < 0) == (py_removed < 0)
    if py_removed >= 0:
        assert c_removed == py_removed and c_state == py_state


@needs_c
def test_a_clue_longer_than_its_line_is_no_solution_not_a_crash():
    """Files are checked when read (tests/test_formats.py), but a Puzzle built in code may hold such a clue."""
    from nonocp.core.result import Status
    from nonocp.engines import SolveOptions
    from nonocp.engines.native import NativeBackend

    puzzle = Puzzle(((Block(200),), (Block(1),)), ((Block(1),),) * 3)
    assert Engine(puzzle).fast_plans is None
    assert NativeBackend().solve(puzzle, SolveOptions()).status is Status.NONE


@needs_c
def test_c_solver_rejects_what_it_cannot_take():
    plan = fast.plans_for([((2, 1),)], [5], 2)[0]
    with pytest.raises(ValueError):
        fast.solve_line(plan, fast.MAX_LENGTH + 1, (1, 1))
    with pytest.raises(ValueError):
        fast.solve_line(plan, 5, (-1, 31))
    with pytest.raises(TypeError):
        fast.solve_line(plan, 5, ("x", 31))


@st.composite
def explanation_case(draw):
    """A line's level-0 masks (`base`), the removals made since (`removed`), and a step they imply: a colour
    gone from a cell (i, k), or a contradiction (i = k = -1), as Cdcl._shrink hands them to _narrow."""
    ncol = draw(st.sampled_from([2, 2, 3]))
    n = draw(st.integers(1, 70))
    runs = draw(st.lists(st.tuples(st.integers(0, ncol - 1), st.integers(1, 6)), min_size=1, max_size=30))
    source = ([v for v, k in runs for _ in range(k)] + [0] * n)[:n]
    clue = tuple((b.length, b.color) for b in line_clue(source))
    full = (1 << n) - 1
    base = [full & ~(draw(st.integers(0, full)) & ~sum(1 << i for i, v in enumerate(source) if v == c))
            if draw(st.booleans()) else full for c in range(ncol)]  # level-0 facts keep the source line
    removed = [base[c] & draw(st.integers(0, full)) for c in range(ncol)]
    masks = [base[c] & ~removed[c] for c in range(ncol)]
    result = solve_planned(plan_of(clue), n, masks)
    if result is None:
        return clue, n, base, removed, -1, -1
    steps = [(i, c) for c in range(ncol) for i in range(n) if (masks[c] >> i) & 1 and not (result[c] >> i) & 1]
    if not steps:
        i, c = draw(st.integers(0, n - 1)), draw(st.integers(0, ncol - 1))  # no step: every window fails
        return clue, n, base, removed, i, c
    i, c = draw(st.sampled_from(steps))
    return clue, n, base, removed, i, c


@needs_c
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=explanation_case())
def test_c_explanations_equal_python(case):
    """fast.narrow and Cdcl._narrow pick the same removals (so the CDCL search learns the same clauses
    and takes the same path with either line solver); tests/test_native.py checks that they imply the step."""
    from nonocp.engines.native.cdcl import Cdcl

    clue, n, base, removed, i, k = case
    engine = Engine(Puzzle((tuple(Block(length, colour) for length, colour in clue),),
                           tuple((Block(1),) for _ in range(n)), palette_of(len(base))))
    cdcl = Cdcl.__new__(Cdcl)  # only what _narrow reads: the engine (its C line_result) and ncol
    cdcl.e, cdcl.ncol = engine, len(base)
    expected = cdcl._narrow(0, base, removed, i, k)
    got, solves = fast.narrow(fast.plans_for([clue], [n], len(base))[0], n, base, removed, i, k, Cdcl.GREEDY_MAX)
    assert got == expected
    assert solves == engine.stats.line_solves  # the same line solves, one by one


@needs_c
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data(), size=st.integers(1, 40), children=st.integers(1, 4), bits=st.sampled_from([8, 70, 200]))
def test_c_union_of_probed_states_equals_python(data, size, children, bits):
    state = data.draw(st.lists(st.integers(0, (1 << bits) - 1), min_size=size, max_size=size))
    kids = [[x & data.draw(st.integers(0, (1 << bits) - 1)) if data.draw(st.booleans()) else x for x in state]
            for _ in range(children)]
    union = kids[0]
    for kid in kids[1:]:
        union = [a | b for a, b in zip(union, kid, strict=True)]
    got = fast.union_if_narrower(state, kids)
    assert (got is None) == (union == state)
    if got is not None:
        assert got == union


def _python_most_active(cnt, activity):
    best, best_a = -1, -1.0
    for cell, (c, a) in enumerate(zip(cnt, activity, strict=True)):
        if c > 1 and a > best_a:
            best, best_a = cell, a
    return best


@needs_c
def test_c_cdcl_loops_take_the_same_search_path(monkeypatch):
    """The CDCL's loops in C (cdcl_propagate, cdcl_undo, most_active, cdcl_shrink, cdcl_analyze) work on the search's
    own lists in Python's order: the same conflicts, restarts, nodes and solutions, in the same order, as the
    Python ones (on random sparse grids, which make the search conflict; tests/test_native.py checks the
    answers against brute force and the explanations)."""
    import random

    from nonocp.core.grid import Grid
    from nonocp.engines import SolveOptions
    from nonocp.engines.native import NativeBackend
    from nonocp.engines.native.cdcl import Cdcl

    rng = random.Random(3)
    conflicts = 0
    for _ in range(25):
        ncol = rng.choice([2, 2, 3])
        w, h, density = rng.randint(8, 16), rng.randint(8, 16), rng.uniform(0.3, 0.5)
        grid = Grid.from_rows([[rng.randrange(1, ncol) if rng.random() < density else 0 for _ in range(w)]
                               for _ in range(h)])
        puzzle = puzzle_from_grid(grid, palette_of(ncol))
        options = SolveOptions(max_solutions=5, extra={"probe": False})
        with monkeypatch.context() as m:
            m.setattr(Cdcl, "_propagate", Cdcl._propagate_python)
            m.setattr(fast, "cdcl_undo", Cdcl._undo_python)
            m.setattr(fast, "most_active", _python_most_active)
            m.setattr(Cdcl, "_shrink", Cdcl._shrink_python)
            m.setattr(Cdcl, "_analyze", Cdcl._analyze_python)
            expected = NativeBackend().solve(puzzle, options)
        got = NativeBackend().solve(puzzle, options)
        keys = ("conflicts", "restarts", "nodes", "max_depth", "line_solves")
        assert {k: got.stats[k] for k in keys} == {k: expected.stats[k] for k in keys}
        assert got.solutions == expected.solutions and got.status is expected.status
        conflicts += got.stats["conflicts"]
    assert conflicts > 100  # the search did conflict, so learning and backjumps were compared too
    assert _python_most_active([1, 2, 3, 2], [9.0, 0.5, 0.5, 0.7]) == fast.most_active([1, 2, 3, 2],
                                                                                        [9.0, 0.5, 0.5, 0.7]) == 3
    assert fast.most_active([1, 1], [0.0, 0.0]) == -1
