"""The seeded reference sets (puzzles/tools/make_reference_sets.py) and the peer harness's converters
(benchmarks/peers.py): what they write is what they mean. No solver of another project runs here."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from nonocp.formats import load, loads

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def refs():
    sys.path.insert(0, str(ROOT / "puzzles" / "tools"))
    try:
        yield importlib.import_module("make_reference_sets")
    finally:
        sys.path.remove(str(ROOT / "puzzles" / "tools"))


@pytest.fixture(scope="module")
def peers():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        yield importlib.import_module("peers")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_sets_are_reproducible_and_their_goals_solve_them(refs):
    for name in refs.SETS:
        a = refs.puzzles(name, seed=11, count=6)
        b = refs.puzzles(name, seed=11, count=6)
        assert [p.fingerprint() for p in a] == [p.fingerprint() for p in b]
        assert a[0].fingerprint() != refs.puzzles(name, seed=12, count=1)[0].fingerprint()
        for p in a:
            assert (p.width, p.height) == (30, 30)
            assert p.is_solution(p.meta.goal)


def test_recipes(refs):
    bw = refs.puzzles("random30", seed=3, count=40)
    black = sum(v for p in bw for row in p.meta.goal.cells for v in row)
    assert 0.47 < black / (40 * 900) < 0.53  # each cell black with probability 1/2
    assert all(p.palette.is_black_and_white for p in bw)
    colour = refs.puzzles("colour30", seed=3, count=4)
    assert [len(p.palette) for p in colour] == [3, 5, 3, 5]
    assert all(set(v for row in p.meta.goal.cells for v in row) == set(range(len(p.palette))) for p in colour)


def test_a_slice_is_the_start_of_the_set_and_the_file_reads_back(refs, tmp_path):
    path = refs.write_set("colour30", tmp_path, seed=5, count=3)
    read = load(str(path))
    assert [p.fingerprint() for p in read] == [p.fingerprint() for p in refs.puzzles("colour30", seed=5, count=3)]
    assert refs.puzzles("colour30", seed=5, count=2)[1].fingerprint() == read[1].fingerprint()


def test_converters_keep_every_clue(refs, peers):
    """nonocp reads .nin, Olsak .g and webpbn XML: the peers' copies must hold the same clues and colours."""
    for p in refs.puzzles("random30", seed=1, count=2) + refs.puzzles("colour30", seed=1, count=2):
        formats = [("g", peers.to_olsak(p)), ("xml", peers.to_webpbn_xml(p))]
        if p.palette.is_black_and_white:
            formats.append(("nin", peers.to_nin(p)))
        for fmt, text in formats:
            (q,) = loads(text, fmt)
            assert (q.rows, q.cols) == (p.rows, p.cols), fmt
            assert [c.rgb for c in q.palette.colors[1:]] == [c.rgb for c in p.palette.colors[1:]], fmt
        assert "DOCTYPE" not in peers.to_webpbn_xml(p)  # no DTD for libxml2 to fetch


def test_empty_lines_survive_conversion(peers):
    from nonocp.core.puzzle import Puzzle

    p = Puzzle(rows=[[2], [], [1]], cols=[[1], [1, 1]])
    for fmt, text in (("g", peers.to_olsak(p)), ("xml", peers.to_webpbn_xml(p)), ("nin", peers.to_nin(p))):
        (q,) = loads(text, fmt)
        assert (q.rows, q.cols) == (p.rows, p.cols), fmt
