"""`explain`: every step is justified on its own, and replaying the steps reaches the engine's answers.

The checks here are independent of nonocp.analysis.explain: a step is re-derived from the grid before it with the
exact line solver (line steps), by propagating the assumption (probe steps), by brute force over the
completions (all-remaining-cells), and the end of the replay is compared with the native engine's first
solution and with the brute-force oracle.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from conftest import PUZZLES, corpus_path, examples
from nonocp.analysis.explain import explain, explanation_json
from nonocp.cli.app import app
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.result import Status
from nonocp.engines import SolveOptions, get_backend
from nonocp.engines.native import solve_line
from nonocp.formats import load
from nonocp.render.steps_text import step_text
from oracle import brute_force
from strategies import palette_of, puzzle_from_grid, puzzles_with_grid

runner = CliRunner()


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


# ----------------------------------------------------------------------------- an independent checker


def line_cells(puzzle: Puzzle, kind: str, index: int) -> list[tuple[int, int]]:
    if kind == "row":
        return [(index, c) for c in range(puzzle.width)]
    return [(r, index) for r in range(puzzle.height)]


def clue_of(puzzle: Puzzle, kind: str, index: int):
    clue = puzzle.rows[index] if kind == "row" else puzzle.cols[index]
    return tuple((b.length, b.color) for b in clue)


def exact_line(puzzle: Puzzle, masks: dict, kind: str, index: int) -> list[int] | None:
    """The exact line solver on one line of `masks` ({(r, c): Domains mask}), as per-cell masks."""
    cells = line_cells(puzzle, kind, index)
    ncol = len(puzzle.palette)
    bitsets = [sum(((masks[rc] >> k) & 1) << i for i, rc in enumerate(cells)) for k in range(ncol)]
    res = solve_line(clue_of(puzzle, kind, index), len(cells), bitsets)
    if res is None:
        return None
    return [sum(((res[k] >> i) & 1) << k for k in range(ncol)) for i in range(len(cells))]


def propagate(puzzle: Puzzle, masks: dict) -> dict | None:
    """Line logic to a fixpoint with the exact line solver; None on a contradiction."""
    masks = dict(masks)
    lines = [("row", r) for r in range(puzzle.height)] + [("col", c) for c in range(puzzle.width)]
    changed = True
    while changed:
        changed = False
        for kind, index in lines:
            new = exact_line(puzzle, masks, kind, index)
            if new is None or any(m == 0 for m in new):
                return None
            for rc, m in zip(line_cells(puzzle, kind, index), new, strict=True):
                if masks[rc] != m:
                    masks[rc] = m
                    changed = True
    return masks


def completions(puzzle: Puzzle, masks: dict) -> list[Grid]:
    """Every solution that fits the candidates (brute force: small puzzles only)."""
    return [g for g in brute_force(puzzle) if all((masks[(r, c)] >> g.cells[r][c]) & 1 for (r, c) in masks)]


def symbol_masks(puzzle: Puzzle) -> dict[str, int]:
    return {c.symbol: 1 << k for k, c in enumerate(puzzle.palette.colors)}


def check_steps(puzzle: Puzzle, doc: dict, brute: bool = False) -> dict:
    """Replay `explain --format json` steps on an empty grid, checking each one. Returns the final grid."""
    bits = symbol_masks(puzzle)
    full = (1 << len(puzzle.palette)) - 1
    masks = {(r, c): full for r in range(puzzle.height) for c in range(puzzle.width)}
    before_step: dict[int, dict] = {}
    for step in doc["steps"]:
        kind = step["kind"]
        new = {(r, c): sum(bits[s] for s in cands) for r, c, cands in step["changes"]}
        olds = [sum(bits[s] for s in cands) for cands in step["old"]]
        assert olds == [masks[(r, c)] for r, c, _ in step["changes"]], f"step {step['n']}: wrong old candidates"
        before = dict(masks)
        before_step[step["n"]] = before
        if kind == "line":
            ln = step["line"]
            cells = line_cells(puzzle, ln["kind"], ln["index"])
            assert set(new) <= set(cells), f"step {step['n']} changes cells outside its line"
            exact = exact_line(puzzle, before, ln["kind"], ln["index"])
            assert exact is not None
            for rc, m_exact in zip(cells, exact, strict=True):
                after = new.get(rc, before[rc])
                assert after & ~before[rc] == 0, f"step {step['n']}: a line step only narrows"
                # the step removes only what the exact line solver removes
                assert m_exact & ~after == 0, f"step {step['n']} removes at {rc} what the line allows"
            assert new, "a line step changes something"
        elif kind == "probe-contradiction":
            (r, c), k = step["cell"], bits[step["color"]]
            assert new == {(r, c): before[(r, c)] & ~k}
            assumed = dict(before)
            assumed[(r, c)] = k
            assert propagate(puzzle, assumed) is None, f"step {step['n']}: the assumption does not contradict"
            cl = step["contradiction_line"]
            assert cl is not None
        elif kind == "probe-agreement":
            r, c = step["cell"]
            union: dict = {}
            for k in range(len(puzzle.palette)):
                if not (before[(r, c)] >> k) & 1:
                    continue
                assumed = dict(before)
                assumed[(r, c)] = 1 << k
                out = propagate(puzzle, assumed)
                if out is not None:
                    for rc, m in out.items():
                        union[rc] = union.get(rc, 0) | m
            assert union, f"step {step['n']}: every colour of the probed cell contradicts"
            for rc, m in new.items():
                assert m & ~before[rc] == 0 and union[rc] & ~m == 0, f"step {step['n']}: not agreed at {rc}"
        elif kind == "guess":
            (r, c), k = step["cell"], bits[step["color"]]
            assert new == {(r, c): k} and before[(r, c)] & k and before[(r, c)] != k
        elif kind == "contradiction":
            ln = step["line"]
            assert exact_line(puzzle, before, ln["kind"], ln["index"]) is None
        elif kind == "backtrack":
            guess = doc["steps"][step["returns_to"] - 1]
            assert guess["kind"] == "guess" and guess["cell"] == step["cell"] and guess["color"] == step["color"]
            target = dict(before_step[guess["n"]])
            (r, c), k = step["cell"], bits[step["color"]]
            after = {**before, **new}
            for rc, m in target.items():
                if rc == (r, c):
                    assert after[rc] & k == 0 and after[rc] & ~m == 0
                else:
                    assert after[rc] == m, f"step {step['n']} does not restore {rc}"
        elif kind == "all-remaining-cells":
            after = {**before, **new}
            if brute:
                sols = completions(puzzle, before)
                assert len(sols) == step["solutions"]
                for (r, c), m in after.items():  # what every completion shares, nothing more
                    assert m == sum({1 << g.cells[r][c] for g in sols}) or not sols
        elif kind == "solution":
            grid = grid_of(puzzle, before)
            assert grid is not None and not new, f"step {step['n']}: a solution step on an undecided grid"
            from nonocp.core.verify import verify

            assert verify(puzzle, grid).ok
        else:
            raise AssertionError(f"unknown step kind {kind}")
        masks.update(new)
        undecided = sum(1 for m in masks.values() if m & (m - 1))
        assert step["unknown"] == undecided
        decided = {(r, c): bits[s] for r, c, s in step["decided"]}
        assert all(masks[rc] == m for rc, m in decided.items())
    return masks


def grid_of(puzzle: Puzzle, masks: dict) -> Grid | None:
    if any(m & (m - 1) or m == 0 for m in masks.values()):
        return None
    return Grid.from_rows(
        [[masks[(r, c)].bit_length() - 1 for c in range(puzzle.width)] for r in range(puzzle.height)]
    )


def native_first(puzzle: Puzzle):
    # explain mirrors the probing depth-first search (native:dfs), so its replay ends on that search's first
    # solution (the default CDCL search may find another first on puzzles with several)
    return get_backend("native:dfs").solve(puzzle, SolveOptions(max_solutions=2))


def check_puzzle(puzzle: Puzzle, brute: bool = False) -> dict:
    """Everything the issue asks of one puzzle; returns the explanation as JSON data."""
    ex = explain(puzzle)
    doc = json.loads(json.dumps(explanation_json(ex, lambda s: step_text(s, puzzle))))
    final = check_steps(puzzle, doc, brute)
    result = native_first(puzzle)
    assert doc["status"] == str(result.status)
    if result.status is Status.NONE:
        assert doc["outcome"] == "no-solution" and doc["solution"] is None
        assert doc["steps"] and doc["steps"][-1]["kind"] in ("contradiction", "all-remaining-cells")
    else:
        assert doc["outcome"] == "solved"
        assert doc["steps"][-1]["kind"] == "solution"
        assert doc["solution"] == grid_of(puzzle, final).to_strings(puzzle.palette)
        # the traced search is native:dfs; it takes another path only after an all-remaining-cells step
        # that kept several completions
        if not any(s["kind"] == "all-remaining-cells" and s["solutions"] >= 2 for s in doc["steps"]):
            assert grid_of(puzzle, final) == result.solutions[0], "the replay ends on the engine's first solution"
    if brute:
        sols = brute_force(puzzle)
        assert {0: "none", 1: "unique"}.get(len(sols), "multiple") == doc["status"]
        if sols:
            assert grid_of(puzzle, final) in sols
    return doc


# ----------------------------------------------------------------------------- puzzles built in code


BW_HAND = [
    Puzzle((B(1),), (B(1),)),
    Puzzle(((),) * 4, ((),) * 3),
    Puzzle((B(1), B(1)), (B(1), B(1))),  # two solutions
    Puzzle((B(1),) * 3, (B(1),) * 3),  # six
    Puzzle((B(1, 1), (), B(1, 1)), (B(1, 1), (), B(1, 1))),
    Puzzle((B(2), B(1)), (B(1), B(1), B(1))),  # counts differ: none
    Puzzle((B(1, 1), B(1, 1), B(1)), (B(2), B(1), B(2))),
]


def perturbed(seed: int, lo: int = 4, hi: int = 8) -> Puzzle:
    """A random picture whose row clues come from the picture with two cells of one row swapped: often no
    solution, found only after guesses and backtracks (the cases line logic alone does not settle)."""
    rnd = random.Random(seed)
    w, h, nc = rnd.randint(lo, hi), rnd.randint(lo, hi), rnd.choice([2, 2, 3])
    dens = rnd.uniform(0.3, 0.7)
    cells = [[rnd.randint(1, nc - 1) if rnd.random() < dens else 0 for _ in range(w)] for _ in range(h)]
    r, a, b = rnd.randrange(h), rnd.randrange(w), rnd.randrange(w)
    bad = [list(x) for x in cells]
    bad[r][a], bad[r][b] = bad[r][b], bad[r][a]
    p0 = puzzle_from_grid(Grid.from_rows(cells), palette_of(nc))
    p1 = puzzle_from_grid(Grid.from_rows(bad), palette_of(nc))
    return Puzzle(p1.rows, p0.cols, p0.palette)


@pytest.mark.parametrize("puzzle", BW_HAND)
def test_hand_made(puzzle):
    check_puzzle(puzzle, brute=True)


def test_every_kind_of_step_is_seen_and_checked():
    """Puzzles chosen (by a search over seeds) so that together they exercise every step kind."""
    seen: set[str] = set()
    docs = [check_puzzle(perturbed(seed), brute=True) for seed in (126, 1268, 2202, 2276, 2624, 5207)]
    docs += [check_puzzle(perturbed(seed, 8, 12)) for seed in (208,)]  # its first guess fails
    docs += [check_puzzle(load(str(PUZZLES / name))[0], brute=True) for name in ("window.non", "eyes.non")]
    for doc in docs:
        seen |= {s["kind"] for s in doc["steps"]} | {s["technique"] for s in doc["steps"]}
    expected = {"line", "probe-contradiction", "probe-agreement", "guess", "contradiction", "backtrack",
                "all-remaining-cells", "solution", "overlap", "missing-colour", "out-of-reach", "split", "pin"}
    assert expected <= seen, f"never seen: {expected - seen}"


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles_with_grid(max_size=5))
def test_random_puzzles(case):
    puzzle, grid = case
    check_puzzle(puzzle, brute=True)


# ----------------------------------------------------------------------------- the team's and the corpus puzzles


def team_puzzles():
    out = []
    for f in sorted(PUZZLES.glob("*.non*")):
        for i, p in enumerate(load(str(f)), 1):
            out.append(pytest.param(p, id=f"{f.name}#{i}"))
    return out


@pytest.mark.parametrize("puzzle", team_puzzles())
def test_team_puzzles(puzzle):
    check_puzzle(puzzle, brute=puzzle.width * puzzle.height <= 30)


@pytest.mark.parametrize(
    "name", ["webpbn-00001-demo.txt", "webpbn-00021-Slippery Conditions.txt", "webpbn-00023-Test Pattern.txt"]
)
def test_corpus_puzzles(name):
    path = corpus_path("webpbn-survey", "free", name)
    puzzle = load(str(path))[0]
    doc = check_puzzle(puzzle)
    if puzzle.meta.goal is not None:
        assert doc["solution"] == puzzle.meta.goal.to_strings(puzzle.palette)


# ----------------------------------------------------------------------------- the command


def test_cli_json_replays_to_the_engine_solution(tmp_path):
    path = PUZZLES / "smiley.non"
    res = runner.invoke(app, ["explain", str(path), "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    puzzle = load(str(path))[0]
    final = check_steps(puzzle, doc)
    assert grid_of(puzzle, final) == native_first(puzzle).solutions[0]
    assert doc["format"] == "nonocp-explain/1"
    assert all(s["text"] for s in doc["steps"])


def test_cli_text_and_max_steps():
    res = runner.invoke(app, ["explain", str(PUZZLES / "heart.non"), "--max-steps", "3"])
    assert res.exit_code == 0, res.output
    assert "Step 3:" in res.stdout and "Step 4:" not in res.stdout
    assert "stopped at --max-steps" in res.stdout
    res = runner.invoke(app, ["explain", str(PUZZLES / "heart.non"), "--format", "json", "--max-steps", "2"])
    doc = json.loads(res.stdout)
    assert doc["outcome"] == "truncated" and len(doc["steps"]) == 2 and doc["status"] is None


def test_cli_no_solution_exit_code():
    res = runner.invoke(app, ["explain", str(PUZZLES / "no-way.non"), "--no-grid"])
    assert res.exit_code == 1, res.output
    assert "Contradiction" in res.stdout or "no completion" in res.stdout


def test_cli_svg_writes_one_picture_per_step_and_an_index(tmp_path):
    out = tmp_path / "steps"
    res = runner.invoke(app, ["explain", str(PUZZLES / "rainbow.non"), "--format", "svg", "--output", str(out)])
    assert res.exit_code == 0, res.output
    doc = explanation_json(explain(load(str(PUZZLES / "rainbow.non"))[0]))
    assert doc["steps"] and "text" not in doc["steps"][0]  # sentences come from the presentation layer
    svgs = sorted(p.name for p in out.glob("step-*.svg"))
    assert len(svgs) == len(doc["steps"]) + 1  # the empty grid first
    index = (out / "index.html").read_text()
    assert all(name in index for name in svgs)
    import xml.dom.minidom

    last = xml.dom.minidom.parse(str(out / svgs[-1]))
    cells = [e for e in last.getElementsByTagName("rect") if "cell" in e.getAttribute("class").split()]
    assert len(cells) == 12 * 7 and not any("undecided" in e.getAttribute("class") for e in cells)
    first = xml.dom.minidom.parse(str(out / svgs[0]))
    assert all("undecided" in e.getAttribute("class") for e in first.getElementsByTagName("rect")
               if "cell" in e.getAttribute("class").split())


def test_cli_svg_needs_a_folder(tmp_path):
    res = runner.invoke(app, ["explain", str(PUZZLES / "dot.non"), "--format", "svg"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["explain", str(Path(tmp_path) / "missing.non")])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_cli_all_lists_every_solution_with_its_guesses():
    res = runner.invoke(app, ["explain", str(PUZZLES / "smiley.non"), "--all", "--no-grid"])
    assert res.exit_code == 0, res.output
    assert "9 solutions in all." in res.stdout
    assert len(re.findall(r"^solution \d+ \(step \d+\): \d+ guess(es)? in force", res.stdout, re.M)) == 9
    res = runner.invoke(app, ["explain", str(PUZZLES / "smiley.non"), "-n", "2", "-f", "json"])
    doc = json.loads(res.stdout)
    assert len(doc["solutions"]) == 2 and not doc["exhaustive"] and doc["status"] == "multiple"
    sols = get_backend("native").solve(load(str(PUZZLES / "smiley.non"))[0], SolveOptions(max_solutions=None))
    every = {tuple(g.to_strings(load(str(PUZZLES / "smiley.non"))[0].palette)) for g in sols.solutions}
    assert all(tuple(s["rows"]) in every for s in doc["solutions"])
    res = runner.invoke(app, ["explain", str(PUZZLES / "smiley.non"), "-n", "0", "-f", "json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["exhaustive"]  # 0 = every one, as --all
    res = runner.invoke(app, ["explain", str(PUZZLES / "smiley.non"), "-n", "-1"])
    assert res.exit_code == 2


def test_text_report_is_bounded():
    """A big explanation's text stops drawing grids past the size bound or the deadline, and says so."""
    from nonocp.render.steps_text import text_report

    ex = explain(load(str(PUZZLES / "gen-bw-20x20.non"))[0])
    full = text_report(ex, max_chars=None)
    assert full.count("Step ") == len(ex.steps)
    small = text_report(ex, max_chars=20_000)
    assert len(small) < 45_000 and "(no more grids: the output limit was reached)" in small
    tiny = text_report(ex, max_chars=3_000)
    assert len(tiny) < 8_000 and "more steps left out" in tiny
    late = text_report(ex, deadline=0.0)  # long past: words only after the first sixteen steps
    assert "(no more grids: the time limit was reached)" in late and late.count("Step ") == len(ex.steps)
    assert len(late) < len(full) / 2


def test_cli_svg_index_pages_through_the_steps(tmp_path):
    out = tmp_path / "steps"
    res = runner.invoke(app, ["explain", str(PUZZLES / "heart.non"), "--format", "svg", "--output", str(out)])
    assert res.exit_code == 0, res.output
    index = (out / "index.html").read_text()
    assert 'id="back"' in index and 'id="next"' in index and "ArrowLeft" in index and "ArrowRight" in index


@pytest.mark.slow
def test_svg_index_keys_in_headless_chromium(tmp_path):
    """The arrow keys and buttons of the index page, in a real browser (skipped without chromium)."""
    import shutil
    import subprocess

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        assert os.environ.get("NONOCP_REQUIRE_BROWSER") != "1", "CI needs chromium (.ci/run installs it)"
        pytest.skip("chromium is not installed")
    out = tmp_path / "steps"
    runner.invoke(app, ["explain", str(PUZZLES / "heart.non"), "--format", "svg", "--output", str(out)])
    (out / "keys.html").write_text(
        '<!DOCTYPE html><html><head><title>none</title></head><body><iframe id="f" src="index.html#3"></iframe>'
        "<script>document.getElementById('f').onload = function () { var d = this.contentDocument;"
        "['ArrowRight', 'ArrowRight', 'ArrowLeft'].forEach(function (k) {"
        "d.dispatchEvent(new KeyboardEvent('keydown', {key: k})); });"
        "d.getElementById('next').click(); d.getElementById('next').click();"
        "document.title = d.getElementById('where').textContent + ' / ' + d.getElementById('picture')"
        ".getAttribute('src'); };</script></body></html>")
    dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                          "--virtual-time-budget=5000", "--dump-dom", (out / "keys.html").as_uri()],
                         capture_output=True, text=True, timeout=120).stdout
    n = len(list(out.glob("step-*.svg"))) - 1
    assert f"<title>step 6 of {n} / step-0006.svg</title>" in dom
