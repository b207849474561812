"""Petr Olšák's formats: `.g` (with colours) and `.mk`.

`.g`: free text, then optionally a `#...` line opening colour declarations
`<inchar>:<outchar> <XPM colour name or #RRGGBB> <comment>` (`0` = background, `1` = the colour of a
number without a suffix), then three lines starting with `:` that open the row clues, open the column
clues and end the puzzle. A clue is numbers with an optional colour character suffix (`3`, `2r`),
separated by spaces. Triangle "colours" (an XPM word holding `/` or `\\`) are refused: the model has
rectangular cells only. Symbols used but not declared get default colours (`1` = black).

`.mk`: `H W` (rows first), H row clues, a `#` line, W column clues; `0` = empty line.

Neither has a title field: the name is read from the free text (a .g file's opening text, `declares the
task "rose"` or a first line that reads as a name; a line of text before a .mk's `H W` or after its
columns), see _common.header_title.
"""

from __future__ import annotations

import re

from nonocp.core.errors import ParseError
from nonocp.core.palette import BLACK, WHITE, Color, Palette
from nonocp.core.puzzle import Block, Clue, Meta, Puzzle
from nonocp.formats._common import (
    build_puzzle,
    check_clue,
    check_clues,
    check_size,
    default_rgb,
    header_title,
    make_color,
    make_palette,
    normalise_rgb,
    number_clue,
    to_int,
)

# A few X11 rgb.txt names (enough for the files seen in the wild; others get a default colour).
X11 = {
    "white": "#ffffff", "black": "#000000", "red": "#ff0000", "green": "#00ff00", "blue": "#0000ff",
    "yellow": "#ffff00", "orange": "#ffa500", "brown": "#a52a2a", "pink": "#ffc0cb", "purple": "#a020f0",
    "magenta": "#ff00ff", "cyan": "#00ffff", "gray": "#bebebe", "grey": "#bebebe", "darkgreen": "#006400",
    "darkblue": "#00008b", "darkred": "#8b0000", "lightblue": "#add8e6", "lightgreen": "#90ee90",
    "violet": "#ee82ee", "gold": "#ffd700", "navy": "#000080", "maroon": "#b03060", "beige": "#f5f5dc",
    "tan": "#d2b48c", "olive": "#808000", "silver": "#c0c0c0", "darkgray": "#a9a9a9", "darkgrey": "#a9a9a9",
    "lightgray": "#d3d3d3", "lightgrey": "#d3d3d3", "skyblue": "#87ceeb", "salmon": "#fa8072",
}
_DECL = re.compile(r"^\s*(\S):(\S?)\s*(\S+)")
_TOKEN = re.compile(r"^(\d+)(\D?)$")


def sniff(text: str) -> bool:
    if re.search(r"^\s*(rows|columns)\s*$", text, re.MULTILINE | re.IGNORECASE):
        return False  # a .non file
    return sum(1 for ln in text.splitlines() if ln.startswith(":")) >= 2


def read_g(text: str, path: str = "<string>") -> list[Puzzle]:
    lines = text.splitlines()
    marks = [k for k, ln in enumerate(lines) if ln.startswith(":")]
    if len(marks) < 2:
        raise ParseError(path, len(lines) or 1, "a .g file needs `:` lines opening the rows and the columns")
    decl_start = None
    for k in range(marks[0]):
        if lines[k].startswith("#"):
            decl_start = k
            break
    declared: list[tuple[int, str, str, str]] = []  # (line, inchar, rgb, name)
    if decl_start is not None:
        for k in range(decl_start + 1, marks[0]):
            s = lines[k]
            if not s.strip():
                continue
            m = _DECL.match(s)
            if not m:
                raise ParseError(path, k + 1, f"cannot read colour declaration {s.strip()[:40]!r}")
            inchar, word = m.group(1), m.group(3)
            if "/" in word or "\\" in word:
                raise ParseError(path, k + 1, f"triangle cells ({word[:30]}) are not supported")
            if inchar.isdigit() and inchar not in "01" or inchar == ",":
                raise ParseError(path, k + 1, f"colour character {inchar!r} cannot be a digit or comma")
            rgb = normalise_rgb(word) if word.startswith("#") else X11.get(word.lower())
            declared.append((k + 1, inchar, rgb or "", word))

    end = marks[2] if len(marks) >= 3 else len(lines)
    row_src = [(k + 1, lines[k]) for k in range(marks[0] + 1, marks[1])]
    col_src = [(k + 1, lines[k]) for k in range(marks[1] + 1, end)]
    row_src = _trim_blank_tail(row_src)
    col_src = _trim_blank_tail(col_src)
    check_size(len(col_src), len(row_src), path, marks[0] + 1)

    used: list[str] = []
    raw_rows = [_g_clue(t, ln, path, used) for ln, t in row_src]
    raw_cols = [_g_clue(t, ln, path, used) for ln, t in col_src]
    palette = _g_palette(declared, used, path)
    index = {c.symbol: k for k, c in enumerate(palette.colors)}
    rows: list[Clue] = []
    cols: list[Clue] = []
    for raw, src, out, length, kind in ((raw_rows, row_src, rows, len(col_src), "row"),
                                        (raw_cols, col_src, cols, len(row_src), "column")):
        for k, (blocks, (ln, _)) in enumerate(zip(raw, src, strict=True), 1):
            clue = tuple(Block(n, index[s]) for n, s in blocks)
            check_clue(clue, length, path, ln, f"{kind} {k}")
            out.append(clue)
    first_code = min([marks[0], *([decl_start] if decl_start is not None else [])])
    title = header_title([ln for ln in lines[:first_code] if ln.strip()])
    return [build_puzzle(rows, cols, palette, Meta(title=title), path, marks[0] + 1)]


def _trim_blank_tail(src: list[tuple[int, str]]) -> list[tuple[int, str]]:
    while src and not src[-1][1].strip():
        src = src[:-1]
    return src


def _g_clue(text: str, line: int, path: str, used: list[str]) -> list[tuple[int, str]]:
    out = []
    for tok in text.replace(",", " ").split():
        m = _TOKEN.match(tok)
        if not m:
            raise ParseError(path, line, f"cannot read clue {tok[:40]!r}")
        n = to_int(m.group(1), path, line, "block length")
        sym = m.group(2) or "1"
        if sym == "0":
            raise ParseError(path, line, "a block cannot have the background colour `0`")
        if n:
            if sym not in used:
                used.append(sym)
            out.append((n, sym))
    return out


def _g_palette(declared: list[tuple[int, str, str, str]], used: list[str], path: str) -> Palette:
    background = WHITE
    colors: list[Color] = []
    seen: set[str] = set()
    for ln, sym, rgb, word in declared:
        value = rgb or default_rgb(len(colors) + 1)
        name = word if not word.startswith("#") else sym
        if sym == "0":
            background = make_color(name, value, "0", path, ln)
            continue
        if sym in seen:
            raise ParseError(path, ln, f"colour {sym!r} is declared twice")
        seen.add(sym)
        if sym == "1" and value == "#000000":
            colors.append(BLACK)
        else:
            colors.append(make_color(name, value, sym, path, ln))
    for sym in used:
        if sym not in seen:
            seen.add(sym)
            colors.append(BLACK if sym == "1" else make_color(sym, default_rgb(len(colors) + 1), sym, path, None))
    if not colors:
        colors.append(BLACK)
    return make_palette([background, *colors], path, declared[0][0] if declared else None)


def sniff_mk(text: str) -> bool:
    """`H W`, H lines of numbers, then a `#` line."""
    lines = text.splitlines()
    m = re.fullmatch(r"\s*(\d{1,4})\s+(\d{1,4})\s*", lines[0]) if lines else None
    if not m:
        return False
    height = int(m.group(1))
    return len(lines) > height + 1 and lines[height + 1].strip() == "#"


def read_mk(text: str, path: str = "<string>") -> list[Puzzle]:
    lines = text.splitlines()
    i = 0
    # free text before `H W` (a name) is read as the title, as text after the column clues
    while i < len(lines) and not re.fullmatch(r"\s*\d+\s+\d+\s*", lines[i]) and not (
            lines[i].strip() and lines[i].split()[0].isdigit()):
        i += 1
    if i == len(lines):
        i = 0
        while i < len(lines) and not lines[i].strip():
            i += 1
    if i == len(lines):
        raise ParseError(path, 1, "empty file: no `height width` line")
    leading = [ln for ln in lines[:i] if ln.strip()]
    parts = lines[i].split()
    if len(parts) != 2:
        raise ParseError(path, i + 1, f"expected `height width`, found {lines[i].strip()[:40]!r}")
    height = to_int(parts[0], path, i + 1, "height")
    width = to_int(parts[1], path, i + 1, "width")
    check_size(width, height, path, i + 1)
    first = i + 1
    if len(lines) < first + height + 1 + width:
        raise ParseError(path, len(lines), f"expected {height} rows, `#` and {width} columns (truncated file?)")
    sep = first + height
    if lines[sep].strip() != "#":
        raise ParseError(path, sep + 1, f"expected `#` after {height} row clues, found {lines[sep].strip()[:40]!r}")
    rows = [number_clue(lines[first + k], path, first + k + 1) for k in range(height)]
    cols = [number_clue(lines[sep + 1 + k], path, sep + k + 2) for k in range(width)]
    check_clues(rows, width, path, range(first + 1, first + height + 1), "row")
    check_clues(cols, height, path, range(sep + 2, sep + width + 2), "column")
    trailing = [ln for ln in lines[sep + 1 + width:] if ln.strip()]
    title = header_title(leading + trailing)
    return [build_puzzle(rows, cols, Palette.black_and_white(), Meta(title=title), path, i + 1)]
