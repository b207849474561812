"""The README's worked example (puzzles/design/, drawn by tools/make_design_example.py from a recorded
seed): the picture redraws the same, the designer still makes the committed puzzles from it, and they
are unique by every engine."""

from __future__ import annotations

import importlib

import pytest

from conftest import PUZZLES, ROOT
from nonocp import solve
from nonocp.design import Design, analyse, from_image, make_unique
from nonocp.formats import load

DESIGN = PUZZLES / "design"
PIL = pytest.importorskip("PIL")


def test_the_picture_redraws_the_same(monkeypatch):
    from PIL import Image, ImageChops

    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    tool = importlib.import_module("make_design_example")
    drawn = tool.picture(tool.SEED)
    with Image.open(DESIGN / "bicycle.png") as committed:
        assert ImageChops.difference(drawn, committed.convert("RGB")).getbbox() is None


@pytest.mark.parametrize("stem, colours", [("bicycle", 1), ("bicycle-colour", 3)])
def test_the_designer_makes_the_committed_puzzles(stem, colours):
    committed = load(str(DESIGN / f"{stem}.non"))[0]
    design = from_image(str(DESIGN / "bicycle.png"), width=36, colors=colours)
    result = make_unique(design, rate_result=False)
    assert result.unique
    assert result.design.puzzle().fingerprint() == committed.fingerprint()
    assert result.design.grid == committed.meta.goal
    for engine in ("native", "sat", "cpsat"):
        answer = solve(committed, engine)
        assert answer.status.value == "unique" and answer.solutions[0] == committed.meta.goal


def test_the_black_and_white_picture_needs_fixing():
    design = from_image(str(DESIGN / "bicycle.png"), width=36)
    report = analyse(design, rate=False)
    assert report.verdict == "multiple" and len(report.ambiguous) > 20
    assert Design.from_puzzle(load(str(DESIGN / "bicycle.non"))[0]).grid != design.grid
