"""Text grids fit 80 columns where they can, through the real command line: a grid wider than
the terminal (80 columns in a pipe or file) is drawn with cells touching, one column a cell for
single-digit column clues and two for two-digit ones; `--compact` always draws so; the cells drawn are the
solution's, whatever the layout."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import nonocp
from conftest import PUZZLES, ROOT


def run(*args: str, tmp=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonocp.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin", "COLUMNS": "300"})


def cells_drawn(text: str, height: int) -> list[str]:
    """The grid's rows as drawn: what follows ` | ` on the last `height` lines, spaces taken out."""
    rows = [line.split(" | ", 1)[1] for line in text.splitlines() if " | " in line]
    return ["".join(r.split()) for r in rows[-height:]]


def puzzle_file(tmp_path, width, height, longest_run, seed=1):
    rng = random.Random(seed)
    grid = []
    for _ in range(height):
        row, run_length = [], 0
        for _ in range(width):
            filled = rng.random() < 0.6 and run_length < longest_run
            run_length = run_length + 1 if filled else 0
            row.append("#" if filled else ".")
        grid.append("".join(row))
    path = tmp_path / f"p{width}x{height}.txt"
    path.write_text("\n".join(grid) + "\n")
    return path, grid


def test_a_40_wide_puzzle_fits_80_columns(tmp_path):
    path, grid = puzzle_file(tmp_path, 40, 12, longest_run=4)  # rows of 40 cells: column clues of one digit
    p = run("show", path, "--from", "picture")
    assert p.returncode == 0, p.stderr
    assert max(len(line) for line in p.stdout.splitlines()) <= 80, p.stdout
    assert cells_drawn(p.stdout, 12) == grid
    rows = [line for line in p.stdout.splitlines() if " | " in line]
    assert all(len(line.split(" | ", 1)[1]) == 40 for line in rows)  # one column a cell


def test_two_digit_clues_take_two_columns_a_cell_when_three_do_not_fit(tmp_path):
    width, height = 30, 24
    path, grid = puzzle_file(tmp_path, width, height, longest_run=30, seed=3)
    grid = ["#" * width if r % 3 else row for r, row in enumerate(grid)]  # full rows: column clues over 9
    path.write_text("\n".join(grid) + "\n")
    p = run("solve", path, "--from", "picture", "-b", "native")
    assert p.returncode == 0, p.stderr
    puzzle = nonocp.load(str(path), "picture")[0]
    assert max(len(str(b.length)) for c in puzzle.cols for b in c) == 2
    rows = [line.split(" | ", 1)[1] for line in p.stdout.splitlines() if " | " in line]
    assert rows and all(len(r) == 2 * width for r in rows), rows[:2]  # 2 columns a cell: 60 columns of cells
    if "unique solution" in p.stdout.splitlines()[0]:  # then the picture is the solution drawn
        assert cells_drawn(p.stdout, height) == grid


@pytest.mark.parametrize("command", ["show", "solve"])  # explain marks changed cells with a `*` after each
def test_compact_draws_one_column_a_cell(command):
    heart = PUZZLES / "heart.non"
    spaced = run(command, heart)
    compact = run(command, heart, "--compact")
    assert spaced.returncode == compact.returncode == 0
    assert "2 2 | . # # . . . # # ." in spaced.stdout
    assert "2 2 | .##...##." in compact.stdout and "      356666653" in compact.stdout
    assert cells_drawn(compact.stdout, 8) == cells_drawn(spaced.stdout, 8)


def test_the_api_keeps_its_layout_after_a_command_ran_in_process():
    from typer.testing import CliRunner

    from nonocp.cli.app import app

    assert CliRunner().invoke(app, ["show", str(PUZZLES / "heart.non"), "--compact"]).exit_code == 0
    heart = nonocp.load(PUZZLES / "heart.non")[0]
    assert "2 2 | . # # . . . # # ." in nonocp.render_text(heart, heart.meta.goal)
