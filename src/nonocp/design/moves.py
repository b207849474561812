"""Alternative solutions as *moves*, and which cell changes stop them.

A puzzle made from a picture `x` has other solutions when some cells can be repainted without changing
any clue. Such a repainting is a move: an assignment {(row, col): colour} of a few cells. A move is
*valid at* a grid when applying it changes the grid and leaves every row and column clue as it was; a
grid at which some move is valid is not unique (the moved grid is a second solution of its clues).

Two facts make moves cheap to work with:

* Only the lines a move touches (the rows and columns of the cells it changes) can lose their clue, so
  validity is decided by a handful of line clues, without a solver.
* The cells of a move split into groups that share no row or column (connected components under "same
  row or same column"); each group is itself a valid move, because every line it touches sees exactly the
  cells it would see under the whole move. So an alternative solution found by an engine, which may differ
  from `x` in several independent places at once, becomes several small atomic moves.

The same holds for count clues (a line's clue is still a function of its own cells alone): a move knows
its puzzle's clue kind and compares each touched line's clue in that kind.

Grids here are mutable `list[list[int]]` (palette indices), for speed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from nonocp.core.puzzle import COUNTS, RUNS

Cells = list[list[int]]


_RUN = re.compile(rb"([^\x00])\1*")


def runs(line: list[int]) -> list[bytes]:
    """A line's clue in a form that compares fast: its runs of one colour, each as bytes (colour and
    length in one). Equal exactly when the clues are equal."""
    out = []
    for chunk in bytes(line).split(b"\x00"):
        if chunk:
            if chunk.count(chunk[0]) == len(chunk):
                out.append(chunk)
            else:  # touching runs of different colours
                out.extend(m.group() for m in _RUN.finditer(chunk))
    return out


def counts(line: list[int]) -> dict[int, tuple[int, bool]]:
    """A line's count clue in a form that compares fast: per colour present, its count and whether its cells
    are one run. Equal exactly when the count clues are equal."""
    seen: dict[int, list[int]] = {}
    previous = None
    for v in line:
        entry = seen.get(v)
        if entry is None:
            seen[v] = [1, 1]
        else:
            entry[0] += 1
            entry[1] += v != previous
        previous = v
    return {v: (n, runs_of_it == 1) for v, (n, runs_of_it) in seen.items()}


# The clue of a line, by clue kind, in a form that compares equal exactly when the clues are equal.
SIGNATURES: dict[str, Callable[[list[int]], Any]] = {RUNS: runs, COUNTS: counts}


class Move:
    """An assignment {(row, col): colour}, with its cells grouped by row and by column once, because
    validity is tested many thousands of times per search. `kind` is the clue kind of the puzzle it moves
    in (what its lines must keep)."""

    __slots__ = ("cells", "by_row", "by_col", "key", "signature")

    def __init__(self, cells: dict[tuple[int, int], int], kind: str = RUNS) -> None:
        self.signature = SIGNATURES[kind]
        self.cells = dict(sorted(cells.items()))
        self.by_row: dict[int, list[tuple[int, int]]] = {}
        self.by_col: dict[int, list[tuple[int, int]]] = {}
        for (r, c), v in self.cells.items():
            self.by_row.setdefault(r, []).append((c, v))
            self.by_col.setdefault(c, []).append((r, v))
        self.key = frozenset(self.cells.items())

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self):
        return iter(self.cells)

    def __repr__(self) -> str:
        return f"Move({self.cells})"


def move_between(x: Cells, other: Cells) -> dict[tuple[int, int], int]:
    """The assignment that turns `x` into `other`: every cell where they differ, with `other`'s colour."""
    return {(r, c): b for r, (ra, rb) in enumerate(zip(x, other, strict=True))
            for c, (a, b) in enumerate(zip(ra, rb, strict=True)) if a != b}


def split_move(assignment: dict[tuple[int, int], int], kind: str = RUNS) -> list[Move]:
    """The line-disjoint groups of an assignment (each one a valid move wherever the whole is), as moves in a
    puzzle of clue kind `kind`."""
    parent = {cell: cell for cell in assignment}

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    first_in_row: dict[int, tuple[int, int]] = {}
    first_in_col: dict[int, tuple[int, int]] = {}
    for cell in assignment:
        r, c = cell
        for table, key in ((first_in_row, r), (first_in_col, c)):
            other = table.setdefault(key, cell)
            if other != cell:
                parent[find(cell)] = find(other)
    groups: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
    for cell, v in assignment.items():
        groups.setdefault(find(cell), {})[cell] = v
    return [Move(g, kind) for g in sorted(groups.values(), key=lambda g: min(g))]


def touched_lines(x: Cells, move: Move) -> tuple[set[int], set[int]]:
    """(rows, columns) in which applying `move` to `x` changes a cell."""
    rows, cols = set(), set()
    for (r, c), v in move.cells.items():
        if x[r][c] != v:
            rows.add(r)
            cols.add(c)
    return rows, cols


def _keeps_clue(line: list[int], group, signature: Callable[[list[int]], Any] = runs) -> bool:
    """True when the line, with the (position, value) pairs of `group` painted in, keeps its clue."""
    moved = list(line)
    for i, v in group:
        moved[i] = v
    return signature(moved) == signature(line)


def is_valid(x: Cells, move: Move) -> bool:
    """True when applying `move` changes `x` and keeps every clue: `x` then has a second solution."""
    touched = False
    for r, group in move.by_row.items():
        line = x[r]
        if all(line[c] == v for c, v in group):
            continue
        touched = True
        if not _keeps_clue(line, group, move.signature):
            return False
    if not touched:
        return False
    for c, group in move.by_col.items():
        if all(x[r][c] == v for r, v in group):
            continue
        if not _keeps_clue([row[c] for row in x], group, move.signature):
            return False
    return True


def kills(x: Cells, cell: tuple[int, int], value: int, move: Move) -> bool:
    """True when repainting `cell` with `value` makes `move`, valid at `x`, invalid.

    Only the cell's own row and column can change their verdict (every other line reads the same
    before and after), so only those two are compared; and a move left with nothing to change is void.
    """
    r, c = cell
    old = x[r][c]
    x[r][c] = value
    try:
        group = move.by_row.get(r)
        if group is not None:
            if not _keeps_clue(x[r], group, move.signature):
                return True
        group = move.by_col.get(c)
        if group is not None:
            if not _keeps_clue([row[c] for row in x], group, move.signature):
                return True
        if (r, c) in move.cells:
            return all(x[rr][cc] == v for (rr, cc), v in move.cells.items())
        return False
    finally:
        x[r][c] = old


def line_cells(x: Cells, move: Move) -> list[tuple[int, int]]:
    """Every cell of the lines `move` touches at `x`: a change that stops the move must be one of these."""
    rows, cols = touched_lines(x, move)
    h, w = len(x), len(x[0])
    out = {(r, c) for r in rows for c in range(w)}
    out |= {(r, c) for c in cols for r in range(h)}
    return sorted(out)


def dedupe(moves: Iterable[Move]) -> list[Move]:
    seen: set[frozenset] = set()
    out = []
    for m in moves:
        if m.key not in seen:
            seen.add(m.key)
            out.append(m)
    return out
