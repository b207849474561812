"""`rate` agrees with the engines: LINE puzzles fall to line logic alone, PROBE ones need probing but no
guess, MULTIPLE and NONE match the solution counts (brute force on small puzzles, the native engine, and
the counts recorded beside the team's puzzles)."""

from __future__ import annotations

import csv
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from conftest import PUZZLES, corpus_path, examples
from nonocp.analysis.rate import VERDICTS, rate
from nonocp.cli.app import app
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Puzzle
from nonocp.engines import SolveOptions, get_backend
from nonocp.engines.native.engine import Engine
from nonocp.formats import load
from oracle import brute_force
from strategies import palette_of, puzzle_from_grid, puzzles_with_grid

runner = CliRunner()


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


def line_logic_solves(puzzle: Puzzle) -> bool:
    """Propagation alone (no probing, no search) decides every cell."""
    engine = Engine(puzzle)
    st = engine.initial_state()
    if engine.propagate(st, range(engine.nlines)) < 0:
        return False
    return not any(engine.unknown_rows(st))


def probing_solves(puzzle: Puzzle) -> bool:
    engine = Engine(puzzle)
    st = engine.initial_state()
    if engine.propagate(st, range(engine.nlines)) < 0:
        return False
    ok, branch = engine.probe(st)
    return ok and branch is None


def check_rating(puzzle: Puzzle, expected_count: int | None = None):
    r = rate(puzzle)
    assert r.verdict in VERDICTS
    native = get_backend("native").solve(puzzle, SolveOptions(max_solutions=2))
    n = len(native.solutions) if expected_count is None else expected_count
    if n == 0:
        assert r.verdict == "NONE"
    elif n >= 2:
        assert r.verdict == "MULTIPLE"
    else:
        assert r.verdict in ("LINE", "PROBE", "BRANCH")
    if r.verdict == "LINE":
        assert line_logic_solves(puzzle) and r.probes == 0 and r.guesses == 0 and r.depth == 0
    if r.verdict == "PROBE":
        assert not line_logic_solves(puzzle) and probing_solves(puzzle) and r.probes > 0 and r.guesses == 0
    if r.verdict == "BRANCH":
        assert not probing_solves(puzzle) and (r.guesses > 0 or r.steps > 0)
    assert r.summary.startswith(r.verdict)
    return r


HAND = [
    (Puzzle((B(1),), (B(1),)), 1, "LINE"),
    (Puzzle((B(1), B(1)), (B(1), B(1))), 2, "MULTIPLE"),
    (Puzzle((B(1),) * 3, (B(1),) * 3), 6, "MULTIPLE"),
    (Puzzle((B(2),), (B(1), (), B(1))), 0, "NONE"),
    (Puzzle((B(1, 1), (), B(1, 1)), (B(1, 1), (), B(1, 1))), 1, "LINE"),
]


@pytest.mark.parametrize("puzzle,count,verdict", HAND)
def test_hand_made(puzzle, count, verdict):
    assert len(brute_force(puzzle)) == count
    assert check_rating(puzzle, count).verdict == verdict


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles_with_grid(max_size=5))
def test_random_puzzles_match_brute_force(case):
    puzzle, _ = case
    check_rating(puzzle, len(brute_force(puzzle, 2)))


def test_unsolvable_random_clues_match_brute_force():
    """Pictures whose row clues were shuffled a little: often no solution, sometimes still some."""
    seen = set()
    for seed in range(40):
        rnd = random.Random(seed)
        w, h, nc = rnd.randint(3, 5), rnd.randint(3, 5), rnd.choice([2, 3])
        cells = [[rnd.randint(1, nc - 1) if rnd.random() < 0.5 else 0 for _ in range(w)] for _ in range(h)]
        bad = [list(x) for x in cells]
        r, a, b = rnd.randrange(h), rnd.randrange(w), rnd.randrange(w)
        bad[r][a], bad[r][b] = bad[r][b], bad[r][a]
        p0 = puzzle_from_grid(Grid.from_rows(cells), palette_of(nc))
        p1 = puzzle_from_grid(Grid.from_rows(bad), palette_of(nc))
        puzzle = Puzzle(p1.rows, p0.cols, p0.palette)
        seen.add(check_rating(puzzle, len(brute_force(puzzle, 2))).verdict)
    assert {"NONE", "LINE", "MULTIPLE"} <= seen


def expected_counts():
    rows = list(csv.DictReader((PUZZLES / "expected.tsv").open(), delimiter="\t"))
    return [pytest.param(r["file"], int(r["puzzle"]), int(r["solutions"]), id=f"{r['file']}#{r['puzzle']}")
            for r in rows]


@pytest.mark.parametrize("name,index,count", expected_counts())
def test_team_puzzles(name, index, count):
    puzzle = load(str(PUZZLES / name))[index - 1]
    check_rating(puzzle, count)


def test_corpus_verdicts():
    demo = load(str(corpus_path("webpbn-survey", "free", "webpbn-00001-demo.txt")))[0]
    assert check_rating(demo).verdict == "LINE"
    pattern = load(str(corpus_path("webpbn-survey", "free", "webpbn-00023-Test Pattern.txt")))[0]
    assert check_rating(pattern).verdict == "PROBE"


def test_timeout_gives_unknown():
    big = load(str(corpus_path("webpbn-survey", "free", "webpbn-00436-Old stone face.txt")))[0]
    r = rate(big, time_limit=0.001)
    assert r.verdict == "UNKNOWN"


# ----------------------------------------------------------------------------- the command


def test_cli_single_puzzle():
    res = runner.invoke(app, ["rate", str(PUZZLES / "heart.non")])
    assert res.exit_code == 0, res.output
    assert "LINE: line logic alone solves it" in res.stdout


def test_cli_folder_table_and_json(tmp_path):
    res = runner.invoke(app, ["rate", str(PUZZLES)])
    assert res.exit_code == 1, res.output  # no-way.non has no solution: exit 1, as from `solve`
    expected = list(csv.DictReader((PUZZLES / "expected.tsv").open(), delimiter="\t"))
    for name in {r["file"] for r in expected}:
        assert name in res.stdout
    assert f"{len(expected)} puzzles:" in res.stdout
    res = runner.invoke(app, ["rate", str(PUZZLES / "smiley.non"), str(PUZZLES / "no-way.non"), "-f", "json"])
    records = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["verdict"] for r in records] == ["MULTIPLE", "NONE"]


def test_cli_bad_file_in_a_folder_is_a_row(tmp_path):
    (tmp_path / "good.non").write_text((PUZZLES / "dot.non").read_text())
    (tmp_path / "bad.non").write_text("rows\n1 x\n")
    res = runner.invoke(app, ["rate", str(tmp_path)])
    assert res.exit_code == 2
    assert "ERROR" in res.stdout and "good.non" in res.stdout
    res = runner.invoke(app, ["rate", str(tmp_path / "bad.non")])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_guesses_per_solution():
    """Every solution is reported with the guesses it rests on; the walk finds them all with --solutions 0."""
    smiley = load(str(PUZZLES / "smiley.non"))[0]
    r = rate(smiley, max_solutions=None)
    assert r.verdict == "MULTIPLE" and r.exhaustive and len(r.guesses_per_solution) == 9
    assert r.guesses_per_solution[0] == r.depth >= 1
    r2 = rate(smiley)  # the default walk stops at two: enough for the verdict
    assert len(r2.guesses_per_solution) == 2 and not r2.exhaustive
    assert r2.guesses_per_solution == r.guesses_per_solution[:2]
    heart = load(str(PUZZLES / "heart.non"))[0]
    r = rate(heart)
    assert r.verdict == "LINE" and r.guesses_per_solution == (0,) and r.exhaustive
    res = runner.invoke(app, ["rate", str(PUZZLES / "smiley.non"), "--solutions", "0"])
    assert res.exit_code == 0, res.output
    assert "MULTIPLE: 9 solutions" in res.stdout and "guesses per solution: 2, 1, 1" in res.stdout
    res = runner.invoke(app, ["rate", str(PUZZLES / "smiley.non"), "-f", "json"])
    record = json.loads(res.stdout)
    assert record["guesses_per_solution"] == [2, 1] and record["exhaustive"] is False
    res = runner.invoke(app, ["rate", str(PUZZLES / "smiley.non"), "--solutions", "-1"])
    assert res.exit_code == 2


def test_a_step_budget_stops_the_rating_and_says_so():
    """`max_steps` is a budget of work: past it the verdict is UNKNOWN and the summary names the budget."""
    from nonocp.analysis.rate import rate
    from nonocp.formats import load

    puzzle = load(str(PUZZLES / "gen-bw-20x20.non"))[0]
    full = rate(puzzle)
    assert full.verdict != "UNKNOWN" and full.steps > 10
    cut = rate(puzzle, max_steps=10)
    assert cut.verdict == "UNKNOWN"
    assert cut.steps == 10
    assert "budget of 10 steps" in cut.summary


def test_cli_folder_table_fits_80_columns_and_names_every_file(tmp_path):
    import shutil
    import subprocess
    import sys

    files = [f for f in PUZZLES.iterdir() if f.suffix in (".non", ".counts", ".json")]
    for f in files:  # a folder of files, no bundle: whole file names, the titles give way
        shutil.copy(f, tmp_path / f.name)
    p = subprocess.run([sys.executable, "-m", "nonocp.cli", "rate", str(tmp_path)], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"})
    assert p.returncode == 1 and p.stderr == "", p.stderr  # a pipe: 80 columns, whatever COLUMNS says
    lines = p.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    for f in files:
        assert any(line.split()[0] == f.name for line in lines[2:]), f.name
    assert lines[0].split() == ["file", "size", "verdict", "steps", "probes", "guesses", "per", "sol.", "s"]
    # a bundle's puzzles share one file name: their titles stay, the name gives way (not the number)
    b = subprocess.run([sys.executable, "-m", "nonocp.cli", "rate", str(PUZZLES / "gen-bundle.nonpack")],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin"})
    rows = b.stdout.splitlines()
    assert max(map(len, rows)) <= 80 and rows[0].split()[:2] == ["file", "title"]
    for k in range(4):
        assert rows[2 + k].split()[1:3] == ["#" + str(k + 1), f"gen-small-{k}"], rows[2 + k]


def test_table_keeps_titles_and_depth_where_they_fit():
    from nonocp.cli.commands.rate import table_lines

    heart = load(str(PUZZLES / "heart.non"))[0]
    rows = [(str(PUZZLES / "heart.non"), 1, heart, rate(heart), None), ("bad.non", 1, None, None, "bad.non:2: no")]
    wide = table_lines(rows, width=80)
    assert wide[0].split() == ["file", "title", "size", "verdict", "steps", "probes", "guesses", "per", "sol.",
                               "depth", "s"]
    assert wide[2].split()[:4] == ["heart.non", "Heart", "9x8", "LINE"] and wide[3].split() == ["bad.non", "ERROR"]
    narrow = table_lines(rows, width=60)
    assert "title" not in narrow[0] and "depth" not in narrow[0] and max(map(len, narrow)) <= 60
