"""Jakub Wilk's `.nin`: `W H`, then H row clues, then W column clues, numbers separated by spaces.

An empty line is `0` (a blank line also counts as empty). Like the original program (which reads stdin
and stops after W+H clue lines), anything after the last column clue is ignored: one corpus file has
180 junk lines after a valid puzzle. Lines starting with `#` before the size line are comments.
"""

from __future__ import annotations

import re

from nonocp.core.errors import ParseError
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Meta, Puzzle
from nonocp.formats._common import build_puzzle, check_clues, check_size, number_clue, to_int

_SIZE = re.compile(r"^\s*(\d+)\s+(\d+)\s*$")
_CLUE_LINE = re.compile(r"^[\d\s]*$")


def sniff(text: str) -> bool:
    lines = [ln for ln in text.splitlines()[:50] if ln.strip()]
    return bool(lines) and bool(_SIZE.match(lines[0])) and all(_CLUE_LINE.match(ln) for ln in lines[1:])


def read_nin(text: str, path: str = "<string>") -> list[Puzzle]:
    lines = text.splitlines()
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
        i += 1
    if i == len(lines):
        raise ParseError(path, max(1, len(lines)), "empty file: no `width height` line")
    m = _SIZE.match(lines[i])
    if not m:
        raise ParseError(path, i + 1, f"expected `width height`, found {lines[i].strip()[:40]!r}")
    width = to_int(m.group(1), path, i + 1, "width")
    height = to_int(m.group(2), path, i + 1, "height")
    check_size(width, height, path, i + 1)
    first = i + 1
    need = width + height
    if len(lines) - first < need:
        raise ParseError(path, len(lines), f"expected {height} row and {width} column clues, "
                         f"found {len(lines) - first} lines (truncated file?)")
    clues = [number_clue(lines[first + k], path, first + k + 1) for k in range(need)]
    rows, cols = clues[:height], clues[height:]
    line_nos = list(range(first + 1, first + need + 1))
    check_clues(rows, width, path, line_nos[:height], "row")
    check_clues(cols, height, path, line_nos[height:], "column")
    return [build_puzzle(rows, cols, Palette.black_and_white(), Meta(), path, i + 1)]
