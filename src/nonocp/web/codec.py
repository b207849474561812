"""Puzzles in and out of the API: the wire format is nonocp's JSON puzzle object (nonocp.formats.json_format,
the same schema `nonocp convert --to json` writes), and uploads are files in any readable format.

A count-clue puzzle travels in its own JSON form (formats/counts.py: `colors` as written, per line and colour
`{"count": N, "allInARow": bool}`, as `convert --to json` writes it), with `"clue_kind": "counts"`, its size,
and `palette` (each colour's name, #rrggbb and symbol, as a run-clue object's `colors`) added for drawing;
read back, those additions are ignored and the clues and `colors` decide. The page sends `colors` as it draws
them, objects like the palette's: each is read as its name when that is the CSS name of its #rrggbb, else as
the #rrggbb (count_colours).

Every problem becomes an ApiError with an HTTP status and a one-line message: 400 for input that cannot be
read or is not a puzzle (a clue that cannot fit its line), 413 for a body over the size limit, 422 for a
puzzle this server will not take (over its grid or colour limits).
"""

from __future__ import annotations

import json
import re
from typing import Any

from nonocp.core.counts import CountClue
from nonocp.core.errors import InvalidPuzzleError, NonocpError, ParseError
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Block, Clue, Puzzle, min_length
from nonocp.web.config import Limits


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = " ".join(str(message).split())  # one line, whatever it held


# --- JSON bodies ----------------------------------------------------------------------------------


def parse_json(data: bytes) -> dict[str, Any]:
    """The request's JSON object, or ApiError(400)."""
    try:
        obj = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ApiError(400, "the request body is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise ApiError(400, f"malformed JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    except (ValueError, RecursionError) as e:
        raise ApiError(400, f"malformed JSON: {e if isinstance(e, ValueError) else 'nested too deeply'}") from None
    if not isinstance(obj, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return obj


def _no_constant(s: str) -> Any:
    raise ValueError(f"{s} is not allowed")


def number(body: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    """body[key] as a number in [low, high] (default when absent), or ApiError(400)."""
    v = body.get(key)
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, int | float) or not low <= v <= high:
        raise ApiError(400, f"{key!r} must be a number from {low:g} to {high:g}")
    return v


def text_field(body: dict[str, Any], key: str, max_len: int = 200) -> str | None:
    v = body.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or len(v) > max_len:
        raise ApiError(400, f"{key!r} must be a string of at most {max_len} characters")
    return v


# --- puzzles --------------------------------------------------------------------------------------


def to_json(puzzle: Puzzle) -> dict[str, Any]:
    if puzzle.has_counts:
        from nonocp.formats.counts import to_obj as count_obj

        palette = [{"name": c.name, "rgb": c.rgb, "symbol": c.symbol} for c in puzzle.palette.colors]
        return {"clue_kind": "counts", "width": puzzle.width, "height": puzzle.height, "palette": palette,
                **count_obj(puzzle)}
    from nonocp.formats.json_format import to_obj

    return to_obj(puzzle)


def is_counts(obj: dict[str, Any]) -> bool:
    """A count-clue puzzle object: it says so, or its lines hold {"count": ...} entries."""
    if obj.get("clue_kind") == "counts":
        return True
    from nonocp.formats.counts import looks_like_counts

    return looks_like_counts(obj)


def count_colours(obj: dict[str, Any]) -> dict[str, Any]:
    """The count object with its `colors` as the count form writes them: a colour sent as an object
    ({name, rgb, symbol}, as the page draws it) becomes its name when that is the CSS name of its rgb (the
    file keeps "orange"), else its rgb; anything else is left for the reader to judge."""
    colours = obj.get("colors")
    if not isinstance(colours, list) or not any(isinstance(c, dict) for c in colours):
        return obj
    from nonocp.formats.counts import css_rgb

    def spec(c: Any) -> Any:
        if not isinstance(c, dict):
            return c
        name, rgb = c.get("name"), c.get("rgb")
        if isinstance(name, str) and name and not name.startswith("#") and isinstance(rgb, str) \
                and css_rgb(name.strip()) == rgb.strip().lower():
            return name.strip()
        return rgb

    return dict(obj, colors=[spec(c) for c in colours])


def check_limits(width: int, height: int, ncolors: int, limits: Limits) -> None:
    if width > limits.max_side or height > limits.max_side:
        raise ApiError(422, f"the grid is {width}x{height}; this server takes at most {limits.max_side} per side")
    if width * height > limits.max_cells:
        raise ApiError(422, f"the grid is {width}x{height}; this server takes at most {limits.max_cells} cells")
    if ncolors > limits.max_colors:
        raise ApiError(422, f"{ncolors} colours; this server takes at most {limits.max_colors}")


def from_json(obj: Any, limits: Limits) -> Puzzle:
    """A Puzzle from a JSON puzzle object (sizes checked before anything is built)."""
    if not isinstance(obj, dict):
        raise ApiError(400, "'puzzle' must be a JSON puzzle object (see docs/web.md, \"The JSON API\")")
    if is_counts(obj):
        obj = count_colours(obj)
    rows, cols = obj.get("rows"), obj.get("columns", obj.get("cols"))
    colors = obj.get("colors") or [0, 0]
    if isinstance(rows, list) and isinstance(cols, list) and isinstance(colors, list):
        check_limits(len(cols), len(rows), len(colors), limits)
    from nonocp.formats import loads

    puzzles = _read(lambda: loads(json.dumps(obj), "json", "puzzle"))
    return _valid(puzzles[0], limits)


def from_bytes(data: bytes, name: str | None, fmt: str | None, limits: Limits) -> tuple[str, list[Puzzle]]:
    """(format, puzzles) of an uploaded file: `fmt` if given, else the name's extension, else the content
    (text formats by sniffing, binary ones by their magic bytes), as `nonocp` reads files."""
    from nonocp.formats import FORMATS, detect, format_for_extension, loads
    from nonocp.formats._common import decode

    label = name or "upload"
    if fmt is not None and fmt.lower() not in FORMATS:
        raise ApiError(400, f"unknown format {fmt!r} (known: {', '.join(sorted(FORMATS))})")
    chosen = fmt.lower() if fmt else (format_for_extension(name) if name else None)
    if chosen is not None and not FORMATS[chosen].readable:
        raise ApiError(400, f"format {chosen!r} can be written but not read")
    if chosen is None:
        for f in FORMATS.values():
            if f.binary_reader is not None and f.sniff_bytes is not None and f.sniff_bytes(data):
                chosen = f.name
                break
    f = FORMATS.get(chosen) if chosen else None
    if f is not None and f.binary_reader is not None:
        reader = f.binary_reader
        puzzles = _read(lambda: reader(data, label))
    else:
        text = _read(lambda: decode(data, label))
        if not text.strip():
            raise ApiError(400, f"{label}: empty; paste or upload a puzzle")
        chosen = _read(lambda: detect(label, text, chosen))
        puzzles = _read(lambda: loads(text, chosen, label))
    if not puzzles:
        raise ApiError(400, f"{label}: no puzzle in the file")
    return chosen, [_valid(p, limits) for p in puzzles]


def _read(call):
    try:
        return call()
    except ParseError as e:
        where = f"line {e.line}: " if e.line is not None else ""
        # the readers speak to the command line; here the format is chosen in the request, not by --from
        message = e.message.replace("(give it with --from)", "(choose the format)")
        raise ApiError(400, f"{where}{message}") from None
    except NonocpError as e:
        raise ApiError(400, str(e)) from None
    except RecursionError:
        raise ApiError(400, "the input is nested too deeply") from None
    except MemoryError:
        raise ApiError(413, "the input is too large") from None


def _valid(puzzle: Puzzle, limits: Limits) -> Puzzle:
    check_limits(puzzle.width, puzzle.height, len(puzzle.palette), limits)
    try:
        return puzzle.validate()
    except InvalidPuzzleError as e:
        raise ApiError(400, str(e)) from None


def grid_from_rows(rows: Any, puzzle: Puzzle) -> Grid:
    """A solution or drawing sent as rows of palette symbols (the JSON format's `goal`)."""
    if not isinstance(rows, list) or len(rows) != puzzle.height or not all(isinstance(r, str) for r in rows):
        raise ApiError(400, f"'grid' must be a list of {puzzle.height} strings of palette symbols")
    if any(len(r) != puzzle.width for r in rows):
        raise ApiError(400, f"every row of 'grid' must have {puzzle.width} symbols")
    try:
        return Grid.from_strings(rows, puzzle.palette)
    except InvalidPuzzleError as e:
        raise ApiError(400, f"'grid': {e}") from None


# --- clue lines as people type them (the Edit mode) -----------------------------------------------

_TOKEN = re.compile(r"^(\d{1,6})(?::?(\S))?$")


def parse_clue(text: str, palette: Palette) -> Clue:
    """`3 1 2` (black and white), `3a 2b` or `3:a` (colours: the length, then the colour's symbol);
    `0` or nothing is an empty line. ValueError with the reason otherwise."""
    index = {c.symbol: i for i, c in enumerate(palette.colors)}
    only = len(palette) == 2
    blocks: list[Block] = []
    for token in text.replace(",", " ").split():
        m = _TOKEN.match(token)
        if not m:
            how = "a number" if only else "a number and a colour symbol, e.g. 3a"
            raise ValueError(f"{token[:20]!r} is not a block ({how})")
        length, symbol = int(m.group(1)), m.group(2)
        if symbol is None:
            if not only:
                raise ValueError(f"{token!r}: give the colour after the number (e.g. {length}{palette[1].symbol})")
            color = 1
        else:
            color = index.get(symbol, -1)
            if color < 1:
                raise ValueError(f"{token!r}: {symbol!r} is not a block colour of this puzzle")
        if length:
            blocks.append(Block(length, color))
    return tuple(blocks)


def line_problems(obj: Any, limits: Limits) -> tuple[list[dict[str, Any]], Puzzle | None]:
    """For the Edit mode: every line whose clue is wrong, with the reason, and the puzzle when none is.

    `obj` is a JSON puzzle object whose clue lines may also be strings as people type them (parse_clue; for
    count clues parse_count_clue). Each problem is {"kind": "row"|"column", "index": 1-based, "message"}; a
    count puzzle whose lines are right but whose rows and columns hold different totals of a colour has a
    problem of kind "colour" (index: the colour's, 1-based), since such clues are not a count puzzle."""
    if not isinstance(obj, dict) or not isinstance(obj.get("rows"), list) or not isinstance(
        obj.get("columns", obj.get("cols")), list
    ):
        raise ApiError(400, "'puzzle' must be a JSON puzzle object with 'rows' and 'columns'")
    if is_counts(obj):
        return count_line_problems(obj, limits)
    rows, cols = obj["rows"], obj.get("columns", obj.get("cols"))
    colors = obj.get("colors")
    check_limits(len(cols), len(rows), len(colors) if isinstance(colors, list) else 2, limits)
    from nonocp.formats import loads

    shell = dict(obj, rows=[[] for _ in rows], columns=[[] for _ in cols])
    shell.pop("cols", None)
    shell.pop("goal", None)
    palette = _read(lambda: loads(json.dumps(shell), "json", "puzzle"))[0].palette
    symbols = [c.symbol for c in palette.colors]
    problems: list[dict[str, Any]] = []
    clean: dict[str, list[list[list[Any]]]] = {"rows": [], "columns": []}
    for kind, key, lines, length in (("row", "rows", rows, len(cols)), ("column", "columns", cols, len(rows))):
        for i, line in enumerate(lines, 1):
            try:
                clue = _clue_of(line, palette)
                need = min_length(clue)
                if need > length:
                    raise ValueError(f"the clue needs {need} cells but the line has {length}")
            except ValueError as e:
                problems.append({"kind": kind, "index": i, "message": f"{kind} {i}: {e}"})
                clue = ()
            clean[key].append([[b.length, symbols[b.color]] for b in clue])
    if problems:
        return problems, None
    fixed = dict(obj, rows=clean["rows"], columns=clean["columns"])
    fixed.pop("cols", None)
    return [], from_json(fixed, limits)


def _clue_of(line: Any, palette: Palette) -> Clue:
    if isinstance(line, str):
        return parse_clue(line, palette)
    if not isinstance(line, list):
        raise ValueError("a clue must be a list of [length, symbol] or a string such as '3 1'")
    text = []
    for b in line:
        if isinstance(b, list) and len(b) == 2 and isinstance(b[0], int) and not isinstance(b[0], bool):
            text.append(f"{b[0]}:{b[1]}" if isinstance(b[1], str) else str(b[0]))
        elif isinstance(b, int) and not isinstance(b, bool):
            text.append(str(b))
        else:
            raise ValueError(f"{str(b)[:40]} is not [length, symbol]")
    return parse_clue(" ".join(text), palette)


# --- count clues as the Edit mode sends them ------------------------------------------------------

_COUNT_TOKEN = re.compile(r"^(\d{1,6})([*\u2022]?)$")


def parse_count_clue(line: Any, ncolors: int) -> CountClue:
    """One line of count clues: a list of {"count": N, "allInARow": bool} (one per colour, the flag only for
    counts of 2 or more), or text as the `.counts` form writes it (`5 3* 2 0`; `*` or `•` after a count that
    is all in a row). ValueError with the reason otherwise (the reasons of formats/counts.py)."""
    from nonocp.core.counts import Count

    out: list[Count] = []
    if isinstance(line, str):
        tokens = line.replace(",", " ").split()
        if len(tokens) != ncolors:
            raise ValueError(f"{len(tokens)} counts for {ncolors} colours (one count per colour)")
        for k, token in enumerate(tokens, 1):
            m = _COUNT_TOKEN.match(token)
            if not m:
                raise ValueError(f"colour {k}: {token[:20]!r} is not a count (like 3, or 3* when all in a row)")
            out.append(Count(int(m.group(1)), bool(m.group(2))))
        return tuple(out)
    if not isinstance(line, list):
        raise ValueError('a line must be a list of {"count": N, "allInARow": true|false}, one per colour')
    if len(line) != ncolors:
        raise ValueError(f"{len(line)} counts for {ncolors} colours (one count per colour)")
    for k, entry in enumerate(line, 1):
        if not isinstance(entry, dict) or set(entry) - {"count", "allInARow"}:
            raise ValueError(f'colour {k}: expected {{"count": N, "allInARow": true|false}}')
        n, flag = entry.get("count"), entry.get("allInARow", False)
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < 10**6:
            raise ValueError(f"colour {k}: count {str(n)[:20]} is not a whole number of cells")
        if not isinstance(flag, bool):
            raise ValueError(f"colour {k}: allInARow must be true or false")
        if n >= 2 and "allInARow" not in entry:
            raise ValueError(f"colour {k}: a count of {n} needs allInARow (true: all in a row, or false)")
        out.append(Count(n, flag))
    return tuple(out)


def count_line_problems(obj: dict[str, Any], limits: Limits) -> tuple[list[dict[str, Any]], Puzzle | None]:
    """line_problems for a count puzzle: each line read by parse_count_clue and judged against its length
    (core/counts.clue_problem), then the colour totals of the rows against the columns."""
    from nonocp.core.counts import clue_problem
    from nonocp.formats.counts import make_count_palette

    rows, cols = obj["rows"], obj.get("columns", obj.get("cols"))
    obj = count_colours(obj)
    colours = obj.get("colors")
    if not isinstance(colours, list):
        raise ApiError(400, "'colors' must be the list of the puzzle's colours")
    check_limits(len(cols), len(rows), len(colours), limits)
    palette = _read(lambda: make_count_palette(colours, "puzzle", [None] * len(colours)))
    ncol = len(palette)
    problems: list[dict[str, Any]] = []
    clean: dict[str, list[CountClue]] = {"rows": [], "columns": []}
    for kind, key, lines, length in (("row", "rows", rows, len(cols)), ("column", "columns", cols, len(rows))):
        for i, line in enumerate(lines, 1):
            try:
                clue = parse_count_clue(line, ncol)
                problem = clue_problem(clue, length, ncol)
                if problem is not None:
                    raise ValueError(problem)
            except ValueError as e:
                problems.append({"kind": kind, "index": i, "message": f"{kind} {i}: {e}"})
                continue
            clean[key].append(clue)
    if problems:
        return problems, None
    for k, colour in enumerate(palette.colors):
        in_rows = sum(clue[k].count for clue in clean["rows"])
        in_cols = sum(clue[k].count for clue in clean["columns"])
        if in_rows != in_cols:
            problems.append({"kind": "colour", "index": k + 1,
                             "message": f"colour {k + 1} ({colour.name}): the rows hold {in_rows} cells of it but "
                                        f"the columns {in_cols}; change a row or a column to match"})
    if problems:
        return problems, None

    def entries(clue: CountClue) -> list[dict[str, Any]]:
        return [{"count": e.count, "allInARow": e.together} if e.count >= 2 else {"count": e.count} for e in clue]

    fixed = dict(obj, rows=[entries(c) for c in clean["rows"]], columns=[entries(c) for c in clean["columns"]])
    fixed.pop("cols", None)
    return [], from_json(fixed, limits)
