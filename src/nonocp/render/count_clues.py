"""How count-and-contiguity clues (core/counts.py) are drawn: per line one label per colour, in palette order.

Text and terminal: the count, with `*` when its cells are all in a row (`5 3* 2 0`, the text entry form), painted
on its colour in a terminal. Pictures (SVG, PNG): a box of the colour with the count in a contrasting ink, a bar
under the number when the cells are all in a row, and a pale box with a grey `0` for a colour the line lacks.
"""

from __future__ import annotations

from nonocp.core.counts import CountClue
from nonocp.core.palette import contrast_color
from nonocp.core.puzzle import Puzzle

ZERO_INK = "#9a9a9a"
ZERO_TINT = 0.8  # how far a zero count's box is paled towards white


def count_tokens(clue: CountClue) -> list[tuple[str, int]]:
    """(token, palette colour) per colour of one line: `3*`, `3`, `1`, `0`."""
    return [(entry.token(), k) for k, entry in enumerate(clue)]


def pale(rgb: str, tint: float = ZERO_TINT) -> str:
    """`rgb` mixed with white (tint 0: unchanged, 1: white)."""
    channels = (int(rgb[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(v + (255 - v) * tint):02x}" for v in channels)


def count_labels(puzzle: Puzzle, gx: float, gy: float, cell: float, label_type) -> list:
    """The labels (render/geometry.Label, passed as `label_type`) of every row and column, the grid's top-left
    corner at (gx, gy): row labels to its left, column labels above it, one cell-sized box per colour."""
    palette = puzzle.palette
    k = len(palette)

    def label(x: float, y: float, colour: int, entry) -> object:
        rgb = palette[colour].rgb
        if entry.count == 0:
            return label_type(x, y, cell, "0", pale(rgb), ZERO_INK)
        return label_type(x, y, cell, str(entry.count), rgb, contrast_color(rgb), entry.together)

    out = []
    for r, clue in enumerate(puzzle.rows):
        out.extend(label(gx - (k - i) * cell, gy + r * cell, i, e) for i, e in enumerate(clue))
    for c, clue in enumerate(puzzle.cols):
        out.extend(label(gx + c * cell, gy - (k - i) * cell, i, e) for i, e in enumerate(clue))
    return out
