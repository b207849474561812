"""Colours and palettes: what a cell can be painted with (index 0 is the background)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from nonocp.core.errors import InvalidPuzzleError

_HEX = re.compile(r"^#[0-9a-f]{6}$")


@dataclass(frozen=True)
class Color:
    """One colour: a name, its `#rrggbb` value and the one-character symbol used in files and goals."""

    name: str
    rgb: str
    symbol: str

    def __post_init__(self) -> None:
        if not _HEX.match(self.rgb):
            raise InvalidPuzzleError(f"colour {self.name!r}: {self.rgb!r} is not #rrggbb")
        # printable: the symbol is drawn in grids and written into files (no control or format characters)
        if len(self.symbol) != 1 or self.symbol.isspace() or not self.symbol.isprintable():
            raise InvalidPuzzleError(f"colour {self.name!r}: symbol {self.symbol!r} must be one visible character")


WHITE = Color("white", "#ffffff", "0")
BLACK = Color("black", "#000000", "1")


@dataclass(frozen=True)
class Palette:
    """The colours of a puzzle. Index 0 is the background; blocks use indices 1..n-1."""

    colors: tuple[Color, ...]

    def __post_init__(self) -> None:
        if len(self.colors) < 2:
            raise InvalidPuzzleError(
                f"a palette needs two colours or more, not {len(self.colors)}: the background and an ink colour "
                "for run clues; for count clues two colours at least (with one, every cell would have it)")
        symbols = [c.symbol for c in self.colors]
        if len(set(symbols)) != len(symbols):
            raise InvalidPuzzleError(f"palette repeats a symbol: {''.join(symbols)}")

    @staticmethod
    def black_and_white() -> Palette:
        return Palette((WHITE, BLACK))

    def __len__(self) -> int:
        return len(self.colors)

    def __getitem__(self, index: int) -> Color:
        return self.colors[index]

    @property
    def is_black_and_white(self) -> bool:
        return len(self.colors) == 2

    def index_of_symbol(self, symbol: str) -> int:
        for i, c in enumerate(self.colors):
            if c.symbol == symbol:
                return i
        raise KeyError(symbol)

    def index_of_name(self, name: str) -> int:
        for i, c in enumerate(self.colors):
            if c.name == name:
                return i
        raise KeyError(name)


def contrast_color(rgb: str) -> str:
    """Black or white, whichever reads better on a background of `rgb` (#rrggbb)."""
    r, g, b = (int(rgb[i:i + 2], 16) for i in (1, 3, 5))
    # ITU-R BT.601 luma; 140 rather than 128 keeps white text on mid-tone reds and blues
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"
