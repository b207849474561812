"""The brute-force engine `brute`: every combination of row placements, each column checked as rows are added.

For tiny puzzles only (at most MAX_CELLS cells; bigger ones are refused with a one-line error): it is the
reference the tests check the other engines against, so it is written to be plainly right rather than fast
and shares no code with them. A row's placements are generated from its clue; a partial grid is abandoned
as soon as some column's cells so far cannot begin a line that reads back the column's clue. Count clues
(core/counts.py) the same way: a row's placements are the lines with its counts and flags, and a column's
cells so far must not exceed a count nor come back to a colour that is all in a row once it has ended.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from nonocp.core.cancel import Cancel
from nonocp.core.counts import CountClue, count_clue
from nonocp.core.grid import Grid
from nonocp.core.puzzle import COUNTS, Clue, Puzzle
from nonocp.core.result import SolveResult, status_of
from nonocp.engines.contract import Backend, Capabilities, SolveOptions, Stat, Stats

# Above this many cells the search may take minutes (a 10x10 grid has up to 2^100 candidate grids before
# the column checks), and a reference that times out checks nothing.
MAX_CELLS = 100
VERSION = "1.0"

Line = tuple[int, ...]


def placements(clue: Clue, length: int) -> list[Line]:
    """Every line of `length` (palette indices, 0 = background) whose runs are exactly `clue`."""
    blocks = [(b.length, b.color) for b in clue]
    out: list[Line] = []

    def place(i: int, start: int, cells: list[int]) -> None:
        if i == len(blocks):
            out.append(tuple(cells))
            return
        size, colour = blocks[i]
        rest = sum(n for n, _ in blocks[i + 1:])  # room the later blocks need, gaps aside: enough to prune
        for s in range(start, length - size - rest + 1):
            line = cells.copy()
            line[s:s + size] = [colour] * size
            # the next block of the same colour needs a background cell in between
            gap = 1 if i + 1 < len(blocks) and blocks[i + 1][1] == colour else 0
            place(i + 1, s + size + gap, line)

    place(0, 0, [0] * length)
    return out


def runs(cells: Line) -> list[tuple[int, int]]:
    """(length, colour) of each run of ink in `cells`, in order."""
    return [(sum(1 for _ in group), v) for v, group in itertools.groupby(cells) if v]


def could_begin(cells: Line, clue: list[tuple[int, int]]) -> bool:
    """Can a line that starts with `cells` read back `clue`? (Its finished runs are the clue's first ones,
    and a run still open at the end is no longer than the clue's next block of its colour.)"""
    got = runs(cells)
    if len(got) > len(clue):
        return False
    if not got:
        return True
    open_run = bool(cells[-1])
    finished = got[:-1] if open_run else got
    if finished != clue[:len(finished)]:
        return False
    if open_run:
        length, colour = got[-1]
        want_length, want_colour = clue[len(got) - 1]
        return colour == want_colour and length <= want_length
    return True


def count_placements(clue: CountClue, length: int) -> list[Line]:
    """Every line of `length` whose count clue is exactly `clue` (cells are palette indices 0..len(clue)-1)."""
    left = [e.count for e in clue]
    out: list[Line] = []
    cells: list[int] = []

    def place() -> None:
        if len(cells) == length:
            if count_clue(cells, len(clue)) == clue:
                out.append(tuple(cells))
            return
        for k in range(len(clue)):
            if not left[k]:
                continue
            # a colour all in a row cannot come back once its run has ended (prunes; the end check decides)
            if clue[k].together and k in cells and cells[-1] != k:
                continue
            left[k] -= 1
            cells.append(k)
            place()
            cells.pop()
            left[k] += 1

    place()
    return out


def count_could_begin(cells: Line, clue: CountClue) -> bool:
    """Can a line that starts with `cells` have the count clue `clue`? (No count exceeded, and no colour that is
    all in a row seen again after its run ended.)"""
    for k, entry in enumerate(clue):
        seen = [i for i, v in enumerate(cells) if v == k]
        if len(seen) > entry.count:
            return False
        if entry.together and seen and seen[-1] - seen[0] + 1 != len(seen):
            return False
    return True


def _allowed(line: Line, row: int, fixed: dict[tuple[int, int], int]) -> bool:
    return all(mask >> line[c] & 1 for (r, c), mask in fixed.items() if r == row)


class _Stop(Exception):
    pass


@dataclass
class Search:
    """The outcome of `search`: the solutions in the order found, whether the search ran to its end (so that
    they are all there is), whether the deadline stopped it, and its counts (BruteBackend.stats)."""

    solutions: list[Grid] = field(default_factory=list)
    exhausted: bool = False
    timed_out: bool = False
    stats: dict[str, int] = field(default_factory=dict)


def search(
    puzzle: Puzzle,
    limit: int | None = None,
    fixed: dict[tuple[int, int], int] | None = None,
    deadline: float | None = None,
    on_solution: Callable[[Grid, int], None] | None = None,
    cancel: Cancel | None = None,
) -> Search:
    """Every solution of `puzzle` (up to `limit`) whose cells lie in `fixed`'s masks, row by row: each row's
    placements in turn, a partial grid dropped when a column cannot begin its clue. No size bound here.
    `cancel` stops it as the deadline does."""
    fixed = fixed or {}
    if puzzle.clue_kind == COUNTS:
        ncolors = len(puzzle.palette)
        count_rows, count_cols = cast("tuple[CountClue, ...]", puzzle.rows), cast("tuple[CountClue, ...]", puzzle.cols)
        row_lines = [count_placements(clue, puzzle.width) for clue in count_rows]

        def column_done(c: int, cells: Line) -> bool:
            return count_clue(cells, ncolors) == count_cols[c]

        def column_open(c: int, cells: Line) -> bool:
            return count_could_begin(cells, count_cols[c])
    else:
        run_rows, run_cols = cast("tuple[Clue, ...]", puzzle.rows), cast("tuple[Clue, ...]", puzzle.cols)
        row_lines = [placements(clue, puzzle.width) for clue in run_rows]
        col_runs = [[(b.length, b.color) for b in clue] for clue in run_cols]

        def column_done(c: int, cells: Line) -> bool:
            return runs(cells) == col_runs[c]

        def column_open(c: int, cells: Line) -> bool:
            return could_begin(cells, col_runs[c])

    rows = [[p for p in lines if _allowed(p, r, fixed)] for r, lines in enumerate(row_lines)]
    out = Search(stats={"row_placements": sum(len(r) for r in rows), "nodes": 0})
    chosen: list[Line] = []

    def extend(r: int) -> None:
        if r == puzzle.height:
            if all(column_done(c, tuple(row[c] for row in chosen)) for c in range(puzzle.width)):
                out.solutions.append(Grid(tuple(chosen)))
                if on_solution is not None:
                    on_solution(out.solutions[-1], len(out.solutions))
                if limit is not None and len(out.solutions) >= limit:
                    raise _Stop
            return
        for line in rows[r]:
            out.stats["nodes"] += 1
            if not out.stats["nodes"] & 1023 and ((deadline is not None and time.monotonic() >= deadline)
                                                   or (cancel is not None and cancel.cancelled)):
                out.timed_out = True
                raise _Stop
            chosen.append(line)
            if all(column_open(c, tuple(row[c] for row in chosen)) for c in range(puzzle.width)):
                extend(r + 1)
            chosen.pop()

    try:
        extend(0)
        out.exhausted = True
    except _Stop:
        pass
    return out


class BruteBackend(Backend):
    name = "brute"
    capabilities = Capabilities(colours=True, enumerate=True, fixed=True, proofs=False, on_solution=True,
                                max_cells=MAX_CELLS)
    stats = Stats(
        Stat("row_placements", int, "placements of all rows' clues (the candidates per row, summed)"),
        Stat("nodes", int, "partial grids tried (one row added each)"),
        always=("row_placements", "nodes"),
    )

    def available(self) -> bool:
        return True

    def version(self) -> str:
        return VERSION

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        stream, progress = options.on_solution, options.progress

        def report(grid: Grid, n: int) -> None:
            if stream is not None:
                stream(grid)
            if progress is not None:
                progress({"solutions": n})

        return self.search(puzzle, options, report)

    def search(self, puzzle: Puzzle, options: SolveOptions,
               on_solution: Callable[[Grid, int], None] | None = None) -> SolveResult:
        self.check_puzzle(puzzle, options)
        start = time.monotonic()
        limit = options.max_solutions if options.max_solutions is None else max(1, options.max_solutions)
        found = search(puzzle, limit, options.fixed, options.deadline(start), on_solution, options.cancel)
        kept = found.solutions if options.keep is None else found.solutions[:options.keep]
        return SolveResult(
            status=status_of(len(found.solutions), found.exhausted, limit, found.timed_out),
            solutions=tuple(kept),
            found=len(found.solutions),
            exhausted=found.exhausted,
            backend=self.label,
            seconds=time.monotonic() - start,
            stats=found.stats,
        )
