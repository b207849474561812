"""make_unique and fewest_changes: every proposal is unique (checked here again by engines and, on small
designs, by brute force), differs from the picture in exactly the cells it lists, and is as short as the
exact search on small designs; with max_difficulty LINE, line logic alone solves it."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import PUZZLES, examples
from nonocp import solve
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.core.puzzle import clues_of
from nonocp.design import Change, Design, analyse, apply_changes, changes_between, fewest_changes, make_unique
from nonocp.design.moves import Move, is_valid, kills, move_between, split_move
from nonocp.engines.native import propagate_and_probe
from nonocp.formats import load
from oracle import brute_force
from strategies import palette_of


def random_design(seed: int, w: int, h: int, ncolors: int = 2, density: float = 0.5) -> Design:
    rng = random.Random(seed)
    cells = [[rng.randint(1, ncolors - 1) if rng.random() < density else 0 for _ in range(w)] for _ in range(h)]
    return Design(Grid.from_rows(cells), palette_of(ncolors))


def multi(seed_start: int, w: int, h: int, ncolors: int = 2, density: float = 0.5, count: int = 6) -> list[Design]:
    """The first `count` designs from the seeds whose pictures have several solutions."""
    out, seed = [], seed_start
    while len(out) < count:
        d = random_design(seed, w, h, ncolors, density)
        if solve(d.puzzle(), "native").status.value == "multiple":
            out.append(d)
        seed += 1
    return out


def check_result(design: Design, result, engines=("native", "sat", "cpsat")) -> None:
    """The proposal is unique by every engine, and differs from the picture in the listed cells only."""
    assert result.unique, result.status
    final = result.design.grid
    assert changes_between(design.grid, final) == result.changes
    assert apply_changes(design.grid, result.changes) == final
    assert {p.engine for p in result.proofs} >= {"native", "sat"}
    puzzle = result.design.puzzle()
    assert puzzle.meta.goal == final and clues_of(final) == (puzzle.rows, puzzle.cols)
    for engine in engines:
        answer = solve(puzzle, engine, max_solutions=2)
        assert answer.status.value == "unique", engine
        assert answer.solutions[0] == final, engine


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), w=st.integers(3, 6), h=st.integers(3, 6), ncolors=st.sampled_from([2, 2, 3]))
def test_small_designs_end_unique_by_brute_force(seed, w, h, ncolors):
    design = random_design(seed, w, h, ncolors)
    result = make_unique(design, rate_result=False)
    check_result(design, result, engines=("cpsat",))
    assert brute_force(result.design.puzzle(), 2) == [result.design.grid]
    if brute_force(design.puzzle(), 2) == [design.grid]:
        assert result.status == "already-unique" and not result.changes


@pytest.mark.parametrize("w, h, ncolors, density", [
    (10, 10, 2, 0.5), (15, 12, 2, 0.45), (12, 12, 3, 0.5), (10, 10, 2, 0.3),
    pytest.param(20, 20, 2, 0.3, marks=pytest.mark.slow),  # scattered dots: the line-logic fallback's case
])
def test_multi_solution_designs_end_unique(w, h, ncolors, density):
    for design in multi(1, w, h, ncolors, density, count=3):
        check_result(design, make_unique(design, rate_result=False))


def test_line_logic_takes_over_when_rounds_run_long():
    for design in multi(3, 12, 12, density=0.35, count=2):
        result = make_unique(design, patience=1, rate_result=False)
        check_result(design, result)


def test_tournament_goals_end_unique():
    from conftest import corpus_path

    puzzles = load(str(corpus_path("nonogram-record", "solution", "icga2017.txt")))[:4]
    for p in puzzles:
        design = Design.from_puzzle(p)
        result = make_unique(design)
        check_result(design, result)
        assert result.difficulty in ("LINE", "PROBE", "BRANCH")


def test_team_puzzles_with_several_solutions():
    for name in ("smiley.non", "eyes.non", "cherries.non"):
        p = load(str(PUZZLES / name))[0]
        picture = solve(p, "native").solutions[0]
        design = Design(picture, p.palette, p.title)
        result = make_unique(design)
        check_result(design, result)


def test_max_difficulty_line_is_solved_by_line_logic_alone():
    for design in multi(20, 12, 12, count=3) + multi(40, 10, 10, 3, count=2):
        result = make_unique(design, max_difficulty="LINE")
        check_result(design, result)
        masks, contradiction, _ = propagate_and_probe(result.design.puzzle(), probe=False)
        assert not contradiction and all(m & (m - 1) == 0 for m in masks)
        assert result.difficulty == "LINE"
        plain = make_unique(design, rate_result=False)
        assert len(result.changes) >= 1 and len(plain.changes) >= 1


def test_max_difficulty_probe():
    for design in multi(60, 15, 15, count=2):
        result = make_unique(design, max_difficulty="PROBE")
        check_result(design, result)
        assert result.difficulty in ("LINE", "PROBE")


def test_already_unique_design_is_left_alone():
    p = load(str(PUZZLES / "heart.non"))[0]
    design = Design.from_puzzle(p)
    result = make_unique(design)
    assert result.status == "already-unique" and result.changes == ()
    assert result.design.grid == design.grid and result.difficulty == "LINE"


def test_as_close_as_the_exact_minimum_on_small_designs():
    """make_unique against the exhaustive search: never fewer (that would be a bug in one of them), and
    equal on these (the benchmark measures the gap on bigger ones)."""
    for design in multi(100, 8, 8, count=5) + multi(200, 10, 10, count=3):
        exact = fewest_changes(design, max_changes=4)
        assert exact.optimal
        fixed = apply_changes(design.grid, exact.changes)
        assert solve(Design(fixed, design.palette).puzzle(), "sat").status.value == "unique"
        heuristic = make_unique(design, rate_result=False)
        assert len(heuristic.changes) >= len(exact.changes)
        assert len(heuristic.changes) == len(exact.changes)


def test_fewest_changes_is_the_minimum_by_brute_force():
    """On tiny designs: no set of fewer changes than fewest_changes finds gives a unique picture."""
    for design in multi(300, 4, 4, count=4):
        exact = fewest_changes(design)
        assert exact.optimal and exact.changes
        cells = [(r, c) for r in range(4) for c in range(4)]
        for k in range(len(exact.changes)):
            for chosen in itertools.combinations(cells, k):
                x = [list(row) for row in design.grid.cells]
                for r, c in chosen:
                    x[r][c] ^= 1
                trial = Design(Grid.from_rows(x), design.palette).puzzle()
                assert len(brute_force(trial, 2)) == 2


def test_timeout_returns_the_picture_so_far():
    design = multi(1, 20, 20, density=0.3, count=1)[0]
    result = make_unique(design, time_limit=0.01)
    assert result.status == "timeout" and not result.unique
    assert changes_between(design.grid, result.design.grid) == result.changes


def test_moves_split_into_line_disjoint_groups_that_stay_valid():
    design = multi(7, 8, 8, count=1)[0]
    x = [list(r) for r in design.grid.cells]
    answer = solve(design.puzzle(), "native", max_solutions=20)
    assert answer.status.value == "multiple"
    for g in answer.solutions:
        other = [list(r) for r in g.cells]
        if other == x:
            continue
        groups = split_move(move_between(x, other))
        assert sum(len(m) for m in groups) == len(move_between(x, other))
        for m in groups:
            assert is_valid(x, m)  # each group alone is a second solution
            rows = {r for r, _ in m}
            for m2 in groups:
                if m2 is not m:
                    assert not rows & {r for r, _ in m2}


def test_kills_agrees_with_recomputing_validity():
    design = multi(11, 7, 7, 3, count=1)[0]
    x = [list(r) for r in design.grid.cells]
    answer = solve(design.puzzle(), "native", max_solutions=6)
    moves = [m for g in answer.solutions for m in split_move(move_between(x, [list(r) for r in g.cells]))]
    assert moves
    for m in moves:
        for r in range(7):
            for c in range(7):
                for v in range(3):
                    if v != x[r][c]:
                        old = x[r][c]
                        x[r][c] = v
                        after = is_valid(x, m)
                        x[r][c] = old
                        assert kills(x, (r, c), v, m) == (not after)
    assert isinstance(moves[0], Move)


def test_analyse_reports_verdict_ambiguous_cells_and_difficulty():
    design = multi(5, 8, 8, count=1)[0]
    report = analyse(design)
    assert report.verdict == "multiple" and report.difficulty == "MULTIPLE" and report.ambiguous_exact
    solutions = solve(design.puzzle(), "native", max_solutions=None).solutions
    differing = {(r, c) for r in range(8) for c in range(8) if len({s.cells[r][c] for s in solutions}) > 1}
    assert set(report.ambiguous) == differing
    fixed = make_unique(design).design
    after = analyse(fixed)
    assert after.verdict == "unique" and after.ambiguous == () and after.difficulty in ("LINE", "PROBE", "BRANCH")
    assert after.guesses is not None and after.as_dict()["rating"]["verdict"] == after.difficulty


def test_change_describes_itself():
    ch = Change(2, 3, 1, 0)
    assert ch.describe(Palette.black_and_white()) == "r3c4 black -> white"
    assert ch.as_dict(Palette.black_and_white()) == {"row": 2, "col": 3, "from": "1", "to": "0"}


@pytest.mark.parametrize("doubtful", [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_among_equally_short_fixes_the_picture_s_doubtful_cell_is_changed(doubtful):
    """Every single cell of a 2x2 diagonal makes it unique; the one the picture was least sure of wins."""
    grid = Grid.from_rows([[1, 0], [0, 1]])
    margin = tuple(0.1 if (r, c) == doubtful else 0.9 for r in range(2) for c in range(2))
    design = Design(grid, Palette.black_and_white(), margin=margin)
    result = make_unique(design, rate_result=False)
    assert [(ch.row, ch.col) for ch in result.changes] == [doubtful]


def test_make_unique_rates_its_result_within_the_report_budget():
    """Lasts Forever is unique and solves in milliseconds, but rating it walks past the report's budget of
    steps: make_unique's rating of its result stops at that budget and says so (unbudgeted, it ran until
    the design's time limit on big random pictures, after the result was already proven unique)."""
    from conftest import corpus_path
    from nonocp.design.report import RATING_STEPS

    puzzle = load(str(corpus_path("webpbn-survey", "free", "webpbn-06574-Lasts Forever.txt")))[0]
    result = make_unique(Design.from_puzzle(puzzle))
    assert result.status == "already-unique"
    assert result.difficulty == "UNKNOWN"
    assert result.rating.steps == RATING_STEPS


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(2, 4), st.integers(2, 4))
def test_uniqueness_answered_from_known_moves_agrees_with_brute_force(seed, w, h):
    """The uniqueness check of make_unique's minimisation answers "not unique" from a known move when one is
    valid (no engine call) and asks the engine otherwise; either way its answer is brute force's, and an
    answer "not unique" from the engine leaves a valid move in the pool."""
    from nonocp.design.checks import puzzle_of
    from nonocp.design.unique import _Search

    design = random_design(seed, w, h)
    search = _Search(design, None, "native", None)
    rng = random.Random(seed)
    for _ in range(6):
        x = [[rng.randint(0, 1) for _ in range(w)] for _ in range(h)]
        want = len(brute_force(puzzle_of(x, design.palette), limit=2)) == 1
        solves = search.counter.solves
        from_pool = any(is_valid(x, m) for m in search.pool)
        assert search.is_unique(x) == want
        if from_pool:
            assert search.counter.solves == solves
        if not want:
            assert any(is_valid(x, m) for m in search.pool)
