"""An independent solution checker: does a grid satisfy a puzzle's clues?

Written to share no code with the engines (no automaton, no line solver) nor with `puzzle.clues_of`:
it scans each row and column itself and compares the runs it sees with the clue's blocks (for count clues:
each colour's cells and runs with the clue's count and flag, sharing no code with `core.counts`). The
cross-check (`nonocp check`) trusts an engine's solution only after this module has accepted it, so
keep it small, obvious and separate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nonocp.core.puzzle import COUNTS, Puzzle

Run = tuple[int, int]  # (colour index, length)


@dataclass(frozen=True)
class LineMismatch:
    """One line whose runs differ from its clue. `index` is 0-based; the message counts from 1."""

    kind: str  # "row" or "column"
    index: int
    expected: tuple[Run, ...]
    found: tuple[Run, ...]

    def __str__(self) -> str:
        def show(runs: tuple[Run, ...]) -> str:
            return " ".join(f"{n}" if colour == 1 else f"{n}:{colour}" for colour, n in runs) or "(empty)"

        return f"{self.kind} {self.index + 1}: clue {show(self.expected)}, grid has {show(self.found)}"


@dataclass(frozen=True)
class Verification:
    """The checker's answer: `ok`, or the reasons the grid is not a solution."""

    ok: bool
    problems: tuple[str, ...] = ()
    mismatches: tuple[LineMismatch, ...] = ()

    def __bool__(self) -> bool:
        return self.ok

    def summary(self) -> str:
        if self.ok:
            return "ok"
        shown = list(self.problems) + [str(m) for m in self.mismatches[:3]]
        more = len(self.mismatches) - 3
        return "; ".join(shown) + (f"; and {more} more lines" if more > 0 else "")


def runs_of(cells: Sequence[int]) -> tuple[Run, ...]:
    """The coloured runs of one line, left to right: a run ends where the colour changes."""
    runs: list[Run] = []
    current, length = 0, 0
    for value in cells:
        if value == current:
            length += 1
            continue
        if current != 0:
            runs.append((current, length))
        current, length = value, 1
    if current != 0:
        runs.append((current, length))
    return tuple(runs)


def verify(puzzle: Puzzle, grid) -> Verification:
    """Check `grid` (a Grid, or rows of colour indices) against every row and column clue of `puzzle`."""
    cells = getattr(grid, "cells", grid)
    rows = [tuple(row) for row in cells]
    height, width = len(puzzle.rows), len(puzzle.cols)
    if len(rows) != height or any(len(row) != width for row in rows):
        shape = f"{len(rows[0]) if rows else 0}x{len(rows)}"
        return Verification(False, (f"the grid is {shape} but the puzzle is {width}x{height}",))
    ncolors = len(puzzle.palette)
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if not isinstance(value, int) or not 0 <= value < ncolors:
                return Verification(False, (f"cell ({r + 1},{c + 1}) holds {value!r}, not a palette index",))

    if puzzle.clue_kind == COUNTS:
        return _verify_counts(puzzle, rows)
    mismatches: list[LineMismatch] = []
    for r in range(height):
        want = tuple((b.color, b.length) for b in puzzle.rows[r])
        got = runs_of(rows[r])
        if got != want:
            mismatches.append(LineMismatch("row", r, want, got))
    for c in range(width):
        want = tuple((b.color, b.length) for b in puzzle.cols[c])
        got = runs_of([rows[r][c] for r in range(height)])
        if got != want:
            mismatches.append(LineMismatch("column", c, want, got))
    return Verification(not mismatches, (), tuple(mismatches))


def _colour_summary(cells: Sequence[int], ncolors: int) -> list[tuple[int, int]]:
    """Per colour (count of cells, number of separate runs), scanning the line once."""
    summary = [[0, 0] for _ in range(ncolors)]
    previous = None
    for value in cells:
        summary[value][0] += 1
        if value != previous:
            summary[value][1] += 1
        previous = value
    return [(n, runs) for n, runs in summary]


def _verify_counts(puzzle: Puzzle, rows: list[tuple[int, ...]]) -> Verification:
    """Count-and-contiguity clues: each colour's count, and for counts of 2 or more one run exactly when the
    clue says all in a row."""
    ncolors = len(puzzle.palette)
    problems: list[str] = []
    lines = [("row", r, rows[r], puzzle.rows[r]) for r in range(len(rows))]
    lines += [("column", c, [row[c] for row in rows], puzzle.cols[c]) for c in range(len(puzzle.cols))]
    for kind, index, cells, clue in lines:
        for k, (n, runs) in enumerate(_colour_summary(cells, ncolors)):
            want = clue[k]
            name = puzzle.palette[k].name
            if n != want.count:
                problems.append(f"{kind} {index + 1}: {want.count} cells of {name} in the clue, {n} in the grid")
            elif n >= 2 and (runs == 1) != want.together:
                said = "all in a row" if want.together else "not all in a row"
                problems.append(f"{kind} {index + 1}: {name} is {said} in the clue, in {runs} runs in the grid")
    if len(problems) > 3:
        problems = problems[:3] + [f"and {len(problems) - 3} more"]
    return Verification(not problems, tuple(problems))


