#!/usr/bin/env python3
"""The team's count-and-contiguity puzzles (core/counts.py): hand-drawn pictures (below, as text) and pictures
generated from recorded seeds. puzzles/tools/make_puzzles.py writes them into puzzles/ with the others (`all_files()`
here is its part) and counts their solutions into puzzles/expected.tsv (`--count ENGINE`).

Every cell of a count puzzle has a colour (there is no background), so every letter of a picture is a colour
of its palette, listed in palette order (the order of the counts in each line). Hand-drawn ones are written in
the text entry form (.counts), generated ones in the JSON form (.json), so that both forms are shipped.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from nonocp.core.counts import count_clues_of
from nonocp.core.grid import Grid
from nonocp.core.palette import Color, Palette
from nonocp.core.puzzle import COUNTS, Meta, Puzzle

AUTHOR = "nonocp team"
LICENSE = "CC0-1.0"

# (file stem, title, {letter: (colour as a file writes it, #rrggbb)} in palette order, picture)
HAND_DRAWN: list[tuple[str, str, dict[str, tuple[str, str]], list[str]]] = [
    ("counts-plus", "Plus (counts)", {"w": ("white", "#ffffff"), "k": ("black", "#000000")}, [
        "wwkww",
        "wwkww",
        "kkkkk",
        "wwkww",
        "wwkww",
    ]),
    ("counts-cat", "Hungry cat", {"s": ("#9fd3f0", "#9fd3f0"), "k": ("black", "#000000"),
                                  "y": ("#fff44f", "#fff44f"), "p": ("#ff9fb0", "#ff9fb0")}, [
        "skssssskss",
        "skkssskkss",
        "skkkkkkkss",
        "skykkkykss",
        "skkkpkkkss",
        "skkkkkkkss",
        "sskkkkksss",
        "sskkkkkkks",
        "sskkkkksks",
        "sskskskkks",
    ]),
    ("counts-sunset", "Sunset", {"o": ("orange", "#ffa500"), "y": ("#fff44f", "#fff44f"),
                                 "b": ("#3a7bd5", "#3a7bd5"), "g": ("#2e8b57", "#2e8b57")}, [
        "oooooooo",
        "oooyyooo",
        "ooyyyyoo",
        "ooyyyyoo",
        "bbbbbbbb",
        "bbgggbbb",
        "bgggggbb",
        "bbbbbbbb",
    ]),
    ("counts-fish", "Fish in weed", {"b": ("#3a7bd5", "#3a7bd5"), "o": ("#f28c28", "#f28c28"),
                                     "w": ("white", "#ffffff"), "k": ("black", "#000000"),
                                     "g": ("#2e8b57", "#2e8b57")}, [
        "bbbbbbbbbbbb",
        "obbbooooobbb",
        "oobooooooobb",
        "ooooooowkoob",
        "oobooooooobb",
        "obbbooooobbb",
        "gbbgbbbbgbbg",
        "ggbggbbgggbg",
    ]),
]

# Generated pictures: random colours smoothed `smooth` times by the majority of each cell's neighbourhood,
# so that they have shapes; the same seed always gives the same puzzle. Verdicts are measured, not chosen
# (puzzles/expected.tsv).
GEN_COLOURS = [("#fff44f", "#fff44f"), ("black", "#000000"), ("#e6194b", "#e6194b"), ("#3cb44b", "#3cb44b"),
               ("#4363d8", "#4363d8"), ("orange", "#ffa500")]


@dataclasses.dataclass(frozen=True)
class Recipe:
    stem: str
    seed: int
    width: int
    height: int
    ncolors: int
    smooth: int = 2
    flip: bool = False  # flip one row's "all in a row" flag (the picture then no longer fits)

    def puzzle(self) -> Puzzle:
        rng = random.Random(self.seed)
        palette = Palette(tuple(Color(name, rgb, "abcdef"[i]) for i, (name, rgb) in
                                enumerate(GEN_COLOURS[:self.ncolors])))
        grid = smoothed_grid(rng, self.width, self.height, self.ncolors, self.smooth)
        p = puzzle_of(grid, palette, f"{self.stem} (seed {self.seed})",
                      f"puzzles/tools/make_count_puzzles.py seed {self.seed}")
        return flipped(p, rng) if self.flip else p


SINGLES = [
    Recipe("counts-gen-c3-12x12", seed=3, width=12, height=12, ncolors=3),
    Recipe("counts-gen-c4-15x15", seed=6, width=15, height=15, ncolors=4),
    Recipe("counts-gen-c5-15x15", seed=12, width=15, height=15, ncolors=5),
    Recipe("counts-gen-c6-20x20", seed=39, width=20, height=20, ncolors=6),
    Recipe("counts-gen-none-10x10", seed=21, width=10, height=10, ncolors=3, flip=True),
]


def smoothed_grid(rng: random.Random, width: int, height: int, ncolors: int, smooth: int) -> Grid:
    g = [[rng.randrange(ncolors) for _ in range(width)] for _ in range(height)]
    for _ in range(smooth):
        g = [[_mode(g, r, c) for c in range(width)] for r in range(height)]
    return Grid.from_rows(g)


def _mode(g, r, c) -> int:
    h, w = len(g), len(g[0])
    near = [g[rr][cc] for rr in range(max(r - 1, 0), min(r + 2, h)) for cc in range(max(c - 1, 0), min(c + 2, w))]
    return max(sorted(set(near)), key=near.count)


def flipped(p: Puzzle, rng: random.Random) -> Puzzle:
    """The puzzle with one row's flag on a count of 2 or more turned over (every total still agrees)."""
    from nonocp.core.counts import Count

    rows = list(p.rows)
    candidates = [(r, k) for r, clue in enumerate(rows) for k, e in enumerate(clue) if e.count >= 2]
    r, k = rng.choice(candidates)
    clue = list(rows[r])
    clue[k] = Count(clue[k].count, not clue[k].together)
    rows[r] = tuple(clue)
    return dataclasses.replace(p, rows=tuple(rows), meta=dataclasses.replace(p.meta, goal=None))


def palette_for(colours: dict[str, tuple[str, str]]) -> tuple[Palette, dict[str, int]]:
    palette = Palette(tuple(Color(name, rgb, "abcdefghij"[i]) for i, (name, rgb) in enumerate(colours.values())))
    return palette, {letter: i for i, letter in enumerate(colours)}


def grid_from_picture(picture: Sequence[str], index: dict[str, int]) -> Grid:
    if len({len(r) for r in picture}) != 1:
        raise SystemExit(f"picture rows differ in length: {picture}")
    return Grid(tuple(tuple(index[ch] for ch in row) for row in picture))


def puzzle_of(grid: Grid, palette: Palette, title: str, source: str) -> Puzzle:
    rows, cols = count_clues_of(grid.cells, len(palette))
    meta = Meta(title=title, author=AUTHOR, license=LICENSE, source=source, goal=grid)
    return Puzzle(rows, cols, palette, meta, COUNTS)


def all_files() -> dict[str, list[Puzzle]]:
    """File name -> its puzzles, with the generating picture as goal (make_puzzles.py keeps it only where the
    recorded count is 1)."""
    files: dict[str, list[Puzzle]] = {}
    for stem, title, colours, picture in HAND_DRAWN:
        palette, index = palette_for(colours)
        files[f"{stem}.counts"] = [puzzle_of(grid_from_picture(picture, index), palette, title, "hand-drawn")]
    for recipe in SINGLES:
        files[f"{recipe.stem}.json"] = [recipe.puzzle()]
    return files
