"""PNG picture via Pillow: the same drawing as the SVG (render/geometry.py), rasterised."""

from __future__ import annotations

import functools
import io

from PIL import Image, ImageDraw, ImageFont

from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.render.clues import Marked
from nonocp.render.geometry import CHECK_DARK, CHECK_LIGHT, CHECKS, DEFAULT_CELL, PAPER, font_size, picture


@functools.cache  # loading a font costs far more than drawing with it
def _font(size: float):
    try:
        return ImageFont.load_default(size=max(int(size), 6))
    except (TypeError, OSError):  # Pillow built without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def render_image(
    puzzle: Puzzle, grid: Grid | None = None, marked: Marked | None = None, cell: int = DEFAULT_CELL
) -> Image.Image:
    pic = picture(puzzle, grid, marked, cell)
    img = Image.new("RGB", (pic.width, pic.height), PAPER)
    draw = ImageDraw.Draw(img)
    for lab in pic.labels:
        if lab.fill:
            draw.rounded_rectangle(
                (lab.x + 1, lab.y + 1, lab.x + lab.size - 2, lab.y + lab.size - 2), radius=2, fill=lab.fill
            )
        font = _font(font_size(lab.text, lab.size))
        draw.text((lab.x + lab.size / 2, lab.y + lab.size / 2), lab.text, fill=lab.ink, font=font, anchor="mm")
        if lab.bar:
            draw.line(lab.bar_line(), fill=lab.ink, width=max(1, round(lab.size / 12)))
    for c in pic.cells:
        draw.rectangle((c.x, c.y, c.x + cell - 1, c.y + cell - 1), fill=c.fill)
        if c.marked:  # checkered: undecided (see render/svg.py)
            draw.rectangle((c.x, c.y, c.x + cell - 1, c.y + cell - 1), fill=CHECK_LIGHT)
            side = cell / CHECKS
            for i in range(CHECKS):
                for j in range(CHECKS):
                    if (i + j) % 2:
                        x, y = c.x + i * side, c.y + j * side
                        draw.rectangle((x, y, x + side - 1, y + side - 1), fill=CHECK_DARK)
    for r in pic.rules:
        draw.line((r.x1, r.y1, r.x2, r.y2), fill=r.color, width=max(int(round(r.width)), 1))
    return img


def render_png(
    puzzle: Puzzle, grid: Grid | None = None, marked: Marked | None = None, cell: int = DEFAULT_CELL
) -> bytes:
    """The picture as PNG bytes; `cell` is the side of a cell in pixels."""
    buf = io.BytesIO()
    render_image(puzzle, grid, marked, cell).save(buf, format="PNG", optimize=True)
    return buf.getvalue()
