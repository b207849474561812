"""An enumeration the time limit cuts short is not complete, whatever its verdict.

`--all --timeout 5` on a 20x20 puzzle whose clues are all `1` (20! solutions) finds thousands of
solutions of many more; that must not look like a complete list (exit 0, `multiple`, nothing else). The
rule (core/result.py): the verdict stays `multiple` (two grids prove it), `SolveResult.stop` says what
ended the search, the JSON
carries `"exhaustive"` and `"stopped"`, and the command exits 3 because the time limit, not the search,
ended it. Every engine, through the real command.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from nonocp.core.result import STOP_EXHAUSTED, STOP_LIMIT, STOP_TIMEOUT, SolveResult, Status, ended_by_time

NONOCP = [sys.executable, "-m", "nonocp.cli"]
ENGINES = ["native", "cpsat", "sat", "auto"]


def permutations(tmp_path, n: int) -> str:
    path = tmp_path / f"perm{n}.non"
    path.write_text(f"width {n}\nheight {n}\nrows\n" + "1\n" * n + "columns\n" + "1\n" * n)
    return str(path)


def solve(*args: str) -> tuple[int, dict, str]:
    r = subprocess.run([*NONOCP, "solve", *args, "-f", "json"], capture_output=True, text=True, timeout=300)
    return r.returncode, json.loads(r.stdout.splitlines()[0]) if r.stdout else {}, r.stderr


# Time limits for an enumeration that cannot finish (20! solutions): the limit always fires, whatever the
# load; what load changes is how many solutions come before it. A test that needs two of them starts with
# a short limit and lengthens it while fewer came (each run's answer is checked on the way), so a quiet
# machine spends a fraction of a second and one at load 10 still gets its two solutions.
LIMITS = (0.3, 1.5, 8.0, 40.0)


def enough_before_the_limit(run, enough=lambda found: found >= 2):
    """`run(limit)` -> (found, answer) for each limit of LIMITS until `enough(found)`; the last answer."""
    for limit in LIMITS:
        found, answer = run(limit)
        if enough(found):
            return answer
    pytest.fail(f"fewer than two solutions found within {LIMITS[-1]} s")


@pytest.mark.parametrize("engine", ENGINES)
def test_all_cut_by_the_time_limit_is_multiple_but_not_exhaustive_and_exits_3(tmp_path, engine):
    path = permutations(tmp_path, 20)

    def run(limit):
        code, doc, err = solve(path, "--all", "--timeout", str(limit), "-b", engine)
        assert code == 3, err
        assert doc["exhaustive"] is False and doc["stopped"] == "timeout"
        return len(doc["solutions"]), doc

    assert enough_before_the_limit(run)["status"] == "multiple"


@pytest.mark.parametrize("engine", ENGINES)
def test_complete_enumeration_and_a_reached_limit_exit_0(tmp_path, engine):
    perm4 = permutations(tmp_path, 4)
    code, doc, err = solve(perm4, "--all", "-b", engine)
    assert code == 0, err
    assert (doc["status"], doc["exhaustive"], doc["stopped"], len(doc["solutions"])) == ("multiple", True,
                                                                                         "exhausted", 24)
    code, doc, err = solve(perm4, "-n", "5", "-b", engine)
    assert code == 0, err
    assert (doc["exhaustive"], doc["stopped"], len(doc["solutions"])) == (False, "limit", 5)


def test_text_verdict_says_the_enumeration_is_partial(tmp_path):
    path = permutations(tmp_path, 20)

    def run(limit):
        # sat: the fewest solutions a second, so the report printed is short
        r = subprocess.run([*NONOCP, "solve", path, "--all", "--timeout", str(limit), "-b", "sat"],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 3, r.stderr
        return len(re.findall(r"^solution \d+:$", r.stdout, re.M)), r.stdout

    last = enough_before_the_limit(run).splitlines()[-1]
    # the solutions are written as they are found: the verdict comes last
    assert "several solutions, at least" in last
    assert "time limit reached before the enumeration finished" in last


@pytest.mark.parametrize(("n", "exhausted", "limit", "clock", "expected"), [
    (7000, False, None, True, True),  # --all cut by the clock
    (2, False, 2, True, False),  # the limit was reached as the clock ran out: complete
    (1, False, 2, True, True),
    (3, True, None, True, False),  # exhausted wins
    (0, False, 1, False, False),  # not the clock
])
def test_ended_by_time(n, exhausted, limit, clock, expected):
    assert ended_by_time(n, exhausted, limit, clock) is expected


def test_stop_of_a_result():
    def result(status, exhausted, timed_out=False):
        return SolveResult(status, (), exhausted, "x", timed_out=timed_out)

    assert result(Status.UNIQUE, True).stop == STOP_EXHAUSTED
    assert result(Status.MULTIPLE, False).stop == STOP_LIMIT
    assert result(Status.MULTIPLE, False, True).stop == STOP_TIMEOUT
    assert not result(Status.MULTIPLE, False, True).complete
    assert result(Status.TIMEOUT, False).stop == STOP_TIMEOUT  # engines that predate the flag


def test_native_turns_solutions_into_grids_within_the_time_limit(tmp_path, monkeypatch):
    # Each solution's conversion to a Grid is made slow (10 ms): if conversions happened after the search,
    # a 0.3 s search would find thousands of solutions and convert them all, far past the limit; done as each
    # is found, they count against the limit and only a few dozen fit.
    import time

    import nonocp.engines.native.backend as backend
    from nonocp.engines import get_backend
    from nonocp.engines.contract import SolveOptions
    from nonocp.formats import load

    slow = backend.state_to_grid

    def state_to_grid(engine, st):
        time.sleep(0.01)
        return slow(engine, st)

    monkeypatch.setattr(backend, "state_to_grid", state_to_grid)
    puzzle = load(permutations(tmp_path, 20))
    puzzle = puzzle[0] if isinstance(puzzle, list) else puzzle

    def run(limit):
        result = get_backend("native").solve(puzzle, SolveOptions(max_solutions=None, time_limit=limit))
        assert result.stop == STOP_TIMEOUT
        # each conversion sleeps 10 ms: at most limit / 10 ms of them fit (a third of that is the margin)
        assert len(result.solutions) <= limit / 0.01 * 3
        return len(result.solutions), result

    enough_before_the_limit(run)
