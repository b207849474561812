"""The seed game's own files (Hungry Cat Nonogram; its solver at github.com/TradeIdeasPhilip/hungry-cat-nonogram-solver)
through the real command line: its puzzle list (a JSON list whose objects name each puzzle by `description`
and add a `hint`), its `•` all-in-a-row mark, and its rule that a count of 2 or more must carry its
`allInARow` flag.

The game's list has no licence that allows copying it here, so the tests of the list itself read it from the
path in NONOCP_HUNGRY_CAT_LIST (its `puzzles.json`) and skip without it. The same behaviour is covered in CI by
a list in the game's layout that our own writer makes from the team's count puzzles (puzzles/), whose
solution counts puzzles/expected.tsv records.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PUZZLES, unavailable
from nonocp.formats import dumps, load

ENGINES = ("native", "cpsat", "sat", "auto")
LIST_ENV = "NONOCP_HUNGRY_CAT_LIST"


def nonocp(*args, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "250"}  # tables and headers on one line each
    return subprocess.run([sys.executable, "-m", "nonocp.cli", *map(str, args)], capture_output=True, text=True,
                          input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL, timeout=600, env=env)


def records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def engine_or_skip(name: str) -> None:
    why = unavailable(name)
    if why:
        pytest.skip(f"engine {name} not available: {why}")


# ---- a list in the game's layout, written by our own tools --------------------------------------------------


def expected_counts() -> dict[tuple[str, int], str]:
    rows = [line.split("\t") for line in (PUZZLES / "expected.tsv").read_text().splitlines()[1:] if line.strip()]
    return {(name, int(i)): status for name, i, _, status in rows}


def game_entry(puzzle, description: str, hint: str) -> dict:
    """One object of the game's list: our JSON writer's object with the game's keys (description, hint), its
    key order (columns before rows) and without our own keys."""
    ours = json.loads(dumps(puzzle, "json"))
    return {"description": description, "hint": hint, "colors": ours["colors"], "columns": ours["columns"],
            "rows": ours["rows"]}


@pytest.fixture(scope="module")
def team_list(tmp_path_factory) -> tuple[Path, list[tuple[str, str, str]]]:
    """(path, [(description, hint, expected status)]): every count puzzle of puzzles/ in one list, as the game
    lays its list out."""
    status = expected_counts()
    entries, expected = [], []
    for path in sorted(PUZZLES.glob("counts-*")):
        for i, p in enumerate(load(str(path)), 1):
            description, hint = f"Team {len(entries) + 1}", f"from {path.name}"
            entries.append(game_entry(p, description, hint))
            expected.append((description, hint, status[path.name, i]))
    assert "none" in {s for _, _, s in expected}  # the list has a puzzle without solution, as the game's does
    target = tmp_path_factory.mktemp("game") / "puzzles.json"
    target.write_text(json.dumps(entries, indent=2, ensure_ascii=False), encoding="utf-8")
    return target, expected


@pytest.mark.parametrize("engine", ENGINES)
def test_the_list_is_solved_with_its_names_by_every_engine(team_list, engine):
    engine_or_skip(engine)
    path, expected = team_list
    r = nonocp("solve", path, "-b", engine, "-f", "json")
    assert r.returncode == 1, r.stderr  # one puzzle of the list has no solution
    got = records(r.stdout)
    assert [(d["puzzle"]["title"], d["status"]) for d in got] == [(t, s) for t, _, s in expected]


def test_every_command_shows_the_names_and_show_the_hints(team_list):
    path, expected = team_list
    show = nonocp("show", path)
    assert show.returncode == 0, show.stderr
    for description, hint, _ in expected:
        assert f"title: {description}\nnotes: {hint}\n" in show.stdout
    shown = records(nonocp("show", path, "-f", "json").stdout)
    assert [(d["title"], d["notes"]) for d in shown] == [(t, h) for t, h, _ in expected]
    for command in (("solve",), ("rate",), ("explain",), ("check", "-b", "native,sat")):
        r = nonocp(*command, path)
        assert r.returncode in (0, 1), (command, r.stderr)
        text = " ".join(r.stdout.split())  # check wraps its header lines to its table's width
        assert "untitled" not in text, command
        for description, _, _ in expected:
            assert description in text, (command, description)


def test_names_and_notes_survive_conversion(team_list, tmp_path):
    path, expected = team_list
    for ext in ("json", "counts"):
        out = tmp_path / f"list.{ext}"
        if ext == "counts":  # the text form holds one puzzle: the first
            r = nonocp("convert", path, out, "--to", "counts")
            assert r.returncode == 2  # several puzzles cannot go into one text form file
            first = json.loads(path.read_text())[0]
            one = tmp_path / "one.json"
            one.write_text(json.dumps(first))
            r = nonocp("convert", one, out)
            names = [expected[0][:2]]
        else:
            r = nonocp("convert", path, out)
            names = [(t, h) for t, h, _ in expected]
        assert r.returncode == 0, r.stderr
        shown = records(nonocp("show", out, "-f", "json").stdout)
        assert [(d["title"], d["notes"]) for d in shown] == names


# ---- the game's notations ----------------------------------------------------------------------------------

CROSS = """title "Cross"
colors white black
rows
2 1
0 3*
2 1
columns
2 1
0 3*
2 1
"""


def test_the_game_mark_reads_as_all_in_a_row(tmp_path):
    star = tmp_path / "star.counts"
    star.write_text(CROSS, encoding="utf-8")
    dot = tmp_path / "dot.counts"
    dot.write_text(CROSS.replace("3*", "3\u2022"), encoding="utf-8")
    a = records(nonocp("solve", star, "-f", "json").stdout)
    b = records(nonocp("solve", dot, "-f", "json").stdout)
    assert a[0]["status"] == b[0]["status"] == "unique"
    assert a[0]["solutions"] == b[0]["solutions"] == [["aba", "bbb", "aba"]]
    assert "3*" in nonocp("show", dot).stdout  # written back in our own form


FLAGLESS = """[
  {"description": "Flagless", "hint": "a count of 3 without its flag",
   "colors": ["white", "black"],
   "columns": [[{"count": 2, "allInARow": false}, {"count": 1}],
               [{"count": 0}, {"count": 3, "allInARow": true}],
               [{"count": 2, "allInARow": false}, {"count": 1}]],
   "rows": [[{"count": 2, "allInARow": false}, {"count": 1}],
            [{"count": 0}, {"count": 3}],
            [{"count": 2, "allInARow": false}, {"count": 1}]]}
]
"""


def test_a_count_without_its_flag_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "flagless.json"
    path.write_text(FLAGLESS, encoding="utf-8")
    for command in ("solve", "show", "check"):
        r = nonocp(command, path)
        assert r.returncode == 2, (command, r.stdout, r.stderr)
        assert f"{path}:8: row 2, colour 2: a count of 3 needs \"allInARow\"" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
    # with the flag, the same puzzle solves: counts of 0 and 1 need none, as in the game
    fixed = FLAGLESS.replace('{"count": 3}]', '{"count": 3, "allInARow": true}]')
    r = nonocp("solve", "-", "--from", "json", "-f", "json", stdin=fixed)
    assert r.returncode == 0, r.stderr
    assert records(r.stdout)[0]["solutions"] == [["aba", "bbb", "aba"]]


# ---- the game's own list (NONOCP_HUNGRY_CAT_LIST) -------------------------------------------------------------


def game_list() -> Path:
    where = os.environ.get(LIST_ENV)
    if not where:
        pytest.skip(f"{LIST_ENV} is not set (the path of the game solver's puzzles.json)")
    path = Path(where)
    if not path.is_file():
        pytest.skip(f"{LIST_ENV}={where} is not a file")
    return path


@pytest.mark.parametrize("engine", ENGINES)
def test_the_games_list_hard_211_has_no_solution(engine):
    path = game_list()
    engine_or_skip(engine)
    entries = json.loads(path.read_text(encoding="utf-8"))
    r = nonocp("solve", path, "-b", engine, "-f", "json")
    assert r.returncode == 1, r.stderr
    got = {d["puzzle"]["title"]: d["status"] for d in records(r.stdout)}
    assert list(got) == [e["description"] for e in entries]  # every puzzle by its name, in order
    assert got.pop("Hard 211") == "none"
    assert set(got.values()) == {"unique"}, got


def test_the_games_list_shows_names_and_hints():
    path = game_list()
    entries = json.loads(path.read_text(encoding="utf-8"))
    shown = records(nonocp("show", path, "-f", "json").stdout)
    assert [(d["title"], d["notes"]) for d in shown] == [(e["description"], e.get("hint", "")) for e in entries]
    assert "untitled" not in nonocp("solve", path).stdout
