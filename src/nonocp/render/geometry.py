"""Where everything goes in a picture of a puzzle: shared by the SVG and PNG renderers, so that both
draw the same image. Units are pixels; (x, y) is the top-left corner of a box.

Each clue block gets a cell-sized box: in black and white a number, in colour a square of the
block's colour with the number written in a contrasting ink. Grid lines are thin between cells,
thicker every fifth line (the way printed nonograms help the eye count) and thickest on the border.
"""

from __future__ import annotations

from dataclasses import dataclass

from nonocp.core.errors import NonocpError
from nonocp.core.grid import Grid
from nonocp.core.palette import contrast_color
from nonocp.core.puzzle import Puzzle
from nonocp.render.clues import Marked

# The biggest picture drawn: a PNG is held as RGB (3 bytes a pixel) and every cell is an object here and
# a `<rect>` in SVG, so a 2000x2000 grid at 20 px (1.6 gigapixels) would take gigabytes
# (benchmarks/results/memory.md). Both limits let the corpus's largest puzzle (512x512) through.
MAX_PIXELS = 200_000_000
MAX_CELLS = 1_100_000

INK = "#000000"
PAPER = "#ffffff"
THIN, THICK, BORDER = "#b0b0b0", "#404040", "#000000"
# A marked (undecided) cell is a checkerboard of CHECKS x CHECKS squares in these two greys.
CHECKS = 4
CHECK_LIGHT, CHECK_DARK = "#f2f2f2", "#b8b8b8"
DEFAULT_CELL = 20  # pixels; `--cell-size` changes it


@dataclass(frozen=True)
class Label:
    """One clue block: a box at (x, y) of side `size`, `fill` (None = no box) and its number; `bar` draws a
    bar under the number (a count clue whose cells are all in a row, render/count_clues.py)."""

    x: float
    y: float
    size: float
    text: str
    fill: str | None
    ink: str
    bar: bool = False

    def bar_line(self) -> tuple[float, float, float, float]:
        """(x1, y1, x2, y2) of the bar under the number."""
        y = self.y + self.size * 0.84
        return self.x + self.size * 0.28, y, self.x + self.size * 0.72, y


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    x: float
    y: float
    fill: str
    marked: bool


@dataclass(frozen=True)
class Rule:
    """A grid line from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float
    color: str
    width: float


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    cell: int
    labels: list[Label]
    cells: list[Cell]
    rules: list[Rule]


def font_size(text: str, cell: float) -> float:
    """Big enough to read, small enough that three digits still fit in a cell."""
    return round(cell * min(0.62, 1.55 / max(len(text), 1)), 1)


def picture(
    puzzle: Puzzle, grid: Grid | None = None, marked: Marked | None = None, cell: int = DEFAULT_CELL
) -> Picture:
    palette = puzzle.palette
    bw = palette.is_black_and_white
    pad = cell // 2
    row_slots = max(max(len(c) for c in puzzle.rows), 1)  # an empty line still shows its `0`
    col_slots = max(max(len(c) for c in puzzle.cols), 1)
    gx = pad + row_slots * cell  # grid's top-left corner
    gy = pad + col_slots * cell
    width = gx + puzzle.width * cell + pad
    height = gy + puzzle.height * cell + pad
    if width * height > MAX_PIXELS or puzzle.width * puzzle.height > MAX_CELLS:
        raise NonocpError(
            f"a picture of this {puzzle.width}x{puzzle.height} puzzle would be {width}x{height} pixels; pictures "
            f"stop at {MAX_PIXELS // 1_000_000} megapixels and {MAX_CELLS:,} cells (use --format text or json)")

    def label(x: float, y: float, length: int, color: int) -> Label:
        if color == 0:  # the `0` of an empty line
            return Label(x, y, cell, "0", None, INK)
        if bw:
            return Label(x, y, cell, str(length), None, INK)
        rgb = palette[color].rgb
        return Label(x, y, cell, str(length), rgb, contrast_color(rgb))

    labels: list[Label] = []
    if puzzle.has_counts:  # count clues: one label per colour (render/count_clues.py)
        from nonocp.render.count_clues import count_labels

        labels = count_labels(puzzle, gx, gy, cell, Label)
    for r, clue in enumerate(puzzle.rows if not puzzle.has_counts else ()):
        blocks = [(b.length, b.color) for b in clue] or [(0, 0)]
        for i, (length, color) in enumerate(blocks):
            labels.append(label(gx - (len(blocks) - i) * cell, gy + r * cell, length, color))
    for c, clue in enumerate(puzzle.cols if not puzzle.has_counts else ()):
        blocks = [(b.length, b.color) for b in clue] or [(0, 0)]
        for i, (length, color) in enumerate(blocks):
            labels.append(label(gx + c * cell, gy - (len(blocks) - i) * cell, length, color))

    marked_set = set(marked or ())
    cells = [
        Cell(r, c, gx + c * cell, gy + r * cell, palette[grid.cells[r][c]].rgb if grid else PAPER, (r, c) in marked_set)
        for r in range(puzzle.height)
        for c in range(puzzle.width)
    ]

    rules: list[Rule] = []
    for i in range(puzzle.width + 1):
        edge = i in (0, puzzle.width)
        color, w = (BORDER, 2.0) if edge else ((THICK, 1.5) if i % 5 == 0 else (THIN, 1.0))
        rules.append(Rule(gx + i * cell, gy, gx + i * cell, gy + puzzle.height * cell, color, w))
    for j in range(puzzle.height + 1):
        edge = j in (0, puzzle.height)
        color, w = (BORDER, 2.0) if edge else ((THICK, 1.5) if j % 5 == 0 else (THIN, 1.0))
        rules.append(Rule(gx, gy + j * cell, gx + puzzle.width * cell, gy + j * cell, color, w))
    return Picture(width, height, cell, labels, cells, rules)
