"""What the designer works on: a `Design` (a picture as a grid of palette indices, to become a puzzle
whose goal it is) and a `Change` (one cell repainted to make the puzzle better)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nonocp.core.counts import count_colours_of
from nonocp.core.errors import NonocpError
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.core.puzzle import COUNTS, RUNS, Meta, Puzzle, picture_puzzle


@dataclass(frozen=True)
class Design:
    """A picture to publish as a puzzle: `grid` (palette indices, 0 = background) becomes the goal.

    `clue_kind` is the kind of clues the puzzle gets: run clues, or count clues (core/counts.py), for which
    every palette index is a colour (`as_counts()` makes such a design from any other).

    `margin`, when known, says per cell (row-major) how clearly the source picture chose that cell's
    colour, from 0 (on the boundary between two colours) to 1 (unmistakable). `make_unique` prefers to
    repaint cells with a small margin: among equally short fixes, the one the picture minds least.
    `source` describes where the picture came from (file, image size, threshold...), for reports.
    """

    grid: Grid
    palette: Palette
    title: str = ""
    margin: tuple[float, ...] | None = None
    source: dict[str, Any] = field(default_factory=dict, compare=False)
    clue_kind: str = RUNS

    def __post_init__(self) -> None:
        if self.grid.width < 1 or self.grid.height < 1:
            raise NonocpError("a design needs at least one row and one column")
        n = len(self.palette)
        if any(not 0 <= v < n for row in self.grid.cells for v in row):
            raise NonocpError("the design uses a colour that is not in its palette")
        if self.margin is not None and len(self.margin) != self.width * self.height:
            raise NonocpError("the design's margin must have one value per cell")

    @property
    def width(self) -> int:
        return self.grid.width

    @property
    def height(self) -> int:
        return self.grid.height

    @property
    def colors(self) -> int:
        """Colours besides the background (1 in black and white); with count clues, every colour."""
        return len(self.palette) - (self.clue_kind != COUNTS)

    def puzzle(self) -> Puzzle:
        """The puzzle whose clues are this picture's, with the picture as its goal."""
        return picture_puzzle(self.grid, self.palette, self.clue_kind, Meta(title=self.title))

    def with_grid(self, grid: Grid) -> Design:
        """The same design (palette, title, margins, source, clue kind) painted as `grid`."""
        return Design(grid, self.palette, self.title, self.margin, self.source, self.clue_kind)

    def filled_share(self) -> float:
        """The share of cells that are not background (0 to 1)."""
        return sum(v != 0 for row in self.grid.cells for v in row) / (self.width * self.height)

    def trimmed(self) -> Design:
        """The design without its empty border: the rows and columns at its edges that hold only background
        (the same design when there are none; NonocpError when every cell is background). With count clues
        the background is a colour like the others, so nothing is empty."""
        if self.clue_kind == COUNTS:
            return self
        cells = self.grid.cells
        rows = [r for r, row in enumerate(cells) if any(row)]
        cols = [c for c in range(self.width) if any(row[c] for row in cells)]
        if not rows or not cols:
            raise NonocpError("the design is empty: every cell is background, nothing is left to trim to")
        top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
        if (top, bottom, left, right) == (0, self.height, 0, self.width):
            return self
        grid = Grid(tuple(tuple(row[left:right]) for row in cells[top:bottom]))
        margin = None if self.margin is None else tuple(
            self.margin[r * self.width + c] for r in range(top, bottom) for c in range(left, right))
        source = {**self.source, "trimmed": {"top": top, "bottom": self.height - bottom, "left": left,
                                             "right": self.width - right}}
        return Design(grid, self.palette, self.title, margin, source, self.clue_kind)

    def as_counts(self) -> Design:
        """The same picture as a count-clue design: the colours it uses, the background one of them
        (NonocpError when it has fewer than two)."""
        if self.clue_kind == COUNTS:
            return self
        cells, palette = count_colours_of(self.grid.cells, self.palette)
        return Design(Grid.from_rows(cells), palette, self.title, self.margin, self.source, COUNTS)

    @staticmethod
    def from_puzzle(puzzle: Puzzle) -> Design:
        """The design a puzzle's `goal` draws (NonocpError when the puzzle has no goal)."""
        if puzzle.meta.goal is None:
            name = f" {puzzle.title!r}" if puzzle.title else ""
            raise NonocpError(f"the puzzle{name} has no goal picture to design from")
        return Design(puzzle.meta.goal, puzzle.palette, puzzle.title, clue_kind=puzzle.clue_kind)

    def cost(self, r: int, c: int) -> float:
        """What repainting cell (r, c) costs: 1, plus a little more the surer the picture is of it, so
        that the number of changes always comes first and the picture's preference breaks ties."""
        if self.margin is None:
            return 1.0
        return 1.0 + 0.01 * min(1.0, max(0.0, self.margin[r * self.width + c]))


@dataclass(frozen=True, order=True)
class Change:
    """Cell (row, col) (0-based) repainted from palette index `old` to `new`."""

    row: int
    col: int
    old: int
    new: int

    def describe(self, palette: Palette) -> str:
        """`r3c4 black -> white` (1-based, as people count)."""
        return f"r{self.row + 1}c{self.col + 1} {palette[self.old].name} -> {palette[self.new].name}"

    def as_dict(self, palette: Palette) -> dict[str, Any]:
        return {"row": self.row, "col": self.col, "from": palette[self.old].symbol, "to": palette[self.new].symbol}


def changes_between(before: Grid, after: Grid) -> tuple[Change, ...]:
    """Every cell in which two grids of one size differ, in reading order."""
    return tuple(
        Change(r, c, a, b)
        for r, (ra, rb) in enumerate(zip(before.cells, after.cells, strict=True))
        for c, (a, b) in enumerate(zip(ra, rb, strict=True))
        if a != b
    )


def apply_changes(grid: Grid, changes: Iterable[Change]) -> Grid:
    """`grid` with each change painted (a change's `old` must be what the grid holds there)."""
    cells = [list(row) for row in grid.cells]
    for ch in changes:
        if cells[ch.row][ch.col] != ch.old:
            raise ValueError(f"change {ch} does not start from the grid's colour {cells[ch.row][ch.col]}")
        cells[ch.row][ch.col] = ch.new
    return Grid.from_rows(cells)


def to_lists(grid: Grid) -> list[list[int]]:
    return [list(row) for row in grid.cells]


def to_grid(cells: Sequence[Sequence[int]]) -> Grid:
    return Grid.from_rows(cells)
