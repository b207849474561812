"""Backbones (nonocp.analysis.backbone) against a brute-force reference on tiny multi-solution puzzles.

The reference: enumerate every solution by brute force and take, per cell, the set of colours seen.
The backbone algorithm must reproduce it exactly, whatever engine answers its queries: the brute-force
fake engine here, and every real engine of tests/engines.py that is installed.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import examples
from nonocp.analysis.backbone import (
    Backbone,
    BackboneError,
    backbone_from_solutions,
    compare_backbones,
    compute_backbone,
    find_backbone,
    native_backbone,
    native_upper_bound,
)
from nonocp.core.grid import Domains
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.result import SolveResult, Status
from nonocp.engines import SolveOptions
from oracle import brute_force
from strategies import puzzles_with_grid
from test_check import BruteBackend


def B(*lengths):
    return tuple(Block(n, 1) for n in lengths)


def reference(puzzle: Puzzle) -> Backbone:
    solutions = brute_force(puzzle)
    status = {0: "none", 1: "unique"}.get(len(solutions), "multiple")
    return backbone_from_solutions(puzzle, solutions, status)


def assert_same(found: Backbone, expected: Backbone) -> None:
    assert found.exact
    assert found.status == expected.status
    assert compare_backbones(found, expected) == []


# 2x2 diagonal: every cell is ambiguous
DIAGONAL = Puzzle((B(1), B(1)), (B(1), B(1)))
PERMUTATIONS = Puzzle((B(1),) * 3, (B(1),) * 3)
# 4 wide, 2 high: column 1 black, column 2 white, columns 3-4 a diagonal pair (2 solutions)
PARTLY = Puzzle((B(1, 1), B(1, 1)), (B(2), (), B(1), B(1)))


def test_diagonal_every_cell_ambiguous():
    bb = compute_backbone(DIAGONAL, BruteBackend())
    assert_same(bb, reference(DIAGONAL))
    assert len(bb.ambiguous) == 4 and bb.fixed == {}


def test_partly_fixed_puzzle():
    expected = reference(PARTLY)
    bb = compute_backbone(PARTLY, BruteBackend())
    assert_same(bb, expected)
    assert bb.fixed == {(0, 0): 1, (1, 0): 1, (0, 1): 0, (1, 1): 0}
    assert set(bb.ambiguous) == {(0, 2), (0, 3), (1, 2), (1, 3)}
    assert bb.colours(0, 2) == (0, 1)


def test_unique_puzzle_is_all_backbone():
    plus = Puzzle((B(1), B(3), B(1)), (B(1), B(3), B(1)))
    bb = compute_backbone(plus, BruteBackend())
    assert bb.status == "unique" and bb.exact and bb.ambiguous == ()
    assert len(bb.fixed) == 9 and bb.queries == 1


def test_unsolvable_puzzle_has_no_possible_colour():
    none = Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ()))
    bb = compute_backbone(none, BruteBackend())
    assert bb.status == "none" and bb.exact
    assert all(m == 0 for m in bb.possible) and bb.fixed == {}


def test_json_rows_and_domains():
    bb = compute_backbone(PARTLY, BruteBackend())
    rows = bb.to_rows()
    assert rows[0][0] == [1] and rows[0][1] == [0] and rows[0][2] == [0, 1]
    d = bb.to_domains()
    assert isinstance(d, Domains) and d.get(0, 2) == 0b11 and d.get(1, 0) == 0b10


def test_a_sound_superset_saves_queries():
    expected = reference(PERMUTATIONS)
    plain = compute_backbone(PERMUTATIONS, BruteBackend())
    told = compute_backbone(PERMUTATIONS, BruteBackend(), upper=expected.to_domains())
    assert_same(plain, expected)
    assert_same(told, expected)
    assert told.queries <= plain.queries


class IgnoresFixed(BruteBackend):
    def solve(self, puzzle, options):
        return super().solve(puzzle, SolveOptions(max_solutions=options.max_solutions))


def test_engine_ignoring_fixed_cells_is_detected():
    with pytest.raises(BackboneError):
        compute_backbone(PARTLY, IgnoresFixed())


class TimesOutOnQueries(BruteBackend):
    def solve(self, puzzle, options):
        if options.fixed:
            return SolveResult(Status.TIMEOUT, (), False, self.name)
        return super().solve(puzzle, options)


def test_timed_out_queries_leave_cells_open():
    bb = compute_backbone(PARTLY, TimesOutOnQueries())
    assert not bb.exact
    # what the first two solutions show is still right, and nothing is claimed fixed that is open
    for (r, c), k in bb.fixed.items():
        assert reference(PARTLY).colours(r, c) == (k,)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3)))
def test_matches_brute_force_on_random_tiny_puzzles(data):
    puzzle, _ = data
    assert_same(compute_backbone(puzzle, BruteBackend()), reference(puzzle))


@pytest.mark.parametrize("puzzle", [DIAGONAL, PERMUTATIONS, PARTLY], ids=["diagonal", "permutations", "partly"])
def test_real_engines_on_hand_made(engine, puzzle):
    assert_same(compute_backbone(puzzle, engine), reference(puzzle))


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3, 4)))
def test_real_engines_match_brute_force(engine, data):
    puzzle, _ = data
    assert_same(compute_backbone(puzzle, engine), reference(puzzle))


def test_no_time_left_leaves_everything_unseen_open():
    bb = compute_backbone(PARTLY, BruteBackend(), time_limit=0)
    assert not bb.exact
    assert bb.fixed == {}  # nothing is claimed fixed without proof
    assert all(p | o for p, o in zip(bb.possible, bb.open_, strict=True))


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3)))
def test_native_all_remaining_cells_matches_brute_force(data):
    """The second, independent method: the native engine's exhaustive all-remaining-cells step."""
    puzzle, _ = data
    expected = reference(puzzle)
    found = native_backbone(puzzle)
    assert found is not None
    assert found.status == expected.status
    assert compare_backbones(found, expected) == []


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3)))
def test_native_upper_bound_is_sound(data):
    puzzle, _ = data
    expected = reference(puzzle)
    upper = native_upper_bound(puzzle)
    assert upper is not None  # these puzzles have a solution (their source grid)
    for i, m in enumerate(expected.possible):
        assert m & ~upper.masks[i] == 0, "the fixpoint removed a colour some solution uses"


@pytest.mark.parametrize("puzzle", [DIAGONAL, PERMUTATIONS, PARTLY], ids=["diagonal", "permutations", "partly"])
def test_find_backbone_with_the_native_bound(puzzle):
    assert_same(find_backbone(puzzle, BruteBackend()), reference(puzzle))


def test_display_grid_and_json_for_the_solve_command():
    from nonocp.render import render_text

    bb = compute_backbone(PARTLY, BruteBackend())
    grid = bb.display_grid()
    assert grid.cells == ((1, 0, 0, 0), (1, 0, 0, 0))
    doc = bb.to_json(PARTLY)
    assert doc["rows"] == ["10??", "10??"]
    assert doc["exact"] and doc["fixed_cells"] == 4 and doc["ambiguous_cells"] == 4
    assert doc["ambiguous"][0] == {"row": 0, "col": 2, "colors": ["0", "1"]}
    text = render_text(PARTLY, grid, bb.ambiguous)
    assert text.count("#") == 2  # the two fixed black cells; the ambiguous ones are marked instead
