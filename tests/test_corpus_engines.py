"""Real corpus puzzles through every engine of tests/engines.py (a few fast ones; the whole corpora run in
benchmarks/crosscheck.py).

Oracles: the `goal` grids the files carry (for unique puzzles the engine must return exactly that grid),
picross-solver's validation.csv (exact solution counts), and the independent checker for every grid.
"""

from __future__ import annotations

import re

import pytest

from conftest import corpus_path
from nonocp.core.result import Status
from nonocp.core.verify import verify
from nonocp.engines import SolveOptions
from nonocp.formats import load

# (corpus path parts, puzzle title or None for a one-puzzle file, exact solution count)
WITH_GOALS = [
    (("webpbn-survey", "free", "webpbn-00001-demo.txt"), None, 1),
    (("webpbn-survey", "free", "webpbn-00006-Scardy Cat.txt"), None, 1),
    (("webpbn-survey", "free", "webpbn-00021-Slippery Conditions.txt"), None, 1),
    (("nonogram-db", "db", "webpbn", "26167.non"), None, 1),
    (("nonogram-db", "db", "qnonograms", "examples", "candle.non"), None, 1),
    (("nonogram-db", "db", "qnonograms", "examples", "mouse.non"), None, 1),
    (("nonogram-db", "db", "gnonograms", "spade.non"), None, 1),
    (("webpbn-survey", "xml-free", "webpbn-color-00047.xml"), None, 1),
]

# picross-solver test grids, with the counts of outputs/validation.csv (enumerated completely here)
COUNTED = [
    (("picross-solver", "inputs", "test_pattern_01.txt"), "Note", 1),
    (("picross-solver", "inputs", "test_pattern_04.txt"), "Katakana", 1),
    (("picross-solver", "inputs", "test_pattern_06.txt"), "Two Notes", 2),
    (("picross-solver", "inputs", "test_pattern_08.txt"), "Dots", 16),
    (("picross-solver", "inputs", "test_pattern_09.txt"), "Smile", 1),
    (("picross-solver", "inputs", "test_pattern_10.txt"), "Snake", 1),
    (("picross-solver", "inputs", "test_pattern_13.txt"), "Flip", 2),
    (("picross-solver", "inputs", "test_pattern_14.txt"), "Switch", 2),
    (("picross-solver", "inputs", "test_pattern_15.txt"), "Cross", 3),
    (("picross-solver", "inputs", "domino_logic.txt"), "3-Dom", 1),
    (("picross-solver", "inputs", "invalid_input.txt"), "Impossible", 0),
    (("picross-solver", "inputs", "invalid_input.txt"), "Zero", 0),
]


def _puzzle(parts, title):
    path = corpus_path(*parts)
    if title is None:
        [puzzle] = load(str(path))
        return puzzle
    if parts[-1] == "invalid_input.txt":
        # the file also holds deliberately broken grids (and a parse error at its end): read the good ones
        return _grid_from_invalid_file(path, title)
    matches = [p for p in load(str(path)) if p.title == title]
    assert len(matches) == 1, f"{title!r} not found once in {path}"
    return matches[0]


def _grid_from_invalid_file(path, title):
    from nonocp.formats import loads

    text = path.read_text()
    start = text.index(f"GRID {title}\n")
    following = re.search(r"^GR", text[start + 1:], re.MULTILINE)  # the next GRID, or the GRILL typo
    end = start + 1 + following.start() if following else len(text)
    return loads(text[start:end], "grid", str(path))[0]


def _ids(cases):
    return [f"{parts[-1]}:{title}" if title else parts[-1] for parts, title, _ in cases]


@pytest.mark.parametrize("case", WITH_GOALS, ids=_ids(WITH_GOALS))
def test_unique_corpus_puzzles_give_their_goal(engine, case):
    parts, title, count = case
    puzzle = _puzzle(parts, title)
    goal = puzzle.meta.goal
    assert goal is not None and verify(puzzle, goal).ok, "the reader or the file is wrong: the goal breaks the clues"
    result = engine.solve(puzzle, SolveOptions(max_solutions=2))
    assert all(verify(puzzle, g).ok for g in result.solutions)
    assert count == 1
    assert result.status is Status.UNIQUE
    assert result.solutions == (goal,)


@pytest.mark.parametrize("case", COUNTED, ids=_ids(COUNTED))
def test_picross_solver_counts_are_reproduced(engine, case):
    parts, title, count = case
    puzzle = _puzzle(parts, title)
    everything = engine.solve(puzzle, SolveOptions(max_solutions=None))
    assert everything.exhausted
    assert all(verify(puzzle, g).ok for g in everything.solutions)
    assert len(set(everything.solutions)) == len(everything.solutions) == count
    verdict = engine.solve(puzzle, SolveOptions(max_solutions=2))
    assert verdict.status is {0: Status.NONE, 1: Status.UNIQUE}.get(count, Status.MULTIPLE)
