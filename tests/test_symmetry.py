"""Clue symmetries (core/symmetry.py) against an oracle that moves grids instead of clues, and the symmetric
first round of the sat engine (and auto's SAT stage) against brute force."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import corpus_path, examples
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Puzzle, clues_of
from nonocp.core.result import Status
from nonocp.core.symmetry import clue_symmetries, orbits
from nonocp.engines import SolveOptions, get_backend
from oracle import brute_force
from strategies import grids, palette_of, puzzle_from_grid

# the same moves, written out on a grid's cells: the oracle
MOVES = {
    "mirror left-right": lambda r, c, h, w: (r, w - 1 - c),
    "mirror top-bottom": lambda r, c, h, w: (h - 1 - r, c),
    "half turn": lambda r, c, h, w: (h - 1 - r, w - 1 - c),
    "mirror on the main diagonal": lambda r, c, h, w: (c, r),
    "mirror on the other diagonal": lambda r, c, h, w: (w - 1 - c, h - 1 - r),
    "quarter turn clockwise": lambda r, c, h, w: (c, h - 1 - r),
    "quarter turn anticlockwise": lambda r, c, h, w: (w - 1 - c, r),
}


def moved(cells: list[list[int]], name: str) -> list[list[int]]:
    """The grid (a list of rows) after the move: cell (r, c) goes to move(r, c)."""
    h, w = len(cells), len(cells[0])
    keeps_shape = name in ("mirror left-right", "mirror top-bottom", "half turn")
    out = [[0] * (w if keeps_shape else h) for _ in range(h if keeps_shape else w)]
    for r in range(h):
        for c in range(w):
            r2, c2 = MOVES[name](r, c, h, w)
            out[r2][c2] = cells[r][c]
    return out


def box(cells: list[list[int]]) -> list[list[int]]:
    """The grid without its empty rows and columns at the edges."""
    rows = [r for r, row in enumerate(cells) if any(row)]
    cols = [c for c in range(len(cells[0])) if any(row[c] for row in cells)]
    if not rows:
        return []
    return [row[cols[0]:cols[-1] + 1] for row in cells[rows[0]:rows[-1] + 1]]


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid=grids(5, 5, 3), ncolors=st.sampled_from([2, 3]))
def test_a_move_keeps_the_clues_exactly_when_the_moved_picture_has_the_same_clues(grid, ncolors):
    """The clues of a moved grid are the moved clues, so a move keeps a puzzle's clues if and only if the
    grid (within its non-empty box) moved has the clues of the unmoved one."""
    cells = [[min(v, ncolors - 1) for v in row] for row in grid.cells]
    puzzle = puzzle_from_grid(Grid.from_rows(cells), palette_of(ncolors))
    found = {sym.name for sym in clue_symmetries(puzzle)}
    inner = box(cells)
    if not inner:
        assert found == set()
        return
    square = len(inner) == len(inner[0])
    for name in MOVES:
        if not square and name not in ("mirror left-right", "mirror top-bottom", "half turn"):
            assert name not in found
            continue
        keeps = clues_of(Grid.from_rows(moved(inner, name))) == clues_of(Grid.from_rows(inner))
        assert (name in found) == keeps, name


def symmetric_grid(n: int, seed: int, ncolors: int = 2) -> list[list[int]]:
    """An n x n grid that a quarter turn maps onto itself (random colours per orbit of cells)."""
    rng = random.Random(seed)
    cells: list[list[int | None]] = [[None] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            if cells[r][c] is None:
                v = rng.randrange(ncolors)
                for rr, cc in ((r, c), (c, n - 1 - r), (n - 1 - r, n - 1 - c), (n - 1 - c, r)):
                    cells[rr][cc] = v
    return cells


def test_a_picture_off_centre_in_its_frame_is_symmetric_within_its_filled_part():
    """Knotty's shape: a quarter-turn picture with an empty last row and column. The orbits are the
    quarter turn's: four cells each, the centre alone (left out), nothing outside the picture."""
    cells = symmetric_grid(7, seed=3)
    assert any(cells[0]) and any(row[0] for row in cells)
    framed = [row + [0] for row in cells] + [[0] * 8]
    puzzle = puzzle_from_grid(Grid.from_rows(framed), palette_of(2))
    names = {sym.name for sym in clue_symmetries(puzzle)}
    assert names == {"quarter turn clockwise", "half turn", "quarter turn anticlockwise"}
    groups = orbits(clue_symmetries(puzzle))
    cells_in = [cell for group in groups for cell in group]
    assert len(cells_in) == len(set(cells_in)) and all(r < 7 and c < 7 for r, c in cells_in)
    assert len(groups) == 12 and all(len(g) == 4 for g in groups) and (3, 3) not in cells_in


def test_an_l_shape_has_no_symmetry_and_count_clues_are_left_alone():
    ell = puzzle_from_grid(Grid.from_rows([[1, 0, 0], [1, 0, 0], [1, 1, 0]]), palette_of(2))
    assert clue_symmetries(ell) == ()
    assert orbits(()) == []


@pytest.fixture(scope="module")
def sat():
    return get_backend("sat")


def test_the_symmetric_round_finds_a_symmetric_solution_and_the_count_goes_on_over_the_whole_puzzle(sat):
    """Every solution, with and without the symmetric round, is brute force's; the first one found is one
    that the symmetries map onto itself."""
    for seed in range(6):
        puzzle = puzzle_from_grid(Grid.from_rows(symmetric_grid(5, seed)), palette_of(2))
        every = set(brute_force(puzzle))
        r = sat.solve(puzzle, SolveOptions(max_solutions=None, extra={"symmetric": True}))
        assert r.exhausted and set(r.solutions) == every and len(r.solutions) == len(every)
        assert r.stats["symmetric_round"] == "found"
        first = r.solutions[0].cells
        moves = tuple(sym for sym in clue_symmetries(puzzle) if sym.name in r.stats["symmetric_moves"])
        assert "quarter turn clockwise" in {sym.name for sym in clue_symmetries(puzzle)} and moves
        for group in orbits(moves):
            assert len({first[rr][cc] for rr, cc in group}) == 1
        one = sat.solve(puzzle, SolveOptions(max_solutions=1, extra={"symmetric": True}))
        assert one.status is Status.SOLVED and one.solutions[0] in every


# clues that the top-bottom mirror keeps, and two solutions that it swaps: no symmetric solution
MIRRORED_PAIR = puzzle_from_grid(Grid.from_rows([[0, 0, 1], [0, 0, 1], [0, 1, 0]]), palette_of(2))


def test_a_diagonal_pair_is_found_under_one_mirror_when_the_whole_group_has_no_solution(sat):
    """Four cells, one ink cell per line: all eight moves keep the clues and the whole group's orbit is every
    cell, which no solution fills with one colour; each diagonal is one the diagonal mirror keeps."""
    one = (Block(1),)
    puzzle = Puzzle((one, one), (one, one))
    r = sat.solve(puzzle, SolveOptions(max_solutions=None, extra={"symmetric": True}))
    assert r.stats["symmetric_round"] == "found" and len(r.stats["symmetric_moves"]) == 1
    assert set(r.solutions) == set(brute_force(puzzle)) and len(r.solutions) == 2


def test_without_a_symmetric_solution_the_search_goes_on_as_without_the_round(sat):
    puzzle = MIRRORED_PAIR
    assert [sym.name for sym in clue_symmetries(puzzle)] == ["mirror top-bottom"]
    r = sat.solve(puzzle, SolveOptions(max_solutions=None, extra={"symmetric": True}))
    assert r.stats["symmetric_round"] == "none"
    assert r.status is Status.MULTIPLE and set(r.solutions) == set(brute_force(puzzle)) and len(r.solutions) == 2


def test_auto_runs_the_symmetric_round_in_its_sat_stage_unless_told_not_to():
    """Two mirrored solutions (line logic cannot decide them, so the SAT stage runs): the round is tried by
    default and finds no symmetric solution; `symmetric=False` skips it; the answers agree."""
    auto = get_backend("auto")
    puzzle = MIRRORED_PAIR
    base = {"native_first": False, "race": False}
    on = auto.solve(puzzle, SolveOptions(max_solutions=None, workers=1, extra=base))
    off = auto.solve(puzzle, SolveOptions(max_solutions=None, workers=1, extra={**base, "symmetric": False}))
    assert on.stats["phase"] == off.stats["phase"] == "sat"
    assert on.stats["symmetric_round"] == "none" and "symmetric_round" not in off.stats
    assert set(on.solutions) == set(off.solutions) == set(brute_force(puzzle))


def test_knotty_is_decided_by_its_quarter_turn(sat):
    """Knotty (40 x 40, its last row and column empty): with the quarter turn, CaDiCaL finds a first
    solution and then a second; both are checked against the clues."""
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", "webpbn-knotty.txt")))[0]
    r = sat.solve(puzzle, SolveOptions(max_solutions=2, time_limit=120, extra={"symmetric": True}))
    assert r.stats["symmetric_round"] == "found"
    assert r.status is Status.MULTIPLE and len(set(r.solutions)) == 2
    assert all(puzzle.is_solution(g) for g in r.solutions)


@pytest.mark.parametrize("solver", ["kissat404", "lingeling", "glucose4"])
def test_the_symmetric_round_hands_over_to_any_solver(solver):
    """Kissat and Lingeling cannot be stopped, so the round runs on CaDiCaL and the count goes on with the
    solver named (Kissat: CaDiCaL, as after its own first solution); the count is brute force's either way."""
    puzzle = puzzle_from_grid(Grid.from_rows(symmetric_grid(6, seed=2)), palette_of(2))
    r = get_backend(f"sat:{solver}").solve(puzzle, SolveOptions(max_solutions=None, extra={"symmetric": True}))
    assert r.stats["symmetric_round"] == "found"
    assert r.exhausted and set(r.solutions) == set(brute_force(puzzle)) and len(r.solutions) == len(set(r.solutions))
