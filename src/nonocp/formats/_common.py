"""What every reader shares: reading a file safely, size limits, numbers, clue checks and colours.

Every reader must raise only ParseError on bad input, so the helpers here turn the usual failures
(missing file, directory, binary data, huge numbers, clues that cannot fit) into ParseError early,
before anything big is allocated.
"""

from __future__ import annotations

import html
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence

from nonocp.core.errors import InvalidPuzzleError, ParseError
from nonocp.core.limits import MAX_CELLS, MAX_COLORS, MAX_SIDE  # noqa: F401 - re-exported: readers use them here
from nonocp.core.palette import BLACK, WHITE, Color, Palette
from nonocp.core.puzzle import Block, Clue, Meta, Puzzle, min_length
from nonocp.core.text import one_line
from nonocp.formats.files import MAX_FILE_BYTES, read_bytes  # noqa: F401 - re-exported: readers use them here

# Limits: nonocp.core.limits (Puzzle.from_clues applies the same ones).
MAX_DIGITS = 6  # any number longer than this is over every limit above; refuse before int()

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f]")


def read_text(path: str) -> str:
    """The text of `path`, or ParseError naming the path (missing, a directory, too big, binary)."""
    return decode(read_bytes(path), os.fspath(path))


def decode(data: bytes, path: str) -> str:
    """UTF-8 (with or without BOM), UTF-16/UTF-32 (by BOM, or UTF-16 by its zero bytes: Windows editors
    save "Unicode" that way), else latin-1; text holding control characters is binary: refused."""
    encoding = _wide_encoding(data)
    if encoding is not None:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as e:
            raise ParseError(path, None, f"looks like {encoding.upper()} text but does not decode at byte "
                             f"{e.start} ({e.reason}); save it as UTF-8") from None
        text = text.removeprefix("\ufeff")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    check_text(text, path)
    return text


def _wide_encoding(data: bytes) -> str | None:
    """"utf-32"/"utf-16" (BOM), "utf-16-le"/"utf-16-be" (no BOM, but every other byte of the start is zero,
    as in ASCII text saved as UTF-16), or None."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "utf-32"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    head = data[:4096]
    if len(head) >= 4 and len(data) % 2 == 0:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) >= 0.9 * len(odd) and even.count(0) < 0.1 * len(even):
            return "utf-16-le"
        if even.count(0) >= 0.9 * len(even) and odd.count(0) < 0.1 * len(odd):
            return "utf-16-be"
    return None


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


# Symbols for colours that bring none a format can use: ASCII letters first (what people type), then
# punctuation, then letters of other scripts, so that a palette never runs out of them (MAX_COLORS is far
# below the supply). Each format says which characters it can carry (`usable`).
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_PUNCTUATION = "!#$%&'()*+-./:;<=>?@[\\]^_`{|}~"


def _symbol_candidates() -> Iterator[str]:
    yield from _LETTERS
    yield from _PUNCTUATION
    for code in range(0xC0, 0x3000):  # Latin-1 Supplement onwards: thousands of one-column letters
        ch = chr(code)
        if ch.isalpha() and ch.isprintable() and not unicodedata.combining(ch) \
                and unicodedata.east_asian_width(ch) in ("N", "Na", "A"):
            yield ch


def free_symbols(taken: Iterable[str], usable: Callable[[str], bool] = lambda ch: True) -> Iterator[str]:
    """Symbols not in `taken` (a live set: what the caller adds while drawing is skipped too) and
    `usable` by the format, in a fixed order; never runs out for any palette nonocp accepts."""
    seen = taken if isinstance(taken, set) else set(taken)
    for ch in _symbol_candidates():
        if ch not in seen and usable(ch):
            yield ch
    raise InvalidPuzzleError("no free colour symbol left")  # unreachable: thousands of candidates


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


# Characters people type for a digit: the hint in clue_char_error.
LOOKALIKES = {"l": "1", "I": "1", "i": "1", "|": "1", "!": "1", "O": "0", "o": "0"}
_SEPARATOR_TYPOS = ".;:/"


def clue_char_error(path: str, line: int | None, text: str, index: int, declared: Sequence[str] = (),
                    column_offset: int = 0) -> ParseError:
    """The error for `text[index]` in a clue line, a character that is neither a number, a separator nor a
    declared colour: `file:line:column` (1-based; `column_offset` = characters before `text` on its line)
    and a hint: `l` -> "did you mean 1?", `2.1` -> "did you mean 2,1?", a near colour symbol."""
    ch = text[index]
    start = index
    while start > 0 and text[start - 1] not in ", \t":
        start -= 1
    end = index
    while end < len(text) and text[end] not in ", \t":
        end += 1
    token = text[start:end]
    if ch in LOOKALIKES:
        hint = f"did you mean {LOOKALIKES[ch]}?"
    elif ch in _SEPARATOR_TYPOS and index > 0 and text[index - 1].isdigit() and text[index + 1:index + 2].isdigit():
        hint = f"did you mean {token.replace(ch, ',')}? (blocks are separated by commas or spaces)"
    elif declared:
        close = [s for s in declared if s.lower() == ch.lower()]
        hint = f"did you mean {close[0]}?" if close else f"declared colours: {', '.join(sorted(declared))}"
    else:
        hint = "clues are numbers separated by commas or spaces"
    what = "a number, a separator or a declared colour" if declared else "a number or a separator"
    return ParseError(path, line, f"clue {token[:40]!r}: {ch!r} is not {what}; {hint}",
                      column=column_offset + index + 1)


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
    if not _NUMBERS_ONLY.fullmatch(text):
        bad = next(k for k, ch in enumerate(text) if not (ch.isascii() and (ch.isdigit() or ch.isspace() or ch == ",")))
        raise clue_char_error(path, line, text, bad)
    if all(len(t) <= MAX_DIGITS for t in tokens):
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


def header_title(header: Sequence[str]) -> str:
    """The puzzle's name in the free text around a file's clues, for formats with no title field (a .non
    without `title`: webpbn's exports open with a URL, then the name, `Frans Faase's portait`; .g and .mk
    files): the first line that is not a URL and reads as a name, not a sentence or a heading (`nonogram
    clues data:`); "" when there is none. A .g file's `declares the task "rose"` names it too."""
    for line in header:
        m = re.search(r'task\s+"([^"]{1,60})"|"([^"]{1,60})"\s+task', line)
        if m:
            return one_line(m.group(1) or m.group(2))
    for line in header:
        text = html.unescape(line).strip().strip('"').strip()
        if re.match(r"[a-z][a-z0-9+.-]*://", text, re.I) or not re.search(r"[^\W\d_]", text):
            continue
        if len(text) <= 60 and not text.endswith((":", ".")):
            return one_line(text)
        return ""
    return ""
