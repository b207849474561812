"""The auto engine's race: CaDiCaL after native propagation against Kissat on the whole puzzle, each in a forked
child, the first answer winning and the solutions of both counting together (nonocp.engines.auto, step 4)."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import backend_or_skip, examples
from nonocp.core.errors import NonocpError
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.result import Status
from nonocp.engines import SolveOptions, get_backend
from nonocp.engines.forked import fork_available
from oracle import brute_force
from strategies import puzzles_with_grid

pytestmark = pytest.mark.skipif(not fork_available(), reason="the race runs its members in forked children")

import nonocp.engines.auto as auto_module  # noqa: E402 (after the skips: it needs nothing heavy, but says why)


def B(*lengths: int):
    return tuple(Block(n) for n in lengths)


PERMUTATIONS = Puzzle((B(1),) * 4, (B(1),) * 4)  # 24 solutions, nothing for line logic to decide
# the race itself: without the native search's slice first (it decides these small puzzles before SAT)
RACE = {"race": True, "native_first": False}


def _kissat_or_skip():
    backend_or_skip(f"sat:{auto_module.RACE_PARTNER}")  # the race's partner: a pysat without it does not race


@pytest.fixture
def no_delay(monkeypatch):
    """Kissat joins at once (it waits RACE_DELAY CPU seconds by default, longer than these puzzles take)."""
    monkeypatch.setattr(auto_module, "RACE_DELAY", 0.0)


def test_a_raced_enumeration_is_exact(no_delay):
    _kissat_or_skip()
    r = get_backend("auto").solve(PERMUTATIONS, SolveOptions(max_solutions=None, extra=RACE))
    assert r.exhausted and len(r.solutions) == 24 and len(set(r.solutions)) == 24
    assert all(PERMUTATIONS.is_solution(g) for g in r.solutions)
    assert r.stats["race_winner"] in ("cadical195", "kissat404")
    assert r.stats["race"] == ["cadical195 after native", "kissat404 on the whole puzzle"]


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3)))
def test_raced_counts_match_brute_force(data):
    _kissat_or_skip()
    puzzle, _ = data
    expected = set(brute_force(puzzle))
    delay, auto_module.RACE_DELAY = auto_module.RACE_DELAY, 0.0  # Kissat at once (no function fixtures here)
    try:
        r = get_backend("auto").solve(puzzle, SolveOptions(max_solutions=2, extra=RACE))
    finally:
        auto_module.RACE_DELAY = delay
    assert set(r.solutions) <= expected and len(r.solutions) == min(2, len(expected))
    assert r.status is {0: Status.NONE, 1: Status.UNIQUE}.get(len(expected), Status.MULTIPLE)


def test_when_the_race_runs(monkeypatch):
    _kissat_or_skip()
    auto = get_backend("auto")
    partner = auto.race_partner
    monkeypatch.setattr(auto_module, "_free_cores", lambda: 2)
    assert partner(SolveOptions()).label == "sat:kissat404"  # the default, with two cores
    assert partner(SolveOptions(workers=1)) is None  # `nonocp bench` gives each engine one core
    assert partner(SolveOptions(extra={"race": False})) is None
    assert partner(SolveOptions(extra={"race": True, "proof_dir": "p"})) is None  # one proof, one writer
    assert partner(SolveOptions(time_limit=1)) is not None  # its delay is CPU time: the wall clock says nothing
    kissat_first = get_backend("auto:kissat").race_partner
    assert kissat_first(SolveOptions(extra={"race": True})) is None  # the partner does not race itself
    monkeypatch.setattr(auto_module, "_free_cores", lambda: 1)
    assert partner(SolveOptions()) is None
    assert partner(SolveOptions(workers=2)) is not None
    assert partner(SolveOptions(extra={"race": True})) is not None


class _Fake:
    """A stand-in for a SatBackend in the race: sends its grids, then answers or never does."""

    def __init__(self, name: str, grids: list[Grid], answer: str, delay: float = 0.0, busy: float = 0.0):
        self.label, self.grids, self.answer, self.delay, self.busy = f"sat:{name}", grids, answer, delay, busy

    def search(self, puzzle, options, on_solution):
        from nonocp.core.result import SolveResult

        time.sleep(self.delay)
        end = time.process_time() + self.busy
        while time.process_time() < end:  # CPU work, as a solver does
            pass
        for n, g in enumerate(self.grids, 1):
            on_solution(g, n)
        if self.answer == "never":
            while True:
                time.sleep(1)
        if self.answer == "limit":  # found as many as asked
            return SolveResult(status=Status.MULTIPLE, solutions=tuple(self.grids), exhausted=False,
                               backend="sat:x", stats={"conflicts": 5})
        if self.answer == "timeout":  # stopped itself at its deadline
            return SolveResult(status=Status.TIMEOUT, solutions=tuple(self.grids), exhausted=False, backend="sat:x",
                               stats={"conflicts": 7})
        return SolveResult(status=Status.UNIQUE, solutions=tuple(self.grids), exhausted=True, backend="sat:x")


def _member(*args, **kwargs) -> auto_module._Member:
    return auto_module._Member(_Fake(*args, **kwargs), SolveOptions(), 0.0)


G1 = Grid.from_rows([[1, 0], [0, 1]])
G2 = Grid.from_rows([[0, 1], [1, 0]])
ANY = Puzzle((B(1), B(1)), (B(1), B(1)))


def test_two_members_finding_one_solution_each_prove_multiple():
    members = [_member("a", [G1], "never"), _member("b", [G2], "never")]
    r = auto_module._race(ANY, members, 2, None, None)
    assert r.status is Status.MULTIPLE and set(r.solutions) == {G1, G2} and not r.exhausted
    assert sorted(r.stats["race_found_by"]) == ["a", "b"] and r.stats["race_winner"] is None


def test_the_same_grid_from_both_members_counts_once_and_the_deadline_ends_the_race():
    members = [_member("a", [G1], "never"), _member("b", [G1], "never")]
    r = auto_module._race(ANY, members, 2, time.monotonic() + 1.0, None)
    assert r.status is Status.TIMEOUT and r.solutions == (G1,) and r.stats["killed_at_time_limit"]


def test_the_first_answer_wins_and_an_answer_missing_a_found_solution_is_an_error():
    members = [_member("a", [G1], "exhausted", delay=0.3),
               _member("b", [], "never")]
    r = auto_module._race(ANY, members, 2, None, None)
    assert r.status is Status.UNIQUE and r.solutions == (G1,) and r.stats["race_winner"] == "a"
    # b sends G2 first; a then claims to have exhausted the search with G1 alone: a bug, never an answer
    members = [_member("a", [G1], "exhausted", delay=1.0),
               _member("b", [G2], "never")]
    with pytest.raises(NonocpError, match="disagree"):
        auto_module._race(ANY, members, 3, None, None)


def test_a_member_waits_before_it_starts():
    late = auto_module._Member(_Fake("late", [G2], "never"), SolveOptions(), 30.0)
    r = auto_module._race(ANY, [_member("a", [G1], "exhausted", delay=0.3), late], 2, None, None)
    assert r.status is Status.UNIQUE and r.solutions == (G1,) and r.stats["race_winner"] == "a"


def test_a_member_waits_for_the_first_members_cpu_time_not_the_wall_clock():
    """The partner joins once the first member has used its delay in CPU seconds: a first member that sleeps
    (as on a machine whose cores other processes take) never lets it in, one that works does."""
    late = auto_module._Member(_Fake("late", [G2], "never"), SolveOptions(), 0.3)
    asleep = _member("a", [G1], "timeout", delay=1.5)  # 1.5 s of wall clock, no CPU
    r = auto_module._race(ANY, [asleep, late], 3, None, None)
    assert r.solutions == (G1,) and r.stats["race_found_by"] == ["a"]
    late = auto_module._Member(_Fake("late", [G2], "never"), SolveOptions(), 0.3)
    working = _member("a", [G1], "timeout", busy=1.5)  # 1.5 CPU seconds, then its answer
    r = auto_module._race(ANY, [working, late], 3, None, None)
    assert set(r.solutions) == {G1, G2} and r.stats["race_found_by"][r.solutions.index(G2)] == "late"


def test_a_member_that_stops_itself_at_the_deadline_does_not_win():
    late = auto_module._Member(_Fake("b", [G2], "never", delay=0.1), SolveOptions(), 0.0)
    r = auto_module._race(ANY, [_member("a", [], "timeout", delay=1.0), late], 3, None, None)
    assert r.status is Status.TIMEOUT and r.solutions == (G2,) and r.stats["race_winner"] is None
    assert r.stats["conflicts"] == 7 and "killed_at_time_limit" not in r.stats


def test_a_member_that_finds_enough_alone_answers_with_its_statistics():
    """Two grids from one member do not end the race: that member answers by itself, and its counters
    (conflicts, encoding sizes) reach the result."""
    r = auto_module._race(ANY, [_member("a", [G1, G2], "limit", delay=0.2), _member("b", [], "never")], 2, None,
                          None)
    assert r.status is Status.MULTIPLE and set(r.solutions) == {G1, G2}
    assert r.stats["race_winner"] == "a" and r.stats["conflicts"] == 5


@pytest.mark.parametrize("native_first", [True, False])
def test_the_partner_starts_with_the_sat_stage_after_the_native_slice_ran_out(monkeypatch, native_first):
    """The native search's budget already sorts out the quick puzzles (what RACE_DELAY is for): after it runs out
    undecided the partner joins at once; straight after line logic it waits RACE_DELAY."""
    _kissat_or_skip()
    from nonocp.core.result import SolveResult
    from nonocp.engines.native.backend import NativeBackend

    monkeypatch.setattr(NativeBackend, "solve", lambda self, puzzle, options: SolveResult(
        status=Status.TIMEOUT, solutions=(), exhausted=False, backend="native", timed_out=True))
    seen = []
    real_race = auto_module._race

    def race(puzzle, members, *args, **kwargs):
        seen.append([m.start_after for m in members])
        return real_race(puzzle, members, *args, **kwargs)

    monkeypatch.setattr(auto_module, "_race", race)
    r = get_backend("auto").solve(PERMUTATIONS, SolveOptions(max_solutions=None, time_limit=60,
                                                             extra={"race": True, "native_first": native_first}))
    assert r.exhausted and len(r.solutions) == 24 and all(PERMUTATIONS.is_solution(g) for g in r.solutions)
    delay = auto_module.RACE_DELAY_AFTER_NATIVE if native_first else auto_module.RACE_DELAY
    assert seen == [[0.0, delay]] and (delay == 0.0) == native_first
