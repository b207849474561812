"""models/nonogram.mzn, run through MiniZinc with Gecode, agrees with the cpsat engine and the oracle.

Skips cleanly when `minizinc` (Debian: `apt-get install -y --no-install-recommends minizinc`, which brings
Gecode) is not installed.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, backend_or_skip, corpus_path
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Puzzle
from nonocp.engines import SolveOptions
from oracle import brute_force
from strategies import palette_of, puzzle_from_grid

MODEL = ROOT / "models" / "nonogram.mzn"
MINIZINC = shutil.which("minizinc")

pytestmark = pytest.mark.skipif(MINIZINC is None, reason="minizinc is not installed (apt-get install minizinc)")


def dzn_of(puzzle: Puzzle) -> str:
    """The MiniZinc data file for `puzzle`: lines are the rows, then the columns; blocks padded with 0."""
    lines = list(puzzle.rows) + list(puzzle.cols)
    maxb = max(1, max(len(clue) for clue in lines))

    def table(values) -> str:
        return "[|" + "|".join(",".join(str(v) for v in row) for row in values) + "|]"

    pad = [[b.length for b in clue] + [0] * (maxb - len(clue)) for clue in lines]
    colors = [[b.color for b in clue] + [0] * (maxb - len(clue)) for clue in lines]
    return "\n".join(
        [
            f"H = {puzzle.height};",
            f"W = {puzzle.width};",
            f"K = {len(puzzle.palette)};",
            f"MAXB = {maxb};",
            f"nb = [{','.join(str(len(clue)) for clue in lines)}];",
            f"len = {table(pad)};",
            f"col = {table(colors)};",
            "",
        ]
    )


def minizinc_solutions(puzzle: Puzzle, tmp_path: Path, limit: int | None = None) -> tuple[list[Grid], bool]:
    """(solutions, search complete) from MiniZinc + Gecode: all of them, or the first `limit`."""
    data = tmp_path / "puzzle.dzn"
    data.write_text(dzn_of(puzzle))
    cmd = [MINIZINC, "--solver", "gecode", str(MODEL), str(data)]
    cmd += ["-a"] if limit is None else ["-n", str(limit)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    solutions, complete = [], False
    for chunk in done.stdout.split("----------"):
        text = chunk.strip()
        if text.startswith("=========="):
            complete = True  # every solution has been printed
            continue
        if text == "=====UNSATISFIABLE=====":
            return [], True
        if text:
            solutions.append(Grid.from_rows([[int(v) for v in row.split(",")] for row in text.splitlines()]))
    return solutions, complete


def cpsat(puzzle: Puzzle, limit: int | None):
    return backend_or_skip("cpsat").solve(puzzle, SolveOptions(max_solutions=limit))


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


RGB = palette_of(4)
HAND_MADE = {
    "1x1 white": Puzzle(((),), ((),)),
    "diagonal 2x2": Puzzle((B(1), B(1)), (B(1), B(1))),
    "3x3 permutations": Puzzle((B(1),) * 3, (B(1),) * 3),
    "no solution": Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ())),
    "same colour needs a gap": Puzzle(((Block(1, 1), Block(1, 1)),), ((Block(1, 1),), (), (Block(1, 1),)), RGB),
    "colours touch": Puzzle(((Block(1, 1), Block(1, 2)),), ((Block(1, 1),), (Block(1, 2),)), RGB),
}


@pytest.mark.parametrize("name", list(HAND_MADE))
def test_hand_made_all_solutions_match_cpsat_and_oracle(name, tmp_path):
    puzzle = HAND_MADE[name]
    found, complete = minizinc_solutions(puzzle, tmp_path)
    assert complete
    assert set(found) == set(brute_force(puzzle))
    assert set(found) == set(cpsat(puzzle, None).solutions)


def random_puzzles(n: int, seed: int):
    """Small random puzzles (their grid among the solutions), black-and-white and colour, fixed seed."""
    rng = random.Random(seed)
    for _ in range(n):
        k = rng.choice([2, 3, 4])
        w, h = rng.randint(1, 5), rng.randint(1, 5)
        grid = Grid.from_rows([[rng.randrange(k) if rng.random() < 0.6 else 0 for _ in range(w)] for _ in range(h)])
        yield puzzle_from_grid(grid, palette_of(k)), grid


@pytest.mark.parametrize("seed", range(2))
def test_random_small_puzzles_match_cpsat(seed, tmp_path):
    for puzzle, grid in random_puzzles(4, seed):
        found, complete = minizinc_solutions(puzzle, tmp_path)
        assert complete and grid in found
        assert len(set(found)) == len(found)
        assert set(found) == set(cpsat(puzzle, None).solutions)


@pytest.mark.parametrize("name", ["webpbn-00001-demo.txt", "webpbn-00023-Test Pattern.txt"])
def test_survey_puzzles_unique_like_cpsat(name, tmp_path):
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", name)))[0]
    found, complete = minizinc_solutions(puzzle, tmp_path, limit=2)
    result = cpsat(puzzle, 2)
    assert complete and found == [puzzle.meta.goal]
    assert result.unique and result.solutions == (puzzle.meta.goal,)


def test_colour_survey_puzzle_matches_cpsat(tmp_path):
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "xml-free", "webpbn-color-00047.xml")))[0]
    found, complete = minizinc_solutions(puzzle, tmp_path, limit=2)
    result = cpsat(puzzle, 2)
    assert complete and len(found) == len(result.solutions)
    assert set(found) == set(result.solutions)
    assert all(puzzle.is_solution(g) for g in found)
