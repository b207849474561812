"""Puzzles given as their solution picture (picross-solver's `raw/` inputs): the clues are computed
from the image, and the image becomes `meta.goal`.

- `picture`: text, one row per line, `#`/`X` filled and `.` empty, or `1` filled and `0` empty.
- `pbm`: netpbm bitmaps, plain `P1` and raw `P4` (1 = black).
"""

from __future__ import annotations

import re

from nonocp.core.errors import ParseError
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Meta, Puzzle, clues_of
from nonocp.formats._common import build_puzzle, check_size, to_int

_ROW = re.compile(r"[.#X]+|[01]+")


def sniff(text: str) -> bool:
    rows = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return bool(rows) and len({len(r) for r in rows}) == 1 and all(_ROW.fullmatch(r) for r in rows) \
        and (len(rows) > 1 or len(rows[0]) > 1)


def _puzzle(cells: list[tuple[int, ...]], path: str, title: str = "") -> Puzzle:
    grid = Grid(tuple(cells))
    rows, cols = clues_of(grid)
    return build_puzzle(rows, cols, Palette.black_and_white(), Meta(title=title, goal=grid), path, 1)


def read_picture(text: str, path: str = "<string>") -> list[Puzzle]:
    cells: list[tuple[int, ...]] = []
    width = None
    for k, ln in enumerate(text.splitlines(), 1):
        s = ln.strip()
        if not s:
            continue
        if not _ROW.fullmatch(s):
            raise ParseError(path, k, "picture rows hold only `#`/`X` and `.`, or `1` and `0`")
        if width is None:
            width = len(s)
        elif len(s) != width:
            raise ParseError(path, k, f"row has {len(s)} cells; the first row has {width}")
        cells.append(tuple(0 if ch in ".0" else 1 for ch in s))
        check_size(width, len(cells), path, k)
    if not cells:
        raise ParseError(path, 1, "empty picture")
    return [_puzzle(cells, path)]


def sniff_bytes(data: bytes) -> bool:
    return data[:2] in (b"P1", b"P4") and data[2:3].isspace()


def read_pbm(data: bytes, path: str = "<string>") -> list[Puzzle]:
    if not sniff_bytes(data):
        raise ParseError(path, 1, "not a PBM bitmap (expected P1 or P4)")
    kind = data[:2]
    pos = 2
    header: list[bytes] = []
    while len(header) < 2:
        while pos < len(data) and (data[pos:pos + 1].isspace() or data[pos:pos + 1] == b"#"):
            if data[pos:pos + 1] == b"#":
                end = data.find(b"\n", pos)
                pos = len(data) if end < 0 else end + 1
            else:
                pos += 1
        start = pos
        while pos < len(data) and not data[pos:pos + 1].isspace() and data[pos:pos + 1] != b"#":
            pos += 1
        if start == pos:
            raise ParseError(path, 1, "truncated PBM header (no width and height)")
        header.append(data[start:pos])
    line = data.count(b"\n", 0, pos) + 1
    width = to_int(header[0].decode("latin-1"), path, line, "width")
    height = to_int(header[1].decode("latin-1"), path, line, "height")
    check_size(width, height, path, line)
    body = data[pos + 1:]
    cells: list[tuple[int, ...]] = []
    if kind == b"P4":
        stride = (width + 7) // 8
        if len(body) < stride * height:
            raise ParseError(path, None, f"PBM data ends early: {len(body)} of {stride * height} bytes")
        for r in range(height):
            row = body[r * stride:(r + 1) * stride]
            bits = int.from_bytes(row, "big")
            total = stride * 8
            cells.append(tuple((bits >> (total - 1 - c)) & 1 for c in range(width)))
    else:
        digits = [ch for ch in body.decode("latin-1") if ch in "01"]
        if len(digits) < width * height:
            raise ParseError(path, None, f"PBM data ends early: {len(digits)} of {width * height} pixels")
        for r in range(height):
            cells.append(tuple(int(ch) for ch in digits[r * width:(r + 1) * width]))
    return [_puzzle(cells, path)]
