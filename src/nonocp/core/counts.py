"""Count-and-contiguity clues (the Hungry Cat clue kind): per line and colour, how many cells have that colour
and, for two or more, whether they are all in one run.

In such a puzzle every cell has exactly one of the palette's colours (there is no background: palette index 0 is
a colour like the others). A line's clue is one `Count` per palette colour, in palette order:

- `count`: how many of the line's cells have that colour (the counts of a line add up to its length);
- `together`, only for a count of 2 or more: True when those cells are all in a row (one unbroken run), False
  when they are not (two or more runs). A count of 0 or 1 has no flag (False).

Written `5 3* 2 0` in text (`*` after a count that is all in a row) and `{"count": 3, "allInARow": true}` in
JSON (formats/counts.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nonocp.core.errors import NonocpError
from nonocp.core.palette import Color, Palette

# A count puzzle's colours are named a, b, c, ... in palette order (the alphabet of goals and answers).
SYMBOLS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

# What follows a count that is all in a row: `*` in nonocp's text form, `•` in the seed game's.
ALL_IN_A_ROW_MARKS = ("*", "•")


@dataclass(frozen=True)
class Count:
    """One colour's part of a count clue: `count` cells, all in one run when `together` (counts >= 2 only)."""

    count: int
    together: bool = False

    def token(self) -> str:
        """`3*` (all in a row), `3` (not all in a row), `1`, `0`: the text entry form."""
        return f"{self.count}*" if self.together else str(self.count)


CountClue = tuple[Count, ...]  # one Count per palette colour, in palette order


def runs_of_colour(cells: Sequence[int], colour: int) -> int:
    """How many separate runs of `colour` the line has."""
    runs, previous = 0, None
    for value in cells:
        if value == colour and previous != colour:
            runs += 1
        previous = value
    return runs


def count_clue(cells: Sequence[int], ncolors: int) -> CountClue:
    """The count clue of one line of palette indices."""
    out = []
    for k in range(ncolors):
        n = sum(1 for v in cells if v == k)
        out.append(Count(n, n >= 2 and runs_of_colour(cells, k) == 1))
    return tuple(out)


def count_clues_of(cells: Sequence[Sequence[int]], ncolors: int) -> tuple[tuple[CountClue, ...], tuple[CountClue, ...]]:
    """(row clues, column clues) of a complete grid given as rows of palette indices."""
    rows = tuple(count_clue(row, ncolors) for row in cells)
    width = len(cells[0]) if cells else 0
    cols = tuple(count_clue([row[c] for row in cells], ncolors) for c in range(width))
    return rows, cols


def clue_problem(clue: Sequence[Count], length: int, ncolors: int) -> str | None:
    """Why `clue` cannot be the count clue of a line of `length` cells in `ncolors` colours (None when it can be
    one; it may still have no solution, as `3` not all in a row on a line of 3 cells)."""
    if len(clue) != ncolors:
        return f"{len(clue)} counts for {ncolors} colours (one count per colour)"
    for k, entry in enumerate(clue):
        if entry.count < 0:
            return f"colour {k + 1}: count {entry.count} is negative"
        if entry.together and entry.count < 2:
            return f"colour {k + 1}: count {entry.count} cannot be marked all in a row (only counts of 2 or more)"
    total = sum(e.count for e in clue)
    if total != length:
        return f"the counts add up to {total} but the line has {length} cells"
    return None


def clue_text(clue: Sequence[Count]) -> str:
    """`5 3* 2 0`: the text entry form of one line."""
    return " ".join(e.token() for e in clue)


def count_colours_of(cells: Sequence[Sequence[int]], palette: Palette) -> tuple[list[list[int]], Palette]:
    """A picture (rows of palette indices) recoloured for a count puzzle: only the colours it uses, in palette
    order, the background (index 0) among them as a colour like the others, symbols a, b, c, ...; with the
    cells renumbered to match. NonocpError when it uses fewer than two colours (a count puzzle needs two) or
    more than there are symbols, or two of them share one #rrggbb (the count forms name a colour by it)."""
    used = sorted({v for row in cells for v in row})
    if len(used) < 2:
        raise NonocpError("the picture has one colour; a count puzzle needs at least two")
    if len(used) > len(SYMBOLS):
        raise NonocpError(f"the picture has {len(used)} colours; a count puzzle holds at most {len(SYMBOLS)}")
    seen: dict[str, str] = {}
    for v in used:
        colour = palette[v]
        if colour.rgb in seen:
            raise NonocpError(f"colours {seen[colour.rgb]!r} and {colour.name!r} are both {colour.rgb}; "
                              "a count puzzle needs colours that differ")
        seen[colour.rgb] = colour.name
    new = {v: i for i, v in enumerate(used)}
    recoloured = Palette(tuple(Color(palette[v].name, palette[v].rgb, SYMBOLS[i]) for i, v in enumerate(used)))
    return [[new[v] for v in row] for row in cells], recoloured
