#!/usr/bin/env python3
"""Write the team's puzzles into puzzles/: hand-drawn pixel art (drawn below as text) and seeded
generated ones, and the count-and-contiguity puzzles of puzzles/tools/make_count_puzzles.py. Deterministic: the same
seeds give the same files, so `git diff` after a rerun is empty.

    python puzzles/tools/make_puzzles.py                  # (re)write the .non/.nonpack files
    python puzzles/tools/make_puzzles.py --count cpsat    # also count solutions and rewrite puzzles/expected.tsv

Counting enumerates every solution (all puzzles here have few), with whichever engine you name;
tests/test_puzzles.py then checks those counts against every engine.
A `goal` is written only where the picture is the unique solution.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from nonocp.core.grid import Grid
from nonocp.core.palette import Color, Palette
from nonocp.core.puzzle import Block, Meta, Puzzle, clues_of
from nonocp.formats import dumps, format_for_extension

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "puzzles"
AUTHOR = "nonocp team"
LICENSE = "CC0-1.0"

WHITE = Color("white", "#ffffff", "0")

# --- hand-drawn pictures: '.' is background, '#' is black, letters are the colours listed -----------

HAND_DRAWN: list[tuple[str, str, dict[str, tuple[str, str]], list[str]]] = [
    # (file stem, title, {symbol: (colour name, #rrggbb)}, picture)
    ("dot", "Dot", {}, ["#"]),
    ("heart", "Heart", {}, [
        ".##...##.",
        "####.####",
        "#########",
        "#########",
        ".#######.",
        "..#####..",
        "...###...",
        "....#....",
    ]),
    ("smiley", "Smiley", {}, [
        "..######..",
        ".#......#.",
        "#..#..#..#",
        "#..#..#..#",
        "#........#",
        "#.#....#.#",
        "#..####..#",
        "#........#",
        ".#......#.",
        "..######..",
    ]),
    ("window", "Window with empty lines", {}, [
        "##.#..##",
        "##.#..##",
        "........",
        "###...##",
        "........",
        "##.#..##",
        "##.##.##",
    ]),
    ("eyes", "Eyes (several solutions)", {}, [
        "#.....#",
        ".#...#.",
        ".......",
        "..###..",
    ]),
    ("cherries", "Cherries", {"g": ("green", "#2e8b57"), "r": ("red", "#d01c1f")}, [
        "......gg.",
        ".....g...",
        "....g.g..",
        "...g...g.",
        "..g....g.",
        ".rr...rr.",
        "rrrr.rrrr",
        "rrrr.rrrr",
        ".rr...rr.",
    ]),
    ("mushroom", "Mushroom", {"r": ("red", "#e0301e"), "w": ("cream", "#f3ead3"), "s": ("stem", "#c8a165")}, [
        "...rrrr...",
        "..rrwwrr..",
        ".rrwwwwrr.",
        "rrrrrrrrrr",
        "rwwrrrrwwr",
        "rrrrrrrrrr",
        "...ssss...",
        "...ssss...",
        "...ssss...",
        "..ssssss..",
    ]),
    ("fish", "Fish", {"o": ("orange", "#f28c28"), "y": ("yellow", "#f7d038"), "k": ("black", "#000000"),
                      "b": ("blue", "#3a7bd5")}, [
        "....yyy.......",
        "...oooooo...y.",
        ".oooookooo.yy.",
        "ooooooooooooy.",
        "ooooooooooooy.",
        ".oooooooooo.yy",
        "...oooooo....y",
        "....yy........",
        "bb..b..bb.b..b",
        ".bbb.bb..b.bb.",
    ]),
    ("rainbow", "Rainbow", {"r": ("red", "#e40303"), "o": ("orange", "#ff8c00"), "y": ("yellow", "#ffed00"),
                            "g": ("green", "#008026"), "b": ("blue", "#004dff")}, [
        "...rrrrrr...",
        ".rroooooorr.",
        "rooyyyyyyoor",
        "oyyggggggyyo",
        "yggbbbbbbggy",
        "gbb......bbg",
        "b..........b",
    ]),
]


def palette_for(colors: dict[str, tuple[str, str]]) -> Palette:
    if not colors:
        return Palette.black_and_white()
    return Palette((WHITE, *(Color(name, rgb, sym) for sym, (name, rgb) in colors.items())))


def grid_from_picture(picture: Sequence[str], palette: Palette) -> Grid:
    if len({len(r) for r in picture}) != 1:
        raise SystemExit(f"picture rows differ in length: {picture}")
    index = {c.symbol: i for i, c in enumerate(palette.colors)}
    index["."] = 0
    index["#"] = 1
    return Grid(tuple(tuple(index[ch] for ch in row) for row in picture))


def puzzle_of(grid: Grid, palette: Palette, title: str, source: str) -> Puzzle:
    rows, cols = clues_of(grid)
    meta = Meta(title=title, author=AUTHOR, license=LICENSE, source=source, goal=grid)
    return Puzzle(rows, cols, palette, meta)


# --- one hand-written puzzle with no solution (its row and column totals agree) ---------------------

def no_solution() -> Puzzle:
    """A 5x5 picture whose row 4 clue `2,1` was written backwards as `1,2`: every colour total still
    agrees (13 cells each way), so counting cannot see it, but no grid fits (the brute-force oracle in
    tests/test_puzzles.py confirms it independently of the engines)."""
    b = lambda *ns: tuple(Block(n) for n in ns)  # noqa: E731
    rows = (b(3), b(3), b(4), b(1, 2), b(2))
    cols = (b(2), b(1, 2), b(3, 1), b(3, 1), b(1, 1))
    return Puzzle(rows, cols, Palette.black_and_white(),
                  Meta(title="No way", author=AUTHOR, license=LICENSE, source="hand-written"))


# --- seeded generated puzzles ----------------------------------------------------------------------

GEN_COLORS = [("black", "#000000"), ("red", "#e6194b"), ("green", "#3cb44b"), ("blue", "#4363d8"),
              ("orange", "#f58231")]


def blobby_grid(rng: random.Random, width: int, height: int, ncolors: int, density: float) -> Grid:
    """Random noise smoothed by a majority pass, so that it has runs and shapes like a picture;
    colours come in patches (a second smoothed field) rather than as salt and pepper."""
    on = [[rng.random() < density for _ in range(width)] for _ in range(height)]
    on = [[_majority(on, r, c) for c in range(width)] for r in range(height)]
    hue = [[rng.randrange(1, ncolors) for _ in range(width)] for _ in range(height)]
    hue = [[_mode(hue, r, c) for c in range(width)] for r in range(height)]
    return Grid(tuple(tuple(hue[r][c] if on[r][c] else 0 for c in range(width)) for r in range(height)))


def _neighbours(g, r, c):
    h, w = len(g), len(g[0])
    return [g[rr][cc] for rr in range(max(r - 1, 0), min(r + 2, h)) for cc in range(max(c - 1, 0), min(c + 2, w))]


def _majority(g, r, c) -> bool:
    n = _neighbours(g, r, c)
    return sum(n) * 2 > len(n) or (sum(n) * 2 == len(n) and g[r][c])


def _mode(g, r, c) -> int:
    n = _neighbours(g, r, c)
    return max(sorted(set(n)), key=n.count)


def generated_palette(ncolors: int) -> Palette:
    if ncolors == 2:
        return Palette.black_and_white()
    return Palette((WHITE, *(Color(n, rgb, "abcde"[i]) for i, (n, rgb) in enumerate(GEN_COLORS[: ncolors - 1]))))


@dataclasses.dataclass(frozen=True)
class Recipe:
    stem: str
    seed: int
    width: int
    height: int
    ncolors: int  # counting the background: 2 = black and white
    density: float = 0.5
    perturb: bool = False  # move one block so that no solution is left (totals still agree)

    def puzzle(self) -> Puzzle:
        rng = random.Random(self.seed)
        palette = generated_palette(self.ncolors)
        grid = blobby_grid(rng, self.width, self.height, self.ncolors, self.density)
        title = f"{self.stem} (seed {self.seed})"
        p = puzzle_of(grid, palette, title, f"puzzles/tools/make_puzzles.py seed {self.seed}")
        if self.perturb:
            p = perturbed(p, rng)
        return p


def perturbed(p: Puzzle, rng: random.Random) -> Puzzle:
    """Swap two unequal blocks of one row clue: the totals stay equal, the picture no longer fits."""
    rows = list(p.rows)
    candidates = [i for i, clue in enumerate(rows) if len({(b.length, b.color) for b in clue}) > 1]
    i = rng.choice(candidates)
    clue = list(rows[i])
    a, b = rng.sample([k for k in range(len(clue))], 2)
    while (clue[a].length, clue[a].color) == (clue[b].length, clue[b].color):
        a, b = rng.sample(range(len(clue)), 2)
    clue[a], clue[b] = clue[b], clue[a]
    rows[i] = tuple(clue)
    return dataclasses.replace(p, rows=tuple(rows), meta=dataclasses.replace(p.meta, goal=None))


# The recorded seeds: the same seed always gives the same puzzle. Their verdicts are measured, not
# chosen (puzzles/expected.tsv); gen-none's seed happens to leave no solution, which the tests check.
SINGLES = [
    Recipe("gen-bw-15x15", seed=1, width=15, height=15, ncolors=2),
    Recipe("gen-bw-20x20", seed=7, width=20, height=20, ncolors=2, density=0.5),
    Recipe("gen-c3-12x12", seed=3, width=12, height=12, ncolors=3),
    Recipe("gen-c5-10x10", seed=5, width=10, height=10, ncolors=5, density=0.6),
    Recipe("gen-none-10x10", seed=11, width=10, height=10, ncolors=2, perturb=True),
]
BUNDLE = ("gen-bundle", [Recipe(f"gen-small-{k}", seed=100 + k, width=6, height=6, ncolors=2 + k % 3)
                         for k in range(4)])


def all_files() -> dict[str, list[Puzzle]]:
    files: dict[str, list[Puzzle]] = {}
    for stem, title, colors, picture in HAND_DRAWN:
        palette = palette_for(colors)
        files[f"{stem}.non"] = [puzzle_of(grid_from_picture(picture, palette), palette, title, "hand-drawn")]
    files["no-way.non"] = [no_solution()]
    for recipe in SINGLES:
        files[f"{recipe.stem}.non"] = [recipe.puzzle()]
    files[f"{BUNDLE[0]}.nonpack"] = [r.puzzle() for r in BUNDLE[1]]
    files.update(count_puzzles())
    return files


def count_puzzles() -> dict[str, list[Puzzle]]:
    """The count-and-contiguity puzzles (puzzles/tools/make_count_puzzles.py), written as their extensions say."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from make_count_puzzles import all_files as count_files

    return count_files()


def recorded_counts() -> dict[tuple[str, int], int]:
    """(file, puzzle number) -> solution count, from puzzles/expected.tsv (empty if there is none)."""
    path = OUT / "expected.tsv"
    if not path.exists():
        return {}
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    return {(name, int(i)): int(n) for name, i, n, _ in rows}


def status_of_count(n: int) -> str:
    return "none" if n == 0 else ("unique" if n == 1 else "multiple")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", metavar="ENGINE", help="count solutions with ENGINE and rewrite expected.tsv")
    ap.add_argument("--limit", type=int, default=1000, help="give up counting beyond this many solutions")
    args = ap.parse_args(argv)
    files = all_files()
    counts = recorded_counts()  # without --count, the recorded counts decide where a goal belongs
    if args.count:
        from nonocp.engines.solve import solve

        for name, puzzles in files.items():
            for i, p in enumerate(puzzles, 1):
                r = solve(p, args.count, max_solutions=args.limit)
                if not r.exhausted:
                    raise SystemExit(f"{name} #{i}: over {args.limit} solutions or no verdict ({r.status})")
                counts[name, i] = len(r.solutions)
                print(f"{name} #{i}: {len(r.solutions)} solution(s) [{r.seconds:.2f} s]", file=sys.stderr)
    OUT.mkdir(exist_ok=True)
    for name, puzzles in files.items():
        kept = []
        for i, p in enumerate(puzzles, 1):
            if counts.get((name, i)) != 1 and p.meta.goal is not None:
                p = dataclasses.replace(p, meta=dataclasses.replace(p.meta, goal=None))  # goal only where unique
            kept.append(p)
        fmt = format_for_extension(name)  # .non, .nonpack, and the count puzzles' .counts and .json
        (OUT / name).write_text(dumps(kept[0] if len(kept) == 1 else kept, fmt), encoding="utf-8")
    if args.count:
        lines = ["file\tpuzzle\tsolutions\tstatus"]
        lines += [f"{name}\t{i}\t{n}\t{status_of_count(n)}" for (name, i), n in counts.items()]
        (OUT / "expected.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
