"""The JSON API of `nonocp serve`, through Starlette's test client: every endpoint, answers checked against
the shipped puzzles' known verdicts and the brute-force oracle, bad input answered 4xx with a message
(never a traceback). The worker processes' limits are tested in test_web_workers.py.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from conftest import PUZZLES, examples  # noqa: E402
from nonocp.core.grid import Grid  # noqa: E402
from nonocp.formats import loads  # noqa: E402
from nonocp.formats.json_format import to_obj  # noqa: E402
from nonocp.web import Limits, Settings, create_app  # noqa: E402
from oracle import brute_force  # noqa: E402
from strategies import palette_of, puzzle_from_grid  # noqa: E402

# Time limits far above what any solve here needs: a worker runs niced (nonocp.web.workers) and a machine
# at load 10 may give it a few percent of a core, so a limit of seconds would turn load into wrong verdicts.
# A ceiling costs nothing when the machine is fast; the tests of the limits themselves set their own.
LIMITS = Limits(max_time_limit=600.0, default_time_limit=600.0, kill_grace=0.3)
FILE = {"content-type": "application/octet-stream"}  # how the page sends a file (/api/open, /api/design/import)
JSON = {"content-type": "application/json"}
WEB = Path(__file__).resolve().parent.parent / "src" / "nonocp" / "web"


def client_for(**settings) -> TestClient:
    settings.setdefault("limits", LIMITS)
    settings.setdefault("allowed_hosts", ("testserver",))
    return TestClient(create_app(Settings(**settings)), raise_server_exceptions=False)


@pytest.fixture(scope="module")
def client():
    with client_for() as c:
        yield c


def expected_verdicts() -> dict[tuple[str, int], tuple[int, str]]:
    """The shipped run-clue puzzles' verdicts (count-clue puzzles: tests/test_web_counts.py)."""
    with open(PUZZLES / "expected.tsv", encoding="utf-8") as f:
        rows = csv.DictReader(f, delimiter="\t")
        return {(r["file"], int(r["puzzle"])): (int(r["solutions"]), r["status"]) for r in rows
                if not r["file"].startswith("counts-")}


def test_count_clue_puzzles_are_listed_with_their_kind(client):
    """The page's list offers both kinds of clues, each saying which (serving them: tests/test_web_counts.py)."""
    listed = {p["name"]: p for p in client.get("/api/puzzles").json()["puzzles"]}
    assert listed["counts-sunset.counts"]["clue_kind"] == "counts" and listed["heart.non"]["clue_kind"] == "runs"
    assert listed["counts-sunset.counts"]["colors"] == 4 and listed["fish.non"]["colors"] == 4  # fish: 4 inks


def error_of(response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "status"} and body["status"] == status
    message = body["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


# --- reading -----------------------------------------------------------------------------------------


def test_info_names_engines_formats_and_limits(client):
    info = client.get("/api/info").json()
    assert {"native", "cpsat", "sat", "auto"} <= set(info["engines"])
    assert "non" in info["formats"]["read"] and "pbm" in info["formats"]["read"]
    # every export button of the page is offered (the list comes from the formats registry and the renderers)
    buttons = re.findall(r'data-export="(\w+)"', (WEB / "static" / "index.html").read_text(encoding="utf-8"))
    assert set(buttons) == {"non", "xml", "json", "counts", "svg", "png"}
    assert set(buttons) <= set(info["formats"]["export"]) <= set(info["formats"]["read"]) | {"svg", "png"}
    assert info["limits"]["max_side"] == LIMITS.max_side
    assert set(info["features"]) == {"step", "import_image"}


def test_shipped_puzzles_are_listed_and_served_as_their_files_read(client):
    listed = {p["name"]: p for p in client.get("/api/puzzles").json()["puzzles"]}
    files = {name for name, _ in expected_verdicts()}
    assert files <= set(listed)
    for name in files:
        served = client.get(f"/api/puzzles/{name}").json()["puzzles"]
        from_disk = [to_obj(p) for p in __import__("nonocp").load(str(PUZZLES / name))]
        assert served == from_disk
        assert listed[name]["count"] == len(served)


def test_unknown_puzzle_and_unknown_path_are_404_json(client):
    assert "no shipped puzzle" in error_of(client.get("/api/puzzles/nope.non"), 404)
    assert "/api/nothing" in error_of(client.get("/api/nothing"), 404)
    assert "not allowed" in error_of(client.get("/api/solve"), 405)


@pytest.mark.parametrize("name", ["heart.non", "fish.non", "gen-bundle.nonpack", "mushroom.non"])
def test_open_reads_an_uploaded_file_like_the_cli(client, name):
    data = (PUZZLES / name).read_bytes()
    answer = client.post(f"/api/open?name={name}", content=data, headers=FILE).json()
    assert answer["puzzles"] == client.get(f"/api/puzzles/{name}").json()["puzzles"]
    # without a name the content tells the format
    assert client.post("/api/open", content=data, headers=FILE).json()["puzzles"] == answer["puzzles"]


def test_open_reads_a_binary_pbm_and_pasted_text_with_a_format(client):
    # P4: 8x2 bitmap, rows 0b11110000 and 0b00001111
    pbm = b"P4\n8 2\n" + bytes([0b11110000, 0b00001111])
    puzzle = client.post("/api/open?name=bits.pbm", content=pbm, headers=FILE).json()["puzzles"][0]
    assert puzzle["rows"] == [[[4, "1"]], [[4, "1"]]]
    assert puzzle["goal"] == ["11110000", "00001111"]
    picture = client.post("/api/open?format=picture", content=b"#.#\n.#.\n", headers=FILE).json()
    assert picture["format"] == "picture"
    assert picture["puzzles"][0]["columns"] == [[[1, "1"]], [[1, "1"]], [[1, "1"]]]


@pytest.mark.parametrize(
    "body, words",
    [
        (b"width 3\nheight 2\nrows\n1\n", "no `columns` section"),
        (b"", "empty"),
        (b"\x00\x01\x02binary", "binary"),
        (b"width 3\nheight 1\nrows\n9\ncolumns\n1\n1\n1\n", "needs 9 cells"),
        (b"width 2\nheight 2\nrows\n1 x\n1\ncolumns\n1\n1\n", "line 4"),
    ],
)
def test_open_refuses_malformed_text_with_a_message(client, body, words):
    message = error_of(client.post("/api/open?name=bad.non", content=body, headers=FILE), 400)
    assert words in message


def test_open_refuses_an_unknown_format_and_a_write_only_one(client):
    assert "unknown format" in error_of(client.post("/api/open?format=nope", content=b"x", headers=FILE), 400)
    assert "written but not read" in error_of(client.post("/api/open?format=cnf", content=b"x", headers=FILE),
                                              400)


def test_a_10000_by_10000_puzzle_is_refused_before_it_is_built(client):
    text = "width 10000\nheight 10000\nrows\n" + "0\n" * 10000 + "columns\n" + "0\n" * 10000
    message = error_of(client.post("/api/open?name=huge.non", content=text.encode(), headers=FILE), 400)
    assert "10000x10000" in message
    obj = {"rows": [[]] * 10000, "columns": [[]] * 10000}
    message = error_of(client.post("/api/solve", json={"puzzle": obj}), 422)
    assert "10000x10000" in message and str(LIMITS.max_side) in message


def test_a_body_over_the_limit_is_refused(client):
    big = b"x" * (LIMITS.max_body + 1)
    assert "at most" in error_of(client.post("/api/open", content=big, headers=FILE), 413)
    assert "at most" in error_of(client.post("/api/solve", content=big, headers=JSON), 413)


# --- solving -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["auto", "native", "sat"])
def test_solve_gives_every_shipped_puzzles_known_verdict(client, engine):
    from nonocp import load

    for (name, k), (count, status) in expected_verdicts().items():
        puzzle = load(str(PUZZLES / name))[k - 1]
        body = {"puzzle": to_obj(puzzle), "engine": engine, "max_solutions": 100}
        answer = client.post("/api/solve", json=body).json()
        assert answer["status"] == status, (name, answer)
        assert answer["count"] == count and answer["exhausted"]
        for rows in answer["solutions"]:
            assert puzzle.is_solution(Grid.from_strings(rows, puzzle.palette))
        assert answer["message"].startswith(status)


def test_differing_cells_are_exactly_those_the_solutions_disagree_on(client):
    from nonocp import load

    puzzle = load(str(PUZZLES / "eyes.non"))[0]
    every = brute_force(puzzle)
    truth = sorted([r, c] for r in range(puzzle.height) for c in range(puzzle.width)
                   if len({g.cells[r][c] for g in every}) > 1)
    answer = client.post("/api/solve", json={"puzzle": to_obj(puzzle), "max_solutions": 100}).json()
    assert answer["count"] == len(every) == 12
    assert sorted(answer["differ"]) == truth
    backbone = client.post("/api/backbone", json={"puzzle": to_obj(puzzle)}).json()
    assert backbone["exact"] and sorted(backbone["ambiguous"]) == truth


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_random_grid_is_among_the_solutions_of_its_clues(client, data):
    ncolors = data.draw(st.integers(2, 4))
    w, h = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 5))
    rows = data.draw(st.lists(st.lists(st.integers(0, ncolors - 1), min_size=w, max_size=w), min_size=h, max_size=h))
    grid = Grid.from_rows(rows)
    puzzle = puzzle_from_grid(grid, palette_of(ncolors))
    answer = client.post("/api/solve", json={"puzzle": to_obj(puzzle), "max_solutions": 100}).json()
    found = [Grid.from_strings(s, puzzle.palette) for s in answer["solutions"]]
    assert answer["exhausted"] and grid in found
    assert len(found) == len(brute_force(puzzle, 101))


def test_solve_takes_a_file_text_too(client):
    text = (PUZZLES / "heart.non").read_text()
    answer = client.post("/api/solve", json={"text": text}).json()
    assert answer["status"] == "unique"


def test_a_puzzle_that_runs_out_of_time_says_timeout(client):
    from nonocp import Block, Puzzle

    ones = tuple((Block(1, 1),) for _ in range(100))  # 100! solutions: no engine finds two in 10 ms
    answer = client.post("/api/solve", json={
        "puzzle": to_obj(Puzzle(ones, ones)), "engine": "native", "max_solutions": 100, "time_limit": 0.01,
    })
    assert answer.status_code == 200
    assert answer.json()["status"] == "timeout" and answer.json()["message"].startswith("timeout")


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({}, 400, "send the puzzle"),
        ({"puzzle": "heart"}, 400, "JSON puzzle object"),
        ({"puzzle": {"rows": [[[3, "1"]]], "columns": [[[1, "1"]]]}}, 400, "needs 3 cells"),
        ({"puzzle": {"rows": [[[1, "z"]]], "columns": [[[1, "1"]]]}}, 400, "colour"),
        ({"text": "rows\n1\n"}, 400, ""),
        ({"puzzle": {"rows": [[1]], "columns": [[1]]}, "engine": "nope"}, 400, "unknown engine"),
        ({"puzzle": {"rows": [[1]], "columns": [[1]]}, "max_solutions": 0}, 400, "max_solutions"),
        ({"puzzle": {"rows": [[1]], "columns": [[1]]}, "time_limit": 1e9}, 400, "time_limit"),
        ({"puzzle": {"rows": [[1]], "columns": [[1]]}, "time_limit": "soon"}, 400, "time_limit"),
    ],
)
def test_bad_solve_requests_are_4xx_with_a_message(client, body, status, words):
    assert words in error_of(client.post("/api/solve", json=body), status)


@pytest.mark.parametrize("raw", [b"{", b"[1, 2]", b"\xff\xfe", b'{"puzzle": NaN}', b"[" * 100000])
def test_malformed_json_is_400(client, raw):
    error_of(client.post("/api/solve", content=raw, headers={"content-type": "application/json"}), 400)


def test_count_mismatch_is_none_without_an_engine(client):
    answer = client.post("/api/solve", json={"puzzle": {"rows": [[1]], "columns": [[]]}}).json()
    assert answer["status"] == "none" and answer["stats"]["proof"] == "counting"


def test_rate_says_how_hard(client):
    from nonocp import load

    heart = to_obj(load(str(PUZZLES / "heart.non"))[0])
    eyes = to_obj(load(str(PUZZLES / "eyes.non"))[0])
    assert client.post("/api/rate", json={"puzzle": heart}).json()["verdict"] == "LINE"
    assert client.post("/api/rate", json={"puzzle": eyes}).json()["verdict"] == "MULTIPLE"


# --- editing and exporting ---------------------------------------------------------------------------


def test_validate_marks_each_wrong_line_with_its_reason(client):
    obj = {"rows": ["2", "3 x", "9"], "columns": [[[1, "1"]], "1", "0"]}
    answer = client.post("/api/validate", json={"puzzle": obj}).json()
    assert not answer["valid"] and answer["puzzle"] is None
    by_line = {(p["kind"], p["index"]): p["message"] for p in answer["problems"]}
    assert set(by_line) == {("row", 2), ("row", 3)}
    assert "'x' is not a block" in by_line[("row", 2)]
    assert "needs 9 cells but the line has 3" in by_line[("row", 3)]


def test_validate_reads_typed_colour_clues_and_reports_a_count_mismatch(client):
    colors = [{"name": "white", "rgb": "#ffffff", "symbol": "0"}, {"name": "red", "rgb": "#ff0000", "symbol": "r"},
              {"name": "blue", "rgb": "#0000ff", "symbol": "b"}]
    obj = {"colors": colors, "rows": ["1r 1b", "2r"], "columns": ["2r", "1r", "1b"]}
    answer = client.post("/api/validate", json={"puzzle": obj}).json()
    assert answer["valid"] and answer["problems"] == [] and answer["mismatch"] is None
    assert answer["puzzle"]["rows"] == [[[1, "r"], [1, "b"]], [[2, "r"]]]
    # the columns paint 2 red cells, the rows 3: well-formed, and no solution by counting
    counted = client.post("/api/validate", json={"puzzle": dict(obj, columns=["2r", "1b", "1b"])}).json()
    assert counted["valid"] and "red" in counted["mismatch"]
    bad = client.post("/api/validate", json={"puzzle": dict(obj, rows=["1r 1b", "3"])}).json()
    assert "give the colour" in bad["problems"][0]["message"]


def test_export_writes_files_that_read_back_as_the_same_puzzle(client):
    """Every puzzle file format offered (pictures aside) reads back as the puzzle sent, named and typed as its
    format registers (count clues' own format: tests/test_web_counts.py)."""
    from nonocp import load
    from nonocp.formats import FORMATS

    offered = [f for f in client.get("/api/info").json()["formats"]["export"] if f in FORMATS]
    assert {"non", "xml", "json"} <= set(offered)
    for fmt in offered:
        if "runs" not in FORMATS[fmt].clue_kinds:
            continue
        for name in ("fish.non", "heart.non", "window.non"):
            puzzle = load(str(PUZZLES / name))[0]
            r = client.post("/api/export", json={"puzzle": to_obj(puzzle), "format": fmt})
            assert r.status_code == 200 and "attachment" in r.headers["content-disposition"], (fmt, r.text)
            assert r.headers["content-disposition"].endswith(FORMATS[fmt].extensions[0] + '"')
            assert r.headers["content-type"].split(";")[0] == FORMATS[fmt].media_type.split(";")[0]
            back = loads(r.text, fmt)[0]
            assert back == puzzle and back.meta.goal == puzzle.meta.goal and back.title == puzzle.title, fmt


def test_export_pictures_blank_or_with_a_solution(client):
    from nonocp import load

    puzzle = load(str(PUZZLES / "heart.non"))[0]
    blank = client.post("/api/export", json={"puzzle": to_obj(puzzle), "format": "svg"})
    assert blank.headers["content-type"].startswith("image/svg+xml")
    assert blank.text.count('class="cell"') == puzzle.width * puzzle.height
    assert 'fill="#000000"' not in blank.text.split('<g class="cells">')[1]
    goal = puzzle.meta.goal.to_strings(puzzle.palette)
    painted = client.post("/api/export", json={"puzzle": to_obj(puzzle), "format": "svg", "grid": goal})
    black = sum(row.count("1") for row in goal)
    assert painted.text.split('<g class="cells">')[1].count('fill="#000000"') == black
    png = client.post("/api/export", json={"puzzle": to_obj(puzzle), "format": "png", "grid": goal})
    assert png.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert "one of" in error_of(client.post("/api/export", json={"puzzle": to_obj(puzzle), "format": "pdf"}), 400)
    assert "grid" in error_of(client.post("/api/export", json={"puzzle": to_obj(puzzle), "format": "svg",
                                                                "grid": ["1"]}), 400)


# --- the page and the host check --------------------------------------------------------------------


def test_the_page_and_its_modules_are_served_with_security_headers(client):
    page = client.get("/")
    assert page.status_code == 200 and "<svg" not in page.text and 'src="/static/js/main.js"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    js = client.get("/static/js/main.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    assert client.get("/print").status_code == 200
    error_of(client.get("/static/nope.js"), 404)


def test_a_foreign_host_header_is_refused():
    with client_for() as c:
        assert "not served here" in error_of(c.get("/api/info", headers={"host": "evil.example"}), 400)
        assert c.get("/api/info").status_code == 200


def test_every_static_file_is_package_data():
    """The wheel carries only what pyproject's package-data globs name: each file of the page must match."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parent.parent
    globs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["nonocp.web"]
    web = root / "src" / "nonocp" / "web"
    files = [p.relative_to(web).as_posix() for p in (web / "static").rglob("*") if p.is_file()]
    missing = [f for f in files if not any(fnmatch.fnmatch(f, g) and f.count("/") == g.count("/") for g in globs)]
    assert files and not missing
    shipped = [p.name for p in (web / "puzzles").iterdir() if p.suffix in (".non", ".nonpack")]
    assert "heart.non" in shipped


# --- stepping ----------------------------------------------------------------------------------------



def test_step_walks_every_solution_and_back(client):
    from nonocp import load

    puzzle = load(str(PUZZLES / "eyes.non"))[0]
    obj = to_obj(puzzle)
    first = client.post("/api/step", json={"puzzle": obj, "action": "start"}).json()
    assert first["position"] == 0 and first["current"] is None
    full = (1 << len(puzzle.palette)) - 1
    assert first["masks"] == [full] * (puzzle.width * puzzle.height)
    one = client.post("/api/step", json={"puzzle": obj, "action": "next", "state": first["state"]}).json()
    assert one["position"] == 1 and one["current"]["text"] and one["taken_count"] == 1
    # soundness of what the page shows: no colour any solution uses is ever removed
    every = brute_force(puzzle)
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            for g in every:
                assert one["masks"][r * puzzle.width + c] >> g.cells[r][c] & 1
    end = client.post("/api/step", json={"puzzle": obj, "action": "jump", "target": 100000,
                                         "state": one["state"]}).json()
    assert end["finished"] and end["solutions"] == len(every) == 12
    assert any(s["kind"] == "backtrack" for s in end["recent"]) or end["position"] > 12
    back = client.post("/api/step", json={"puzzle": obj, "action": "back", "state": end["state"]}).json()
    assert back["position"] == end["position"] - 1 and back["undone"] == 1 and not back["finished"]
    again = client.post("/api/step", json={"puzzle": obj, "action": "jump", "target": 1, "state": back["state"]})
    assert again.json()["masks"] == one["masks"]


def test_step_examines_the_line_a_person_clicks(client):
    from nonocp import load

    obj = to_obj(load(str(PUZZLES / "heart.non"))[0])
    start = client.post("/api/step", json={"puzzle": obj, "action": "start"}).json()
    row = client.post("/api/step", json={"puzzle": obj, "action": "examine", "line": ["row", 2],
                                         "state": start["state"]}).json()  # row 3: clue 9, all black
    assert row["taken"] and all(s["line"] == ["row", 2] for s in row["taken"] if s["kind"] == "line")
    assert row["masks"][2 * 9:3 * 9] == [2] * 9
    rest = client.post("/api/step", json={"puzzle": obj, "action": "remaining", "state": row["state"]}).json()
    assert rest["current"]["kind"] in ("all-remaining-cells", "solution") and rest["undecided"] == 0


@pytest.mark.parametrize(
    "body, words",
    [
        ({"action": "fly"}, "'action'"),
        ({"action": "next"}, "'state'"),
        ({"action": "next", "state": {"format": "nonsense"}}, "stepper state"),
        ({"action": "examine", "line": ["row", 99], "state": None}, "'state'"),
    ],
)
def test_bad_step_requests_are_400(client, body, words):
    obj = {"rows": [[1]], "columns": [[1]]}
    assert words in error_of(client.post("/api/step", json={"puzzle": obj, **body}), 400)


def test_a_stepper_state_of_another_puzzle_is_refused(client):
    a = {"rows": [[1], []], "columns": [[1], []]}
    b = {"rows": [[], [1]], "columns": [[], [1]]}
    state = client.post("/api/step", json={"puzzle": a, "action": "start"}).json()["state"]
    assert "another puzzle" in error_of(client.post("/api/step", json={"puzzle": b, "action": "next",
                                                                      "state": state}), 400)


# --- importing pictures (the designer library) -------------------------------------------------------

def _png_of(rows: list[str], scale: int) -> bytes:
    import io

    from PIL import Image

    img = Image.new("RGB", (len(rows[0]) * scale, len(rows) * scale), "white")
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "1":
                img.paste((0, 0, 0), (c * scale, r * scale, (c + 1) * scale, (r + 1) * scale))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def test_import_a_picture_gives_the_design_it_draws(client):
    rows = ["0110", "1111", "0110", "0100", "1001", "0000"]
    answer = client.post("/api/design/import?name=cat.png&width=4", content=_png_of(rows, 10),
                         headers=FILE).json()
    assert answer["puzzle"]["goal"] == rows
    assert answer["puzzle"]["width"] == 4 and answer["puzzle"]["height"] == 6
    assert "4x6" in answer["report"]


def test_import_refuses_what_is_not_a_picture_and_sizes_over_the_limits(client):
    error_of(client.post("/api/design/import?name=x.png", content=b"not a picture at all", headers=FILE), 400)
    assert "width" in error_of(client.post(f"/api/design/import?width={LIMITS.max_side + 1}",
                                           content=_png_of(["01"], 4), headers=FILE), 422)
    assert "width" in error_of(client.post("/api/design/import?width=abc", content=_png_of(["01"], 4), headers=FILE),
                               400)
    assert "picture" in error_of(client.post("/api/design/import", content=b"", headers=FILE), 400)
