"""Solved grids and partial grids (per-cell sets of still-possible colours)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nonocp.core.errors import InvalidPuzzleError
from nonocp.core.palette import Palette


@dataclass(frozen=True)
class Grid:
    """A complete colouring: `cells[r][c]` is a palette index (0 = background)."""

    cells: tuple[tuple[int, ...], ...]

    @property
    def height(self) -> int:
        return len(self.cells)

    @property
    def width(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    @staticmethod
    def from_rows(rows: Sequence[Sequence[int]]) -> Grid:
        return Grid(tuple(tuple(int(v) for v in r) for r in rows))

    def column(self, c: int) -> tuple[int, ...]:
        return tuple(row[c] for row in self.cells)

    def to_strings(self, palette: Palette) -> list[str]:
        """Rows in the `.non` goal alphabet: each cell is its colour's symbol ('0'/'1' in black and white)."""
        symbols = [c.symbol for c in palette.colors]
        return ["".join(symbols[v] for v in row) for row in self.cells]

    @staticmethod
    def from_strings(rows: Sequence[str], palette: Palette) -> Grid:
        index = {c.symbol: i for i, c in enumerate(palette.colors)}
        try:
            return Grid(tuple(tuple(index[ch] for ch in row) for row in rows))
        except KeyError as e:
            raise InvalidPuzzleError(f"grid symbol {e.args[0]!r} is not in the palette") from None


class Domains:
    """A partial grid: per cell a bit mask of the colours still possible (bit k = palette index k).

    Solvers narrow it; a cell whose mask becomes 0 is a contradiction. Mutable on purpose: it is the
    working state of a search, copied at branch points.
    """

    __slots__ = ("width", "height", "masks")

    def __init__(self, width: int, height: int, ncolors: int, masks: list[int] | None = None) -> None:
        self.width = width
        self.height = height
        full = (1 << ncolors) - 1
        self.masks = masks if masks is not None else [full] * (width * height)

    def copy(self) -> Domains:
        d = Domains.__new__(Domains)
        d.width, d.height, d.masks = self.width, self.height, list(self.masks)
        return d

    def get(self, r: int, c: int) -> int:
        return self.masks[r * self.width + c]

    def is_solved(self) -> bool:
        return all(m and not (m & (m - 1)) for m in self.masks)

    def unknown_count(self) -> int:
        return sum(1 for m in self.masks if m & (m - 1))

    def to_grid(self) -> Grid:
        if not self.is_solved():
            raise ValueError("the grid is not fully decided")
        w = self.width
        return Grid(tuple(tuple(m.bit_length() - 1 for m in self.masks[r * w:(r + 1) * w]) for r in range(self.height)))
