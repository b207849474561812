"""The team's puzzles (puzzles/): every one reads, has its recorded solution count with every engine
available here, and carries a `goal` exactly when it is unique (then the goal is the solution).

The counts in puzzles/expected.tsv were measured once by puzzles/tools/make_puzzles.py --count; the small
puzzles are also checked against the brute-force oracle, independently of every engine.
"""

from __future__ import annotations

import functools
import importlib
import math

import pytest

from conftest import PUZZLES, ROOT
from nonocp.engines import SolveOptions
from nonocp.formats import load
from oracle import brute_force, count_lines, line_solutions

PUZZLE_EXTENSIONS = (".non", ".nonpack", ".counts", ".json")


def expected_rows() -> list[tuple[str, int, int, str]]:
    """(file, puzzle number from 1, solution count, status) per line of expected.tsv."""
    lines = (PUZZLES / "expected.tsv").read_text().splitlines()
    assert lines[0].split("\t") == ["file", "puzzle", "solutions", "status"]
    out = []
    for line in lines[1:]:
        if line.strip():
            name, index, count, status = line.split("\t")
            out.append((name, int(index), int(count), status))
    return out


EXPECTED = expected_rows()
IDS = [f"{name}#{i}" for name, i, _, _ in EXPECTED]


@functools.cache
def puzzles_in(name: str):
    return load(str(PUZZLES / name))


def the_puzzle(name: str, index: int):
    return puzzles_in(name)[index - 1]


def test_every_puzzle_file_is_listed_once_per_puzzle():
    files = sorted(p.name for p in PUZZLES.iterdir() if p.suffix in PUZZLE_EXTENSIONS)
    listed = sorted({name for name, _, _, _ in EXPECTED})
    assert files == listed
    for name in files:
        assert sorted(i for n, i, _, _ in EXPECTED if n == name) == list(range(1, len(puzzles_in(name)) + 1))


def test_the_collection_covers_what_the_issue_asks():
    puzzles = [(the_puzzle(n, i), count) for n, i, count, _ in EXPECTED]
    assert len(puzzles) >= 12
    assert any(p.width == p.height == 1 for p, _ in puzzles)
    assert any(any(not clue for clue in p.rows + p.cols) for p, _ in puzzles)  # empty lines
    assert any(count >= 2 for _, count in puzzles) and any(count == 0 for _, count in puzzles)
    colours = {len(p.palette) - 1 for p, _ in puzzles if not p.has_counts}
    assert {1, 2, 3, 4, 5} <= colours  # black and white, and 2 to 5 colours


def test_the_count_clue_puzzles_cover_what_their_issue_asks():
    """Count-and-contiguity puzzles: hand-drawn and generated, 5x5 to 20x20, 2 to 6 colours (no background),
    every verdict, in both file forms."""
    counted = [(the_puzzle(n, i), n, count) for n, i, count, _ in EXPECTED if the_puzzle(n, i).has_counts]
    assert {len(p.palette) for p, _, _ in counted} == {2, 3, 4, 5, 6}
    assert min(p.width * p.height for p, _, _ in counted) == 25
    assert any(p.width == p.height == 20 for p, _, _ in counted)
    assert {min(count, 2) for _, _, count in counted} == {0, 1, 2}
    assert {name.rsplit(".", 1)[1] for _, name, _ in counted} == {"counts", "json"}
    assert {p.meta.source == "hand-drawn" for p, _, _ in counted} == {True, False}


@pytest.mark.parametrize("name,index,count,status", EXPECTED, ids=IDS)
def test_goal_present_exactly_when_unique(name, index, count, status):
    p = the_puzzle(name, index)
    p.validate()
    assert status == {0: "none", 1: "unique"}.get(count, "multiple")
    if count == 1:
        assert p.meta.goal is not None and p.is_solution(p.meta.goal)
    else:
        assert p.meta.goal is None


@pytest.mark.parametrize("name,index,count,status", EXPECTED, ids=IDS)
def test_recorded_count_with_every_engine(engine_name, engine, name, index, count, status):
    p = the_puzzle(name, index)
    # one more than recorded: finding exactly `count` and exhausting the search proves the count
    result = engine.solve(p, SolveOptions(max_solutions=count + 1))
    assert len(result.solutions) == count, f"{engine_name} found {len(result.solutions)}, recorded {count}"
    assert result.exhausted and str(result.status) == status
    assert all(p.is_solution(g) for g in result.solutions)
    assert len(set(result.solutions)) == count
    if count == 1:
        assert result.solutions[0] == p.meta.goal


def search_space(p) -> int:
    if p.has_counts:
        return math.prod(len(count_lines(clue, p.width)) for clue in p.rows)
    return math.prod(len(line_solutions(clue, p.width, len(p.palette))) for clue in p.rows)


SMALL = [row for row in EXPECTED if the_puzzle(row[0], row[1]).width <= 9
         and search_space(the_puzzle(row[0], row[1])) <= 200_000]


@pytest.mark.parametrize("name,index,count,status", SMALL, ids=[f"{r[0]}#{r[1]}" for r in SMALL])
def test_recorded_count_against_the_brute_force_oracle(name, index, count, status):
    p = the_puzzle(name, index)
    solutions = brute_force(p)
    assert len(solutions) == count
    if count == 1:
        assert solutions[0] == p.meta.goal


def test_oracle_covers_each_verdict():
    assert {status for *_, status in SMALL} == {"unique", "multiple", "none"}


def test_generator_reproduces_the_files(monkeypatch):
    """The recorded seeds and pictures still give exactly these puzzles (clues, colours, goals)."""
    monkeypatch.syspath_prepend(str(ROOT / "puzzles" / "tools"))
    make_puzzles = importlib.import_module("make_puzzles")
    generated = make_puzzles.all_files()
    assert sorted(generated) == sorted({name for name, *_ in EXPECTED})
    for name, puzzles in generated.items():
        on_disk = puzzles_in(name)
        assert [p.fingerprint() for p in puzzles] == [p.fingerprint() for p in on_disk], name
        for made, read in zip(puzzles, on_disk, strict=True):
            assert read.title == made.title
            if read.meta.goal is not None:
                assert read.meta.goal == made.meta.goal
