"""The native engine's line solver for count-and-contiguity clues (engines/native/count_line.py) against brute
force (tests/oracle.py: every arrangement of the line's counts, filtered by the definition).

Random lines of up to 6 colours, every combination of flags on the counts of 2 or more, random masks (some
cells decided to a valid line's colours, so that most cases have a solution and some have none). Both ways of
making scattered colours exact are checked: tracking them in the states at once, and the witness lines with
their moves (TRACK_COST forces one or the other)."""

from __future__ import annotations

import itertools
import random

import pytest

from conftest import FULL_DEPTH
from nonocp.core.counts import Count
from nonocp.engines.native import count_line
from oracle import count_line_support, count_lines

# how many random lines each case draws (a quarter in the quick run)
LINES = 300 if FULL_DEPTH else 75


def random_case(rnd: random.Random, ncolors: int, n: int):
    """A count vector for a line of n cells in ncolors colours (some zero), and a valid line with it."""
    line = [rnd.randrange(ncolors) for _ in range(n)]
    if rnd.random() < 0.5:  # runs, so that flags "all in a row" are common
        line = sorted(line, key=lambda v: (v * 7919 + rnd.randrange(2)) % ncolors)
    return [line.count(k) for k in range(ncolors)], line


def every_flagging(counts: list[int]):
    """Every clue with these counts: each count of 2 or more all in a row or not."""
    big = [k for k, c in enumerate(counts) if c >= 2]
    for flags in itertools.product((False, True), repeat=len(big)):
        together = dict(zip(big, flags, strict=True))
        yield tuple(Count(c, together.get(k, False)) for k, c in enumerate(counts))


def random_masks(rnd: random.Random, line: list[int], ncolors: int) -> list[int]:
    """Per colour, the cells that may be it: each cell keeps its colour in `line` with some chance and other
    colours at random; sometimes a cell is decided."""
    n = len(line)
    keep = rnd.choice([0.35, 0.6, 0.85, 1.0])
    masks = [0] * ncolors
    for i in range(n):
        if rnd.random() < 0.15:
            masks[line[i] if rnd.random() < 0.8 else rnd.randrange(ncolors)] |= 1 << i
            continue
        for k in range(ncolors):
            if k == line[i] and rnd.random() < 0.9 or rnd.random() < keep:
                masks[k] |= 1 << i
    return masks


@pytest.fixture(params=["exact-states", "witnesses", "default"])
def strategy(request, monkeypatch):
    """How scattered colours are made exact: all tracked at once, all by witnesses, or the solver's own choice."""
    if request.param == "exact-states":
        monkeypatch.setattr(count_line, "TRACK_COST", 1 << 40)
    elif request.param == "witnesses":
        monkeypatch.setattr(count_line, "TRACK_COST", 0)
    return request.param


@pytest.mark.parametrize("ncolors", [2, 3, 4, 5, 6])
def test_random_lines_every_flag_combination_against_brute_force(ncolors, strategy):
    rnd = random.Random(1000 + ncolors)
    seen = {"solvable": 0, "none": 0, "narrowed": 0}
    for _ in range(LINES):
        n = rnd.randint(1, 7 if ncolors <= 4 else 6)
        counts, line = random_case(rnd, ncolors, n)
        masks = random_masks(rnd, line, ncolors)
        for clue in every_flagging(counts):
            want = count_line_support(clue, n, masks)
            got = count_line.solve_line(clue, n, masks)
            assert got == want, (clue, n, masks)
            seen["none" if want is None else "solvable"] += 1
            if want is not None and tuple(want) != tuple(m & ((1 << n) - 1) for m in masks):
                seen["narrowed"] += 1
    assert all(seen.values()), seen


def test_longer_lines_with_many_scattered_colours(strategy):
    """Lines of 9-11 cells whose colours mostly form several runs: where witnesses and refinements are needed."""
    rnd = random.Random(77)
    for _ in range(LINES // 5):
        ncolors = rnd.randint(3, 5)
        n = rnd.randint(9, 11)
        line = [rnd.randrange(ncolors) for _ in range(n)]
        counts = [line.count(k) for k in range(ncolors)]
        clue = tuple(Count(c, c >= 2 and rnd.random() < 0.3) for c in counts)
        masks = random_masks(rnd, line, ncolors)
        assert count_line.solve_line(clue, n, masks) == count_line_support(clue, n, masks), (clue, masks)


def test_open_line_keeps_everything_a_line_can_hold():
    # a 6-cell line, counts 3* 2 1: every colour may go almost everywhere, but the two cells of colour b are apart
    clue = (Count(3, True), Count(2, False), Count(1))
    full = (1 << 6) - 1
    assert count_line.solve_line(clue, 6, [full] * 3) == count_line_support(clue, 6, [full] * 3)
    # 4* in 6 cells: the middle two cells are always in the run
    clue = (Count(4, True), Count(2, True))
    assert count_line.solve_line(clue, 6, [full, full]) == (0b111111, 0b110011)


def test_contradictions():
    full = (1 << 4) - 1
    # not all in a row but as many cells as the line: no line
    assert count_line.solve_line((Count(4, False), Count(0)), 4, [full, full]) is None
    # a colour with fewer candidate cells than its count
    assert count_line.solve_line((Count(2, False), Count(2, True)), 4, [0b0001, full]) is None
    # a decided cell in the middle splits the only room a run all in a row has
    assert count_line.solve_line((Count(3, True), Count(1)), 4, [0b1101, 0b0010]) is None


def test_feasible_agrees_with_solve():
    rnd = random.Random(5)
    for _ in range(LINES):
        ncolors = rnd.randint(2, 4)
        n = rnd.randint(1, 7)
        counts, line = random_case(rnd, ncolors, n)
        masks = random_masks(rnd, line, ncolors)
        clue = next(iter(every_flagging(counts)))
        plan = count_line.plan_of(clue, n)
        assert count_line.feasible_planned(plan, n, masks) == (count_line.solve_planned(plan, n, masks) is not None)


def test_the_oracle_itself():
    """count_lines is the definition: every arrangement of the counts, filtered (here against k**n lines)."""
    clue = (Count(2, True), Count(2, False), Count(1))
    lines = count_lines(clue, 5)
    from nonocp.core.counts import count_clue

    every = [p for p in itertools.product(range(3), repeat=5) if count_clue(p, 3) == clue]
    assert sorted(lines) == sorted(every) and lines
