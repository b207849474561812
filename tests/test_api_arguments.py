"""The Python API refuses what it does not understand: every public function raises TypeError or ValueError
naming what it accepts (never AttributeError from deep inside, never a silent guess), means by `0` what the
command line means, and applies the file readers' size limits to clues given in Python."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import PUZZLES, examples

import nonocp
from nonocp.core.limits import MAX_CELLS, MAX_SIDE

HEART = str(PUZZLES / "heart.non")


def small() -> nonocp.Puzzle:
    return nonocp.Puzzle.from_clues([[1], [1]], [[1], [1]])


# What a careless caller passes where a Puzzle is meant: each must be a TypeError that says what to pass.
NOT_PUZZLES = [None, HEART, b"width 1", 3, 2.5, [], {}, object(), ["row"], os.path]
PUZZLE_FUNCTIONS = {
    "solve": lambda x: nonocp.solve(x),
    "solutions": lambda x: nonocp.solutions(x),
    "explain": lambda x: nonocp.explain(x),
    "rate": lambda x: nonocp.rate(x),
    "backbone": lambda x: nonocp.backbone(x),
    "check": lambda x: nonocp.check(x),
    "render_text": lambda x: nonocp.render_text(x),
    "dumps": lambda x: nonocp.dumps(x, "json"),
    "Stepper": lambda x: nonocp.Stepper(x),
}


@pytest.mark.parametrize("function", sorted(PUZZLE_FUNCTIONS))
@pytest.mark.parametrize("value", NOT_PUZZLES, ids=lambda v: type(v).__name__)
def test_a_non_puzzle_is_a_type_error_naming_the_function(function, value):
    with pytest.raises(TypeError, match=rf"{function}\(\)|Puzzle"):
        PUZZLE_FUNCTIONS[function](value)


def test_a_path_where_a_puzzle_is_meant_says_how_to_read_it():
    with pytest.raises(TypeError, match=r"nonocp.load\(path\)"):
        nonocp.solve(HEART)
    with pytest.raises(TypeError, match="returns a list"):
        nonocp.solve(nonocp.load(HEART))


def test_unknown_keywords_are_refused_with_the_accepted_names():
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'bogus'.*timeout.*max_solutions|"
                                        r"unexpected keyword argument 'bogus'.*max_solutions.*timeout"):
        nonocp.solve(small(), bogus=1)
    # a misspelling gets a suggestion, and the engine's own options are listed
    with pytest.raises(TypeError, match=r"'timout' \(did you mean timeout\?\).*native engine's settings: probe"):
        nonocp.solve(small(), "native", timout=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'encoding'"):
        nonocp.solve(small(), "native", encoding="blocks")  # a sat option, not native's
    assert nonocp.solve(small(), "sat", encoding="blocks").status  # ... which sat takes
    with pytest.raises(ValueError, match="encoding"):
        nonocp.solve(small(), "sat", encoding="zigzag")


@pytest.mark.parametrize("call", [
    lambda: nonocp.solve(small(), timeout="5"),
    lambda: nonocp.solve(small(), timeout=True),
    lambda: nonocp.solve(small(), max_solutions="all"),
    lambda: nonocp.solve(small(), max_solutions=2.0),
    lambda: nonocp.solve(small(), backend=3),
    lambda: nonocp.solve(small(), seed="x"),
    lambda: nonocp.solve(small(), workers=1.5),
    lambda: nonocp.solve(small(), progress=3),
    lambda: nonocp.solve(small(), cancel=True),
    lambda: nonocp.solve(small(), timeout=1, time_limit=1),
    lambda: nonocp.explain(small(), max_steps="10"),
    lambda: nonocp.check(small(), engines=3),
    lambda: nonocp.load(None),
    lambda: nonocp.load(3),
    lambda: nonocp.loads(None),
    lambda: nonocp.loads(b"width 1"),
    lambda: nonocp.dump(small(), None),
    lambda: nonocp.dump(HEART, small()),
    lambda: nonocp.render_text(small(), "#."),
    lambda: nonocp.render_text(small(), [[1, 0], None]),
    lambda: small().is_solution(None),
    lambda: small().is_solution(["#.", ".#"]),
    lambda: nonocp.Puzzle.from_clues(None, [[1]]),
    lambda: nonocp.Puzzle.from_clues("1 1", [[1]]),
    lambda: nonocp.Puzzle.from_clues([[1]], [[1]], colors="red"),
    lambda: nonocp.Puzzle.from_clues([[1]], [[1]], title=3),
    lambda: nonocp.Puzzle([[1]], [[1]], palette=3),
    lambda: nonocp.Stepper(small()).examine("row 1"),
], ids=range(28))
def test_wrong_types_are_type_errors(call):
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize("call,needle", [
    (lambda: nonocp.solve(small(), timeout=-1), "0 \\(no limit\\)"),
    (lambda: nonocp.solve(small(), timeout=float("nan")), "0 \\(no limit\\)"),
    (lambda: nonocp.solve(small(), max_solutions=0), "less than 1"),
    (lambda: nonocp.solve(small(), "glucose"), "sat:glucose4"),
    (lambda: nonocp.solve(small(), "natve"), "did you mean native"),
    (lambda: nonocp.check(small(), ["native", "bogus"]), "choose from native"),
    (lambda: nonocp.check(small(), []), "at least one engine"),
    (lambda: nonocp.backbone(small(), "nope"), "choose from"),
    (lambda: nonocp.loads("width 1", "bogus"), "choose from"),
    (lambda: nonocp.dumps(small(), "svg"), "cannot write format 'svg'"),
    (lambda: nonocp.render_text(small(), [[1, 0, 0], [0, 1, 0]]), "the grid is 3x2"),
    (lambda: nonocp.Puzzle.from_clues([[1]], [[1]], clues="colours"), "choose 'runs' or 'counts'"),
    (lambda: nonocp.Stepper(small()).examine(("diagonal", 0)), "\"column\""),
    (lambda: nonocp.Stepper(small()).examine(("column", 5)), "columns are 0 to 1"),
    (lambda: nonocp.render_text(small(), [[1, 5], [0, 1]]), "outside the puzzle's palette"),
    (lambda: nonocp.Puzzle.from_clues([[1]], [[1]], ["red", "red"]), "named twice"),
], ids=range(16))
def test_wrong_values_are_value_errors_naming_what_is_accepted(call, needle):
    with pytest.raises(ValueError, match=needle):
        call()


def test_any_seed_works_on_every_engine():
    """CP-SAT's seed is 32 bits: a bigger one is mapped into it, as every other engine takes any seed."""
    for engine in ("native", "sat", "cpsat", "auto"):
        assert nonocp.solve(small(), engine, seed=2**40 + 3).status, engine


def test_zero_means_no_limit_as_on_the_command_line():
    """`timeout=0` (and `time_limit=0`) is no limit, as `-t 0`: the search runs to its answer."""
    p = nonocp.Puzzle.from_clues([[1]] * 6, [[1]] * 6)
    for kwargs in ({"timeout": 0}, {"time_limit": 0}, {"timeout": None}):
        r = nonocp.solve(p, "native", max_solutions=None, **kwargs)
        assert r.exhausted and r.found == 720, kwargs
    assert nonocp.rate(p, 0).verdict == "MULTIPLE"
    assert nonocp.explain(p, timeout=0).outcome == "solved"


def test_from_clues_applies_the_readers_size_limits():
    with pytest.raises(ValueError, match="over the size limit"):
        nonocp.Puzzle.from_clues([[1]] * 100_000, [[1]] * 100_000)
    with pytest.raises(ValueError, match="over the size limit"):
        nonocp.Puzzle.from_clues([[]] * (MAX_SIDE + 1), [[]])
    side = int(MAX_CELLS ** 0.5) + 1
    with pytest.raises(ValueError, match="over the size limit"):
        nonocp.Puzzle.from_clues([[]] * side, [[]] * side)


# ---- clue kinds and palettes ------------------------------------------------------------------------


def test_from_clues_builds_count_clues_that_solve_end_to_end():
    rows = [["3*", 0, 0], [1, "2*", 0], [1, 1, 1]]
    cols = [["3*", 0, 0], [1, "2•", 0], [1, 1, 1]]
    p = nonocp.Puzzle.from_clues(rows, cols, ["red", "green", "blue"], clues="counts")
    assert p.has_counts and [c.name for c in p.palette.colors] == ["red", "green", "blue"]
    result = nonocp.solve(p)
    assert all(p.is_solution(g) for g in result.solutions) and result.solutions
    assert result.solution.to_strings()[0] == "rrr"
    same = nonocp.Puzzle.from_clues([[(3, True), 0, 0], [1, (2, True), 0], [1, 1, 1]],
                                    [[(3, True), 0, 0], [1, (2, True), 0], [1, 1, 1]], ["red", "green", "blue"],
                                    clues="counts")
    assert same.rows == p.rows and same.cols == p.cols


@pytest.mark.parametrize("colors,needle", [
    (["red"], "two colours or more, not 1"),
    ([], "two colours or more, not 0"),
])
def test_count_clues_with_too_few_colours_say_why(colors, needle):
    with pytest.raises(ValueError, match=needle):
        nonocp.Puzzle.from_clues([[1]], [[1]], colors, clues="counts")


def test_a_palette_given_as_names_works_end_to_end():
    p = nonocp.Puzzle([[(1, "red"), (1, "blue")]], [[(1, "red")], [(1, "blue")]], palette=["red", "blue"])
    assert isinstance(p.palette, nonocp.Palette)
    solution = nonocp.solve(p, "native").solution
    assert solution.to_strings(p.palette) == ["rb"] == solution.to_strings()
    with pytest.raises(ValueError, match="unknown name"):
        nonocp.Puzzle([[1]], [[1]], palette=["reddish"])


def test_a_line_is_named_the_same_way_everywhere():
    """("column", i) as the web API says it, and ("col", i) as steps write it: the same line."""
    p = nonocp.Puzzle.from_clues([[2], [1]], [[2], [1]])
    a, b = nonocp.Stepper(p), nonocp.Stepper(p)
    assert [s.changes for s in a.examine(("column", 0))] == [s.changes for s in b.examine(("col", 0))]
    assert a.steps and a.steps[-1].line == ("col", 0)


def test_reprs_read_like_a_puzzle():
    p = nonocp.Puzzle.from_clues([[1, 1], [3], [1]], [[2], [2], [2]], title="Heart")
    assert repr(p) == "Puzzle('Heart', 3x3, black and white)"
    r = nonocp.solve(p, "native")
    assert repr(r) == "SolveResult(unique: 1 solution, search exhausted, by native)\n#.#\n###\n.#."
    assert repr(r.solution) == "Grid 3x3:\n#.#\n###\n.#."


# ---- fuzzing: anything at all, never an unexpected exception ----------------------------------------

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=5),
                 st.binary(max_size=5), st.lists(st.integers(-2, 3), max_size=3),
                 st.dictionaries(st.text(max_size=2), st.integers(), max_size=2), st.just(object()))
EXPECTED = (TypeError, ValueError, nonocp.NonocpError)


@settings(max_examples=examples(300), deadline=None)
@given(value=JUNK, keyword=st.sampled_from(["backend", "max_solutions", "timeout", "fixed", "seed", "workers",
                                            "progress", "cancel", "time_limit", "probe"]))
def test_solve_fuzzed_keywords_raise_only_type_or_value_errors(value, keyword):
    kwargs = {"backend": value} if keyword == "backend" else {keyword: value}
    try:
        nonocp.solve(small(), **kwargs) if keyword == "backend" else nonocp.solve(small(), "native", **kwargs)
    except EXPECTED:
        pass


@settings(max_examples=examples(300), deadline=None)
@given(rows=JUNK | st.lists(JUNK, max_size=3), cols=JUNK | st.lists(JUNK, max_size=3),
       colors=st.none() | JUNK, clues=st.sampled_from(["runs", "counts"]) | JUNK)
def test_from_clues_fuzzed_raises_only_type_or_value_errors(rows, cols, colors, clues):
    try:
        nonocp.Puzzle.from_clues(rows, cols, colors, clues=clues)
    except EXPECTED:
        pass
