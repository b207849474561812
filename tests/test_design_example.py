"""The worked example of docs/design.md (puzzles/design/, drawn by puzzles/tools/make_design_example.py from a recorded
seed): the picture redraws the same, and the designer still finds in it what docs/design.md says."""

from __future__ import annotations

import importlib

from conftest import PUZZLES, ROOT
from nonocp import solve
from nonocp.design import analyse, from_image, make_unique

DESIGN = PUZZLES / "design"


def test_the_picture_redraws_the_same(monkeypatch):
    from PIL import Image, ImageChops

    monkeypatch.syspath_prepend(str(ROOT / "puzzles" / "tools"))
    tool = importlib.import_module("make_design_example")
    drawn = tool.picture(tool.SEED)
    with Image.open(DESIGN / "bicycle.png") as committed:
        assert ImageChops.difference(drawn, committed.convert("RGB")).getbbox() is None


def test_black_and_white_as_the_docs_say():
    design = from_image(str(DESIGN / "bicycle.png"), width=36)
    assert (design.width, design.height) == (36, 27)
    report = analyse(design)
    assert report.verdict == "multiple" and len(report.ambiguous) == 119
    result = make_unique(design)
    assert result.status == "unique" and len(result.changes) == 4 and result.difficulty == "PROBE"
    line = make_unique(design, max_difficulty="LINE")
    assert line.status == "unique" and len(line.changes) == 5 and line.difficulty == "LINE"
    for fixed in (result, line):
        for engine in ("native", "sat", "cpsat"):
            answer = solve(fixed.puzzle(), engine)
            assert answer.status.value == "unique" and answer.solutions[0] == fixed.design.grid


def test_colour_as_the_readme_says():
    design = from_image(str(DESIGN / "bicycle.png"), width=36, colors=3)
    assert len(design.palette) == 4
    report = analyse(design)
    assert report.verdict == "unique" and report.difficulty == "LINE"
