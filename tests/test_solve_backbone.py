"""`nonocp solve --backbone`: which cells are the same in every solution, through the command line.

The JSON `backbone` object is checked against oracles that list every solution: brute force
(tests/oracle.py) where it is feasible (tiny puzzles, hypothesis-made puzzles, the team's Eyes), and on
the team's bigger multi-solution puzzles (where brute force would try 10^13 grids) a full enumeration by
another engine whose count must equal puzzles/expected.tsv. A cell is ambiguous iff two solutions differ
there. Exit codes: 1 when there is no solution, 3 when the backbone was not decided in time.
"""

from __future__ import annotations

import csv
import json

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

import nonocp.engines
from conftest import PUZZLES, examples
from engines import ENGINES
from nonocp.cli.app import app
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Meta, Puzzle
from nonocp.core.result import SolveResult, Status, status_of
from nonocp.engines import Backend, SolveOptions
from nonocp.engines.solve import solve
from nonocp.formats import dumps, load
from oracle import brute_force
from strategies import puzzles_with_grid

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def backbone_json(path, engine: str, *more):
    r = run("solve", path, "--backbone", "-b", engine, "-f", "json", *more)
    docs = [json.loads(line) for line in r.stdout.splitlines()]
    return r, docs


def expected_answers() -> dict[tuple[str, int], tuple[int, str]]:
    with open(PUZZLES / "expected.tsv", newline="") as f:
        return {
            (row["file"], int(row["puzzle"])): (int(row["solutions"]), row["status"])
            for row in csv.DictReader(f, delimiter="\t")
        }


EXPECTED = expected_answers()


def assert_backbone_of(puzzle: Puzzle, doc: dict, solutions: list[Grid]) -> None:
    """The JSON backbone says exactly what the complete list of solutions says, cell by cell."""
    bb = doc["backbone"]
    symbols = [c.symbol for c in puzzle.palette.colors]
    assert bb["exact"] is True
    taken = {
        (r, c): {symbols[g.cells[r][c]] for g in solutions} for r in range(puzzle.height) for c in range(puzzle.width)
    }
    ambiguous = {rc: values for rc, values in taken.items() if len(values) > 1}
    assert {(a["row"], a["col"]): set(a["colors"]) for a in bb["ambiguous"]} == ambiguous
    assert bb["ambiguous_cells"] == len(ambiguous)
    assert bb["fixed_cells"] == puzzle.width * puzzle.height - len(ambiguous)
    expected_rows = [
        "".join("?" if (r, c) in ambiguous else next(iter(taken[(r, c)])) for c in range(puzzle.width))
        for r in range(puzzle.height)
    ]
    assert bb["rows"] == expected_rows
    # the normal contract fields are still there, and agree
    assert doc["status"] == ("unique" if len(solutions) == 1 else "multiple")
    assert bb["status"] == doc["status"]
    shown = [Grid.from_strings(rows, puzzle.palette) for rows in doc["solutions"]]
    assert shown and all(g in solutions for g in shown)


# --- the oracles: brute force where feasible -----------------------------------------------------------


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


PERMUTATIONS = Puzzle((B(1),) * 3, (B(1),) * 3, meta=Meta(title="Permutations"))  # 6 solutions, all cells vary
PARTLY = Puzzle((B(1, 1), B(1, 1)), (B(2), (), B(1), B(1)), meta=Meta(title="Partly"))  # 2 solutions, 4 cells vary


def write(tmp_path, name: str, puzzle: Puzzle) -> str:
    path = tmp_path / name
    path.write_text(dumps(puzzle, "non"))
    return str(path)


@pytest.mark.parametrize("puzzle", [PERMUTATIONS, PARTLY], ids=["permutations", "partly"])
def test_hand_made_tiny_puzzles_match_brute_force(tmp_path, engine_name, puzzle):
    r, [doc] = backbone_json(write(tmp_path, "p.non", puzzle), engine_name)
    assert r.exit_code == 0, r.output
    assert_backbone_of(puzzle, doc, brute_force(puzzle))


@pytest.mark.parametrize("name", ["eyes.non", "heart.non", "window.non", "dot.non"])
def test_team_puzzles_match_brute_force(engine_name, name):
    r, [doc] = backbone_json(PUZZLES / name, engine_name)
    assert r.exit_code == 0, r.output
    puzzle = load(str(PUZZLES / name))[0]
    solutions = brute_force(puzzle)
    assert len(solutions) == EXPECTED[(name, 1)][0]
    assert_backbone_of(puzzle, doc, solutions)


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=puzzles_with_grid(max_size=4))
def test_random_tiny_puzzles_match_brute_force(tmp_path, engine_name, data):
    puzzle, _ = data
    r, [doc] = backbone_json(write(tmp_path, "random.non", puzzle), engine_name)
    assert r.exit_code == 0, r.output
    assert_backbone_of(puzzle, doc, brute_force(puzzle))


# --- bigger team puzzles: a full enumeration by another engine is the oracle ---------------------------

BIG_MULTIPLE = ["smiley.non", "cherries.non", "gen-bw-15x15.non", "gen-c3-12x12.non", "gen-c5-10x10.non"]


def every_solution_by_another_engine(puzzle: Puzzle, engine: str, name: str) -> list[Grid]:
    other = next(e for e in [*ENGINES, engine] if e != engine or len(ENGINES) == 1)  # another, if there is one
    result = solve(puzzle, other, max_solutions=None)
    assert result.exhausted
    assert len(result.solutions) == EXPECTED[(name, 1)][0], f"{other} enumerated {len(result.solutions)}"
    return list(result.solutions)


@pytest.mark.parametrize("name", BIG_MULTIPLE)
def test_bigger_multi_solution_puzzles_match_a_full_enumeration(engine_name, name):
    puzzle = load(str(PUZZLES / name))[0]
    r, [doc] = backbone_json(PUZZLES / name, engine_name)
    assert r.exit_code == 0, r.output
    assert doc["backbone"]["ambiguous_cells"] > 0  # several solutions always differ somewhere
    assert_backbone_of(puzzle, doc, every_solution_by_another_engine(puzzle, engine_name, name))


# --- unique, none, bundles ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["fish.non", "gen-bw-20x20.non"])  # colour, black and white
def test_unique_puzzle_has_no_ambiguous_cell(engine_name, name):
    r, [doc] = backbone_json(PUZZLES / name, engine_name)
    assert r.exit_code == 0, r.output
    bb = doc["backbone"]
    assert doc["status"] == bb["status"] == "unique"
    assert bb["exact"] and bb["ambiguous"] == [] and bb["ambiguous_cells"] == 0
    assert bb["rows"] == doc["solutions"][0]  # every cell fixed, to the one solution's colour
    text = run("solve", PUZZLES / name, "--backbone", "-b", engine_name)
    assert text.exit_code == 0 and "every cell fixed" in text.stdout and grid_lines(text.stdout).count("?") == 0


@pytest.mark.parametrize("name", ["no-way.non", "gen-none-10x10.non"])
def test_no_solution_exits_1(engine_name, name):
    r, [doc] = backbone_json(PUZZLES / name, engine_name)
    assert r.exit_code == 1, r.output
    assert doc["status"] == doc["backbone"]["status"] == "none"
    assert doc["backbone"]["exact"] and doc["backbone"]["ambiguous_cells"] == 0 and doc["backbone"]["fixed_cells"] == 0
    assert doc["backbone"]["rows"] is None  # no solution, no grid (not a grid of "?")
    text = run("solve", PUZZLES / name, "--backbone", "-b", engine_name)
    assert text.exit_code == 1 and "no solution" in text.stdout


def test_bundle_gets_one_backbone_per_puzzle():
    r, docs = backbone_json(PUZZLES / "gen-bundle.nonpack", "native")
    assert r.exit_code == 0, r.output
    assert len(docs) == 4
    assert all(d["backbone"]["exact"] and d["backbone"]["ambiguous_cells"] == 0 for d in docs)


# --- text and pictures ---------------------------------------------------------------------------------


def grid_lines(text: str) -> str:
    """The grid part of a text picture (the lines after the `+---` frame)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("+"))
    return "\n".join(line.split("|", 1)[1] for line in lines[start + 1 :] if "|" in line)


def test_text_marks_exactly_the_ambiguous_cells():
    r, [doc] = backbone_json(PUZZLES / "smiley.non", "native")
    text = run("solve", PUZZLES / "smiley.non", "--backbone")
    assert text.exit_code == 0
    assert grid_lines(text.stdout).count("?") == doc["backbone"]["ambiguous_cells"]
    assert "backbone:" in text.stdout
    # the grid, read back: `?` where the JSON says `?`, `#` where it says 1
    cells = ["".join(grid_lines(text.stdout).splitlines()[r].split()) for r in range(10)]
    assert [row.replace("#", "1").replace(".", "0") for row in cells] == doc["backbone"]["rows"]


def test_svg_and_png_mark_the_ambiguous_cells(tmp_path):
    out = tmp_path / "smiley.svg"
    r = run("solve", PUZZLES / "smiley.non", "--backbone", "-f", "svg", "-o", out)
    assert r.exit_code == 0, r.output
    svg = out.read_text()
    _, [doc] = backbone_json(PUZZLES / "smiley.non", "native")
    marked = svg.split('class="marked"', 1)[1].split("</g>", 1)[0]  # one checkered square per marked cell
    crossed = {(a["row"], a["col"]) for a in doc["backbone"]["ambiguous"]}
    assert marked.count("<rect") == len(crossed) > 0 and 'fill="url(#undecided)"' in svg
    assert all(f'data-row="{r}" data-col="{c}"' in marked for r, c in crossed)
    png = tmp_path / "smiley.png"
    assert run("solve", PUZZLES / "smiley.non", "--backbone", "-f", "png", "-o", png).exit_code == 0
    assert png.read_bytes().startswith(b"\x89PNG")


def test_backbone_with_format_non_is_a_usage_error():
    r = run("solve", PUZZLES / "smiley.non", "--backbone", "-f", "non")
    assert r.exit_code == 2


# --- out of time: exit 3 ------------------------------------------------------------------------------


class TimeoutBackend(Backend):
    """Never reaches a verdict (a solution found, then the time ran out)."""

    name = "always-timeout"

    def available(self) -> bool:
        return True

    def version(self) -> str:
        return "test"

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        return SolveResult(Status.TIMEOUT, tuple(brute_force(puzzle, 1)), False, self.name, 0.0)


class QueriesTimeOutBackend(TimeoutBackend):
    """Answers the plain solve (brute force), times out on every backbone query (cells restricted)."""

    name = "queries-timeout"

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        if options.fixed:
            return SolveResult(Status.TIMEOUT, (), False, self.name, 0.0)
        every = brute_force(puzzle)
        found = every if options.max_solutions is None else every[: options.max_solutions]
        exhausted = len(found) == len(every) and (options.max_solutions is None or len(every) < options.max_solutions)
        return SolveResult(status_of(len(found), exhausted, options.max_solutions), tuple(found), exhausted, self.name)


@pytest.fixture
def fakes(monkeypatch):
    for cls in (TimeoutBackend, QueriesTimeOutBackend):
        monkeypatch.setitem(nonocp.engines.BACKENDS, cls.name, f"{__name__}:{cls.__name__}")


def test_timeout_everywhere_exits_3(tmp_path, fakes):
    r, [doc] = backbone_json(write(tmp_path, "p.non", PERMUTATIONS), "always-timeout")
    assert r.exit_code == 3, r.output
    assert doc["status"] == "timeout" and doc["backbone"]["exact"] is False


def test_backbone_not_decided_in_time_exits_3_even_when_the_solve_answered(tmp_path, fakes):
    path = write(tmp_path, "p.non", PERMUTATIONS)
    r, [doc] = backbone_json(path, "queries-timeout")
    assert r.exit_code == 3, r.output
    assert doc["status"] == "multiple"  # the plain solve's verdict is kept
    assert doc["backbone"]["status"] == "multiple" and doc["backbone"]["exact"] is False
    text = run("solve", path, "--backbone", "-b", "queries-timeout")
    assert text.exit_code == 3 and "inexact" in text.stdout
    # without --backbone the same engine answers `multiple`: exit 0
    assert run("solve", path, "-b", "queries-timeout").exit_code == 0
