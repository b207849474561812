"""Every file of the shared corpus (about 30,500 puzzles) goes through nonocp.formats.load.

What must hold: nothing but NonocpError ever escapes; every rejection reads `file:line: reason` (or
`file: reason` when no line applies, e.g. a file of unknown format); every solution a file carries
matches its clues. The counts are printed (run with `-s` to see them) and the set of rejected puzzle
files is pinned, so a reader that starts rejecting a good file (or accepting a broken one) fails here.

The default (quick) run reads every 15th file of the corpus, the known-broken ones always included; with
NONOCP_TEST_DEPTH=full it reads every file and pins the exact counts. The whole corpus takes ~2 minutes on
a laptop but far longer on the slow CI machines here.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from conftest import CORPUS, FULL_DEPTH, corpus_path
from nonocp.core.errors import InvalidPuzzleError, NonocpError, ParseError
from nonocp.core.puzzle import clues_of
from nonocp.formats import load


# Files that hold no puzzle (documentation, licences, a results table).
def is_documentation(path: Path) -> bool:
    name = path.name.lower()
    return name.endswith((".md", ".csv")) or name.startswith(("readme", "license", "licence"))


# Puzzle files that are rejected on purpose, with the reason each must give.
EXPECTED_REJECTIONS = {
    "number-loom/puzzles/cut_and_polished.xml": "triddler",  # triangular grids
    "number-loom/puzzles/wake_up.xml": "triddler",
    "pbnsolve-examples/examples/alladin.g": "triangle",  # triangle cells
    "picross-solver/inputs/invalid_input.txt": "GRILL",  # the upstream deliberate syntax error
}


# Every STRIDE-th file (in sorted walk order) is read; 1 reads them all.
STRIDE = 1 if FULL_DEPTH else 15


def _scan() -> dict:
    stats: dict = {
        "files": 0, "read": 0, "doc_files": 0, "puzzle_files": 0, "puzzles": 0, "with_goal": 0, "goal_mismatch": [],
        "rejected": {}, "invalid": Counter(), "formats": Counter(), "unexpected": [],
    }
    for root, dirs, files in os.walk(CORPUS):
        dirs.sort()
        for name in sorted(files):
            path = Path(root) / name
            rel = path.relative_to(CORPUS).as_posix()
            stats["files"] += 1
            if (stats["files"] - 1) % STRIDE and rel not in EXPECTED_REJECTIONS:
                continue
            stats["read"] += 1
            doc = is_documentation(path)
            stats["doc_files" if doc else "puzzle_files"] += 1
            try:
                puzzles = load(str(path))
            except NonocpError as e:
                msg = str(e)
                if not doc:
                    stats["rejected"][rel] = msg
                assert msg.startswith(str(path) + ":") or msg.startswith(str(path) + " "), msg
                if isinstance(e, ParseError) and e.line is not None:
                    assert msg.startswith(f"{path}:{e.line}: "), msg
                continue
            except Exception as e:  # pragma: no cover - the failure this test exists to catch
                stats["unexpected"].append(f"{rel}: {type(e).__name__}: {e}")
                continue
            if doc:
                continue
            stats["formats"][Path(name).suffix or "(none)"] += len(puzzles)
            for p in puzzles:
                stats["puzzles"] += 1
                if p.meta.goal is not None:
                    stats["with_goal"] += 1
                    if clues_of(p.meta.goal) != (p.rows, p.cols):
                        stats["goal_mismatch"].append(f"{rel} {p.title}")
                try:
                    p.validate()
                except InvalidPuzzleError as e:
                    stats["invalid"][f"{rel}: {e}"] += 1
    return stats


@pytest.fixture(scope="module")
def scan() -> dict:
    corpus_path()  # skips the module's tests with a clear reason when the corpus is absent
    return _scan()


def test_corpus_reads_without_unexpected_exceptions(scan):
    print(
        f"\ncorpus: {scan['files']} files, {scan['read']} read "
        f"({scan['puzzle_files']} puzzle files, {scan['doc_files']} documentation), "
        f"{scan['puzzles']} puzzles read, {scan['with_goal']} with a solution, "
        f"{len(scan['rejected'])} puzzle files rejected, {sum(scan['invalid'].values())} puzzles invalid"
    )
    for rel, msg in sorted(scan["rejected"].items()):
        print(f"  rejected {rel}: {msg.split(': ', 1)[-1]}")
    for what, n in scan["invalid"].items():
        print(f"  invalid ({n}) {what}")
    print(f"  puzzles by extension: {dict(scan['formats'])}")
    assert scan["unexpected"] == []


def test_corpus_rejections_are_exactly_the_known_broken_files(scan):
    assert set(scan["rejected"]) == set(EXPECTED_REJECTIONS), scan["rejected"]
    for rel, needle in EXPECTED_REJECTIONS.items():
        assert needle in scan["rejected"][rel]


@pytest.mark.skipif(not FULL_DEPTH, reason="exact corpus counts need the full scan (NONOCP_TEST_DEPTH=full)")
def test_corpus_counts(scan):
    # about 30,500 puzzles; 10,000 tournament solutions plus the goals of the smaller collections
    assert scan["puzzles"] >= 30_400
    assert scan["with_goal"] >= 10_190
    assert scan["invalid"] == Counter()


def test_corpus_solutions_match_their_clues(scan):
    assert scan["with_goal"] > 0
    assert scan["goal_mismatch"] == []


def test_pbm_picture_matches_the_non_puzzle_of_the_same_image():
    moss = load(str(corpus_path("picross-solver", "inputs", "webpbn", "webpbn-36459-moss.non")))[0]
    pictures = [load(str(corpus_path("picross-solver", "inputs", "raw", f"moss-60x60-bw-{k}.pbm")))[0]
                for k in (1, 2, 3)]
    assert any((p.rows, p.cols) == (moss.rows, moss.cols) for p in pictures)


def test_tournament_columns_come_first():
    puzzles = load(str(corpus_path("nonogram-record", "question", "taai2011.txt")))
    assert len(puzzles) == 1000
    assert all(p.width == p.height == 25 for p in puzzles)
    assert sum(p.meta.goal is not None for p in puzzles) == 1000
    assert all(clues_of(p.meta.goal) == (p.rows, p.cols) for p in puzzles[:50])
