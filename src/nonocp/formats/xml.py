"""webpbn XML (the pbn DTD, as exported by webpbn.com and written by pbnsolve and number-loom).

Reading: every `<puzzle type="grid">` of a `<puzzleset>`; colours from `<color name char>rrggbb`;
`backgroundcolor` (default "white") is palette index 0; a `<count>` without a colour attribute has the
puzzle's `defaultcolor` (default "black"); a `<solution>` of type `goal`/`solution` (or untyped) whose
`<image>` is fully determined becomes `meta.goal` (`saved` partial solutions are ignored). Triddlers
and other non-rectangular types are refused. Parsing goes through defusedxml: a `<!DOCTYPE>` that only
names an external DTD (webpbn's own export has one) is accepted and not fetched; entity declarations
and external entity references are refused.

Writing: the same dialect, with `<note>license: ...</note>` carrying the licence (the DTD has no
licence element) and the goal as `<solution type="goal"><image>`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from xml.etree.ElementTree import Element
from xml.etree.ElementTree import ParseError as XmlSyntaxError

from nonocp.core.errors import ParseError
from nonocp.core.grid import Grid
from nonocp.core.palette import Color, Palette
from nonocp.core.puzzle import Block, Clue, Meta, Puzzle
from nonocp.core.text import one_line
from nonocp.formats._common import (
    MAX_CELLS,
    MAX_COLORS,
    build_puzzle,
    check_size,
    free_symbols,
    make_color,
    make_palette,
    normalise_rgb,
    to_int,
)

_LICENSE_NOTE = re.compile(r"^\s*licen[cs]e:\s*(.*)$", re.IGNORECASE | re.DOTALL)


def sniff(text: str) -> bool:
    head = text.lstrip()[:2000]
    return head.startswith("<") and ("<puzzleset" in head or "<puzzle" in head)


def _text(el: Element | None) -> str:
    if el is None:
        return ""
    return " ".join("".join(el.itertext()).split())


def _line_of(text: str, needle: str, start: int = 0) -> int | None:
    k = text.find(needle, start)
    return text.count("\n", 0, k) + 1 if k >= 0 else None


def read_xml(text: str, path: str = "<string>") -> list[Puzzle]:
    # defusedxml and xml.sax are imported here, not at the top: sniffing any .txt file imports this module,
    # and xml.sax.saxutils brings urllib, http and ssl (a visible part of `nonocp solve`'s start-up)
    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException

    try:
        root = SafeET.fromstring(text, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as e:
        raise ParseError(path, _line_of(text, "<!ENTITY") or _line_of(text, "<!DOCTYPE"),
                         f"XML entity declarations and external references are refused ({type(e).__name__})") from None
    except XmlSyntaxError as e:
        line, col = getattr(e, "position", (None, None))
        raise ParseError(path, line, f"malformed XML: {e}", column=col) from None
    except (ValueError, LookupError) as e:  # e.g. an unknown encoding in the XML declaration
        raise ParseError(path, 1, f"malformed XML: {e}") from None
    if root.tag == "puzzle":
        puzzle_elements = [root]
        set_source = ""
    elif root.tag == "puzzleset":
        puzzle_elements = root.findall("puzzle")
        set_source = _text(root.find("source"))
    else:
        raise ParseError(path, 1, f"root element <{root.tag[:40]}> is not <puzzleset> or <puzzle>")
    if not puzzle_elements:
        raise ParseError(path, 1, "no <puzzle> element")
    return [_read_puzzle(el, set_source, path, text, k) for k, el in enumerate(puzzle_elements)]


def _read_puzzle(el: Element, set_source: str, path: str, text: str, k: int) -> Puzzle:
    where = _nth_line(text, k)
    kind = el.get("type", "grid")
    if kind != "grid":
        raise ParseError(path, where, f"puzzle type {kind[:40]!r} is not supported (only rectangular grids)")
    bg_name = el.get("backgroundcolor", "white")
    default_name = el.get("defaultcolor", "black")

    declared: list[tuple[str, str, str]] = []  # (name, rgb, char)
    names: set[str] = set()
    color_elements = el.findall("color")
    if len(color_elements) > MAX_COLORS:
        raise ParseError(path, where, f"{len(color_elements)} colours; over {MAX_COLORS} are refused")
    for c in color_elements:
        name = c.get("name")
        if not name:
            raise ParseError(path, where, "a <color> has no name")
        if name in names:
            raise ParseError(path, where, f"colour {name!r} is declared twice")
        rgb = normalise_rgb(_text(c))
        if rgb is None:
            raise ParseError(path, where, f"colour {name!r}: {_text(c)[:20]!r} is not an RGB hex value")
        names.add(name)
        declared.append((name, rgb, c.get("char", "")))

    # Count which colour names the clues use (undeclared white/black get their obvious values).
    clue_sets: dict[str, list[list[tuple[int, str]]]] = {}
    for clues in el.findall("clues"):
        ctype = clues.get("type", "")
        if ctype not in ("rows", "columns"):
            raise ParseError(path, where, f"clues of type {ctype[:40]!r} (only rows and columns)")
        if ctype in clue_sets:
            raise ParseError(path, where, f"two <clues type={ctype!r}>")
        lines = []
        for line in clues.findall("line"):
            blocks = []
            for count in line.findall("count"):
                n = to_int(_text(count), path, where, "block length")
                blocks.append((n, count.get("color", default_name)))
            lines.append(blocks)
            if len(lines) > 10_000:
                raise ParseError(path, where, "too many clue lines")
        clue_sets[ctype] = lines
    if "rows" not in clue_sets or "columns" not in clue_sets:
        raise ParseError(path, where, "the puzzle needs <clues type=\"rows\"> and <clues type=\"columns\">")
    check_size(len(clue_sets["columns"]), len(clue_sets["rows"]), path, where)

    used = {name for lines in clue_sets.values() for blocks in lines for _, name in blocks}
    for name, rgb in (("white", "#ffffff"), ("black", "#000000")):
        if name not in names and (name in used or name == bg_name):
            declared.append((name, rgb, "." if name == "white" else "X"))
            names.add(name)
    if bg_name not in names:
        raise ParseError(path, where, f"background colour {bg_name!r} is not declared")
    for name in sorted(used - names):
        raise ParseError(path, where, f"colour {name!r} is used but not declared")

    palette, index_of_name, index_of_char = _palette(declared, bg_name, path, where)

    def convert(blocks: list[tuple[int, str]]) -> Clue:
        out = []
        for n, name in blocks:
            if n == 0:
                continue
            idx = index_of_name[name]
            if idx == 0:
                raise ParseError(path, where, f"a clue uses the background colour {name!r}")
            out.append(Block(n, idx))
        return tuple(out)

    rows = [convert(b) for b in clue_sets["rows"]]
    cols = [convert(b) for b in clue_sets["columns"]]

    goal = None
    for sol in el.findall("solution"):
        if sol.get("type", "goal") not in ("goal", "solution"):
            continue
        goal = _read_image(sol.find("image"), index_of_char, len(cols), len(rows), path, where)
        if goal is not None:
            break

    license_ = ""
    for note in el.findall("note"):
        m = _LICENSE_NOTE.match(_text(note))
        if m:
            license_ = m.group(1).strip()
    meta = Meta(
        title=_text(el.find("title")),
        author=_text(el.find("author")),
        copyright=_text(el.find("copyright")),
        license=license_,
        source=_text(el.find("source")) or set_source,
        goal=goal,
    )
    return build_puzzle(rows, cols, palette, meta, path, where)


_PUZZLE_TAG = re.compile(r"<puzzle[\s>/]")


def _nth_line(text: str, k: int) -> int | None:
    """The line of the k-th (0-based) <puzzle> tag, for error messages."""
    for i, m in enumerate(_PUZZLE_TAG.finditer(text)):
        if i == k:
            return text.count("\n", 0, m.start()) + 1
    return None


def _palette(
    declared: Sequence[tuple[str, str, str]], bg_name: str, path: str, where: int | None
) -> tuple[Palette, dict[str, int], dict[str, int]]:
    """Background first (symbol `0`); a two-colour puzzle uses symbols 0/1; otherwise each colour keeps
    its XML `char` when that is a usable, unused symbol, else gets a free one (free_symbols: letters
    first; the supply never runs out)."""
    bg = next(d for d in declared if d[0] == bg_name)
    others = [d for d in declared if d[0] != bg_name]
    colors: list[Color] = [make_color(bg[0], bg[1], "0", path, where)]
    if len(others) == 1:
        colors.append(make_color(others[0][0], others[0][1], "1", path, where))
    else:
        taken = {"0"}
        wanted = []
        for _, _, char in others:
            ok = _image_char(char) and char not in taken
            wanted.append(char if ok else "")
            if ok:
                taken.add(char)
        free = free_symbols(taken, _image_char)
        for (name, rgb, _), sym in zip(others, wanted, strict=True):
            colors.append(make_color(name, rgb, sym or next(free), path, where))
    palette = make_palette(colors, path, where)
    index_of_name = {bg[0]: 0}
    index_of_char: dict[str, int] = {}
    if bg[2]:
        index_of_char[bg[2]] = 0
    for k, (name, _, char) in enumerate(others, 1):
        index_of_name[name] = k
        if char and char not in index_of_char:
            index_of_char[char] = k
    return palette, index_of_name, index_of_char


def _read_image(
    image: Element | None, index_of_char: dict[str, int], width: int, height: int, path: str, where: int | None
) -> Grid | None:
    """The goal grid of an `<image>`: rows between `|` bars. None when a cell is undetermined (`[..]`)."""
    if image is None:
        return None
    rows = [ln.strip() for ln in "".join(image.itertext()).splitlines() if ln.strip()]
    if width * height > MAX_CELLS:
        return None
    if len(rows) != height:
        raise ParseError(path, where, f"the solution image has {len(rows)} rows; the puzzle has {height}")
    grid = []
    for r, line in enumerate(rows, 1):
        body = line[1:-1] if line.startswith("|") and line.endswith("|") and len(line) >= 2 else line
        if "[" in body:
            return None
        if len(body) != width:
            raise ParseError(path, where, f"solution row {r} has {len(body)} cells; the puzzle has {width} columns")
        try:
            grid.append(tuple(index_of_char[ch] for ch in body))
        except KeyError as e:
            raise ParseError(path, where, f"solution row {r}: {e.args[0]!r} is not a colour char") from None
    return Grid(tuple(grid))


def _image_char(ch: str) -> bool:
    """A character that can stand for a colour in a solution `<image>` (`|..X.|` rows; `[ab]` marks an
    undetermined cell): one visible character, not a bar or bracket."""
    return len(ch) == 1 and ch.isprintable() and not ch.isspace() and ch not in "[]|"


# --- writing ---------------------------------------------------------------------------------------


def _xml_names_and_chars(palette: Palette) -> tuple[list[str], list[str]]:
    """Unique colour names (free text as one printable line: XML 1.0 cannot hold control characters) and
    image chars (the palette's symbols where an `<image>` can carry them, else free ones)."""
    names: list[str] = []
    for c in palette.colors:
        name = one_line(c.name) or c.symbol
        base, k = name, 2
        while name in names:
            name, k = f"{base}{k}", k + 1
        names.append(name)
    if palette.is_black_and_white:
        return names, [".", "X"]
    chars = [c.symbol if _image_char(c.symbol) else "" for c in palette.colors]
    if "." not in chars[1:]:
        chars[0] = "."
    free = free_symbols(set(filter(None, chars)), _image_char)
    return names, [ch or next(free) for ch in chars]


def _puzzle_xml(puzzle: Puzzle) -> list[str]:
    from xml.sax.saxutils import escape, quoteattr

    names, chars = _xml_names_and_chars(puzzle.palette)
    default = 1
    m = puzzle.meta
    out = [f'<puzzle type="grid" backgroundcolor={quoteattr(names[0])} defaultcolor={quoteattr(names[default])}>']
    for tag, value in (("source", m.source), ("title", m.title), ("author", m.author), ("copyright", m.copyright)):
        if value:
            out.append(f"<{tag}>{escape(one_line(value))}</{tag}>")
    if m.license:
        out.append(f"<note>license: {escape(one_line(m.license))}</note>")
    out.append("")
    for k, c in enumerate(puzzle.palette.colors):
        out.append(f"<color name={quoteattr(names[k])} char={quoteattr(chars[k])}>{c.rgb[1:]}</color>")
    for kind, clues in (("columns", puzzle.cols), ("rows", puzzle.rows)):
        out.append("")
        out.append(f'<clues type="{kind}">')
        for clue in clues:
            counts = "".join(
                f"<count>{b.length}</count>" if b.color == default
                else f"<count color={quoteattr(names[b.color])}>{b.length}</count>"
                for b in clue
            )
            out.append(f"<line>{counts}</line>")
        out.append("</clues>")
    if m.goal is not None:
        out.append("")
        out.append('<solution type="goal">')
        out.append("<image>")
        out.extend("|" + "".join(escape(chars[v]) for v in row) + "|" for row in m.goal.cells)
        out.append("</image>")
        out.append("</solution>")
    out.append("</puzzle>")
    return out


def dumps_xml_many(puzzles: Sequence[Puzzle]) -> str:
    out = ['<?xml version="1.0"?>', '<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.3.dtd">', "<puzzleset>"]
    for p in puzzles:
        out.append("")
        out.extend(_puzzle_xml(p))
    out.append("</puzzleset>")
    return "\n".join(out) + "\n"


def dumps_xml(puzzle: Puzzle) -> str:
    return dumps_xml_many([puzzle])
