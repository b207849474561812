"""Count-and-contiguity puzzles through the workbench's JSON API (the server side of the workbench):
opened in both file forms and as the game's list, solved by every engine, stepped a clicked line at a
time, exported; the JSON the page gets carries the count clues, and what it sends back reads as the same
puzzle. Answers are judged by the recorded verdicts (puzzles/expected.tsv), the clues themselves and the
sat engine's complete enumeration."""

from __future__ import annotations

import csv
import json

import pytest

from conftest import PUZZLES  # noqa: E402
from nonocp import solve  # noqa: E402
from nonocp.core.counts import count_clues_of  # noqa: E402
from nonocp.core.puzzle import Puzzle  # noqa: E402
from nonocp.formats import load, loads  # noqa: E402
from test_count_game_files import game_entry  # noqa: E402
from test_web_api import FILE, client_for, error_of  # noqa: E402

COUNT_FILES = sorted(p.name for p in PUZZLES.glob("counts-*"))


@pytest.fixture(scope="module")
def client():
    with client_for() as c:
        yield c


def expected() -> dict[str, tuple[int, str]]:
    with open(PUZZLES / "expected.tsv", encoding="utf-8") as f:
        return {r["file"]: (int(r["solutions"]), r["status"]) for r in csv.DictReader(f, delimiter="\t")
                if r["file"].startswith("counts-")}


def opened(client, name: str) -> dict:
    r = client.post(f"/api/open?name={name}", content=(PUZZLES / name).read_bytes(), headers=FILE)
    assert r.status_code == 200, r.text
    (puzzle,) = r.json()["puzzles"]
    return puzzle


def decoded(rows: list[str], obj: dict) -> list[list[int]]:
    index = {c["symbol"]: i for i, c in enumerate(obj["palette"])}
    return [[index[ch] for ch in row] for row in rows]


def clue_of(entries: list[dict]) -> list[tuple[int, bool]]:
    return [(e["count"], e.get("allInARow", False)) for e in entries]


@pytest.mark.parametrize("name", COUNT_FILES)
def test_open_gives_the_page_the_count_clues(client, name):
    obj = opened(client, name)
    puzzle = load(str(PUZZLES / name))[0]
    assert obj["clue_kind"] == "counts" and (obj["width"], obj["height"]) == (puzzle.width, puzzle.height)
    assert obj["title"] == puzzle.title
    assert [(c["rgb"], c["symbol"]) for c in obj["palette"]] == [(c.rgb, c.symbol) for c in puzzle.palette.colors]
    assert [clue_of(line) for line in obj["rows"]] == [[(e.count, e.together) for e in clue] for clue in puzzle.rows]
    assert [clue_of(line) for line in obj["columns"]] == [[(e.count, e.together) for e in clue]
                                                          for clue in puzzle.cols]
    # what the page sends back is the same puzzle
    assert loads(json.dumps(obj), "json")[0] == puzzle


def test_open_the_games_list_with_its_names(client):
    entries = []
    for i, name in enumerate(COUNT_FILES, 1):
        entries.append(game_entry(load(str(PUZZLES / name))[0], f"Team {i}", f"hint {i}"))
    r = client.post("/api/open?name=puzzles.json", content=json.dumps(entries).encode(), headers=FILE)
    assert r.status_code == 200, r.text
    got = r.json()["puzzles"]
    assert [(p["title"], p["notes"], p["clue_kind"]) for p in got] == [
        (f"Team {i}", f"hint {i}", "counts") for i in range(1, len(entries) + 1)]
    entry = dict(entries[0])
    entry["rows"] = [[{"count": e["count"]} for e in line] for line in entry["rows"]]
    message = error_of(client.post("/api/solve", json={"text": json.dumps(entry)}), 400)
    assert 'needs "allInARow"' in message and message.startswith("line ")


@pytest.mark.parametrize("engine", ["native", "cpsat", "sat", "auto"])
def test_solve_count_puzzles_with_every_engine(client, engine):
    for name, (count, status) in expected().items():
        obj = opened(client, name)
        answer = client.post("/api/solve", json={"puzzle": obj, "engine": engine, "max_solutions": 2}).json()
        assert answer["status"] == status, (name, answer)
        ncolors = len(obj["palette"])
        for rows in answer["solutions"]:  # each answer has the file's clues
            cells = decoded(rows, obj)
            got_rows, got_cols = count_clues_of(cells, ncolors)
            assert [[(e.count, e.together) for e in clue] for clue in got_rows] == [clue_of(x) for x in obj["rows"]]
            assert [[(e.count, e.together) for e in clue] for clue in got_cols] == [clue_of(x) for x in obj["columns"]]
        if status == "unique":
            assert answer["solutions"] == [obj["goal"]], name
        assert answer["count"] == min(count, 2), name


def test_step_by_clicking_columns_until_solved(client):
    """The Step mode as the game's page is used: click a column, see each cell's colours shrink; columns in turn
    until nothing is left to decide. Every colour the solution needs stays in its cell all along."""
    obj = opened(client, "counts-sunset.counts")
    solution = decoded(obj["goal"], obj)
    width, height = obj["width"], obj["height"]
    answer = client.post("/api/step", json={"puzzle": obj, "action": "start"}).json()
    assert answer["masks"] == [(1 << len(obj["palette"])) - 1] * (width * height)
    clicks = 0
    while answer["undecided"] and clicks < 4 * width:
        column = clicks % width
        answer = client.post("/api/step", json={"puzzle": obj, "action": "examine", "line": ["column", column],
                                                "state": answer["state"]}).json()
        clicks += 1
        for step in answer["taken"]:
            assert step["text"]
            if step["kind"] == "line":
                assert step["line"] == ["col", column]
        for r in range(height):
            for c in range(width):
                assert answer["masks"][r * width + c] >> solution[r][c] & 1, (r, c, clicks)
    assert answer["undecided"] == 0, f"{clicks} clicks on columns left cells undecided"
    assert answer["masks"] == [1 << v for row in solution for v in row]


def test_step_masks_are_sound_on_a_puzzle_with_several_solutions(client):
    obj = opened(client, "counts-cat.counts")
    every = solve(loads(json.dumps(obj), "json")[0], "sat", max_solutions=None)  # the other engine as oracle
    assert every.exhausted and len(every.solutions) == expected()["counts-cat.counts"][0]
    every = every.solutions
    answer = client.post("/api/step", json={"puzzle": obj, "action": "start"}).json()
    answer = client.post("/api/step", json={"puzzle": obj, "action": "jump", "target": 100000,
                                            "state": answer["state"]}).json()
    assert answer["finished"] and answer["solutions"] == len(every)
    back = client.post("/api/step", json={"puzzle": obj, "action": "jump", "target": 5,
                                          "state": answer["state"]}).json()
    w = obj["width"]
    for g in every:
        for (r, c), v in ((divmod(i, w), g.cells[i // w][i % w]) for i in range(w * obj["height"])):
            assert back["masks"][r * w + c] >> v & 1


def test_export_in_the_forms_that_hold_count_clues(client):
    obj = opened(client, "counts-fish.counts")
    fish = load(str(PUZZLES / "counts-fish.counts"))[0]
    exported = client.post("/api/export", json={"puzzle": obj, "format": "json"})
    assert exported.status_code == 200
    assert loads(exported.text, "json")[0] == fish
    text = client.post("/api/export", json={"puzzle": obj, "format": "counts"})
    assert text.status_code == 200 and text.headers["content-disposition"].endswith('.counts"')
    again = loads(text.text, "counts")[0]
    assert again == fish and again.meta.goal == fish.meta.goal
    svg = client.post("/api/export", json={"puzzle": obj, "format": "svg"})
    assert svg.status_code == 200 and svg.text.count('class="all-in-a-row"') > 0
    assert "cannot hold count-and-contiguity clues" in error_of(
        client.post("/api/export", json={"puzzle": obj, "format": "non"}), 400)


def as_page_sends(obj: dict) -> dict:
    """The puzzle as the page sends it back: its colours as it draws them (objects), no `palette`."""
    page = {k: v for k, v in obj.items() if k != "palette"}
    page["colors"] = [dict(c) for c in obj["palette"]]
    return page


@pytest.mark.parametrize("name", COUNT_FILES)
def test_the_colours_the_page_draws_read_back_as_the_file_wrote_them(client, name):
    obj = opened(client, name)
    page = as_page_sends(obj)
    answer = client.post("/api/validate", json={"puzzle": page}).json()
    assert answer["valid"] and answer["problems"] == []
    assert answer["puzzle"]["colors"] == obj["colors"]  # "orange" stays a name, #fff44f stays itself
    assert loads(json.dumps(answer["puzzle"]), "json")[0] == load(str(PUZZLES / name))[0]
    exported = client.post("/api/export", json={"puzzle": page, "format": "counts"}).text
    assert loads(exported, "counts")[0] == load(str(PUZZLES / name))[0]


def test_validate_reads_each_count_line_and_says_what_is_wrong(client):
    """The Edit mode's count form: every wrong line named with its reason, in the words of the file reader."""
    page = as_page_sends(opened(client, "counts-sunset.counts"))  # 8x8, 4 colours; row 1 is 8* 0 0 0

    def problems(**lines) -> list[tuple[str, int, str]]:
        p = json.loads(json.dumps(page))
        for key, value in lines.items():
            kind, index = key.split("_")
            p["rows" if kind == "row" else "columns"][int(index) - 1] = value
        answer = client.post("/api/validate", json={"puzzle": p}).json()
        assert answer["valid"] == (not answer["problems"])
        return [(x["kind"], x["index"], x["message"]) for x in answer["problems"]]

    assert problems() == []
    (only,) = problems(row_2=[{"count": 5, "allInARow": False}, {"count": 2, "allInARow": True}, {"count": 0},
                              {"count": 0}])
    assert only[:2] == ("row", 2) and "add up to 7" in only[2] and "8 cells" in only[2]
    (only,) = problems(column_3="1 2 3")
    assert only[:2] == ("column", 3) and "3 counts for 4 colours" in only[2]
    (only,) = problems(row_1=[{"count": 8}, {"count": 0}, {"count": 0}, {"count": 0}])
    assert "needs allInARow" in only[2]
    (only,) = problems(row_1=[{"count": 7, "allInARow": True}, {"count": 1, "allInARow": True}, {"count": 0},
                              {"count": 0}])
    assert "count 1 cannot be marked all in a row" in only[2]
    (only,) = problems(row_1="8x 0 0 0")
    assert "is not a count" in only[2]
    # two wrong lines, both named
    assert [(k, i) for k, i, _ in problems(row_4="1 1 1 1", column_8="9 0 0 0")] == [("row", 4), ("column", 8)]
    # each line right, but one colour's cells moved in a row only: the colour totals say so
    moved = problems(row_2="5 3* 0 0")
    assert [(k, i) for k, i, _ in moved] == [("colour", 1), ("colour", 2)]
    assert "the rows hold 21 cells of it but the columns 22" in moved[0][2]


def test_a_flag_toggled_in_edit_changes_the_verdict(client):
    """Row 1 of Sunset is 8* (all in a row); as `8` (not all in a row) on a line of 8 it has no solution."""
    page = as_page_sends(opened(client, "counts-sunset.counts"))
    page["rows"][0] = [{"count": 8, "allInARow": False}, {"count": 0}, {"count": 0}, {"count": 0}]
    answer = client.post("/api/validate", json={"puzzle": page}).json()
    assert answer["valid"]
    assert answer["puzzle"]["rows"][0][0] == {"count": 8, "allInARow": False}
    for engine in ("native", "sat"):
        verdict = client.post("/api/solve", json={"puzzle": answer["puzzle"], "engine": engine}).json()
        assert verdict["status"] == "none", engine


def test_play_check_and_hint_on_a_count_puzzle(client):
    """Colour 0 is a colour here, not a cross: a grid of the solution's first colour where it belongs is
    right, the same cells in another colour are mistakes, and every hint decides cells as the solution has them."""
    obj = opened(client, "counts-sunset.counts")
    page = as_page_sends(obj)
    goal = [v for row in decoded(obj["goal"], obj) for v in row]
    cells = [v if v == 0 else -1 for v in goal]
    answer = client.post("/api/play", json={"puzzle": page, "cells": cells, "action": "check"}).json()
    assert answer["check"]["status"] == "ok"
    wrong = list(cells)
    wrong[0] = 1
    answer = client.post("/api/play", json={"puzzle": page, "cells": wrong, "action": "check"}).json()
    assert answer["check"]["status"] == "mistakes" and answer["check"]["mistakes"] == [[0, 0]]
    hints = 0
    while -1 in cells:
        hint = client.post("/api/play", json={"puzzle": page, "cells": cells, "action": "hint"}).json()["hint"]
        assert hint["kind"] == "deduction" and hint["cells"], hint
        for r, c, v in hint["cells"]:
            assert goal[r * obj["width"] + c] == v
            cells[r * obj["width"] + c] = v
        hints += 1
    assert cells == goal and hints > 1


def test_make_unique_on_a_count_drawing(client):
    """The Design mode's make-unique with count clues: the answer's drawing has one solution by sat's count."""
    obj = opened(client, "counts-cat.counts")  # several solutions, no goal: draw the first
    page = as_page_sends(obj)
    page["goal"] = obj["goal"] = client.post("/api/solve", json={"puzzle": page}).json()["solutions"][0]
    answer = client.post("/api/design/unique", json={"puzzle": page}).json()
    assert answer["status"] == "unique", answer
    drawn = decoded(answer["goal"], obj)
    rows, cols = count_clues_of(drawn, len(obj["palette"]))
    redrawn = Puzzle(rows, cols, load(str(PUZZLES / "counts-cat.counts"))[0].palette, clue_kind="counts")
    assert len(solve(redrawn, "sat", max_solutions=2).solutions) == 1
    before = decoded(obj["goal"], obj)
    repainted = sum(a != b for x, y in zip(drawn, before, strict=True) for a, b in zip(x, y, strict=True))
    assert len(answer["changes"]) == repainted > 0
