"""The workbench in a real browser: Playwright driving Debian's Chromium against `nonocp serve`.

What a person does: open a puzzle and solve it, browse the solutions of an ambiguous one and see the
checkered cells, step forward and back and examine a row, draw a 10x10 design and watch its verdict and
checkered cells arrive, edit clues (a wrong one is marked with its reason) and re-solve, reopen the share
link in a new page and get the same puzzle, export files. Screenshots go to $NONOCP_SCREENSHOTS (default:
a temporary folder); look at them.

Skips, saying why, when Playwright or a Chromium executable is missing (CI installs both: .ci/run).
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if os.environ.get("NONOCP_REQUIRE_BROWSER") == "1":  # CI (.ci/run): a missing browser fails, never skips
    assert CHROMIUM is not None, "CI needs chromium for the browser tests (.ci/run installs it with apt)"
    from playwright import sync_api
else:
    from playwright import sync_api  # the test extra: required, so its absence fails
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium executable on PATH (Debian: apt-get install -y chromium)"
)

from conftest import PUZZLES  # noqa: E402
from nonocp import load  # noqa: E402
from nonocp.formats import loads  # noqa: E402
from nonocp.formats.json_format import to_obj  # noqa: E402
from test_web_serve import start  # noqa: E402

# Headless, as root, on a machine without a network: no sandbox (root), no GPU, and none of Chromium's
# background connections (they are refused here, many at a time).
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
    "--disable-default-apps", "--disable-extensions",
]


# How long a page may take to reach the state a test waits for (a selector, a function, a click's target):
# a ceiling, which costs nothing when the page is quick, long enough for a machine at load 10 whose solves
# run in niced workers (Playwright's own default is 30 s). Tests wait for states, never for a time.
PATIENCE_MS = 180_000


class PatientBrowser:
    """Chromium whose every context and page waits up to PATIENCE_MS."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def __getattr__(self, name: str):
        return getattr(self._browser, name)

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.set_default_timeout(PATIENCE_MS)
        return context

    def new_page(self, **options):
        page = self._browser.new_page(**options)
        page.set_default_timeout(PATIENCE_MS)
        return page


def launch_chromium(playwright) -> PatientBrowser:
    return PatientBrowser(playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS))


# The page's requests carry no time limit, so the server's default applies (10 s: docs/web.md), and a worker
# runs niced: beside busy cores a hint or a step may not get 10 s of wall clock. The browser tests serve the
# page with `nonocp serve`'s own server given limits far above any solve here (the command line itself:
# tests/test_web_serve.py).
PATIENT_SERVE = [sys.executable, "-c", "from nonocp.web.config import Limits, Settings\n"
                 "from nonocp.web.server import serve\n"
                 "serve('127.0.0.1', 0, False, Settings(limits=Limits(default_time_limit=600, max_time_limit=600)))"]


def start_page_server():
    """The workbench's server for a browser test: (process, its address)."""
    proc, url, _ = start(command=PATIENT_SERVE)
    return proc, url


@pytest.fixture(scope="module")
def server():
    proc, url = start_page_server()
    yield url
    proc.send_signal(signal.SIGINT)
    proc.wait(60)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = launch_chromium(p)
        yield b
        b.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = os.environ.get("NONOCP_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screens")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 860}, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server)
    pg.wait_for_selector("body[data-ready]")
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def open_shipped(pg, name: str) -> None:
    pg.click("button[data-mode=open]")
    pg.select_option("#shipped", name)
    pg.wait_for_function("n => window.nonocp.puzzle && window.nonocp.puzzle.title !== undefined", arg=name)
    pg.wait_for_selector("#panel-solve:not([hidden])")


def solve(pg) -> str:
    pg.click("#solve-run")
    pg.wait_for_selector("#verdict[data-status]")
    return pg.get_attribute("#verdict", "data-status")


def board_cells(pg) -> list[list[str]]:
    """The fill of every cell of the board, row by row."""
    return pg.evaluate("""() => {
        const b = window.nonocp.board, w = b.puzzle.width, rows = [];
        for (let r = 0; r < b.puzzle.height; r++)
            rows.push(b.cellRects.slice(r * w, (r + 1) * w).map(x => x.getAttribute('fill')));
        return rows;
    }""")


def marked(pg, kind: str) -> int:
    return pg.locator(f"svg.board .marks .{kind}").count()


def cell_center(pg, r: int, c: int) -> tuple[float, float]:
    box = pg.locator(f'svg.board .cells rect[data-r="{r}"][data-c="{c}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_open_and_solve_a_colour_puzzle(page, shots):
    open_shipped(page, "fish.non")
    assert solve(page) == "unique"
    fish = load(str(PUZZLES / "fish.non"))[0]
    colors = [c.rgb for c in fish.palette.colors]
    want = [[colors[v] for v in row] for row in fish.meta.goal.cells]
    assert board_cells(page) == want
    assert "auto" in page.inner_text("#solve-meta")
    page.screenshot(path=str(shots / "solve-fish.png"))


def test_browse_the_solutions_of_an_ambiguous_puzzle(page, shots):
    open_shipped(page, "eyes.non")
    page.fill("#max-solutions", "100")
    assert solve(page) == "multiple"
    assert "exactly 12 solutions" in page.inner_text("#verdict")
    assert page.inner_text("#sol-pos") == "solution 1 of 12"
    assert marked(page, "checker") == 21  # the cells the 12 solutions disagree on
    first = board_cells(page)
    page.click("#sol-next")
    assert page.inner_text("#sol-pos") == "solution 2 of 12"
    assert board_cells(page) != first
    page.keyboard.press("ArrowLeft")
    assert board_cells(page) == first
    page.screenshot(path=str(shots / "solve-eyes.png"))


def test_a_malformed_paste_is_a_message_not_a_crash(page):
    page.fill("#paste", "width 3\nheight 2\nrows\n1 x\n1\ncolumns\n1\n1\n0\n")
    page.click("#paste-open")
    page.wait_for_selector("#message.error")
    assert page.inner_text("#message").startswith("line 4:")
    page.fill("#paste", "what is this")
    page.click("#paste-open")
    page.wait_for_function("() => document.getElementById('message').textContent.includes('choose the format')")


def draw(pg, cells) -> None:
    for r, c in cells:
        x, y = cell_center(pg, r, c)
        pg.mouse.click(x, y)


def wait_check(pg, whole: bool = True) -> dict:
    """The design check's answer for the drawing as it is now (not an older version of it): the verdict,
    and unless `whole` is False the rating and the ambiguous cells too."""
    pg.wait_for_function("""whole => {
        const v = document.getElementById('check-verdict');
        return v.dataset.seq === String(window.nonocp.modes.design.state.seq)
            && (!whole || document.getElementById('check-state').textContent.startsWith('checked in'));
    }""", arg=whole)
    return {
        "status": pg.get_attribute("#check-verdict", "data-status"),
        "text": pg.inner_text("#check-verdict"),
        "checkered": marked(pg, "checker"),
        "rating": pg.get_attribute("#check-rating", "data-verdict"),
    }


def test_draw_a_design_and_see_its_verdict_and_ambiguous_cells(page, shots):
    page.click("button[data-mode=design]")
    page.fill("#design-width", "10")
    page.fill("#design-height", "10")
    page.click("#design-resize")
    page.click("#design-clear")
    # a plus sign is unique; a 2x2 diagonal pair in a corner is not (the other diagonal fits the clues too)
    plus = [(4, 2), (4, 3), (4, 4), (4, 5), (4, 6), (2, 4), (3, 4), (5, 4), (6, 4)]
    draw(page, plus)
    result = wait_check(page)
    assert result["status"] == "unique" and result["checkered"] == 0 and result["rating"] == "LINE"
    # the clues follow the drawing: row 5 (index 4) reads 5, column 5 reads 5
    assert page.locator('svg.board .hdr[data-kind="row"][data-index="5"] text').all_text_contents() == ["5"]
    assert page.locator('svg.board .hdr[data-kind="column"][data-index="5"] text').all_text_contents() == ["5"]
    draw(page, [(8, 8), (9, 9)])
    result = wait_check(page)
    assert result["status"] == "multiple"
    assert result["checkered"] == 4  # (8,8) (8,9) (9,8) (9,9)
    assert result["rating"] == "MULTIPLE"
    page.screenshot(path=str(shots / "design-ambiguous.png"))
    draw(page, [(8, 9)])  # three of the four: unique again
    result = wait_check(page)
    assert result["status"] == "unique" and result["checkered"] == 0


def test_the_check_follows_the_latest_drawing_and_the_page_stays_responsive(page):
    page.click("button[data-mode=design]")
    page.fill("#design-width", "30")
    page.fill("#design-height", "30")
    page.click("#design-resize")
    page.click("#design-clear")
    cells = [(r, (r * 7 + 3) % 30) for r in range(0, 30, 2)] + [(r, (r * 11 + 5) % 30) for r in range(1, 30, 2)]
    # draw fast: every click cancels the check before it; the page answers between clicks
    for r, c in cells:
        x, y = cell_center(page, r, c)
        page.mouse.click(x, y)
        assert page.evaluate("1 + 1") == 2
    result = wait_check(page, whole=False)
    assert result["status"] in ("unique", "multiple")
    drawn = page.evaluate("Array.from(window.nonocp.modes.design.state.cells)")
    assert sum(drawn) == len(set(cells))  # each cell clicked once: painted


def test_edit_clues_mark_a_wrong_one_and_re_solve(page, shots):
    page.click("button[data-mode=edit]")
    page.fill("#new-width", "2")
    page.fill("#new-height", "2")
    page.click("#new-blank")

    def type_clue(kind: str, index: int, text: str) -> None:
        page.click(f'svg.board .hdr[data-kind="{kind}"][data-index="{index}"]')
        editor = page.locator("#clue-editor")
        editor.fill(text)
        editor.press("Enter")
        page.wait_for_function("() => document.getElementById('clue-editor').hidden")

    for kind in ("row", "column"):
        for i in (1, 2):
            type_clue(kind, i, "1")
    page.wait_for_function("() => window.nonocp.puzzle.columns[1].length === 1")
    page.click("#resolve")
    page.wait_for_selector("#verdict[data-status]")
    assert page.get_attribute("#verdict", "data-status") == "multiple"
    assert "exactly 2" in page.inner_text("#verdict")

    page.click("button[data-mode=edit]")
    type_clue("row", 1, "3")
    page.wait_for_selector("#problems li")
    assert "row 1: the clue needs 3 cells but the line has 2" in page.inner_text("#problems")
    assert page.locator('svg.board .hdr.problem[data-kind="row"][data-index="1"]').count() == 1
    type_clue("column", 2, "1 x")
    page.wait_for_function("() => document.querySelectorAll('#problems li').length === 2")
    page.screenshot(path=str(shots / "edit-problems.png"))
    page.click("#resolve")
    page.wait_for_function("() => document.getElementById('message').textContent.includes('fix the marked clues')")

    type_clue("row", 1, "2")
    type_clue("column", 2, "1")
    type_clue("column", 1, "2")
    page.wait_for_function("() => document.querySelectorAll('#problems li').length === 0")
    page.click("#resolve")
    page.wait_for_function("() => document.getElementById('verdict').dataset.status === 'unique'")


def test_the_share_link_reopens_the_same_puzzle_in_a_new_page(page, browser):
    open_shipped(page, "fish.non")
    page.wait_for_function("() => !window.nonocp.linkPending && location.hash.startsWith('#p=')")
    link = page.get_attribute("body", "data-link")
    assert len(link) < 1000
    original = page.evaluate("window.nonocp.request(true)")
    other = browser.new_page()
    other.goto(link)
    other.wait_for_selector("body[data-ready]")
    assert other.evaluate("window.nonocp.request(true)") == original
    fish = to_obj(load(str(PUZZLES / "fish.non"))[0])
    for key in ("title", "width", "height", "colors", "rows", "columns", "goal"):
        assert original[key] == fish[key]
    other.close()


def test_a_design_link_reopens_the_drawing(page, browser):
    page.click("button[data-mode=design]")
    page.fill("#design-width", "6")
    page.fill("#design-height", "4")
    page.click("#design-resize")
    page.click("#design-clear")
    draw(page, [(0, 0), (1, 1), (2, 2), (3, 5)])
    page.wait_for_function("() => !window.nonocp.linkPending && location.hash.startsWith('#d=')")
    link = page.get_attribute("body", "data-link")
    cells = page.evaluate("Array.from(window.nonocp.modes.design.state.cells)")
    other = browser.new_page()
    other.goto(link)
    other.wait_for_selector("body[data-ready]")
    other.wait_for_selector("#panel-design:not([hidden])")
    assert other.evaluate("Array.from(window.nonocp.modes.design.state.cells)") == cells
    other.close()


def test_export_and_print_view(page, browser, tmp_path):
    open_shipped(page, "mushroom.non")
    page.click("button[data-mode=share]")
    mushroom = load(str(PUZZLES / "mushroom.non"))[0]
    for fmt in ("non", "xml", "json"):
        with page.expect_download() as info:
            page.click(f"[data-export={fmt}]")
        path = tmp_path / info.value.suggested_filename
        info.value.save_as(path)
        assert loads(path.read_text(), fmt)[0] == mushroom
    with page.expect_download() as info:
        page.click("[data-export=png]")
    assert info.value.suggested_filename.endswith(".png")
    with page.expect_popup() as popup:
        page.click("#print-view")
    sheet = popup.value
    sheet.wait_for_selector("body[data-ready='1']")
    assert sheet.locator("#sheet svg rect.cell").count() == mushroom.width * mushroom.height
    assert sheet.inner_text("#print-title") == mushroom.title


def test_step_forward_and_back_and_examine_a_row(page, shots):
    assert page.evaluate("window.nonocp.info.features.step")
    open_shipped(page, "fish.non")
    page.click("button[data-mode=step]")

    def at(n: int) -> None:
        page.wait_for_function(f"() => document.getElementById('step-info').dataset.position === '{n}'")

    at(0)
    for n in (1, 2, 3):
        page.click("#step-next")
        at(n)
    third = page.inner_text("#step-info")
    assert "step 3" in third and page.locator("#step-log li").count() == 3
    assert page.locator("svg.board .marks .cand").count() > 0  # undecided cells show their candidates
    assert page.locator("svg.board .marks .changed").count() > 0  # the step's cells are ringed
    page.keyboard.press("ArrowRight")
    at(4)
    page.click("#step-back")
    at(3)
    assert page.inner_text("#step-info") == third
    # a click on row 3's clue examines that row now
    page.click('svg.board .hdr[data-kind="row"][data-index="3"]')
    page.wait_for_function("() => +document.getElementById('step-info').dataset.position > 3")
    assert "row 3" in page.inner_text("#step-info .technique")
    assert page.locator('svg.board .hdr.examined[data-kind="row"][data-index="3"]').count() == 1
    page.screenshot(path=str(shots / "step-fish.png"))
    # on to the end: the fish has one solution, and the board shows it
    page.fill("#step-jump", "100000")
    page.click("#step-go")
    page.wait_for_function("() => /every solution reached/.test(document.getElementById('step-info').textContent)")
    fish = load(str(PUZZLES / "fish.non"))[0]
    colors = [c.rgb for c in fish.palette.colors]
    assert board_cells(page) == [[colors[v] for v in row] for row in fish.meta.goal.cells]


def test_import_a_picture_into_the_design(page, tmp_path):
    assert page.evaluate("window.nonocp.info.features.import_image")
    from test_web_api import _png_of

    rows = ["00100", "01110", "11111", "01110", "00100"]
    picture = tmp_path / "diamond.png"
    picture.write_bytes(_png_of(rows, 8))
    page.click("button[data-mode=design]")
    page.set_input_files("#image-file", str(picture))
    page.fill("#image-width", "5")
    page.fill("#image-colors", "1")
    page.click("#image-import")
    page.wait_for_function("() => window.nonocp.isDesign && window.nonocp.puzzle.width === 5"
                           " && window.nonocp.modes.design.state.width === 5")
    cells = page.evaluate("Array.from(window.nonocp.modes.design.state.cells)")
    assert cells == [int(ch) for row in rows for ch in row]
    assert wait_check(page)["status"] == "unique"


def test_share_links_round_trip_every_shipped_puzzle_exactly(page):
    """The page's own encoder and decoder, on every shipped puzzle (clues, colours, names, symbols, goal,
    credits) and as designs (the drawing alone), compared with what the server read from the files."""
    from nonocp.formats.json_format import to_obj as obj_of

    puzzles = []
    for path in sorted(PUZZLES.iterdir()):
        if path.suffix in (".non", ".nonpack"):
            puzzles += [obj_of(p) for p in load(str(path))]
    back = page.evaluate("""async puzzles => {
        const { encode, decode } = await import('/static/js/share.js');
        const { plain } = await import('/static/js/puzzle.js');
        const out = [];
        for (const p of puzzles) {
            const link = await encode(p);
            const again = (await decode(link)).puzzle;
            const design = p.goal ? (await decode(await encode(p, true))).puzzle : null;
            out.push({ link: link.length, again: plain(again), design: design && plain(design) });
        }
        return out;
    }""", puzzles)
    for original, got in zip(puzzles, back, strict=True):
        want = {k: v for k, v in original.items() if k not in ("format", "version")}
        assert got["again"] == want
        if original.get("goal"):
            assert got["design"]["rows"] == original["rows"] and got["design"]["columns"] == original["columns"]
            assert got["design"]["goal"] == original["goal"]
    assert max(g["link"] for g in back) < 600
