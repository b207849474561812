"""What every reader shares: reading a file safely, size limits, numbers, clue checks and colours.

Every reader must raise only ParseError on bad input, so the helpers here turn the usual failures
(missing file, directory, binary data, huge numbers, clues that cannot fit) into ParseError early,
before anything big is allocated.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from nonocp.core.errors import InvalidPuzzleError, ParseError
from nonocp.core.grid import Grid
from nonocp.core.palette import BLACK, WHITE, Color, Palette
from nonocp.core.puzzle import Block, Clue, Meta, Puzzle, min_length
from nonocp.formats.files import MAX_FILE_BYTES, read_bytes  # noqa: F401 - re-exported: readers use them here

# Limits: generous for real puzzles (the largest corpus puzzle is 512x512), small enough that a
# hostile file cannot make us allocate gigabytes.
MAX_SIDE = 10_000
MAX_CELLS = 4_000_000
MAX_COLORS = 256
MAX_DIGITS = 6  # any number longer than this is over every limit above; refuse before int()

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f]")


def read_text(path: str) -> str:
    """The text of `path`, or ParseError naming the path (missing, a directory, too big, binary)."""
    return decode(read_bytes(path), os.fspath(path))


def decode(data: bytes, path: str) -> str:
    """UTF-8 (with or without BOM), else latin-1; text holding control characters is binary: refused."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    check_text(text, path)
    return text


def check_text(text: str, path: str) -> None:
    """Refuse text that holds control characters (NUL and friends): it is binary, not a puzzle file."""
    m = _CONTROL.search(text)
    if m:
        line = text.count("\n", 0, m.start()) + 1
        raise ParseError(path, line, f"binary data (control character {ord(m.group()):#04x}); not a text puzzle file")


def to_int(token: str, path: str, line: int | None, what: str = "number") -> int:
    """A non-negative decimal integer, refusing huge ones before converting them."""
    t = token.strip()
    if not t.isdigit() or not t.isascii():
        raise ParseError(path, line, f"{what}: {t[:40]!r} is not a non-negative integer")
    if len(t.lstrip("0")) > MAX_DIGITS:
        raise ParseError(path, line, f"{what}: {t[:40]} is too large")
    return int(t)


def check_size(width: int, height: int, path: str, line: int | None) -> None:
    if width < 1 or height < 1:
        raise ParseError(path, line, f"the grid is {width}x{height}; it needs at least one row and one column")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise ParseError(path, line, f"the grid is {width}x{height}; sides over {MAX_SIDE} are refused")
    if width * height > MAX_CELLS:
        raise ParseError(path, line, f"the grid is {width}x{height}; over {MAX_CELLS} cells are refused")


def check_clue(clue: Clue, length: int, path: str, line: int | None, what: str) -> None:
    """A clue must fit its line (blocks plus one gap between same-colour neighbours)."""
    for b in clue:
        if b.length < 1:
            raise ParseError(path, line, f"{what}: block length {b.length} must be positive")
    need = min_length(clue)
    if need > length:
        raise ParseError(path, line, f"{what}: the clue needs {need} cells but the line has {length}")


def quoted_value(rest: str) -> str:
    """A key's value: between the first and the last double quote (titles hold inner quotes), else the
    bare rest of the line."""
    rest = rest.strip()
    first = rest.find('"')
    last = rest.rfind('"')
    if first != -1 and last > first:
        return rest[first + 1:last]
    if first != -1:  # one lone quote: take what follows it
        return rest[first + 1:].strip()
    return rest


# Colours for symbols a file uses without defining them (the .non spec lets a viewer choose).
DEFAULT_RGB = [
    "#000000", "#ff0000", "#00a000", "#0000ff", "#ffd700", "#ff8c00", "#8b4513", "#800080",
    "#00ced1", "#ff69b4", "#808080", "#556b2f", "#000080", "#b22222", "#2e8b57", "#daa520",
]


def default_rgb(i: int) -> str:
    if i < len(DEFAULT_RGB):
        return DEFAULT_RGB[i]
    # deterministic, distinct-ish greys/colours beyond the table
    v = (i * 2654435761) & 0xFFFFFF
    return f"#{v:06x}"


def make_palette(colors: Sequence[Color], path: str, line: int | None) -> Palette:
    """A Palette, or ParseError; two colours white/black with symbols 0/1 become the standard palette."""
    if len(colors) > MAX_COLORS:
        raise ParseError(path, line, f"{len(colors)} colours; over {MAX_COLORS} are refused")
    if len(colors) == 2 and colors[0] == WHITE and colors[1] == BLACK:
        return Palette.black_and_white()
    try:
        return Palette(tuple(colors))
    except InvalidPuzzleError as e:
        raise ParseError(path, line, str(e)) from None


def make_color(name: str, rgb: str, symbol: str, path: str, line: int | None) -> Color:
    try:
        return Color(name, rgb, symbol)
    except InvalidPuzzleError as e:
        raise ParseError(path, line, str(e)) from None


def normalise_rgb(value: str) -> str | None:
    """'#ABC', 'abc', '#aabbcc', 'aabbcc' -> '#aabbcc'; anything else None."""
    v = value.strip().lower().lstrip("#")
    if re.fullmatch(r"[0-9a-f]{3}", v):
        v = "".join(ch * 2 for ch in v)
    if re.fullmatch(r"[0-9a-f]{6}", v):
        return "#" + v
    return None


def build_puzzle(
    rows: Sequence[Clue],
    cols: Sequence[Clue],
    palette: Palette,
    meta: Meta,
    path: str,
    line: int | None = None,
) -> Puzzle:
    """The Puzzle, after the structural checks every reader owes (size, clue fit, colour range)."""
    check_size(len(cols), len(rows), path, line)
    n = len(palette)
    for kind, clues, length in (("row", rows, len(cols)), ("column", cols, len(rows))):
        for i, clue in enumerate(clues, 1):
            for b in clue:
                if not 1 <= b.color < n:
                    raise ParseError(path, line, f"{kind} {i}: colour index {b.color} is not in the palette")
            check_clue(clue, length, path, line, f"{kind} {i}")
    goal = meta.goal
    if goal is not None and (goal.width != len(cols) or goal.height != len(rows)):
        raise ParseError(
            path, line, f"the solution is {goal.width}x{goal.height} but the puzzle is {len(cols)}x{len(rows)}"
        )
    return Puzzle(tuple(rows), tuple(cols), palette, meta)


def grid_from_flat(chars: str, width: int, height: int, index: dict[str, int]) -> Grid:
    """A Grid from a row-major string of symbols (caller checked the length and the alphabet)."""
    return Grid(tuple(tuple(index[ch] for ch in chars[r * width:(r + 1) * width]) for r in range(height)))


def bw_clue(lengths: Sequence[int]) -> Clue:
    return tuple(Block(n, 1) for n in lengths if n)


_NUMBERS_ONLY = re.compile(r"[0-9\s,]*")
_CLUE_CACHE: dict[str, tuple[Clue, int]] = {}
_CLUE_CACHE_MAX = 200_000
_BW_BLOCKS = tuple(Block(n, 1) for n in range(1024))


def number_clue(text: str, path: str, line: int | None) -> Clue:
    """A black-and-white clue from numbers separated by spaces, tabs or commas; `0` adds no block."""
    return number_clue_need(text, path, line)[0]


def number_clue_need(text: str, path: str, line: int | None) -> tuple[Clue, int]:
    """(clue, cells it needs). Cached by text: batch files repeat the same lines thousands of times."""
    hit = _CLUE_CACHE.get(text)
    if hit is not None:
        return hit
    tokens = text.replace(",", " ").split()
    if _NUMBERS_ONLY.fullmatch(text) and all(len(t) <= MAX_DIGITS for t in tokens):
        lengths = [int(t) for t in tokens]
    else:
        lengths = [to_int(t, path, line, "block length") for t in tokens]
    clue = tuple(_BW_BLOCKS[n] if n < 1024 else Block(n, 1) for n in lengths if n)
    need = sum(lengths) + len(clue) - 1 if clue else 0
    if len(_CLUE_CACHE) < _CLUE_CACHE_MAX:
        _CLUE_CACHE[text] = (clue, need)
    return clue, need


def clue_cache() -> dict[str, tuple[Clue, int]]:
    """The text -> (clue, need) cache behind number_clue_need, for readers' hot loops."""
    return _CLUE_CACHE


def check_clues(clues: Sequence[Clue], length: int, path: str, lines: Sequence[int | None], kind: str) -> None:
    """check_clue for each clue, reporting the file line of the one that does not fit."""
    for k, (clue, ln) in enumerate(zip(clues, lines, strict=True), 1):
        if clue and sum(b.length for b in clue) + len(clue) - 1 > length:
            check_clue(clue, length, path, ln, f"{kind} {k}")
