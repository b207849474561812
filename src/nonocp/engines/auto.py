"""The hybrid engine `auto`: native line propagation first (probing too, with `extra={"probe": True}`),
then the native CDCL search for a time slice, then SAT for what is still open.

1. `nonocp.engines.native.propagate_and_probe` narrows every cell to the colours line logic (and, when
   asked, probing) allow (sound: only impossible colours are removed). A contradiction proves there is no
   solution; a fully decided grid is the only candidate, checked against the clues.
2. Otherwise, on puzzles the native engine's compiled core takes, its CDCL search continues from the
   narrowed cells for up to NATIVE_FIRST seconds in this process (`native_first`, see NATIVE_FIRST_DEFAULT).
   Its answer is the answer; when its slice ends undecided, step 3 starts afresh.
3. The sat engine solves the puzzle with every narrowed cell passed as `SolveOptions.fixed`:
   decided cells become constants, lines whose cells are all decided drop out of the CNF, and the
   blocking-clause loop counts solutions as usual (exhaustive: the cells fixed by step 1 hold in every
   solution, so the count is the puzzle's count).

Why: propagation solves line-solvable puzzles in milliseconds, where building a CNF in Python costs
more than solving it; the native search decides most of the rest faster than the SAT stage; SAT search
(and the race) finishes the hard ones. With `proof_dir` the sat engine solves the whole puzzle without
steps 1 and 2: a DRAT proof must certify the puzzle itself, and it could not check what native deduced
(nor would a native answer come with a certificate).

The variant picks the SAT solver (`auto:glucose4`); `extra` options reach the sat engine unchanged.

4. The race (`extra={"race": True}`, the default when two cores are free): step 3 runs in a forked child;
   if it has not answered after RACE_DELAY seconds (at once when the native search's slice of step 2 ran out
   first), a second child starts RACE_PARTNER (Kissat) on the whole puzzle. The first to answer wins and the
   other is killed. Solutions found by either count together: two distinct grids, one from each member, prove
   `multiple` before either has found two. Why: no one solver is fast everywhere on the survey set. CaDiCaL
   after native propagation is fast on the pictures but finds no solution of Knotty, Faase or Meow in
   minutes; Kissat on the whole formula finds them (then CaDiCaL, guided by that solution, finds the second at
   once: sat.FOLLOW_UP_SOLVER) but is slower on the ordinary puzzles (benchmarks/results/auto.md). The race is
   off with one core or `workers=1` (`nonocp bench` runs one engine per core), with `proof_dir` (the proof's
   CNF must be the one that was refuted, and two members would write the same files), and when the variant is
   the partner itself.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from nonocp.core.errors import BackendUnavailable, NonocpError
from nonocp.core.grid import Domains, Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import SolveResult, Status, ended_by_time, status_of
from nonocp.engines import memory
from nonocp.engines.contract import Backend, Capabilities, Option, Options, SolveOptions, Stat, Stats
from nonocp.engines.native.backend import NativeBackend

if TYPE_CHECKING:
    from nonocp.engines.sat import SatBackend

NativeStats = NativeBackend.stats


class _FromSat:
    """A class attribute built from the sat engine's declarations when first read.

    Why not at import: importing the sat engine (its CNF encoders, its tables) costs more than deciding a
    small puzzle by line logic, which is what most `nonocp solve` runs do; the SAT stage, `nonocp backends`
    and any `--option` read these and import it then."""

    def __init__(self, build: Callable[[Any], Any]) -> None:
        self.build = build
        self.value: Any = None

    def __get__(self, obj: object, owner: type) -> Any:
        if self.value is None:
            from nonocp.engines.sat import SatBackend

            self.value = self.build(SatBackend)
        return self.value

# Probing before SAT is off by default: on the survey set it won on some puzzles and lost on more, with more
# timeouts in all (benchmarks/results/auto.md, "Probing before SAT"). `extra={"probe": True}` turns it on.
DEFAULT_PROBE = False
# The second member of the race (see 4. above): it solves the whole puzzle, not what native left open. The whole
# formula, because Kissat's first solution is that fragile: with native's cells fixed it was slower on Faase
# (benchmarks/results/auto.md, "Kissat in the hybrid").
RACE_PARTNER = "kissat404"
# Seconds before the partner joins the race. Why not at once: two solvers side by side slow each other down
# (shared cache and memory bandwidth), and the partner only matters on puzzles that take CaDiCaL minutes.
# With the partner started at once, puzzles CaDiCaL solves in seconds got slower (benchmarks/results/auto.md,
# "Why the partner waits"). After this delay only puzzles that CaDiCaL has not answered by then pay for the
# second core; every survey puzzle that it decides at all, it decides within that.
RACE_DELAY = 15.0
# ... except after the native search's slice (NATIVE_FIRST) ran out undecided: that slice already sorted out the
# puzzles that are quick to decide, which is what the delay is for, so the partner starts with the SAT stage.
# On the survey and tournament samples the slice decides every puzzle it takes, so only the hardest get here:
# Knotty, Faase and Meow, where CaDiCaL finds nothing in minutes and the partner decides (benchmarks/results/
# auto.md, "The hardest three").
RACE_DELAY_AFTER_NATIVE = 0.0
# On puzzles the native engine's compiled core takes (run clues, up to its line length), its CDCL search runs
# after line logic for up to NATIVE_FIRST seconds, in this process; what it leaves undecided goes to the SAT
# stage (and the race) as before. It decides the numbered survey puzzles and the tournament samples several
# times faster than the SAT stage (benchmarks/results/native-core.md, "Where the core wins"). Not by default
# (the option's None) when the variant names a SAT solver (`auto:kissat404`): that asks for that solver's
# search, which the slice would take over on most puzzles. Never with `proof_dir` (SAT alone, see above).
# `extra={"native_first": False}` is the SAT stage straight after line logic.
NATIVE_FIRST_DEFAULT = True
NATIVE_FIRST = 15.0
# The SAT stage's first round looks for a symmetric solution when the clues are symmetric (sat.SYMMETRIC_SLICE,
# core/symmetry.py): it decides Knotty (clues that turn by a quarter) in seconds, where neither CaDiCaL nor Kissat
# on the whole formula finds a solution within a minute (benchmarks/results/auto.md, "Symmetric first"). The
# race's partner stays on the whole puzzle, so a symmetric round that finds nothing costs only its slice.
DEFAULT_SYMMETRIC = True


class AutoBackend(Backend):
    name = "auto"
    variants = _FromSat(lambda sat: sat.variants)  # the SAT solver of step 3
    # its own switches, and the sat engine's options (passed on to the SAT stage)
    options = _FromSat(lambda sat: Options(
        Option("probe", bool, DEFAULT_PROBE, "probe every cell after line propagation, before SAT"),
        Option("race", bool, None, "race Kissat on the whole puzzle (default: when two cores are free)"),
        Option("native_first", bool, None, f"the native CDCL search for up to {NATIVE_FIRST:g} s before SAT, on "
               "puzzles its compiled core takes (default: on, unless the variant names a SAT solver)"),
        Option("symmetric", bool, DEFAULT_SYMMETRIC, "when the clues are symmetric, the SAT stage first looks for "
               "a solution the symmetries map onto itself (for a time slice)"),
    ) | sat.options)
    # proofs: with proof_dir it is the sat engine alone; no solution callback of its own
    capabilities = Capabilities(colours=True, enumerate=True, fixed=True, proofs=True, on_solution=False)
    stats = _FromSat(lambda sat: Stats(
        Stat("phase", str, "native (decided by line logic alone), sat (after it, or alone for a proof), sat encoding "
             "(the time ran out while the CNF was built) or native search (its CDCL search decided first, or the CNF "
             "would not fit the memory budget)"),
        Stat("native_first", str, "why the native search handed over to SAT (its time slice ran out)"),
        Stat("sat_skipped", str, "why the SAT stage did not run (the memory budget), in words"),
        Stat("open_cells_after_native", int, "cells line logic left open for SAT"),
        Stat("race", list, "the race's two members, in words"),
        Stat("race_winner", (str, type(None)), "the member that answered (None: the deadline or both together)"),
        Stat("race_found_by", list, "per solution, the member that found it (when no member answered alone)"),
        Stat("decided_by", str, "the stage that reached the verdict: native line logic (and probing), native line "
             "logic + native CDCL, native + the SAT solver, or the race partner on the whole puzzle"),
        include=(sat.stats, NativeStats.prefixed("native_")),
        always=("phase",),
    ))

    def __init__(self, variant: str = "") -> None:
        self.variant = variant  # "": the sat engine's default solver
        self._sat: SatBackend | None = None
        if variant:
            self.sat  # noqa: B018 - a named solver is checked now: an unknown one is a usage error up front

    @property
    def sat(self) -> SatBackend:
        """The SAT stage's engine, made on first use: making it imports pysat (to check the solver's name),
        which a puzzle that line logic decides never needs."""
        if self._sat is None:
            from nonocp.engines.sat import SatBackend

            # "" is the sat engine's default solver, which it may swap for a leaner one when memory is short
            self._sat = SatBackend(self.variant)
        return self._sat

    def available(self) -> bool:
        # SatBackend.available's own test (pysat is installed), without making the SAT stage's engine
        return importlib.util.find_spec("pysat") is not None if self._sat is None else self.sat.available()

    def version(self) -> str:
        return f"native line propagation and search, then {self.sat.version()}"

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        from nonocp.engines.native import Timeout, propagate_and_probe

        if options.extra:  # its own and the sat engine's, before any work
            self.options.check(options.extra, self.name)
        if options.extra.get("proof_dir"):  # a certificate of the puzzle itself: SAT alone (module docstring)
            alone = self.sat.solve(puzzle, options)
            return dataclasses.replace(alone, backend=f"{self.name}:{self.sat.solver_name}",
                                       stats={**alone.stats, "phase": "sat",
                                              "decided_by": f"{self.sat.solver_name} alone, for the proof"})
        start = time.monotonic()
        deadline = options.deadline(start)
        limit = 1 if options.max_solutions is not None and options.max_solutions < 1 else options.max_solutions
        probe = self.options.get(options.extra, "probe", self.name) if options.extra else DEFAULT_PROBE
        logic = "native line logic and probing" if probe else "native line logic"
        try:
            masks, contradiction, native_stats = propagate_and_probe(puzzle, deadline, fixed=options.fixed,
                                                                     probe=probe)
        except Timeout:
            stats = {"phase": "native", "decided_by": logic}  # the stage that was running
            return self._result(status_of(0, False, limit, True), (), False, start, stats, True)
        stats = {f"native_{k}": v for k, v in native_stats.items()}
        stats["decided_by"] = logic
        if contradiction:
            stats["phase"] = "native"
            return self._result(status_of(0, True, limit), (), True, start, stats)

        k = len(puzzle.palette)
        domains = Domains(puzzle.width, puzzle.height, k, masks)
        stats["open_cells_after_native"] = domains.unknown_count()
        if domains.is_solved():
            grid = domains.to_grid()
            solutions = (grid,) if puzzle.is_solution(grid) else ()
            stats["phase"] = "native"
            return self._result(status_of(len(solutions), True, limit), solutions, True, start, stats)

        full = (1 << k) - 1
        w = puzzle.width
        fixed = {divmod(i, w): m for i, m in enumerate(masks) if m != full}
        delay = RACE_DELAY  # before the race's partner joins (see RACE_DELAY)
        if self._native_first_wanted(options) and _native_core_takes(puzzle):
            decided = self._native_first(puzzle, options, fixed, start, deadline, stats)
            if decided is not None:
                return decided
            delay = RACE_DELAY_AFTER_NATIVE
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        sat_options = _with_extra(dataclasses.replace(options, fixed=fixed, time_limit=remaining),
                                  {"symmetric": self.options.get(options.extra, "symmetric", self.name)})
        # Memory: the SAT stage's formula is sized before it is written (its templates stay cached for the
        # child that writes it). Too big for the budget even with the sat engine's leaner solver: native
        # search finishes the puzzle instead (it needs memory in proportion to the puzzle). The race
        # needs room for two formulas: each member gets half, or there is no race.
        from nonocp.encode.cnf import EncodingTimeout

        allowed = memory.available(options)
        try:
            solver, need = self.sat.plan(puzzle, sat_options, deadline=deadline)
        except EncodingTimeout:
            stats["phase"] = "sat encoding"
            return self._result(status_of(0, False, limit, True), (), False, start, stats, True)
        except memory.OverBudget as e:
            stats["sat_skipped"] = str(e)
            return self._native_rest(puzzle, options, fixed, start, deadline, stats)
        # sizing took time: what is left of the limit now
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        sat_options = dataclasses.replace(sat_options, time_limit=remaining)
        partner = self._race_partner(options, delay) if need <= allowed // 2 else None
        if partner is None:
            result = self.sat.solve(puzzle, sat_options)
            stats["decided_by"] = f"native + {solver}"
        else:
            # The first member runs exactly as without the race (the same options, so the same search path);
            # the partner's time limit starts when it does. The race kills both at the deadline anyway (the
            # partner cannot stop itself), and every solution is sent back as it is found. A partner whose
            # formula does not fit its half of the budget drops out of the race (OverBudget in its child).
            half = {"memory": memory.resident() + allowed // 2}
            late = None if remaining is None else max(0.0, remaining - delay)
            members = [_Member(self.sat, _with_extra(sat_options, half), 0.0),
                       # the caller's own `fixed` only: the whole puzzle
                       _Member(partner, _with_extra(dataclasses.replace(options, time_limit=late),
                                                    {**half, "symmetric": False}), delay)]
            result = _race(puzzle, members, limit, deadline, options.progress, allowed // 2)
            stats["race"] = [f"{solver} after native", f"{partner.solver_name} on the whole puzzle"]
            winner = result.stats.get("race_winner")
            stats["decided_by"] = (f"{partner.solver_name} on the whole puzzle" if winner == partner.solver_name
                                   else f"native + {solver}" if winner is not None
                                   else f"native + {solver} / {partner.solver_name} race")
        stats.update(result.stats)
        stats["phase"] = "sat"
        used = result.backend.partition(":")[2] or solver
        return dataclasses.replace(result, backend=f"{self.name}:{used}", seconds=time.monotonic() - start,
                                   stats=stats)

    def _native_first_wanted(self, options: SolveOptions) -> bool:
        """The native search's slice before SAT? Asked for, or by default unless a SAT solver was named."""
        # `self.options` imports the sat engine (see _FromSat): not read when no option was given
        wanted = self.options.get(options.extra, "native_first", self.name) if options.extra else None
        return (NATIVE_FIRST_DEFAULT and not self.variant) if wanted is None else wanted

    def _native_first(self, puzzle: Puzzle, options: SolveOptions, fixed: dict[tuple[int, int], int],
                      start: float, deadline: float | None, stats: dict[str, Any]) -> SolveResult | None:
        """The native engine's search (CDCL on its compiled core) from the cells line logic fixed, for up to
        NATIVE_FIRST seconds: its answer, or None when the slice ended first and time is left for SAT."""
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        slice_ = NATIVE_FIRST if remaining is None else min(NATIVE_FIRST, remaining)
        result = _native_search(puzzle, options, fixed, slice_)
        # short of what was asked (an `--all` enumeration cut by the slice is `multiple` but not complete)
        if not result.complete and (remaining is None or remaining > slice_):
            stats["native_first"] = f"undecided after {slice_:g} s"
            return None
        # after line logic (and probing, when asked)
        return self._native_answer(result, start, stats, stats["decided_by"] + " + native CDCL")

    def _native_rest(self, puzzle: Puzzle, options: SolveOptions, fixed: dict[tuple[int, int], int], start: float,
                     deadline: float | None, stats: dict[str, Any]) -> SolveResult:
        """The puzzle finished by the native engine's search from the cells line logic fixed (when the SAT
        stage would not fit the memory budget)."""
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        result = _native_search(puzzle, options, fixed, remaining)
        return self._native_answer(result, start, stats, "native search (the SAT step would not fit the memory budget)")

    def _native_answer(self, result: SolveResult, start: float, stats: dict[str, Any], decided_by: str) -> SolveResult:
        """The native search's result as auto's answer, its counts in auto's stats (prefixed native_)."""
        stats.update({f"native_{k}": v for k, v in result.stats.items()})
        stats["phase"] = "native search"
        stats["decided_by"] = decided_by
        return dataclasses.replace(result, backend=f"{self.name}:native", seconds=time.monotonic() - start,
                                   stats=stats)

    def _race_partner(self, options: SolveOptions, delay: float = RACE_DELAY) -> SatBackend | None:
        """The race's second member, or None when this solve does not race (see 4. in the module docstring);
        `delay`: the seconds it would wait before it starts."""
        wanted = self.options.get(options.extra, "race", self.name)
        if wanted is None:  # the default: race when a second core is there for it, unless told one worker
            wanted = (options.workers is None and _free_cores() >= 2) or (options.workers or 0) >= 2
        from nonocp.engines.forked import fork_available
        from nonocp.engines.sat import SatBackend

        if not wanted or not fork_available() or options.extra.get("proof_dir"):
            return None
        if options.time_limit is not None and options.time_limit <= delay:
            return None  # the partner would never start
        if self.sat.solver_name == RACE_PARTNER:
            return None
        try:
            return SatBackend(RACE_PARTNER)
        except BackendUnavailable:  # a python-sat without Kissat: the race needs it
            return None

    def _result(self, status, solutions, exhausted, start, stats, timed_out: bool = False) -> SolveResult:
        # decided before the SAT stage: no SAT solver took part, so it is `auto` (or the variant asked for)
        return SolveResult(
            status=status,
            solutions=tuple(solutions),
            exhausted=exhausted,
            backend=self.label if self._sat is None else f"{self.name}:{self._sat.solver_name}",
            seconds=time.monotonic() - start,
            stats=stats,
            timed_out=timed_out,
        )


def _native_search(puzzle: Puzzle, options: SolveOptions, fixed: dict[tuple[int, int], int],
                   time_limit: float | None) -> SolveResult:
    """The native engine from the cells line logic fixed, with its own defaults: auto's `probe` and the sat
    engine's options are not the native engine's."""
    return NativeBackend().solve(puzzle, dataclasses.replace(options, fixed=fixed, time_limit=time_limit, extra={}))


def _native_core_takes(puzzle: Puzzle) -> bool:
    """Does the native engine's compiled core take this puzzle (built here, run clues, not too big)?"""
    from nonocp.engines.native import core

    return not puzzle.has_counts and core.fits(puzzle.height, puzzle.width, len(puzzle.palette))


def _with_extra(options: SolveOptions, extra: dict[str, Any]) -> SolveOptions:
    return dataclasses.replace(options, extra={**options.extra, **extra})


def _free_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class _Member(NamedTuple):
    """One member of the race: an engine (with `search` and `solver_name`, as SatBackend), its options, and
    how many seconds it waits before it starts."""

    backend: Any
    options: SolveOptions
    start_after: float


def _race(
    puzzle: Puzzle,
    members: list[_Member],
    limit: int | None,
    deadline: float | None,
    progress: Callable[[dict[str, Any]], None] | None,
    memory_cap: int | None = None,
) -> SolveResult:
    """Each member's search in its own child (nonocp.engines.forked.race_in_children); the first answer wins. Every grid
    a member finds is a solution of the puzzle, so the distinct grids of all members count together, and
    `limit` of them end the race as `multiple` (or whatever status_of says) before either member finishes.
    At `deadline` (a time.monotonic() value) plus HARD_STOP_GRACE the members are killed: the answer is a
    timeout with the solutions found by then."""
    from nonocp.engines.forked import race_in_children
    from nonocp.engines.sat import HARD_STOP_GRACE

    start = time.monotonic()
    kill_at = None if deadline is None else deadline + HARD_STOP_GRACE
    found: dict[Grid, int] = {}  # every distinct solution -> the member that found it first

    def on_message(member: int, grid: Grid) -> bool:
        if grid not in found:
            found[grid] = member
            if progress is not None:
                progress({"solutions": len(found)})
        # Enough grids end the race only when they come from more than one member: a member that found them
        # all is about to answer by itself, with its statistics (conflicts, encoding sizes) in the result.
        return limit is not None and len(found) >= limit and len(set(found.values())) > 1

    def member_search(member: _Member):
        def search(send):
            time.sleep(member.start_after)  # in the child: asleep, it takes no core
            return member.backend.search(puzzle, member.options, on_solution=lambda grid, n: send(grid))

        return search

    winner, result = race_in_children([member_search(m) for m in members], kill_at, on_message, memory_cap)
    names = [m.backend.solver_name for m in members]
    if winner is not None and result.status is Status.TIMEOUT:
        winner = None  # a member that stopped itself at the deadline: the answer is what all found by then
    if winner is not None:
        if result.exhausted and not set(found) <= set(result.solutions):
            # both members solve the same puzzle exactly, so this is a bug in one of them, never an answer
            raise NonocpError(f"auto: the race's members disagree ({names[winner]} exhausted the search "
                              "without a solution another member found)")
        stats = {**result.stats, "race_winner": names[winner]}
        return dataclasses.replace(result, seconds=time.monotonic() - start, stats=stats)
    timed_out = limit is None or len(found) < limit
    solutions = tuple(found)[:limit]
    stats: dict[str, Any] = {} if result is None else dict(result.stats)  # a member that timed out: its counts
    stats.update(race_winner=None, race_found_by=[names[found[g]] for g in solutions])
    if timed_out and result is None:
        stats["killed_at_time_limit"] = True
    return SolveResult(
        status=status_of(len(solutions), False, limit, timed_out),
        solutions=solutions,
        exhausted=False,
        backend=f"sat:{names[0]}",
        seconds=time.monotonic() - start,
        stats=stats,
        timed_out=ended_by_time(len(solutions), False, limit, timed_out),
    )
