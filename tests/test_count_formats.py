"""Count-and-contiguity puzzles in files and pictures (formats/counts.py, render/count_clues.py): the JSON form
(found by content in a .json file) and the text entry form read and write back; other formats refuse count
puzzles; every malformed file is exit 2 with the reason at its file line; text and pictures show the counts."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from conftest import examples
from nonocp.cli.app import app
from nonocp.core.counts import Count
from nonocp.core.errors import NonocpError, ParseError
from nonocp.core.grid import Grid
from nonocp.formats import detect, dumps, load, loads
from strategies import count_puzzle_from_grid, count_puzzles_with_grid

CAT_JSON = """{"title": "Tiny cat",
 "colors": ["#fff44f", "black", "#3a7bd5"],
 "rows": [
   [{"count": 2, "allInARow": true}, {"count": 1}, {"count": 0}],
   [{"count": 0}, {"count": 2, "allInARow": true}, {"count": 1}],
   [{"count": 2, "allInARow": false}, {"count": 0}, {"count": 1}]
 ],
 "columns": [
   [{"count": 2, "allInARow": false}, {"count": 0}, {"count": 1}],
   [{"count": 1}, {"count": 1}, {"count": 1}],
   [{"count": 1}, {"count": 2, "allInARow": true}, {"count": 0}]
 ]}
"""

CAT_TEXT = """# the same puzzle, typed in
title "Tiny cat"
colors #fff44f black #3a7bd5
rows
2* 1 0
0 2* 1
2 0 1
columns
2 0 1
1 1 1
1 2* 0
"""

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_json_and_text_forms_read_the_same_puzzle(tmp_path):
    a = load(str(write(tmp_path, "cat.json", CAT_JSON)))[0]
    b = load(str(write(tmp_path, "cat.counts", CAT_TEXT)))[0]
    assert a == b and a.has_counts and a.title == "Tiny cat"
    assert [c.name for c in a.palette.colors] == ["#fff44f", "black", "#3a7bd5"]
    assert a.palette[1].rgb == "#000000" and [c.symbol for c in a.palette.colors] == ["a", "b", "c"]
    assert a.rows[0] == (Count(2, True), Count(1), Count(0))
    # found by content: the json format reads both kinds; a file without extension is sniffed
    assert detect("x.json", CAT_JSON) == "json"
    assert detect("typed-in", CAT_TEXT) == "counts"
    assert load(str(write(tmp_path, "noext", CAT_TEXT)))[0] == a
    assert load(str(write(tmp_path, "noext2", CAT_JSON)))[0] == a


def test_the_games_names_marks_and_notes(tmp_path):
    game = json.loads(CAT_JSON)
    del game["title"]
    game.update(description="Medium 1", hint="A small cat")
    p = loads(json.dumps([game]), "json")[0]
    assert (p.title, p.meta.notes) == ("Medium 1", "A small cat")
    ours = loads(json.dumps({**game, "title": "Ours", "notes": "our notes"}), "json")[0]
    assert (ours.title, ours.meta.notes) == ("Ours", "our notes")  # our own keys first
    for fmt in ("json", "counts"):  # written back under our own keys
        back = loads(dumps(p, fmt), fmt)[0]
        assert (back.title, back.meta.notes) == ("Medium 1", "A small cat") and back == p
    assert 'notes "A small cat"' in dumps(p, "counts")
    bullet = loads(CAT_TEXT.replace("2* 1 0", "2\u2022 1 0").replace("1 2* 0", "1 2\u2022 0"), "counts")[0]
    assert bullet == loads(CAT_TEXT, "counts")[0]


def test_written_forms_read_back(tmp_path):
    p = loads(CAT_JSON, "json")[0]
    for fmt in ("json", "counts"):
        text = dumps(p, fmt)
        assert loads(text, fmt)[0] == p
    out = json.loads(dumps(p, "json"))
    assert out["colors"] == ["#fff44f", "black", "#3a7bd5"]
    assert out["rows"][0] == [{"count": 2, "allInARow": True}, {"count": 1}, {"count": 0}]
    assert dumps(p, "counts").splitlines()[2:5] == ["rows", "2* 1 0", "0 2* 1"]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=count_puzzles_with_grid(max_size=6, ncolors_choices=(2, 3, 4, 5, 6)))
def test_random_puzzles_with_goals_round_trip(data):
    import dataclasses

    puzzle, grid = data
    puzzle = dataclasses.replace(puzzle, meta=dataclasses.replace(puzzle.meta, title='A "quoted" title', goal=grid))
    for fmt in ("json", "counts"):
        back = loads(dumps(puzzle, fmt), fmt)[0]
        assert back == puzzle and back.meta.goal == grid and back.title == puzzle.title


def test_a_bundle_of_count_puzzles_in_json(tmp_path):
    a = count_puzzle_from_grid(Grid.from_rows([[0, 1], [1, 1]]), 2)
    b = count_puzzle_from_grid(Grid.from_rows([[0, 1, 2]]), 3)
    text = dumps([a, b], "json")
    assert loads(text, "json") == [a, b]


def test_other_formats_refuse_count_puzzles(tmp_path):
    p = loads(CAT_JSON, "json")[0]
    for fmt in ("non", "xml", "nonpack", "cnf"):
        with pytest.raises(NonocpError, match=f"format '{fmt}' cannot hold count-and-contiguity clues"):
            dumps(p, fmt)
    r = run("convert", write(tmp_path, "cat.json", CAT_JSON), tmp_path / "cat.non")
    assert r.exit_code == 2 and "write json or counts instead" in r.stderr
    assert not (tmp_path / "cat.non").exists()


# ---- malformed input: exit 2, the reason, the file line --------------------------------------------------

BAD_TEXT = [
    ("counts do not add up", CAT_TEXT.replace("0 2* 1\n", "0 2* 2\n"), 6,
     "row 2: the counts add up to 4 but the line has 3 cells"),
    ("flag on a count of 1", CAT_TEXT.replace("1 1 1\n", "1* 1 1\n"), 10,
     "column 2, colour 1: a count of 1 cannot be all in a row"),
    ("missing colour", CAT_TEXT.replace("2 0 1\n", "2 1\n"), 7, "row 3: 2 counts for 3 colours"),
    ("no colours line", CAT_TEXT.replace("colors #fff44f black #3a7bd5\n", ""), 1, "no colors line"),
    ("unknown colour", CAT_TEXT.replace("black", "blak"), 3, "'blak' is neither #rrggbb nor a CSS colour name"),
    ("bad token", CAT_TEXT.replace("1 2* 0\n", "1 2+ 0\n"), 11, "'2+' is not a count"),
    ("totals differ", CAT_TEXT.replace("2 0 1\n1 1 1", "1 1 1\n1 1 1").replace("2 0 1\nrows", "x"), 8,
     "the rows hold"),
]


def _json_bad(old: str, new: str) -> str:
    assert old in CAT_JSON
    return CAT_JSON.replace(old, new, 1)


BAD_JSON = [
    ("counts do not add up", _json_bad('[{"count": 0}, {"count": 2, "allInARow": true}, {"count": 1}]',
                                       '[{"count": 1}, {"count": 2, "allInARow": true}, {"count": 1}]'), 5,
     "row 2: the counts add up to 4 but the line has 3 cells"),
    ("flag on a count of 1", _json_bad('[{"count": 1}, {"count": 1}, {"count": 1}]',
                                       '[{"count": 1, "allInARow": true}, {"count": 1}, {"count": 1}]'), 10,
     "column 2, colour 1: a count of 1 cannot be all in a row"),
    ("missing colour", _json_bad('[{"count": 2, "allInARow": false}, {"count": 0}, {"count": 1}]\n ],',
                                 '[{"count": 2, "allInARow": false}, {"count": 1}]\n ],'), 6,
     "row 3: 2 counts for 3 colours"),
    ("a colour too few", _json_bad('"colors": ["#fff44f", "black", "#3a7bd5"]', '"colors": ["#fff44f", "black"]'),
     4, "row 1: 3 counts for 2 colours"),
    ("misspelt flag", _json_bad('{"count": 2, "allInARow": false}, {"count": 0}, {"count": 1}]\n ],',
                                '{"count": 2, "allInRow": false}, {"count": 0}, {"count": 1}]\n ],'), 6,
     "unknown key 'allInRow'"),
    ("totals differ", _json_bad('[{"count": 1}, {"count": 2, "allInARow": true}, {"count": 0}]',
                                '[{"count": 2, "allInARow": true}, {"count": 1}, {"count": 0}]'), 8,
     "the rows hold"),
    ("a count of 2 without its flag", _json_bad('[{"count": 2, "allInARow": false}, {"count": 0}, {"count": 1}]\n ],',
                                                '[{"count": 2}, {"count": 0}, {"count": 1}]\n ],'), 6,
     'row 3, colour 1: a count of 2 needs "allInARow": true (all in a row) or false (not)'),
    ("the game's hint not text", _json_bad('"title": "Tiny cat",', '"title": "Tiny cat", "hint": 3,'), 1,
     "'hint' must be a string"),
]


@pytest.mark.parametrize("what,text,line,reason", BAD_TEXT, ids=[c[0] for c in BAD_TEXT])
def test_malformed_text_is_exit_2_with_the_reason_at_its_line(tmp_path, what, text, line, reason):
    path = write(tmp_path, "bad.counts", text)
    with pytest.raises(ParseError) as e:
        load(str(path))
    assert e.value.line == line, str(e.value)
    r = run("solve", path)
    assert r.exit_code == 2
    assert r.stderr.startswith(f"nonocp: {path}:{line}: ") and reason in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


@pytest.mark.parametrize("what,text,line,reason", BAD_JSON, ids=[c[0] for c in BAD_JSON])
def test_malformed_json_is_exit_2_with_the_reason_at_its_line(tmp_path, what, text, line, reason):
    json.loads(text)  # well-formed JSON, wrong puzzle
    path = write(tmp_path, "bad.json", text)
    r = run("show", path)
    assert r.exit_code == 2
    assert r.stderr.startswith(f"nonocp: {path}:{line}: ") and reason in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_json_that_is_not_even_json(tmp_path):
    r = run("solve", write(tmp_path, "bad.json", CAT_JSON.replace('"rows"', "rows")))
    assert r.exit_code == 2 and "malformed JSON" in r.stderr


# ---- what people see ----------------------------------------------------------------------------------------


def test_text_picture_shows_counts_flags_and_colour_letters(tmp_path):
    r = run("solve", write(tmp_path, "cat.counts", CAT_TEXT), "-b", "native")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "Tiny cat (3x3, 3 colours, count clues): unique solution" in lines[0]
    assert "2*  1  0 |  a  a  b" in lines and " 2  0  1 |  a  c  a" in lines  # counts aligned per colour
    assert lines[2].split() == ["0", "1", "2*"]  # the second colour's counts of the three columns


def test_svg_and_png_draw_one_box_per_colour_and_a_bar_when_all_in_a_row(tmp_path):
    path = write(tmp_path, "cat.counts", CAT_TEXT)
    r = run("solve", path, "-b", "native", "--format", "svg")
    assert r.exit_code == 0, r.stderr
    svg = r.stdout
    assert svg.count('class="all-in-a-row"') == 3  # the 2* of rows 1 and 2 and of column 3
    assert svg.count('class="cell"') == 9 and 'fill="#3a7bd5"' in svg
    out = tmp_path / "cat.png"
    r = run("solve", path, "-b", "native", "--format", "png", "--output", out)
    assert r.exit_code == 0 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_show_describes_the_colours_and_the_clue_kind(tmp_path):
    r = run("show", write(tmp_path, "cat.json", CAT_JSON))
    assert r.exit_code == 0, r.stderr
    assert "colours: 3 (a=#fff44f, b=black, c=#3a7bd5); count-and-contiguity clues" in r.stdout


def test_check_cross_validates_count_puzzles(tmp_path):
    path = write(tmp_path, "cat.counts", CAT_TEXT)
    r = run("check", path, "--format", "json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout.splitlines()[0])  # one JSON line per puzzle
    assert out["agree"] and out["verdict"] == "unique"
    assert {e["engine"] for e in out["engines"]} == {"native", "cpsat", "sat"}
    assert all(e["solutions_ok"] for e in out["engines"])


def test_colour_names_read_after_pillow_has_parsed_them(tmp_path):
    """Pillow's getrgb caches a parsed name back into its table as a tuple; a process that drew a picture
    before (the web server) must still read colour names."""
    from PIL import ImageColor

    for name in ("black", "white", "orange"):
        ImageColor.getrgb(name)
    p = loads(CAT_TEXT.replace("#fff44f", "white"), "counts")[0]
    assert [c.rgb for c in p.palette.colors] == ["#ffffff", "#000000", "#3a7bd5"]
    assert dumps(p, "counts").splitlines()[1] == "colors white black #3a7bd5"
