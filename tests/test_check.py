"""`nonocp check` and nonocp.analysis.crosscheck: agreement, disagreement (fake lying engines), bad input.

The fake engines are registered in the real registry (nonocp.engines.BACKENDS) for the duration of
a test, so the command runs exactly as it does with real engines. They build on the brute-force engine
(nonocp.engines.brute), so the puzzles here are tiny.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import nonocp.engines
from nonocp.analysis.crosscheck import compare, crosscheck, run_engine
from nonocp.cli.app import app
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.result import SolveResult, Status, status_of
from nonocp.engines import SolveOptions
from nonocp.engines.brute import BruteBackend  # "brute", the correct one: the real brute-force engine
from nonocp.formats import dumps
from oracle import brute_force


class BruteTooBackend(BruteBackend):
    """A second correct engine, returning solutions in the opposite order."""

    name = "brute2"

    def solve(self, puzzle, options):
        result = super().solve(puzzle, SolveOptions(max_solutions=None, fixed=options.fixed))
        every = list(reversed(result.solutions))
        limit = options.max_solutions
        found = every if limit is None else every[:limit]
        exhausted = limit is None or len(every) < limit
        return SolveResult(status_of(len(found), exhausted, limit), tuple(found), exhausted, self.name)


class WrongGridBackend(BruteBackend):
    """Claims a unique solution that breaks the clues (its grid is the solution with one cell flipped)."""

    name = "wronggrid"

    def solve(self, puzzle, options):
        good = super().solve(puzzle, options)
        rows = [list(r) for r in good.solutions[0].cells]
        rows[0][0] = 1 - rows[0][0] if rows[0][0] in (0, 1) else 0
        return SolveResult(Status.UNIQUE, (Grid.from_rows(rows),), True, self.name)


class SaysNoneBackend(BruteBackend):
    """Claims there is no solution."""

    name = "saysnone"

    def solve(self, puzzle, options):
        return SolveResult(Status.NONE, (), True, self.name)


class OtherUniqueBackend(BruteBackend):
    """Claims 'unique' but returns the last solution: right grid, wrong verdict on multi-solution puzzles."""

    name = "otherunique"

    def solve(self, puzzle, options):
        every = brute_force(puzzle)
        return SolveResult(Status.UNIQUE if every else Status.NONE, tuple(every[-1:]), True, self.name)


class SlowBackend(BruteBackend):
    """Always times out without an answer."""

    name = "slow"

    def solve(self, puzzle, options):
        return SolveResult(Status.TIMEOUT, (), False, self.name)


class FirstThenTimeoutBackend(BruteBackend):
    """Runs out of time after finding the first solution (in brute-force order)."""

    name = "first"

    def solve(self, puzzle, options):
        return SolveResult(Status.TIMEOUT, tuple(brute_force(puzzle)[:1]), False, self.name)


class LastThenTimeoutBackend(BruteBackend):
    """Runs out of time after finding the last solution (in brute-force order)."""

    name = "last"

    def solve(self, puzzle, options):
        return SolveResult(Status.TIMEOUT, tuple(brute_force(puzzle)[-1:]), False, self.name)


class CrashBackend(BruteBackend):
    name = "crash"

    def solve(self, puzzle, options):
        raise RuntimeError("boom")


FAKES = {
    "brute": "BruteBackend",
    "brute2": "BruteTooBackend",
    "wronggrid": "WrongGridBackend",
    "saysnone": "SaysNoneBackend",
    "otherunique": "OtherUniqueBackend",
    "slow": "SlowBackend",
    "crash": "CrashBackend",
    "first": "FirstThenTimeoutBackend",
    "last": "LastThenTimeoutBackend",
}


@pytest.fixture
def fakes(monkeypatch):
    for name, cls in FAKES.items():
        monkeypatch.setitem(nonocp.engines.BACKENDS, name, f"{__name__}:{cls}")
    # the command's default engine list: two correct fakes, so tests never depend on real engines
    monkeypatch.setattr(nonocp.engines, "INDEPENDENT", ("brute", "brute2"))


def B(*lengths):
    return tuple(Block(n, 1) for n in lengths)


UNIQUE = Puzzle((B(1), B(3), B(1)), (B(1), B(3), B(1)))  # a plus sign
MULTI = Puzzle((B(1),) * 3, (B(1),) * 3)  # 3x3 permutation matrices: 6 solutions
NONE = Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ()))  # totals agree, no solution


def write(tmp_path, name, puzzle):
    path = tmp_path / name
    path.write_text(dumps(puzzle, "non"))
    return str(path)


runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, ["check", *args])


# ---- the comparison itself ------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle,verdict", [(UNIQUE, "unique"), (MULTI, "multiple"), (NONE, "none")])
def test_correct_engines_agree(fakes, puzzle, verdict):
    check = crosscheck(puzzle, ["brute", "brute2"])
    assert check.agree, check.disagreements
    assert check.verdict == verdict


def test_enumerating_all_solutions_gives_the_exact_count(fakes):
    check = crosscheck(MULTI, ["brute", "brute2"], max_solutions=None)
    assert check.agree and check.solution_count == 6


def test_wrong_grid_is_a_disagreement(fakes):
    check = crosscheck(UNIQUE, ["brute", "wronggrid"])
    assert not check.agree
    kinds = {d.kind for d in check.disagreements}
    assert "invalid-solution" in kinds
    [invalid] = [d for d in check.disagreements if d.kind == "invalid-solution"]
    assert invalid.engines == ("wronggrid",)
    assert "wronggrid" in check.culprits


def test_different_verdicts_disagree(fakes):
    check = crosscheck(UNIQUE, ["brute", "saysnone"])
    assert {d.kind for d in check.disagreements} >= {"verdict", "missed-solution"}
    assert set(check.culprits) == {"brute", "saysnone"}


def test_unique_claim_on_multi_solution_puzzle_disagrees(fakes):
    check = crosscheck(MULTI, ["brute", "otherunique"])
    assert "verdict" in {d.kind for d in check.disagreements}


def test_unique_grids_must_be_identical():
    """Two engines both say 'unique' with different valid grids: one of them missed a solution."""
    a, b = brute_force(MULTI)[:2]
    runs = [
        run_engine("x", MULTI, SolveOptions(), lambda _: _Fixed(SolveResult(Status.UNIQUE, (a,), True, "x"))),
        run_engine("y", MULTI, SolveOptions(), lambda _: _Fixed(SolveResult(Status.UNIQUE, (b,), True, "y"))),
    ]
    kinds = {d.kind for d in compare(runs)}
    assert kinds == {"missed-solution"}


def test_duplicates_and_inconsistent_verdicts_are_caught():
    a = brute_force(MULTI)[0]
    run = run_engine("x", MULTI, SolveOptions(), lambda _: _Fixed(SolveResult(Status.MULTIPLE, (a, a), False, "x")))
    kinds = {d.kind for d in compare([run])}
    assert kinds == {"duplicate-solution", "inconsistent"}


def test_timeout_is_not_a_disagreement(fakes):
    check = crosscheck(UNIQUE, ["brute", "slow"])
    assert check.agree
    assert [r.status for r in check.runs] == ["unique", "timeout"]


def test_crash_is_reported(fakes):
    check = crosscheck(UNIQUE, ["brute", "crash"])
    assert not check.agree
    assert check.runs[1].status == "error" and "boom" in check.runs[1].message


def test_unavailable_engine_is_skipped(fakes, monkeypatch):
    monkeypatch.setitem(nonocp.engines.BACKENDS, "ghost", "nonocp_no_such_module:Nothing")
    check = crosscheck(UNIQUE, ["brute", "ghost"])
    assert check.agree and check.runs[1].status == "unavailable"


def test_max_solutions_below_two_is_refused():
    with pytest.raises(ValueError):
        crosscheck(UNIQUE, ["brute"], max_solutions=1)


class _Fixed:
    def __init__(self, result):
        self.result = result

    def solve(self, puzzle, options):
        return self.result


# ---- the command ----------------------------------------------------------------------------------


def test_titles_with_brackets_are_printed_verbatim(fakes, tmp_path):
    from dataclasses import replace

    from nonocp.core.puzzle import Meta

    path = write(tmp_path, "t.non", replace(UNIQUE, meta=Meta(title="Party [Political] [/]")))
    result = invoke(path)
    assert result.exit_code == 0, result.output
    assert "[Political]" in result.output


def test_command_exits_0_when_engines_agree(fakes, tmp_path):
    files = [write(tmp_path, "u.non", UNIQUE), write(tmp_path, "m.non", MULTI)]
    result = invoke(*files)
    assert result.exit_code == 0, result.output
    for word in ("brute", "brute2", "unique", "multiple"):
        assert word in result.output


def test_command_exits_1_when_engines_agree_there_is_no_solution(fakes, tmp_path):
    """As `solve` says it: the verdict is the exit code, 1 for a puzzle proven to have none."""
    files = [write(tmp_path, "u.non", UNIQUE), write(tmp_path, "n.non", NONE)]
    result = invoke(*files)
    assert result.exit_code == 1, result.output
    assert "none" in result.output


def test_command_exits_4_and_names_puzzle_and_engines(fakes, tmp_path):
    good = write(tmp_path, "good.non", MULTI)
    bad = write(tmp_path, "bad.non", UNIQUE)
    result = invoke(good, bad, "--backends", "brute,wronggrid")
    assert result.exit_code == 4
    # the MULTI puzzle also disagrees (wronggrid says unique); the message names both files
    assert "bad.non" in result.stderr and "wronggrid" in result.stderr


def test_command_exits_4_on_verdict_disagreement(fakes, tmp_path):
    path = write(tmp_path, "m.non", MULTI)
    result = invoke(path, "--backends", "brute,otherunique")
    assert result.exit_code == 4
    assert "m.non" in result.stderr and "otherunique" in result.stderr and "brute" in result.stderr


def _words(text: str) -> str:
    return " ".join(text.split())  # rich wraps long table titles


def test_command_says_when_a_verdict_is_cross_checked(fakes, tmp_path):
    path = write(tmp_path, "u.non", UNIQUE)
    result = invoke(path, "--backends", "brute,brute2")
    assert result.exit_code == 0
    assert "agree (unique, cross-checked by 2 engines)" in _words(result.output)


def test_command_one_verdict_beside_a_timeout_is_exit_0_but_not_cross_checked(fakes, tmp_path):
    path = write(tmp_path, "u.non", UNIQUE)
    result = invoke(path, "--backends", "brute,slow", "--timeout", "1")
    assert result.exit_code == 0
    out = _words(result.output)
    assert "timeout" in out and "unique by one engine only" in out and "cross-checked by" not in out


def test_command_a_multiple_verdict_from_one_engine_is_proven_by_its_two_verified_solutions(fakes, tmp_path):
    path = write(tmp_path, "m.non", MULTI)
    result = invoke(path, "--backends", "brute,slow")
    assert result.exit_code == 0
    out = _words(result.output)
    assert "multiple, proven: two distinct solutions passed the independent check" in out
    assert "one engine only" not in out


def test_two_timed_out_engines_with_different_solutions_prove_multiple(fakes, tmp_path):
    check = crosscheck(MULTI, ["first", "last"])
    assert check.deciders == 0 and check.proven_multiple and check.verdict == "multiple"
    # the same grid twice proves nothing
    same = crosscheck(MULTI, ["first", "first"])
    assert not same.proven_multiple and same.verdict == "timeout"
    path = write(tmp_path, "m.non", MULTI)
    assert invoke(path, "--backends", "first,last").exit_code == 0
    assert invoke(path, "--backends", "first").exit_code == 3


def test_command_with_no_verdict_at_all_is_exit_3_not_agreement(fakes, tmp_path):
    good = write(tmp_path, "u.non", UNIQUE)
    result = invoke(good, "--backends", "slow", "--timeout", "1")
    assert result.exit_code == 3
    assert "no verdict" in _words(result.output)
    assert "u.non" in result.stderr and "no engine reached a verdict" in result.stderr
    [doc] = map(json.loads, invoke(good, "--backends", "slow", "--format", "json").stdout.splitlines())
    assert doc["deciders"] == 0 and doc["verdict"] == "timeout"


def test_command_json(fakes, tmp_path):
    path = write(tmp_path, "m.non", MULTI)
    result = invoke(path, "--format", "json", "--all")
    assert result.exit_code == 0
    [p] = map(json.loads, result.stdout.splitlines())
    assert p["agree"] is True
    assert p["verdict"] == "multiple" and p["solutions"] == 6
    assert [e["engine"] for e in p["engines"]] == ["brute", "brute2"]
    assert all(e["solutions_ok"] for e in p["engines"])


def test_command_json_disagreement(fakes, tmp_path):
    path = write(tmp_path, "u.non", UNIQUE)
    result = invoke(path, "--format", "json", "--backends", "brute,saysnone")
    assert result.exit_code == 4
    [doc] = map(json.loads, result.stdout.splitlines())
    assert doc["agree"] is False and doc["disagreements"]


@pytest.mark.parametrize(
    "args",
    [
        ["{missing}"],
        ["{garbage}"],
        ["{ok}", "--backends", "nosuchengine"],
        ["{ok}", "--format", "yaml"],
        ["{ok}", "--max-solutions", "1"],
        ["{ok}", "--backends", "ghost"],
    ],
    ids=["missing-file", "unparsable", "unknown-engine", "bad-format", "limit-1", "nothing-available"],
)
def test_command_exits_2_on_bad_input(fakes, tmp_path, monkeypatch, args):
    monkeypatch.setitem(nonocp.engines.BACKENDS, "ghost", "nonocp_no_such_module:Nothing")
    garbage = tmp_path / "garbage.non"
    garbage.write_text("width 3\nheight x\nrows\n\x00junk\n")
    paths = {"missing": str(tmp_path / "absent.non"), "garbage": str(garbage), "ok": write(tmp_path, "ok.non", UNIQUE)}
    result = invoke(*[a.format(**paths) for a in args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_bad_file_is_reported_before_any_engine_runs(fakes, tmp_path):
    ok = write(tmp_path, "ok.non", UNIQUE)
    result = invoke(ok, str(tmp_path / "absent.non"), "--backends", "crash")
    assert result.exit_code == 2
    assert "absent.non" in result.stderr


def test_real_engines_agree_on_small_corpus_puzzles():
    """The command with the real engines (whichever are installed) on a unique and a 16-solution puzzle."""
    from conftest import corpus_path

    demo = corpus_path("webpbn-survey", "free", "webpbn-00001-demo.txt")
    dots = corpus_path("picross-solver", "inputs", "test_pattern_08.txt")
    result = invoke(str(demo), str(dots), "--all", "--format", "json")
    assert result.exit_code == 0, result.output
    puzzles = [json.loads(line) for line in result.stdout.splitlines()]
    ran = {e["engine"] for p in puzzles for e in p["engines"] if e["status"] not in ("unavailable", "error")}
    assert ran, "every engine was unavailable or failed"
    assert [p["verdict"] for p in puzzles] == ["unique", "multiple"]
    assert [p["solutions"] for p in puzzles] == [1, 16]
