"""Designing puzzles: from a picture to a puzzle that can be published.

The library the `nonocp design` and `nonocp generate` commands (and the web workbench) call:

* `from_image(source, width=None, height=None, colors=1, threshold=None, background="auto") -> Design`:
  a picture (a path, the file's bytes or a Pillow image; PNG, JPEG, GIF, BMP, WebP, TIFF, or any puzzle
  file with a goal such as the text picture and PBM formats), scaled keeping its aspect ratio, reduced to
  black and white by a threshold or to K colours plus a background by clustering (design/image.py).
* `Design(grid, palette, title, margin)`: the picture as palette indices; `.puzzle()` is the puzzle
  whose clues it makes, with the picture as goal; `Design.from_puzzle(p)` takes a puzzle's goal.
* `analyse(design, time_limit=None) -> DesignReport`: verdict (unique / multiple), the cells that differ
  between solutions, difficulty LINE / PROBE / BRANCH / MULTIPLE (nonocp.analysis.rate) and guesses
  (design/report.py). `ambiguous=False, rate=False` make it a quick verdict for a live editor.
* `make_unique(design, max_difficulty=None, time_limit=None) -> UniqueResult`: the fewest cell changes
  it can find after which the solution is unique (proven by the native and sat engines), or with
  `max_difficulty="LINE"` (or "PROBE") solvable by that much logic; `.changes` lists every changed
  cell, `.design` is the result (design/unique.py, method in its docstring).
* `fewest_changes(design, max_changes=6, time_limit=None) -> Fewest`: the exact minimum, by a complete
  search: for small designs and for measuring make_unique (design/exact.py).
* `generate(width, height, colors=1, density=0.5, difficulty=None, count=1, seed=0) -> list[Generated]`:
  random unique puzzles at a difficulty, the same for the same seed (design/generator.py).

Errors: NonocpError (ParseError for unreadable files) for bad input; nonocp.core.errors.OutOfTime when the
time limit runs out, and EnginesDisagree (design/checks.py) from the engines. Core code never prints;
`progress` callbacks report as it goes.
"""

from nonocp.design.checks import EnginesDisagree, Proof, prove_unique
from nonocp.design.exact import Fewest, fewest_changes
from nonocp.design.generator import Generated, generate
from nonocp.design.image import from_image
from nonocp.design.model import Change, Design, apply_changes, changes_between
from nonocp.design.report import DesignReport, analyse
from nonocp.design.unique import UniqueResult, make_unique

__all__ = [
    "Change", "Design", "DesignReport", "EnginesDisagree", "Fewest", "Generated", "Proof",
    "UniqueResult", "analyse", "apply_changes", "changes_between", "fewest_changes", "from_image", "generate",
    "make_unique", "prove_unique",
]
