"""The puzzle model: colours, palettes, clues and puzzles (all immutable)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from nonocp.core.errors import InvalidPuzzleError
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette


@dataclass(frozen=True)
class Block:
    """A run of `length` cells of palette colour `color` (1..len(palette)-1)."""

    length: int
    color: int = 1


Clue = tuple[Block, ...]


def min_length(clue: Clue) -> int:
    """Fewest cells a clue needs: its blocks plus one gap between consecutive same-colour blocks."""
    total = sum(b.length for b in clue)
    gaps = sum(1 for a, b in zip(clue, clue[1:], strict=False) if a.color == b.color)
    return total + gaps


def line_clue(cells: Sequence[int]) -> Clue:
    """The clue of one line of colour indices (0 = background)."""
    out: list[Block] = []
    run, prev = 0, 0
    for v in cells:
        if v == prev:
            run += 1
            continue
        if prev:
            out.append(Block(run, prev))
        run, prev = 1, v
    if prev:
        out.append(Block(run, prev))
    return tuple(out)


def clues_of(grid: Grid) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """(row clues, column clues) of a solved grid."""
    rows = tuple(line_clue(r) for r in grid.cells)
    cols = tuple(line_clue([grid.cells[r][c] for r in range(grid.height)]) for c in range(grid.width))
    return rows, cols


@dataclass(frozen=True)
class Meta:
    """What a file says about a puzzle besides its clues. `goal` is one known solution (not always unique)."""

    title: str = ""
    author: str = ""
    copyright: str = ""
    license: str = ""
    source: str = ""
    goal: Grid | None = None


@dataclass(frozen=True)
class Puzzle:
    rows: tuple[Clue, ...]
    cols: tuple[Clue, ...]
    palette: Palette = field(default_factory=Palette.black_and_white)
    meta: Meta = field(default_factory=Meta, compare=False)

    @property
    def width(self) -> int:
        return len(self.cols)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def title(self) -> str:
        return self.meta.title

    def lines(self) -> list[tuple[Clue, int]]:
        """Every line as (clue, length): rows first, then columns (the order engines index lines in)."""
        return [(c, self.width) for c in self.rows] + [(c, self.height) for c in self.cols]

    def validate(self) -> Puzzle:
        """Raise InvalidPuzzleError with the reason if these clues cannot be a puzzle; return self.

        Clues whose colour totals differ are a puzzle (with no solution): see count_mismatch().
        """
        if self.width < 1 or self.height < 1:
            raise InvalidPuzzleError(f"the grid is {self.width}x{self.height}; it needs at least one row and column")
        ncol = len(self.palette)
        for kind, clues, length in (("row", self.rows, self.width), ("column", self.cols, self.height)):
            for i, clue in enumerate(clues, 1):
                for b in clue:
                    if not 1 <= b.color < ncol:
                        raise InvalidPuzzleError(f"{kind} {i}: colour index {b.color} is not in the palette")
                    if b.length < 1:
                        raise InvalidPuzzleError(f"{kind} {i}: block length {b.length} must be positive")
                need = min_length(clue)
                if need > length:
                    raise InvalidPuzzleError(f"{kind} {i}: the clue needs {need} cells but the line has {length}")
        if self.meta.goal is not None and (
            self.meta.goal.width != self.width or self.meta.goal.height != self.height
        ):
            goal = self.meta.goal
            raise InvalidPuzzleError(
                f"the goal is {goal.width}x{goal.height} but the puzzle is {self.width}x{self.height}"
            )
        return self

    def count_mismatch(self) -> str | None:
        """Why the clues cannot have a solution by counting alone (some colour's row clues paint a
        different number of cells than its column clues), or None when the counts agree.

        Not part of validate(): such a file is a well-formed puzzle whose answer is `none` (the
        command-line contract expects status `none`, exit 1).
        """
        for color in range(1, len(self.palette)):
            in_rows = sum(b.length for clue in self.rows for b in clue if b.color == color)
            in_cols = sum(b.length for clue in self.cols for b in clue if b.color == color)
            if in_rows != in_cols:
                name = self.palette[color].name
                return (
                    f"colour {name!r}: the row clues paint {in_rows} cells but the column clues paint {in_cols}"
                )
        return None

    def fingerprint(self) -> str:
        """A short stable hash of the clues and colour values (not names or metadata)."""
        h = hashlib.sha256()
        h.update(f"{self.width}x{self.height};".encode())
        h.update(",".join(c.rgb for c in self.palette.colors).encode())
        for clue in self.rows + self.cols:
            h.update((";" + ",".join(f"{b.length}.{b.color}" for b in clue)).encode())
        return h.hexdigest()[:16]

    def is_solution(self, grid: Grid) -> bool:
        """True when `grid` satisfies every clue."""
        if grid.width != self.width or grid.height != self.height:
            return False
        return clues_of(grid) == (self.rows, self.cols)
