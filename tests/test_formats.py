"""File formats: each reader on tiny hand-written inputs (every quirk seen in real files), the writers,
round trips, detection and the registry."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nonocp.core.errors import NonocpError, ParseError
from nonocp.core.grid import Grid
from nonocp.core.palette import Color, Palette
from nonocp.core.puzzle import Block, Meta, Puzzle, clues_of
from nonocp.formats import FORMATS, detect, dump, dumps, load, loads, register

FIX = Path(__file__).parent / "fixtures" / "formats"


def bw(*lengths: int) -> tuple[Block, ...]:
    return tuple(Block(n, 1) for n in lengths)


def one(text: str, fmt: str = "non") -> Puzzle:
    puzzles = loads(text, fmt)
    assert len(puzzles) == 1
    return puzzles[0]


def assert_goal_matches(p: Puzzle) -> None:
    assert p.meta.goal is not None
    assert clues_of(p.meta.goal) == (p.rows, p.cols)


# --- .non ------------------------------------------------------------------------------------------

SMALL = """title "Tiny"
width 3
height 2
rows
1,1
3
columns
2
1
2
goal "101111"
"""


def test_non_basic_and_goal():
    p = one(SMALL)
    assert (p.width, p.height) == (3, 2)
    assert p.rows == (bw(1, 1), bw(3))
    assert p.cols == (bw(2), bw(1), bw(2))
    assert p.palette == Palette.black_and_white()
    assert p.title == "Tiny"
    assert p.meta.goal == Grid(((1, 0, 1), (1, 1, 1)))
    assert_goal_matches(p)


def test_non_fixture_file_has_metadata_and_goal():
    p = load(str(FIX / "dancer.non"))[0]
    assert p.title == 'Little "quoted" man'
    assert p.meta.author == "nonocp tests"
    assert p.meta.copyright == "© nonocp contributors"  # HTML entity decoded
    assert p.meta.license == "CC0-1.0"  # an unquoted value
    assert p.meta.source == "nonocp test fixture"
    assert p.rows[4] == ()
    assert_goal_matches(p)
    p.validate()


@pytest.mark.parametrize("empty", ["0", ""])
def test_non_empty_line_as_zero_or_blank(empty):
    text = f"width 2\nheight 3\nrows\n1\n{empty}\n2\ncolumns\n2\n1\n"
    p = one(text)
    assert p.rows == (bw(1), (), bw(2))
    assert p.cols == (bw(2), bw(1))


def test_non_blank_line_as_last_empty_row_before_next_key():
    p = one("width 1\nheight 3\nrows\n1\n1\n\ncolumns\n1,1\n")
    assert p.rows == (bw(1), bw(1), ())


def test_non_blank_lines_between_sections_are_separators():
    p = one("width 2\nheight 2\n\nrows\n\n1\n2\n\n\ncolumns\n2\n1\n\n")
    assert p.rows == (bw(1), bw(2))


def test_non_trailing_commas_and_spaces_and_free_text_header():
    text = (
        "https://www.example.org/puzzle.html\n"
        "Somebody's portrait\n\n"
        "dynamically-generated\nnonogram clues data:\n\n"
        "maxrule 3\n"
        "width  3 \n"
        "height 2\t\n\n"
        "rows\n1, 1, \n3,\t\n"
        "columns\n2,\n1 \n2, \n"
    )
    p = one(text)
    assert p.rows == (bw(1, 1), bw(3))
    assert p.cols == (bw(2), bw(1), bw(2))
    assert p.title == "Somebody's portrait"  # the name in the free text, without a `title` key


@pytest.mark.parametrize(
    ("line", "title"),
    [
        ('title "For  merilinnuke aka "Merka""', 'For  merilinnuke aka "Merka"'),
        ('title ""I am not interested in money.""', '"I am not interested in money."'),
        ("title Lost", "Lost"),
        ('title "m&m (most satisfactory)"', "m&m (most satisfactory)"),
        ('title "unterminated', "unterminated"),
    ],
)
def test_non_title_quirks(line, title):
    assert one(line + "\n" + SMALL.split("\n", 1)[1]).title == title


def test_non_by_with_trailing_text_takes_the_quoted_part():
    p = one('by "Nonogrammer" from http://example.org/x.non\n' + SMALL)
    assert p.meta.author == "Nonogrammer"


def test_non_height_before_width_and_keys_any_case():
    p = one("Height 2\nWIDTH 3\nRows\n1,1\n3\nColumns\n2\n1\n2\n")
    assert (p.width, p.height) == (3, 2)


def test_non_goal_thousands_of_characters():
    n = 100
    text = f"width {n}\nheight {n}\nrows\n" + f"{n}\n" * n + "columns\n" + f"{n}\n" * n + 'goal "' + "1" * n * n + '"\n'
    p = one(text)
    assert p.meta.goal is not None and p.meta.goal.width == n
    assert_goal_matches(p)


def test_non_goal_over_several_lines():
    p = one(SMALL.replace('goal "101111"', 'goal "101\n111"'))
    assert p.meta.goal == Grid(((1, 0, 1), (1, 1, 1)))


def test_non_colour_extension():
    p = load(str(FIX / "colour.non"))[0]
    assert [c.symbol for c in p.palette.colors] == ["0", "a", "b"]
    assert [c.rgb for c in p.palette.colors] == ["#ffffff", "#ff0000", "#0000ff"]
    assert p.rows[0] == (Block(2, 1), Block(1, 2))
    assert p.title == 'Two "colour" test'
    assert_goal_matches(p)
    p.validate()


def test_non_colour_bare_numbers_are_colour_1_black():
    p = one("color a #ff0000\nwidth 3\nheight 1\nrows\n1,1a\ncolumns\n1\n0\n1a\ngoal \"10a\"\n")
    assert [(c.symbol, c.rgb) for c in p.palette.colors] == [("0", "#ffffff"), ("a", "#ff0000"), ("1", "#000000")]
    assert p.rows[0] == (Block(1, 2), Block(1, 1))
    assert_goal_matches(p)


def test_non_undeclared_colour_symbol_is_an_error_at_its_column():
    """Strict input: a symbol no `color` line declares is a typo as often as a colour (`2.1`, `1l`), so it
    is refused where it stands, with what to write instead, never turned into an invented colour."""
    with pytest.raises(ParseError) as e:
        one("width 2\nheight 1\nrows\n1a,1b\ncolumns\n1a\n1b\n")
    assert (e.value.line, e.value.column) == (4, 2)
    assert "colour 'a' is not declared" in str(e.value) and "color a #rrggbb" in str(e.value)


def test_non_background_colour_line():
    p = one("color 0 #eeeeee\ncolor a #ff0000\ncolor b #00ff00\nwidth 1\nheight 1\nrows\n1a\ncolumns\n1a\n")
    assert p.palette[0].rgb == "#eeeeee"


def test_nonny_colour_dialect():
    text = (
        'title "Nonny style"\nwidth 3\nheight 2\n\n'
        "color black 000000 X\ncolor red FF0000 #\ncolor green 00FF00 0\n\n"
        "rows\nred 1 green 1 red 1\nblack 1 1\n\ncolumns\nred 1 black 1\ngreen 1\nred 1 black 1\n"
    )
    p = one(text)
    names = [c.name for c in p.palette.colors]
    assert names == ["white", "black", "red", "green"]
    assert p.palette[3].symbol != "0"  # Nonny's display symbol 0 clashes with the background
    assert p.rows[0] == (Block(1, 2), Block(1, 3), Block(1, 2))
    assert p.rows[1] == (Block(1, 1), Block(1, 1))  # bare numbers: the first colour
    p.validate()


def test_nonpack_bundle_with_line_numbers():
    puzzles = load(str(FIX / "pair.nonpack"))
    assert [p.title for p in puzzles] == ["first", "second"]
    assert puzzles[1].cols == (bw(1), (), bw(1))
    for p in puzzles:
        assert_goal_matches(p)
    bad = (FIX / "pair.nonpack").read_text().replace("1,1\ncolumns", "1,2\ncolumns")
    with pytest.raises(ParseError) as e:
        loads(bad, "nonpack", "pair.nonpack")
    assert e.value.line == 16  # the line of the bad clue, counted in the whole file


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("width 2\nheight 2\nrows\n1\n", 4, "no `columns`"),
        ("width 2\nheight 2\nrows\n3\n1\ncolumns\n1\n1\n", 4, "needs 3 cells"),
        ("width 2\nheight 2\nrows\n1,1,1\n1\ncolumns\n1\n1\n", 4, "needs 5 cells"),
        ("width 2\nheight 2\nrows\n1\n1\n1\ncolumns\n1\n1\n", 6, "more than 2 row clues"),
        ("width 2\nheight 3\nrows\n1\ncolumns\n1\n1\n", 3, "holds 1 row clues; expected 3"),
        ("width 99999999999999999999\nheight 2\nrows\n", 1, "too large"),
        ("width 20000\nheight 2\nrows\n", 2, "over 10000"),
        ("width 3000\nheight 3000\nrows\n", 2, "cells are refused"),
        ("width -2\nheight 2\nrows\n", 1, "not a non-negative integer"),
        ("width 0\nheight 2\nrows\ncolumns\n", 2, "at least one row"),
        ("width 2\nheight 1\nrows\n99999999999\ncolumns\n1\n0\n", 4, "too large"),
        ("width 2\nheight 1\nrows\n-1\ncolumns\n1\n0\n", 4, "'-' is not a number or a separator"),
        ('width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal "10x"\n', 8, "goal has 3 cells"),
        ("color a #ff0000\ncolor a #00ff00\nwidth 1\nheight 1\nrows\n1a\ncolumns\n1a\n", 2, "defined twice"),
        ("color a red\nwidth 1\nheight 1\nrows\n1a\ncolumns\n1a\n", 1, "colour definition"),
        ('color a #ff0000\nwidth 1\nheight 1\nrows\n1a\ncolumns\n1a\ngoal "z"\n', 8, "not a colour"),
        ("", 1, "no puzzle"),
        ("title x\n", 1, "no `rows`"),
    ],
)
def test_non_rejects_with_line_and_reason(text, line, reason):
    with pytest.raises(ParseError) as e:
        loads(text, "non", "bad.non")
    msg = str(e.value)
    assert msg.startswith("bad.non:")
    if line is not None and e.value.line is not None:
        assert e.value.line == line, msg
    if reason:
        assert reason in msg


@pytest.mark.parametrize(("clue", "column", "hint"), [
    ("2.1", 2, "did you mean 2,1?"),
    ("1.5", 2, "did you mean 1,5?"),
    ("2;1", 2, "did you mean 2,1?"),
    ("l", 1, "did you mean 1?"),
    ("1 O", 3, "did you mean 0?"),
    ("x", 1, "numbers separated by commas or spaces"),
    ("  1,1x", 6, "colour 'x' is not declared"),
])
def test_non_clue_typos_are_errors_with_line_column_and_hint(clue, column, hint):
    """`2.1` used to invent a colour `.` (and answer "no solution"); `l` and `x` used to end the section,
    giving "expected 2 row clues, found 1" on another line."""
    text = f"width 5\nheight 2\nrows\n1\n{clue}\ncolumns\n1\n1\n1\n1\n1\n"
    with pytest.raises(ParseError) as e:
        loads(text, "non", "typo.non")
    assert (e.value.line, e.value.column) == (5, column), str(e.value)
    assert str(e.value).startswith(f"typo.non:5:{column}: ") and hint in str(e.value)


def test_non_declared_colour_typo_suggests_the_declared_one():
    text = "color a #ff0000\ncolor b #00ff00\nwidth 2\nheight 1\nrows\n1a,1B\ncolumns\n1a\n1b\n"
    with pytest.raises(ParseError, match=r":6:5: .*'B' is not a number, a separator or a declared colour; "
                       r"did you mean b\?"):
        loads(text, "non", "c.non")


def test_non_empty_clue_as_the_last_blank_line_of_the_file():
    """mikix writes an empty line as a blank line, also when it is the last clue of the file."""
    for text in ("width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n\n",
                 "width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n\n====\n"):
        p = loads(text, "nonpack")[0]
        assert p.cols == (bw(2), ())


# --- webpbn XML ------------------------------------------------------------------------------------

XML_COLOUR = """<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<source>nonocp tests</source>
<puzzle type="grid" defaultcolor="red">
<title>Flag &amp; dot</title>
<author>nonocp</author>
<color name="white" char=".">FFFFFF</color>
<color name="red" char="*">F00</color>
<color name="blue" char="@">0000ff</color>
<clues type="columns">
<line><count>1</count><count>1</count></line>
<line><count>1</count><count color="blue">1</count></line>
<line><count color="blue">1</count><count>1</count></line>
<line><count color="blue">1</count><count>1</count></line>
</clues>
<clues type="rows">
<line><count>2</count><count color="blue">1</count></line>
<line><count color="blue">2</count></line>
<line><count>1</count><count>2</count></line>
</clues>
<solution type="goal"><image>
|**.@|
|.@@.|
|*.**|
</image></solution>
</puzzle>
</puzzleset>
"""


def test_xml_colour_defaultcolor_and_solution():
    p = one(XML_COLOUR, "xml")
    assert [(c.name, c.rgb) for c in p.palette.colors] == [
        ("white", "#ffffff"), ("red", "#ff0000"), ("blue", "#0000ff")
    ]
    assert [c.symbol for c in p.palette.colors] == ["0", "*", "@"]
    assert p.title == "Flag & dot"
    assert p.meta.source == "nonocp tests"
    assert p.rows[0] == (Block(2, 1), Block(1, 2))
    assert_goal_matches(p)
    # the same puzzle as the .non colour fixture (same clues, same colour values)
    q = load(str(FIX / "colour.non"))[0]
    assert (p.rows, p.cols) == (q.rows, q.cols)
    assert p.fingerprint() == q.fingerprint()


def test_xml_black_and_white_defaults():
    text = ("<puzzleset><puzzle><clues type='rows'><line><count>1</count></line><line/></clues>"
            "<clues type='columns'><line><count>1</count></line></clues></puzzle></puzzleset>")
    p = one(text, "xml")
    assert p.palette == Palette.black_and_white()
    assert p.rows == (bw(1), ())


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('<?xml version="1.0"?>\n<!DOCTYPE lol [<!ENTITY a "aaaa">]>\n<puzzleset>&a;</puzzleset>', "entity"),
        ('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><puzzleset>&e;</puzzleset>', "entity"),
        ("<puzzleset><puzzle>", "malformed XML"),
        ("<html/>", "is not <puzzleset>"),
        ("<puzzleset/>", "no <puzzle>"),
        ('<puzzleset><puzzle type="triddler"/></puzzleset>', "not supported"),
        ("<puzzleset><puzzle><clues type='rows'><line><count>1</count></line></clues></puzzle></puzzleset>",
         "needs <clues"),
        ("<puzzleset><puzzle><clues type='rows'><line><count>99999999999</count></line></clues>"
         "<clues type='columns'><line/></clues></puzzle></puzzleset>", "too large"),
        ("<puzzleset><puzzle><clues type='rows'><line><count>-1</count></line></clues>"
         "<clues type='columns'><line/></clues></puzzle></puzzleset>", "non-negative"),
        ("<puzzleset><puzzle><clues type='rows'><line><count color='pink'>1</count></line></clues>"
         "<clues type='columns'><line/></clues></puzzle></puzzleset>", "not declared"),
        ("<puzzleset><puzzle><clues type='rows'><line><count>2</count></line></clues>"
         "<clues type='columns'><line><count>1</count></line></clues></puzzle></puzzleset>", "needs 2 cells"),
    ],
)
def test_xml_rejects(text, reason):
    with pytest.raises(ParseError) as e:
        loads(text, "xml", "bad.xml")
    assert reason in str(e.value)
    assert str(e.value).startswith("bad.xml")


# --- other readers ---------------------------------------------------------------------------------


def test_nin_and_mk_read_the_same_puzzle():
    nin = load(str(FIX / "small.nin"))[0]
    mk = load(str(FIX / "small.mk"))[0]  # CRLF line endings
    assert (nin.rows, nin.cols) == (mk.rows, mk.cols)
    assert nin.rows == (bw(1, 1), (), bw(3))
    assert nin.cols == (bw(1, 1), bw(1), bw(1, 1))


def test_nin_ignores_trailing_junk_like_the_original_program():
    text = (FIX / "small.nin").read_text() + "7 7 7\nnot a clue at all\n"
    assert loads(text, "nin")[0].rows == (bw(1, 1), (), bw(3))


@pytest.mark.parametrize(("line", "column", "hint"), [("1.1", 2, "did you mean 1,1?"), ("1 l", 3, "did you mean 1?"),
                                                     ("1 a", 3, "numbers separated by commas or spaces")])
def test_number_clue_typos_are_errors_with_column_and_hint(line, column, hint):
    """Readers of plain number clues (.nin, .mk, .g, tournament, ...) share number_clue: the same strict rule."""
    text = (FIX / "small.nin").read_text().replace("1 1\n0\n", f"{line}\n0\n", 1)
    with pytest.raises(ParseError) as e:
        loads(text, "nin", "t.nin")
    assert (e.value.line, e.value.column) == (2, column) and hint in str(e.value)


def test_nin_truncated():
    with pytest.raises(ParseError, match="truncated"):
        loads("3 3\n1\n1\n", "nin", "t.nin")


def test_g_colours_match_the_non_fixture():
    g = load(str(FIX / "colour.g"))[0]
    q = load(str(FIX / "colour.non"))[0]
    assert (g.rows, g.cols) == (q.rows, q.cols)
    assert [c.rgb for c in g.palette.colors] == ["#ffffff", "#ff0000", "#0000ff"]
    assert [c.symbol for c in g.palette.colors] == ["0", "r", "b"]


def test_g_triangles_are_refused():
    text = "#d\n  t:/  black/orange\n:\n1t\n:\n1t\n:\n"
    with pytest.raises(ParseError, match="triangle"):
        loads(text, "g", "tri.g")


def test_tournament_reads_columns_first_and_the_solution_beside():
    puzzles = load(str(FIX / "tiny-question.txt"))
    assert len(puzzles) == 2
    p1, p2 = puzzles
    assert p1.cols == (bw(1), bw(1, 1), (), bw(1))
    assert p1.rows == (bw(1), bw(1, 1), (), bw(1))
    assert p2.rows == (bw(2), bw(1), (), ())  # trailing empty clue lines at the end of the file
    for p in puzzles:
        assert_goal_matches(p)
        p.validate()
    assert p1.title == "tiny-question $1"


def test_tournament_without_solution_file(tmp_path):
    q = tmp_path / "set.txt"
    q.write_text((FIX / "tiny-question.txt").read_text())
    assert all(p.meta.goal is None for p in load(str(q)))


def test_tournament_solution_file_read_alone():
    puzzles = load(str(FIX / "tiny-question.solution.txt"))
    assert detect(str(FIX / "tiny-question.solution.txt"), (FIX / "tiny-question.solution.txt").read_text()) \
        == "tournament-solution"
    assert [p.rows for p in puzzles] == [p.rows for p in load(str(FIX / "tiny-question.txt"))]


def test_tournament_rejects_odd_blocks_and_bad_headers():
    with pytest.raises(ParseError, match="even"):
        loads("$1\n1\n1\n1\n", "tournament", "t.txt")
    with pytest.raises(ParseError, match="header"):
        loads("$x\n1\n1\n", "tournament", "t.txt")


def test_letters_collection():
    puzzles = load(str(FIX / "letters.txt"))
    assert [p.title for p in puzzles] == ["diagonal", "bar and dot"]
    bar = puzzles[1]
    assert bar.rows == (bw(3), (), bw(1, 1))
    assert bar.cols == (bw(1, 1), bw(1), bw(1, 1))
    bar.validate()


def test_letters_beyond_z_continue_with_code_points():
    cols = " ".join(["A"] * 27)
    p = one(f"--long\n[\n{cols}\n", "letters")  # "[" follows "Z": 27
    assert p.rows == (bw(27),)


def test_picross_grid_text():
    a, b = load(str(FIX / "grids.txt"))
    assert (a.title, a.rows, a.cols) == ("Corner", (bw(2), bw(1)), (bw(2), bw(1)))
    assert b.rows == (bw(1), (), ())
    with pytest.raises(ParseError, match="GRILL"):
        loads("GRID x\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\nGRILL Beaf\n", "grid", "g.txt")


def test_sgriddler_reversed_clues_and_solution():
    p = load(str(FIX / "tiny.sgriddler"))[0]
    assert p.rows == (bw(2, 1), (), bw(1, 2))
    assert_goal_matches(p)


# --- JSON ------------------------------------------------------------------------------------------


def test_json_schema_and_round_trip():
    p = load(str(FIX / "colour.non"))[0]
    text = dumps(p, "json")
    assert '"rows": [' in text and '[2, "a"], [1, "b"]' in text
    q = one(text, "json")
    assert q == p and q.meta == p.meta and q.palette == p.palette
    assert dumps(q, "json") == text


def test_json_bundle_and_hand_written_short_form():
    text = '{"rows": [[1], []], "columns": [[1]]}'
    p = one(text, "json")
    assert p.rows == (bw(1), ())
    both = loads(dumps([p, p], "json"), "json")
    assert both == [p, p]


@pytest.mark.parametrize(
    "text",
    ['{"rows": [[1]]}', '{"rows": [[1e400]], "columns": [[1]]}', '{"rows": [[99999999999]], "columns": [[1]]}',
     "[", "[]", '{"rows": [[-1]], "columns": [[1]]}', '{"rows": [[[1, "q"]]], "columns": [[1]]}',
     '{"rows": [[1]], "columns": [[1]], "width": 2}', '{"rows": [[NaN]], "columns": [[1]]}', "7"],
)
def test_json_rejects(text):
    with pytest.raises(ParseError):
        loads(text, "json", "bad.json")


# --- writers and round trips -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["dancer.non", "colour.non"])
def test_non_xml_non_round_trip_keeps_clues_colours_title_goal(name, tmp_path):
    p = load(str(FIX / name))[0]
    xml_path = tmp_path / "p.xml"
    dump(p, str(xml_path))
    via_xml = load(str(xml_path))[0]
    back_path = tmp_path / "back.non"
    dump(via_xml, str(back_path))
    back = load(str(back_path))[0]
    for q in (via_xml, back):
        assert (q.rows, q.cols) == (p.rows, p.cols)
        assert [c.rgb for c in q.palette.colors] == [c.rgb for c in p.palette.colors]
        assert q.title == p.title
        assert q.meta.goal == p.meta.goal
        assert q.meta.author == p.meta.author
        assert q.meta.license == p.meta.license
    assert [c.symbol for c in back.palette.colors] == [c.symbol for c in p.palette.colors]
    assert dumps(back, "non") == dumps(p, "non")


@pytest.mark.parametrize("fmt", ["non", "xml", "json"])
@pytest.mark.parametrize("name", ["dancer.non", "colour.non", "pair.nonpack", "colour.g", "letters.txt",
                                  "tiny-question.txt", "tiny.sgriddler", "grids.txt"])
def test_dumps_of_load_is_stable(fmt, name):
    puzzles = load(str(FIX / name))
    text = dumps(puzzles, fmt)
    again = loads(text, fmt)
    assert [(q.rows, q.cols) for q in again] == [(p.rows, p.cols) for p in puzzles]
    assert [q.meta.goal for q in again] == [p.meta.goal for p in puzzles]
    assert dumps(again, fmt) == text


def test_non_writer_remaps_symbols_non_cannot_carry():
    """`*` can follow a block length (`1*`); a digit cannot (it would read as part of the length)."""
    palette = Palette((Color("white", "#ffffff", "0"), Color("red", "#ff0000", "*"), Color("blue", "#0000ff", "9")))
    goal = Grid(((1, 2),))
    p = Puzzle((( Block(1, 1), Block(1, 2)),), (bw(1), (Block(1, 2),)), palette, Meta(title="x", goal=goal))
    text = dumps(p, "non")
    assert "color * #ff0000" in text and "color a #0000ff" in text and 'goal "*a"' in text
    q = one(text)
    assert (q.rows, q.cols, q.meta.goal) == (p.rows, p.cols, p.meta.goal)


def test_non_writer_escapes_entities_and_newlines_in_strings():
    p = Puzzle((bw(1),), (bw(1),), meta=Meta(title="a &amp; b\nsecond line"))
    q = one(dumps(p, "non"))
    assert q.title == "a &amp; b second line"


def test_nonpack_writer_needs_a_bundle_format():
    p = load(str(FIX / "dancer.non"))[0]
    assert loads(dumps([p, p], "nonpack"), "nonpack") == [p, p]
    with pytest.raises(NonocpError):
        dumps([p, p], "tournament")  # read-only format


# --- detection, registry, files --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fmt"),
    [("dancer.non", "non"), ("pair.nonpack", "nonpack"), ("small.nin", "nin"), ("small.mk", "mk"),
     ("colour.g", "g"), ("tiny.sgriddler", "sgriddler"), ("letters.txt", "letters"), ("grids.txt", "grid"),
     ("tiny-question.txt", "tournament")],
)
def test_detect_by_extension_then_content(name, fmt):
    path = str(FIX / name)
    text = (FIX / name).read_text()
    assert detect(path, text) == fmt
    assert detect("no-extension", text) == ("non" if fmt == "nonpack" else fmt)  # .non reads bundles too
    assert detect(path, text, fmt="json") == "json"  # explicit name wins


def test_detect_sniffs_content_of_txt_files():
    assert detect("x.txt", SMALL) == "non"
    assert detect("x.txt", XML_COLOUR) == "xml"
    assert detect("x.dat", '{"rows": []}') == "json"
    with pytest.raises(ParseError, match="cannot tell"):
        detect("x.txt", "hello world")


def test_register_a_writer_only_format_in_one_line():
    try:
        register("count", extensions=(".count",), writer=lambda p: f"{p.width}x{p.height}\n")
        p = load(str(FIX / "dancer.non"))[0]
        assert dumps(p, "count") == "5x6\n"
        assert "count" in FORMATS
        with pytest.raises(ParseError, match="cannot tell|can be written"):
            load(str(FIX / "dancer.non"), "count")
    finally:
        FORMATS.pop("count", None)


def test_missing_file_directory_binary_and_unknown_format(tmp_path):
    with pytest.raises(ParseError, match="no such file") as e:
        load(str(tmp_path / "absent.non"))
    assert str(tmp_path / "absent.non") in str(e.value)
    with pytest.raises(ParseError, match="directory"):
        load(str(tmp_path))
    binary = tmp_path / "x.non"
    binary.write_bytes(b"\x00\x01\x02PNG garbage")
    with pytest.raises(ParseError, match="binary"):
        load(str(binary))
    with pytest.raises(ParseError, match="unknown format"):
        load(str(FIX / "dancer.non"), "nope")


def test_latin1_file_is_read(tmp_path):
    f = tmp_path / "latin.non"
    f.write_bytes(SMALL.replace("Tiny", "Caf\xe9").encode("latin-1"))
    assert load(str(f))[0].title == "Café"


def test_utf8_bom_is_skipped(tmp_path):
    f = tmp_path / "bom.non"
    f.write_bytes(b"\xef\xbb\xbf" + SMALL.encode())
    assert load(str(f))[0].title == "Tiny"


def test_oversized_file_is_refused_before_reading(tmp_path, monkeypatch):
    import nonocp.formats.files as files

    monkeypatch.setattr(files, "MAX_FILE_BYTES", 10)
    f = tmp_path / "big.non"
    f.write_text(SMALL)
    with pytest.raises(ParseError, match="refused"):
        load(str(f))


def test_dump_writes_by_extension(tmp_path):
    p = load(str(FIX / "colour.non"))[0]
    for ext in ("non", "xml", "json"):
        out = tmp_path / f"p.{ext}"
        dump(p, str(out))
        assert load(str(out))[0] == p
    with pytest.raises(NonocpError):
        dump(p, str(tmp_path / "p.unknown"))
    assert os.path.exists(tmp_path / "p.non")
