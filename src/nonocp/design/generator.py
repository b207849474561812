"""generate: random puzzles with exactly one solution at a chosen difficulty, the same for the same seed.

Each puzzle starts as a random picture: a grid of random numbers, smoothed (each cell averaged with its
neighbours, `smooth` times) so that it has shapes rather than static, then the `density` share of cells
with the highest values filled. With colours, a second smoothed field splits the filled cells into
`colors` equal shares, so each colour forms patches. make_unique then repaints a few cells until the
picture is unique (with LINE, until line logic alone solves it). PROBE and BRANCH puzzles are rare among
random pictures, so when the result is easier than asked, `harden` walks it to harder unique puzzles
(see there). The result is proven unique by two engines and rated (nonocp.analysis.rate); a puzzle
whose rating is not the one asked for is dropped and the next random picture tried.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from nonocp.core.errors import NonocpError, OutOfTime
from nonocp.core.grid import Grid
from nonocp.core.palette import WHITE, Color, Palette
from nonocp.core.puzzle import Meta, Puzzle
from nonocp.core.result import Status
from nonocp.design.checks import SEARCH_ENGINE, prove_unique, puzzle_of, run_solve, undecided
from nonocp.design.model import Design, to_lists
from nonocp.design.unique import DIFFICULTIES, make_unique

# Colours for generated colour puzzles, chosen to be told apart easily (and from the white background).
COLOURS = (
    ("black", "#000000"), ("red", "#e6194b"), ("blue", "#4363d8"), ("green", "#3cb44b"), ("orange", "#f58231"),
    ("purple", "#911eb4"), ("teal", "#469990"), ("brown", "#9a6324"), ("magenta", "#f032e6"), ("olive", "#808000"),
)
MAX_SIDE = 100


@dataclass(frozen=True)
class Generated:
    """One generated puzzle: `puzzle` (its goal is the picture), its `rating`, and how it was found."""

    puzzle: Puzzle
    difficulty: str
    rating: Any
    seed: str  # reproduces this very puzzle with generate_one
    attempts: int  # random pictures tried before this one was kept
    changes: int  # cells repainted in the random picture to make it unique (and as hard as asked)
    seconds: float  # for this puzzle, the rejected pictures included

    def as_dict(self) -> dict[str, Any]:
        return {"title": self.puzzle.title, "difficulty": self.difficulty, "seed": self.seed,
                "attempts": self.attempts, "changes": self.changes, "seconds": round(self.seconds, 3),
                "rating": self.rating.as_dict() if self.rating is not None else None}


def palette_for(colors: int) -> Palette:
    if not 1 <= colors <= len(COLOURS):
        raise NonocpError(f"--colors {colors}: choose 1 to {len(COLOURS)}")
    if colors == 1:
        return Palette.black_and_white()
    symbols = "abcdefghij"
    return Palette((WHITE, *(Color(name, rgb, symbols[i]) for i, (name, rgb) in enumerate(COLOURS[:colors]))))


def _field(rng: random.Random, width: int, height: int, smooth: int) -> list[float]:
    values = [rng.random() for _ in range(width * height)]
    for _ in range(smooth):
        out = []
        for r in range(height):
            for c in range(width):
                total, n = 0.0, 0
                for rr in range(max(0, r - 1), min(height, r + 2)):
                    for cc in range(max(0, c - 1), min(width, c + 2)):
                        total += values[rr * width + cc]
                        n += 1
                out.append(total / n)
        values = out
    return values


def random_picture(rng: random.Random, width: int, height: int, colors: int, density: float, smooth: int) -> Grid:
    """A random picture with round(density * cells) filled cells (see the module docstring)."""
    n = width * height
    shape = _field(rng, width, height, smooth)
    filled = sorted(range(n), key=lambda i: (-shape[i], i))[: round(density * n)]
    cells = [0] * n
    if colors == 1:
        for i in filled:
            cells[i] = 1
    else:
        hue = _field(rng, width, height, smooth)
        ranked = sorted(filled, key=lambda i: (hue[i], i))
        for k, i in enumerate(ranked):
            cells[i] = 1 + k * colors // len(ranked)
    return Grid(tuple(tuple(cells[r * width:(r + 1) * width]) for r in range(height)))


def logic_level(x: list[list[int]], palette: Palette, deadline: float | None) -> str:
    """LINE, PROBE or BRANCH by the native engine's fixpoints, for a picture known to be unique."""
    puzzle = puzzle_of(x, palette)
    if not undecided(puzzle, False, deadline):
        return "LINE"
    return "PROBE" if not undecided(puzzle, True, deadline) else "BRANCH"


def harden(x: list[list[int]], palette: Palette, target: str, rng: random.Random, deadline: float | None,
           steps: int = 40, sample: int = 60, finalists: int = 4) -> bool:
    """Repaint cells of the unique picture `x` (in place), one at a time, keeping it unique, until it
    needs `target` (PROBE or BRANCH) logic; False when `steps` changes did not get there.

    Each step tries `sample` random cells and keeps, among the repaintings that keep the picture unique,
    the one that leaves line logic the most cells undecided; for BRANCH, the `finalists` best of those
    are also probed and the one probing leaves most undecided wins (any: that is a BRANCH puzzle).
    Puzzles that need guessing are rare among random pictures (a few in a thousand tournament puzzles);
    this walk finds them in tens of steps.
    """
    h, w = len(x), len(x[0])
    ncolors = len(palette)
    cells = [(r, c) for r in range(h) for c in range(w)]
    for _ in range(steps):
        level = logic_level(x, palette, deadline)
        if DIFFICULTIES.index(level) >= DIFFICULTIES.index(target):
            return level == target
        rng.shuffle(cells)
        scored: list[tuple[int, int, int, int]] = []  # (line-open, row, col, colour), unique ones only
        for r, c in cells[:sample]:
            old = x[r][c]
            x[r][c] = rng.choice([v for v in range(ncolors) if v != old])
            puzzle = puzzle_of(x, palette)
            score = undecided(puzzle, False, deadline)
            if score and run_solve(puzzle, SEARCH_ENGINE, 2, deadline).status is Status.UNIQUE:
                if target == "PROBE" and not undecided(puzzle, True, deadline):
                    return True  # line logic stalls and probing finishes: exactly what was asked
                scored.append((score, r, c, x[r][c]))
            x[r][c] = old
        if not scored:
            return False
        scored.sort(reverse=True)
        best = scored[0]
        if target == "BRANCH":
            ranked = []
            for line_open, r, c, v in scored[:finalists]:
                old = x[r][c]
                x[r][c] = v
                ranked.append((undecided(puzzle_of(x, palette), True, deadline), line_open, r, c, v))
                x[r][c] = old
            best = max(ranked)[1:]
        _, r, c, v = best
        x[r][c] = v
    return logic_level(x, palette, deadline) == target


def generate_one(width: int, height: int, seed: str, *, colors: int = 1, density: float = 0.5,
                 difficulty: str | None = None, smooth: int = 1, time_limit: float | None = None,
                 title: str = "") -> Generated | None:
    """One try: the puzzle grown from the random picture `seed` makes, or None when it does not reach
    `difficulty` (or the time runs out)."""
    start = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    rng = random.Random(seed)
    palette = palette_for(colors)
    picture = random_picture(rng, width, height, colors, density, smooth)
    level = difficulty if difficulty in ("LINE", "PROBE") else None
    result = make_unique(Design(picture, palette, title), max_difficulty=level, time_limit=time_limit,
                         rate_result=False)
    if not result.unique:
        return None
    goal = result.design.grid
    try:
        if difficulty in ("PROBE", "BRANCH") and logic_level(to_lists(goal), palette, deadline) != difficulty:
            x = to_lists(goal)
            if not harden(x, palette, difficulty, rng, deadline):
                return None
            goal = Grid.from_rows(x)
            prove_unique(goal, palette, deadline)  # hardening kept it unique by one engine: prove by two
        from nonocp.analysis.rate import rate

        rest = None if deadline is None else max(0.05, deadline - time.monotonic())
        rating = rate(Design(goal, palette).puzzle(), rest)
    except OutOfTime:
        return None
    if difficulty is not None and rating.verdict != difficulty:
        return None
    base = Design(goal, palette).puzzle()
    puzzle = Puzzle(base.rows, base.cols, palette, Meta(title=title, author="nonocp generate", license="CC0-1.0",
                                                       source=f"nonocp generate, seed {seed}", goal=goal))
    changes = sum(a != b for ra, rb in zip(picture.cells, goal.cells, strict=True) for a, b in zip(ra, rb, strict=True))
    return Generated(puzzle, rating.verdict, rating, seed, 1, changes, time.perf_counter() - start)


def generate(width: int, height: int, *, colors: int = 1, density: float = 0.5, difficulty: str | None = None,
             count: int = 1, seed: int | str = 0, smooth: int | None = None, max_attempts: int = 200,
             time_limit: float | None = None, progress=None, attempting=None) -> list[Generated]:
    """`count` random puzzles of `width` x `height` with exactly one solution (each proven by two
    engines), `colors` colours besides the background, about `density` of the cells filled, rated
    `difficulty` (LINE, PROBE, BRANCH, or None for any). The same arguments give the same puzzles.

    Puzzle i (from 1) tries the random pictures of seeds "`seed`/i/1", "`seed`/i/2", ... until one is
    rated as asked; NonocpError after `max_attempts` failures, OutOfTime when one puzzle takes more
    than `time_limit` seconds. `progress`, if given, is called with each puzzle as it is found, and
    `attempting(i, attempt)` before each random picture is tried for puzzle i. `smooth`
    defaults to 1, and to 0 for BRANCH: scattered dots are where puzzles that need guessing are found
    (tens of times faster than from smoothed shapes).
    """
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise NonocpError(f"--size {width}x{height}: each side must be 1 to {MAX_SIDE}")
    if not 0.0 <= density <= 1.0:
        raise NonocpError(f"--density {density}: choose a share of filled cells from 0 to 1")
    if count < 1:
        raise NonocpError(f"--count {count}: must be at least 1")
    level = None if difficulty is None else difficulty.upper()
    if level is not None and level not in DIFFICULTIES:
        raise NonocpError(f"--difficulty {difficulty}: choose {', '.join(DIFFICULTIES)}")
    palette_for(colors)
    if smooth is None:
        smooth = 0 if level == "BRANCH" else 1
    out: list[Generated] = []
    for i in range(1, count + 1):
        began = time.perf_counter()
        deadline = None if time_limit is None else time.monotonic() + time_limit
        for attempt in range(1, max_attempts + 1):
            rest = None
            if deadline is not None:
                rest = deadline - time.monotonic()
                if rest <= 0:
                    raise OutOfTime(f"puzzle {i} of {count} was not found within the time limit")
            if attempting is not None:
                attempting(i, attempt)
            title = f"Random {width}x{height} #{i}"
            found = generate_one(width, height, f"{seed}/{i}/{attempt}", colors=colors, density=density,
                                    difficulty=level, smooth=smooth, time_limit=rest, title=title)
            if found is not None:
                found = Generated(found.puzzle, found.difficulty, found.rating, found.seed, attempt, found.changes,
                                  time.perf_counter() - began)
                out.append(found)
                if progress is not None:
                    progress(found)
                break
        else:
            raise NonocpError(
                f"no {level or 'unique'} {width}x{height} puzzle in {max_attempts} random pictures "
                f"(try another --density or --difficulty)"
            )
    return out

