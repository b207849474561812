"""nonocp's own JSON puzzle format (schema version 1).

One puzzle is an object; a file may also hold a list of them (a bundle):

    {
      "format": "nonocp-puzzle", "version": 1,          (optional when reading)
      "title": "Dancer", "author": "...", "copyright": "...", "license": "...", "source": "...",
      "width": 5, "height": 10,
      "colors": [                                        palette order; index 0 is the background
        {"name": "white", "rgb": "#ffffff", "symbol": "0"},
        {"name": "black", "rgb": "#000000", "symbol": "1"}
      ],
      "rows":    [[[2, "1"]], [[2, "1"], [1, "1"]], ...],   per line a list of [length, symbol]
      "columns": [[[2, "1"], [1, "1"]], ...],
      "goal": ["01100", "01101", ...]                    optional: `height` strings in the symbol alphabet
    }

`colors` may be left out (black and white). In a clue, a bare number stands for [number, "1"] when the
palette has symbol "1" (so `[[3, 1], [2]]`-style hand-written files read too). `width`/`height` are
optional and checked when present.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from nonocp.core.errors import NonocpError, ParseError
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Block, Clue, Meta, Puzzle
from nonocp.core.text import json_safe
from nonocp.formats._common import (
    MAX_COLORS,
    MAX_SIDE,
    build_puzzle,
    check_size,
    make_color,
    make_palette,
    normalise_rgb,
)
from nonocp.formats.counts import dumps_counts_json, dumps_counts_json_many, looks_like_counts, read_counts_json

SCHEMA = "nonocp-puzzle"
VERSION = 1
_MAX_INT = 10**6


def sniff(text: str) -> bool:
    return text.lstrip()[:1] in ("{", "[")


def read_json(text: str, path: str = "<string>") -> list[Puzzle]:
    try:
        data = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise ParseError(path, e.lineno, f"malformed JSON: {e.msg}", column=e.colno) from None
    except ValueError as e:
        raise ParseError(path, None, f"malformed JSON: {e}") from None
    if looks_like_counts(data):  # count-and-contiguity clues (formats/counts.py)
        return read_counts_json(data, text, path)
    items = data if isinstance(data, list) else [data]
    if not items:
        raise ParseError(path, 1, "an empty list holds no puzzle")
    return [_read_one(item, path, k) for k, item in enumerate(items, 1)]


def _bounded_int(s: str) -> int:
    if len(s.lstrip("-")) > 7:
        raise ValueError(f"number {s[:20]} is too large")
    return int(s)


def _no_constant(s: str) -> Any:
    raise ValueError(f"{s} is not allowed")


def _read_one(obj: Any, path: str, k: int) -> Puzzle:
    where = f"puzzle {k}: " if k > 1 else ""

    def fail(msg: str) -> ParseError:
        return ParseError(path, None, where + msg)

    if not isinstance(obj, dict):
        raise fail("a puzzle must be a JSON object")

    def string(key: str) -> str:
        v = obj.get(key, "")
        if not isinstance(v, str):
            raise fail(f"{key!r} must be a string")
        return v

    colors_data = obj.get("colors")
    if colors_data is None:
        palette = Palette.black_and_white()
    else:
        if not isinstance(colors_data, list) or not 2 <= len(colors_data) <= MAX_COLORS:
            raise fail(f"'colors' must be a list of 2 to {MAX_COLORS} colours")
        colors = []
        for i, c in enumerate(colors_data):
            if not isinstance(c, dict):
                raise fail(f"colour {i} must be an object")
            name, rgb, symbol = c.get("name", ""), c.get("rgb", ""), c.get("symbol", "")
            if not all(isinstance(v, str) for v in (name, rgb, symbol)):
                raise fail(f"colour {i}: name, rgb and symbol must be strings")
            value = normalise_rgb(rgb)
            if value is None:
                raise fail(f"colour {i}: {rgb[:20]!r} is not #rrggbb")
            colors.append(make_color(name or symbol, value, symbol, path, None))
        palette = make_palette(colors, path, None)
    index = {c.symbol: i for i, c in enumerate(palette.colors)}

    def clues(key: str) -> list[Clue]:
        lines = obj.get(key)
        if not isinstance(lines, list):
            raise fail(f"{key!r} must be a list of clues")
        if len(lines) > MAX_SIDE:
            raise fail(f"{key!r}: over {MAX_SIDE} lines are refused")
        out = []
        for i, line in enumerate(lines, 1):
            if not isinstance(line, list):
                raise fail(f"{key} {i}: a clue must be a list of [length, symbol]")
            blocks = []
            for b in line:
                if isinstance(b, list) and len(b) == 1:
                    b = b[0]
                if isinstance(b, bool):
                    raise fail(f"{key} {i}: {b!r} is not a block")
                if isinstance(b, int):
                    length, sym = b, "1"
                elif isinstance(b, list) and len(b) == 2 and isinstance(b[0], int) and not isinstance(b[0], bool):
                    length, sym = b[0], b[1]
                    if isinstance(sym, int) and not isinstance(sym, bool):
                        sym = str(sym)
                else:
                    raise fail(f"{key} {i}: {str(b)[:40]} is not [length, symbol]")
                if length < 0:
                    raise fail(f"{key} {i}: block length {length} is negative")
                if not isinstance(sym, str) or sym not in index or index[sym] == 0:
                    raise fail(f"{key} {i}: colour {str(sym)[:20]!r} is not a block colour of the palette")
                if length:
                    blocks.append(Block(length, index[sym]))
            out.append(tuple(blocks))
        return out

    rows = clues("rows")
    cols = clues("columns") if "columns" in obj else clues("cols")
    for key, expect in (("width", len(cols)), ("height", len(rows))):
        v = obj.get(key)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v != expect):
            raise fail(f"{key!r} is {str(v)[:20]} but there are {expect} clues")
    check_size(len(cols), len(rows), path, None)

    goal = None
    g = obj.get("goal")
    if g is not None:
        if not isinstance(g, list) or len(g) != len(rows) or not all(isinstance(r, str) for r in g):
            raise fail(f"'goal' must be a list of {len(rows)} strings")
        cells = []
        for r, s in enumerate(g, 1):
            if len(s) != len(cols):
                raise fail(f"goal row {r} has {len(s)} cells; the puzzle has {len(cols)} columns")
            try:
                cells.append(tuple(index[ch] for ch in s))
            except KeyError as e:
                raise fail(f"goal row {r}: {e.args[0]!r} is not a palette symbol") from None
        goal = Grid(tuple(cells))

    meta = Meta(string("title"), string("author"), string("copyright"), string("license"), string("source"), goal)
    try:
        return build_puzzle(rows, cols, palette, meta, path, None)
    except ParseError as e:
        raise fail(e.message) from None


def to_obj(puzzle: Puzzle) -> dict[str, Any]:
    sym = [c.symbol for c in puzzle.palette.colors]
    m = puzzle.meta
    obj: dict[str, Any] = {"format": SCHEMA, "version": VERSION}
    for key in ("title", "author", "copyright", "license", "source"):
        value = getattr(m, key)
        if value:
            obj[key] = value
    obj["width"] = puzzle.width
    obj["height"] = puzzle.height
    obj["colors"] = [{"name": c.name, "rgb": c.rgb, "symbol": c.symbol} for c in puzzle.palette.colors]
    obj["rows"] = [[[b.length, sym[b.color]] for b in clue] for clue in puzzle.rows]
    obj["columns"] = [[[b.length, sym[b.color]] for b in clue] for clue in puzzle.cols]
    if m.goal is not None:
        obj["goal"] = m.goal.to_strings(puzzle.palette)
    return obj


def dumps_json(puzzle: Puzzle) -> str:
    if puzzle.has_counts:
        return dumps_counts_json(puzzle)
    return _compact(to_obj(puzzle))


def dumps_json_many(puzzles: Sequence[Puzzle]) -> str:
    kinds = {p.clue_kind for p in puzzles}
    if len(kinds) > 1:
        raise NonocpError("a JSON file holds puzzles of one clue kind; these mix run and count clues")
    if puzzles and puzzles[0].has_counts:
        return dumps_counts_json_many(puzzles)
    if len(puzzles) == 1:
        return dumps_json(puzzles[0])
    return "[\n" + ",\n".join(_compact(to_obj(p)).rstrip("\n") for p in puzzles) + "\n]\n"


def _compact(obj: dict[str, Any]) -> str:
    """Pretty JSON with each clue, colour and goal row on one line."""
    lines = ["{"]
    items = list(obj.items())
    for k, (key, value) in enumerate(items):
        comma = "," if k < len(items) - 1 else ""
        if isinstance(value, list):
            inner = [json_safe(json.dumps(v, ensure_ascii=False)) for v in value]
            if inner:
                lines.append(f"  {json.dumps(key)}: [")
                lines.extend(f"    {s}," for s in inner[:-1])
                lines.append(f"    {inner[-1]}")
                lines.append(f"  ]{comma}")
            else:
                lines.append(f"  {json.dumps(key)}: []{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json_safe(json.dumps(value, ensure_ascii=False))}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
