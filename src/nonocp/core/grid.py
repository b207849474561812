"""Solved grids and partial grids (per-cell sets of still-possible colours)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from nonocp.core.errors import InvalidPuzzleError
from nonocp.core.palette import Palette


@dataclass(frozen=True)
class Grid:
    """A complete colouring: `cells[r][c]` is a palette index (0 = background).

    `palette` is the puzzle's, when the grid came from nonocp.solve or nonocp.solutions: then `to_strings()`
    needs no argument and the grid prints as a picture. It takes no part in equality.

    >>> from nonocp.core.palette import Palette
    >>> g = Grid(((1, 0), (1, 1)), Palette.black_and_white())
    >>> g
    Grid 2x2:
    #.
    ##
    >>> g.to_strings()
    ['10', '11']
    """

    cells: tuple[tuple[int, ...], ...]
    palette: Palette | None = field(default=None, compare=False, repr=False)

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

    def with_palette(self, palette: Palette) -> Grid:
        """The same cells, knowing their palette."""
        return Grid(self.cells, palette)

    def to_strings(self, palette: Palette | None = None) -> list[str]:
        """Rows in the `.non` goal alphabet: each cell is its colour's symbol ('0'/'1' in black and white).
        `palette`: the puzzle's (default: the grid's own, else black and white when every cell is 0 or 1)."""
        palette = self._palette(palette, "to_strings")
        symbols = [c.symbol for c in palette.colors]
        try:
            return ["".join(symbols[v] for v in row) for row in self.cells]
        except IndexError:
            raise ValueError(f"to_strings(): the grid has colour {max(map(max, self.cells))} but the palette only "
                             f"{len(symbols)} colours") from None

    def picture(self, palette: Palette | None = None) -> str:
        """The grid as a picture, one line per row: `#` black and `.` background in black and white, each
        colour's symbol otherwise (`.` for the background, as in the `picture` format)."""
        palette = self._palette(palette, "picture")
        symbols = [c.symbol for c in palette.colors]
        if symbols[:1] == ["0"]:  # the background as the picture format writes it
            symbols[0] = "."
        if symbols == [".", "1"]:
            symbols[1] = "#"
        return "\n".join("".join(symbols[v] if v < len(symbols) else "?" for v in row) for row in self.cells)

    def _palette(self, palette: Palette | None, function: str) -> Palette:
        if palette is not None:
            if not isinstance(palette, Palette):
                raise TypeError(f"{function}() takes the puzzle's Palette (puzzle.palette), not "
                                f"{type(palette).__name__}")
            return palette
        if self.palette is not None:
            return self.palette
        if all(v in (0, 1) for row in self.cells for v in row):
            return Palette.black_and_white()
        raise ValueError(f"{function}(): this grid does not know its colours; pass the puzzle's palette "
                         f"(grid.{function}(puzzle.palette))")

    def __str__(self) -> str:
        try:
            return self.picture()
        except ValueError:  # colours without a palette: the indices
            return "\n".join(" ".join(str(v) for v in row) for row in self.cells)

    def __repr__(self) -> str:
        return f"Grid {self.width}x{self.height}:\n{self}"

    @staticmethod
    def from_strings(rows: Sequence[str], palette: Palette) -> Grid:
        index = {c.symbol: i for i, c in enumerate(palette.colors)}
        try:
            return Grid(tuple(tuple(index[ch] for ch in row) for row in rows), palette)
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
