"""How clues are written for people: one token per block, `3` in black and white, `3a` in colour."""

from __future__ import annotations

from collections.abc import Collection

from nonocp.core.counts import Count
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Block, Clue, Puzzle
from nonocp.render.count_clues import count_tokens

# Cells flagged by the caller (row, column), e.g. the cells a backbone view leaves undecided.
Marked = Collection[tuple[int, int]]


def block_token(block: Block, palette: Palette) -> str:
    """`3` for a black-and-white block, `3a` (length + the colour's file symbol) for a colour block."""
    if palette.is_black_and_white:
        return str(block.length)
    return f"{block.length}{palette[block.color].symbol}"


def clue_tokens(clue: Clue, palette: Palette) -> list[str]:
    """The tokens of one clue; an empty line is written `0` as in the `.non` format. A count clue (one Count per
    colour, never empty) gives one token per colour: `3*` all in a row, `3`, `1`, `0` (render/count_clues.py)."""
    if not clue:
        return ["0"]
    if isinstance(clue[0], Count):
        return [token for token, _ in line_tokens_of_counts(clue)]
    return [block_token(b, palette) for b in clue]


def line_tokens(puzzle: Puzzle, clue) -> list[tuple[str, int | None]]:
    """(token, palette colour or None) of one line's clue: its blocks (`0`, no colour, for an empty line), or
    for count clues one count per colour (render/count_clues.py)."""
    if puzzle.has_counts:  # padded to one width, so that each colour's counts line up from row to row
        width = len(str(max(puzzle.width, puzzle.height))) + 1
        return [(token.rjust(width), k) for token, k in line_tokens_of_counts(clue)]
    if not clue:
        return [("0", None)]
    return [(block_token(b, puzzle.palette), b.color) for b in clue]


def line_tokens_of_counts(clue) -> list[tuple[str, int | None]]:
    return list(count_tokens(clue))

