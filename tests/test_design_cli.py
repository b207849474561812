"""`nonocp design`: the report (text and JSON), the puzzle written with the picture as goal, the
before/after picture, make-unique and max-difficulty, exit codes and bad input."""

from __future__ import annotations

import io
import json
import random
import xml.etree.ElementTree as ET

from PIL import Image  # noqa: E402
from typer.testing import CliRunner

from nonocp import solve
from nonocp.cli.app import app
from nonocp.core.grid import Grid
from nonocp.core.puzzle import clues_of
from nonocp.formats import load
from test_design_image import draw, encoded, random_cells, with_white_border

runner = CliRunner()


def picture_file(tmp_path, seed: int = 5, fmt: str = "JPEG", k: int = 1, name: str = "pic.jpg"):
    """A picture (scaled up 8 times) whose clues have several solutions, and its grid."""
    while True:
        cells = with_white_border(random_cells(random.Random(seed), 10, 9, k, 0.55))
        grid = Grid.from_rows(cells)
        rows, cols = clues_of(grid)
        from nonocp.core.palette import Palette
        from nonocp.core.puzzle import Puzzle

        if k > 1 or solve(Puzzle(rows, cols, Palette.black_and_white()), "native").status.value == "multiple":
            break
        seed += 1
    path = tmp_path / name
    path.write_bytes(encoded(draw(cells, 8), fmt, **({"quality": 80} if fmt == "JPEG" else {})))
    return path, grid


def test_report_and_puzzle_from_a_jpeg(tmp_path):
    path, grid = picture_file(tmp_path)
    out = tmp_path / "pic.non"
    result = runner.invoke(app, ["design", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "12x11 cells (pixel art, 8 pixels a cell)" in text
    assert "black and white" in text and "verdict: multiple solutions" in text and "?" in text
    assert "difficulty: MULTIPLE" in text
    written = load(str(out))[0]
    assert written.meta.goal == grid and clues_of(grid) == (written.rows, written.cols)


def test_make_unique_json_and_pictures(tmp_path):
    path, grid = picture_file(tmp_path)
    out = tmp_path / "fixed.xml"
    pic = tmp_path / "before-after.png"
    result = runner.invoke(app, ["design", str(path), "--make-unique", "-o", str(out), "--picture", str(pic),
                                 "-f", "json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["design"]["verdict"] == "multiple" and record["design"]["ambiguous"]
    fix = record["make_unique"]
    assert fix["status"] == "unique" and fix["changes"]
    assert {p["engine"] for p in fix["proofs"]} == {"native", "sat"}
    assert record["after"]["verdict"] == "unique"
    written = load(str(out))[0]
    changed = {(c["row"], c["col"]) for c in fix["changes"]}
    for r in range(grid.height):
        for c in range(grid.width):
            assert (written.meta.goal.cells[r][c] != grid.cells[r][c]) == ((r, c) in changed)
    assert solve(written, "cpsat").status.value == "unique"
    img = Image.open(pic)
    assert img.width > 2 * 12 * 16 and img.height > 11 * 16  # two panels side by side
    svg = tmp_path / "before-after.svg"
    again = runner.invoke(app, ["design", str(path), "-u", "--picture", str(svg)])
    assert again.exit_code == 0 and "make unique:" in again.output
    # each rating lists the guesses per solution once, on its own line (not also inside the difficulty line)
    before = again.output.split("make unique:")[0]
    assert before.count("guesses per solution") == 1
    assert "guesses per solution" not in next(ln for ln in before.splitlines() if ln.startswith("difficulty:"))
    root = ET.parse(svg).getroot()
    assert len([e for e in root.iter() if e.get("class") == "changed"]) == len(changed)
    assert len([e for e in root.iter() if e.get("class") == "panel"]) == 2


def test_max_difficulty_line(tmp_path):
    path, _ = picture_file(tmp_path, seed=9)
    result = runner.invoke(app, ["design", str(path), "--max-difficulty", "LINE", "-f", "json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["make_unique"]["difficulty"] == "LINE" and record["make_unique"]["max_difficulty"] == "LINE"


def test_colour_picture(tmp_path):
    path, grid = picture_file(tmp_path, fmt="PNG", k=3, name="c.png")
    result = runner.invoke(app, ["design", str(path), "--colors", "3", "-f", "json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["design"]["colors"] == 3
    symbols = {ch for row in record["goal"] for ch in row}
    assert symbols <= {"0", "a", "b", "c"} and len(symbols) == 4


def test_exit_codes_and_bad_input(tmp_path):
    path, _ = picture_file(tmp_path)
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    result = runner.invoke(app, ["design", str(junk)])
    assert result.exit_code == 2 and "junk.png" in result.output and "Traceback" not in result.output
    for extra in (["-o", str(path)], ["-o", str(tmp_path / "x.unknown")], ["--picture", str(tmp_path / "p.gif")],
                  ["--max-difficulty", "easy"], ["--colors", "0"], ["--timeout", "-1"], ["--to", "non"]):
        result = runner.invoke(app, ["design", str(path), *extra])
        assert result.exit_code == 2, (extra, result.output)
    assert path.read_bytes()[:2] == b"\xff\xd8"  # the input is untouched
    result = runner.invoke(app, ["design", str(tmp_path / "missing.png")])
    assert result.exit_code == 2 and "no such file" in result.output


def test_time_limit_is_exit_3(tmp_path):
    cells = [[random.Random(r * 97 + c).random() < 0.3 for c in range(30)] for r in range(30)]
    img = Image.new("L", (30, 30), 255)
    img.putdata([0 if v else 255 for row in cells for v in row])
    path = tmp_path / "dots.png"
    buf = io.BytesIO()
    img.save(buf, "PNG")
    path.write_bytes(buf.getvalue())
    result = runner.invoke(app, ["design", str(path), "--make-unique", "--timeout", "0.2"])
    assert result.exit_code == 3, result.output


def test_the_report_keeps_to_its_budgets_and_says_what_it_could_not_finish():
    """Lasts Forever solves in milliseconds, but rating it walks past the report's budget of steps: the
    report ends with the difficulty UNKNOWN and says why, instead of running on for minutes."""
    from conftest import corpus_path
    from nonocp.design.report import RATING_STEPS

    path = corpus_path("webpbn-survey", "free", "webpbn-06574-Lasts Forever.txt")
    result = runner.invoke(app, ["design", str(path), "-f", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)["design"]
    assert report["verdict"] == "unique"
    assert report["difficulty"] == "UNKNOWN"
    assert report["rating"]["steps"] == RATING_STEPS
    assert f"budget of {RATING_STEPS} steps" in report["rating"]["summary"]


def test_ambiguous_cells_out_of_budget_are_not_called_exact():
    from nonocp.core.palette import Palette
    from nonocp.design.model import Design
    from nonocp.design.report import analyse

    cells = with_white_border(random_cells(random.Random(15), 12, 12, 1, 0.55))  # 9 ambiguous cells
    design = Design(Grid.from_rows(cells), Palette.black_and_white())
    exact = analyse(design, rate=False)
    assert exact.verdict == "multiple"
    assert exact.ambiguous_exact
    cut = analyse(design, rate=False, backbone_cpu=0.0)
    assert not cut.ambiguous_exact
    assert set(cut.ambiguous) <= set(exact.ambiguous)
