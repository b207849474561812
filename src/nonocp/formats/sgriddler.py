"""Griddlers Solver's `.sgriddler` ("MK Version 3.0"), as in the jsimlo.sk collections.

    MK Version 3.0
    W H
    H lines of W cells (`#` filled, `.` empty): the solution
    W lines: column clues        every clue is written in REVERSE order
    H lines: row clues           (columns bottom-to-top, rows right-to-left)

Blank lines separate the parts, but an empty clue is also a blank line, so the parts are read by count:
after the grid, skip one separator blank line, read W column lines, skip one, read H row lines.
The solution grid becomes `meta.goal`.
"""

from __future__ import annotations

import re

from nonocp.core.errors import ParseError
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Meta, Puzzle
from nonocp.formats._common import build_puzzle, check_clues, check_size, number_clue, to_int

_MAGIC = re.compile(r"^\s*MK\s+Version\s+\S+", re.IGNORECASE)


def sniff(text: str) -> bool:
    return bool(_MAGIC.match(text.lstrip().split("\n", 1)[0]))


def read_sgriddler(text: str, path: str = "<string>") -> list[Puzzle]:
    lines = text.splitlines()
    k = 0

    def skip_blank() -> None:
        nonlocal k
        while k < len(lines) and not lines[k].strip():
            k += 1

    skip_blank()
    if k < len(lines) and _MAGIC.match(lines[k]):
        k += 1
    skip_blank()
    if k == len(lines):
        raise ParseError(path, len(lines) or 1, "no `width height` line")
    parts = lines[k].split()
    if len(parts) != 2:
        raise ParseError(path, k + 1, f"expected `width height`, found {lines[k].strip()[:40]!r}")
    width = to_int(parts[0], path, k + 1, "width")
    height = to_int(parts[1], path, k + 1, "height")
    check_size(width, height, path, k + 1)
    size_line = k + 1
    k += 1
    skip_blank()
    grid = []
    for r in range(height):
        if k >= len(lines):
            raise ParseError(path, len(lines), f"the solution grid ends after {r} of {height} rows (truncated?)")
        cells = lines[k].split()
        if len(cells) != width or any(c not in "#." for c in cells):
            raise ParseError(path, k + 1, f"solution row {r + 1}: expected {width} cells of `#` or `.`")
        grid.append(tuple(1 if c == "#" else 0 for c in cells))
        k += 1

    def read_part(count: int, kind: str) -> tuple[list, list[int]]:
        nonlocal k
        if k < len(lines) and not lines[k].strip():
            k += 1  # the separator
        clues, nos = [], []
        for _ in range(count):
            if k >= len(lines):
                # a missing last line is an empty clue only if the file simply ends (no trailing newline)
                raise ParseError(path, len(lines), f"expected {count} {kind} clues (truncated file?)")
            clues.append(tuple(reversed(number_clue(lines[k], path, k + 1))))
            nos.append(k + 1)
            k += 1
        return clues, nos

    cols, col_nos = read_part(width, "column")
    rows, row_nos = read_part(height, "row")
    check_clues(cols, height, path, col_nos, "column")
    check_clues(rows, width, path, row_nos, "row")
    return [build_puzzle(rows, cols, Palette.black_and_white(), Meta(goal=Grid(tuple(grid))), path, size_line)]
