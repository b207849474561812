"""The stepper: the user's line order reaches the engine's fixpoint, the walk over every solution (by
`explain --all` and by `step()`) finds exactly what `solve --all` finds with the guesses that led to each,
state survives JSON, undo takes back exactly one step, and the all-remaining-cells step is bounded."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import PUZZLES, examples
from nonocp.analysis.explain import explain
from nonocp.analysis.stepper import Stepper, StepperStateError
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Puzzle
from nonocp.engines import SolveOptions, get_backend
from nonocp.engines.native import propagate_and_probe
from nonocp.formats import load
from oracle import brute_force
from strategies import palette_of, puzzle_from_grid, puzzles_with_grid


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


def masks_of(grid: Grid) -> tuple[int, ...]:
    return tuple(1 << v for row in grid.cells for v in row)


def all_lines(puzzle: Puzzle):
    return [("row", r) for r in range(puzzle.height)] + [("col", c) for c in range(puzzle.width)]


# ----------------------------------------------------------------------------- the user's order


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles_with_grid(max_size=7), st.randoms(use_true_random=False))
def test_examine_in_any_order_reaches_the_engines_fixpoint(case, rnd):
    puzzle, _ = case
    masks, contradiction, _ = propagate_and_probe(puzzle, probe=False)
    assert not contradiction  # the clues come from a grid
    s = Stepper(puzzle)
    lines = all_lines(puzzle)
    quiet = 0
    while quiet < len(lines):  # until a whole sweep, in a fresh random order, yields nothing
        rnd.shuffle(lines)
        quiet = 0
        for line in lines:
            if s.examine(line):
                quiet = 0
            else:
                quiet += 1
                assert s.note == "nothing-new"
    assert s.masks == masks
    if all(not m & (m - 1) for m in masks):  # line-solvable: the user's walk ends on the solution
        assert s.steps[-1].kind == "solution"
    assert all(st.by == "user" for st in s.steps)


def test_examine_names_the_line_and_refuses_bad_ones():
    puzzle = load(str(PUZZLES / "heart.non"))[0]
    s = Stepper(puzzle)
    steps = s.examine(("row", 2))  # "9" on 9 cells
    assert steps and all(x.line == ("row", 2) and x.by == "user" for x in steps)
    # columns "6" on 8 rows decide their cell of row 3 (the crossing check, one step per column), then
    # the row's own clue does the rest by overlap
    crossing = [x for x in steps if x.technique == "crossing-check"]
    assert [x.cross for x in crossing] == [("col", c) for c in range(2, 7)]
    assert [x.technique for x in steps[len(crossing):]] == ["overlap"]
    assert s.masks[2 * 9:3 * 9] == [2] * 9
    with pytest.raises(ValueError):
        s.examine(("row", 8))
    with pytest.raises(ValueError):
        s.examine(("diagonal", 0))


# ----------------------------------------------------------------------------- every solution


def check_walk(puzzle: Puzzle, solutions: list, steps) -> None:
    """The solutions equal the oracle's; each solution step's depth is the guesses in force (guess steps not
    yet backtracked), its `guesses` the guess steps before it, and the grid there is that solution."""
    W = puzzle.width
    full = (1 << len(puzzle.palette)) - 1
    masks = [full] * (W * puzzle.height)
    open_guesses: list[int] = []
    made = 0
    reached = []
    for s in steps:
        for r, c, m in s.changes:
            masks[r * W + c] = m
        if s.kind == "guess":
            open_guesses.append(s.n)
            made += 1
        elif s.kind == "backtrack":
            assert open_guesses.pop() == s.returns_to
        assert s.depth == len(open_guesses)
        if s.kind == "solution":
            assert s.guesses == made
            reached.append(tuple(masks))
    assert reached == [tuple(x) for x in solutions]
    assert sorted(reached) == sorted(solutions)


@pytest.mark.parametrize("ncol", [2, 3])
def test_all_solutions_walk_matches_solve_all(ncol):
    rnd = random.Random(ncol)
    native = get_backend("native")
    seen_several = 0
    for _ in range(25 if ncol == 2 else 15):
        w, h = rnd.randint(2, 5), rnd.randint(2, 5)
        cells = [[rnd.randint(1, ncol - 1) if rnd.random() < 0.5 else 0 for _ in range(w)] for _ in range(h)]
        puzzle = puzzle_from_grid(Grid.from_rows(cells), palette_of(ncol))
        want = sorted(masks_of(g) for g in brute_force(puzzle))
        assert want == sorted(masks_of(g) for g in native.solve(puzzle, SolveOptions(max_solutions=None)).solutions)
        ex = explain(puzzle, all_solutions=True)
        assert ex.exhaustive and sorted(masks_of(s.grid) for s in ex.solutions) == want
        check_walk(puzzle, [masks_of(s.grid) for s in ex.solutions], ex.steps)
        assert [s.depth for s in ex.solutions] == [st.depth for st in ex.steps if st.kind == "solution"]
        # the stepper, step by step, walks the same solutions
        s = Stepper(puzzle)
        while s.step():
            pass
        assert s.finished and s.note == "finished"
        assert sorted(tuple(x) for x in s.solutions) == want
        check_walk(puzzle, [tuple(x) for x in s.solutions], s.steps)
        seen_several += len(want) > 1
    assert seen_several  # the sample has puzzles with several solutions


def test_all_solutions_of_team_puzzles_and_the_limit():
    puzzle = load(str(PUZZLES / "smiley.non"))[0]
    want = sorted(masks_of(g) for g in get_backend("cpsat").solve(puzzle, SolveOptions(max_solutions=None)).solutions)
    ex = explain(puzzle, all_solutions=True)
    assert len(want) == 9 and sorted(masks_of(s.grid) for s in ex.solutions) == want and ex.exhaustive
    assert ex.solutions[0].depth >= 1 and ex.solutions[-1].guesses >= ex.solutions[0].guesses
    ex = explain(puzzle, all_solutions=True, max_solutions=3)
    assert len(ex.solutions) == 3 and not ex.exhaustive and str(ex.status) == "multiple"


# ----------------------------------------------------------------------------- state, undo, guesses


def test_state_survives_json_and_undo_offers_the_same_step_again():
    puzzle = load(str(PUZZLES / "smiley.non"))[0]
    s = Stepper(puzzle)
    for _ in range(40):
        s.step()
    doc = json.loads(json.dumps(s.state()))
    t = Stepper.from_state(puzzle, doc)
    assert t.masks == s.masks and t.steps == s.steps and t.depth == s.depth and t.state() == doc
    before = list(s.masks)
    a = s.step()[0]
    b = t.step()[0]
    assert a.changes == b.changes and a.kind == b.kind and a.n == b.n == 41
    back = s.undo()
    assert back == a and s.masks == before
    again = s.step()[0]
    assert again == a
    other = load(str(PUZZLES / "heart.non"))[0]
    with pytest.raises(StepperStateError):
        Stepper.from_state(other, doc)
    with pytest.raises(StepperStateError):
        Stepper.from_state(puzzle, {**doc, "masks": [99] * 100})
    with pytest.raises(StepperStateError):
        Stepper.from_state(puzzle, {"format": "nonocp-stepper/1"})


def test_undo_walks_back_to_the_empty_grid():
    puzzle = load(str(PUZZLES / "smiley.non"))[0]
    s = Stepper(puzzle)
    while s.step():
        pass
    n = len(s.steps)
    for _ in range(n):
        assert s.undo() is not None
    assert s.undo() is None and s.note == "nothing-to-undo"
    assert s.masks == [3] * 100 and s.depth == 0 and not s.solutions
    while s.step():  # and forward again to the same end
        pass
    assert len(s.solutions) == 9


def test_user_guess_contradiction_and_backtrack():
    # two solutions: the diagonals of a 2x2
    p = Puzzle((B(1), B(1)), (B(1), B(1)))
    s = Stepper(p)
    with pytest.raises(ValueError):
        s.guess((0, 0), 2)
    g = s.guess((0, 0), 1)[0]
    assert g.kind == "guess" and g.by == "user" and s.depth == 1
    kinds = []
    while True:
        out = s.step()
        if not out:
            break
        kinds += [x.kind for x in out]
    # the guess leads to one solution, is backtracked, and the other colour gives the other
    assert kinds.count("solution") == 2 and "backtrack" in kinds and s.depth == 0
    # a wrong guess on a unique puzzle: contradiction, then the backtrack makes the other colour stick
    p = load(str(PUZZLES / "heart.non"))[0]
    s = Stepper(p)
    s.guess((0, 0), 1)  # r1c1 is white in the only solution
    out = []
    while not any(x.kind == "backtrack" for x in out):
        out += s.step()
    assert any(x.kind == "contradiction" for x in out)
    assert s.candidates(0, 0) == [0] and s.depth == 0


def test_remaining_cells_is_bounded_and_says_so():
    perm = Puzzle((B(1),) * 6, (B(1),) * 6)  # 720 solutions
    s = Stepper(perm)
    assert s.remaining_cells(limit=10) == [] and s.note == "gave-up-limit"
    assert s.remaining_cells(limit=10, time_limit=0.0) == [] and s.note == "gave-up-time"
    small = Puzzle((B(1),) * 3, (B(1),) * 3)  # 6 solutions: every cell may be either colour
    s = Stepper(small)
    out = s.remaining_cells(limit=10)
    assert len(out) == 1 and out[0].solutions == 6 and out[0].changes == ()
    p = load(str(PUZZLES / "heart.non"))[0]
    s = Stepper(p)
    out = s.remaining_cells(limit=5)
    assert [x.kind for x in out] == ["all-remaining-cells", "solution"] and out[0].solutions == 1
    none = load(str(PUZZLES / "no-way.non"))[0]
    s = Stepper(none)
    out = s.remaining_cells(limit=5)
    assert out[0].solutions == 0 and s.note == "contradiction"
    assert s.step() == [] and s.finished


def test_any_session_then_stepping_to_the_end_finds_every_solution_once():
    """Random sessions mixing every action (steps, lines, guesses, undo, all remaining cells, save and
    load), then step() to the end: the solutions reached are the puzzle's, each exactly once."""
    from nonocp.core.puzzle import Puzzle

    for seed in range(examples(240)):
        rnd = random.Random(seed)
        w, h, nc = rnd.randint(2, 5), rnd.randint(2, 5), rnd.choice([2, 2, 3])
        cells = [[rnd.randint(1, nc - 1) if rnd.random() < 0.5 else 0 for _ in range(w)] for _ in range(h)]
        p = puzzle_from_grid(Grid.from_rows(cells), palette_of(nc))
        if rnd.random() < 0.3:  # row clues swapped: often no solution
            rows = list(p.rows)
            i, j = rnd.randrange(h), rnd.randrange(h)
            rows[i], rows[j] = rows[j], rows[i]
            p = Puzzle(tuple(rows), p.cols, p.palette)
        want = sorted(masks_of(g) for g in brute_force(p))
        s = Stepper(p)
        for _ in range(rnd.randint(0, 40)):
            a = rnd.random()
            if a < 0.4:
                s.step()
            elif a < 0.6:
                kind = rnd.choice(["row", "col"])
                s.examine((kind, rnd.randrange(h if kind == "row" else w)))
            elif a < 0.7:
                open_cells = [(r, c) for r in range(h) for c in range(w) if len(s.candidates(r, c)) > 1]
                if open_cells:
                    r, c = rnd.choice(open_cells)
                    s.guess((r, c), rnd.choice(s.candidates(r, c)))
            elif a < 0.85:
                s.undo()
            elif a < 0.9:
                s.remaining_cells(limit=rnd.choice([1, 5, 100]))
            else:
                s = Stepper.from_state(p, json.loads(json.dumps(s.state())))
        for _ in range(100_000):
            if not s.step():
                break
        assert s.finished, f"seed {seed}: never finished"
        assert sorted(tuple(x) for x in s.solutions) == want, f"seed {seed}"
