"""Hypothesis strategies shared by the tests: random grids and puzzles made from them."""

from __future__ import annotations

from hypothesis import strategies as st

from nonocp.core.grid import Grid
from nonocp.core.palette import WHITE, Color, Palette
from nonocp.core.puzzle import Puzzle, clues_of

_EXTRA = [
    Color("black", "#000000", "a"),
    Color("red", "#e6194b", "b"),
    Color("green", "#3cb44b", "c"),
    Color("blue", "#4363d8", "d"),
]


def palette_of(ncolors: int) -> Palette:
    """ncolors counts the background: 2 = black and white."""
    if ncolors == 2:
        return Palette.black_and_white()
    return Palette((WHITE, *_EXTRA[: ncolors - 1]))


def puzzle_from_grid(grid: Grid, palette: Palette) -> Puzzle:
    rows, cols = clues_of(grid)
    return Puzzle(rows, cols, palette)


@st.composite
def grids(draw, max_width: int = 5, max_height: int = 5, ncolors: int = 2, density: float | None = None):
    w = draw(st.integers(1, max_width))
    h = draw(st.integers(1, max_height))
    if density is None:
        cells = draw(st.lists(st.lists(st.integers(0, ncolors - 1), min_size=w, max_size=w), min_size=h, max_size=h))
    else:
        # biased grids look more like real pictures (long runs) than uniform noise
        bits = draw(st.lists(st.floats(0, 1), min_size=w * h, max_size=w * h))
        colors = draw(st.lists(st.integers(1, ncolors - 1), min_size=w * h, max_size=w * h))
        flat = [colors[i] if bits[i] < density else 0 for i in range(w * h)]
        cells = [flat[r * w:(r + 1) * w] for r in range(h)]
    return Grid.from_rows(cells)


@st.composite
def puzzles_with_grid(draw, max_size: int = 5, ncolors_choices=(2, 3, 4)):
    """(puzzle, grid): a random grid and the puzzle made of its clues; the grid is among its solutions."""
    ncolors = draw(st.sampled_from(ncolors_choices))
    grid = draw(grids(max_size, max_size, ncolors))
    return puzzle_from_grid(grid, palette_of(ncolors)), grid


# ---- count-and-contiguity puzzles (core/counts.py): every palette index is a colour ---------------------

# named as the count files name them (formats/counts.py): a CSS name when it has that value, else #rrggbb
COUNT_COLOURS = [
    Color("#fff44f", "#fff44f", "a"), Color("black", "#000000", "b"), Color("#e6194b", "#e6194b", "c"),
    Color("#3cb44b", "#3cb44b", "d"), Color("#4363d8", "#4363d8", "e"), Color("orange", "#ffa500", "f"),
]


def count_palette(ncolors: int) -> Palette:
    """`ncolors` colours, none of them a background."""
    return Palette(tuple(COUNT_COLOURS[:ncolors]))


def count_puzzle_from_grid(grid: Grid, ncolors: int) -> Puzzle:
    from nonocp.core.counts import count_clues_of
    from nonocp.core.puzzle import COUNTS

    rows, cols = count_clues_of(grid.cells, ncolors)
    return Puzzle(rows, cols, count_palette(ncolors), clue_kind=COUNTS)


@st.composite
def count_puzzles_with_grid(draw, max_size: int = 5, ncolors_choices=(2, 3, 4)):
    """(puzzle, grid): a random grid of `ncolors` colours (no background) and the count puzzle made of it."""
    ncolors = draw(st.sampled_from(ncolors_choices))
    w = draw(st.integers(1, max_size))
    h = draw(st.integers(1, max_size))
    cells = draw(st.lists(st.lists(st.integers(0, ncolors - 1), min_size=w, max_size=w), min_size=h, max_size=h))
    grid = Grid.from_rows(cells)
    return count_puzzle_from_grid(grid, ncolors), grid
