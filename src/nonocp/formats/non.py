"""Steve Simpson's `.non` format, mikix's colour extension and `.nonpack` bundles, plus Nonny's colour dialect.

Reading (what real files do, all accepted):
- keys `catalogue title by author copyright license width height rows columns goal color`; any other
  line is ignored (free-text headers, `maxrule`, URLs); keys are matched case-insensitively.
- string values: between the first and the last double quote (titles hold inner quotes), else the bare
  rest of the line; HTML entities are decoded.
- clue lines: numbers separated by commas and/or spaces, trailing commas allowed; `3a` is a block of
  colour `a`; a bare number is colour `1` (black); `0` is an empty line. Strict: any other character
  (`2.1`, `l` for `1`, a colour no `color` line declares) is an error at its line and column with a hint.
  Inside a clue section a line that is not a clue is read as one (and fails there) until the section
  has its `height` (`width`) clues; after that, free text ends the section.
- an empty line may also be written as a blank line (mikix). Blank lines are separators when the
  section has exactly `height` (or `width`) clue lines without them, empty clues otherwise.
- `color a #rrggbb` defines symbol `a`; symbol `0` is the background. A symbol used in a clue must be
  declared (a symbol never declared is far more often a typo than a colour).
- `goal "0110..."`: row-major, `0` = background; in black and white anything else is black; in colour
  each character is a colour symbol. A goal may continue over several lines until its closing quote.
- Nonny's dialect (`color red FF0000 #`, clue lines like `red 1 yellow 4 red 1`, bare numbers = the
  first colour) is recognised from its `color` lines.

Writing: the same keys, `color` lines for colour puzzles (a palette symbol `.non` cannot carry, such as
a digit or a quote, is replaced by a free one: letters first, never running out), `goal` when the
puzzle's meta has one; free text (titles, authors) as one printable line (core.text.one_line).
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Sequence

from nonocp.core.errors import ParseError
from nonocp.core.grid import Grid
from nonocp.core.palette import BLACK, Color, Palette
from nonocp.core.puzzle import Block, Clue, Meta, Puzzle
from nonocp.core.text import one_line
from nonocp.formats._common import (
    LOOKALIKES,
    MAX_CELLS,
    build_puzzle,
    check_clue,
    check_size,
    clue_char_error,
    free_symbols,
    header_title,
    make_color,
    make_palette,
    normalise_rgb,
    quoted_value,
    to_int,
)

_STRING_KEYS = {"catalogue": "source", "catalog": "source", "title": "title", "by": "author",
                "author": "author", "copyright": "copyright", "license": "license", "licence": "license"}
_SECTION_KEYS = {"rows": "rows", "columns": "cols", "cols": "cols"}
_WORD = re.compile(r"[^,\s]+")
_DIGITS = re.compile(r"[0-9]+")
_NONNY_COLOR = re.compile(r"^(\S{2,})\s+#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})(?:\s+(\S))?\s*$")
_MIKIX_COLOR = re.compile(r"^(\S)\s+(#?[0-9A-Fa-f]{6}|#?[0-9A-Fa-f]{3})\b")
SEPARATOR = "===="


# Every key a .non file may hold; a line starting with one ends a clue section.
_KEYS = {*_STRING_KEYS, *_SECTION_KEYS, "width", "height", "color", "colour", "goal", "maxrule", "collection"}


class _Section:
    """The lines under `rows` or `columns`: (line number, text, indent) with blanks kept, resolved later."""

    def __init__(self, key: str, lineno: int) -> None:
        self.key = key
        self.lineno = lineno
        self.lines: list[tuple[int, str, int]] = []


def _first_word(s: str) -> tuple[str, str]:
    parts = s.split(None, 1)
    if not parts:
        return "", ""
    return parts[0].lower(), (parts[1] if len(parts) > 1 else "")


def parse_non(text: str, path: str = "<string>", first_line: int = 1) -> Puzzle:
    """One puzzle from `.non` text. `first_line` is the file line number of text's first line (bundles)."""
    lines = text.splitlines()
    meta: dict[str, str] = {}
    width = height = None
    wh_line: int | None = None
    sections: dict[str, _Section] = {}
    goal: tuple[int, str] | None = None
    mikix_colors: list[tuple[int, str, str]] = []  # (line, symbol, rgb)
    nonny_colors: list[tuple[int, str, str, str]] = []  # (line, name, rgb, display symbol)

    header: list[str] = []  # free text before the first key: where files without `title` name the puzzle
    keyed = False
    i = 0
    n = len(lines)
    while i < n:
        lineno = first_line + i
        raw = lines[i]
        s = raw.strip()
        i += 1
        if not s:
            continue
        key, rest = _first_word(s)
        if key in _KEYS:
            keyed = True
        elif not keyed:
            header.append(s)
        if key in _STRING_KEYS:
            meta.setdefault(_STRING_KEYS[key], html.unescape(quoted_value(rest)))
        elif key in ("width", "height"):
            tok = rest.split()
            if not tok:
                raise ParseError(path, lineno, f"{key} has no value")
            v = to_int(tok[0], path, lineno, key)
            if key == "width":
                width = v
            else:
                height = v
            wh_line = lineno
            if width is not None and height is not None:
                check_size(width, height, path, lineno)
        elif key in ("color", "colour"):
            m = _NONNY_COLOR.match(rest.strip())
            if m:
                nonny_colors.append((lineno, m.group(1), m.group(2), m.group(3) or ""))
                continue
            m = _MIKIX_COLOR.match(rest.strip())
            if not m:
                raise ParseError(path, lineno, f"cannot read colour definition {s[:60]!r} (expected `color a #rrggbb`)")
            mikix_colors.append((lineno, m.group(1), m.group(2)))
        elif key in _SECTION_KEYS:
            name = _SECTION_KEYS[key]
            if name in sections:
                raise ParseError(path, lineno, f"a second `{key}` section")
            sec = _Section(name, lineno)
            sections[name] = sec
            color_names = {c[1].lower() for c in nonny_colors}
            expected = height if name == "rows" else width
            clues = 0
            while i < n:
                t = lines[i].strip()
                if t and not t[0].isdigit() and t[0] not in "+-":
                    w = t.split(None, 1)[0].lower()
                    # A key ends the section, and so does free text once the section has its clues. Before
                    # that, a line that is not a clue is a typo in one (`l` for `1`): read as a clue, it gets
                    # an error at its column, instead of silently ending the section short.
                    if w not in color_names and (w in _KEYS or expected is None or clues >= expected):
                        break
                sec.lines.append((first_line + i, t, len(lines[i]) - len(lines[i].lstrip())))
                clues += bool(t)
                i += 1
        elif key == "goal":
            value = rest.strip()
            if value.startswith('"') and value.count('"') < 2:
                # the goal continues over the following lines up to its closing quote
                parts = [value]
                while i < n and '"' not in lines[i]:
                    parts.append(lines[i].strip())
                    i += 1
                if i < n:
                    parts.append(lines[i].strip())
                    i += 1
                value = "".join(parts)
            goal = (lineno, "".join(quoted_value(value).split()))
        # anything else: ignored (free text, maxrule, collection, URLs, ...)

    if "rows" not in sections or "cols" not in sections:
        missing = "rows" if "rows" not in sections else "columns"
        last = first_line + len(lines) - 1 if lines else first_line
        raise ParseError(path, last, f"no `{missing}` section (truncated, or not a .non file?)")

    nonny = bool(nonny_colors)
    if nonny and mikix_colors:
        raise ParseError(path, mikix_colors[0][0], "mixes `color a #rrggbb` with Nonny's `color name RRGGBB` lines")

    name_to_symbol: dict[str, str] = {}
    if nonny:
        palette, name_to_symbol = _nonny_palette(nonny_colors, path)
        default_symbol = palette[1].symbol
    else:
        default_symbol = "1"

    row_lines = _resolve(sections["rows"], height, path, "row")
    col_lines = _resolve(sections["cols"], width, path, "column")
    if height is None:
        height = len(row_lines)
    if width is None:
        width = len(col_lines)
    check_size(width, height, path, wh_line or sections["rows"].lineno)

    # the symbols a block may carry: the declared colours (Nonny's by name, so none by symbol)
    declared = () if nonny else tuple(dict.fromkeys(sym for _, sym, _ in mikix_colors if sym != "0"))
    used: list[str] = []
    seen: set[str] = set()
    raw_rows = [_parse_clue(t, ln, ind, path, default_symbol, name_to_symbol, declared, used, seen)
                for ln, t, ind in row_lines]
    raw_cols = [_parse_clue(t, ln, ind, path, default_symbol, name_to_symbol, declared, used, seen)
                for ln, t, ind in col_lines]

    if not nonny:
        palette = _mikix_palette(mikix_colors, used, path)
    index = {c.symbol: k for k, c in enumerate(palette.colors)}

    def convert(raw: list[tuple[int, str]], ln: int) -> Clue:
        out = []
        for length, sym in raw:
            if sym not in index:
                raise ParseError(path, ln, f"colour {sym!r} is not defined")
            out.append(Block(length, index[sym]))
        return tuple(out)

    rows = [convert(r, ln) for r, (ln, _, _) in zip(raw_rows, row_lines, strict=True)]
    cols = [convert(c, ln) for c, (ln, _, _) in zip(raw_cols, col_lines, strict=True)]
    # structural checks with the line of each clue
    for clues, src, length, kind in ((rows, row_lines, width, "row"), (cols, col_lines, height, "column")):
        for k, (clue, (ln, _, _)) in enumerate(zip(clues, src, strict=True), 1):
            check_clue(clue, length, path, ln, f"{kind} {k}")

    goal_grid = None
    if goal is not None:
        goal_grid = _parse_goal(goal[1], goal[0], width, height, palette, path)

    m = Meta(
        title=meta.get("title", "") or header_title(header),
        author=meta.get("author", ""),
        copyright=meta.get("copyright", ""),
        license=meta.get("license", ""),
        source=meta.get("source", ""),
        goal=goal_grid,
    )
    return build_puzzle(rows, cols, palette, m, path, sections["rows"].lineno)


def _resolve(sec: _Section, expected: int | None, path: str, kind: str) -> list[tuple[int, str, int]]:
    """The clue lines of a section: blank lines are separators or empty clues, whichever makes the count.
    A count that cannot be made is reported at the section's own line (`rows` / `columns`), the place to
    look: the last line of a short section is often another section's."""
    entries = sec.lines
    nonblank = [e for e in entries if e[1]]
    if expected is None or len(nonblank) == expected:
        return nonblank
    if len(nonblank) > expected:
        ln = nonblank[expected][0]
        raise ParseError(path, ln, f"more than {expected} {kind} clues (the grid has {expected} {kind}s)")
    # fewer clue lines than lines: blank lines stand for empty clues (mikix) if that makes the count; an
    # empty clue written as a blank line may also be the very last line of the file
    body = entries[:expected]
    if len(body) == expected and all(not e[1] for e in entries[expected:]):
        return body
    blanks = len(entries) - len(nonblank)
    if len(nonblank) + blanks >= expected:  # blank lines between clues that make up the difference
        return _blanks_as_empty(entries, expected)
    raise ParseError(path, sec.lineno, f"the `{sec.key if sec.key == 'rows' else 'columns'}` section holds "
                     f"{len(nonblank)} {kind} clues; expected {expected} (the grid has {expected} {kind}s; "
                     "an empty line is `0` or a blank line)")


def _blanks_as_empty(entries: list[tuple[int, str, int]], expected: int) -> list[tuple[int, str, int]]:
    """The first `expected` entries with blank lines as empty clues, leading and trailing blanks dropped
    first when there are more entries than clues (they were separators)."""
    out = list(entries)
    while len(out) > expected and not out[0][1]:
        out.pop(0)
    while len(out) > expected and not out[-1][1]:
        out.pop()
    return out[:expected]


def _parse_clue(
    text: str,
    line: int,
    indent: int,
    path: str,
    default_symbol: str,
    names: dict[str, str],
    declared: Sequence[str],
    used: list[str],
    seen: set[str],
) -> list[tuple[int, str]]:
    """[(length, symbol)] of one clue line; zeros are dropped (`0` = an empty line). Strict: every
    character is a digit, a separator (comma, space), a declared colour symbol right after a length
    (`3a`), or a Nonny colour name; anything else is a ParseError at its column with a hint."""
    out: list[tuple[int, str]] = []
    current = default_symbol
    for m in _WORD.finditer(text):
        tok, at = m.group(), m.start()
        if names and not tok[0].isdigit():
            sym = names.get(tok.lower())
            if sym is None:
                close = difflib.get_close_matches(tok.lower(), list(names), n=1)
                hint = f"did you mean {close[0]}?" if close else f"colours: {', '.join(sorted(names))}"
                raise ParseError(path, line, f"unknown colour name {tok[:40]!r}; {hint}", column=indent + at + 1)
            current = sym
            continue
        digits = _DIGITS.match(tok)
        if digits is None:
            raise clue_char_error(path, line, text, at, declared, indent)
        length = to_int(digits.group(), path, line, "block length")
        rest = tok[digits.end():]
        sym = current
        if rest:
            if rest[0] not in declared:
                if not declared and rest[0].isalpha() and rest[0] not in LOOKALIKES:
                    raise ParseError(path, line, f"clue {tok[:40]!r}: colour {rest[0]!r} is not declared (a colour "
                                     f"puzzle declares each one: `color {rest[0]} #rrggbb`)",
                                     column=indent + at + digits.end() + 1)
                raise clue_char_error(path, line, text, at + digits.end(), declared, indent)
            if len(rest) > 1:
                raise ParseError(path, line, f"clue {tok[:40]!r}: one colour symbol per block ({rest[1]!r} after "
                                 f"{rest[0]!r})", column=indent + at + digits.end() + 2)
            sym = rest[0]
        if length == 0:
            continue
        if sym not in seen:
            seen.add(sym)
            used.append(sym)
        out.append((length, sym))
    return out


def _mikix_palette(defined: Sequence[tuple[int, str, str]], used: Sequence[str], path: str) -> Palette:
    background = Color("white", "#ffffff", "0")
    colors: list[Color] = []
    symbols: set[str] = set()
    for ln, sym, rgb in defined:
        value = normalise_rgb(rgb)
        if value is None:  # the regex only lets hex through; kept for safety
            raise ParseError(path, ln, f"colour {sym!r}: {rgb!r} is not #rrggbb")
        if sym == "0":
            background = make_color("white" if value == "#ffffff" else "background", value, "0", path, ln)
            continue
        if sym in symbols:
            raise ParseError(path, ln, f"colour {sym!r} is defined twice")
        symbols.add(sym)
        name = "black" if (sym == "1" and value == "#000000") else sym
        colors.append(make_color(name, value, sym, path, ln))
    if "1" in used and "1" not in symbols:  # bare numbers: black, unless `color 1` says otherwise
        colors.append(BLACK)
    if not colors:
        colors.append(BLACK)
    return make_palette([background, *colors], path, defined[0][0] if defined else None)


def _nonny_palette(defined: Sequence[tuple[int, str, str, str]], path: str) -> tuple[Palette, dict[str, str]]:
    """Nonny's named colours. Symbols: the display symbol when usable, else a free one (free_symbols: the
    supply never runs out)."""
    colors: list[Color] = [Color("white", "#ffffff", "0")]
    taken = {"0"}
    names: dict[str, str] = {}
    free = free_symbols(taken, _writable_symbol)
    for ln, name, rgb, display in defined:
        value = normalise_rgb(rgb)
        if value is None:
            raise ParseError(path, ln, f"colour {name!r}: {rgb!r} is not RRGGBB")
        if name.lower() in names:
            raise ParseError(path, ln, f"colour {name!r} is defined twice")
        sym = display
        if not sym or sym in taken or not _writable_symbol(sym):
            sym = next(free)
        taken.add(sym)
        names[name.lower()] = sym
        colors.append(make_color(name, value, sym, path, ln))
    return make_palette(colors, path, defined[0][0]), names


def _parse_goal(chars: str, line: int, width: int, height: int, palette: Palette, path: str) -> Grid:
    if len(chars) != width * height:
        raise ParseError(path, line, f"goal has {len(chars)} cells but the grid has {width}x{height}")
    if width * height > MAX_CELLS:
        raise ParseError(path, line, "goal too large")
    if [c.symbol for c in palette.colors] == ["0", "1"]:
        # Simpson: 0 is blank, anything else is filled
        flat = [0 if ch == "0" else 1 for ch in chars]
    else:
        index = {c.symbol: k for k, c in enumerate(palette.colors)}
        flat = []
        for k, ch in enumerate(chars):
            v = index.get(ch)
            if v is None:
                raise ParseError(path, line, f"goal cell {k + 1} is {ch!r}, not a colour of this puzzle")
            flat.append(v)
    return Grid(tuple(tuple(flat[r * width:(r + 1) * width]) for r in range(height)))


def read_non(text: str, path: str = "<string>") -> list[Puzzle]:
    """A `.non` file; a `====` line makes it a bundle, so a `.non` holding several puzzles also reads."""
    return read_nonpack(text, path)


def read_nonpack(text: str, path: str = "<string>") -> list[Puzzle]:
    """Puzzles separated by `====` lines; empty parts (a leading or trailing divider) are skipped."""
    puzzles: list[Puzzle] = []
    lines = text.splitlines()
    start = 0
    chunks: list[tuple[int, int]] = []
    for k, ln in enumerate(lines):
        if ln.strip() == SEPARATOR:
            chunks.append((start, k))
            start = k + 1
    chunks.append((start, len(lines)))
    for a, b in chunks:
        part = lines[a:b]
        if not any(p.strip() for p in part):
            continue
        # "\n" after every line: a last line that is blank (an empty clue, mikix) must stay a line
        puzzles.append(parse_non("".join(ln + "\n" for ln in part), path, first_line=a + 1))
    if not puzzles:
        raise ParseError(path, 1, "no puzzle in the file (empty?)")
    return puzzles


# --- writing ---------------------------------------------------------------------------------------

_ENTITY = re.compile(r"&(#?\w+;)")


def _writable_symbol(ch: str) -> bool:
    """A character that can stand for a colour in `.non` text: after a block length (`3a`), in a `color`
    line and in the goal. Not a digit (it would read as part of the length), not a separator or quote."""
    return len(ch) == 1 and ch.isprintable() and not ch.isspace() and not ch.isdigit() and ch not in ',"'


def _string(value: str) -> str:
    """A value as a quoted `.non` string: one printable line (core.text.one_line: control characters as
    visible escapes, so the file reads back), `&` escaped only where it would read as an entity."""
    return '"' + _ENTITY.sub(r"&amp;\1", one_line(value)) + '"'


def non_symbols(palette: Palette) -> list[str]:
    """The `.non` character of each palette colour: `0` for the background; in colour puzzles `1` or the
    palette's own symbol when `.non` can carry it, else the next free one (free_symbols never runs out)."""
    if palette.is_black_and_white:
        return ["0", "1"]
    wanted = [c.symbol for c in palette.colors[1:]]
    keep = [s if (s == "1" or _writable_symbol(s)) else "" for s in wanted]
    taken = {"0", *filter(None, keep)}  # Palette symbols are unique: none is kept twice
    free = free_symbols(taken, _writable_symbol)
    return ["0", *(s or next(free) for s in keep)]


def dumps_non(puzzle: Puzzle) -> str:
    m = puzzle.meta
    out: list[str] = []
    if m.source:
        out.append(f"catalogue {_string(m.source)}")
    if m.title:
        out.append(f"title {_string(m.title)}")
    if m.author:
        out.append(f"by {_string(m.author)}")
    if m.copyright:
        out.append(f"copyright {_string(m.copyright)}")
    if m.license:
        lic = m.license.strip()
        out.append(f"license {lic}" if re.fullmatch(r"[A-Za-z0-9.+-]+", lic) else f"license {_string(lic)}")
    out.append(f"width {puzzle.width}")
    out.append(f"height {puzzle.height}")
    syms = non_symbols(puzzle.palette)
    colour = not puzzle.palette.is_black_and_white
    if colour:
        out.append("")
        bg = puzzle.palette[0]
        if bg.rgb != "#ffffff":
            out.append(f"color 0 {bg.rgb}")
        for k in range(1, len(puzzle.palette)):
            out.append(f"color {syms[k]} {puzzle.palette[k].rgb}")

    def clue_text(clue: Clue) -> str:
        if not clue:
            return "0"
        if not colour:
            return ",".join(str(b.length) for b in clue)
        return ",".join(f"{b.length}{syms[b.color] if syms[b.color] != '1' else ''}" for b in clue)

    out.append("")
    out.append("rows")
    out.extend(clue_text(c) for c in puzzle.rows)
    out.append("")
    out.append("columns")
    out.extend(clue_text(c) for c in puzzle.cols)
    if m.goal is not None:
        out.append("")
        out.append('goal "' + "".join("".join(syms[v] for v in row) for row in m.goal.cells) + '"')
    return "\n".join(out) + "\n"


def dumps_nonpack(puzzles: Sequence[Puzzle]) -> str:
    return (SEPARATOR + "\n").join(dumps_non(p) for p in puzzles)


_SNIFF_ROWS = re.compile(r"^\s*rows\s*$", re.MULTILINE | re.IGNORECASE)
_SNIFF_COLS = re.compile(r"^\s*columns\s*$", re.MULTILINE | re.IGNORECASE)


def sniff(text: str) -> bool:
    """`rows` and `columns` lines: a .non file (whatever else it holds)."""
    return bool(_SNIFF_ROWS.search(text) and _SNIFF_COLS.search(text))
