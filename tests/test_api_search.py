"""The Python API's search controls, on every engine: fixed cells (assumptions) against brute force, the stream
of solutions (nothing held, stoppable), cancellation from another thread, and progress reports."""

from __future__ import annotations

import gc
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.conftest import examples
from tests.oracle import brute_force
from tests.procs import children
from tests.strategies import puzzles_with_grid

import nonocp
from nonocp.core.grid import Grid


def permutations(n: int) -> nonocp.Puzzle:
    """n x n, every row and column `1`: n! solutions (20! is about 2.4 * 10**18)."""
    return nonocp.Puzzle.from_clues([[1]] * n, [[1]] * n, title=f"perm{n}")


def pigeonhole() -> tuple[nonocp.Puzzle, dict[tuple[int, int], int]]:
    """(puzzle, fixed) with no solution that every engine takes long to prove (over 40 s for sat and cpsat: 15
    rows must put their one black cell in 14 columns), finding nothing on the way: a long search holding
    nothing."""
    n, k = 28, 14
    return permutations(n), {(r, c): 0 for r in range(k + 1) for c in range(k, n)}


# ---- fixed cells -----------------------------------------------------------------------------------


@st.composite
def fixings(draw):
    """(puzzle, fixed, allowed): a random puzzle, some of its cells fixed (to one colour, or a set of colours)
    in the API's mapping form, and per cell the colours that leaves (for the oracle)."""
    puzzle, grid = draw(puzzles_with_grid(max_size=4, ncolors_choices=(2, 3)))
    ncol = len(puzzle.palette)
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    chosen = draw(st.lists(st.sampled_from(cells), unique=True, max_size=len(cells)))
    fixed, allowed = {}, {}
    for r, c in chosen:
        colours = draw(st.sets(st.integers(0, ncol - 1), min_size=1, max_size=ncol))
        if draw(st.booleans()):  # often the goal's own colour: the puzzle stays solvable
            colours = {grid.cells[r][c]}
        # written each way the API takes a colour: an index, a set of indices, a name, a symbol
        form = draw(st.integers(0, 3))
        if len(colours) > 1 or form == 1:
            fixed[(r, c)] = set(colours)
        elif form == 0:
            fixed[(r, c)] = next(iter(colours))
        elif form == 2:
            fixed[(r, c)] = puzzle.palette[next(iter(colours))].name
        else:
            fixed[(r, c)] = puzzle.palette[next(iter(colours))].symbol
        allowed[(r, c)] = colours
    return puzzle, fixed, allowed


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=fixings())
def test_fixed_cells_agree_with_brute_force(engine_name, case):
    """"Is it still unique with these cells given?" on every engine: the solutions with `fixed` are exactly
    the brute-force solutions whose cells lie in the allowed colours."""
    puzzle, fixed, allowed = case
    expected = {g for g in brute_force(puzzle)
                if all(g.cells[r][c] in colours for (r, c), colours in allowed.items())}
    result = nonocp.solve(puzzle, engine_name, fixed=fixed, max_solutions=None)
    assert result.exhausted
    assert set(result.solutions) == expected and len(result.solutions) == len(expected)
    want = "none" if not expected else "unique" if len(expected) == 1 else "multiple"
    assert str(result.status) == want
    # the question in three lines: is it still unique with these cells given?
    assert nonocp.solve(puzzle, engine_name, fixed=fixed).unique == (len(expected) == 1)


def test_fixed_cells_as_rows_of_symbols_and_as_a_grid(engine_name):
    p = nonocp.Puzzle.from_clues([[1], [1]], [[1], [1]])  # two solutions: the diagonals
    first = nonocp.solve(p, engine_name, fixed=["#?", "??"])
    second = nonocp.solve(p, engine_name, fixed=[".?", "??"])
    assert first.unique and second.unique and first.solution != second.solution
    again = nonocp.solve(p, engine_name, fixed=first.solution)
    assert again.unique and again.solution == first.solution
    assert str(nonocp.solve(p, engine_name, fixed={(0, 0): "#", (0, 1): "#"}).status) == "none"


@pytest.mark.parametrize("fixed,error,needle", [
    ({(2, 0): 1}, ValueError, "outside the 2x2 grid"),
    ({(0, 0): "purple"}, ValueError, "not a colour of this puzzle"),
    ({(0, 0): 7}, ValueError, "not a colour"),
    ({(0, 0): set()}, ValueError, "allows no colour"),
    ({"a1": 1}, TypeError, "(row, col)"),
    (["#?"], ValueError, "fixed is 2x1 but the puzzle is 2x2"),
    (["#?", "?z"], ValueError, "'z' is not a colour"),
    ("#?", TypeError, "fixed takes"),
    (42, TypeError, "fixed takes"),
])
def test_fixed_cells_refuse_what_they_do_not_understand(fixed, error, needle):
    p = nonocp.Puzzle.from_clues([[1], [1]], [[1], [1]])
    with pytest.raises(error, match=needle.replace("(", r"\(").replace(")", r"\)")):
        nonocp.solve(p, "native", fixed=fixed)


# ---- the stream --------------------------------------------------------------------------------------


def test_the_stream_yields_every_solution_once_holding_none(engine_name):
    p = permutations(5)  # 120 solutions
    stream = nonocp.solutions(p, engine_name)
    grids = list(stream)
    assert len(grids) == 120 and len(set(grids)) == 120 and all(p.is_solution(g) for g in grids)
    result = stream.result
    assert result.found == 120 and result.exhausted and result.solutions == ()
    assert grids[0].to_strings() == grids[0].to_strings(p.palette)  # a streamed grid knows its palette


def test_the_stream_stops_at_max_solutions_and_counts_them(engine_name):
    stream = nonocp.solutions(permutations(6), engine_name, max_solutions=7)
    assert len(list(stream)) == 7
    assert stream.result.found == 7 and stream.result.stop == "limit"


@pytest.mark.parametrize("backend", ["native", "sat", "cpsat", "auto"])
def test_first_of_many_solutions_then_the_stream_stops_cleanly(backend):
    """The first of 20! solutions, then close(): the search ends (its thread and any child process) and
    says it was cancelled."""
    p = permutations(20)
    before = set(children(_pid()))  # earlier files in this xdist worker may leave helpers
    with nonocp.solutions(p, backend) as stream:
        first = next(stream)
        second = next(stream)
    assert p.is_solution(first) and p.is_solution(second) and first != second
    assert stream.result is not None and stream.result.stop == "cancelled" and not stream.result.exhausted
    assert not [t for t in threading.enumerate() if t.name == "nonocp.solutions"]
    assert set(children(_pid())) - before == set()


def test_a_stream_dropped_unfinished_stops_its_search():
    stream = nonocp.solutions(permutations(20), "native")
    next(stream)
    search = stream._search
    del stream
    gc.collect()
    assert search.cancel.cancelled  # the thread sees it at its next check and ends


def test_a_stream_ends_with_the_search_error():
    p = nonocp.Puzzle.from_clues([[1]] * 11, [[1]] * 11)  # 121 cells: over the brute engine's bound
    with pytest.raises(nonocp.BackendUnavailable, match="too big"):
        next(nonocp.solutions(p, "brute"))


# ---- cancellation from another thread -------------------------------------------------------------


@pytest.mark.parametrize("backend", ["native", "sat", "cpsat", "auto"])
def test_cancel_from_another_thread_stops_the_search(backend):
    """A long search with no time limit, cancelled by a timer thread, answers `cancelled` (no verdict) and
    leaves no solver process behind."""
    p, fixed = pigeonhole()
    before = set(children(_pid()))  # earlier files in this xdist worker may leave helpers
    stop = nonocp.Cancel()
    timer = threading.Timer(0.5, stop.cancel)
    timer.start()
    result = nonocp.solve(p, backend, fixed=fixed, cancel=stop)
    timer.join()
    assert result.stop == "cancelled" and str(result.status) == "timeout" and not result.complete
    assert set(children(_pid())) - before == set()


@pytest.mark.parametrize("backend", ["native", "auto"])
def test_a_cancelled_enumeration_keeps_what_it_found(backend):
    p = permutations(20)
    stop = nonocp.Cancel()
    found = []

    def progress(info):
        found.append(info["solutions"])
        stop.cancel()

    result = nonocp.solve(p, backend, max_solutions=10_000, cancel=stop, progress=progress)
    assert result.stop in ("cancelled", "limit") and str(result.status) == "multiple"
    assert len(result.solutions) == result.found and all(p.is_solution(g) for g in result.solutions)


def test_a_cancel_given_before_the_search_stops_it_at_once():
    stop = nonocp.Cancel()
    stop.cancel()
    result = nonocp.solve(permutations(20), "native", max_solutions=None, cancel=stop)
    assert result.stop == "cancelled"


def test_cancel_stops_a_stream_too():
    stop = nonocp.Cancel()
    stream = nonocp.solutions(permutations(20), "native", cancel=stop)
    got = [next(stream) for _ in range(3)]
    stop.cancel()
    rest = list(stream)  # what was on its way, then the end
    assert stream.result.stop == "cancelled" and len(set(got + rest)) == len(got) + len(rest)


# ---- progress -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["native", "sat", "cpsat", "auto"])
def test_progress_reports_while_searching(backend):
    """Reports arrive while a long search runs (about twice a second), each with the seconds since the call
    and the solutions so far; the third report cancels the search (no clock in the test)."""
    p, fixed = pigeonhole()
    stop = nonocp.Cancel()
    reports = []

    def progress(info):
        reports.append(info)
        if len(reports) == 3:
            stop.cancel()

    result = nonocp.solve(p, backend, fixed=fixed, progress=progress, cancel=stop)
    assert result.stop == "cancelled" and len(reports) >= 3
    assert all({"seconds", "solutions"} <= set(r) and r["solutions"] == 0 for r in reports)
    seconds = [r["seconds"] for r in reports]
    assert seconds == sorted(seconds)


def test_progress_of_a_stream_is_called_in_the_readers_thread():
    threads = set()

    def progress(info):
        threads.add(threading.current_thread())

    with nonocp.solutions(permutations(20), "native", progress=progress) as stream:
        for _ in stream:
            if threads:
                break
    assert threads == {threading.current_thread()}


def _pid() -> int:
    import os

    return os.getpid()


def test_grids_of_results_know_their_palette():
    flag = nonocp.Puzzle.from_clues([[(1, "red"), (1, "blue")]], [[(1, "red")], [(1, "blue")]], ["red", "blue"])
    result = nonocp.solve(flag, "native")
    assert result.solution.to_strings() == ["rb"]
    assert str(result.solution) == "rb"
    with pytest.raises(ValueError, match="pass the puzzle's palette"):
        Grid(((1, 2),)).to_strings()
