"""Symmetries of a puzzle's clues: the rotations and reflections of the grid that map the clues onto themselves.

Why: when the clues are symmetric, the image of a solution under such a symmetry is a solution too. So a
puzzle with exactly one solution and symmetric clues has a symmetric solution, and designed pictures (knots,
mandalas) often have one even when they have several. Searching for a solution that the symmetries map onto
itself first is a much smaller search: every cell of an orbit takes the same colour (Knotty's clues turn by
a quarter, and its formula with that restriction gives CaDiCaL a first solution in seconds where the whole
one gives none in minutes; benchmarks/results/auto.md). It only guides the search for a first solution: the
count goes on over the whole puzzle.

Empty lines at the edges are left out first: their cells are background in every solution, and a picture
drawn off-centre in its frame (Knotty's last row and column are empty) is symmetric within the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from nonocp.core.puzzle import Puzzle

Cell = tuple[int, int]

# the moves of a box of h rows and w columns, on coordinates within it; the last four turn rows into columns,
# so they need h == w
_MOVES: tuple[tuple[str, bool, Callable[[int, int, int, int], Cell]], ...] = (
    ("mirror left-right", False, lambda r, c, h, w: (r, w - 1 - c)),
    ("mirror top-bottom", False, lambda r, c, h, w: (h - 1 - r, c)),
    ("half turn", False, lambda r, c, h, w: (h - 1 - r, w - 1 - c)),
    ("mirror on the main diagonal", True, lambda r, c, h, w: (c, r)),
    ("mirror on the other diagonal", True, lambda r, c, h, w: (w - 1 - c, h - 1 - r)),
    ("quarter turn clockwise", True, lambda r, c, h, w: (c, h - 1 - r)),
    ("quarter turn anticlockwise", True, lambda r, c, h, w: (w - 1 - c, r)),
)


@dataclass(frozen=True)
class Symmetry:
    """One move of the box rows top..top+height-1, columns left..left+width-1 (the puzzle's non-empty part)."""

    name: str
    swaps: bool  # rows go to columns
    top: int
    left: int
    height: int
    width: int
    move: Callable[[int, int, int, int], Cell]

    def __call__(self, r: int, c: int) -> Cell:
        """The image of cell (r, c) of the box, in the puzzle's coordinates."""
        r2, c2 = self.move(r - self.top, c - self.left, self.height, self.width)
        return r2 + self.top, c2 + self.left


def _box(puzzle: Puzzle) -> tuple[int, int, int, int]:
    """(top, bottom, left, right), half-open: the rows and columns left after the empty ones at the edges."""
    rows, cols = puzzle.rows, puzzle.cols
    top, bottom, left, right = 0, len(rows), 0, len(cols)
    while top < bottom and not rows[top]:
        top += 1
    while bottom > top and not rows[bottom - 1]:
        bottom -= 1
    while left < right and not cols[left]:
        left += 1
    while right > left and not cols[right - 1]:
        right -= 1
    return top, bottom, left, right


def _keeps_clues(puzzle: Puzzle, sym: Symmetry) -> bool:
    """Does every line of the box go to a line with the same clue (reversed when the move reverses it)?"""
    rows, cols = range(sym.top, sym.top + sym.height), range(sym.left, sym.left + sym.width)
    lines = [(puzzle.rows[r], [(r, c) for c in cols], True) for r in rows]
    lines += [(puzzle.cols[c], [(r, c) for r in rows], False) for c in cols]
    for clue, cells, is_row in lines:
        image = [sym(r, c) for r, c in cells]
        if is_row != sym.swaps:  # the image is a row
            target, positions = puzzle.rows[image[0][0]], [c for _, c in image]
        else:
            target, positions = puzzle.cols[image[0][1]], [r for r, _ in image]
        reverses = len(positions) > 1 and positions[1] < positions[0]
        if target != (tuple(reversed(clue)) if reverses else clue):
            return False
    return True


def clue_symmetries(puzzle: Puzzle) -> tuple[Symmetry, ...]:
    """The moves (other than doing nothing) that map the clues onto themselves; () for count-and-contiguity
    clues and for a puzzle with no filled line."""
    if puzzle.has_counts:
        return ()
    top, bottom, left, right = _box(puzzle)
    h, w = bottom - top, right - left
    if not h or not w:
        return ()
    found = []
    for name, swaps, move in _MOVES:
        if swaps and h != w:
            continue
        sym = Symmetry(name, swaps, top, left, h, w, move)
        if _keeps_clues(puzzle, sym):
            found.append(sym)
    return tuple(found)


def orbits(symmetries: tuple[Symmetry, ...]) -> list[list[Cell]]:
    """The cells the group of `symmetries` moves into each other, each orbit of two or more cells as a list
    (its first cell the top-left one); a solution the symmetries map onto itself is one colour per orbit."""
    if not symmetries:
        return []
    s = symmetries[0]
    parent: dict[Cell, Cell] = {}

    def find(x: Cell) -> Cell:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for r in range(s.top, s.top + s.height):
        for c in range(s.left, s.left + s.width):
            for sym in symmetries:
                a, b = find((r, c)), find(sym(r, c))
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[Cell, list[Cell]] = {}
    for r in range(s.top, s.top + s.height):
        for c in range(s.left, s.left + s.width):
            groups.setdefault(find((r, c)), []).append((r, c))
    return [cells for cells in groups.values() if len(cells) > 1]


def restrictions(symmetries: tuple[Symmetry, ...]) -> list[tuple[tuple[str, ...], list[list[Cell]]]]:
    """The symmetric solutions to look for, in order, as (the moves, their orbits): first those of every move
    at once, then those of each move alone (its own group), each set of orbits once. Why both: a puzzle with
    one solution has a solution of the whole group, but a picture with several may only have ones that a
    single move keeps (a quarter-turn knot whose clues happen to be mirror-symmetric too)."""
    out: list[tuple[tuple[str, ...], list[list[Cell]]]] = []
    seen: set[frozenset[frozenset[Cell]]] = set()
    for group in (symmetries, *((s,) for s in symmetries)):
        groups = orbits(group)
        key = frozenset(frozenset(g) for g in groups)
        if groups and key not in seen:
            seen.add(key)
            out.append((tuple(s.name for s in group), groups))
    return out
