"""The workbench's Play mode, and the layout and accessibility of every mode, in a real browser (Playwright
driving Debian's Chromium against `nonocp serve`, as tests/test_web_browser.py does).

What a player does: solve an 8x8 puzzle (a 15x15 in the full run) by pressing only Hint and following
each hint, make a mistake that Check and Hint point at, undo and redo 50 actions, reload and open a play
link in a new page and find the progress again, play on a phone-sized screen and zoom a big puzzle's
clues to a readable size. Also the Design mode's stroke (no shift mid-stroke), undo and make-unique, the
Step mode's guess marks, and axe-core (from npm, injected by the test) on every mode. Screenshots go to
$NONOCP_SCREENSHOTS.
"""

from __future__ import annotations

import json
import os
import random
import signal
from pathlib import Path

import pytest

from conftest import PUZZLES
from nonocp import load, solve
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle, clues_of
from nonocp.formats import dumps
from test_web_browser import CHROMIUM, cell_center, launch_chromium, open_shipped, start_page_server, sync_api

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium executable on PATH")
ROOT = Path(__file__).resolve().parent.parent


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


def axe_script() -> Path | None:
    """axe-core's browser build, installed from npm outside the package (.ci/run: npm --prefix .axe)."""
    for candidate in (os.environ.get("NONOCP_AXE"), ROOT / ".axe" / "node_modules" / "axe-core" / "axe.min.js"):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def new_page(browser, server, **options):
    options.setdefault("viewport", {"width": 1280, "height": 860})
    context = browser.new_context(**options)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server)
    pg.wait_for_selector("body[data-ready]")
    return context, pg, errors


@pytest.fixture
def page(browser, server):
    context, pg, errors = new_page(browser, server)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def unique_puzzle(size: int = 15, seed: int = 5) -> Puzzle:
    """A puzzle with one solution that logic alone solves (the designer's generator, fixed seed)."""
    from nonocp.design import generate

    puzzle = generate(size, size, difficulty="LINE", seed=seed)[0].puzzle
    assert solve(puzzle, max_solutions=2).status.value == "unique"
    return puzzle


def open_text(pg, text: str, mode: str = "play") -> None:
    go(pg, "open")
    pg.fill("#paste", text)
    pg.click("#paste-open")
    pg.wait_for_selector("#panel-solve:not([hidden])")
    go(pg, mode)


def go(pg, mode: str) -> None:
    if pg.is_visible("#menu-toggle"):
        pg.click("#menu-toggle")
    pg.click(f"button[data-mode={mode}]")
    pg.wait_for_selector(f"#panel-{mode}:not([hidden])")


def cells(pg) -> list[int]:
    return pg.evaluate("Array.from(window.nonocp.modes.play.state.cells)")


def click_cell(pg, r: int, c: int, button: str = "left") -> None:
    x, y = cell_center(pg, r, c)
    pg.mouse.click(x, y, button=button)


MARKED = "[...document.querySelectorAll('svg.board .%s')].map(e => [+e.dataset.r, +e.dataset.c])"


def ask(pg, what: str) -> None:
    """Press Hint or Check and wait for its answer on the page."""
    before = pg.get_attribute("#play-info", "data-answers") or "0"
    pg.click(f"#play-{what}")
    pg.wait_for_function(f"() => (document.getElementById('play-info').dataset.answers || '0') !== '{before}'")


# A whole game is one request per hint (121 of them for the 15x15: 16 s): the quick run plays an 8x8 to
# the end the same way, the full run the 15x15 as well.
@pytest.mark.parametrize("size", [8, pytest.param(15, marks=pytest.mark.slow)], ids=["8x8", "15x15"])
def test_a_puzzle_played_to_the_end_with_hints_alone(page, shots, size):
    puzzle = unique_puzzle(size)
    goal = [v for row in puzzle.meta.goal.cells for v in row]
    open_text(page, dumps(puzzle, "non"))
    w = puzzle.width
    hints = 0
    while page.get_attribute("#play-info", "data-solved") is None:
        ask(page, "hint")
        assert page.get_attribute("#play-info", "data-hint") == "deduction", page.inner_text("#play-info")
        given = page.evaluate("window.nonocp.modes.play.state.hint.cells")
        assert given, "a deduction decides at least one cell"
        # every cell the hint decides is the solution's, and the board rings exactly those cells
        assert all(goal[r * w + c] == v for r, c, v in given)
        ringed = page.evaluate(MARKED % "hint-cell")
        assert sorted(ringed) == sorted([r, c] for r, c, _ in given)
        for r, c, v in given:
            click_cell(page, r, c, "left" if v else "right")
        hints += 1
        if hints == 3:
            page.screenshot(path=str(shots / f"play-hint-desk-{size}.png"))
        assert hints < 400
    assert "Solved in" in page.inner_text("#play-info")
    filled = [1 if v > 0 else 0 for v in cells(page)]
    assert filled == goal
    assert page.get_attribute("#panel-play", "data-complete") == "true"
    # every clue is greyed out once the grid is complete
    assert page.locator("svg.board .blk").count() == page.locator("svg.board .blk.done").count()
    page.screenshot(path=str(shots / f"play-solved-desk-{size}.png"))


# rainbow: 12x7 in five colours (6 s); fish, 14x10 in four, in the full run (10 s)
@pytest.mark.parametrize("name", ["rainbow.non", pytest.param("fish.non", marks=pytest.mark.slow)])
def test_a_colour_puzzle_played_to_the_end_with_hints_choosing_colours_by_key(page, name):
    open_shipped(page, name)
    go(page, "play")
    puzzle = load(str(PUZZLES / name))[0]
    goal = [v for row in puzzle.meta.goal.cells for v in row]
    assert page.locator("#play-colours .swatch").count() == len(puzzle.palette) - 1
    w = puzzle.width
    for _ in range(200):
        if page.get_attribute("#play-info", "data-solved") is not None:
            break
        ask(page, "hint")
        assert page.get_attribute("#play-info", "data-hint") == "deduction", page.inner_text("#play-info")
        for r, c, v in page.evaluate("window.nonocp.modes.play.state.hint.cells"):
            assert goal[r * w + c] == v
            if v:
                page.keyboard.press(str(v))  # the fill colour
            click_cell(page, r, c, "left" if v else "right")
    assert page.get_attribute("#play-info", "data-solved") == "1"
    assert [max(v, 0) for v in cells(page)] == goal


def test_check_marks_exactly_the_wrong_cell_and_the_hint_points_at_it_first(page):
    puzzle = unique_puzzle(seed=9)
    goal = puzzle.meta.goal.cells
    open_text(page, dumps(puzzle, "non"))
    # a few right cells, then one wrong one
    right = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)][:12]
    for r, c in right:
        click_cell(page, r, c, "left" if goal[r][c] else "right")
    wrong = next((r, c) for r in range(5, puzzle.height) for c in range(puzzle.width) if goal[r][c] == 0)
    click_cell(page, *wrong)  # filled, where the solution is white
    ask(page, "check")
    marked = page.evaluate(MARKED % "mistake")
    assert marked == [list(wrong)]
    assert "1 cell is wrong" in page.inner_text("#play-info")
    ask(page, "hint")
    assert page.get_attribute("#play-info", "data-hint") == "mistake"
    assert f"row {wrong[0] + 1}, column {wrong[1] + 1}" in page.inner_text("#play-info")
    # fixed: no mistake, and the hint is a deduction again
    click_cell(page, *wrong)  # the same mark again clears it
    ask(page, "check")
    assert page.locator("svg.board .mistake").count() == 0
    assert page.get_attribute("#play-info", "data-check") == "ok"
    ask(page, "hint")
    assert page.get_attribute("#play-info", "data-hint") == "deduction"


def test_undo_redo_50_actions_and_the_progress_survives_a_reload_and_a_play_link(browser, server):
    context, page, errors = new_page(browser, server)
    puzzle = unique_puzzle(seed=11)
    open_text(page, dumps(puzzle, "non"))
    rng = random.Random(4)
    states = [cells(page)]
    for _ in range(50):
        r, c = rng.randrange(puzzle.height), rng.randrange(puzzle.width)
        click_cell(page, r, c, rng.choice(["left", "right"]))
        states.append(cells(page))
    assert page.get_attribute("#panel-play", "data-actions") == "50"
    for k in range(50, 0, -1):
        page.keyboard.press("Control+z") if k % 2 else page.click("#play-undo")
        assert cells(page) == states[k - 1]
    assert page.is_disabled("#play-undo")
    for k in range(1, 51):
        page.keyboard.press("Control+y") if k % 2 else page.click("#play-redo")
        assert cells(page) == states[k]
    final = states[-1]
    page.wait_for_function("() => !window.nonocp.linkPending && location.hash.startsWith('#g=')")
    link = page.get_attribute("body", "data-link")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#panel-play:not([hidden])")
    assert cells(page) == final
    # a new browser context (no stored progress): the play link alone brings it back
    other_context, other, other_errors = new_page(browser, link)
    other.wait_for_selector("#panel-play:not([hidden])")
    assert cells(other) == final
    other_context.close()
    # the back button: another puzzle, then back to this one with its progress (kept in the browser)
    open_shipped(page, "heart.non")
    page.wait_for_function("() => !window.nonocp.linkPending && window.nonocp.puzzle.title.includes('eart')")
    page.go_back()
    page.wait_for_function("n => window.nonocp.puzzle && window.nonocp.puzzle.width === n", arg=puzzle.width)
    page.wait_for_selector("#panel-play:not([hidden])")
    assert cells(page) == final
    context.close()
    assert not errors and not other_errors, errors + other_errors


def test_marks_by_keyboard_and_touch_clues_grey_out_and_auto_cross(browser, server, shots):
    context, page, errors = new_page(browser, server, has_touch=True)
    # a 5x5 whose first row is full and whose second row is one block: its clues tell when they are done
    rows = ["11111", "01100", "00000", "10001", "00100"]
    grid = Grid.from_rows([[int(ch) for ch in row] for row in rows])
    puzzle = Puzzle(*clues_of(grid))
    open_text(page, dumps(puzzle, "non"))
    page.focus("#board")
    page.keyboard.press("ArrowRight")  # the cursor appears on the first cell
    for _ in range(5):
        page.keyboard.press("Space")
        page.keyboard.press("ArrowRight")
    assert cells(page)[:5] == [1] * 5
    assert page.locator('svg.board .hdr[data-kind="row"][data-index="1"].complete').count() == 1
    page.keyboard.press("ArrowDown")
    page.keyboard.press("x")
    assert cells(page)[9] == 0  # row 2, column 5 crossed
    # a drag paints a straight run: from r4c1 towards r5c4 paints row 4 only
    x0, y0 = cell_center(page, 3, 0)
    x1, y1 = cell_center(page, 4, 3)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y0 + 3, steps=8)
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()
    got = cells(page)
    assert got[15:19] == [1, 1, 1, 1] and got[20:24] == [-1, -1, -1, -1]
    # touch: a tap cycles (filled, crossed, empty), a long press crosses
    x, y = cell_center(page, 2, 2)
    page.touchscreen.tap(x, y)
    assert cells(page)[12] == 1
    page.touchscreen.tap(x, y)
    assert cells(page)[12] == 0
    page.touchscreen.tap(x, y)
    assert cells(page)[12] == -1
    cdp = context.new_cdp_session(page)
    x, y = cell_center(page, 4, 4)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(700)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("() => window.nonocp.modes.play.state.cells[24] === 0")
    # auto-cross: completing row 2 crosses the rest of it
    page.click("#panel-play .how summary")
    page.check("#play-autocross")
    click_cell(page, 1, 1)
    click_cell(page, 1, 2)
    assert cells(page)[5:10] == [0, 1, 1, 0, 0]
    # the clue of a line whose marks fix a block greys that block: row 4 (1 1) reads 1111: none of it;
    # after an undo of the drag, row 2's "2" is done
    assert page.locator('svg.board .hdr[data-kind="row"][data-index="2"] .blk.done').count() == 1
    page.screenshot(path=str(shots / "play-keys.png"))
    context.close()
    assert not errors, errors


def random_puzzle(width: int, height: int, seed: int) -> Puzzle:
    rng = random.Random(seed)
    grid = Grid.from_rows([[1 if rng.random() < 0.55 else 0 for _ in range(width)] for _ in range(height)])
    return Puzzle(*clues_of(grid))


def touch_targets_too_small(pg) -> list[str]:
    return pg.evaluate("""() => [...document.querySelectorAll('button, select, input, summary, [role=tab]')]
        .filter(e => e.offsetParent !== null && !e.closest('[hidden]'))
        .map(e => [e, e.getBoundingClientRect()])
        .filter(([e, b]) => b.width > 0 && (b.height < 32 || (b.width < 32 && e.type !== 'checkbox')))
        .filter(([e, b]) => !(e.type === 'checkbox' && b.height >= 22))
        .map(([e, b]) => `${e.id || e.textContent.trim() || e.tagName} ${b.width|0}x${b.height|0}`)""")


def test_a_phone_reaches_every_mode_without_sideways_scrolling_and_zooms_big_clues(browser, server, shots):
    context, page, errors = new_page(browser, server, viewport={"width": 390, "height": 844}, has_touch=True,
                                     is_mobile=True)
    assert page.is_visible("#menu-toggle") and not page.is_visible(".tabs")
    wide = "() => document.scrollingElement.scrollWidth <= window.innerWidth"
    open_text(page, dumps(unique_puzzle(seed=5), "non"))
    for mode in ("open", "play", "solve", "step", "design", "edit", "share"):
        go(page, mode)
        assert page.evaluate(wide), f"{mode}: the page scrolls sideways"
        assert not touch_targets_too_small(page), (mode, touch_targets_too_small(page))
        if mode == "play":
            ask(page, "hint")
            page.screenshot(path=str(shots / "play-phone.png"))
    page.click("#menu-toggle")
    assert page.is_visible(".tabs")
    page.screenshot(path=str(shots / "menu-phone.png"))
    page.click("#menu-toggle")
    # an 80x95 puzzle: its clues start small; zoom makes them readable, still without sideways scrolling
    open_text(page, dumps(random_puzzle(80, 95, 1), "non"))
    start = page.evaluate("window.nonocp.board.clueFontPx()")
    assert start < 11
    for _ in range(12):
        if page.evaluate("window.nonocp.board.clueFontPx()") >= 11:
            break
        page.click("#zoom-in")
    assert page.evaluate("window.nonocp.board.clueFontPx()") >= 11
    assert page.evaluate(wide)
    page.screenshot(path=str(shots / "play-80x95-phone.png"))
    context.close()
    assert not errors, errors


def test_a_zoomed_board_keeps_the_clues_in_sight_when_panned(page, shots):
    # squares of 8x8 cells: short clues, so that the clue margins take well under half the view zoomed
    grid = Grid.from_rows([[1 if (r // 8 + c // 8) % 2 == 0 else 0 for c in range(40)] for r in range(40)])
    open_text(page, dumps(Puzzle(*clues_of(grid)), "non"))
    for _ in range(3):
        page.click("#zoom-in")
    # panned to the far corner: the clues of the last row and column are beside the cells in view
    page.evaluate("() => { const b = document.getElementById('board'); b.scrollLeft = b.scrollWidth; "
                  "b.scrollTop = b.scrollHeight; }")
    page.wait_for_function("() => document.querySelector('svg.board').classList.contains('scrolled')")
    inside = """() => {
        const view = document.getElementById('board').getBoundingClientRect();
        const box = (kind, n) => document.querySelector(
            `svg.board .hdr[data-kind="${kind}"][data-index="${n}"] .hdr-bg`).getBoundingClientRect();
        const row = box('row', 40), col = box('column', 40);
        return [row.left >= view.left - 1, row.bottom <= view.bottom + 1, col.top >= view.top - 1,
                col.right <= view.right + 1];
    }"""
    # the zoom buttons scroll the board too (and stick the clues): wait for the scroll to the corner
    page.wait_for_function(f"() => ({inside})().every(Boolean)")
    assert page.evaluate(inside) == [True, True, True, True]
    # a press on a clue over the grid is not a press on the cell under it
    row = page.locator('svg.board .hdr[data-kind="row"][data-index="40"] .hdr-bg').bounding_box()
    page.mouse.click(row["x"] + row["width"] - 4, row["y"] + row["height"] / 2)
    assert max(cells(page)) == -1
    page.screenshot(path=str(shots / "play-zoomed-desk.png"))


def test_a_drag_down_one_column_in_design_paints_exactly_that_column_and_undo_takes_it_back(page, shots):
    go(page, "design")
    page.fill("#design-width", "10")
    page.fill("#design-height", "10")
    page.click("#design-resize")
    page.click("#design-clear")
    # every row gets blocks in columns 1 and 3: a stroke down column 5 makes each row's clue one block
    # longer than the margin has room for (the stroke used to shift the grid under the pointer)
    for r in range(10):
        for c in (0, 2):
            x, y = cell_center(page, r, c)
            page.mouse.click(x, y)
    before = page.evaluate("Array.from(window.nonocp.modes.design.state.cells)")
    x, y0 = cell_center(page, 0, 4)
    _, y1 = cell_center(page, 9, 4)
    page.mouse.move(x, y0)
    page.mouse.down()
    page.mouse.move(x, y1, steps=30)
    page.mouse.up()
    after = page.evaluate("Array.from(window.nonocp.modes.design.state.cells)")
    changed = [i for i in range(100) if after[i] != before[i]]
    assert changed == [r * 10 + 4 for r in range(10)]
    # the clues were laid out again after the stroke: row 1 reads 1 1 1
    page.wait_for_function("""() => [...document.querySelectorAll(
        'svg.board .hdr[data-kind="row"][data-index="1"] text')].map(t => t.textContent).join(' ') === '1 1 1'""")
    page.click("#design-undo")
    assert page.evaluate("Array.from(window.nonocp.modes.design.state.cells)") == before
    page.keyboard.press("Control+y")
    assert page.evaluate("Array.from(window.nonocp.modes.design.state.cells)") == after


def test_design_make_unique_shows_its_changes_and_can_be_undone_title_and_author(page, shots):
    if not page.evaluate("window.nonocp.info.features.import_image"):
        pytest.skip("this server has no designer library (nonocp.design)")
    go(page, "design")
    page.fill("#design-width", "6")
    page.fill("#design-height", "6")
    page.click("#design-resize")
    page.click("#design-clear")
    for r, c in [(0, 0), (1, 1), (3, 3), (4, 4), (2, 5)]:  # two diagonal pairs: several solutions
        x, y = cell_center(page, r, c)
        page.mouse.click(x, y)
    page.fill("#design-title", "Diagonals")
    page.fill("#design-author", "A. Tester")
    page.wait_for_function("() => document.getElementById('check-state').textContent.startsWith('checked in')"
                           " && document.getElementById('check-verdict').dataset.status === 'multiple'")
    before = page.evaluate("Array.from(window.nonocp.modes.design.state.cells)")
    page.click("#design-unique")
    page.wait_for_selector("#panel-design[data-repainted]")
    n = int(page.get_attribute("#panel-design", "data-repainted"))
    after = page.evaluate("Array.from(window.nonocp.modes.design.state.cells)")
    assert n == sum(a != b for a, b in zip(after, before, strict=True)) and n > 0
    assert page.locator("svg.board .marks .changed").count() == n  # the repainted cells are ringed
    page.wait_for_function("() => document.getElementById('check-verdict').dataset.status === 'unique'")
    page.screenshot(path=str(shots / "design-unique.png"))
    page.click("#design-undo")
    assert page.evaluate("Array.from(window.nonocp.modes.design.state.cells)") == before
    page.wait_for_function("() => !window.nonocp.linkPending")
    assert page.evaluate("window.nonocp.puzzle.title") == "Diagonals"
    assert page.evaluate("window.nonocp.puzzle.author") == "A. Tester"
    assert "Diagonals" in page.inner_text("#title")


def test_step_marks_the_guess_a_quiet_undecided_mark_and_a_reload_keeps_the_mode_step_and_verdict(page):
    if not page.evaluate("window.nonocp.info.features.step"):
        pytest.skip("this server has no step engine (nonocp.analysis.stepper)")
    open_shipped(page, "eyes.non")  # several solutions: the stepper must guess
    go(page, "step")
    page.wait_for_function("() => document.getElementById('step-info').dataset.position === '0'")
    assert page.locator("svg.board .marks circle.cand").count() > 0  # a dot per undecided cell
    assert page.locator("svg.board .marks path").count() == 0  # no half discs in black and white
    for _ in range(200):
        # the position before the click: read after it, a quick answer was already counted and the wait
        # was for a step that no click asked for
        at = int(page.get_attribute("#step-info", "data-position"))
        page.click("#step-next")
        page.wait_for_function("n => +document.getElementById('step-info').dataset.position > n", arg=at)
        if page.locator("svg.board .marks .guess").count():
            break
    assert page.locator("svg.board .marks .guess").count() >= 1
    assert "guess" in page.inner_text("#step-info").lower()
    # a reload keeps the mode and the step
    at = page.get_attribute("#step-info", "data-position")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#panel-step:not([hidden])")
    page.wait_for_function("n => document.getElementById('step-info').dataset.position === n", arg=at)
    assert page.locator("svg.board .marks .guess").count() >= 1
    # and in Solve, the verdict
    go(page, "solve")
    page.click("#solve-run")
    page.wait_for_selector("#verdict[data-status]")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#panel-solve:not([hidden])")
    page.wait_for_selector("#verdict[data-status=multiple]")


@pytest.mark.parametrize("viewport", [{"width": 1400, "height": 900}, {"width": 390, "height": 844}],
                         ids=["desk", "phone"])
def test_axe_finds_no_serious_violation_in_any_mode(browser, server, viewport):
    script = axe_script()
    if script is None:
        message = "axe-core is not installed (npm install --prefix .axe axe-core, or set NONOCP_AXE)"
        if os.environ.get("NONOCP_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    # the page's CSP blocks inline scripts; the test's context bypasses it to inject axe
    context, page, errors = new_page(browser, server, viewport=viewport, bypass_csp=True)
    page.add_script_tag(path=str(script))
    open_text(page, dumps(unique_puzzle(seed=5), "non"))
    found = {}
    for mode in ("open", "play", "solve", "step", "design", "edit", "share"):
        go(page, mode)
        if mode == "play":  # some clues done (greyed out), a hint on show
            for _ in range(40):
                if page.locator("svg.board .blk.done").count():
                    break
                ask(page, "hint")
                for r, c, v in page.evaluate("window.nonocp.modes.play.state.hint.cells"):
                    click_cell(page, r, c, "left" if v else "right")
            ask(page, "hint")
            assert page.locator("svg.board .blk.done").count() > 0
        result = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))""")
        bad = [v for v in result if v["impact"] in ("serious", "critical")]
        if bad:
            found[mode] = bad
    context.close()
    if found:
        pytest.fail(f"axe: serious or critical violations: {json.dumps(found)}")
    assert not errors, errors
