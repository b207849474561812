"""Count-and-contiguity puzzles (core/counts.py) in their two file forms.

JSON (read by the `json` format when its content has this shape, so `.json` files of either kind read alike):

    {"title": "Cat",                                     optional, as are author, copyright, license, source, notes
     "colors": ["#fff44f", "black", "#3a7bd5"],          #rgb, #rrggbb or a CSS colour name; palette order
     "rows": [[{"count": 10, "allInARow": true}, {"count": 0}, {"count": 5, "allInARow": false}], ...],
     "columns": [...],                                   one entry per colour per line, in palette order
     "goal": ["aab...", ...]}                            optional: one solution, colours as a, b, c, ...

The seed game's solver (github.com/TradeIdeasPhilip/hungry-cat-nonogram-solver) writes the same objects, a list
of them in its puzzle list, naming each by `description` (read as the title) with a `hint` (read as the notes).
As its reader does, a count of 2 or more must say `allInARow` (true or false), and 0 or 1 need not.

The text entry form (format `counts`, extension `.counts`): a `colors` line, then `rows` and `columns`
sections with one line of counts each, `*` (or the game's `•`) after a count whose cells are all in a row:

    # a comment
    title "Cat"
    colors #fff44f black #3a7bd5
    rows
    10* 0 5
    ...
    columns
    ...
    goal                                               optional, as in JSON
    aab...

In text, a count of 2 or more without `*` means not all in a row; 0 and 1 take no flag.
Colours are given the symbols a, b, c, ... in palette order (the alphabet of goals and of `solve`'s answers).
Every mistake is a ParseError at its file line: a line whose counts do not add up to its length, a flag on a
count of 0 or 1, a count of 2 or more without its flag (JSON), a line with more or fewer counts than colours,
colour totals of rows and columns that differ.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Sequence
from typing import Any

from nonocp.core.counts import SYMBOLS, Count, CountClue, clue_problem, clue_text
from nonocp.core.errors import InvalidPuzzleError, ParseError
from nonocp.core.grid import Grid
from nonocp.core.palette import Color, Palette
from nonocp.core.puzzle import COUNTS, Meta, Puzzle
from nonocp.formats._common import MAX_SIDE, check_size, normalise_rgb, quoted_value, to_int

META_KEYS = ("title", "author", "copyright", "license", "source", "notes")
# The game's names for two of them: its puzzle list names a puzzle by `description` and adds a `hint`.
GAME_KEYS = {"description": "title", "hint": "notes"}
_TOKEN = re.compile(r"(\d+)([*\u2022]?)")  # 3, or 3* / 3• (the game's mark) when all in a row


# ------------------------------------------------------------------------------------------- colours


def css_rgb(name: str) -> str | None:
    """The #rrggbb of a CSS colour name, or None. Pillow knows the names (a dependency already; imported only
    when a name is used); its table is read through getrgb, which caches parsed values back into it as
    tuples, so the table's entries are not always text."""
    from PIL import ImageColor

    if name.lower() not in ImageColor.colormap:
        return None
    r, g, b = ImageColor.getrgb(name.lower())[:3]
    return f"#{r:02x}{g:02x}{b:02x}"


def colour_of(spec: str, index: int, path: str, line: int | None) -> Color:
    """The palette colour for `spec` (`#rgb`, `#rrggbb` or a CSS colour name), with symbol SYMBOLS[index]."""
    if not isinstance(spec, str) or not spec.strip():
        raise ParseError(path, line, f"colour {index + 1}: {str(spec)[:30]!r} is not a colour (#rrggbb or a name)")
    text = spec.strip()
    rgb = normalise_rgb(text) if text.startswith("#") else css_rgb(text)
    if rgb is None:
        raise ParseError(path, line, f"colour {index + 1}: {text[:30]!r} is neither #rrggbb nor a CSS colour name")
    return Color(text if not text.startswith("#") else rgb, rgb, SYMBOLS[index])


def colour_spec(colour: Color) -> str:
    """How a colour is written: its CSS name when it has one with that value, else #rrggbb."""
    name = colour.name.lower()
    if not name.startswith("#") and css_rgb(name) == colour.rgb:
        return colour.name
    return colour.rgb


def make_count_palette(specs: Sequence[Any], path: str, lines: Sequence[int | None]) -> Palette:
    if len(specs) < 2:
        raise ParseError(path, lines[0] if lines else None,
                         f"{len(specs)} colour{'s' if len(specs) != 1 else ''}; a count puzzle needs at least two")
    if len(specs) > len(SYMBOLS):
        raise ParseError(path, lines[0], f"{len(specs)} colours; over {len(SYMBOLS)} are refused")
    colours = [colour_of(s, i, path, lines[i]) for i, s in enumerate(specs)]
    seen: dict[str, int] = {}
    for i, c in enumerate(colours):
        if c.rgb in seen:
            raise ParseError(path, lines[i], f"colour {i + 1} ({specs[i]}) repeats colour {seen[c.rgb] + 1}")
        seen[c.rgb] = i
    return Palette(tuple(colours))


# ------------------------------------------------------------------------------------------- checking


def build_count_puzzle(rows: list[CountClue], cols: list[CountClue], palette: Palette, meta: Meta, path: str,
                       row_lines: Sequence[int | None], col_lines: Sequence[int | None],
                       totals_line: int | None) -> Puzzle:
    """The Puzzle, after every check at its file line: size, each clue against its line, the colour totals."""
    check_size(len(cols), len(rows), path, totals_line)
    ncol = len(palette)
    for kind, clues, length, where in (("row", rows, len(cols), row_lines), ("column", cols, len(rows), col_lines)):
        for i, clue in enumerate(clues):
            problem = clue_problem(clue, length, ncol)
            if problem is not None:
                raise ParseError(path, where[i], f"{kind} {i + 1}: {problem}")
    for k in range(ncol):
        in_rows = sum(clue[k].count for clue in rows)
        in_cols = sum(clue[k].count for clue in cols)
        if in_rows != in_cols:
            raise ParseError(path, totals_line, f"colour {k + 1} ({palette[k].name}): the rows hold {in_rows} "
                                                f"cells of it but the columns {in_cols}")
    goal = meta.goal
    if goal is not None and (goal.width != len(cols) or goal.height != len(rows)):
        raise ParseError(path, totals_line,
                         f"the goal is {goal.width}x{goal.height} but the puzzle is {len(cols)}x{len(rows)}")
    try:
        return Puzzle(tuple(rows), tuple(cols), palette, meta, COUNTS).validate()
    except InvalidPuzzleError as e:  # the checks above should have caught it: say so rather than crash
        raise ParseError(path, None, str(e)) from None


def _goal(rows: Sequence[Any], palette: Palette, path: str, lines: Sequence[int | None]) -> Grid:
    index = {c.symbol: i for i, c in enumerate(palette.colors)}
    cells = []
    for r, text in enumerate(rows):
        if not isinstance(text, str):
            raise ParseError(path, lines[r], f"goal row {r + 1} must be a string of colour letters")
        try:
            cells.append(tuple(index[ch] for ch in text.strip()))
        except KeyError as e:
            raise ParseError(path, lines[r], f"goal row {r + 1}: {e.args[0]!r} is not a colour letter "
                                             f"({SYMBOLS[:len(palette)]})") from None
    if len({len(row) for row in cells}) > 1:
        raise ParseError(path, lines[0], "goal rows differ in length")
    return Grid(tuple(cells))


# ------------------------------------------------------------------------------------------- JSON


def looks_like_counts(data: Any) -> bool:
    """Is this parsed JSON a count-clue puzzle (or a list of them)? Its lines hold {"count": ...} objects."""
    first = data[0] if isinstance(data, list) and data else data
    if not isinstance(first, dict):
        return False
    rows = first.get("rows")
    return (isinstance(rows, list) and bool(rows) and isinstance(rows[0], list) and bool(rows[0])
            and isinstance(rows[0][0], dict) and "count" in rows[0][0])


def read_counts_json(data: Any, text: str, path: str) -> list[Puzzle]:
    """Every count puzzle in parsed JSON `data` (an object or a list of them); `text` is what it was parsed
    from, for the file lines of errors."""
    where = _json_lines(text)
    if isinstance(data, list):
        return [_json_puzzle(item, path, (i,), where) for i, item in enumerate(data)]
    return [_json_puzzle(data, path, (), where)]


_ENTRY_KEYS = {"count", "allInARow"}


def _json_puzzle(obj: Any, path: str, at: tuple, where: dict[tuple, int]) -> Puzzle:
    def line(*keys: Any) -> int | None:
        for k in range(len(keys), -1, -1):  # the deepest located value on the way there
            found = where.get(at + keys[:k])
            if found is not None:
                return found
        return None

    if not isinstance(obj, dict):
        raise ParseError(path, line(), "a puzzle must be a JSON object")
    colours = obj.get("colors", obj.get("colours"))
    if not isinstance(colours, list):
        raise ParseError(path, line("colors"), "'colors' must be the list of the puzzle's colours")
    key = "colors" if "colors" in obj else "colours"
    palette = make_count_palette(colours, path, [line(key, i) for i in range(len(colours))])
    clues: dict[str, list[CountClue]] = {}
    lines: dict[str, list[int | None]] = {}
    for name in ("rows", "columns"):
        data = obj.get(name, obj.get("cols") if name == "columns" else None)
        src = name if name in obj else "cols"
        if not isinstance(data, list):
            raise ParseError(path, line(), f"{name!r} must be a list of lines of counts")
        if len(data) > MAX_SIDE:
            raise ParseError(path, line(src), f"{name!r}: over {MAX_SIDE} lines are refused")
        out, at_lines = [], []
        for i, entries in enumerate(data):
            here = line(src, i)
            what = f"{name[:-1] if name == 'rows' else 'column'} {i + 1}"
            if not isinstance(entries, list):
                raise ParseError(path, here, f"{what}: a line must be a list of counts, one per colour")
            if len(entries) != len(palette):
                raise ParseError(path, here, f"{what}: {len(entries)} counts for {len(palette)} colours "
                                             "(one count per colour)")
            clue = []
            for k, e in enumerate(entries):
                spot = line(src, i, k)
                if not isinstance(e, dict) or "count" not in e:
                    raise ParseError(path, spot, f'{what}, colour {k + 1}: expected {{"count": N}}')
                unknown = sorted(set(e) - _ENTRY_KEYS)
                if unknown:
                    raise ParseError(path, spot, f"{what}, colour {k + 1}: unknown key {unknown[0]!r} "
                                                 '(a count is {"count": N, "allInARow": true|false})')
                n, flag = e["count"], e.get("allInARow", False)
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    raise ParseError(path, spot, f"{what}, colour {k + 1}: count {str(n)[:20]} is not a "
                                                 "non-negative integer")
                if n >= 2 and "allInARow" not in e:  # the game refuses it too: neither reading is safe to guess
                    raise ParseError(path, spot, f'{what}, colour {k + 1}: a count of {n} needs "allInARow": '
                                                 "true (all in a row) or false (not)")
                if not isinstance(flag, bool):
                    raise ParseError(path, spot, f"{what}, colour {k + 1}: allInARow must be true or false")
                if flag and n < 2:
                    raise ParseError(path, spot, f"{what}, colour {k + 1}: a count of {n} cannot be all in a row "
                                                 "(only counts of 2 or more take the flag)")
                clue.append(Count(n, flag))
            out.append(tuple(clue))
            at_lines.append(here)
        clues[name], lines[name] = out, at_lines
    meta_values = {}
    for key in (*META_KEYS, *GAME_KEYS):
        v = obj.get(key, "")
        if not isinstance(v, str):
            raise ParseError(path, line(key), f"{key!r} must be a string")
        field = GAME_KEYS.get(key, key)
        if v and not meta_values.get(field):  # our own key first, then the game's
            meta_values[field] = v
    goal = None
    if obj.get("goal") is not None:
        g = obj["goal"]
        if not isinstance(g, list) or not g:
            raise ParseError(path, line("goal"), "'goal' must be a list of rows of colour letters")
        goal = _goal(g, palette, path, [line("goal", r) for r in range(len(g))])
    meta = Meta(**meta_values, goal=goal)
    return build_count_puzzle(clues["rows"], clues["columns"], palette, meta, path, lines["rows"],
                              lines["columns"], line("columns") if "columns" in obj else line("cols"))


def _json_lines(text: str) -> dict[tuple, int]:
    """The file line where each value starts, by its path of keys and indexes (paths of up to four steps; a
    list of puzzles adds one). `text` is valid JSON (json.loads took it)."""
    newlines = [i for i, ch in enumerate(text) if ch == "\n"]
    out: dict[tuple, int] = {}
    pos = 0
    n = len(text)

    def skip() -> None:
        nonlocal pos
        while pos < n and text[pos] in " \t\r\n":
            pos += 1

    def string() -> str:
        nonlocal pos
        end = pos + 1
        while text[end] != '"':
            end += 2 if text[end] == "\\" else 1
        value = json.loads(text[pos:end + 1])
        pos = end + 1
        return value

    def value(at: tuple) -> None:
        nonlocal pos
        skip()
        if len(at) <= 4:
            out[at] = bisect.bisect_left(newlines, pos) + 1
        ch = text[pos]
        if ch in "{[":
            close = "}" if ch == "{" else "]"
            pos += 1
            skip()
            i = 0
            while text[pos] != close:
                if ch == "{":
                    key = string()
                    skip()
                    pos += 1  # the colon
                    value(at + (key,))
                else:
                    value(at + (i,))
                i += 1
                skip()
                if text[pos] == ",":
                    pos += 1
                    skip()
            pos += 1
        elif ch == '"':
            string()
        else:
            while pos < n and text[pos] not in ",]} \t\r\n":
                pos += 1

    value(())
    return out


def to_obj(puzzle: Puzzle) -> dict[str, Any]:
    m = puzzle.meta
    obj: dict[str, Any] = {}
    for key in META_KEYS:
        if getattr(m, key):
            obj[key] = getattr(m, key)
    obj["colors"] = [colour_spec(c) for c in puzzle.palette.colors]

    def entry(e: Count) -> dict[str, Any]:
        return {"count": e.count, "allInARow": e.together} if e.count >= 2 else {"count": e.count}

    obj["rows"] = [[entry(e) for e in clue] for clue in puzzle.rows]
    obj["columns"] = [[entry(e) for e in clue] for clue in puzzle.cols]
    if m.goal is not None:
        obj["goal"] = m.goal.to_strings(puzzle.palette)
    return obj


def dumps_counts_json(puzzle: Puzzle) -> str:
    """The JSON form: one line per clue line, the rest as usual."""
    obj = to_obj(puzzle)
    parts = []
    for key, value in obj.items():
        if key in ("rows", "columns", "goal"):
            inner = ",\n".join("    " + json.dumps(v, ensure_ascii=False) for v in value)
            parts.append(f"  {json.dumps(key)}: [\n{inner}\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def dumps_counts_json_many(puzzles: Sequence[Puzzle]) -> str:
    if len(puzzles) == 1:
        return dumps_counts_json(puzzles[0])
    return "[\n" + ",\n".join(dumps_counts_json(p).rstrip("\n") for p in puzzles) + "\n]\n"


# ------------------------------------------------------------------------------------------- text form


_SECTIONS = {"rows": "rows", "columns": "columns", "cols": "columns", "goal": "goal"}


def sniff_text(text: str) -> bool:
    """A `colors`/`colours` line and a `rows` line among the first meaningful lines."""
    seen_colours = seen_rows = False
    for raw in text.splitlines()[:200]:
        line = raw.strip().lower()
        if not line or line.startswith("#"):
            continue
        word = line.split()[0]
        if word in ("colors", "colours"):
            seen_colours = True
        elif word == "rows" and line == "rows":
            seen_rows = True
        elif word not in META_KEYS and not seen_rows:
            return False
        if seen_colours and seen_rows:
            return True
    return False


def read_counts_text(text: str, path: str = "<string>") -> list[Puzzle]:
    meta_values: dict[str, str] = {}
    colours_line: int | None = None
    palette: Palette | None = None
    section: str | None = None
    section_lines: dict[str, int] = {}
    found: dict[str, list[tuple[int, str]]] = {"rows": [], "columns": [], "goal": []}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        key = word.lower()
        if key in _SECTIONS and not rest.strip():
            section = _SECTIONS[key]
            if section in section_lines:
                first = section_lines[section]
                raise ParseError(path, number, f"a second {key!r} section (the first is at line {first})")
            section_lines[section] = number
            continue
        if key in ("colors", "colours"):
            if palette is not None:
                raise ParseError(path, number, f"a second colours line (the first is at line {colours_line})")
            specs = rest.replace(",", " ").split()
            palette = make_count_palette(specs, path, [number] * len(specs) or [number])
            colours_line = number
            section = None
            continue
        if key in META_KEYS and section is None:
            meta_values[key] = quoted_value(rest)
            continue
        if section is None:
            raise ParseError(path, number, f"{word[:30]!r}: expected title, colors, rows or columns")
        found[section].append((number, line))
    if palette is None:
        raise ParseError(path, 1, "no colors line (the puzzle's colours in order, e.g. `colors #fff44f black`)")
    for section in ("rows", "columns"):
        if section not in section_lines:
            raise ParseError(path, None, f"no {section!r} section")
        if not found[section]:
            raise ParseError(path, section_lines[section], f"the {section!r} section is empty")
        if len(found[section]) > MAX_SIDE:
            raise ParseError(path, section_lines[section], f"over {MAX_SIDE} {section} are refused")
    rows = [_text_clue(t, palette, path, n, f"row {i}") for i, (n, t) in enumerate(found["rows"], 1)]
    cols = [_text_clue(t, palette, path, n, f"column {i}") for i, (n, t) in enumerate(found["columns"], 1)]
    goal = None
    if found["goal"]:
        goal = _goal([t for _, t in found["goal"]], palette, path, [n for n, _ in found["goal"]])
    meta = Meta(**meta_values, goal=goal)
    return [build_count_puzzle(rows, cols, palette, meta, path, [n for n, _ in found["rows"]],
                               [n for n, _ in found["columns"]], section_lines["columns"])]


def _text_clue(text: str, palette: Palette, path: str, line: int, what: str) -> CountClue:
    tokens = text.replace(",", " ").split()
    if len(tokens) != len(palette):
        raise ParseError(path, line, f"{what}: {len(tokens)} counts for {len(palette)} colours (one count per colour)")
    out = []
    for k, token in enumerate(tokens):
        m = _TOKEN.fullmatch(token)
        if m is None:
            raise ParseError(path, line, f"{what}, colour {k + 1}: {token[:20]!r} is not a count (like 3, or 3* "
                                         "when all in a row)")
        n = to_int(m.group(1), path, line, f"{what}, colour {k + 1}: count")
        if m.group(2) and n < 2:
            raise ParseError(path, line, f"{what}, colour {k + 1}: a count of {n} cannot be all in a row "
                                         "(only counts of 2 or more take `*`)")
        out.append(Count(n, bool(m.group(2))))
    return tuple(out)


def dumps_counts_text(puzzle: Puzzle) -> str:
    m = puzzle.meta
    out = []
    for key in META_KEYS:
        value = " ".join(getattr(m, key).split())
        if value:
            out.append(f'{key} "{value}"')
    out.append("colors " + " ".join(colour_spec(c) for c in puzzle.palette.colors))
    out.append("rows")
    out.extend(clue_text(clue) for clue in puzzle.rows)
    out.append("columns")
    out.extend(clue_text(clue) for clue in puzzle.cols)
    if m.goal is not None:
        out.append("goal")
        out.extend(m.goal.to_strings(puzzle.palette))
    return "\n".join(out) + "\n"
