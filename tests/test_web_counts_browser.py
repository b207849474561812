"""Count-and-contiguity puzzles in the workbench, in a real browser (Playwright driving Debian's Chromium
against `nonocp serve`, as tests/test_web_browser.py does).

What a player of the count game does: open a count puzzle by paste and by upload (the text form, the JSON
form, the game's list with its names), solve it (one solution, several with the cells they differ on
checkered, none), step it by clicking columns until every cell is decided (each cell's remaining colours as
small circles that shrink away), play it to the end (counts greyed out as they are met), edit a line's
counts and flags (checked as typed; a flag toggled changes the verdict), draw a count design, make it
unique and export it, and reopen it from its share link. axe-core finds no serious or critical violation in
any mode with a count puzzle on show. Answers are judged by the puzzles' goals, the clues themselves and
the sat engine's complete enumeration. Screenshots of each mode go to $NONOCP_SCREENSHOTS.
"""

from __future__ import annotations

import json
import os

import pytest

from conftest import PUZZLES
from nonocp import load, solve
from nonocp.core.counts import count_clues_of
from nonocp.formats import dumps, loads
from test_count_game_files import game_entry
from test_web_browser import CHROMIUM, board_cells, cell_center
from test_web_play import axe_script, browser, go, new_page, server, shots  # noqa: F401  (fixtures)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium executable on PATH")

SUNSET = PUZZLES / "counts-sunset.counts"  # 8x8, 4 colours, one solution; row 1 is 8* 0 0 0
FISH = PUZZLES / "counts-fish.counts"  # 14x10, 5 colours, one solution
CAT = PUZZLES / "counts-cat.counts"  # 10x10, 4 colours, 6 solutions


@pytest.fixture
def page(browser, server):  # noqa: F811
    context, pg, errors = new_page(browser, server, accept_downloads=True)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def loads_so_far(pg) -> int:
    return int(pg.evaluate("document.body.dataset.loads || '0'"))


def wait_loaded(pg, before: int, title: str | None = None) -> None:
    pg.wait_for_function("n => Number(document.body.dataset.loads || 0) > n", arg=before)
    if title is not None:
        assert pg.evaluate("window.nonocp.puzzle.title") == title


def open_paste(pg, text: str, title: str | None = None) -> None:
    go(pg, "open")
    before = loads_so_far(pg)
    pg.fill("#paste", text)
    pg.click("#paste-open")
    wait_loaded(pg, before, title)


def open_upload(pg, name: str, data: bytes) -> None:
    go(pg, "open")
    before = loads_so_far(pg)
    pg.set_input_files("#file", files=[{"name": name, "mimeType": "application/octet-stream", "buffer": data}])
    wait_loaded(pg, before)


def solve_on_page(pg, max_solutions: int = 20) -> str:
    go(pg, "solve")
    pg.fill("#max-solutions", str(max_solutions))
    pg.evaluate("delete document.getElementById('verdict').dataset.status")
    pg.click("#solve-run")
    pg.wait_for_selector("#verdict[data-status]")
    return pg.get_attribute("#verdict", "data-status")


def tokens(pg, kind: str, index: int) -> list[str]:
    """The items a line's clue shows, as the text form writes them (8*, 0, 3)."""
    return pg.eval_on_selector_all(f'svg.board .hdr[data-kind="{kind}"][data-index="{index}"] .blk text',
                                   "ts => ts.map(t => t.dataset.token)")


def goal_fills(puzzle) -> list[list[str]]:
    rgb = [c.rgb for c in puzzle.palette.colors]
    return [[rgb[v] for v in row] for row in puzzle.meta.goal.cells]


def click_header(pg, kind: str, index: int) -> None:
    pg.click(f'svg.board .hdr[data-kind="{kind}"][data-index="{index + 1}"] .hdr-bg')


# --- open and solve -------------------------------------------------------------------------------


def test_a_count_puzzle_opened_by_paste_and_by_upload_in_both_forms_and_solved(page, shots):  # noqa: F811
    sunset = load(str(SUNSET))[0]
    open_paste(page, SUNSET.read_text(encoding="utf-8"), "Sunset")
    assert "count clues" in page.inner_text("#title")
    # each line: one count per colour, a bar under a count that is all in a row, pale boxes for zeros
    assert tokens(page, "row", 1) == ["8*", "0", "0", "0"]
    assert tokens(page, "column", 2) == ["4*", "0", "3", "1"]
    row1 = 'svg.board .hdr[data-kind="row"][data-index="1"]'
    assert page.locator(f"{row1} .blk.together").count() == 1 and page.locator(f"{row1} .blk.zero").count() == 3
    assert solve_on_page(page) == "unique"
    assert "exactly one solution" in page.inner_text("#verdict")
    assert board_cells(page) == goal_fills(sunset)
    page.screenshot(path=str(shots / "counts-solve.png"))

    # the JSON form, uploaded as a file and pasted: the same puzzle, the same solution
    open_upload(page, "sunset.json", dumps(sunset, "json").encode())
    assert page.evaluate("window.nonocp.puzzle.clue_kind") == "counts"
    assert tokens(page, "row", 1) == ["8*", "0", "0", "0"]
    assert solve_on_page(page) == "unique" and board_cells(page) == goal_fills(sunset)
    open_paste(page, dumps(sunset, "json"), "Sunset")
    assert tokens(page, "column", 2) == ["4*", "0", "3", "1"]
    assert solve_on_page(page) == "unique" and board_cells(page) == goal_fills(sunset)

    # the text form, uploaded
    fish = load(str(FISH))[0]
    open_upload(page, "fish.counts", FISH.read_bytes())
    assert solve_on_page(page) == "unique" and board_cells(page) == goal_fills(fish)


def test_several_solutions_are_counted_exactly_and_their_differences_checkered(page, shots):  # noqa: F811
    cat = load(str(CAT))[0]
    every = solve(cat, "sat", max_solutions=None)  # the other engine's complete enumeration is the oracle
    assert every.exhausted
    grids = [g.cells for g in every.solutions]
    differ = sum(1 for r in range(cat.height) for c in range(cat.width) if len({g[r][c] for g in grids}) > 1)
    open_paste(page, CAT.read_text(encoding="utf-8"))
    assert solve_on_page(page, 100) == "multiple"
    assert f"exactly {len(grids)} solutions" in page.inner_text("#verdict")
    assert page.locator("svg.board .marks .checker").count() == differ > 0
    rgb = [c.rgb for c in cat.palette.colors]
    shown = set()
    for _ in grids:  # every solution browsed is one of sat's
        fills = board_cells(page)
        shown.add(json.dumps(fills))
        assert fills in [[[rgb[v] for v in row] for row in g] for g in grids]
        if page.is_enabled("#sol-next"):
            page.click("#sol-next")
    assert len(shown) == len(grids)
    page.screenshot(path=str(shots / "counts-solve-several.png"))


def test_the_games_list_opens_with_its_names_and_a_puzzle_without_solution_says_so(page):
    entries, status = [], []
    for path in sorted(PUZZLES.glob("counts-*")):
        puzzle = load(str(path))[0]
        entries.append(game_entry(puzzle, f"Team {len(entries) + 1}", f"from {path.name}"))
        status.append(path.name)
    open_upload(page, "puzzles.json", json.dumps(entries).encode())
    items = page.locator("#bundle-list li").all_inner_texts()
    assert len(items) == len(entries)
    for k, (text, name) in enumerate(zip(items, status, strict=True), 1):
        assert text.startswith(f"Team {k} (") and text.endswith(f": from {name}")
    none = status.index("counts-gen-none-10x10.json")
    before = loads_so_far(page)
    page.locator("#bundle-list li").nth(none).click()
    wait_loaded(page, before, f"Team {none + 1}")
    assert solve_on_page(page) == "none"
    listed = os.environ.get("NONOCP_HUNGRY_CAT_LIST")  # the game's own list (not shipped: no licence)
    if listed:
        data = open(listed, "rb").read()
        open_upload(page, "puzzles.json", data)
        names = [p["description"] for p in json.loads(data)]
        assert [t.split(" (")[0] for t in page.locator("#bundle-list li").all_inner_texts()] == names
        before = loads_so_far(page)
        page.locator("#bundle-list li").nth(names.index("Hard 211")).click()
        wait_loaded(page, before, "Hard 211")
        assert solve_on_page(page) == "none"


# --- step -----------------------------------------------------------------------------------------


def step_answers(pg) -> int:
    return int(pg.get_attribute("#panel-step", "data-answers") or "0")


def test_stepped_by_clicking_columns_until_solved_the_colour_circles_shrinking_away(page, shots):  # noqa: F811
    sunset = load(str(SUNSET))[0]
    goal = [v for row in sunset.meta.goal.cells for v in row]
    w, n = sunset.width, len(sunset.palette)
    open_paste(page, SUNSET.read_text(encoding="utf-8"))
    go(page, "step")
    page.wait_for_function("() => window.nonocp.modes.step.answer")
    assert page.evaluate("window.nonocp.modes.step.answer.masks") == [(1 << n) - 1] * (w * sunset.height)
    dots = "svg.board .dots circle.dot"
    assert page.locator(dots).count() == n * w * sunset.height  # one circle per colour per cell
    assert page.locator(f"{dots}:not(.gone)").count() == n * w * sunset.height
    # a colour ruled out shrinks its circle away: a transition on its transform
    assert "transform" in page.eval_on_selector(dots, "d => getComputedStyle(d).transitionProperty")
    clicks, shown = 0, n * w * sunset.height
    while page.evaluate("window.nonocp.modes.step.answer.undecided") and clicks < 3 * w:
        before = step_answers(page)
        click_header(page, "column", clicks % w)
        page.wait_for_function(f"() => Number(document.getElementById('panel-step').dataset.answers) > {before}")
        clicks += 1
        answer = page.evaluate("window.nonocp.modes.step.answer")
        masks = answer["masks"]
        for i, m in enumerate(masks):  # every colour the solution needs is still there
            assert m >> goal[i] & 1, (i, clicks)
        # the circles on show are exactly the colours still possible in undecided cells
        want = sum(bin(m).count("1") for m in masks if m & (m - 1))
        now = page.locator(f"{dots}:not(.gone)").count()
        assert now == want <= shown
        shown = now
        if clicks == 3:
            page.screenshot(path=str(shots / "counts-step.png"))
    assert page.evaluate("window.nonocp.modes.step.answer.undecided") == 0, f"{clicks} clicks left cells undecided"
    assert page.locator(f"{dots}:not(.gone)").count() == 0
    assert board_cells(page) == goal_fills(sunset)


def test_all_remaining_cells_leaves_undecided_exactly_the_cells_the_solutions_differ_on(page):  # noqa: F811
    cat = load(str(CAT))[0]
    every = solve(cat, "sat", max_solutions=None)  # the oracle: all six solutions
    grids = [g.cells for g in every.solutions]
    w = cat.width
    possible = [{g[i // w][i % w] for g in grids} for i in range(w * cat.height)]
    open_paste(page, CAT.read_text(encoding="utf-8"))
    go(page, "step")
    page.wait_for_function("() => window.nonocp.modes.step.answer")
    before = step_answers(page)
    page.click("#step-remaining")
    page.wait_for_function(f"() => Number(document.getElementById('panel-step').dataset.answers) > {before}")
    masks = page.evaluate("window.nonocp.modes.step.answer.masks")
    assert [{k for k in range(len(cat.palette)) if m >> k & 1} for m in masks] == possible
    # a circle for each colour some solution gives an undecided cell, no other
    want = sum(len(p) for p in possible if len(p) > 1)
    assert page.locator("svg.board .dots circle.dot:not(.gone)").count() == want > 0


# --- play -----------------------------------------------------------------------------------------


def done_flags(pg, kind: str, index: int) -> list[bool]:
    return pg.eval_on_selector_all(f'svg.board .hdr[data-kind="{kind}"][data-index="{index}"] .blk',
                                   "bs => bs.map(b => b.classList.contains('done'))")


def play_cells(pg) -> list[int]:
    return pg.evaluate("Array.from(window.nonocp.modes.play.state.cells)")


def drag(pg, r: int, c0: int, c1: int, button: str = "left") -> None:
    x0, y0 = cell_center(pg, r, c0)
    x1, y1 = cell_center(pg, r, c1)
    pg.mouse.move(x0, y0)
    pg.mouse.down(button=button)
    pg.mouse.move(x1, y1, steps=max(2, abs(c1 - c0)))
    pg.mouse.up(button=button)


def test_a_count_puzzle_played_to_the_end_counts_greying_out_as_they_are_met(page, shots):  # noqa: F811
    fish = load(str(FISH))[0]
    grid = fish.meta.goal.cells
    w, h, n = fish.width, fish.height, len(fish.palette)
    open_paste(page, FISH.read_text(encoding="utf-8"))
    go(page, "play")
    # every colour can be chosen (the first too: there is no background to cross), keys 1-5 in order
    assert page.locator("#play-colours .swatch").count() == n
    assert page.is_hidden("#play-autocross-row")
    # a count of 0 is met while the line holds none of that colour; the others wait for their cells
    row1 = [e.count for e in fish.rows[0]]
    assert done_flags(page, "row", 1) == [c == 0 for c in row1]
    # a hint decides cells as the solution has them; Check finds a wrong one
    page.click("#play-hint")
    page.wait_for_selector("#play-info[data-hint]")
    hinted = page.evaluate("window.nonocp.modes.play.state.hint.cells")
    assert hinted and all(grid[r][c] == v for r, c, v in hinted)
    # fill row by row, one run at a time: choose its colour by key, drag along it
    for r in range(h):
        c = 0
        while c < w:
            v = grid[r][c]
            end = c
            while end + 1 < w and grid[r][end + 1] == v:
                end += 1
            page.keyboard.press(str(v + 1))
            drag(page, r, c, end)
            c = end + 1
        assert play_cells(page)[r * w:(r + 1) * w] == list(grid[r])
        assert done_flags(page, "row", r + 1) == [True] * n, r  # the whole row met
        assert page.locator(f'svg.board .hdr[data-kind="row"][data-index="{r + 1}"].complete').count() == 1
        if r == h // 2:
            # a wrong colour in a finished row: its counts are no longer met, Check points at the cell
            right = grid[r][0]
            page.keyboard.press(str((right + 1) % n + 1))
            x, y = cell_center(page, r, 0)
            page.mouse.click(x, y)
            flags = done_flags(page, "row", r + 1)
            assert not flags[right] and not flags[(right + 1) % n]
            page.click("#play-check")
            page.wait_for_selector("#play-info[data-check=mistakes]")
            marked = page.eval_on_selector_all("svg.board .mistake", "ms => ms.map(m => [+m.dataset.r, +m.dataset.c])")
            assert marked == [[r, 0]]
            page.screenshot(path=str(shots / "counts-play.png"))
            # the right button clears (nothing to cross here), and the right colour goes back in
            page.mouse.click(x, y, button="right")
            assert play_cells(page)[r * w] == -1
            page.keyboard.press(str(right + 1))
            page.mouse.click(x, y)
            assert done_flags(page, "row", r + 1) == [True] * n
    assert page.locator("svg.board .x").count() == 0  # count puzzles are filled, never crossed
    page.wait_for_selector("#play-info[data-solved]")
    assert "Solved in" in page.inner_text("#play-info")
    for c in range(w):
        assert done_flags(page, "column", c + 1) == [True] * n


# --- edit -----------------------------------------------------------------------------------------


def wait_problems(pg, n: int) -> list[str]:
    """The Edit mode's problem list once the server's reading left `n` problems (every keystroke is read)."""
    settled = "n => !window.nonocp.modes.edit.pending && document.querySelectorAll('#problems li').length === n"
    pg.wait_for_function(settled, arg=n)
    return pg.locator("#problems li").all_inner_texts()


def field(pg, colour: int, what: str) -> str:
    return f'#count-editor-fields .count-field[data-colour="{colour}"] input.{what}'


def test_edit_counts_and_flags_checked_as_typed_and_a_flag_toggled_changes_the_verdict(page, shots):  # noqa: F811
    open_paste(page, SUNSET.read_text(encoding="utf-8"))
    assert solve_on_page(page) == "unique"
    go(page, "edit")
    click_header(page, "row", 0)
    page.wait_for_selector("#count-editor:not([hidden])")
    assert page.input_value(field(page, 0, "count")) == "8" and page.is_checked(field(page, 0, "together"))
    assert page.is_disabled(field(page, 1, "together"))  # a count of 0 cannot be all in a row
    # a count typed: read by the server at once (no Enter), the reason shown and the line drawn red
    page.fill(field(page, 0, "count"), "7")
    assert wait_problems(page, 1) == ["row 1: the counts add up to 7 but the line has 8 cells"]
    assert "add up to 7" in page.inner_text("#count-editor-problem")
    assert page.locator('svg.board .hdr.problem[data-kind="row"][data-index="1"]').count() == 1
    page.screenshot(path=str(shots / "counts-edit.png"))
    # one cell moved to another colour: the line reads, the colour totals do not
    page.fill(field(page, 1, "count"), "1")
    problems = wait_problems(page, 2)
    assert [p.split(" (")[0] for p in problems] == ["colour 1", "colour 2"]
    assert page.locator("svg.board .hdr.problem").count() == 0
    # back as it was, then the flag toggled: 8 not all in a row, on a line of 8
    page.fill(field(page, 1, "count"), "0")
    page.fill(field(page, 0, "count"), "8")
    wait_problems(page, 0)
    page.uncheck(field(page, 0, "together"))
    wait_problems(page, 0)
    page.wait_for_function("() => window.nonocp.puzzle.rows[0][0].allInARow === false")
    page.click("#count-editor button[type=submit]")
    page.wait_for_selector("#count-editor", state="hidden")
    assert tokens(page, "row", 1) == ["8", "0", "0", "0"]
    assert page.evaluate("window.nonocp.puzzle.rows[0][0]") == {"count": 8, "allInARow": False}
    page.evaluate("delete document.getElementById('verdict').dataset.status")
    page.click("#resolve")
    page.wait_for_selector("#verdict[data-status]")
    assert page.get_attribute("#verdict", "data-status") == "none"
    # and back: Escape in the form takes the line back to what it was when the form opened
    go(page, "edit")
    click_header(page, "row", 0)
    page.wait_for_selector("#count-editor:not([hidden])")
    page.check(field(page, 0, "together"))
    page.wait_for_function("() => window.nonocp.puzzle.rows[0][0].allInARow === true")
    page.keyboard.press("Escape")
    page.wait_for_selector("#count-editor", state="hidden")
    page.wait_for_function("() => window.nonocp.puzzle.rows[0][0].allInARow === false")
    assert tokens(page, "row", 1) == ["8", "0", "0", "0"]
    # a blank count puzzle to fill in: every cell the first colour
    assert page.input_value("#new-kind") == "counts"
    page.fill("#new-width", "4")
    page.fill("#new-height", "3")
    page.click("#new-blank")
    page.wait_for_function("() => window.nonocp.puzzle.width === 4 && window.nonocp.puzzle.clue_kind === 'counts'")
    assert tokens(page, "row", 3) == ["4*", "0"] and tokens(page, "column", 4) == ["3*", "0"]
    assert solve_on_page(page) == "unique"


# --- design ---------------------------------------------------------------------------------------


def wait_design_check(pg) -> str:
    pg.wait_for_function("""() => {
        const v = document.getElementById('check-verdict');
        return v.dataset.seq === String(window.nonocp.modes.design.state.seq)
            && document.getElementById('check-state').textContent.startsWith('checked in');
    }""")
    return pg.get_attribute("#check-verdict", "data-status")


def test_a_count_design_drawn_checked_made_unique_and_exported(page, shots):  # noqa: F811
    go(page, "design")
    page.select_option("#design-clues", "counts")
    page.fill("#design-width", "5")
    page.fill("#design-height", "5")
    page.click("#design-resize")
    page.click("#design-clear")
    assert wait_design_check(page) == "unique"  # all one colour: every line is 5* of it
    assert tokens(page, "row", 1) == ["5*", "0"]
    # two cells on a diagonal: the other diagonal has the same counts
    for r, c in ((1, 1), (2, 2)):
        x, y = cell_center(page, r, c)
        page.mouse.click(x, y)
    assert tokens(page, "row", 2) == ["4", "1"]  # the white cells are two runs: not all in a row
    assert wait_design_check(page) == "multiple"
    assert page.locator("svg.board .marks .checker").count() == 4
    page.screenshot(path=str(shots / "counts-design.png"))
    page.click("#design-unique")
    page.wait_for_selector("#panel-design[data-repainted]")
    assert wait_design_check(page) == "unique"
    drawn = page.evaluate("Array.from(window.nonocp.modes.design.state.cells)")
    # exported as a count puzzle: the file's clues are the drawing's, its goal the drawing
    go(page, "share")
    assert page.is_hidden('[data-export="non"]') and page.is_visible('[data-export="counts"]')
    with page.expect_download() as info:
        page.click('[data-export="counts"]')
    text = open(info.value.path(), encoding="utf-8").read()
    (puzzle,) = loads(text, "counts")
    cells = [drawn[r * 5:(r + 1) * 5] for r in range(5)]
    assert [list(row) for row in puzzle.meta.goal.cells] == cells
    assert (puzzle.rows, puzzle.cols) == count_clues_of(cells, len(puzzle.palette))
    assert solve(puzzle, "sat", max_solutions=2).status.value == "unique"


# --- share ----------------------------------------------------------------------------------------


def test_a_count_puzzle_reopened_from_its_share_link_and_its_play_link(browser, server, page):  # noqa: F811
    open_paste(page, SUNSET.read_text(encoding="utf-8"))
    page.wait_for_function("() => !window.nonocp.linkPending && location.hash.startsWith('#p=')")
    link = page.evaluate("window.nonocp.link")
    sent = page.evaluate("window.nonocp.request()")
    context, other, errors = new_page(browser, server)
    other.goto(link)
    other.wait_for_selector("body[data-ready]")
    assert other.evaluate("window.nonocp.request()") == sent
    assert tokens(other, "row", 1) == ["8*", "0", "0", "0"]
    assert solve_on_page(other) == "unique"
    assert board_cells(other) == goal_fills(load(str(SUNSET))[0])
    # a play link carries the cells filled so far
    go(page, "play")
    page.keyboard.press("3")
    for r, c in ((7, 0), (7, 1)):
        x, y = cell_center(page, r, c)
        page.mouse.click(x, y)
    page.wait_for_function("() => !window.nonocp.linkPending && location.hash.startsWith('#g=')")
    other.goto(page.evaluate("window.nonocp.link"))
    other.reload()
    other.wait_for_selector("#panel-play:not([hidden])")
    cells = other.evaluate("Array.from(window.nonocp.modes.play.state.cells)")
    assert cells[7 * 8] == cells[7 * 8 + 1] == 2 and cells.count(-1) == 62
    context.close()
    assert not errors, errors


# --- accessibility, and a look at every mode ---------------------------------------------------------


@pytest.mark.parametrize("viewport", [{"width": 1400, "height": 900}, {"width": 390, "height": 844}],
                         ids=["desk", "phone"])
def test_axe_finds_no_serious_violation_with_a_count_puzzle_in_any_mode(browser, server, shots, viewport):  # noqa: F811
    script = axe_script()
    if script is None:
        message = "axe-core is not installed (npm install --prefix .axe axe-core, or set NONOCP_AXE)"
        if os.environ.get("NONOCP_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    context, page, errors = new_page(browser, server, viewport=viewport, bypass_csp=True)
    page.add_script_tag(path=str(script))
    open_paste(page, SUNSET.read_text(encoding="utf-8"))
    found = {}
    size = f"{viewport['width']}x{viewport['height']}"
    for mode in ("open", "solve", "step", "play", "edit", "design", "share"):
        go(page, mode)
        if mode == "solve":
            page.click("#solve-run")
            page.wait_for_selector("#verdict[data-status]")
        elif mode == "step":
            page.wait_for_function("() => window.nonocp.modes.step.answer")
            before = step_answers(page)
            click_header(page, "column", 3)
            page.wait_for_function(f"() => Number(document.getElementById('panel-step').dataset.answers) > {before}")
        elif mode == "play":
            page.keyboard.press("1")
            for c in range(8):  # row 1 met: its counts greyed out
                x, y = cell_center(page, 0, c)
                page.mouse.click(x, y)
            assert page.locator('svg.board .hdr.complete[data-kind="row"][data-index="1"]').count() == 1
        elif mode == "edit":
            click_header(page, "row", 1)
            page.wait_for_selector("#count-editor:not([hidden])")
            page.fill(field(page, 0, "count"), "5")
            wait_problems(page, 1)
        elif mode == "design":
            wait_design_check(page)
        result = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))""")
        bad = [v for v in result if v["impact"] in ("serious", "critical")]
        if bad:
            found[mode] = bad
        page.screenshot(path=str(shots / f"counts-{size}-{mode}.png"))
        if mode == "edit":
            page.keyboard.press("Escape")
    context.close()
    if found:
        pytest.fail(f"axe: serious or critical violations: {json.dumps(found)}")
    assert not errors, errors
