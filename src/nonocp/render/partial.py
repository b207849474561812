"""Pictures of partial grids for `nonocp explain`: decided cells in their colour, undecided cells
showing the candidate colours they still have, and the cells the step changed outlined.

Reuses nonocp.render (clue tokens, the shared picture geometry); adds what it lacks: cells that are not
decided yet. Masks are `nonocp.core.grid.Domains` masks (bit k = palette index k), row-major.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape as html_escape
from xml.sax.saxutils import escape

from nonocp.core.palette import contrast_color
from nonocp.core.puzzle import Puzzle
from nonocp.render.clues import clue_tokens
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


def short_cell_text(puzzle: Puzzle, mask: int) -> str:
    """cell_text in at most two characters, for a terminal grid that must stay narrow: a decided cell's symbol,
    the two candidates of a cell that may be either (`.a`), else how many colours it may still be (`3?`;
    `??` past 9)."""
    text = cell_text(puzzle, mask)
    if len(text) <= 2:
        return text
    n = bin(mask).count("1")
    return f"{n}?" if n <= 9 else "??"


class PartialText:
    """render_partial_text for many grids of one puzzle: the clue layout is worked out once."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        palette = puzzle.palette
        self.row_tokens = [" ".join(clue_tokens(c, palette)) for c in puzzle.rows]
        self.col_tokens = [clue_tokens(c, palette) for c in puzzle.cols]
        self.clue_width = max(len(t) for toks in self.col_tokens for t in toks)
        self.margin = max(len(t) for t in self.row_tokens)
        self.depth = max(len(t) for t in self.col_tokens)
        self.cell_texts: dict[int, str] = {}
        self.headers: dict[int, list[str]] = {}

    def render_cell(self, m: int) -> str:
        t = self.cell_texts.get(m)
        if t is None:
            t = self.cell_texts[m] = cell_text(self.puzzle, m)
        return t

    def header(self, cw: int) -> list[str]:
        """The column clues and the frame line above the grid, for cells `cw` characters wide."""
        out = self.headers.get(cw)
        if out is None:
            out = []
            for k in range(self.depth):
                parts = []
                for toks in self.col_tokens:
                    i = k - (self.depth - len(toks))
                    parts.append((toks[i] if i >= 0 else "").rjust(cw))
                out.append((" " * (self.margin + 3) + " ".join(parts)).rstrip())
            out.append((" " * (self.margin + 1) + "+" + "-" * (self.puzzle.width * (cw + 1))).rstrip())
            self.headers[cw] = out
        return out

    def render(self, masks: Sequence[int], changed: Collection[tuple[int, int]] = ()) -> str:
        puzzle = self.puzzle
        W = puzzle.width
        cells = [self.render_cell(m) for m in masks]
        cw = max(max(len(t) for t in cells), self.clue_width)
        changed_set = set(changed)
        out = list(self.header(cw))
        for r, toks in enumerate(self.row_tokens):
            parts = [cells[r * W + c].rjust(cw) + ("*" if (r, c) in changed_set else " ") for c in range(W)]
            out.append((toks.rjust(self.margin) + " |" + (" " + "".join(parts)).rstrip()).rstrip())
        return "\n".join(out) + "\n"


def render_partial_text(puzzle: Puzzle, masks: Sequence[int], changed: Collection[tuple[int, int]] = ()) -> str:
    """The clues around a partial grid, as plain text; a cell the step changed is followed by `*`."""
    return PartialText(puzzle).render(masks, changed)


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
    """A page to go through the step pictures: entries are (file name, caption).

    One picture at a time with back/next buttons and the arrow keys (Home/End for the first and last), the
    step number in the address (#12) so that a step can be linked, and every step listed below (all of
    them shown when JavaScript is off)."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html_escape(title)}</title>",
        "<style>body{font-family:sans-serif;margin:1em}figure{margin:1em 0}"
        "figcaption{margin-bottom:.3em}img{border:1px solid #ccc}"
        "#viewer{display:none}.js #viewer{display:block}.js #steps figure{display:none}"
        "#nav button{font-size:1em;padding:.3em .8em;margin-right:.4em}#where{margin-left:.4em}"
        "#steps li.current{font-weight:bold}</style>",
        "</head><body>",
        f"<h1>{html_escape(title)}</h1>",
    ]
    if summary:
        out.append(f"<p>{html_escape(summary)}</p>")
    out.append('<div id="viewer"><div id="nav"><button id="back" type="button" title="back (left arrow)">'
               '&#9664; back</button><button id="next" type="button" title="next (right arrow)">next &#9654;'
               '</button><span id="where"></span></div>'
               '<figure><figcaption id="caption"></figcaption><img id="picture" alt=""></figure></div>')
    out.append('<ol id="steps" start="0">')
    for i, (name, caption) in enumerate(entries):
        out.append(f'<li id="s{i}"><a href="#{i}" data-file="{html_escape(name)}">{html_escape(caption)}</a>'
                   f'<figure><a href="{html_escape(name)}"><img src="{html_escape(name)}" '
                   f'alt="{html_escape(caption)}" loading="lazy"></a></figure></li>')
    out.append("</ol>")
    out.append("""<script>
(function () {
  document.documentElement.className = "js";
  var links = Array.prototype.slice.call(document.querySelectorAll("#steps > li > a"));
  var picture = document.getElementById("picture"), caption = document.getElementById("caption");
  var where = document.getElementById("where"), current = 0;
  function show(i) {
    current = Math.max(0, Math.min(links.length - 1, i));
    var a = links[current];
    picture.src = a.getAttribute("data-file");
    picture.alt = caption.textContent = a.textContent;
    where.textContent = "step " + current + " of " + (links.length - 1);
    document.getElementById("back").disabled = current === 0;
    document.getElementById("next").disabled = current === links.length - 1;
    links.forEach(function (b, j) { b.parentNode.className = j === current ? "current" : ""; });
    if (location.hash !== "#" + current) history.replaceState(null, "", "#" + current);
  }
  document.getElementById("back").onclick = function () { show(current - 1); };
  document.getElementById("next").onclick = function () { show(current + 1); };
  links.forEach(function (a, j) { a.onclick = function (e) { e.preventDefault(); show(j); scrollTo(0, 0); }; });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: links.length - 1}[e.key];
    if (to !== undefined) { e.preventDefault(); show(to); }
  });
  show(parseInt(location.hash.slice(1), 10) || 0);
})();
</script>""")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
