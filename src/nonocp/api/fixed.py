"""Fixed cells (assumptions): cells given before the search, as python-sat's assumptions or OR-Tools' fixed
variables. Every engine takes them (SolveOptions.fixed: per cell the bit mask of its allowed colours).

Written either way:

- a mapping `{(row, col): colour}`, 0-based; a colour is a palette index, a colour's name or its symbol
  (`"#"`/`"."` in black and white too), or a set of them (the cell is one of those);
- rows of symbols, one string per row, `?` for a cell left open: `["#??", "?.?", "???"]`;
- a Grid: every cell fixed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from nonocp.api.checks import describe, grid_from_symbols, symbol_index
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle

OPEN = "?"  # a cell left open in rows of symbols


def fixed_masks(fixed: Any, puzzle: Puzzle, function: str) -> dict[tuple[int, int], int] | None:
    """SolveOptions.fixed from any of the forms above; TypeError/ValueError saying what is accepted."""
    if fixed is None:
        return None
    if isinstance(fixed, Grid):
        _check_size(fixed.height, [len(row) for row in fixed.cells], puzzle, function)
        ncol = len(puzzle.palette)
        out = {}
        for r, row in enumerate(fixed.cells):
            for c, k in enumerate(row):
                out[(r, c)] = 1 << _index(k, puzzle, function, (r, c), ncol)
        return out
    if isinstance(fixed, Mapping):
        return {_cell(key, puzzle, function): _mask(value, puzzle, function, key) for key, value in fixed.items()}
    if isinstance(fixed, Sequence) and not isinstance(fixed, (str, bytes)) and all(isinstance(r, str) for r in fixed):
        _check_size(len(fixed), [len(r) for r in fixed], puzzle, function)
        grid = grid_from_symbols(fixed, puzzle, function, unknown=OPEN)
        return {(r, c): 1 << k for r, row in enumerate(grid.cells) for c, k in enumerate(row) if k >= 0}
    raise TypeError(f"{function}(): fixed takes {{(row, col): colour}}, rows of symbols with {OPEN} for open cells, "
                    f"or a Grid; not {describe(fixed)}")


def _check_size(height: int, widths: list[int], puzzle: Puzzle, function: str) -> None:
    if height != puzzle.height or any(w != puzzle.width for w in widths):
        shape = f"{max(widths, default=0)}x{height}" if len(set(widths)) <= 1 else f"{height} rows of varying length"
        raise ValueError(f"{function}(): fixed is {shape} but the puzzle is {puzzle.width}x{puzzle.height}")


def _cell(key: Any, puzzle: Puzzle, function: str) -> tuple[int, int]:
    if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                             for v in key)):
        raise TypeError(f"{function}(): a fixed cell is (row, col), 0-based, not {describe(key)}")
    r, c = key
    if not (0 <= r < puzzle.height and 0 <= c < puzzle.width):
        raise ValueError(f"{function}(): fixed cell {key} is outside the {puzzle.width}x{puzzle.height} grid "
                         f"(rows 0-{puzzle.height - 1}, columns 0-{puzzle.width - 1})")
    return r, c


def _mask(value: Any, puzzle: Puzzle, function: str, cell: Any) -> int:
    ncol = len(puzzle.palette)
    if isinstance(value, (set, frozenset, list, tuple)):
        if not value:
            raise ValueError(f"{function}(): fixed cell {cell} allows no colour")
        mask = 0
        for v in value:
            mask |= 1 << _index(v, puzzle, function, cell, ncol)
        return mask
    return 1 << _index(value, puzzle, function, cell, ncol)


def _index(value: Any, puzzle: Puzzle, function: str, cell: Any, ncol: int) -> int:
    """A colour as a palette index: from the index itself, a name or a symbol."""
    palette = puzzle.palette
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < ncol:
            return value
    elif isinstance(value, str):
        names = {c.name: i for i, c in enumerate(palette.colors)}
        if value in names:
            return names[value]
        symbols = symbol_index(puzzle)
        if value in symbols:
            return symbols[value]
    else:
        raise TypeError(f"{function}(): the colour of fixed cell {cell} is a palette index, a name or a symbol, "
                        f"not {describe(value)}")
    known = ", ".join(f"{i} {c.name!r} ({c.symbol})" for i, c in enumerate(palette.colors))
    raise ValueError(f"{function}(): fixed cell {cell}: {value!r} is not a colour of this puzzle ({known})")


__all__ = ["OPEN", "fixed_masks"]
