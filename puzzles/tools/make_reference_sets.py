#!/usr/bin/env python3
"""Write the project's two random reference sets, reproducible from a seed, into an ignored folder.

    python puzzles/tools/make_reference_sets.py                       # both sets into benchmarks/sets/
    python puzzles/tools/make_reference_sets.py --set random30 --count 200 --out /tmp/sets
    python puzzles/tools/make_reference_sets.py --seed 7              # another draw of the same recipe

- `random30`: 30x30 black and white, each cell black with probability 1/2 (the recipe of the webpbn
  survey's random set), 5,000 puzzles by default.
- `colour30`: 30x30 grids whose cells are drawn uniformly from the background and 2 inks (3 colours) or
  the background and 4 inks (5 colours), alternating, 500 puzzles by default.

Each puzzle's goal is its random grid (one solution among possibly several). Puzzle k depends only on the
seed, the set and k, so a slice (`--count 100`) is the start of the full set. The files are bundles of
.non puzzles (`.nonpack`), which every nonocp command reads. They are generated, not committed: the seed
reproduces them (benchmarks/peers.py writes them on first use).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from nonocp.core.grid import Grid
from nonocp.core.puzzle import Meta, Puzzle, clues_of
from nonocp.design.generator import palette_for
from nonocp.formats import dumps

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "benchmarks" / "sets"
DEFAULT_SEED = 2026
SIZE = 30
# name: (default count, inks of puzzle k, probability of black for black and white)
SETS = {"random30": 5000, "colour30": 500}


def set_path(name: str, out: Path = DEFAULT_OUT, seed: int = DEFAULT_SEED, count: int | None = None) -> Path:
    n = SETS[name] if count is None else count
    return out / f"{name}-s{seed}-n{n}.nonpack"


def _rng(name: str, seed: int, k: int) -> random.Random:
    # A string seed is hashed with SHA-512 by `random`: stable across Python versions and platforms.
    return random.Random(f"{name}/{seed}/{k}")


def random30(seed: int, k: int) -> Puzzle:
    rng = _rng("random30", seed, k)
    cells = [[1 if rng.random() < 0.5 else 0 for _ in range(SIZE)] for _ in range(SIZE)]
    return _puzzle(cells, palette_for(1), f"random30 #{k + 1} (seed {seed})")


def colour30(seed: int, k: int) -> Puzzle:
    rng = _rng("colour30", seed, k)
    inks = 2 if k % 2 == 0 else 4  # 3 and 5 colours, background included
    cells = [[rng.randrange(inks + 1) for _ in range(SIZE)] for _ in range(SIZE)]
    return _puzzle(cells, palette_for(inks), f"colour30 #{k + 1}, {inks + 1} colours (seed {seed})")


def _puzzle(cells: list[list[int]], palette, title: str) -> Puzzle:  # noqa: ANN001 - a Palette
    grid = Grid.from_rows(cells)
    rows, cols = clues_of(grid)
    return Puzzle(rows, cols, palette, Meta(title=title, source="nonocp reference set", goal=grid)).validate()


MAKERS = {"random30": random30, "colour30": colour30}


def puzzles(name: str, seed: int = DEFAULT_SEED, count: int | None = None) -> list[Puzzle]:
    n = SETS[name] if count is None else count
    return [MAKERS[name](seed, k) for k in range(n)]


def write_set(name: str, out: Path = DEFAULT_OUT, seed: int = DEFAULT_SEED, count: int | None = None) -> Path:
    """Write one set (if it is not there yet) and return its path."""
    path = set_path(name, out, seed, count)
    if not path.exists():
        out.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(dumps(puzzles(name, seed, count), "nonpack"), encoding="utf-8")
        tmp.replace(path)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=sorted(SETS), action="append", help="one set (repeatable; default: both)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--count", type=int, default=None, help="puzzles per set (default: 5000 and 500)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    for name in args.set or sorted(SETS):
        print(write_set(name, args.out, args.seed, args.count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
