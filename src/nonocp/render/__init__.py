"""Pictures of puzzles and their solutions: plain text, rich terminal colour, SVG and PNG.

Rendering depends only on the puzzle model (Puzzle, Grid, Palette); it never imports a solver, so
`nonocp show` and the converters stay fast. Every renderer takes the same three things:

- `puzzle`: whose clues go in the margins;
- `grid`: the cells to paint (a solution or a goal), or None for an empty grid;
- `marked`: cells to flag (e.g. the cells on which solutions disagree, for a backbone view), or None.
"""

from collections.abc import Callable
from dataclasses import dataclass

from nonocp.render.clues import clue_tokens
from nonocp.render.text import render_text

__all__ = ["PICTURES", "Picture", "clue_tokens", "render_text", "render_svg", "render_png", "render_rich"]


def render_svg(*args, **kwargs) -> str:
    from nonocp.render.svg import render_svg as _render_svg

    return _render_svg(*args, **kwargs)


def render_png(*args, **kwargs) -> bytes:
    from nonocp.render.png import render_png as _render_png  # Pillow is imported only when a PNG is asked for

    return _render_png(*args, **kwargs)


def render_rich(*args, **kwargs):
    from nonocp.render.terminal import render_rich as _render_rich

    return _render_rich(*args, **kwargs)


@dataclass(frozen=True)
class Picture:
    """A picture file a puzzle can be drawn as: its extension, media type and renderer."""

    extension: str
    media_type: str
    render: Callable[..., str | bytes]


# The picture files, by name (what `--format` and the web page's exports call them).
PICTURES: dict[str, Picture] = {
    "svg": Picture(".svg", "image/svg+xml", render_svg),
    "png": Picture(".png", "image/png", render_png),
}
