"""The CP-SAT engine: OR-Tools CP-SAT with one `add_automaton` constraint per row and column.

Model (written out in models/automaton.md, and in MiniZinc in models/nonogram.mzn):
- one variable per cell holding its palette index (a Boolean in black-and-white puzzles); its domain is
  first cut to the colours that both its row and its column allow on an otherwise empty line (the live
  transitions of the two clue automata), which fixes the cells simple overlap logic would fix;
- each line's clue automaton (nonocp.encode.automaton) constrains the line's cells.

Several solutions (`max_solutions`, default 2, so that every answer says whether it is unique):
- "enumerate" (default): one search with `enumerate_all_solutions`, stopped at `max_solutions`. CP-SAT
  then keeps every feasible solution through presolve (fewer reductions), but presolves once and keeps
  its learnt clauses and phases from one solution to the next.
- "block" (`cpsat:block`): solve, add a clause saying "differ from every solution found so far", solve
  again, until `max_solutions` solutions or INFEASIBLE (INFEASIBLE is the proof that no further
  solution exists). Every solve starts from scratch, full presolve included, which is what makes block
  slower on the survey set (benchmarks/results/cpsat.md, "Several solutions: enumerate or block").

ortools is imported only here, and only when a puzzle is solved: `nonocp show` must not pay for it.

Time limit: `time_limit` is a budget for the whole call, counted from after the ortools import (the
import is no search and cannot be interrupted, and takes seconds on a loaded machine, most of it pandas; it
is reported as `stats["import_seconds"]`). Model building checks the deadline line by line, and every CP-SAT
solve (the enumeration, each block-and-resolve re-solve) gets only what is left of it. When the budget
runs out the answer is `timeout` with the solutions found so far (or `multiple` if two were found).
CP-SAT checks its limit between steps, and some steps cannot be interrupted (the automaton expansion at
the start of presolve, single presolve passes), so on its own it overruns, more with bigger models and a
busier machine (benchmarks/results/time-limits.md, "cpsat"). The search therefore runs in a forked child
(nonocp.engines.forked), killed HARD_STOP_GRACE seconds after the deadline; the solutions it had sent back
are kept. The child is also what makes Ctrl-C an interrupt (exit 130): in process, CP-SAT catches SIGINT
and stops as if its time limit had run out. `extra={"hard_stop": False}` keeps the search in this process.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from nonocp.core.errors import BackendUnavailable, NonocpError, OutOfTime
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Clue, Puzzle
from nonocp.core.result import SolveResult, Status, ended_by_time, status_of
from nonocp.encode.automaton import LineAutomaton, clue_automaton, live_states
from nonocp.engines import memory
from nonocp.engines.contract import Backend, Capabilities, Setting, Settings, Stat, Stats
from nonocp.engines.forked import HARD_STOP_GRACE, call_in_child, isolated
from nonocp.engines.found import Found

if TYPE_CHECKING:
    from nonocp.engines.contract import SolveOptions

UNIQUENESS_MODES = ("block", "enumerate")
CELL_MODELS = ("int", "bool")
# One worker: deterministic, and at least as fast as two on the survey set on 2 shared cores
# (benchmarks/results/cpsat.md, "Workers"). `workers=0` asks CP-SAT for all cores.
DEFAULT_WORKERS = 1
# How much probing CP-SAT does before its search (`--option probing=light|full`). "full" is CP-SAT's own
# default: up to three presolve rounds, each probing up to 1 unit of deterministic time, and another
# probing pass of up to 1 unit when the search starts. On these models the later rounds fix almost nothing
# that the first did not, so "light" keeps one presolve round and caps the search-start probing at 0.1:
# faster in total on the numbered survey puzzles, every one decided either way (benchmarks/results/cpsat.md,
# "The survey set").
PROBING_LEVELS = ("light", "full")
DEFAULT_PROBING = "light"
LIGHT_PROBING_PARAMS = {"max_presolve_iterations": 1, "probing_deterministic_time_limit": 0.1}


def _cp_model() -> Any:  # ortools ships no type information
    from ortools.sat.python import cp_model

    return cp_model


def _check_deadline(deadline: float | None) -> None:
    if deadline is not None and time.monotonic() >= deadline:
        raise OutOfTime


def allowed_colors(automaton: LineAutomaton, length: int) -> list[set[int]]:
    """allowed[p] = colours some accepted line of `length` has at cell p (exact for the line alone)."""
    live = live_states(automaton, length)
    by_from: dict[int, list[tuple[int, int]]] = {}
    for a, v, b in automaton.transitions:
        by_from.setdefault(a, []).append((v, b))
    out: list[set[int]] = []
    for p in range(length):
        nxt = live[p + 1]
        out.append({v for s in live[p] for v, t in by_from.get(s, ()) if t in nxt})
    return out


def cell_domains(
    puzzle: Puzzle,
    fixed: dict[tuple[int, int], int] | None = None,
    cut: bool = True,
    deadline: float | None = None,
) -> list[list[list[int]]]:
    """domains[r][c] = sorted colours allowed at (r, c) by both its row and its column on their own, and
    by `fixed` ({(r, c): bit mask of allowed palette indices}, SolveOptions.fixed) when given.
    cut=False keeps every palette colour (the textbook model, for comparison).
    Raises OutOfTime when `deadline` (a time.monotonic() value) passes: the cuts are Python work, seconds
    on a big puzzle on a loaded machine."""
    w, h = puzzle.width, puzzle.height
    if not cut:
        every = list(range(len(puzzle.palette)))
        domains = [[every for _ in range(w)] for _ in range(h)]
        for (r, c), mask in (fixed or {}).items():
            domains[r][c] = [v for v in every if mask >> v & 1]
        return domains
    row_allowed = [_allowed(clue, w, deadline) for clue in cast("tuple[Clue, ...]", puzzle.rows)]  # run clues
    col_allowed = [_allowed(clue, h, deadline) for clue in cast("tuple[Clue, ...]", puzzle.cols)]
    domains = [[sorted(row_allowed[r][c] & col_allowed[c][r]) for c in range(w)] for r in range(h)]
    for (r, c), mask in (fixed or {}).items():
        domains[r][c] = [v for v in domains[r][c] if mask >> v & 1]
    return domains


def _allowed(clue: Clue, length: int, deadline: float | None = None) -> list[set[int]]:
    _check_deadline(deadline)
    return allowed_colors(clue_automaton(clue), length)


@dataclass
class NonogramModel:
    """A built CP-SAT model with the handles the solve loop needs."""

    model: Any  # cp_model.CpModel
    cells: list[list[Any]]  # cells[r][c]: IntVar / BoolVar holding the palette index, or an int if fixed
    domains: list[list[list[int]]]
    # differs[(r, c, v)]: a literal that implies "cell (r,c) is not colour v" (built on demand)
    differs: dict[tuple[int, int, int], Any]
    color_literals: dict[tuple[int, int, int], Any]  # the "bool" cell model's literal for cell == v
    build_seconds: float
    empty: bool = False  # some cell has no colour left: no solution, known before any search

    def differs_literal(self, r: int, c: int, v: int) -> Any:
        """A literal whose truth implies cell (r, c) != v: the building block of a blocking clause."""
        key = (r, c, v)
        lit = self.differs.get(key)
        if lit is not None:
            return lit
        x = self.cells[r][c]
        if (r, c, v) in self.color_literals:
            lit = self.color_literals[key].Not()
        elif self.domains[r][c] == [0, 1]:  # a Boolean cell: "not v" is a literal already
            lit = x.Not() if v == 1 else x
        else:
            # Half-reification is enough: the clause only needs "lit -> x != v"; if x != v the solver
            # is free to make lit true.
            lit = self.model.new_bool_var(f"d_{r}_{c}_{v}")
            self.model.add(x != v).only_enforce_if(lit)
        self.differs[key] = lit
        return lit

    def forbid(self, grid: Grid) -> bool:
        """Add "differ from `grid` somewhere"; False if that is impossible (every cell is fixed).

        Only cells that hold a colour in `grid` (and are not fixed) need to be in the clause: the clues fix
        how many cells each line paints, so another solution that differs anywhere also moves away from
        some painted cell of `grid`. That halves the clause of a typical picture.
        """
        lits = [
            self.differs_literal(r, c, v)
            for r, row in enumerate(grid.cells)
            for c, v in enumerate(row)
            if v and len(self.domains[r][c]) > 1
        ]
        if not lits:
            return False
        self.model.add_bool_or(lits)
        return True


def build_model(
    puzzle: Puzzle,
    cell_model: str = "int",
    fixed: dict[tuple[int, int], int] | None = None,
    cut_domains: bool = True,
    deadline: float | None = None,
    count_runs: str = "starts",
) -> NonogramModel:
    """One variable per cell (domain cut by both lines), one automaton per row and column.

    cell_model (colour puzzles only): "int" = one integer per cell; "bool" = one Boolean per cell and
    colour (exactly one true), channelled to the integer the automata read.
    `fixed` restricts cells before solving (SolveOptions.fixed). cut_domains=False skips the per-line
    domain cuts (the plain textbook model, kept to measure what the cuts are worth).
    Raises OutOfTime when `deadline` (a time.monotonic() value) passes while building.
    """
    if cell_model not in CELL_MODELS:
        raise NonocpError(f"cpsat: unknown cell model {cell_model!r}; choose from {', '.join(CELL_MODELS)}")
    if puzzle.has_counts:  # count-and-contiguity clues: their own model (cardinality and runs per colour)
        from nonocp.engines.cpsat_counts import build_counts_model

        counted: NonogramModel = build_counts_model(puzzle, _cp_model(), NonogramModel, fixed, cut_domains,
                                                    lambda: _check_deadline(deadline), count_runs)
        return counted
    start = time.perf_counter()
    cp = _cp_model()
    model = cp.CpModel()
    domains = cell_domains(puzzle, fixed, cut_domains, deadline)
    empty = any(not d for row in domains for d in row)
    cells: list[list[Any]] = []
    color_literals: dict[tuple[int, int, int], Any] = {}
    for r, row in enumerate(domains):
        _check_deadline(deadline)
        out = []
        for c, dom in enumerate(row):
            if len(dom) <= 1:
                out.append(dom[0] if dom else 0)  # fixed (or contradictory, caught by `empty`)
            elif dom == [0, 1]:
                out.append(model.new_bool_var(f"x_{r}_{c}"))
            else:
                x = model.new_int_var_from_domain(cp.Domain.from_values(dom), f"x_{r}_{c}")
                if cell_model == "bool":
                    lits = []
                    for v in dom:
                        b = model.new_bool_var(f"b_{r}_{c}_{v}")
                        model.add(x == v).only_enforce_if(b)
                        color_literals[(r, c, v)] = b
                        lits.append(b)
                    model.add_exactly_one(lits)
                out.append(x)
        cells.append(out)
    if not empty:
        rows, cols = cast("tuple[Clue, ...]", puzzle.rows), cast("tuple[Clue, ...]", puzzle.cols)
        lines = [(clue, cells[r]) for r, clue in enumerate(rows)]
        lines += [(clue, [cells[r][c] for r in range(puzzle.height)]) for c, clue in enumerate(cols)]
        # all() stops at the first line whose cells are all fixed to a pattern its clue rejects
        empty = not all(_add_line(model, clue, line, deadline) for clue, line in lines)
    return NonogramModel(model, cells, domains, {}, color_literals, time.perf_counter() - start, empty)


def _add_line(model: Any, clue: Clue, line: list[Any], deadline: float | None = None) -> bool:
    """Constrain one line by its clue's automaton; False if its cells are all fixed and the clue rejects them."""
    _check_deadline(deadline)
    a = clue_automaton(clue)
    if all(isinstance(x, int) for x in line):
        # Per-cell domains can each be allowed by the line and still not form an accepted line together.
        return a.accepts(line)
    model.add_automaton(line, a.start, sorted(a.accepting), list(a.transitions))
    return True


def grid_of(cells: list[list[Any]], value: Callable[[Any], Any] | None) -> Grid:
    """Read the cell values through `value` (a solver's or a callback's; None when every cell is fixed)."""
    def read(x: Any) -> int:
        if isinstance(x, int):
            return x
        assert value is not None, "a cell the model left open, and nothing to read it from"
        return int(value(x))

    return Grid(tuple(tuple(read(x) for x in row) for row in cells))


class _Collector:
    """Solution callback for the enumerate mode. Ignores repeats (OR-Tools 9.11 once reported the same
    solution again, issues #4376/#4268) and stops the search at the limit, or at the deadline (CP-SAT has
    its own limit too; this one also covers the time the Python callback itself takes)."""

    found: Found
    repeats: int
    out_of_time: bool
    stopped: bool

    def __new__(cls, *args: Any, **kwargs: Any) -> _Collector:  # subclass the ortools class lazily, at first use
        base: Any = _cp_model().CpSolverSolutionCallback

        class Collector(base):  # type: ignore[misc]  # ortools' class, typed Any
            def __init__(self, cells: list[list[Any]], limit: int | None,
                         progress: Callable[[dict[str, Any]], None] | None, deadline: float | None,
                         found: Found) -> None:
                super().__init__()
                self.cells = cells
                self.limit = limit
                self.progress = progress
                self.deadline = deadline
                self.out_of_time = False
                self.found = found  # distinct: a repeat is not added
                self.repeats = 0
                self.stopped = False

            def on_solution_callback(self) -> None:
                if not self.found.add(grid_of(self.cells, self.value)):
                    self.repeats += 1
                    return
                if self.progress is not None:
                    self.progress({"solutions": len(self.found)})
                if self.limit is not None and len(self.found) >= self.limit:
                    self.stopped = True
                    self.stop_search()
                elif self.deadline is not None and time.monotonic() >= self.deadline:
                    self.out_of_time = True
                    self.stop_search()

        made: _Collector = Collector(*args, **kwargs)
        return made


class CpsatBackend(Backend):
    """OR-Tools CP-SAT. Variant (`cpsat:enumerate`, `cpsat:bool`, `cpsat:enumerate,plain`, ...) or
    `extra={"uniqueness": ..., "cell_model": ..., "cut_domains": ..., "probing": ...}` choose the
    uniqueness mode, the colour cell model, whether cell domains are first cut by each line and how much
    CP-SAT probes (see DEFAULT_PROBING). `plain` is the textbook model with CP-SAT's own parameters:
    domains not cut, full probing. Raw CP-SAT parameters for experiments: `extra={"params": {...}}`."""

    name = "cpsat"
    # comma-separated and combinable: `cpsat:block,bool`
    variants = (*UNIQUENESS_MODES, *CELL_MODELS, "plain")
    settings = Settings(
        Setting("uniqueness", UNIQUENESS_MODES, "enumerate", "several solutions by one enumeration or by re-solving"),
        Setting("cell_model", CELL_MODELS, "int", "a colour cell as one integer or one Boolean per colour"),
        Setting("cut_domains", bool, True, "cut each cell's colours by its row and column first"),
        Setting("probing", PROBING_LEVELS, DEFAULT_PROBING, "how much CP-SAT probes before its search"),
        Setting("count_runs", ("starts", "automaton"), "starts",
               "count clues: runs by run-start Booleans or by an automaton (engines/cpsat_counts.py)"),
    )
    # no proofs (CP-SAT writes none); no solution callback: its own callback runs inside the C++ search
    capabilities = Capabilities(colours=True, enumerate=True, fixed=True, proofs=False, on_solution=False)
    stats = Stats(
        Stat("uniqueness", str, "enumerate or block"),
        Stat("cell_model", str, "int or bool (always bool in black and white)"),
        Stat("workers", int, "CP-SAT workers"),
        Stat("probing", str, "light or full"),
        Stat("import_seconds", float, "importing ortools (not counted in the time limit)"),
        Stat("build_seconds", float, "building the model"),
        Stat("fixed_cells", int, "cells fixed before search (one colour left)"),
        Stat("solves", int, "CP-SAT solve calls"),
        Stat("conflicts", int, "CP-SAT conflicts, all solves"),
        Stat("branches", int, "CP-SAT branches, all solves"),
        Stat("wall_time", float, "CP-SAT's own wall time, all solves"),
        Stat("deterministic_time", float, "CP-SAT's work measure, not inflated by a busy machine"),
        Stat("repeated_solutions", int, "solutions CP-SAT reported twice in an enumeration (ignored)"),
        Stat("killed_at_time_limit", bool, "the forked search was still running after the deadline and was killed"),
        always=("uniqueness", "solves", "conflicts", "build_seconds"),
    )

    def __init__(self, variant: str = "") -> None:
        self.variant = variant
        self.uniqueness = "enumerate"
        self.cell_model = "int"
        self.cut_domains = True
        self.probing = DEFAULT_PROBING
        for part in filter(None, variant.split(",")):
            if part in UNIQUENESS_MODES:
                self.uniqueness = part
            elif part in CELL_MODELS:
                self.cell_model = part
            elif part == "plain":
                self.cut_domains = False
                self.probing = "full"
            else:
                raise BackendUnavailable(f"cpsat: unknown variant {part!r}; choose from {', '.join(self.variants)}")

    def available(self) -> bool:
        # find_spec on the dotted name would import ortools/__init__ (and `logging`); checking the top
        # package and the file is enough and costs nothing.
        spec = importlib.util.find_spec("ortools")
        if spec is None or not spec.submodule_search_locations:
            return False
        return any(
            os.path.exists(os.path.join(loc, "sat", "python", "cp_model.py")) for loc in spec.submodule_search_locations
        )

    def version(self) -> str:
        import importlib.metadata  # here: importing it costs more than a small solve (`nonocp solve` start-up)

        try:
            return f"ortools {importlib.metadata.version('ortools')}"
        except importlib.metadata.PackageNotFoundError:
            return "ortools (version unknown)"

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        # Import first, then start the clock: the import is no search, cannot be interrupted, and takes
        # seconds on a loaded machine; counting it made a 30 s budget run out before the first solve
        # (benchmarks/results/time-limits.md, "cpsat"). It is reported on its own (0 once ortools is loaded).
        before_import = time.monotonic()
        _cp_model()
        start = time.monotonic()
        import_seconds = start - before_import
        deadline = options.deadline(start)
        if not isolated(options):
            return self._solve(puzzle, options, start, deadline, import_seconds, on_solution=options.on_solution)
        return self._solve_in_child(puzzle, options, start, deadline, import_seconds)

    def _solve_in_child(self, puzzle: Puzzle, options: SolveOptions, start: float, deadline: float | None,
                        import_seconds: float) -> SolveResult:
        """`_solve` in a forked child (nonocp.engines.forked): Ctrl-C ends the command instead of reading as
        CP-SAT's own time limit (CP-SAT catches SIGINT in process), and a search still running HARD_STOP_GRACE
        seconds after the deadline is killed (some CP-SAT steps cannot be interrupted). ortools is imported
        here first, so a child costs a fork, not an import. Solutions come back as they are found."""
        found = Found.of(options)

        def on_message(grid: Grid) -> None:
            found.add(grid)
            if options.progress is not None:
                options.progress({"solutions": len(found)})

        def in_child(send: Callable[[Any], None]) -> SolveResult:
            # in the child the caller's progress callback would report into a copy of the caller: send instead
            sending = dataclasses.replace(options, progress=None)
            return self._solve(puzzle, sending, start, deadline, import_seconds, on_solution=send)

        kill_at = None if deadline is None else deadline + HARD_STOP_GRACE
        # Memory: CP-SAT's presolve expands the line automata into Booleans, and how many it keeps depends
        # on what its propagation fixes on the way (a random 200x200 grid takes several times what a
        # 512x512 picture takes: benchmarks/results/memory.md), so no estimate made before solving is
        # worth having. The child gets the budget
        # as a hard cap instead; CP-SAT does not survive a failed allocation, and its crash at the cap is
        # reported as the puzzle not fitting.
        progress = options.progress
        tick = None if progress is None else (lambda: progress({"solutions": len(found)}))
        try:
            finished, result = call_in_child(in_child, kill_at, on_message, memory.available(options), options.cancel,
                                             tick)
        except memory.OverBudget as e:
            raise memory.OverBudget(f"cpsat: {e}") from None
        if finished:
            answer: SolveResult = result
            return answer
        limit = None if options.max_solutions is None else max(1, options.max_solutions)
        return SolveResult(
            status=status_of(len(found), False, limit, True),
            solutions=found.grids(),
            found=len(found),
            exhausted=False,
            backend=self.name,
            seconds=time.monotonic() - start,
            stats={"uniqueness": self.settings.get(options.extra, "uniqueness", self.name, self.uniqueness),
                   "import_seconds": round(import_seconds, 4), "build_seconds": 0.0, "solves": 0, "conflicts": 0,
                   "killed_at_time_limit": True},
            timed_out=ended_by_time(len(found), False, limit, True),
        )

    def _solve(self, puzzle: Puzzle, options: SolveOptions, start: float, deadline: float | None,
               import_seconds: float, on_solution: Callable[[Grid], None] | None = None) -> SolveResult:
        """The solve itself, in whichever process runs it; `on_solution` hears of each new solution (the caller's
        stream in its process, the pipe to it in a child: never options.on_solution from a child)."""
        extra = options.extra or {}
        get = self.settings.get
        uniqueness = get(extra, "uniqueness", self.name, self.uniqueness)
        cell_model = get(extra, "cell_model", self.name, self.cell_model)
        probing = get(extra, "probing", self.name, self.probing)
        cut_domains = get(extra, "cut_domains", self.name, self.cut_domains)
        # CP-SAT parameters for every solve of this call: the probing level's, then raw ones for experiments
        # and benchmarks (extra={"params": {"symmetry_level": 0}}), which win
        params = {**(LIGHT_PROBING_PARAMS if probing == "light" else {}), **extra.get("params", {})}
        limit = options.max_solutions
        if limit is not None:
            limit = max(1, limit)
        stats: dict[str, Any] = {
            "uniqueness": uniqueness,
            "cell_model": cell_model if not puzzle.palette.is_black_and_white else "bool",
            "workers": options.workers if options.workers is not None else DEFAULT_WORKERS,
            "probing": probing,
            "import_seconds": round(import_seconds, 4),
            "build_seconds": 0.0,
            "fixed_cells": 0,
            "solves": 0,
            "conflicts": 0,
            "branches": 0,
            "wall_time": 0.0,
            "deterministic_time": 0.0,  # CP-SAT's work measure: unlike wall time, not inflated by a busy machine
            "repeated_solutions": 0,
        }
        # distinct: CP-SAT's enumeration once reported a solution twice (see _Collector)
        found = Found(options.keep, on_solution, distinct=True)
        built: NonogramModel | None
        try:
            built = build_model(puzzle, cell_model, options.fixed, cut_domains, deadline,
                                get(extra, "count_runs", self.name))
        except OutOfTime:  # the budget ran out before the model was complete: no search at all
            built = None
        if built is None:
            exhausted, timed_out = False, True
            stats["build_seconds"] = round(time.monotonic() - start, 4)
        else:
            stats["build_seconds"] = round(built.build_seconds, 4)
            stats["fixed_cells"] = sum(1 for row in built.cells for x in row if isinstance(x, int))
            if built.empty:
                exhausted, timed_out = True, False
            elif all(isinstance(x, int) for row in built.cells for x in row):
                # Every cell fixed before search and every line checked against its automaton: that grid is
                # the one solution. (Handled here: an empty model's enumeration need not call the callback.)
                found.add(grid_of(built.cells, None))
                exhausted, timed_out = True, False
            elif uniqueness == "enumerate":
                exhausted, timed_out = self._enumerate(built, options, limit, deadline, stats, params, found)
            else:
                exhausted, timed_out = self._block(built, options, limit, deadline, stats, params, found)
        stats["wall_time"] = round(stats["wall_time"], 4)
        stats["deterministic_time"] = round(stats["deterministic_time"], 4)
        status = status_of(len(found), exhausted, options.max_solutions, timed_out)
        return SolveResult(
            status=status,
            solutions=found.grids(),
            exhausted=exhausted and status is not Status.TIMEOUT,
            backend=self.name,
            seconds=time.monotonic() - start,
            stats=stats,
            timed_out=ended_by_time(len(found), exhausted, options.max_solutions, timed_out),
            found=len(found),
        )

    # -- the two ways of finding several solutions ------------------------------------------------

    def _solver(self, options: SolveOptions, deadline: float | None, params: dict[str, Any]) -> Any:
        cp = _cp_model()
        solver = cp.CpSolver()
        p = solver.parameters
        p.num_workers = options.workers if options.workers is not None else DEFAULT_WORKERS
        if options.seed is not None:  # CP-SAT takes a 32-bit seed; any integer is folded into that range
            p.random_seed = int(options.seed) % 2**31
        if deadline is not None:
            p.max_time_in_seconds = max(0.001, deadline - time.monotonic())
        for key, value in params.items():
            if not hasattr(p, key):
                raise NonocpError(f"cpsat: unknown CP-SAT parameter {key!r}")
            setattr(p, key, value)
        return solver

    @staticmethod
    def _account(solver: Any, stats: dict[str, Any]) -> None:
        stats["solves"] += 1
        stats["conflicts"] += solver.num_conflicts
        stats["branches"] += solver.num_branches
        stats["wall_time"] += solver.wall_time
        stats["deterministic_time"] += solver.deterministic_time

    def _block(self, built: NonogramModel, options: SolveOptions, limit: int | None, deadline: float | None,
               stats: dict[str, Any], params: dict[str, Any], found: Found) -> tuple[bool, bool]:
        """Solve, forbid what was found, solve again: until the limit or INFEASIBLE. Each solve gets only what
        is left of the deadline; a solve that ends after it still counts (its answer is sound).
        (exhausted, timed out); the solutions go to `found`."""
        cp = _cp_model()
        while limit is None or len(found) < limit:
            if deadline is not None and time.monotonic() >= deadline:
                return False, True
            solver = self._solver(options, deadline, params)
            code = solver.solve(built.model)
            self._account(solver, stats)
            if code == cp.INFEASIBLE:
                return True, False
            if code == cp.MODEL_INVALID:
                raise NonocpError(f"cpsat: the model is invalid ({built.model.validate()}); this is a bug")
            if code not in (cp.OPTIMAL, cp.FEASIBLE):
                return False, True  # UNKNOWN: the time ran out
            grid = grid_of(built.cells, solver.value)
            if not found.add(grid):  # cannot happen with a correct blocking clause; never loop on it
                raise NonocpError("cpsat: the solver returned a forbidden solution again; this is a bug")
            if options.progress is not None:
                options.progress({"solutions": len(found)})
            if not built.forbid(grid):
                return True, False  # every cell is fixed: nothing else can exist
        return False, False

    def _enumerate(self, built: NonogramModel, options: SolveOptions, limit: int | None, deadline: float | None,
                   stats: dict[str, Any], params: dict[str, Any], found: Found) -> tuple[bool, bool]:
        """One search that reports every solution (presolve restricted by CP-SAT in this mode). (exhausted,
        timed out); the solutions go to `found`."""
        cp = _cp_model()
        if deadline is not None and time.monotonic() >= deadline:
            return False, True
        solver = self._solver(options, deadline, params)
        # One worker: with several, enumeration of a 5x5 permutation puzzle (120 solutions) ran for
        # minutes here; the search is sequential by nature. `workers` applies to the block mode.
        solver.parameters.num_workers = 1
        stats["workers"] = 1
        solver.parameters.enumerate_all_solutions = True
        collector = _Collector(built.cells, limit, options.progress, deadline, found)
        code = solver.solve(built.model, collector)
        self._account(solver, stats)
        stats["repeated_solutions"] = collector.repeats
        if code == cp.MODEL_INVALID:
            raise NonocpError(f"cpsat: the model is invalid ({built.model.validate()}); this is a bug")
        if collector.out_of_time:
            return False, True
        if collector.stopped:
            return False, False
        if code in (cp.OPTIMAL, cp.INFEASIBLE):
            return True, False
        return False, True
