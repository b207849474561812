"""SVG picture: the (solved) grid with its clues. One `<rect class="cell">` per cell, carrying its
row and column, so the picture can be styled or checked by tools; marked cells (undecided: they differ
between solutions, or the time ran out) are covered with a checkered square, the way printed puzzles show
cells nobody can fill in yet."""

from __future__ import annotations

from html import escape

from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.text import one_line
from nonocp.render.clues import Marked
from nonocp.render.geometry import CHECK_DARK, CHECK_LIGHT, CHECKS, PAPER, font_size, picture


def _n(v: float) -> str:
    """Numbers without a trailing `.0`, to keep the file small and diffable."""
    return f"{v:g}"


def render_svg(
    puzzle: Puzzle, grid: Grid | None = None, marked: Marked | None = None, cell: int = 20
) -> str:
    """The picture as SVG text; `cell` is the side of a cell in pixels."""
    pic = picture(puzzle, grid, marked, cell)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{pic.width}" height="{pic.height}" '
        f'viewBox="0 0 {pic.width} {pic.height}" font-family="sans-serif">',
    ]
    if puzzle.title:
        out.append(f"<title>{escape(one_line(puzzle.title))}</title>")  # XML 1.0 has no control characters
    out.append(f'<rect width="{pic.width}" height="{pic.height}" fill="{PAPER}"/>')
    out.append('<g class="clues" text-anchor="middle" dominant-baseline="central">')
    for lab in pic.labels:
        if lab.fill:
            out.append(
                f'<rect x="{_n(lab.x + 1)}" y="{_n(lab.y + 1)}" width="{_n(lab.size - 2)}" '
                f'height="{_n(lab.size - 2)}" rx="2" fill="{lab.fill}"/>'
            )
        out.append(
            f'<text x="{_n(lab.x + lab.size / 2)}" y="{_n(lab.y + lab.size / 2)}" '
            f'font-size="{_n(font_size(lab.text, lab.size))}" fill="{lab.ink}">{escape(lab.text)}</text>'
        )
        if lab.bar:
            x1, y1, x2, y2 = lab.bar_line()
            out.append(f'<line class="all-in-a-row" x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                       f'stroke="{lab.ink}" stroke-width="{_n(max(1.0, lab.size / 12))}" stroke-linecap="round"/>')
    out.append("</g>")
    out.append('<g class="cells">')
    for c in pic.cells:
        out.append(
            f'<rect class="cell" data-row="{c.row}" data-col="{c.col}" x="{_n(c.x)}" y="{_n(c.y)}" '
            f'width="{cell}" height="{cell}" fill="{c.fill}"/>'
        )
    out.append("</g>")
    checkered = [c for c in pic.cells if c.marked]
    if checkered:
        # one tile of the pattern is a cell, starting at the grid's corner, so the checks line up with cells
        x0, y0, side = pic.cells[0].x, pic.cells[0].y, cell / CHECKS
        tile = [f'<rect width="{cell}" height="{cell}" fill="{CHECK_LIGHT}"/>']
        tile += [f'<rect x="{_n(i * side)}" y="{_n(j * side)}" width="{_n(side)}" height="{_n(side)}" '
                 f'fill="{CHECK_DARK}"/>' for i in range(CHECKS) for j in range(CHECKS) if (i + j) % 2]
        out.append(f'<defs><pattern id="undecided" patternUnits="userSpaceOnUse" x="{_n(x0)}" y="{_n(y0)}" '
                   f'width="{cell}" height="{cell}">{"".join(tile)}</pattern></defs>')
        out.append('<g class="marked" fill="url(#undecided)">')
        for c in checkered:
            out.append(f'<rect data-row="{c.row}" data-col="{c.col}" x="{_n(c.x)}" y="{_n(c.y)}" '
                       f'width="{cell}" height="{cell}"/>')
        out.append("</g>")
    out.append('<g class="rules" stroke-linecap="square">')
    for r in pic.rules:
        out.append(
            f'<line x1="{_n(r.x1)}" y1="{_n(r.y1)}" x2="{_n(r.x2)}" y2="{_n(r.y2)}" '
            f'stroke="{r.color}" stroke-width="{_n(r.width)}"/>'
        )
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
