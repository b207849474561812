"""A partial grid on a terminal (rich): decided cells painted in their colour, undecided cells showing the
colours still possible in at most two characters (`?` in black and white, `.a` for two, `3?` for three),
the cells the last step changed underlined and bold.
The layout is PartialText's (render/partial.py), only painted; `explain --interactive` draws with it."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.text import Text

from nonocp.core.palette import contrast_color
from nonocp.core.puzzle import Puzzle
from nonocp.render.partial import PartialText, short_cell_text


def partial_rich(puzzle: Puzzle, masks: Sequence[int], changed: Collection[tuple[int, int]] = (),
                 drawer: PartialText | None = None) -> Text:
    drawer = drawer or PartialText(puzzle)
    palette = puzzle.palette
    W = puzzle.width
    cells = [short_cell_text(puzzle, m) for m in masks]  # at most 2 characters: `3?` for 3 colours possible
    cw = max(max(len(t) for t in cells), drawer.clue_width)
    changed_set = set(changed)
    out = Text()
    for line in drawer.header(cw):
        out.append(line + "\n")
    for r, toks in enumerate(drawer.row_tokens):
        out.append(toks.rjust(drawer.margin) + " | ")
        for c in range(W):
            m = masks[r * W + c]
            text = cells[r * W + c].rjust(cw)
            mark = (r, c) in changed_set
            if m and not m & (m - 1):
                rgb = palette[m.bit_length() - 1].rgb
                style = f"{contrast_color(rgb)} on {rgb}"
            else:
                style = "grey70" if m else "bold red"
            if mark:
                style += " bold underline"
            out.append(text, style=style)
            out.append("*" if mark else " ")
        out.append("\n")
    return out
