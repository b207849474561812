"""The cpsat engine beyond the shared conformance suite: both uniqueness modes and both colour cell models
against the brute-force oracle, the per-line domain cuts, options, statistics, and corpus puzzles."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import backend_or_skip, corpus_path, examples
from nonocp.core.errors import NonocpError
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.result import Status
from nonocp.encode.automaton import clue_automaton
from nonocp.engines import SolveOptions, get_backend
from oracle import brute_force, line_solutions
from strategies import palette_of, puzzle_from_grid, puzzles_with_grid

VARIANTS = ["", "block", "bool", "block,bool", "plain", "block,plain"]


def backend(variant: str = ""):
    return backend_or_skip("cpsat" + (f":{variant}" if variant else ""))


def solve(puzzle: Puzzle, limit: int | None = 2, variant: str = "", **kwargs):
    return backend(variant).solve(puzzle, SolveOptions(max_solutions=limit, **kwargs))


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


RGB = palette_of(4)
PERMUTATIONS_4 = Puzzle((B(1),) * 4, (B(1),) * 4)  # 24 solutions


def test_available_does_not_import_ortools():
    code = (
        "import sys; from nonocp.engines.cpsat import CpsatBackend; "
        "assert CpsatBackend().available(); "
        "assert not any(m.startswith('ortools') for m in sys.modules), sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_version_names_ortools():
    assert backend().version().startswith("ortools ")


def test_unknown_variant_is_an_error():
    with pytest.raises(NonocpError):
        get_backend("cpsat:nonsense")


# --- the per-line domain cuts -------------------------------------------------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(
    lengths=st.lists(st.integers(1, 3), max_size=3),
    colors=st.lists(st.integers(1, 2), min_size=3, max_size=3),
    extra=st.integers(0, 3),
)
def test_allowed_colors_are_exact_for_one_line(lengths, colors, extra):
    from nonocp.core.puzzle import min_length
    from nonocp.engines.cpsat import allowed_colors

    clue = tuple(Block(n, c) for n, c in zip(lengths, colors, strict=False))
    n = max(1, min_length(clue) + extra)
    lines = line_solutions(clue, n, 3)
    expected = [{line[p] for line in lines} for p in range(n)]
    assert allowed_colors(clue_automaton(clue), n) == expected


def test_overlap_cells_are_fixed_before_search():
    # a 5-wide row with clue 4 fixes its three middle cells; columns agree
    puzzle = Puzzle((B(4), ()), (B(1), B(1), B(1), B(1), ()))
    result = solve(puzzle)
    assert result.unique and result.solutions[0] == Grid.from_rows([[1, 1, 1, 1, 0], [0, 0, 0, 0, 0]])
    assert result.stats["fixed_cells"] >= 8


def test_contradiction_in_domains_means_no_solution():
    # row 0 must be full, column 0 must be empty: every total agrees, no search needed
    puzzle = Puzzle((B(2), ()), ((), B(2))).validate()
    for variant in VARIANTS:
        result = solve(puzzle, None, variant)
        assert result.status is Status.NONE and result.exhausted and result.solutions == ()


def test_fully_fixed_line_is_checked_against_its_clue():
    # Each cell of row 0 alone may be black (clue 1 on 2 cells), but both black is not a "1".
    puzzle = Puzzle((B(1), B(1)), (B(1), B(1)))
    fixed = {(0, 0): 0b10, (0, 1): 0b10}
    for variant in VARIANTS:
        result = solve(puzzle, None, variant, fixed=fixed)
        assert result.status is Status.NONE and result.exhausted


# --- counts 0 / 1 / 2 / many, every variant ------------------------------------------------------------

COUNTS = [
    ("none", Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ())), 0),
    ("unique", Puzzle((B(1, 1), (), B(1, 1)), (B(1, 1), (), B(1, 1))), 1),
    ("two", Puzzle((B(1), B(1)), (B(1), B(1))), 2),
    ("many", PERMUTATIONS_4, 24),
    ("colour unique", Puzzle(((Block(1, 1), Block(1, 2)),), ((Block(1, 1),), (Block(1, 2),)), RGB), 1),
    (
        "colour two",
        Puzzle(((Block(1, 1),), (Block(1, 1),)), ((Block(1, 1),), (Block(1, 1),)), RGB),
        2,
    ),
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("case", COUNTS, ids=[c[0] for c in COUNTS])
def test_counts(variant, case):
    _, puzzle, count = case
    assert len(brute_force(puzzle)) == count
    every = solve(puzzle, None, variant)
    assert every.exhausted and len(set(every.solutions)) == len(every.solutions) == count
    assert all(puzzle.is_solution(g) for g in every.solutions)
    two = solve(puzzle, 2, variant)
    assert two.status is {0: Status.NONE, 1: Status.UNIQUE}.get(count, Status.MULTIPLE)
    one = solve(puzzle, 1, variant)
    # with one solution asked for, "solved" -- or "unique" when the cuts fixed every cell before search
    assert one.status in ({Status.NONE} if count == 0 else {Status.SOLVED, Status.UNIQUE})
    assert len(one.solutions) == min(1, count)


@pytest.mark.parametrize("variant", ["enumerate", "block"])
def test_limit_five_of_many(variant):
    result = solve(PERMUTATIONS_4, 5, variant)
    assert result.status is Status.MULTIPLE and not result.exhausted
    assert len(set(result.solutions)) == 5


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=puzzles_with_grid(max_size=4, ncolors_choices=(3, 4)))
def test_colour_puzzles_match_brute_force(variant, data):
    puzzle, grid = data
    expected = set(brute_force(puzzle))
    result = solve(puzzle, None, variant)
    assert result.exhausted and set(result.solutions) == expected
    assert len(result.solutions) == len(expected)


# --- options and statistics ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["enumerate", "block"])
def test_zero_time_limit_times_out_without_searching(variant):
    result = solve(PERMUTATIONS_4, 2, variant, time_limit=0.0)
    assert result.status is Status.TIMEOUT and not result.exhausted and result.solutions == ()


def test_model_building_checks_the_deadline():
    import time

    from nonocp.core.errors import OutOfTime
    from nonocp.engines.cpsat import build_model

    with pytest.raises(OutOfTime):
        build_model(PERMUTATIONS_4, deadline=time.monotonic() - 1.0)
    assert build_model(PERMUTATIONS_4, deadline=None).cells  # no deadline: never raises
    result = solve(PERMUTATIONS_4, 2, time_limit=0.0)  # deadline = start: the first check in the build fires
    assert result.status is Status.TIMEOUT and result.stats["solves"] == 0


def test_the_ortools_import_is_not_counted_in_the_budget(monkeypatch):
    """The clock starts after the import (8-14 s here on a loaded machine; it once ate a whole 30 s budget
    before the first solve), and the import is reported on its own."""
    import time

    from nonocp.engines import cpsat

    real = cpsat._cp_model
    calls: list[int] = []

    def slow_first_import():
        if not calls:
            time.sleep(0.3)
        calls.append(1)
        return real()

    monkeypatch.setattr(cpsat, "_cp_model", slow_first_import)
    began = time.monotonic()
    result = solve(PERMUTATIONS_4, 2)
    wall = time.monotonic() - began
    assert result.stats["import_seconds"] >= 0.3
    # `seconds` is measured after the (slow) import returned, so it cannot contain those 0.3 s
    assert result.seconds <= wall - 0.3
    assert result.status is Status.MULTIPLE


@pytest.mark.slow  # it needs Knotty to stay hard for CP-SAT
@pytest.mark.parametrize("variant", ["enumerate", "block"])
def test_small_budget_on_a_hard_puzzle_times_out(variant):
    """Knotty: CP-SAT does not decide it in minutes (published: not in 300 s), so a 0.5 s budget must
    end in `timeout` (with any solution found so far valid), in both modes."""
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", "webpbn-knotty.txt")))[0]
    result = solve(puzzle, 2, variant, time_limit=0.5)
    assert result.status is Status.TIMEOUT and not result.exhausted
    assert len(result.solutions) <= 1 and all(puzzle.is_solution(g) for g in result.solutions)


@pytest.mark.parametrize("variant", ["enumerate", "block"])
def test_enumeration_cut_by_the_budget_keeps_the_solutions_found(variant):
    """10x10 permutations: 3,628,800 solutions, far more than 0.5 s can enumerate; what was found is kept."""
    puzzle = Puzzle((B(1),) * 10, (B(1),) * 10)
    result = solve(puzzle, None, variant, time_limit=0.5)
    assert not result.exhausted
    assert result.status in (Status.MULTIPLE, Status.TIMEOUT)  # multiple as soon as two were found
    assert len(set(result.solutions)) == len(result.solutions) < 3_628_800
    assert all(puzzle.is_solution(g) for g in result.solutions)


def test_stats_carry_cpsat_counters():
    result = solve(PERMUTATIONS_4, None)
    for key in ("conflicts", "branches", "wall_time", "deterministic_time", "solves", "workers"):
        assert key in result.stats
    assert result.stats["uniqueness"] == "enumerate" and result.stats["solves"] == 1
    blocked = solve(PERMUTATIONS_4, None, "block")
    assert blocked.stats["solves"] == 25  # 24 solutions, then INFEASIBLE


@pytest.mark.parametrize("variant", ["enumerate", "block"])
@pytest.mark.parametrize("workers", [1, 2])
def test_workers_and_seed(variant, workers):
    result = solve(PERMUTATIONS_4, None, variant, workers=workers, seed=7)
    assert result.exhausted and len(set(result.solutions)) == 24
    assert result.stats["workers"] == (workers if variant == "block" else 1)  # enumeration is sequential


def test_raw_parameters_pass_through_and_unknown_ones_fail():
    result = solve(PERMUTATIONS_4, 2, extra={"params": {"symmetry_level": 0}, "uniqueness": "block"})
    assert result.status is Status.MULTIPLE
    with pytest.raises(NonocpError):
        solve(PERMUTATIONS_4, 2, extra={"params": {"no_such_parameter": 1}})


@pytest.mark.parametrize("variant, extra, light", [("", {}, True), ("", {"probing": "full"}, False),
                                                     ("plain", {}, False), ("block", {}, True)])
def test_probing_level_sets_cp_sat_parameters(monkeypatch, variant, extra, light):
    """Light probing (the default) caps CP-SAT's presolve rounds and search-start probing; "full" and the
    plain variant leave CP-SAT's own values. Either way the answer is the same."""
    from nonocp.engines.cpsat import LIGHT_PROBING_PARAMS, CpsatBackend

    seen = []
    original = CpsatBackend._solver

    def spy(self, *args):
        solver = original(self, *args)
        seen.append({key: getattr(solver.parameters, key) for key in LIGHT_PROBING_PARAMS})
        return solver

    monkeypatch.setattr(CpsatBackend, "_solver", spy)
    # in this process: the spy cannot hear a forked child
    result = solve(PERMUTATIONS_4, None, variant=variant, extra={**extra, "hard_stop": False})
    assert result.exhausted and len(set(result.solutions)) == 24
    assert result.stats["probing"] == ("light" if light else "full")
    from ortools.sat.python import cp_model

    fresh = cp_model.CpSolver().parameters
    cp_sat_own = {key: getattr(fresh, key) for key in LIGHT_PROBING_PARAMS}
    assert cp_sat_own != LIGHT_PROBING_PARAMS  # else this test could not tell the levels apart
    assert seen and all(s == (LIGHT_PROBING_PARAMS if light else cp_sat_own) for s in seen)


def test_progress_is_called_per_solution():
    seen = []
    solve(PERMUTATIONS_4, 3, progress=seen.append)
    assert [d["solutions"] for d in seen] == [1, 2, 3]


def test_collector_ignores_repeated_solutions():
    """The guard for OR-Tools reporting one solution twice (issues #4376/#4268 in 9.11)."""
    from nonocp.engines.cpsat import _Collector
    from nonocp.engines.found import Found

    streamed = []
    found = Found(on_solution=streamed.append, distinct=True)
    collector = _Collector([[1, 0], [0, 1]], 2, None, None, found)  # fixed cells: no solver needed to read them
    collector.on_solution_callback()
    collector.on_solution_callback()
    assert found.grids() == (Grid.from_rows([[1, 0], [0, 1]]),) and len(found) == 1 and collector.repeats == 1
    assert streamed == [Grid.from_rows([[1, 0], [0, 1]])]  # streamed once
    assert not collector.stopped


def test_blocking_clause_uses_painted_cells_only():
    """A second solution always differs on a cell the first one paints (the clues fix the counts)."""
    from nonocp.engines.cpsat import build_model

    puzzle = Puzzle((B(1), B(1)), (B(1), B(1)))
    built = build_model(puzzle)  # the block mode's model
    first = Grid.from_rows([[1, 0], [0, 1]])
    assert built.forbid(first)
    assert len(built.differs) == 2  # the two painted cells, not all four


# --- corpus puzzles ------------------------------------------------------------------------------------

SURVEY_FAST = ["webpbn-00001-demo.txt", "webpbn-00006-Scardy Cat.txt", "webpbn-00023-Test Pattern.txt"]


@pytest.mark.parametrize("name", SURVEY_FAST)
def test_survey_puzzles_are_unique_and_equal_their_goal(name):
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", name)))[0]
    result = solve(puzzle)
    assert result.unique and result.solutions == (puzzle.meta.goal,)


@pytest.mark.parametrize("name", ["webpbn-color-00047.xml", "webpbn-color-00220.xml"])
@pytest.mark.parametrize("variant", ["", "bool"])
def test_colour_survey_puzzles(name, variant):
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "xml-free", name)))[0]
    result = solve(puzzle, 2, variant)
    assert result.unique and result.solutions == (puzzle.meta.goal,)


def test_random_colour_picture_has_its_source_among_solutions():
    import random

    rng = random.Random(4)
    rows = [[rng.choice([0, 0, 1, 2, 3, 4]) for _ in range(12)] for _ in range(12)]
    grid = Grid.from_rows(rows)
    puzzle = puzzle_from_grid(grid, palette_of(5))
    result = solve(puzzle, 2)
    assert result.status in (Status.UNIQUE, Status.MULTIPLE)
    assert all(puzzle.is_solution(g) for g in result.solutions)
    if result.unique:
        assert result.solutions == (grid,)
