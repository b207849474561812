"""Count-and-contiguity puzzles through the workbench's JSON API (the server side of issue 35's workbench):
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


def test_export_and_what_the_page_cannot_do_yet(client):
    obj = opened(client, "counts-fish.counts")
    exported = client.post("/api/export", json={"puzzle": obj, "format": "json"})
    assert exported.status_code == 200
    assert loads(exported.text, "json")[0] == load(str(PUZZLES / "counts-fish.counts"))[0]
    svg = client.post("/api/export", json={"puzzle": obj, "format": "svg"})
    assert svg.status_code == 200 and svg.text.count('class="all-in-a-row"') > 0
    assert "cannot hold count-and-contiguity clues" in error_of(
        client.post("/api/export", json={"puzzle": obj, "format": "non"}), 400)
    assert "cannot be edited here yet" in error_of(client.post("/api/validate", json={"puzzle": obj}), 422)
