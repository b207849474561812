"""Plain-text picture: the grid with row clues on the left and column clues stacked on top.

The layout is built once as lines of typed segments; `render_text` joins their text (for pipes and
files), and render/terminal.py paints the same segments with colours (for a terminal), so the two
never drift apart.

    >>> from nonocp.core.puzzle import Puzzle
    >>> from nonocp.core.grid import Grid
    >>> puzzle = Puzzle.from_clues(rows=[[1], [1, 1]], cols=[[1], [1], [1]])
    >>> print(render_text(puzzle, Grid(((0, 1, 0), (1, 0, 1)))), end="")
          1 1 1
        +------
      1 | . # .
    1 1 | # . #
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.render.clues import Marked, line_tokens

UNKNOWN_CELL = " "
MARKED_CELL = "?"
# How many cells are drawn between two looks at the clock (a look costs more than a cell).
CELLS_PER_CLOCK_CHECK = 50_000


class Deadline:
    """A time.monotonic() value by which a drawing must end; `cut` is set when one stopped at it (the rows
    after it are left out, and a last line says so)."""

    def __init__(self, at: float | None) -> None:
        self.at = at
        self.cut = False

    def passed(self) -> bool:
        return self.at is not None and time.monotonic() > self.at


CUT_NOTE = "(the drawing stops here: the time limit ran out; --format json has every cell)"


@dataclass
class Fit:
    """How wide pictures may be, for the whole process (the command line sets it once: `fit_to`).

    `width`: a picture wider than this many columns is drawn tight, cells touching (one column a cell when
    the column clues are single digits, else as wide as the longest clue number: 2 columns for clues
    up to 99), so a 40-wide puzzle fits 80 columns with its clues. `compact`: always tight. The default
    (no width, not compact) is the spaced layout, as the Python API draws."""

    width: int | None = None
    compact: bool = False


FIT = Fit()


def fit_to(width: int | None, compact: bool = False) -> None:
    """Set FIT (see there)."""
    FIT.width, FIT.compact = width, compact


@dataclass(frozen=True)
class Segment:
    """A piece of one output line. `kind` is "pad" (spaces, frame), "clue" or "cell".

    `color` is a palette index for clues and decided cells, None for frame and undecided cells.
    """

    text: str
    kind: str = "pad"
    color: int | None = None
    marked: bool = False


def cell_symbol(puzzle: Puzzle, color: int) -> str:
    """`#`/`.` in black and white; the colour's file symbol in colour puzzles (`.` for background; count puzzles
    have none)."""
    if puzzle.has_counts:
        return puzzle.palette[color].symbol
    if color == 0:
        return "."
    if puzzle.palette.is_black_and_white:
        return "#"
    return puzzle.palette[color].symbol


def layout(puzzle: Puzzle, grid: Grid | None = None, marked: Marked | None = None, gap: bool = True,
           deadline: Deadline | None = None):
    """The picture's lines, each a list of Segments, one line at a time (a generator: a Segment for every
    cell of a 2000x2000 grid at once would take a gigabyte). A run of neighbouring cells alike (same
    colour, both marked or not) is one Segment.

    With `gap`, cells are one character apart (plain text); without, cells touch (painted cells make a
    picture) and each is at least two characters wide and one wider than the longest column token.
    Past `deadline` the rows stop (looked at every CELLS_PER_CLOCK_CHECK cells, so a small grid is always
    drawn whole) and a last line says so.
    """
    marked_set = set(marked or ())
    marked_rows = {r for r, _ in marked_set}
    row_labels = [line_tokens(puzzle, c) for c in puzzle.rows]  # (token, colour) pairs
    col_labels = [line_tokens(puzzle, c) for c in puzzle.cols]
    row_tokens = [[t for t, _ in toks] for toks in row_labels]
    col_tokens = [[t for t, _ in toks] for toks in col_labels]
    margin = max(len(" ".join(t)) for t in row_tokens)
    longest = max(len(tok) for toks in col_tokens for tok in toks)
    cw = longest if gap else max(2, longest + 1)
    sep = " " if gap else ""
    if FIT.compact or (FIT.width is not None and margin + 3 + puzzle.width * (cw + len(sep)) > FIT.width):
        cw, sep = (longest, "") if gap or FIT.compact else (max(2, longest), "")
    depth = max(len(t) for t in col_tokens)
    lead = " | " if gap else " |"  # between the row clues and the first cell

    for k in range(depth):  # column clues, bottom-aligned against the grid
        line = [Segment(" " * (margin + len(lead)))]
        for c, toks in enumerate(col_tokens):
            if c and sep:
                line.append(Segment(sep))
            i = k - (depth - len(toks))
            if i < 0:
                line.append(Segment(" " * cw))
            else:
                line.append(Segment(toks[i].rjust(cw), "clue", col_labels[c][i][1]))
        yield line
    rule = len(lead) - 2 + puzzle.width * cw + (puzzle.width - 1) * len(sep)
    yield [Segment(" " * (margin + 1) + "+" + "-" * rule)]
    texts = {None: UNKNOWN_CELL.rjust(cw), "marked": MARKED_CELL.rjust(cw)}
    texts.update((i, cell_symbol(puzzle, i).rjust(cw)) for i in range(len(puzzle.palette)))
    since_check = 0
    for r, toks in enumerate(row_tokens):
        since_check += puzzle.width
        if deadline is not None and since_check >= CELLS_PER_CLOCK_CHECK:
            since_check = 0
            if deadline.passed():
                deadline.cut = True
                yield [Segment(CUT_NOTE)]
                return
        line = [Segment(" " * (margin - len(" ".join(toks))))]
        for i, tok in enumerate(toks):
            if i:
                line.append(Segment(" "))
            line.append(Segment(tok, "clue", row_labels[r][i][1]))
        line.append(Segment(lead))
        colours = grid.cells[r] if grid is not None else itertools.repeat(None, puzzle.width)
        if r in marked_rows:
            keys = [(v, (r, c) in marked_set) for c, v in enumerate(colours)]
        else:
            keys = [(v, False) for v in colours]
        first = True
        for (color, is_marked), run in itertools.groupby(keys):
            n = sum(1 for _ in run)
            if not first and sep:
                line.append(Segment(sep))
            first = False
            text = texts["marked" if is_marked else color]
            line.append(Segment(sep.join(itertools.repeat(text, n)), "cell", color, is_marked))
        yield line


def render_text(puzzle: Puzzle, grid: Grid | None = None, marked: Marked | None = None,
                deadline: Deadline | None = None) -> str:
    """The puzzle's clues around `grid` (or an empty grid), as plain text ending in a newline; cut at
    `deadline` (see layout)."""
    lines = layout(puzzle, grid, marked, deadline=deadline)
    return "".join("".join(s.text for s in line).rstrip() + "\n" for line in lines)
