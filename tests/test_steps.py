"""The named techniques and the steps: each rule is sound against brute force, an exact line deduction is
told as a chain of rules that ends where the exact solver does, every step of an explanation removes only
colours no solution (of the grid before it) uses, and each catalogue technique shows on a puzzle that needs
it."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import PUZZLES, examples
from nonocp.analysis.explain import explain, explanation_json
from nonocp.analysis.stepper import Stepper
from nonocp.analysis.techniques import CATALOGUE, LINE_TECHNIQUES, RULES, decompose
from nonocp.core.puzzle import Block, Puzzle
from nonocp.engines.native import solve_line
from nonocp.formats import load
from oracle import brute_force
from strategies import palette_of, puzzles_with_grid


def runs(line):
    out, i, n = [], 0, len(line)
    while i < n:
        if line[i]:
            j = i
            while j < n and line[j] == line[i]:
                j += 1
            out.append((j - i, line[i]))
            i = j
        else:
            i += 1
    return tuple(out)


def exact_by_listing(blocks, cells, ncol):
    """Per cell, the colours some valid placement uses (by listing every line); None when none is valid."""
    n = len(cells)
    out = [0] * n
    any_valid = False
    for line in itertools.product(range(ncol), repeat=n):
        if all((cells[i] >> v) & 1 for i, v in enumerate(line)) and runs(line) == blocks:
            any_valid = True
            for i, v in enumerate(line):
                out[i] |= 1 << v
    return out if any_valid else None


def random_lines(seed: int, count: int):
    """(blocks, cells, ncol): a clue from a random line, cells partly known (some wrongly narrowed, so that
    contradictions occur too)."""
    rnd = random.Random(seed)
    for _ in range(count):
        n = rnd.randint(1, 8)
        ncol = rnd.choice([2, 2, 3, 4])
        src = [rnd.randint(1, ncol - 1) if rnd.random() < 0.55 else 0 for _ in range(n)]
        cells = []
        for i in range(n):
            x = rnd.random()
            if x < 0.5:
                cells.append((1 << ncol) - 1)
            elif x < 0.75:
                cells.append(1 << src[i])
            else:
                cells.append((1 << src[i]) | rnd.randrange(1 << ncol))
        yield runs(src), cells, ncol


def test_every_rule_is_sound_against_brute_force():
    fired = set()
    for blocks, cells, ncol in random_lines(1, 2500):
        exact = exact_by_listing(blocks, cells, ncol)
        for name, rule in RULES:
            got = rule(blocks, cells)
            if got is None:
                assert exact is None, f"{name} calls {blocks} on {cells} impossible"
                continue
            for i, (g, m) in enumerate(zip(got, cells, strict=True)):
                assert g & ~m == 0, f"{name} widens cell {i}"
                if exact is not None:
                    assert exact[i] & ~g == 0, f"{name} removes a colour a placement uses: {blocks} {cells} -> {got}"
            if got != cells:
                fired.add(name)
    assert fired == {name for name, _ in RULES}, f"never narrowed anything: {set(dict(RULES)) - fired}"


def test_decompose_chains_to_the_exact_answer():
    seen = set()
    for blocks, cells, ncol in random_lines(2, 2000):
        bits = [sum(((m >> k) & 1) << i for i, m in enumerate(cells)) for k in range(ncol)]
        res = solve_line(blocks, len(cells), bits)
        if res is None:
            continue
        after = [sum(((res[k] >> i) & 1) << k for k in range(ncol)) for i in range(len(cells))]
        pieces = decompose(blocks, cells, after)
        cur = cells
        for name, a, b in pieces:
            assert a == cur and b != a and all(x & ~y == 0 for x, y in zip(b, a, strict=True))
            assert name in LINE_TECHNIQUES
            seen.add(name)
            cur = b
        assert cur == after
    assert {"missing-colour", "overlap", "out-of-reach", "gap-too-small", "split", "join", "pin",
            "enumeration"} <= seen


# ----------------------------------------------------------------------------- soundness of whole explanations


def check_sound(puzzle: Puzzle, steps) -> None:
    """Every step that narrows (line, probe, all remaining cells) keeps every colour that some completion of
    the grid before it uses: brute force over the puzzle's solutions."""
    sols = brute_force(puzzle)
    W = puzzle.width
    full = (1 << len(puzzle.palette)) - 1
    masks = [full] * (W * puzzle.height)
    for s in steps:
        if s.kind in ("line", "probe-contradiction", "probe-agreement", "all-remaining-cells"):
            fits = [g for g in sols if all((masks[r * W + c] >> g.cells[r][c]) & 1
                                           for r in range(puzzle.height) for c in range(W))]
            for r, c, m in s.changes:
                for g in fits:
                    assert (m >> g.cells[r][c]) & 1, f"step {s.n} ({s.technique}) removes a colour solution uses"
        for r, c, m in s.changes:
            masks[r * W + c] = m


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles_with_grid(max_size=5))
def test_explanations_are_sound(case):
    puzzle, _ = case
    check_sound(puzzle, explain(puzzle, all_solutions=True).steps)


def test_team_puzzles_are_sound():
    for name in ("dot.non", "window.non", "eyes.non", "no-way.non"):
        for puzzle in load(str(PUZZLES / name)):
            check_sound(puzzle, explain(puzzle, all_solutions=True).steps)


# ----------------------------------------------------------------------------- each technique on a puzzle


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


def techniques_of(puzzle: Puzzle) -> set[str]:
    return {s.technique for s in explain(puzzle, all_solutions=True).steps}


def first_line_step(puzzle: Puzzle) -> str:
    return next(s.technique for s in explain(puzzle).steps if s.kind == "line")


def test_missing_colour_and_overlap_on_hand_made_puzzles():
    # row "2a", columns "1a" "1a" in a palette with a second colour b: b is in no clue
    p = Puzzle((B(2),), (B(1), B(1)), palette_of(3))
    assert first_line_step(p) == "missing-colour"
    # two rows "3" in 5 columns: the middle cells by overlap first
    p = Puzzle((B(3), B(3)), (B(2), B(2), B(2), (), ()))
    assert first_line_step(p) == "overlap"


@pytest.mark.parametrize("technique", [t for t in LINE_TECHNIQUES if t != "crossing-check"])
def test_each_line_technique_shows_on_a_constructed_puzzle(technique):
    """Search a fixed stream of small random puzzles for one whose explanation uses the technique, and
    check that on that step's line no simpler rule (earlier in RULES) would have narrowed anything."""
    order = [name for name, _ in RULES] + ["enumeration"]
    rnd = random.Random(11)
    for _ in range(4000):
        w, h, nc = rnd.randint(3, 8), rnd.randint(3, 8), rnd.choice([2, 2, 3])
        cells = [[rnd.randint(1, nc - 1) if rnd.random() < 0.55 else 0 for _ in range(w)] for _ in range(h)]
        from nonocp.core.grid import Grid
        from strategies import puzzle_from_grid

        puzzle = puzzle_from_grid(Grid.from_rows(cells), palette_of(nc))
        ex = explain(puzzle)
        for s in ex.steps:
            if s.technique == technique:
                # replay to just before the step, and check the rules before it in order see nothing
                W = puzzle.width
                masks = [(1 << nc) - 1] * (W * h)
                for t in ex.steps[:s.n - 1]:
                    for r, c, m in t.changes:
                        masks[r * W + c] = m
                kind, i = s.line
                line = [masks[i * W + c] for c in range(W)] if kind == "row" else [masks[r * W + i] for r in range(h)]
                clue = puzzle.rows[i] if kind == "row" else puzzle.cols[i]
                blocks = tuple((b.length, b.color) for b in clue)
                for name, rule in RULES[:order.index(technique)]:
                    got = rule(blocks, line)
                    assert got is None or got == line, f"{name} would have seen step {s.n} first"
                if w * h <= 30:
                    check_sound(puzzle, ex.steps[:s.n])
                return
    pytest.fail(f"no puzzle in the stream uses {technique}")


def test_crossing_check_and_the_grid_techniques_show():
    # crossing check: examining row 1 of a puzzle whose column 1 is empty ("0") removes black from r1c1
    p = Puzzle((B(1), B(1)), ((), B(2)))
    s = Stepper(p)
    steps = s.examine(("row", 0))
    assert steps[0].technique == "crossing-check" and steps[0].cross == ("col", 0)
    assert steps[0].changes == ((0, 0, 1),)
    seen: set[str] = set()
    for name in ("smiley.non", "window.non", "eyes.non", "no-way.non"):
        for puzzle in load(str(PUZZLES / name)):
            seen |= techniques_of(puzzle)
    for seed in (126, 1268, 2202, 2276, 2624, 5207):
        from test_explain import perturbed

        seen |= techniques_of(perturbed(seed))
    grid_kinds = {t for t, c in CATALOGUE.items() if c.scope in ("grid", "search")}
    assert grid_kinds <= seen, f"never seen: {grid_kinds - seen}"


def test_json_keeps_old_and_new_candidates():
    puzzle = load(str(PUZZLES / "rainbow.non"))[0]
    doc = json.loads(json.dumps(explanation_json(explain(puzzle))))
    for s in doc["steps"]:
        assert len(s["old"]) == len(s["changes"])
        assert s["pass"] >= 1 and s["group"] >= 1
    passes = [s["pass"] for s in doc["steps"]]
    assert passes == sorted(passes) and passes[-1] > 1
    groups = [s["group"] for s in doc["steps"]]
    assert groups == sorted(groups) and len(set(groups)) < len(groups)  # some line told in several rules
