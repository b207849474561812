"""Pictures of partial grids for `nonocp explain`: decided cells in their colour, undecided cells
showing the candidate colours they still have, and the cells the step changed outlined.

Reuses nonocp.render (clue tokens, the shared picture geometry); adds what it lacks: cells that are not
decided yet. Masks are `nonocp.core.grid.Domains` masks (bit k = palette index k), row-major.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape as html_escape
from xml.sax.saxutils import escape

from nonocp.core.puzzle import Puzzle
from nonocp.render.clues import contrast_color, line_tokens
from nonocp.render.geometry import PAPER, font_size, picture
from nonocp.render.text import cell_symbol

UNDECIDED = "?"  # black and white: a cell that may still be either
HIGHLIGHT = "#ff7f0e"  # outline of the cells the step changed
CAPTION_LINE = 16  # pixels per caption line in SVG pictures


def _is_single(m: int) -> bool:
    return m != 0 and not m & (m - 1)


def cell_text(puzzle: Puzzle, mask: int) -> str:
    """A cell in text: its symbol when decided (`#`/`.` in black and white), else its candidates.

    Black and white: `?` for undecided. Colour: the candidate symbols (`.` for background), e.g. `.ab`;
    `!` for a cell with no candidate left (only seen right at a contradiction)."""
    if mask == 0:
        return "!"
    if _is_single(mask):
        return cell_symbol(puzzle, mask.bit_length() - 1)
    if puzzle.palette.is_black_and_white:
        return UNDECIDED
    return "".join(cell_symbol(puzzle, k) for k in range(len(puzzle.palette)) if (mask >> k) & 1)


def render_partial_text(puzzle: Puzzle, masks: Sequence[int], changed: Collection[tuple[int, int]] = ()) -> str:
    """The clues around a partial grid, as plain text; a cell the step changed is followed by `*`."""
    W = puzzle.width
    changed_set = set(changed)
    cells = [[cell_text(puzzle, masks[r * W + c]) for c in range(W)] for r in range(puzzle.height)]
    row_tokens = [[t for t, _ in line_tokens(puzzle, c)] for c in puzzle.rows]
    col_tokens = [[t for t, _ in line_tokens(puzzle, c)] for c in puzzle.cols]
    longest_cell = max((len(t) for row in cells for t in row), default=1)
    cw = max(longest_cell, max(len(t) for toks in col_tokens for t in toks))
    margin = max(len(" ".join(t)) for t in row_tokens)
    depth = max(len(t) for t in col_tokens)
    out = []
    for k in range(depth):
        parts = []
        for toks in col_tokens:
            i = k - (depth - len(toks))
            parts.append((toks[i] if i >= 0 else "").rjust(cw))
        out.append(" " * (margin + 3) + " ".join(parts))
    out.append(" " * (margin + 1) + "+" + "-" * (W * (cw + 1)))
    for r, toks in enumerate(row_tokens):
        parts = []
        for c in range(W):
            mark = "*" if (r, c) in changed_set else " "
            parts.append(cells[r][c].rjust(cw) + mark)
        out.append(" ".join(toks).rjust(margin) + " |" + (" " + "".join(parts)).rstrip())
    return "\n".join(line.rstrip() for line in out) + "\n"


def _n(v: float) -> str:
    return f"{v:g}"


def render_partial_svg(
    puzzle: Puzzle,
    masks: Sequence[int],
    changed: Collection[tuple[int, int]] = (),
    caption: Sequence[str] = (),
    cell: int = 20,
) -> str:
    """An SVG of the partial grid: decided cells filled, undecided cells as small swatches of their
    candidate colours, changed cells outlined; `caption` lines above the picture."""
    pic = picture(puzzle, None, None, cell)
    palette = puzzle.palette
    W = puzzle.width
    top = CAPTION_LINE * len(caption) + (6 if caption else 0)
    width, height = max(pic.width, 320), pic.height + top
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="{PAPER}"/>',
    ]
    if caption:
        out.append('<g class="caption" font-size="12">')
        for i, line in enumerate(caption):
            out.append(f'<text x="6" y="{CAPTION_LINE * (i + 1)}">{escape(line)}</text>')
        out.append("</g>")
    out.append(f'<g transform="translate(0 {top})">')
    out.append('<g class="clues" text-anchor="middle" dominant-baseline="central">')
    for lab in pic.labels:
        if lab.fill:
            out.append(f'<rect x="{_n(lab.x + 1)}" y="{_n(lab.y + 1)}" width="{_n(lab.size - 2)}" '
                       f'height="{_n(lab.size - 2)}" rx="2" fill="{lab.fill}"/>')
        out.append(f'<text x="{_n(lab.x + lab.size / 2)}" y="{_n(lab.y + lab.size / 2)}" '
                   f'font-size="{_n(font_size(lab.text, lab.size))}" fill="{lab.ink}">{escape(lab.text)}</text>')
        if lab.bar:
            x1, y1, x2, y2 = lab.bar_line()
            out.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{lab.ink}"/>')
    out.append("</g>")
    out.append('<g class="cells">')
    ncol = len(palette)
    for c in pic.cells:
        m = masks[c.row * W + c.col]
        attrs = f'data-row="{c.row}" data-col="{c.col}"'
        if _is_single(m):
            fill = palette[m.bit_length() - 1].rgb
            out.append(f'<rect class="cell" {attrs} x="{_n(c.x)}" y="{_n(c.y)}" width="{cell}" height="{cell}" '
                       f'fill="{fill}"/>')
            continue
        ks = [k for k in range(ncol) if (m >> k) & 1]
        out.append(f'<rect class="cell undecided" {attrs} data-candidates="{len(ks)}" x="{_n(c.x)}" '
                   f'y="{_n(c.y)}" width="{cell}" height="{cell}" fill="{"#ff0000" if not ks else "#eeeeee"}"/>')
        if palette.is_black_and_white or not ks:
            continue  # grey says "either" well enough in black and white
        # one small swatch per candidate colour, side by side
        side = (cell - 4) / max(len(ks), 1)
        side = min(side, cell / 2)
        x0 = c.x + (cell - side * len(ks)) / 2
        for i, k in enumerate(ks):
            out.append(f'<rect x="{_n(x0 + i * side + 0.5)}" y="{_n(c.y + (cell - side) / 2)}" '
                       f'width="{_n(side - 1)}" height="{_n(side - 1)}" fill="{palette[k].rgb}" '
                       f'stroke="#808080" stroke-width="0.5"/>')
    out.append("</g>")
    out.append('<g class="rules" stroke-linecap="square">')
    for r in pic.rules:
        out.append(f'<line x1="{_n(r.x1)}" y1="{_n(r.y1)}" x2="{_n(r.x2)}" y2="{_n(r.y2)}" '
                   f'stroke="{r.color}" stroke-width="{_n(r.width)}"/>')
    out.append("</g>")
    if changed:
        out.append(f'<g class="changed" fill="none" stroke="{HIGHLIGHT}" stroke-width="2">')
        gx = pic.cells[0].x if pic.cells else 0
        gy = pic.cells[0].y if pic.cells else 0
        for r, c in sorted(changed):
            m = masks[r * W + c]
            stroke = HIGHLIGHT if not _is_single(m) else _visible_on(palette[m.bit_length() - 1].rgb)
            out.append(f'<rect data-row="{r}" data-col="{c}" x="{_n(gx + c * cell + 2)}" y="{_n(gy + r * cell + 2)}" '
                       f'width="{cell - 4}" height="{cell - 4}" stroke="{stroke}"/>')
        out.append("</g>")
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _visible_on(rgb: str) -> str:
    """The highlight colour, unless the cell is close to it (then its contrasting ink)."""
    if rgb.lower() == HIGHLIGHT:
        return contrast_color(rgb)
    return HIGHLIGHT


def index_html(title: str, entries: Sequence[tuple[str, str]], summary: str = "") -> str:
    """A page listing the step pictures in order: entries are (file name, caption)."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html_escape(title)}</title>",
        "<style>body{font-family:sans-serif;margin:1em}figure{margin:1em 0}"
        "figcaption{margin-bottom:.3em}img{border:1px solid #ccc}</style>",
        "</head><body>",
        f"<h1>{html_escape(title)}</h1>",
    ]
    if summary:
        out.append(f"<p>{html_escape(summary)}</p>")
    out.append("<ol>")
    for name, caption in entries:
        out.append(f'<li><figure><figcaption>{html_escape(caption)}</figcaption>'
                   f'<a href="{html_escape(name)}"><img src="{html_escape(name)}" alt="{html_escape(caption)}">'
                   f"</a></figure></li>")
    out.append("</ol></body></html>")
    return "\n".join(out) + "\n"
