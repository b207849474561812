"""POST /api/play (the Play mode's Check and Hint), POST /api/design/unique and the import's threshold,
through Starlette's test client and real worker processes."""

from __future__ import annotations

import io

import pytest

from conftest import PUZZLES  # noqa: E402
from nonocp import load, solve  # noqa: E402
from nonocp.core.grid import Grid  # noqa: E402
from nonocp.core.puzzle import Puzzle, clues_of  # noqa: E402
from nonocp.formats.json_format import to_obj  # noqa: E402
from test_web_api import FILE, client_for  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with client_for() as c:
        yield c


def puzzle_obj(name: str) -> tuple[dict, list[int]]:
    puzzle = load(str(PUZZLES / name))[0]
    obj = to_obj(puzzle)
    goal = [v for row in puzzle.meta.goal.cells for v in row] if puzzle.meta.goal else []
    obj.pop("goal", None)
    return obj, goal


def test_check_names_the_wrong_cells_and_keeps_the_solutions_for_the_next_request(client):
    obj, goal = puzzle_obj("fish.non")
    cells = [v if i % 3 == 0 else -1 for i, v in enumerate(goal)]
    wrong = [i for i, v in enumerate(cells) if v >= 0][5:7]
    for i in wrong:
        cells[i] = (cells[i] + 1) % len(obj["colors"])
    first = client.post("/api/play", json={"puzzle": obj, "cells": cells, "action": "check"}).json()
    w = obj["width"]
    assert first["check"]["status"] == "mistakes" and first["check"]["exact"]
    assert first["check"]["mistakes"] == [list(divmod(i, w)) for i in wrong]
    assert first["kept"] is False
    again = client.post("/api/play", json={"puzzle": obj, "cells": goal, "action": "check"}).json()
    assert again["kept"] is True  # the puzzle's solutions are not searched again
    assert again["check"] == {"status": "ok", "mistakes": [], "exact": True, "complete": True}


def test_a_hint_points_at_a_mistake_first_then_gives_a_deduction_in_words(client):
    obj, goal = puzzle_obj("gen-bw-20x20.non")
    w = obj["width"]
    cells = [-1] * len(goal)
    hint = client.post("/api/play", json={"puzzle": obj, "cells": cells, "action": "hint"}).json()["hint"]
    assert hint["kind"] == "deduction" and hint["cells"] and hint["technique"] and hint["text"]
    assert hint["line"][0] in ("row", "col")
    assert all(goal[r * w + c] == v for r, c, v in hint["cells"])
    r, c, v = hint["cells"][0]
    cells[r * w + c] = 1 - v
    hint = client.post("/api/play", json={"puzzle": obj, "cells": cells, "action": "hint"}).json()["hint"]
    assert hint["kind"] == "mistake" and hint["mistake"] == [r, c]


def test_only_a_guess_remains_on_a_puzzle_with_several_solutions(client):
    obj, _ = puzzle_obj("eyes.non")  # 12 solutions; the first deduction leaves only guesses
    cells = [-1] * (obj["width"] * obj["height"])
    kinds = []
    for _ in range(50):
        hint = client.post("/api/play", json={"puzzle": obj, "cells": cells, "action": "hint"}).json()["hint"]
        kinds.append(hint["kind"])
        if hint["kind"] != "deduction":
            break
        for r, c, v in hint["cells"]:
            cells[r * obj["width"] + c] = v
    assert kinds[-1] == "guess"


@pytest.mark.parametrize(("change", "message"), [
    ({"cells": [-1] * 3}, "'cells' must be a list of"),
    ({"cells": "abc"}, "'cells' must be a list of"),
    ({"cells": None}, "'cells' must be a list of"),
    ({"action": "solve"}, "'action' must be one of"),
    ({"fill": 7}, "palette index"),
    ({"fill": True}, "palette index"),
])
def test_bad_play_requests_are_400_with_a_message(client, change, message):
    obj, goal = puzzle_obj("heart.non")
    body = {"puzzle": obj, "cells": [-1] * len(goal), "action": "check"}
    if "fill" in change:
        body["cells"] = [change.pop("fill")] * len(goal)
    body.update(change)
    answer = client.post("/api/play", json=body)
    assert answer.status_code == 400
    assert message in answer.json()["error"]


def designer_or_skip(client):
    if not client.get("/api/info").json()["features"]["import_image"]:
        pytest.skip("no designer library (nonocp.design)")


def test_make_unique_repaints_the_fewest_cells_it_finds_and_the_result_is_unique(client):
    designer_or_skip(client)
    drawing = ["1000", "0100", "0000", "0000"]  # a diagonal pair: the other diagonal fits its clues too
    obj = to_obj(Puzzle(*clues_of(Grid.from_rows([[int(ch) for ch in row] for row in drawing]))))
    obj["goal"] = drawing
    answer = client.post("/api/design/unique", json={"puzzle": obj}).json()
    assert answer["status"] == "unique", answer
    before = obj["goal"]
    changed = [[r, c] for r in range(4) for c in range(4) if answer["goal"][r][c] != before[r][c]]
    assert [ch[:2] for ch in answer["changes"]] == changed and changed
    rows = "\n".join(answer["goal"])
    grid = Grid.from_rows([[int(ch) for ch in row] for row in answer["goal"]])
    assert solve(Puzzle(*clues_of(grid)), max_solutions=2).status.value == "unique", rows
    refused = client.post("/api/design/unique", json={"puzzle": {k: v for k, v in obj.items() if k != "goal"}})
    assert refused.status_code == 400 and "goal" in refused.json()["error"]


def test_import_takes_a_threshold(client):
    designer_or_skip(client)
    from PIL import Image

    # a white border around grey cells: 100 (dark) in a ring, 200 (light) in the middle
    img = Image.new("L", (50, 50), 255)
    img.paste(100, (10, 10, 40, 40))
    img.paste(200, (20, 20, 30, 30))
    buf = io.BytesIO()
    img.save(buf, format="PNG")

    def goal(threshold: int) -> list[str]:
        answer = client.post(f"/api/design/import?name=g.png&width=5&threshold={threshold}", content=buf.getvalue(),
                             headers=FILE)
        assert answer.status_code == 200, answer.text
        return answer.json()["puzzle"]["goal"]

    assert goal(150) == ["00000", "01110", "01010", "01110", "00000"]
    assert goal(220) == ["00000", "01110", "01110", "01110", "00000"]
    bad = client.post("/api/design/import?name=g.png&width=5&threshold=300", content=buf.getvalue(), headers=FILE)
    assert bad.status_code == 422 and "threshold" in bad.json()["error"]
    mixed = client.post("/api/design/import?name=g.png&width=5&colors=3&threshold=100", content=buf.getvalue(),
                        headers=FILE)
    assert mixed.status_code == 400 and "black and white" in mixed.json()["error"]


def test_the_page_preloads_every_module_main_js_imports():
    """index.html names every module for the browser to fetch at once (a new module left out is fetched
    only after the module importing it: slower first paint); print.js belongs to the print page."""
    import re
    from pathlib import Path

    import nonocp.web

    static = Path(nonocp.web.__file__).parent / "static"
    html = (static / "index.html").read_text(encoding="utf-8")
    modules = sorted(p.relative_to(static).as_posix() for p in (static / "js").rglob("*.js")
                     if p.name not in ("main.js", "print.js"))
    assert sorted(re.findall(r'rel="modulepreload" href="/static/([^"]+)"', html)) == modules
