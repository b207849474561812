"""Count clues' named line techniques (analysis/count_techniques.py) and the steps built on them: every rule
is sound against brute force, a line deduction is told as rules then enumeration and ends on the exact
answer, and explain / the stepper walk count puzzles to their solutions."""

from __future__ import annotations

import random

import pytest

from nonocp.analysis import count_techniques
from nonocp.analysis.explain import explain
from nonocp.analysis.stepper import Stepper
from nonocp.analysis.steps import replay
from nonocp.analysis.techniques import CATALOGUE
from nonocp.core.counts import Count
from nonocp.core.grid import Grid
from nonocp.engines.native import count_line
from oracle import brute_force, count_line_support
from strategies import count_puzzle_from_grid


def random_line(rnd: random.Random):
    ncolors = rnd.randint(2, 4)
    n = rnd.randint(2, 7)
    line = []
    while len(line) < n:
        line += [rnd.randrange(ncolors)] * rnd.randint(1, 3)
    line = line[:n]
    clue = tuple(Count(line.count(k), line.count(k) >= 2 and max(i for i, v in enumerate(line) if v == k)
                       - line.index(k) + 1 == line.count(k)) for k in range(ncolors))
    cells = []
    for v in line:  # per cell its mask: decided to the line's colour, or a few candidates
        m = 1 << v if rnd.random() < 0.3 else (1 << v) | rnd.randrange(1 << ncolors)
        cells.append(m)
    return clue, n, cells


def to_bits(cells, ncolors):
    return [sum(((m >> k) & 1) << i for i, m in enumerate(cells)) for k in range(ncolors)]


def to_cells(bits, n):
    return [sum(((b >> i) & 1) << k for k, b in enumerate(bits)) for i in range(n)]


@pytest.mark.parametrize("name,rule", count_techniques.RULES, ids=[n for n, _ in count_techniques.RULES])
def test_every_rule_is_sound_and_sometimes_useful(name, rule):
    rnd = random.Random(hash(name) % 1000)
    useful = 0
    for _ in range(600):
        clue, n, cells = random_line(rnd)
        exact = count_line_support(clue, n, to_bits(cells, len(clue)))
        got = rule(clue, cells)
        if exact is None or got is None:
            continue  # a rule may see a contradiction or not; only its deductions on a solvable line matter
        allowed = to_cells(exact, n)
        # sound: whatever some valid line puts in a cell, the rule keeps
        assert all(a & ~g == 0 for a, g in zip(allowed, got, strict=True)), (name, clue, cells, got)
        useful += got != cells
    assert useful, name


def test_decompose_chains_to_the_exact_answer():
    rnd = random.Random(3)
    seen = set()
    for _ in range(500):
        clue, n, cells = random_line(rnd)
        res = count_line.solve_line(clue, n, to_bits(cells, len(clue)))
        if res is None:
            continue
        after = to_cells(res, n)
        cur = cells
        for name, a, b in count_techniques.decompose(clue, cells, after):
            assert a == cur and b != a and all(x & ~y == 0 for x, y in zip(b, a, strict=True))
            assert name in count_techniques.LINE_TECHNIQUES and name in CATALOGUE
            seen.add(name)
            cur = b
        assert cur == after
    assert set(count_techniques.LINE_TECHNIQUES) <= seen


def puzzles():
    rnd = random.Random(8)
    out = []
    for _ in range(12):
        k = rnd.choice([2, 3, 4])
        w, h = rnd.randint(3, 5), rnd.randint(3, 5)
        out.append(count_puzzle_from_grid(Grid.from_rows([[rnd.randrange(k) for _ in range(w)] for _ in range(h)]),
                                          k))
    return out


@pytest.mark.parametrize("index", range(12))
def test_explain_replays_to_a_solution_and_finds_them_all(index):
    p = puzzles()[index]
    every = set(brute_force(p))
    ex = explain(p)
    assert ex.solution in every
    masks = replay(p, ex.steps)
    assert [1 << v for row in ex.solution.cells for v in row] == masks
    assert str(ex.status) == ("unique" if len(every) == 1 else "multiple")
    line_steps = {s.technique for s in ex.steps if s.kind == "line"}
    assert line_steps <= set(count_techniques.LINE_TECHNIQUES) | {"crossing-check"}
    walk = explain(p, all_solutions=True)
    assert {f.grid for f in walk.solutions} == every and walk.exhaustive


def test_stepper_takes_count_puzzles():
    p = puzzles()[0]
    s = Stepper(p)
    while not s.solutions and s.step():
        pass
    assert s.solutions and Grid.from_rows([[m.bit_length() - 1 for m in s.solutions[0][r * p.width:(r + 1) * p.width]]
                                           for r in range(p.height)]) in set(brute_force(p))
    assert Stepper.from_state(p, s.state()).masks == s.masks
    assert s.examine(("row", 0)) is not None
