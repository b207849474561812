"""The SAT engine: the puzzle in CNF (nonocp.encode.cnf) solved by python-sat.

- Solver: CaDiCaL 1.9.5 by default; any pysat solver by name as the variant (`sat:glucose4`,
  `sat:minisat22`, `sat:lingeling`, ... any alias pysat's SolverNames knows).
- Several solutions, incrementally on one solver: solve, add the clause "not this grid", solve again,
  until `max_solutions` are found or the solver answers UNSAT, which proves no other solution exists.
  Kissat in pysat is not incremental (adding a clause after a solve aborts the whole process, see
  FIELD-NOTES), so it finds the first solution only; the later rounds go to an incremental solver
  (FOLLOW_UP_SOLVER) holding every blocking clause, with the last solution as its phases.
- The search runs in a forked child (nonocp.engines.forked), with or without a time limit: Ctrl-C then
  ends the command cleanly (pysat's solvers cannot be interrupted in process: CaDiCaL aborts it).
  `time_limit`: the search stops itself where it can (`solve_until`: interrupt() from a timer thread, or
  conflict-budget slices for CaDiCaL, whose pysat binding cannot be interrupted; Kissat and Lingeling
  only between rounds), and the child is killed HARD_STOP_GRACE seconds after the deadline when it has
  not, keeping the solutions it had sent back; `extra={"hard_stop": False}` keeps it in this process
  (for callers that cannot fork, and for benchmarks/bench_timeout.py).
- Settings in `SolveOptions.extra`: "encoding" ("blocks", "automaton", "both"; see encode/cnf.py),
  "phase" (PHASES: which value the solver tries first for a cell, see DEFAULT_PHASE) and "proof_dir":
  when the search ends on UNSAT (no solution, or none besides those found) write there
  `<name>.cnf` (the formula with every blocking clause added, DIMACS) and `<name>.drat` (the DRAT proof
  that it is unsatisfiable), and return them as `SolveResult.proof`. The proof comes from a separate
  one-shot solve of that final formula, so that it is a plain DRAT refutation of exactly the written
  CNF (a proof traced across incremental clause additions need not check against it). Solvers that
  cannot trace proofs (MiniSat, Kissat in pysat) hand that solve to CaDiCaL 1.9.5.

pysat is imported only here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import itertools
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from nonocp.core.errors import BackendUnavailable, OutOfTime
from nonocp.core.grid import Grid
from nonocp.core.outputs import write_file
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import Proof, SolveResult, ended_by_time, proof_files, status_of
from nonocp.core.symmetry import clue_symmetries, restrictions
from nonocp.encode.cnf import (
    DEFAULT_ENCODING,
    ENCODINGS,
    TRUE,
    CnfSize,
    PuzzleCnf,
    cnf_size,
    encode_puzzle,
    to_dimacs,
)
from nonocp.encode.counts_cnf import encode_counts
from nonocp.engines import memory
from nonocp.engines.contract import Backend, Capabilities, Setting, Settings, SolveOptions, Stat, Stats
from nonocp.engines.forked import HARD_STOP_GRACE, call_in_child, isolated
from nonocp.engines.found import Found

DEFAULT_SOLVER = "cadical195"
PROOF_SOLVER = "cadical195"
# pysat solvers that trace DRAT proofs (checked with with_proof=True on pysat 1.9.dev24)
PROOF_CAPABLE = frozenset(
    {
        "cadical103", "cadical153", "cadical195", "cadical300", "ergo", "gluecard3", "gluecard4",
        "glucose3", "glucose4", "glucose42", "lingeling", "maplechrono", "maplecm", "maplesat",
    }
)
# one-shot only: a clause added after a solve aborts the process; no interrupt either
NON_INCREMENTAL = frozenset({"kissat404"})
# After a non-incremental solver's first solution, the remaining rounds (another solution, or the proof that
# none is left) go to this incremental solver, seeded with every blocking clause and with the last solution
# as its phases, so that it searches near that solution first: guided, CaDiCaL finds a second solution of
# Knotty or Faase at once, where unguided it (or a fresh Kissat per round) needs minutes
# (benchmarks/results/sat.md, "Kissat first, CaDiCaL guided").
FOLLOW_UP_SOLVER = "cadical195"
# how a solve is stopped at the time limit (see solve_until); checked on pysat 1.9.dev24
BUDGET_ONLY = frozenset({"cadical103", "cadical153", "cadical195", "cadical300"})
# Conflicts per slice for those, in order; the last repeats. A fixed schedule keeps runs reproducible.
SLICE_SCHEDULE = (2_000, 4_000, 8_000, 16_000, 32_000, 50_000)
UNSTOPPABLE = frozenset({"kissat404", "lingeling", "cryptosat"})
# The value a solver tries first on a cell variable it decides: "background" sets every cell's background
# literal as its initial phase (pysat's set_phases; phase saving takes over after the first decisions),
# "solver" leaves the solver's own default. Solvers without set_phases (Kissat in pysat) keep their own.
# Background first helped on big survey pictures and hurt on tournament puzzles (benchmarks/results/sat.md,
# "Initial phase"), so the solver's own stays the default.
PHASES = ("background", "solver")
DEFAULT_PHASE = "solver"
# `symmetric`: when the clues are symmetric (core/symmetry.py), the first round looks for a solution the
# symmetries map onto itself (one colour per orbit of cells), for up to this many CPU seconds of the process
# doing it (not wall seconds: a busy machine must not cut the round short); what it finds is the first
# solution, and the search goes on over the whole formula from it (its phases, its blocking clause). A
# symmetric formula can be hard to refute when no symmetric solution exists, hence the slice. Knotty's
# quarter-turn formula gives CaDiCaL a first solution in 3-14 s, by clause order (benchmarks/results/auto.md).
SYMMETRIC_CPU = 30.0
# Memory (nonocp.engines.memory): bytes a solver holds per clause of our formulas, from loading the CNF of
# a 200x200 picture into each (benchmarks/results/memory.md, "Per clause"), and how much its learnt
# clauses add during a search. An unnamed solver is cadical195; when that would not fit the budget
# and MEMORY_FALLBACK would, the search uses MEMORY_FALLBACK (a solver named by the variant is kept).
SOLVER_BYTES_PER_CLAUSE = {"cadical": 200, "glucose": 110, "gluecard": 110, "maple": 110, "minisat": 75,
                           "minicard": 75, "kissat": 75, "lingeling": 75}
SEARCH_GROWTH = 1.3
MEMORY_FALLBACK = "minisat22"


def solver_bytes(solver_name: str, clauses: int) -> int:
    """What `solver_name` holds for a formula of `clauses` clauses, learnt clauses included (an estimate)."""
    per = next((b for family, b in SOLVER_BYTES_PER_CLAUSE.items() if solver_name.startswith(family)), 200)
    return int(clauses * per * SEARCH_GROWTH)


def formula_bytes(size: CnfSize, cells: int) -> int:
    """What the formula itself holds here: the flat clause store, the line templates, the cell literals."""
    return 8 * size.literals + 4 * size.clauses + 120 * cells


class _Choices(NamedTuple):
    """The sat engine's settings (SatBackend.settings) as one solve chose them."""

    encoding: str
    phase: str
    symmetric: bool


def canonical_solver_name(name: str) -> str:
    """pysat's canonical name for a solver alias (`g4` -> `glucose4`); BackendUnavailable if unknown."""
    from pysat.solvers import SolverNames

    wanted = name.lower()
    for canonical, aliases in vars(SolverNames).items():
        if canonical.startswith("_") or not isinstance(aliases, tuple):
            continue
        if wanted == canonical or wanted in aliases:
            return str(canonical)
    raise BackendUnavailable(f"sat: pysat has no solver called {name!r}")


class SatBackend(Backend):
    name = "sat"
    # any solver pysat knows, by name or alias (checked by canonical_solver_name); the usual ones:
    variants = ("cadical195", "glucose4", "minisat22", "lingeling", "kissat404")
    settings = Settings(
        Setting("encoding", tuple(ENCODINGS), DEFAULT_ENCODING, "how each line's clue becomes clauses"),
        Setting("phase", PHASES, DEFAULT_PHASE, "the value the solver tries first for a cell"),
        Setting("symmetric", bool, False, "when the clues are symmetric, first look for a solution the "
               f"symmetries map onto itself (for up to {SYMMETRIC_CPU:g} CPU s)"),
    )
    capabilities = Capabilities(colours=True, enumerate=True, fixed=True, proofs=True, on_solution=True)
    stats = Stats(
        Stat("solver", str, "the pysat solver of the first round"),
        Stat("encoding", str, "blocks, automaton or both (counts: a count-clue puzzle's own encoding)"),
        Stat("variables", int, "CNF variables"),
        Stat("clauses", int, "CNF clauses before any blocking clause"),
        Stat("cell_variables", int, "variables that stand for a cell's colour"),
        Stat("encode_seconds", float, "building the CNF"),
        Stat("load_seconds", float, "loading it into the solver(s)"),
        Stat("solve_seconds", float, "in the solver's solve calls"),
        Stat("solves", int, "solve calls (one per solution found, plus the last UNSAT)"),
        Stat("blocking_clauses", int, "clauses added to forbid solutions found"),
        Stat("follow_up_solver", str, "the incremental solver of the later rounds after a one-shot one"),
        Stat("phase", str, "the initial phase, when set (background)"),
        Stat("symmetries", list, "the moves that map the clues onto themselves (with `symmetric`)"),
        Stat("symmetric_round", str, "the symmetric first round: found, none (no symmetric solution), or "
             "out of time"),
        Stat("symmetric_seconds", float, "in the symmetric first round"),
        Stat("symmetric_moves", list, "the moves the symmetric round's solution was looked for under"),
        Stat("conflicts", int, "the solver's conflicts (solvers that report them)"),
        Stat("decisions", int, "the solver's decisions"),
        Stat("propagations", int, "the solver's propagations"),
        Stat("restarts", int, "the solver's restarts"),
        Stat("proof_seconds", float, "the one-shot proof solve"),
        Stat("proof_solver", str, "the solver that traced the proof"),
        Stat("proof_status", str, "written, timeout, or sat (not a refutation)"),
        Stat("proof_lines", int, "lines of the DRAT proof"),
        Stat("killed_at_time_limit", bool, "the forked search was killed at the time limit"),
        Stat("encoding_timed_out", bool, "the time limit passed while the CNF was being built (no search)"),
        Stat("solver_for_memory", str, "the leaner solver used because the named one would not fit the memory "
             "budget (engines/memory.py), and why"),
        always=("solver", "encoding"),
    )

    def __init__(self, variant: str = "") -> None:
        name = variant or DEFAULT_SOLVER
        self.solver_name = canonical_solver_name(name) if self.available() else name
        self.variant = self.solver_name  # the label names the solver by pysat's own name (`sat:g4` -> sat:glucose4)
        self.solver_chosen = bool(variant)  # named by the user: never swapped for a leaner one

    def plan(self, puzzle: Puzzle, options: SolveOptions, size: CnfSize | None = None,
             deadline: float | None = None) -> tuple[str, int]:
        """(the solver this solve will use, the bytes it needs) within the memory budget, or OverBudget.
        `size`: the formula's, when known (else measured without writing it: encode.cnf.cnf_size, which
        raises OutOfTime when `deadline` passes, and OverBudget as soon as the part sized is too big).
        Count-and-contiguity puzzles are not sized (their own encoding, in clauses per colour and line:
        small beside the run clues' templates)."""
        if puzzle.has_counts:
            return self.solver_name, 0
        if size is None:
            size = cnf_size(puzzle, self._choices(options).encoding, fixed=options.fixed, deadline=deadline,
                            bound=self.budget_bound(puzzle, options))
        allowed = memory.available(options)
        name, need = self._fit(puzzle, options, size, allowed)
        if name is None:
            raise self._refusal(options, size, need, allowed)
        return name, need

    def budget_bound(self, puzzle: Puzzle, options: SolveOptions) -> Callable[[CnfSize], None]:
        """encode_puzzle's `bound`: OverBudget once the formula sized so far fits no solver it may use (the
        memory left is read once, at the start: a line at a time it would cost more than the line)."""
        allowed = memory.available(options)

        def bound(partial: CnfSize) -> None:
            name, need = self._fit(puzzle, options, partial, allowed)
            if name is None:
                raise self._refusal(options, partial, need, allowed, at_least=True)
        return bound

    def _fit(self, puzzle: Puzzle, options: SolveOptions, size: CnfSize, allowed: int) -> tuple[str | None, int]:
        """(the solver a formula of `size` fits in `allowed` bytes, its bytes), or (None, the bytes the named
        solver would need)."""
        cells = puzzle.width * puzzle.height
        limit = _solutions_wanted(options.max_solutions)

        def need(name: str) -> int:
            own = solver_bytes(name, size.clauses)
            if name in NON_INCREMENTAL and (limit is None or limit > 1):  # the follow-up solver comes after it
                own = max(own, solver_bytes(FOLLOW_UP_SOLVER, size.clauses))
            return formula_bytes(size, cells) + own

        if need(self.solver_name) <= allowed:
            return self.solver_name, need(self.solver_name)
        if not self.solver_chosen and need(MEMORY_FALLBACK) <= allowed:
            return MEMORY_FALLBACK, need(MEMORY_FALLBACK)
        return None, need(self.solver_name)

    def _refusal(self, options: SolveOptions, size: CnfSize, need: int, allowed: int,
                 at_least: bool = False) -> memory.OverBudget:
        more = "at least " if at_least else ""
        what = f"the CNF ({more}{size.clauses / 1e6:.1f} million clauses) in {self.solver_name}"
        advice = "the auto engine narrows the puzzle by line logic first" if options.fixed is None else ""
        return memory.refuse("sat", what, need, allowed, options, advice)

    def memory_need(self, puzzle: Puzzle, options: SolveOptions) -> int | None:
        """The bytes of the solver `plan` picks (OverBudget when none fits; OutOfTime past the time limit)."""
        return self.plan(puzzle, options, deadline=options.deadline())[1]

    def available(self) -> bool:
        return importlib.util.find_spec("pysat") is not None

    def version(self) -> str:
        import importlib.metadata  # here: importing it costs more than a small solve (`nonocp solve` start-up)

        return f"python-sat {importlib.metadata.version('python-sat')} ({self.solver_name})"

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        start = time.monotonic()
        deadline = options.deadline(start)
        choices = self._choices(options)
        if not isolated(options):
            stream, progress = options.on_solution, options.progress

            def report(grid: Grid, n: int) -> None:
                if stream is not None:
                    stream(grid)
                if progress is not None:
                    progress({"solutions": n})

            return self._solve(puzzle, options, choices, start, deadline, on_solution=report)
        return self._solve_in_child(puzzle, options, choices, start, deadline)

    def search(
        self, puzzle: Puzzle, options: SolveOptions, on_solution: Callable[[Grid, int], None] | None = None
    ) -> SolveResult:
        """`solve` in this process whatever the time limit (no forked child, no hard stop), with each solution
        reported as found: for callers that run it in a child of their own (the auto engine's race)."""
        start = time.monotonic()
        return self._solve(puzzle, options, self._choices(options), start, options.deadline(start), on_solution)

    def _choices(self, options: SolveOptions) -> _Choices:
        """The engine's own options from `options.extra`, read once and checked against its schema."""
        extra = options.extra
        return _Choices(self.settings.get(extra, "encoding", self.name), self.settings.get(extra, "phase", self.name),
                         self.settings.get(extra, "symmetric", self.name))

    def _solve(
        self,
        puzzle: Puzzle,
        options: SolveOptions,
        choices: _Choices,
        start: float,
        deadline: float | None,
        on_solution: Callable[[Grid, int], None] | None,
        on_searched: Callable[[SolveResult], None] | None = None,
        on_solver: Callable[[str], None] | None = None,
    ) -> SolveResult:
        chosen: list[str] = []

        def check(size: CnfSize) -> None:  # before any clause is written: refuse here, or pick the solver
            chosen.append(self.plan(puzzle, options, size)[0])
            if on_solver is not None:
                on_solver(chosen[0])

        try:
            if puzzle.has_counts:  # count-and-contiguity clues: their own encoding, with pysat's cardinality
                cnf = encode_counts(puzzle, pysat_cardinality, fixed=options.fixed)
            else:
                cnf = encode_puzzle(puzzle, choices.encoding, fixed=options.fixed, check=check, deadline=deadline,
                                     bound=self.budget_bound(puzzle, options))
        except OutOfTime:
            limit = _solutions_wanted(options.max_solutions)
            return SolveResult(status_of(0, False, limit, True), (), False, f"{self.name}:{self.solver_name}",
                               time.monotonic() - start,
                               {"solver": self.solver_name, "encoding": choices.encoding, "encoding_timed_out": True},
                               timed_out=True)
        solver_name = chosen[0] if chosen else self.solver_name
        # `on_solution` is this call's listener (the caller's stream, or the pipe to the parent), never
        # options.on_solution itself: in a child, that would run in a copy of the caller
        found = Found(options.keep, None if on_solution is None else (lambda grid: on_solution(grid, found.count)))
        search = _Search(cnf, solver_name, deadline, options.max_solutions, found, phase=choices.phase,
                         keep_blocking=bool(options.extra.get("proof_dir")))
        if choices.symmetric and not options.extra.get("proof_dir"):  # a proof refutes the formula as given
            symmetries = clue_symmetries(puzzle)
            if symmetries:
                search.stats["symmetries"] = [sym.name for sym in symmetries]
                search.symmetric = [(names, cnf.same_colour_clauses(groups))
                                    for names, groups in restrictions(symmetries)]
        if solver_name != self.solver_name:
            search.stats["solver_for_memory"] = f"{solver_name} (the CNF would not fit the memory budget in " \
                                                f"{self.solver_name})"
        search.run()
        status = status_of(len(found), search.exhausted, search.limit, search.timed_out)
        result = SolveResult(
            status=status,
            solutions=found.grids(),
            found=len(found),
            exhausted=search.exhausted,
            backend=f"{self.name}:{solver_name}",
            seconds=time.monotonic() - start,
            stats=search.stats,
            timed_out=ended_by_time(len(found), search.exhausted, search.limit, search.timed_out),
        )
        proof_dir = options.extra.get("proof_dir")
        if proof_dir and search.exhausted:
            if on_searched is not None:
                on_searched(result)
            proof = write_proof(cnf, search.blocking, proof_dir, puzzle, solver_name, deadline, search.stats,
                                force=bool(options.extra.get("proof_force")))
            result = dataclasses.replace(result, seconds=time.monotonic() - start, proof=proof)
        return result

    def _solve_in_child(
        self, puzzle: Puzzle, options: SolveOptions, choices: _Choices, start: float, deadline: float | None
    ) -> SolveResult:
        """`_solve` in a forked child, killed HARD_STOP_GRACE seconds after the deadline if it is still running
        (see nonocp.engines.forked: CaDiCaL's slices can overrun, Kissat cannot be stopped). Solutions come back as
        they are found, so a killed search still returns them."""
        found = Found.of(options)
        searched: list[SolveResult] = []
        solver = [self.solver_name]  # the one the child chose (a leaner one when memory is short)

        def on_message(message: tuple[str, Any]) -> None:
            kind, payload = message
            if kind == "solution":
                found.add(payload)
                if options.progress is not None:
                    options.progress({"solutions": len(found)})
            elif kind == "solver":
                solver[0] = payload
            else:
                searched.append(payload)

        def in_child(send: Callable[[Any], None]) -> SolveResult:
            return self._solve(
                puzzle, options, choices, start, deadline,
                on_solution=lambda grid, n: send(("solution", grid)),
                on_searched=lambda result: send(("searched", result)),
                on_solver=lambda name: send(("solver", name)),
            )

        kill_at = None if deadline is None else deadline + HARD_STOP_GRACE
        # The child's hard cap: what the budget leaves it (its own estimate refuses first, with a message)
        progress = options.progress
        tick = None if progress is None else (lambda: progress({"solutions": len(found)}))
        try:
            finished, result = call_in_child(in_child, kill_at, on_message, memory.available(options), options.cancel,
                                             tick)
        except memory.OverBudget as e:
            if str(e).startswith(f"{self.name}:"):
                raise
            raise memory.OverBudget(f"{self.name}: {e}") from None
        if finished:
            answer: SolveResult = result
            return answer
        seconds = time.monotonic() - start
        if searched:  # the search had ended; the proof solve was still running
            done = searched[-1]
            stats = {**done.stats, "proof_status": "timeout", "killed_at_time_limit": True}
            return dataclasses.replace(done, seconds=seconds, stats=stats)
        return SolveResult(
            status=status_of(len(found), False, _solutions_wanted(options.max_solutions), True),
            solutions=found.grids(),
            found=len(found),
            exhausted=False,
            backend=f"{self.name}:{solver[0]}",
            seconds=seconds,
            stats={"solver": solver[0], "encoding": choices.encoding, "killed_at_time_limit": True},
            timed_out=ended_by_time(len(found), False, _solutions_wanted(options.max_solutions), True),
        )


def _solutions_wanted(max_solutions: int | None) -> int | None:
    # asking for no solution still means deciding whether there is one
    return 1 if max_solutions is not None and max_solutions < 1 else max_solutions


class _Search:
    """The blocking-clause loop on one pysat solver (a fresh one per round for non-incremental solvers)."""

    def __init__(
        self,
        cnf: PuzzleCnf,
        solver_name: str,
        deadline: float | None,
        limit: int | None,
        found: Found,  # where each solution goes as it is found
        phase: str = DEFAULT_PHASE,
        keep_blocking: bool = False,  # every blocking clause kept, for a proof (else only those a new solver needs)
    ) -> None:
        self.cnf = cnf
        self.phase = phase
        self.solver_name = solver_name
        self.deadline = deadline
        self.found = found
        self.keep_blocking = keep_blocking
        self.limit = _solutions_wanted(limit)
        # the symmetric first round's restrictions, in order (SYMMETRIC_CPU): (moves, clauses)
        self.symmetric: list[tuple[tuple[str, ...], list[list[int]]]] | None = None
        # the blocking clauses a solver made afresh must be given (after a one-shot solver's round or the
        # symmetric round), and all of them for a proof; an incremental solver holds its own
        self.blocking: list[list[int]] = []
        self.exhausted = False
        self.timed_out = False
        self.stats: dict[str, Any] = {
            "solver": solver_name,
            "encoding": cnf.encoding,
            "variables": cnf.n_vars,
            "clauses": len(cnf.clauses),
            "cell_variables": cnf.stats.get("cell_vars", 0),
            "encode_seconds": round(cnf.seconds, 4),
            "load_seconds": 0.0,
            "solve_seconds": 0.0,
            "solves": 0,
        }

    def run(self) -> None:
        from pysat.solvers import Solver

        limit = self.limit
        name = self.solver_name  # the solver of the current round
        if self.symmetric is not None:
            name = self._symmetric_round()
        solver = None
        try:
            while limit is None or len(self.found) < limit:
                if self._out_of_time():
                    self.timed_out = True
                    return
                if solver is None:
                    t = time.monotonic()
                    solver = Solver(name=name, bootstrap_with=itertools.chain(self.cnf.clauses, self.blocking))
                    if self.found.latest is not None:  # after Kissat's or the symmetric round's: start next to it
                        with contextlib.suppress(NotImplementedError):  # solvers without phases keep their own
                            solver.set_phases(self._literals_of(x for row in self.found.latest.cells for x in row))
                    else:
                        self._set_phases(solver)
                    self.stats["load_seconds"] += time.monotonic() - t
                answer = self._solve_once(solver, name, self.deadline)
                if answer is None:
                    self.timed_out = True
                    return
                if not answer:
                    self.exhausted = True
                    return
                block = self._record(solver)
                if name not in NON_INCREMENTAL:
                    solver.add_clause(block)
                    if self.keep_blocking:
                        self.blocking.append(block)
                else:
                    self.blocking.append(block)
                    self._collect(solver)
                    solver.delete()
                    solver = None
                    name = FOLLOW_UP_SOLVER
                    self.stats["follow_up_solver"] = name
        finally:
            if solver is not None:
                self._collect(solver)
                solver.delete()
            self.stats["load_seconds"] = round(self.stats["load_seconds"], 4)
            self.stats["solve_seconds"] = round(self.stats["solve_seconds"], 4)
            self.stats["blocking_clauses"] = len(self.found)

    def _symmetric_round(self) -> str:
        """The formula with each of `symmetric`'s restrictions in turn, for up to SYMMETRIC_CPU CPU seconds in
        all, until one gives a solution: that is the first one. Runs on a solver that can be stopped
        (FOLLOW_UP_SOLVER in place of Kissat or Lingeling). Returns the solver of the rounds after it
        (FOLLOW_UP_SOLVER after a solution from a one-shot one)."""
        from pysat.solvers import Solver

        assert self.symmetric is not None
        name = FOLLOW_UP_SOLVER if self.solver_name in UNSTOPPABLE else self.solver_name
        t = time.monotonic()
        cpu_end = time.process_time() + SYMMETRIC_CPU
        answer: bool | None = False
        for moves, clauses in self.symmetric:
            solver = Solver(name=name, bootstrap_with=itertools.chain(self.cnf.clauses, clauses))
            try:
                self._set_phases(solver)
                answer = self._solve_once(solver, name, self.deadline, cpu_end)
                if answer:
                    self.stats["symmetric_moves"] = list(moves)
                    self.blocking.append(self._record(solver))
                self._collect(solver)
            finally:
                solver.delete()
            if answer is not False:  # found, or out of time
                break
        self.stats["symmetric_round"] = "found" if answer else "none" if answer is False else "out of time"
        self.stats["symmetric_seconds"] = round(time.monotonic() - t, 4)
        if answer and self.solver_name in NON_INCREMENTAL:
            self.stats["follow_up_solver"] = FOLLOW_UP_SOLVER
            return FOLLOW_UP_SOLVER
        return self.solver_name

    def _record(self, solver: Any) -> list[int]:
        """The solver's model as a solution found (counted, reported). Returns its blocking clause."""
        grid = self.cnf.decode(solver.get_model())
        self.found.add(grid)
        return self.cnf.blocking_clause(grid)

    def _set_phases(self, solver: Any) -> None:
        if self.phase != "background":
            return
        # every cell background (CaDiCaL's own default phase is true, which in black and white means ink first)
        try:
            solver.set_phases(self._literals_of([0] * len(self.cnf.cell_literals)))
        except NotImplementedError:
            pass  # Kissat in pysat: its own default phase
        self.stats["phase"] = self.phase

    def _literals_of(self, colours: Iterable[int]) -> list[int]:
        """Phases for the grid whose cells (row-major) have `colours`: cell_literals[i][v] ("cell i has colour
        v") true for its colour and false for the others; constants (+-TRUE) are fixed and left out."""
        out: list[int] = []
        for lits, v in zip(self.cnf.cell_literals, colours, strict=True):
            out.extend(lit if k == v else -lit for k, lit in enumerate(lits) if abs(lit) != TRUE)
        return out

    def _out_of_time(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _solve_once(self, solver: Any, name: str, deadline: float | None, cpu_end: float | None = None) -> bool | None:
        """True / False, or None when stopped at `deadline` (or at `cpu_end`, see solve_until)."""
        self.stats["solves"] += 1
        t = time.monotonic()
        try:
            return solve_until(solver, name, deadline, cpu_end)
        finally:
            self.stats["solve_seconds"] += time.monotonic() - t

    def _collect(self, solver: Any) -> None:
        """Add the solver's conflict/decision counters to the stats (not every solver reports them)."""
        try:
            acc = solver.accum_stats() or {}
        except (AttributeError, NotImplementedError):
            return
        for key in ("conflicts", "decisions", "propagations", "restarts"):
            if key in acc:
                self.stats[key] = self.stats.get(key, 0) + int(acc[key])


# The pysat encoding of count clues' cardinality constraints (benchmarks/results/count-clues.md, "sat").
CARDINALITY_ENCODING = "seqcounter"


def pysat_cardinality(lits: list[int], bound: int, relation: str, top: int) -> tuple[list[list[int]], int]:
    """encode.counts_cnf's cardinality constraints by pysat (CardEnc): `relation` ("equals" or "atleast")
    `bound` of `lits`, auxiliary variables above `top`. (clauses, new top)."""
    from pysat.card import CardEnc, EncType

    encode = CardEnc.equals if relation == "equals" else CardEnc.atleast
    cnf = encode(lits=lits, bound=bound, top_id=top, encoding=getattr(EncType, CARDINALITY_ENCODING))
    return cnf.clauses, max(top, cnf.nv)


def solve_until(solver: Any, solver_name: str, deadline: float | None, cpu_end: float | None = None) -> bool | None:
    """solver.solve(), stopped at `deadline` (a time.monotonic() value) or when this process's CPU time
    (time.process_time()) reaches `cpu_end`: True / False, or None if stopped.

    pysat offers two ways to stop a solve, and solvers differ in which they support:
    - interrupt(): a timer thread calls it at the deadline (Glucose, MiniSat, Maple*, ...);
    - conflict budgets: CaDiCaL's interrupt() raises NotImplementedError in pysat, so it runs in slices of
      `conf_budget` conflicts (SLICE_SCHEDULE) with the clock checked in between; the solver keeps what it
      learnt from one slice to the next. The slice sizes follow a fixed schedule rather than the measured
      speed: slices sized by speed made the search depend on the machine's load (the same solve took very
      different numbers of conflicts from one run to the next: benchmarks/results/sat.md, "Fixed conflict
      slices").
    Lingeling and Kissat support neither: they run to the end and the limit is checked between solves.
    """
    if (deadline is None and cpu_end is None) or solver_name in UNSTOPPABLE:
        return bool(solver.solve())
    if solver_name in BUDGET_ONLY:
        # Every slice ends a solve call, and the next one starts over from the root, so the slice sizes steer
        # the search. They follow a fixed schedule (SLICE_SCHEDULE), not the measured speed, so the same
        # puzzle takes the same path on every run and machine; only a slice that would run past the deadline
        # is cut to fit it (by the speed of the previous slice).
        schedule = iter(SLICE_SCHEDULE)
        budget = next(schedule)
        while True:
            solver.conf_budget(budget)
            t = time.monotonic()
            answer = solver.solve_limited()
            if answer is not None:
                return bool(answer)
            now = time.monotonic()
            if (deadline is not None and now >= deadline) or (cpu_end is not None and time.process_time() >= cpu_end):
                return None
            rate = budget / max(now - t, 1e-3)  # conflicts a second in the slice just run
            budget = next(schedule, SLICE_SCHEDULE[-1])
            if deadline is not None:
                budget = max(500, min(budget, int(rate * (deadline - now))))
    stop = threading.Event()

    def interrupt_at_the_limit() -> None:  # a timer thread: the wall-clock deadline, or the CPU end polled
        while not stop.wait(_until(deadline, cpu_end)):
            if (deadline is not None and time.monotonic() >= deadline) or (
                    cpu_end is not None and time.process_time() >= cpu_end):
                solver.interrupt()
                return

    timer = threading.Thread(target=interrupt_at_the_limit, daemon=True)
    timer.start()
    try:
        answer = solver.solve_limited(expect_interrupt=True)
    finally:
        stop.set()
        timer.join()
    return None if answer is None else bool(answer)


CPU_POLL = 0.1  # seconds between two looks at the process's CPU time while a CPU limit runs


def _until(deadline: float | None, cpu_end: float | None) -> float:
    """How long the timer thread of solve_until sleeps before it looks again."""
    wait = CPU_POLL if cpu_end is not None else float("inf")
    if deadline is not None:
        wait = min(wait, max(0.0, deadline - time.monotonic()))
    return wait


def write_proof(
    cnf: PuzzleCnf,
    blocking: list[list[int]],
    proof_dir: str | os.PathLike[str],
    puzzle: Puzzle,
    solver_name: str,
    deadline: float | None,
    stats: dict[str, Any],
    force: bool = False,
) -> Proof | None:
    """Write the final formula and a DRAT refutation of it; the Proof, or None if the proof solve
    ran out of time (the CNF is still written) or, impossibly, found the formula satisfiable. Both files
    go through the one write path (nonocp.core.outputs: whole or not at all, a read-only file only with
    `force`)."""
    from pysat.solvers import Solver

    os.makedirs(proof_dir, exist_ok=True)
    cnf_path, proof_path = proof_files(os.fspath(proof_dir), puzzle.fingerprint())
    comments = [f"{puzzle.title or 'untitled'}: {len(blocking)} blocking clause(s) at the end, one per solution found"]
    write_file(cnf_path, to_dimacs(cnf, blocking, comments), force=force)
    prover = solver_name if solver_name in PROOF_CAPABLE else PROOF_SOLVER
    t = time.monotonic()
    with Solver(name=prover, bootstrap_with=itertools.chain(cnf.clauses, blocking), with_proof=True) as solver:
        answer = solve_until(solver, prover, deadline)
        stats["proof_seconds"] = round(time.monotonic() - t, 4)
        stats["proof_solver"] = prover
        if answer is not False:
            stats["proof_status"] = "timeout" if answer is None else "sat (not a refutation)"
            return Proof(cnf_path=cnf_path, proof_path=None)
        lines = solver.get_proof() or []
    write_file(proof_path, "".join(line + "\n" for line in lines), force=force)
    stats["proof_status"] = "written"
    stats["proof_lines"] = len(lines)
    return Proof(cnf_path=cnf_path, proof_path=proof_path)


__all__ = ["DEFAULT_SOLVER", "SatBackend", "canonical_solver_name", "write_proof"]
