"""The auto hybrid (native propagation, then SAT on what is left): the same answers as the oracle."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import PUZZLES, corpus_path, examples
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.result import Status
from nonocp.engines import SolveOptions, get_backend
from oracle import brute_force
from strategies import grids, palette_of, puzzle_from_grid, puzzles_with_grid


def B(*lengths: int):
    return tuple(Block(n) for n in lengths)


# the default (the native search after line logic), the SAT stage straight after line logic, and after probing
@pytest.mark.parametrize("extra", [{}, {"native_first": False}, {"native_first": False, "probe": True}])
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3, 4)))
def test_random_small_puzzles_match_brute_force(extra, data):
    puzzle, _ = data
    expected = set(brute_force(puzzle))
    result = get_backend("auto").solve(puzzle, SolveOptions(max_solutions=None, extra=extra))
    assert result.exhausted
    assert len(result.solutions) == len(expected) and set(result.solutions) == expected


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=grids(12, 12, 3, density=0.6))
def test_larger_grids_have_their_source_among_solutions(data):
    puzzle = puzzle_from_grid(data, palette_of(3))
    result = get_backend("auto").solve(puzzle, SolveOptions(max_solutions=2))
    assert result.status in (Status.UNIQUE, Status.MULTIPLE)
    assert all(puzzle.is_solution(g) for g in result.solutions)
    if result.status is Status.UNIQUE:
        assert result.solutions == (data,)


def test_counts_and_phases():
    auto = get_backend("auto")
    line_solvable = Puzzle((B(2), B(1)), (B(2), B(1)))
    r = auto.solve(line_solvable, SolveOptions())
    assert r.status is Status.UNIQUE and r.stats["phase"] == "native"
    perms = Puzzle((B(1),) * 4, (B(1),) * 4)  # nothing to propagate: all 24 come from the search after it
    r = auto.solve(perms, SolveOptions(max_solutions=None))  # by default the native search's (its slice)
    assert r.exhausted and len(set(r.solutions)) == 24 and r.stats["phase"] == "native search"
    assert r.backend == "auto:native" and r.stats["decided_by"] == "native line logic + native CDCL"
    r = auto.solve(perms, SolveOptions(max_solutions=None, extra={"native_first": False}))
    assert r.exhausted and len(set(r.solutions)) == 24 and r.stats["phase"] == "sat"
    assert r.stats["decided_by"].startswith("native + ")
    unsat = Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ()))
    assert auto.solve(unsat, SolveOptions()).status is Status.NONE


def test_fixed_cells_and_solver_variant():
    """A named SAT solver is the one that searches: no native slice before it unless asked for."""
    perms = Puzzle((B(1),) * 3, (B(1),) * 3)
    r = get_backend("auto:glucose4").solve(perms, SolveOptions(max_solutions=None, fixed={(1, 1): 0b10}))
    assert r.exhausted and len(r.solutions) == 2 and all(g.cells[1][1] == 1 for g in r.solutions)
    assert r.backend == "auto:glucose4" and r.stats["phase"] == "sat"
    r = get_backend("auto:glucose4").solve(perms, SolveOptions(max_solutions=None, fixed={(1, 1): 0b10},
                                                               extra={"native_first": True}))
    assert r.exhausted and len(r.solutions) == 2 and all(g.cells[1][1] == 1 for g in r.solutions)
    assert r.backend == "auto:native" and r.stats["phase"] == "native search"


def test_native_first_stays_off_for_a_proof_and_for_puzzles_the_compiled_core_does_not_take(tmp_path, monkeypatch):
    """A DRAT proof must come from the SAT stage alone; count clues, and every puzzle in a build without the
    compiled core (the reference core's search would be slower than SAT), go from line logic to SAT."""
    from nonocp.engines.native import core
    from nonocp.formats import load

    unsat = Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ()))
    r = get_backend("auto").solve(unsat, SolveOptions(extra={"proof_dir": str(tmp_path)}))
    assert r.status is Status.NONE and r.stats["phase"] == "sat" and r.proof is not None
    counts = load(str(PUZZLES / "counts-cat.counts"))[0]  # two solutions: line logic leaves cells open
    r = get_backend("auto").solve(counts, SolveOptions())
    assert counts.has_counts and r.status is Status.MULTIPLE and r.stats["phase"] == "sat"
    monkeypatch.setattr(core, "fits", lambda height, width, ncol: False)
    r = get_backend("auto").solve(Puzzle((B(1),) * 4, (B(1),) * 4), SolveOptions(max_solutions=None))
    assert r.stats["phase"] == "sat" and len(r.solutions) == 24


def test_survey_goal():
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", "webpbn-00006-Scardy Cat.txt")))[0]
    r = get_backend("auto").solve(puzzle, SolveOptions())
    assert r.status is Status.UNIQUE and r.solutions == (puzzle.meta.goal,)


def test_the_native_search_has_a_budget_of_cpu_seconds_not_a_wall_clock_slice(monkeypatch):
    """On a busy machine a wall-clock slice is a few CPU seconds: the native stage gets CPU seconds (and the
    user's time limit, here none), so what it decides alone on a quiet machine it decides there too."""
    import nonocp.engines.auto as auto_module
    from nonocp.engines.contract import Budget
    from nonocp.engines.native.backend import NativeBackend

    seen = []
    real = NativeBackend.solve
    monkeypatch.setattr(NativeBackend, "solve", lambda self, p, o: seen.append(o) or real(self, p, o))
    perms = Puzzle((B(1),) * 4, (B(1),) * 4)
    r = get_backend("auto").solve(perms, SolveOptions(max_solutions=None))
    assert r.exhausted and r.stats["phase"] == "native search"
    (options,) = seen
    assert options.budget == Budget(cpu_seconds=auto_module.NATIVE_CPU) and options.time_limit is None


def test_a_spent_native_budget_hands_over_to_sat_with_the_count_exact(monkeypatch):
    import nonocp.engines.auto as auto_module

    monkeypatch.setattr(auto_module, "NATIVE_CPU", 0.0)
    perms = Puzzle((B(1),) * 4, (B(1),) * 4)
    r = get_backend("auto").solve(perms, SolveOptions(max_solutions=None, workers=1))
    assert r.exhausted and len(set(r.solutions)) == 24 and r.stats["phase"] == "sat"
    assert r.stats["native_first"].startswith("undecided after its budget of 0 CPU s")


def test_auto_speaks_to_the_other_engines_through_the_contract_only():
    """auto.py imports no engine's module: the registry and the contract (and the engines' shared plumbing)."""
    import ast

    import nonocp.engines.auto as auto_module

    tree = ast.parse(open(auto_module.__file__, encoding="utf-8").read())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    engines = {m for m in imported if m.startswith("nonocp.engines")}
    plumbing = {"nonocp.engines", "nonocp.engines.contract", "nonocp.engines.forked", "nonocp.engines.found"}
    assert engines <= plumbing, engines
