"""The hybrid engine `auto`: a short pipeline of stages, each an engine of the registry spoken to through the
engine contract only (nonocp.engines.contract), never through its internals.

    line logic     native.narrow(): line propagation (and probing, `-O probe=true`) from the caller's cells.
        |          A contradiction proves there is no solution; a fully decided grid is the only candidate.
    native search  native.solve() from the narrowed cells, on puzzles its compiled core takes (run clues, up
        |          to 127 cells a side), with a Budget of NATIVE_CPU CPU seconds: its answer is the answer.
    SAT            sat.solve() with the narrowed cells fixed (decided cells become constants, decided lines
        |          drop out of the CNF; the count stays exact: those cells hold in every solution). With two
        |          cores, a race: sat.search() in a child, and Kissat on the whole puzzle in a second child
        |          once the first has used RACE_DELAY CPU seconds; the first answer wins, the solutions of
        |          both count together.
    fallback       when the SAT stage would not fit the memory budget: native.solve() to the end.

Why: line logic decides line-solvable puzzles in milliseconds, where building a CNF costs more than solving
it; the native search decides most of the rest faster than SAT; SAT (and the race) finishes the hardest.
Each stage's limit is work, never the wall clock: on a busy machine a wall-clock slice is a few CPU seconds,
and a puzzle the native search decides in 11 CPU seconds went to a SAT race that cannot decide it
(benchmarks/results/auto.md, "A busy machine"). The user's time limit stays wall clock.

With `proof_dir` the sat engine alone solves the whole puzzle: a DRAT proof must certify the puzzle itself,
and it could not check what the native stages deduced. The variant names the SAT stage's solver
(`auto:glucose4`); then the native search runs only when asked (`-O native_first=true`): the variant asks
for that solver's search, which the native search would take over on most puzzles.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import mmap
import os
import struct
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from nonocp.core.errors import BackendUnavailable, NonocpError, OutOfTime
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import SolveResult, Status, ended_by_time, status_of
from nonocp.engines import backend_class, get_backend, memory
from nonocp.engines.contract import Backend, Budget, Capabilities, Setting, Settings, SolveOptions, Stat, Stats
from nonocp.engines.found import Found, digest

NATIVE = "native"  # the engine of the line-logic, native-search and fallback stages
SAT = "sat"  # the SAT stage's engine (its solver: auto's variant)
# The second member of the race: it solves the whole puzzle, not what line logic left open. The whole
# formula, because Kissat's first solution is that fragile: with line logic's cells fixed it was slower on
# Faase (benchmarks/results/auto.md, "Kissat in the hybrid").
RACE_PARTNER = "kissat404"
# CPU seconds the native search may use before SAT takes over. It decides the numbered survey puzzles and the
# tournament samples several times faster than SAT (benchmarks/results/native-core.md), and the hardest three
# (Knotty, Faase, Meow) in 1-11 CPU seconds with its beliefs.
NATIVE_CPU = 20.0
# CPU seconds the race's first member (SAT on what line logic left) works alone before the partner joins.
# Two solvers side by side slow each other down (shared cache and memory bandwidth), and the partner only
# matters on puzzles that take CaDiCaL minutes (benchmarks/results/auto.md, "Why the partner waits"). After
# the native search ran out of its budget the quick puzzles are sorted out already: the partner starts at once.
RACE_DELAY = 15.0
RACE_DELAY_AFTER_NATIVE = 0.0
# Probing before SAT is off by default: on the survey set it won on some puzzles and lost on more, with more
# timeouts in all (benchmarks/results/auto.md, "Probing before SAT").
DEFAULT_PROBE = False
# The SAT stage first looks for a symmetric solution when the clues are symmetric (the sat engine's
# `symmetric`): it decides Knotty in seconds where CaDiCaL and Kissat on the whole formula find nothing in a
# minute (benchmarks/results/auto.md, "Symmetric first"). The race's partner stays on the whole puzzle.
DEFAULT_SYMMETRIC = True


class _Declared:
    """A class attribute built from other engines' declarations (through the registry) when first read: the
    sat engine's module is imported only by the SAT stage, `nonocp backends` and an `--option`, never by a
    puzzle that line logic decides (importing it costs more than that whole solve)."""

    def __init__(self, build: Callable[[], Any]) -> None:
        self.build = build
        self.value: Any = None

    def __get__(self, obj: object, owner: type) -> Any:
        if self.value is None:
            self.value = self.build()
        return self.value


def _settings() -> Settings:
    own = Settings(
        Setting("probe", bool, DEFAULT_PROBE, "probe every cell after line propagation, before the search"),
        Setting("race", bool, None, "race Kissat on the whole puzzle (default: when two cores are free)"),
        Setting("native_first", bool, None, f"the native search for up to {NATIVE_CPU:g} CPU s before SAT, on "
               "puzzles its compiled core takes (default: on, unless the variant names a SAT solver)"),
        Setting("symmetric", bool, DEFAULT_SYMMETRIC, "when the clues are symmetric, the SAT stage first looks for "
               "a solution the symmetries map onto itself (for a slice of CPU time)"),
    )
    return own | backend_class(SAT).settings  # the SAT stage's own, passed on to it


def _stats() -> Stats:
    return Stats(
        Stat("phase", str, "native (decided by line logic alone), sat (after it, or alone for a proof), sat encoding "
             "(the time ran out while the CNF was built) or native search (its search decided first, or the CNF "
             "would not fit the memory budget)"),
        Stat("native_first", str, "why the native search handed over to SAT (its budget was spent)"),
        Stat("sat_skipped", str, "why the SAT stage did not run (the memory budget), in words"),
        Stat("open_cells_after_native", int, "cells line logic left open for SAT"),
        Stat("race", list, "the race's two members, in words"),
        Stat("race_winner", (str, type(None)), "the member that answered (None: the deadline or both together)"),
        Stat("race_found_by", list, "per solution, the member that found it (when no member answered alone)"),
        Stat("decided_by", str, "the stage that reached the verdict: native line logic (and probing), native line "
             "logic + native CDCL, native + the SAT solver, or the race partner on the whole puzzle"),
        include=(backend_class(SAT).stats, backend_class(NATIVE).stats.prefixed("native_")),
        always=("phase",),
    )


class AutoBackend(Backend):
    name = "auto"
    variants = _Declared(lambda: backend_class(SAT).variants)  # the SAT stage's solver
    settings = _Declared(_settings)
    # proofs: with proof_dir it is the sat engine alone; no solution callback of its own
    capabilities = Capabilities(colours=True, enumerate=True, fixed=True, proofs=True, on_solution=False)
    stats = _Declared(_stats)

    def __init__(self, variant: str = "") -> None:
        self.variant = variant  # "": the sat engine's default solver
        self._sat: Backend | None = None
        if variant:
            self.sat  # noqa: B018 - a named solver is checked now: an unknown one is a usage error up front

    @property
    def sat(self) -> Backend:
        """The SAT stage's engine, made on first use (making it imports pysat, which line logic never needs)."""
        if self._sat is None:
            self._sat = get_backend(f"{SAT}:{self.variant}" if self.variant else SAT)
        return self._sat

    def available(self) -> bool:
        # the sat engine's own test (pysat is installed), without making the SAT stage's engine
        return importlib.util.find_spec("pysat") is not None if self._sat is None else self.sat.available()

    def version(self) -> str:
        return f"native line propagation and search, then {self.sat.version()}"

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        if options.extra:  # its own and the sat engine's, before any work
            self.settings.check(options.extra, self.name)
        if options.extra.get("proof_dir"):  # a certificate of the puzzle itself: SAT alone (module docstring)
            alone = self.sat.solve(puzzle, options)
            solver = _solver(alone.backend)
            stats = {**alone.stats, "phase": "sat", "decided_by": f"{solver} alone, for the proof"}
            return dataclasses.replace(alone, backend=f"{self.name}:{solver}", stats=stats)
        run = _Run(self, puzzle, options)
        for stage in (run.line_logic, run.native_search, run.sat_stage):
            answer = stage()
            if answer is not None:
                return answer
        raise AssertionError("the SAT stage always answers")

    def setting(self, options: SolveOptions, name: str) -> Any:
        """One of auto's options (its default when not given: reading the schema imports the sat engine)."""
        if not options.extra:
            return {"probe": DEFAULT_PROBE, "symmetric": DEFAULT_SYMMETRIC}.get(name)
        return self.settings.get(options.extra, name, self.name)

    def race_partner(self, options: SolveOptions) -> Backend | None:
        """The race's second member, or None when this solve does not race: asked not to, one core or
        `workers=1` (`nonocp bench` runs one engine per core), no fork, a proof (its CNF must be the one
        refuted, and two members would write the same files), or the variant is the partner itself."""
        wanted = self.setting(options, "race")
        if wanted is None:  # the default: race when a second core is there for it, unless told one worker
            wanted = (options.workers is None and _free_cores() >= 2) or (options.workers or 0) >= 2
        from nonocp.engines.forked import fork_available

        if not wanted or not fork_available() or options.extra.get("proof_dir"):
            return None
        if _solver(self.sat.label) == RACE_PARTNER:
            return None
        try:
            return get_backend(f"{SAT}:{RACE_PARTNER}")
        except BackendUnavailable:  # a python-sat without Kissat: the race needs it
            return None


class _Run:
    """One solve going through the stages: what they share (the clock, the narrowed cells, the stats)."""

    def __init__(self, auto: AutoBackend, puzzle: Puzzle, options: SolveOptions) -> None:
        self.auto, self.puzzle, self.options = auto, puzzle, options
        self.start = time.monotonic()
        self.deadline = options.deadline(self.start)
        limit = options.max_solutions
        self.limit = 1 if limit is not None and limit < 1 else limit
        self.fixed: dict[tuple[int, int], int] | None = options.fixed
        self.stats: dict[str, Any] = {}
        self.race_delay = RACE_DELAY
        self.streamed = _Streamed(options)

    def remaining(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def answer(self, status: Status, solutions: tuple[Grid, ...], exhausted: bool, phase: str,
               timed_out: bool = False, found: int | None = None) -> SolveResult:
        # decided before the SAT stage: no SAT solver took part, so it is `auto` (or the variant asked for)
        self.stats["phase"] = phase
        return SolveResult(status=status, solutions=solutions, exhausted=exhausted, backend=self.auto.label,
                           seconds=time.monotonic() - self.start, stats=self.stats, timed_out=timed_out, found=found)

    def cancelled(self) -> bool:
        return self.options.cancel is not None and self.options.cancel.cancelled

    def line_logic(self) -> SolveResult | None:
        probe = self.auto.setting(self.options, "probe")
        self.stats["decided_by"] = "native line logic and probing" if probe else "native line logic"
        narrow_options = SolveOptions(time_limit=self.options.time_limit, fixed=self.fixed, extra={"probe": probe},
                                      cancel=self.options.cancel)
        try:
            narrowed = get_backend(NATIVE).narrow(self.puzzle, narrow_options)
        except OutOfTime:
            return self.answer(status_of(0, False, self.limit, True), (), False, "native", timed_out=True)
        self.stats.update({f"native_{k}": v for k, v in narrowed.stats.items()})
        if narrowed.contradiction:
            return self.answer(status_of(0, True, self.limit), (), True, "native")
        open_cells = sum(1 for m in narrowed.masks if m & (m - 1))
        self.stats["open_cells_after_native"] = open_cells
        if open_cells:  # what the next stages start from (a dict of every cell costs seconds on a huge grid)
            full = (1 << len(self.puzzle.palette)) - 1
            self.fixed = {divmod(i, self.puzzle.width): m for i, m in enumerate(narrowed.masks) if m != full}
        if open_cells == 0:  # the one candidate: every cell decided (each line checked by the exact line solver)
            grid = Grid.from_rows([[m.bit_length() - 1 for m in narrowed.masks[r * self.puzzle.width:
                                                                                (r + 1) * self.puzzle.width]]
                                   for r in range(self.puzzle.height)])
            found = Found.of(self.options)
            if self.puzzle.is_solution(grid):
                found.add(grid)
            return self.answer(status_of(len(found), True, self.limit), found.grids(), True, "native",
                               found=len(found))
        return None

    def native_search(self) -> SolveResult | None:
        wanted = self.auto.setting(self.options, "native_first")
        if not (not self.auto.variant if wanted is None else wanted):
            return None
        # An enumeration streamed to the caller stays with the native search once it has found a solution (the
        # budget holds only until then): SAT would start over and stream those solutions again.
        enumeration = self.options.on_solution is not None and self.options.max_solutions is None
        budget = Budget(cpu_seconds=NATIVE_CPU, until_solution=enumeration)
        try:  # the compiled core only: the reference core's search is slower than the SAT stage
            result = self.native(budget, extra={"core": "c"}, streamed=self.streamed.first(self.options))
        except BackendUnavailable:  # count clues, a grid too big for it, or no compiled core here
            return None
        self.options = self.streamed.after(self.options)  # the stages after it do not stream a solution twice
        if (not result.complete and (self.deadline is None or time.monotonic() < self.deadline)
                and not (enumeration and result.found) and not self.cancelled()):
            self.stats["native_first"] = (f"undecided after its budget of {NATIVE_CPU:g} CPU s "
                                          f"({result.stats.get('conflicts', 0)} conflicts)")
            self.race_delay = RACE_DELAY_AFTER_NATIVE
            return None
        return self.native_answer(result, self.stats["decided_by"] + " + native CDCL")

    def native(self, budget: Budget | None = None, extra: dict[str, Any] | None = None,
               streamed: SolveOptions | None = None) -> SolveResult:
        """The native engine from the narrowed cells, with its own defaults (auto's options are not its);
        `streamed`: the options whose streaming it uses (default: this run's)."""
        options = dataclasses.replace(streamed or self.options, fixed=self.fixed, time_limit=self.remaining(),
                                      budget=budget, extra=extra or {})
        return get_backend(NATIVE).solve(self.puzzle, options)

    def native_answer(self, result: SolveResult, decided_by: str) -> SolveResult:
        """The native search's result as auto's answer, its counts in auto's stats (prefixed native_)."""
        self.stats.update({f"native_{k}": v for k, v in result.stats.items()})
        self.stats["phase"] = "native search"
        self.stats["decided_by"] = decided_by
        return dataclasses.replace(result, backend=f"{self.auto.name}:native", seconds=time.monotonic() - self.start,
                                   stats=self.stats)

    def sat_stage(self) -> SolveResult:
        sat, auto = self.auto.sat, self.auto
        symmetric = auto.setting(self.options, "symmetric")
        options = dataclasses.replace(self.options, fixed=self.fixed, time_limit=self.remaining(),
                                      extra={**self.options.extra, "symmetric": symmetric})
        # Memory: the formula is sized before it is written. Too big for the budget even with the sat engine's
        # leaner solver: the native search finishes the puzzle (it needs memory in proportion to the puzzle).
        # The race needs room for two formulas: each member gets half, or there is no race.
        allowed = memory.available(self.options)
        try:
            need = sat.memory_need(self.puzzle, options) or 0
        except OutOfTime:
            return self.answer(status_of(0, False, self.limit, True), (), False, "sat encoding", timed_out=True)
        except memory.OverBudget as e:
            self.stats["sat_skipped"] = str(e)
            return self.native_answer(self.native(), "native search (the SAT step would not fit the memory budget)")
        options = dataclasses.replace(options, time_limit=self.remaining())  # sizing took time
        partner = auto.race_partner(self.options) if need <= allowed // 2 else None
        if partner is None:
            result = sat.solve(self.puzzle, options)
            self.stats["decided_by"] = f"native + {_solver(result.backend)}"
        else:
            result = self.race(sat, partner, options, allowed // 2)
        self.stats.update(result.stats)
        self.stats["phase"] = "sat"
        return dataclasses.replace(result, backend=f"{auto.name}:{_solver(result.backend)}",
                                   seconds=time.monotonic() - self.start, stats=self.stats)

    def race(self, sat: Backend, partner: Backend, options: SolveOptions, cap: int) -> SolveResult:
        """The first member runs exactly as without the race (the same options, so the same search path);
        the partner solves the whole puzzle (the caller's own `fixed` only). Every solution is sent back as it
        is found; the race kills both at the deadline (the partner cannot stop itself). A partner whose
        formula does not fit its half of the memory budget drops out (OverBudget in its child)."""
        half = {"memory": memory.resident() + cap}
        first, second = _solver(sat.label), _solver(partner.label)
        members = [_Member(sat, _with_extra(options, half), 0.0),
                   _Member(partner, _with_extra(dataclasses.replace(self.options, time_limit=self.remaining()),
                                                {**half, "symmetric": False}), self.race_delay)]
        result = _race(self.puzzle, members, self.limit, self.deadline, self.options, cap)
        self.stats["race"] = [f"{first} after native", f"{second} on the whole puzzle"]
        winner = result.stats.get("race_winner")
        self.stats["decided_by"] = (f"{second} on the whole puzzle" if winner == second
                                    else f"native + {first}" if winner is not None
                                    else f"native + {first} / {second} race")
        return result


def _solver(label: str) -> str:
    """The solver in a sat engine's label: `sat:cadical195` -> `cadical195`."""
    return label.partition(":")[2] or label


def _with_extra(options: SolveOptions, extra: dict[str, Any]) -> SolveOptions:
    return dataclasses.replace(options, extra={**options.extra, **extra})


def _free_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class _Member(NamedTuple):
    """One member of the race: an engine whose `search` reports each solution (capabilities.on_solution), its
    options, and the CPU seconds the first member uses before this one starts."""

    backend: Backend
    options: SolveOptions
    start_after: float


def _race(
    puzzle: Puzzle,
    members: list[_Member],
    limit: int | None,
    deadline: float | None,
    options: SolveOptions | None = None,
    memory_cap: int | None = None,
) -> SolveResult:
    """Each member's search in its own child (nonocp.engines.forked.race_in_children); the first answer wins. Every grid
    a member finds is a solution of the puzzle, so the distinct grids of all members count together (and are
    streamed once each to `options.on_solution`), and `limit` of them end the race as `multiple` (or whatever
    status_of says) before either member finishes. At `deadline` (a time.monotonic() value) plus HARD_STOP_GRACE,
    or when `options.cancel` is cancelled, the members are killed: the answer is a timeout with the solutions
    found by then."""
    from nonocp.engines.forked import HARD_STOP_GRACE, race_in_children

    start = time.monotonic()
    options = options or SolveOptions()
    progress = options.progress
    kill_at = None if deadline is None else deadline + HARD_STOP_GRACE
    found = Found.of(options, distinct=True)  # every distinct solution of both members
    found_by: list[int] = []  # the member that found each solution held in `found`
    members_found: set[int] = set()
    first_pid = _SharedPid()

    def on_message(member: int, grid: Grid) -> bool:
        if found.add(grid):
            members_found.add(member)
            if len(found_by) < len(found.kept):
                found_by.append(member)
            if progress is not None:
                progress({"solutions": len(found)})
        # Enough grids end the race only when they come from more than one member: a member that found them
        # all is about to answer by itself, with its statistics (conflicts, encoding sizes) in the result.
        return limit is not None and len(found) >= limit and len(members_found) > 1

    def member_search(i: int, member: _Member) -> Callable[[Callable[[Any], None]], SolveResult]:
        def search(send: Callable[[Any], None]) -> SolveResult:
            if i == 0:
                first_pid.set(os.getpid())
            elif member.start_after > 0:  # in the child, asleep, it takes no core
                _wait_for_cpu(first_pid, member.start_after)
            return member.backend.search(puzzle, member.options, on_solution=lambda grid, n: send(grid))

        return search

    tick = None if progress is None else (lambda: progress({"solutions": len(found)}))
    winner, result = race_in_children([member_search(i, m) for i, m in enumerate(members)], kill_at, on_message,
                                      memory_cap, options.cancel, tick)
    names = [_solver(m.backend.label) for m in members]
    if winner is not None and result.status is Status.TIMEOUT:
        winner = None  # a member that stopped itself at the deadline: the answer is what all found by then
    if winner is not None:
        if result.exhausted and len(found) > result.found:
            # both members solve the same puzzle exactly, so this is a bug in one of them, never an answer
            raise NonocpError(f"auto: the race's members disagree ({names[winner]} exhausted the search "
                              "without a solution another member found)")
        won: SolveResult = result
        return dataclasses.replace(won, seconds=time.monotonic() - start,
                                   stats={**won.stats, "race_winner": names[winner]})
    timed_out = limit is None or len(found) < limit
    count = len(found) if limit is None else min(len(found), limit)
    solutions = found.grids()[:count]
    stats: dict[str, Any] = {} if result is None else dict(result.stats)  # a member that timed out: its counts
    stats.update(race_winner=None, race_found_by=[names[m] for m in found_by[:len(solutions)]])
    if timed_out and result is None:
        stats["killed_at_time_limit"] = True
    return SolveResult(
        status=status_of(count, False, limit, timed_out),
        solutions=solutions,
        exhausted=False,
        backend=members[0].backend.label,
        seconds=time.monotonic() - start,
        stats=stats,
        timed_out=ended_by_time(count, False, limit, timed_out),
        found=count,
    )


class _Streamed:
    """What the native search streamed to the caller (options.on_solution), so that the stages after it, which
    start over, do not stream the same solution twice. Only a search that stops at a number of solutions hands
    over after streaming some (an enumeration stays native: native_search), so this holds at most that many
    digests."""

    def __init__(self, options: SolveOptions) -> None:
        self.stream = options.on_solution
        self.seen: set[bytes] = set()

    def first(self, options: SolveOptions) -> SolveOptions:
        """The native search's options: each solution it streams remembered."""
        stream, seen = self.stream, self.seen
        if stream is None:
            return options

        def remember(grid: Grid) -> None:
            seen.add(digest(grid))
            stream(grid)

        return dataclasses.replace(options, on_solution=remember)

    def after(self, options: SolveOptions) -> SolveOptions:
        """The later stages' options: a solution the native search streamed already is not streamed again."""
        stream, seen = self.stream, self.seen
        if stream is None or not seen:
            return options

        def unless_seen(grid: Grid) -> None:
            if digest(grid) not in seen:
                stream(grid)

        return dataclasses.replace(options, on_solution=unless_seen)


class _SharedPid:
    """The first member's process id, written by its child into memory every member's child shares (an
    anonymous mapping made before the fork), so that a later member can read how much CPU it has used."""

    def __init__(self) -> None:
        self.memory = mmap.mmap(-1, 8)

    def set(self, pid: int) -> None:
        self.memory[:8] = struct.pack("q", pid)

    def get(self) -> int:
        pid: int = struct.unpack("q", self.memory[:8])[0]
        return pid


POLL = 0.1  # seconds between a waiting member's looks at the first member's CPU time


def _wait_for_cpu(first: _SharedPid, seconds: float) -> None:
    """Until the first member's process has used `seconds` of CPU (or is gone). Where its CPU time cannot be
    read (no /proc), the wait is `seconds` of wall clock."""
    from nonocp.engines.forked import cpu_seconds_of

    started = time.monotonic()
    while True:
        pid = first.get()
        used = cpu_seconds_of(pid) if pid else 0.0
        if used is None:
            if not pid or time.monotonic() - started >= seconds or not _alive(pid):
                return
        elif used >= seconds:
            return
        time.sleep(POLL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
