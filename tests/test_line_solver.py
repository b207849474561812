"""The native line solver against brute force: exhaustive on short lines, hypothesis-driven up to length 10.
Both implementations: the Python one (line.py) and, where it is built, the compiled core's (csrc/core.h).

Oracles: `tests/oracle.py`'s `line_solutions` (every ncolors**length line, filtered by its runs) where that
is affordable, and for longer colour lines a direct enumeration of block placements (itself checked
against `line_solutions` below). A line solver result is exact when each cell keeps exactly the colours
that some valid line consistent with the partial line puts there, and None exactly when no line fits.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FULL_DEPTH, examples
from nonocp.core.puzzle import Block, Clue, line_clue
from nonocp.engines.native import core
from nonocp.engines.native.line import _reverse, feasible_planned, plan_of, solve_line
from oracle import line_solutions


@cache
def brute_lines(clue: Clue, n: int, ncol: int) -> tuple[tuple[int, ...], ...]:
    return tuple(line_solutions(clue, n, ncol))


def placements(clue: Clue, n: int) -> list[tuple[int, ...]]:
    """Every line satisfying `clue` by placing the blocks left to right (an oracle independent of the solver)."""
    out: list[tuple[int, ...]] = []

    def place(j: int, pos: int, cells: list[int]) -> None:
        if j == len(clue):
            out.append(tuple(cells + [0] * (n - pos)))
            return
        b = clue[j]
        gap = 1 if j + 1 < len(clue) and clue[j + 1].color == b.color else 0
        rest = sum(x.length for x in clue[j + 1:]) + sum(
            1 for a, c in zip(clue[j:], clue[j + 1:], strict=False) if a.color == c.color
        ) - gap
        for start in range(pos, n - b.length - rest - gap + 1):
            head = cells + [0] * (start - pos) + [b.color] * b.length
            if gap:
                place(j + 1, start + b.length + 1, head + [0])
            else:
                place(j + 1, start + b.length, head)

    place(0, 0, [])
    return out


def placement_count(clue: Clue, n: int) -> int:
    """How many lines satisfy `clue` (stars and bars: the free cells spread over len(clue) + 1 gaps)."""
    from math import comb

    gaps = sum(1 for a, b in zip(clue, clue[1:], strict=False) if a.color == b.color)
    free = n - sum(b.length for b in clue) - gaps
    return comb(free + len(clue), len(clue)) if free >= 0 else 0


def expected(lines, cellmasks) -> list[int] | None:
    """Per cell, the union of colours over the lines that fit the partial line (None if none fits)."""
    fitting = [ln for ln in lines if all((m >> v) & 1 for m, v in zip(cellmasks, ln, strict=True))]
    if not fitting:
        return None
    out = [0] * len(cellmasks)
    for ln in fitting:
        for i, v in enumerate(ln):
            out[i] |= 1 << v
    return out


# the compiled solver is tested wherever it is built; tests/test_core.py fails if a compiler was there and it is not
IMPLS = ["python", "c"] if core.available() else ["python"]


def run_solver(clue: Clue, cellmasks, ncol: int, impl: str = "python") -> list[int] | None:
    n = len(cellmasks)
    masks = [sum(((cellmasks[i] >> c) & 1) << i for i in range(n)) for c in range(ncol)]
    blocks = tuple((b.length, b.color) for b in clue)
    if impl == "c":
        # a compiled core whose row 0 is this line (its columns are one empty cell each)
        got = core.new_core([blocks] + [()] * n, [n] + [1] * n, 1, n, ncol, compiled=True).solve_line(0, masks)
    else:
        got = solve_line(blocks, n, masks)
        assert feasible_planned(plan_of(blocks), n, masks) == (got is not None), "the one-pass check must agree"
    if got is None:
        return None
    assert len(got) == ncol
    for c in range(ncol):
        assert got[c] & ~masks[c] == 0, "the solver must only remove colours"
    return [sum(((got[c] >> i) & 1) << c for c in range(ncol)) for i in range(n)]


def all_clues(n: int, ncol: int) -> set[Clue]:
    return {line_clue(cells) for cells in itertools.product(range(ncol), repeat=n)}


@settings(max_examples=examples(300), deadline=None)
@given(width=st.integers(1, 300), data=st.data())
def test_bit_reversal(width, data):
    x = data.draw(st.integers(0, (1 << width) - 1))
    assert _reverse(x, width) == int(format(x, f"0{width}b")[::-1], 2)


@pytest.mark.parametrize("impl", IMPLS)
def test_exhaustive_black_and_white_up_to_6(impl):
    checked = 0
    for n in range(1, 7 if FULL_DEPTH else 6):
        for clue in all_clues(n, 2):
            lines = brute_lines(clue, n, 2)
            for cellmasks in itertools.product((1, 2, 3), repeat=n):
                assert run_solver(clue, cellmasks, 2, impl) == expected(lines, cellmasks), (clue, cellmasks)
                checked += 1
    assert checked > (10_000 if FULL_DEPTH else 3_000)


@pytest.mark.parametrize("impl", IMPLS)
def test_exhaustive_three_colours_up_to_2(impl):
    # palette of 4 (background + 3 colours): every clue of length <= 2, every partial line (15**n)
    for n in range(1, 3):
        for clue in all_clues(n, 4):
            lines = brute_lines(clue, n, 4)
            for cellmasks in itertools.product(range(1, 16), repeat=n):
                assert run_solver(clue, cellmasks, 4, impl) == expected(lines, cellmasks), (clue, cellmasks)


@pytest.mark.parametrize("impl", IMPLS)
def test_exhaustive_two_colours_up_to_3(impl):
    for n in range(1, 4):
        for clue in all_clues(n, 3):
            lines = brute_lines(clue, n, 3)
            for cellmasks in itertools.product(range(1, 8), repeat=n):
                assert run_solver(clue, cellmasks, 3, impl) == expected(lines, cellmasks), (clue, cellmasks)


@st.composite
def clue_and_partial_line(draw, max_n: int = 10):
    ncol = draw(st.sampled_from([2, 3, 4]))
    n = draw(st.integers(1, max_n))
    # the clue of a random line (so it fits), or sometimes of another length's line (may not fit)
    source = draw(st.lists(st.integers(0, ncol - 1), min_size=n, max_size=n))
    if draw(st.booleans()):
        # longer runs look more like real clues
        runs = draw(st.lists(st.tuples(st.integers(0, ncol - 1), st.integers(1, 4)), min_size=1, max_size=n))
        source = [v for v, k in runs for _ in range(k)][:n]
        source += [0] * (n - len(source))
    clue = line_clue(source)
    full = (1 << ncol) - 1
    keep_source = draw(st.booleans())
    cellmasks = []
    for i in range(n):
        m = draw(st.one_of(st.just(full), st.integers(1, full)))
        if keep_source:
            m |= 1 << source[i]  # guarantees at least one fitting line
        cellmasks.append(m)
    return clue, tuple(cellmasks), ncol


def oracle_lines(clue: Clue, n: int, ncol: int):
    if ncol ** n <= 70_000:
        return brute_lines(clue, n, ncol)
    return placements(clue, n)


@pytest.mark.parametrize("impl", IMPLS)
@settings(max_examples=examples(300), deadline=None)
@given(case=clue_and_partial_line())
def test_matches_brute_force_up_to_length_10(impl, case):
    clue, cellmasks, ncol = case
    lines = oracle_lines(clue, len(cellmasks), ncol)
    assert run_solver(clue, cellmasks, ncol, impl) == expected(lines, cellmasks)


def test_placement_oracle_agrees_with_brute_force():
    for ncol, n in ((2, 8), (3, 6), (4, 5)):
        for clue in all_clues(n, ncol):
            assert sorted(placements(clue, n)) == sorted(brute_lines(clue, n, ncol)), clue


@pytest.mark.parametrize("impl", IMPLS)
def test_long_lines_against_placements(impl):
    # lengths well past 10, where the packed-integer reversal spans several machine words
    import random

    rng = random.Random(7)
    for _ in range(150 if FULL_DEPTH else 40):
        ncol = rng.choice([2, 3])
        n = rng.randint(20, 70)
        src: list[int] = []
        while len(src) < n:
            src += [rng.randrange(ncol)] * rng.randint(1, 6)
        src = src[:n]
        clue = line_clue(src)
        full = (1 << ncol) - 1
        cellmasks = tuple(
            (rng.randrange(1, full + 1) | (1 << src[i])) if rng.random() < 0.3 else full for i in range(n)
        )
        if placement_count(clue, n) > (50_000 if FULL_DEPTH else 10_000):
            continue  # the oracle would enumerate too many lines; other random lines cover the code
        lines = placements(clue, n)
        assert run_solver(clue, cellmasks, ncol, impl) == expected(lines, cellmasks)


@pytest.mark.parametrize("impl", IMPLS)
def test_contradictions(impl):
    two = (Block(2, 1),)
    assert run_solver(two, (3, 1, 3), 2, impl) is None  # the only free cells are apart
    assert run_solver((), (2, 3), 2, impl) is None  # an empty line with a forced black cell
    # same colour needs a gap, different colours may touch
    assert run_solver((Block(1, 1), Block(1, 1)), (7, 7), 3, impl) is None
    assert run_solver((Block(1, 1), Block(1, 2)), (7, 7), 3, impl) == [2, 4]
