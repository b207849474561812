"""Memory in proportion to the puzzle, and a clear refusal where a puzzle cannot fit (engines/memory.py).

The measured figures are in benchmarks/results/memory.md (benchmarks/memory.py); these tests check the
mechanisms on small puzzles with small budgets: the sat engine sizes its CNF before writing it and picks
a leaner solver or refuses, auto falls back to native search, a forked child cannot pass its cap, the
CNF's flat storage holds the same clauses, and the native engine does not build search tables for a
puzzle line logic has decided."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings

from conftest import PUZZLES, examples
from nonocp.core.errors import NonocpError
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Block, Meta, Puzzle, clues_of
from nonocp.core.result import Status
from nonocp.encode.cnf import ClauseStore, cnf_size, encode_puzzle
from nonocp.engines import SolveOptions, get_backend, memory
from nonocp.engines.forked import call_in_child
from nonocp.formats import load
from oracle import brute_force
from strategies import puzzles_with_grid

NONOCP = [sys.executable, "-m", "nonocp.cli"]


def puzzle_of(grid: Grid) -> Puzzle:
    rows, cols = clues_of(grid)
    return Puzzle(rows, cols, Palette.black_and_white(), Meta())


@pytest.mark.parametrize(("text", "size"), [("2G", 2 << 30), ("1.5GB", 3 << 29), ("800M", 800 << 20),
                                            ("800MiB", 800 << 20), ("1048576", 1 << 20), (" 64k ", 64 << 10)])
def test_parse_size(text, size):
    assert memory.parse_size(text) == size


def test_a_bad_budget_is_a_one_line_error(tmp_path):
    r = subprocess.run([*NONOCP, "solve", str(PUZZLES / "heart.non"), "-b", "sat"], capture_output=True, text=True,
                       env={**os.environ, "NONOCP_MEMORY": "lots"}, timeout=120)
    assert r.returncode == 2 and r.stderr.strip().startswith("nonocp: NONOCP_MEMORY='lots': not a memory size")


def test_sat_refuses_a_cnf_over_the_budget_with_what_it_needs(tmp_path):
    """Through the command: a budget smaller than the formula, a one-line refusal (exit 2) saying how much
    it would need and how to allow it, before any clause is written."""
    r = subprocess.run([*NONOCP, "solve", str(PUZZLES / "heart.non"), "-b", "sat"], capture_output=True, text=True,
                       env={**os.environ, "NONOCP_MEMORY": "1M"}, timeout=120)
    assert r.returncode == 2
    line = r.stderr.strip()
    assert line.startswith("nonocp: sat: the CNF (") and "would need about" in line
    assert "set NONOCP_MEMORY=" in line and "\n" not in line


def _budget_between(puzzle: Puzzle, low: str, high: str, monkeypatch) -> None:
    """Make the available memory sit between what solver `low` and solver `high` need for `puzzle`."""
    from nonocp.engines.sat import formula_bytes, solver_bytes

    size = cnf_size(puzzle)
    cells = puzzle.width * puzzle.height
    need_low = formula_bytes(size, cells) + solver_bytes(low, size.clauses)
    need_high = formula_bytes(size, cells) + solver_bytes(high, size.clauses)
    assert need_low < need_high
    monkeypatch.setattr(memory, "available", lambda options=None: (need_low + need_high) // 2)


def test_sat_falls_back_to_minisat_only_for_the_default_solver(monkeypatch):
    puzzle = load(str(PUZZLES / "heart.non"))[0]
    _budget_between(puzzle, "minisat22", "cadical195", monkeypatch)
    options = SolveOptions(extra={"hard_stop": False})
    result = get_backend("sat").solve(puzzle, options)
    assert result.status is Status.UNIQUE and result.backend == "sat:minisat22"
    assert "cadical195" in result.stats["solver_for_memory"]
    with pytest.raises(memory.OverBudget, match=r"^sat: the CNF .* in cadical195 would need about"):
        get_backend("sat:cadical195").solve(puzzle, options)  # named by the user: kept, so refused


def test_auto_finishes_with_native_search_when_the_sat_stage_cannot_fit(monkeypatch):
    from nonocp.engines.sat import SatBackend

    def no_room(self, puzzle, options, size=None, deadline=None):
        raise memory.OverBudget("sat: the CNF would need about 9 GB")

    monkeypatch.setattr(SatBackend, "plan", no_room)
    grid = Grid(((1, 0, 1, 1), (0, 1, 1, 0), (1, 1, 0, 1), (0, 1, 0, 0)))  # not line-solvable alone? either way
    puzzle = puzzle_of(grid)
    # the fallback after the SAT stage was sized: without the native search's slice, which would decide first
    result = get_backend("auto").solve(puzzle, SolveOptions(max_solutions=None, extra={"native_first": False}))
    every = brute_force(puzzle)
    assert set(result.solutions) == set(every) and result.exhausted
    if result.stats["phase"] != "native":  # line logic left cells open: the SAT stage was wanted
        assert result.backend == "auto:native" and result.stats["phase"] == "native search"
        assert "9 GB" in result.stats["sat_skipped"]


def test_auto_native_fallback_on_a_puzzle_line_logic_leaves_open(monkeypatch):
    from nonocp.engines.sat import SatBackend

    def no_room(self, puzzle, options, size=None, deadline=None):
        raise memory.OverBudget("no room")

    monkeypatch.setattr(SatBackend, "plan", no_room)
    n = 5  # every clue `1`: line logic decides nothing, 120 solutions
    rows = ((Block(1, 1),),) * n
    puzzle = Puzzle(rows, rows, Palette.black_and_white(), Meta())
    result = get_backend("auto").solve(puzzle, SolveOptions(max_solutions=None, extra={"native_first": False}))
    assert result.backend == "auto:native" and len(set(result.solutions)) == 120 and result.exhausted
    assert result.stats["sat_skipped"] == "no room"


def test_a_forked_child_cannot_pass_its_cap():
    """Python in the child: MemoryError at the cap becomes OverBudget; a library that crashes at the cap
    (CP-SAT does) is reported as out of memory too, not as a bug."""

    def hog(send):
        return bytearray(512 << 20)  # 512 MB, over a 64 MB cap

    with pytest.raises(memory.OverBudget, match="ran out of its memory budget"):
        call_in_child(hog, None, memory=64 << 20)

    def crash(send):
        import faulthandler

        faulthandler.disable()  # pytest's would print the child's stack
        os.abort()

    with pytest.raises(memory.OverBudget, match="needed more than the 64 MB"):
        call_in_child(crash, None, memory=64 << 20)


@settings(max_examples=examples(40), deadline=None)
@given(puzzles_with_grid(max_size=6))
def test_clause_store_holds_the_same_clauses_as_the_templates(puzzle_and_grid):
    """The flat store, read back clause by clause, is the formula: the size reported before writing bounds
    what was written, and every clause is non-empty and 0-free."""
    puzzle, _ = puzzle_and_grid
    reported = []
    cnf = encode_puzzle(puzzle, check=reported.append)
    clauses = [list(c) for c in cnf.clauses]
    assert len(clauses) == len(cnf.clauses) <= reported[0].clauses
    assert all(c and 0 not in c for c in clauses)
    assert ClauseStore(clauses).lits == cnf.clauses.lits


def test_native_builds_no_search_tables_when_line_logic_decides_every_cell(monkeypatch):
    """The CDCL search's tables cost hundreds of bytes a cell (hundreds of MB at 2000x2000): not built for
    a puzzle that line logic has decided (here a 300x300 empty grid)."""
    import nonocp.engines.native.backend as backend

    def no_search(*args, **kwargs):
        raise AssertionError("the search ran")

    monkeypatch.setattr(backend, "cdcl_enumerate", no_search)
    empty = Puzzle(((),) * 300, ((),) * 300, Palette.black_and_white(), Meta())
    result = get_backend("native").solve(empty, SolveOptions())
    assert result.status is Status.UNIQUE and result.solutions[0] == Grid(((0,) * 300,) * 300)


def test_pictures_too_big_to_draw_are_refused(monkeypatch):
    from nonocp.render import geometry, render_png, render_svg

    monkeypatch.setattr(geometry, "MAX_PIXELS", 10_000)
    puzzle = load(str(PUZZLES / "heart.non"))[0]
    for render in (render_svg, render_png):
        with pytest.raises(NonocpError, match="pictures stop at"):
            render(puzzle, None)
