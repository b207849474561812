"""picross-solver's own text format: several grids per file.

    # comment
    GRID <name>        opens a grid (the rest of the line is its title)
    ROWS
    [ 1 2 ]            one bracketed clue per row; `[ ]` or `[ 0 ]` is an empty line
    COLUMNS
    [ 3 ]              one bracketed clue per column

A grid's size is the number of entries. Any other non-blank line is an error (the upstream test file
has `GRILL Beaf` as its deliberate syntax error).
"""

from __future__ import annotations

import re

from nonocp.core.errors import ParseError
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Meta, Puzzle
from nonocp.formats._common import MAX_SIDE, build_puzzle, check_clues, check_size, number_clue

_CLUE = re.compile(r"^\[([\d\s,]*)\]$")


def sniff(text: str) -> bool:
    for ln in text.splitlines()[:100]:
        s = ln.strip()
        if not s or s.startswith("#"):
            continue
        return s.split(None, 1)[0] == "GRID"
    return False


class _Grid:
    def __init__(self, title: str, line: int) -> None:
        self.title = title
        self.line = line
        self.rows: list[tuple[int, str]] = []
        self.cols: list[tuple[int, str]] = []


def read_grid(text: str, path: str = "<string>") -> list[Puzzle]:
    grids: list[_Grid] = []
    section: list[tuple[int, str]] | None = None
    for k, ln in enumerate(text.splitlines(), 1):
        s = ln.strip()
        if not s or s.startswith("#"):
            continue
        word = s.split(None, 1)[0]
        if word == "GRID":
            grids.append(_Grid(s[4:].strip(), k))
            section = None
        elif word in ("ROWS", "COLUMNS") and s == word:
            if not grids:
                raise ParseError(path, k, f"{word} before any GRID line")
            g = grids[-1]
            section = g.rows if word == "ROWS" else g.cols
            if section:
                raise ParseError(path, k, f"a second {word} section in grid {g.title!r}")
        elif s.startswith("["):
            m = _CLUE.match(s)
            if not m:
                raise ParseError(path, k, f"cannot read clue {s[:40]!r} (expected `[ 1 2 3 ]`)")
            if section is None:
                raise ParseError(path, k, "a clue outside ROWS/COLUMNS")
            if len(section) >= MAX_SIDE:
                raise ParseError(path, k, f"over {MAX_SIDE} clues")
            section.append((k, m.group(1)))
        else:
            raise ParseError(path, k, f"unknown line {s[:40]!r} (expected GRID, ROWS, COLUMNS or [ clue ])")
    if not grids:
        raise ParseError(path, 1, "no GRID in the file")
    puzzles = []
    for g in grids:
        if not g.rows or not g.cols:
            raise ParseError(path, g.line, f"grid {g.title!r} has no {'ROWS' if not g.rows else 'COLUMNS'}")
        check_size(len(g.cols), len(g.rows), path, g.line)
        rows = [number_clue(t, path, ln) for ln, t in g.rows]
        cols = [number_clue(t, path, ln) for ln, t in g.cols]
        check_clues(rows, len(cols), path, [ln for ln, _ in g.rows], "row")
        check_clues(cols, len(rows), path, [ln for ln, _ in g.cols], "column")
        puzzles.append(build_puzzle(rows, cols, Palette.black_and_white(), Meta(title=g.title), path, g.line))
    return puzzles
