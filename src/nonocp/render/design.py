"""Before/after pictures for the designer: the picture as drawn (cells that differ between its solutions
checkered, as every picture marks undecided cells) beside the picture as proposed (cells the proposal
repaints outlined), each with its clues and a caption. PNG and SVG draw the same thing, from the same
geometry as every other picture (render/geometry.py)."""

from __future__ import annotations

import io
from collections.abc import Collection
from dataclasses import dataclass
from xml.sax.saxutils import escape

from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.render.geometry import PAPER, picture

HIGHLIGHT = "#ff7f00"  # the outline of a repainted cell: visible on black, white and most colours
GAP = 24  # pixels between the two pictures
CAPTION = 28  # pixels above the pictures for their captions


@dataclass(frozen=True)
class Panel:
    """One side: the puzzle (its clues), the grid painted, cells marked (checkered), cells outlined, a caption."""

    puzzle: Puzzle
    grid: Grid
    caption: str
    marked: Collection[tuple[int, int]] = ()
    outlined: Collection[tuple[int, int]] = ()


def _outlines(panel: Panel, cell: int) -> list[tuple[float, float]]:
    pic = picture(panel.puzzle, panel.grid, None, cell)
    wanted = set(panel.outlined)
    return [(c.x, c.y) for c in pic.cells if (c.row, c.col) in wanted]


def panels_png(panels: list[Panel], cell: int = 16) -> bytes:
    """The panels side by side, as PNG bytes."""
    from PIL import Image, ImageDraw, ImageFont

    from nonocp.render.png import render_image

    images = [render_image(p.puzzle, p.grid, p.marked, cell) for p in panels]
    width = sum(im.width for im in images) + GAP * (len(images) - 1)
    height = max(im.height for im in images) + CAPTION
    out = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(out)
    try:
        font = ImageFont.load_default(size=14)
    except (TypeError, OSError):  # Pillow without FreeType: the fixed bitmap font
        font = ImageFont.load_default()
    x = 0
    for panel, im in zip(panels, images, strict=True):
        out.paste(im, (x, CAPTION))
        draw.text((x + 6, CAPTION // 2), panel.caption, fill="#000000", font=font, anchor="lm")
        stroke = max(2, cell // 6)
        for cx, cy in _outlines(panel, cell):
            draw.rectangle((x + cx + 1, CAPTION + cy + 1, x + cx + cell - 2, CAPTION + cy + cell - 2),
                           outline=HIGHLIGHT, width=stroke)
        x += im.width + GAP
    buf = io.BytesIO()
    out.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def panels_svg(panels: list[Panel], cell: int = 16) -> str:
    """The panels side by side, as an SVG document (each panel a nested <svg>)."""
    from nonocp.render.svg import render_svg

    parts: list[str] = []
    x = 0.0
    height = 0.0
    for panel in panels:
        pic = picture(panel.puzzle, panel.grid, panel.marked, cell)
        body = render_svg(panel.puzzle, panel.grid, panel.marked, cell)
        inner = body[body.index(">", body.index("<svg")) + 1:]  # after the root tag, its </svg> included
        parts.append(f'<g class="panel" transform="translate({x:g},0)">')
        parts.append(f'<text x="6" y="{CAPTION / 2:g}" font-size="14" dominant-baseline="central">'
                     f"{escape(panel.caption)}</text>")
        parts.append(f'<svg x="0" y="{CAPTION}" width="{pic.width}" height="{pic.height}" '
                     f'viewBox="0 0 {pic.width} {pic.height}">' + inner.rstrip())
        stroke = max(2, cell // 6)
        for cx, cy in _outlines(panel, cell):
            parts.append(f'<rect class="changed" x="{cx + 1:g}" y="{CAPTION + cy + 1:g}" width="{cell - 3}" '
                         f'height="{cell - 3}" fill="none" stroke="{HIGHLIGHT}" stroke-width="{stroke}"/>')
        parts.append("</g>")
        x += pic.width + GAP
        height = max(height, pic.height + CAPTION)
    width = x - GAP
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif">',
        f'<rect width="{width:g}" height="{height:g}" fill="{PAPER}"/>',
    ]
    return "\n".join(head + parts + ["</svg>"]) + "\n"
