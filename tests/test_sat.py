"""The sat engine: both CNF encodings against the brute-force oracle, solver variants, the time limit,
corpus goals, and DRAT proofs of UNSAT answers checked by an independent RUP checker (and by drat-trim
when it is installed)."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import backend_or_skip, corpus_path, examples
from drat import read_dimacs, rup_check
from nonocp.core.errors import BackendUnavailable
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.result import Status
from nonocp.engines import SolveOptions, get_backend
from oracle import brute_force
from strategies import puzzles_with_grid

ENCODINGS = ["blocks", "automaton", "both"]


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


def sat(variant: str = ""):
    return get_backend("sat:" + variant if variant else "sat")


def solve(puzzle, limit=None, variant="", **extra):
    return sat(variant).solve(puzzle, SolveOptions(max_solutions=limit, extra=extra))


def perturbed(puzzle: Puzzle, row: int, delta: int) -> Puzzle:
    """The puzzle with the first block of one row lengthened or shortened (often unsolvable)."""
    r = row % puzzle.height
    clue = puzzle.rows[r]
    if clue:
        first = clue[0]
        n = first.length + delta
        new = ((Block(n, first.color),) if n > 0 else ()) + clue[1:]
    else:
        new = (Block(1, 1),)
    return Puzzle(puzzle.rows[:r] + (new,) + puzzle.rows[r + 1:], puzzle.cols, puzzle.palette)


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3, 4)),
    row=st.integers(0, 3),
    delta=st.sampled_from([0, 1, -1]),
)
def test_each_encoding_enumerates_exactly_the_oracle_solutions(encoding, data, row, delta):
    puzzle, _ = data
    if delta:
        puzzle = perturbed(puzzle, row, delta)
        try:
            puzzle.validate()
        except Exception:
            return
    expected = set(brute_force(puzzle))
    result = solve(puzzle, None, encoding=encoding)
    assert result.exhausted
    assert len(result.solutions) == len(expected)
    assert set(result.solutions) == expected
    assert result.stats["encoding"] == encoding


def test_unknown_encoding_is_an_error():
    with pytest.raises(Exception, match="encoding"):
        solve(Puzzle((B(1),), (B(1),)), encoding="nonsense")


@pytest.mark.parametrize("variant", ["glucose4", "g3", "minisat22", "lingeling", "cadical153", "kissat"])
def test_solver_variants_count_24_permutations(variant):
    puzzle = Puzzle((B(1),) * 4, (B(1),) * 4)
    backend = backend_or_skip(f"sat:{variant}")
    result = backend.solve(puzzle, SolveOptions(max_solutions=None))
    assert result.exhausted and len(set(result.solutions)) == 24
    assert all(puzzle.is_solution(g) for g in result.solutions)
    limited = backend.solve(puzzle, SolveOptions(max_solutions=2))
    assert limited.status is Status.MULTIPLE


def test_kissat_hands_later_rounds_to_cadical_starting_at_the_last_solution(monkeypatch):
    """Kissat (one-shot in pysat) finds the first solution; the follow-up solver holds every blocking clause
    and gets the last solution's literals as its phases. The answers stay exact: all 24 permutations."""
    backend = backend_or_skip("sat:kissat")
    from pysat.solvers import Solver

    import nonocp.engines.sat as sat_module

    phases_given = []
    original = Solver.set_phases

    def spy(self, literals=[]):  # noqa: B006 (pysat's own signature)
        phases_given.append(list(literals))
        return original(self, literals)

    monkeypatch.setattr(Solver, "set_phases", spy)
    puzzle = Puzzle((B(1),) * 4, (B(1),) * 4)
    result = backend.solve(puzzle, SolveOptions(max_solutions=None, extra={"hard_stop": False}))
    assert result.exhausted and len(set(result.solutions)) == 24
    assert all(puzzle.is_solution(g) for g in result.solutions)
    assert result.stats["follow_up_solver"] == sat_module.FOLLOW_UP_SOLVER
    assert result.stats["solves"] == 25  # one Kissat round, then 23 solutions and the UNSAT on one solver
    assert len(phases_given) == 1  # once, when the follow-up solver is made after the first solution
    # the phases are the first solution: every cell's literal for its colour there, with its sign
    first = result.solutions[0]
    cnf = sat_module.encode_puzzle(puzzle)
    constants = {sat_module.TRUE, -sat_module.TRUE}
    expected = {cnf.literal(r, c, first.cells[r][c]) for r in range(4) for c in range(4)} - constants
    assert expected and expected <= set(phases_given[0])
    assert not {-lit for lit in expected} & set(phases_given[0])


def test_unknown_solver_is_unavailable():
    with pytest.raises(BackendUnavailable):
        get_backend("sat:no-such-solver")


def test_stats_report_sizes_and_times():
    result = solve(Puzzle((B(2), B(1)), (B(2), B(1))), 2)
    for key in ("variables", "clauses", "encode_seconds", "solve_seconds", "solver", "encoding"):
        assert key in result.stats
    assert result.stats["solver"] == "cadical195"
    assert result.status is Status.UNIQUE


@pytest.mark.parametrize("variant", ["", "glucose4"])
def test_time_limit_returns_timeout_with_what_was_found(variant):
    # 8x8 permutation matrices: 40320 solutions, far more than a tiny time limit lets us enumerate
    puzzle = Puzzle((B(1),) * 8, (B(1),) * 8)
    result = sat(variant).solve(puzzle, SolveOptions(max_solutions=None, time_limit=0.2))
    # two or more solutions found make the verdict "multiple" even when time ran out (status_of)
    assert result.status is (Status.MULTIPLE if len(result.solutions) >= 2 else Status.TIMEOUT)
    assert not result.exhausted
    assert all(puzzle.is_solution(g) for g in result.solutions)
    assert len(set(result.solutions)) == len(result.solutions)


@pytest.fixture
def hang_guard():
    """Fail, rather than hang CI, if the hard stop does not happen (a guard, not a speed limit)."""
    import signal

    def fail(signum, frame):
        raise AssertionError("the solve was not stopped at its time limit")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _hanging_from_call(n: int, stuck):
    """A solve_until that answers normally n-1 times, then never returns and never looks at the clock
    (what a CaDiCaL conflict slice or a Kissat solve does on a hard formula); `stuck()` says so first."""
    import nonocp.engines.sat as sat_module

    real = sat_module.solve_until
    calls = []

    def solve_until(solver, name, deadline, cpu_end=None):
        calls.append(name)
        if len(calls) >= n:
            stuck()
            while True:
                time.sleep(1)  # never returns (sleeping rather than spinning spares a CI core)
        return real(solver, name, deadline, cpu_end)

    return solve_until


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="the hard stop needs os.fork")
def test_a_solve_that_ignores_the_time_limit_is_killed_keeping_its_solutions(monkeypatch, hang_guard, stuck_clock):
    import nonocp.engines.sat as sat_module

    # the deadline passes (StuckClock) once the child is stuck in the second solve, having sent the first
    # solution: a stall of the machine cannot make the first solve miss it
    clock = stuck_clock()
    monkeypatch.setattr(sat_module, "solve_until", _hanging_from_call(2, clock.stuck))
    puzzle = Puzzle((B(1),) * 3, (B(1),) * 3)  # 6 permutation matrices
    result = sat().solve(puzzle, SolveOptions(max_solutions=2, time_limit=10))
    assert clock.jumped  # ended by the deadline, not by the child
    assert result.status is Status.TIMEOUT and not result.exhausted
    assert len(result.solutions) == 1 and puzzle.is_solution(result.solutions[0])
    assert result.stats["killed_at_time_limit"] is True


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="the hard stop needs os.fork")
def test_a_proof_solve_killed_at_the_limit_keeps_the_verdict(monkeypatch, hang_guard, tmp_path, stuck_clock):
    import nonocp.engines.sat as sat_module

    puzzle = Puzzle((B(2), B(1)), (B(2), B(1)))  # unique
    # the search takes two solve_until calls (a solution, then UNSAT); the third is the proof solve
    clock = stuck_clock()
    monkeypatch.setattr(sat_module, "solve_until", _hanging_from_call(3, clock.stuck))
    proofs = tmp_path / "proofs"
    options = SolveOptions(max_solutions=2, time_limit=10, extra={"proof_dir": str(proofs)})
    result = sat().solve(puzzle, options)
    assert clock.jumped
    assert result.status is Status.UNIQUE and result.exhausted
    assert result.stats["proof_status"] == "timeout" and result.proof is None
    assert not list(proofs.glob("*.drat")) and not list(proofs.glob("*.partial"))


def test_with_a_time_limit_the_child_returns_the_full_answer():
    puzzle = Puzzle((B(1),) * 3, (B(1),) * 3)
    progress = []
    result = sat().solve(puzzle, SolveOptions(max_solutions=None, time_limit=600, progress=progress.append))
    assert result.status is Status.MULTIPLE and result.exhausted and len(set(result.solutions)) == 6
    assert result.stats["solves"] == 7 and "killed_at_time_limit" not in result.stats
    assert progress == [{"solutions": n} for n in range(1, 7)]  # relayed from the child as found


def test_fixed_cells_are_honoured():
    puzzle = Puzzle((B(1),) * 3, (B(1),) * 3)  # 6 permutation matrices
    result = sat().solve(puzzle, SolveOptions(max_solutions=None, fixed={(0, 0): 0b10}))
    assert result.exhausted and len(result.solutions) == 2
    assert all(g.cells[0][0] == 1 for g in result.solutions)
    none = sat().solve(puzzle, SolveOptions(max_solutions=None, fixed={(0, 0): 0}))
    assert none.status is Status.NONE


@pytest.mark.parametrize(
    "stem",
    ["webpbn-00001-demo", "webpbn-00006-Scardy Cat", "webpbn-00021-Slippery Conditions", "webpbn-00023-Test Pattern",
     "webpbn-00016-Probably Not"],
)
def test_survey_goals(stem):
    from nonocp.formats import load

    path = corpus_path("webpbn-survey", "free", stem + ".txt")
    puzzle = load(str(path))[0]
    result = solve(puzzle, 2)
    assert result.status is Status.UNIQUE
    assert result.solutions == (puzzle.meta.goal,)


def test_nonogram_db_goals():
    from nonocp.formats import load

    folder = corpus_path("nonogram-db")
    files = sorted(folder.rglob("*.non"))[:12]
    checked = 0
    for f in files:
        puzzle = load(str(f))[0]
        if puzzle.meta.goal is None or puzzle.width * puzzle.height > 40 * 40:
            continue
        result = solve(puzzle, 2)
        assert result.solutions and all(puzzle.is_solution(g) for g in result.solutions), f
        if result.status is Status.UNIQUE:
            assert result.solutions == (puzzle.meta.goal,), f
        checked += 1
    assert checked


# --- proofs ---------------------------------------------------------------------------------------


UNSAT_PUZZLE = Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ()))
UNIQUE_PUZZLE = Puzzle((B(1), B(1)), (B(2), ()))
TWO_PUZZLE = Puzzle((B(1), B(1)), (B(1), B(1)))


@pytest.mark.parametrize("variant", ["", "glucose4", "minisat22"])
@pytest.mark.parametrize("puzzle", [UNSAT_PUZZLE, UNIQUE_PUZZLE, TWO_PUZZLE], ids=["none", "unique", "two"])
def test_proof_files_refute_the_final_formula(tmp_path, variant, puzzle):
    result = sat(variant).solve(puzzle, SolveOptions(max_solutions=None, extra={"proof_dir": str(tmp_path)}))
    assert result.exhausted
    assert result.proof is not None and result.proof.proof_path is not None
    cnf_text = open(result.proof.cnf_path).read()
    clauses = read_dimacs(cnf_text)
    assert len(clauses) == int(cnf_text.split("p cnf ")[1].split()[1])
    # every solution found is blocked in the written formula, so the formula itself is UNSAT
    assert len(clauses) >= len(result.solutions)
    proof = open(result.proof.proof_path).read().splitlines()
    assert rup_check(clauses, proof)
    drat_trim = shutil.which("drat-trim")
    if drat_trim:
        argv = [drat_trim, result.proof.cnf_path, result.proof.proof_path]
        out = subprocess.run(argv, capture_output=True, text=True)
        assert "s VERIFIED" in out.stdout


def test_rup_checker_rejects_a_bogus_proof():
    clauses = [[1, 2], [-1, 2]]  # satisfiable: no proof can refute it
    assert not rup_check(clauses, ["-2 0", "0"])
    assert rup_check(clauses + [[1, -2], [-1, -2]], ["2 0", "0"])


def test_no_proof_when_the_search_did_not_end_on_unsat(tmp_path):
    puzzle = Puzzle((B(1),) * 3, (B(1),) * 3)
    result = sat().solve(puzzle, SolveOptions(max_solutions=2, extra={"proof_dir": str(tmp_path)}))
    assert result.status is Status.MULTIPLE and result.proof is None


@pytest.mark.skipif(shutil.which("drat-trim") is None, reason="drat-trim is not installed here")
def test_drat_trim_verifies_a_survey_uniqueness_proof(tmp_path):
    from nonocp.formats import load

    puzzle = load(str(corpus_path("webpbn-survey", "free", "webpbn-00016-Probably Not.txt")))[0]
    result = solve(puzzle, 2, proof_dir=str(tmp_path))
    assert result.status is Status.UNIQUE and result.proof and result.proof.proof_path
    out = subprocess.run(["drat-trim", result.proof.cnf_path, result.proof.proof_path], capture_output=True, text=True)
    assert "s VERIFIED" in out.stdout


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="the hard stop needs os.fork")
def test_kissat_is_stopped_at_the_time_limit_from_the_command_line():
    """Kissat cannot be interrupted in pysat at all; Knotty takes it minutes (166 s published, more than
    900 s on a slow machine). With the hard stop `--timeout 1` answers `timeout`, exit 3. Without it this
    would run until Kissat finished, so the subprocess gets a generous cap that fails the test instead."""
    import json
    import sys

    knotty = corpus_path("webpbn-survey", "free", "webpbn-knotty.txt")
    if "kissat404" not in canonical_names():
        pytest.skip("this pysat has no Kissat")
    cmd = [sys.executable, "-m", "nonocp.cli", "solve", str(knotty), "--backend", "sat:kissat404", "--timeout", "1",
           "--format", "json"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.fail("Kissat was not stopped at the time limit")
    assert p.returncode == 3, p.stderr
    out = json.loads(p.stdout)
    assert out["status"] == "timeout" and out["solutions"] == []
    # killed while Kissat ran, or (on a machine that stalls) out of time before Kissat even started
    assert out["stats"].get("killed_at_time_limit") is True or out["stats"].get("solves") == 0, out["stats"]


def canonical_names() -> set[str]:
    from pysat.solvers import SolverNames

    return {name for name in vars(SolverNames) if not name.startswith("_")}


class _SlicedSolver:
    """Stands in for CaDiCaL under solve_until: records each conflict budget, answers on the n-th slice, and
    lets the fake clock advance by `seconds_per_slice` per slice."""

    def __init__(self, clock: list[float], seconds_per_slice: float, answer_on: int) -> None:
        self.clock, self.step, self.answer_on = clock, seconds_per_slice, answer_on
        self.budgets: list[int] = []

    def conf_budget(self, budget: int) -> None:
        self.budgets.append(budget)

    def solve_limited(self):
        self.clock[0] += self.step
        return True if len(self.budgets) == self.answer_on else None


def test_cadical_slices_follow_a_fixed_schedule_whatever_the_speed(monkeypatch):
    """The slice sizes steer CaDiCaL's search (each slice restarts from the root), so they must not depend on
    how fast this machine is: the same schedule on a fast and a slow (fake) clock, far from the deadline."""
    import nonocp.engines.sat as sat_module

    schedules = []
    for seconds_per_slice in (0.001, 3.0):
        clock = [0.0]
        monkeypatch.setattr(sat_module.time, "monotonic", lambda c=clock: c[0])
        solver = _SlicedSolver(clock, seconds_per_slice, answer_on=8)
        assert sat_module.solve_until(solver, "cadical195", deadline=10_000.0) is True
        schedules.append(solver.budgets)
    expected = [*sat_module.SLICE_SCHEDULE, *[sat_module.SLICE_SCHEDULE[-1]] * (8 - len(sat_module.SLICE_SCHEDULE))]
    assert schedules == [expected, expected]


def test_the_last_cadical_slice_is_cut_to_the_deadline(monkeypatch):
    import nonocp.engines.sat as sat_module

    clock = [0.0]
    monkeypatch.setattr(sat_module.time, "monotonic", lambda: clock[0])
    solver = _SlicedSolver(clock, 10.0, answer_on=99)  # 2,000 conflicts in 10 s: 200 a second
    assert sat_module.solve_until(solver, "cadical195", deadline=25.0) is None  # stopped, not answered
    # after 10 s, 15 s are left: 3,000 conflicts at 200/s (< the schedule's 4,000); after 20 s, 5 s: 1,500
    assert solver.budgets == [2_000, 3_000, 1_500]


def test_a_cpu_limit_stops_the_cadical_slices_by_this_processs_cpu_time(monkeypatch):
    """The symmetric round's slice is CPU time of the process doing it (sat.SYMMETRIC_CPU), never wall clock."""
    import nonocp.engines.sat as sat_module

    cpu = [0.0]
    monkeypatch.setattr(sat_module.time, "process_time", lambda: cpu[0])
    solver = _SlicedSolver(cpu, 10.0, answer_on=99)  # each slice: 10 s of CPU
    assert sat_module.solve_until(solver, "cadical195", deadline=None, cpu_end=25.0) is None
    assert len(solver.budgets) == 3 and solver.budgets == list(sat_module.SLICE_SCHEDULE[:3])  # no cut to fit
