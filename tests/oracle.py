"""The oracles every engine is checked against on tiny puzzles.

- `brute_force(puzzle)`: every solution, by the brute-force engine's search (nonocp.engines.brute), which
  shares no code with the engines it checks and is itself checked against the definition below
  (tests/test_brute.py), without its size bound (the oracle is for tests; callers keep puzzles tiny).
- `line_solutions` / `every_solution`: the definition itself, deliberately naive: every line of
  `ncolors**length` whose runs equal the clue, and every product of those rows whose columns read back the
  column clues. Only for a few dozen cells.
"""

from __future__ import annotations

import itertools

from nonocp.core.grid import Grid
from nonocp.core.puzzle import Clue, Puzzle
from nonocp.engines.brute import search


def brute_force(puzzle: Puzzle, limit: int | None = None) -> list[Grid]:
    """All solutions (up to `limit`), in the brute-force engine's order."""
    return search(puzzle, limit).solutions


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


def every_solution(puzzle: Puzzle) -> list[Grid]:
    """All solutions by the definition: each row any line that reads back its clue, the columns checked last."""
    k = len(puzzle.palette)
    row_options = [line_solutions(c, puzzle.width, k) for c in puzzle.rows]
    col_want = [clue_pairs(c) for c in puzzle.cols]
    return [Grid(tuple(rows)) for rows in itertools.product(*row_options)
            if all(line_runs([r[c] for r in rows]) == col_want[c] for c in range(puzzle.width))]


# ---- count-and-contiguity clues (core/counts.py), by their definition ----------------------------------


def count_line_ok(cells, clue) -> bool:
    """Does a line of palette indices have these counts and flags? (Written out here, not core.counts.)"""
    for k, entry in enumerate(clue):
        where = [i for i, v in enumerate(cells) if v == k]
        if len(where) != entry.count:
            return False
        if entry.count >= 2 and (where[-1] - where[0] + 1 == entry.count) != entry.together:
            return False
    return True


def count_lines(clue, length: int) -> list[tuple[int, ...]]:
    """Every line of `length` with this count clue: the distinct arrangements of its counts, filtered."""
    left = [e.count for e in clue]
    if sum(left) != length:
        return []
    out: list[tuple[int, ...]] = []

    def arrange(cells: list[int]) -> None:  # every distinct arrangement of the counts' cells
        if len(cells) == length:
            if count_line_ok(cells, clue):
                out.append(tuple(cells))
            return
        for k in range(len(left)):
            if left[k]:
                left[k] -= 1
                arrange(cells + [k])
                left[k] += 1

    arrange([])
    return out


def count_line_support(clue, length: int, masks) -> tuple[int, ...] | None:
    """The exact answer of a count line solver: per colour the cells some allowed line puts it in; None if no
    line fits `masks` (per colour, bit i = cell i may be it)."""
    new = [0] * len(clue)
    found = False
    for line in count_lines(clue, length):
        if all(masks[v] >> i & 1 for i, v in enumerate(line)):
            found = True
            for i, v in enumerate(line):
                new[v] |= 1 << i
    return tuple(new) if found else None


def every_count_solution(puzzle: Puzzle) -> list[Grid]:
    """All solutions of a count-clue puzzle by the definition: each row any line with its counts, the columns
    checked last. Only for a few dozen cells."""
    row_options = [count_lines(c, puzzle.width) for c in puzzle.rows]
    return [Grid(tuple(rows)) for rows in itertools.product(*row_options)
            if all(count_line_ok([r[c] for r in rows], puzzle.cols[c]) for c in range(puzzle.width))]
