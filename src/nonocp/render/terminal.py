"""The text picture in terminal colours (rich): cells painted in their colours, colour clues on
their colour. Same layout as render/text.py, only painted: every cell keeps its symbol (`#`, `.`, the
colour's letter) in a contrasting ink, so a copy of the grid reads the same as the plain text."""

from __future__ import annotations

from rich.text import Text

from nonocp.core.grid import Grid
from nonocp.core.palette import contrast_color
from nonocp.core.puzzle import Puzzle
from nonocp.render.clues import Marked
from nonocp.render.text import Deadline, layout

UNDECIDED_STYLE = "on grey35"


def render_rich(puzzle: Puzzle, grid: Grid | None = None, marked: Marked | None = None,
                deadline: Deadline | None = None) -> Text:
    """A rich Text of the puzzle; cells touch and are at least two columns wide, so that they look square.
    Cut at `deadline` as render_text is."""
    palette = puzzle.palette
    out = Text()
    for line in layout(puzzle, grid, marked, gap=False, deadline=deadline):
        for seg in line:
            if seg.kind == "cell":
                rgb = palette[seg.color].rgb if seg.color is not None and not seg.marked else None
                text = seg.text
                if rgb is None:
                    style = f"bold {UNDECIDED_STYLE}" if seg.marked else UNDECIDED_STYLE
                else:
                    style = f"bold {contrast_color(rgb)} on {rgb}"
                out.append(text, style=style)
            elif seg.kind == "clue" and seg.color is not None and (not palette.is_black_and_white or puzzle.has_counts):
                rgb = palette[seg.color].rgb
                out.append(seg.text, style=f"{contrast_color(rgb)} on {rgb}")
            else:
                out.append(seg.text)
        out.append("\n")
    return out
