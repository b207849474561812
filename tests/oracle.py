"""Brute-force reference solver for tiny puzzles: the oracle every engine is checked against.

Deliberately naive and independent of the engines: it enumerates every placement of each row clue,
takes their product, and keeps the grids whose columns read back the column clues.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from nonocp.core.grid import Grid
from nonocp.core.puzzle import Clue, Puzzle


def line_runs(cells) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for v, grp in itertools.groupby(cells):
        if v:
            out.append((sum(1 for _ in grp), v))
    return out


def clue_pairs(clue: Clue) -> list[tuple[int, int]]:
    return [(b.length, b.color) for b in clue]


def line_solutions(clue: Clue, length: int, ncolors: int) -> list[tuple[int, ...]]:
    """Every line of `length` whose runs equal the clue (by testing all ncolors**length lines)."""
    want = clue_pairs(clue)
    return [cells for cells in itertools.product(range(ncolors), repeat=length) if line_runs(cells) == want]


def brute_force(puzzle: Puzzle, limit: int | None = None) -> list[Grid]:
    """All solutions (up to `limit`). Only for puzzles of a few dozen cells."""
    k = len(puzzle.palette)
    row_options = [line_solutions(c, puzzle.width, k) for c in puzzle.rows]
    col_want = [clue_pairs(c) for c in puzzle.cols]
    out: list[Grid] = []
    for rows in itertools.product(*row_options):
        if all(line_runs([r[c] for r in rows]) == col_want[c] for c in range(puzzle.width)):
            out.append(Grid(tuple(rows)))
            if limit is not None and len(out) >= limit:
                break
    return out


def iter_line_candidates(length: int, ncolors: int) -> Iterator[tuple[int, ...]]:
    return itertools.product(range(ncolors), repeat=length)
