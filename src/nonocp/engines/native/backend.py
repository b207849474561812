"""NativeBackend: the `native` engine behind `nonocp.solve` and `--backend native`."""

from __future__ import annotations

import time
from typing import Any, cast

from nonocp.core.cancel import Cancel
from nonocp.core.errors import BackendUnavailable, OutOfTime
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Clue, Puzzle
from nonocp.core.result import SolveResult, ended_by_time, status_of
from nonocp.engines.contract import (
    Backend,
    BudgetMeter,
    Capabilities,
    Narrowing,
    Setting,
    Settings,
    SolveOptions,
    Stat,
    Stats,
)
from nonocp.engines.found import Found
from nonocp.engines.native.cdcl import cdcl_enumerate
from nonocp.engines.native.engine import Engine
from nonocp.engines.native.search import enumerate_solutions
from nonocp.engines.native.trace import Observer

VERSION = "1.0"


class _UntilSolution(BudgetMeter):
    """A budget that is spent only while no solution has been found (Budget.until_solution)."""

    def __init__(self, meter: BudgetMeter, found: Found) -> None:
        super().__init__(meter.budget)
        self.cpu_start = meter.cpu_start
        self.found = found

    def spent(self, conflicts: int = 0) -> bool:
        return not self.found and super().spent(conflicts)


def state_to_grid(engine: Engine, st: list[int]) -> Grid:
    """A solved state as a Grid (each cell has exactly one colour left)."""
    ncol, W = engine.ncol, engine.W
    rows = []
    for r in range(engine.H):
        base = r * ncol
        row = [0] * W
        for k in range(1, ncol):
            m = st[base + k]
            while m:
                low = m & -m
                m ^= low
                row[low.bit_length() - 1] = k
        rows.append(tuple(row))
    return Grid(tuple(rows))


# The searches behind the variants: `native` (= `native:cdcl`) learns from conflicts; `native:dfs` is the
# probing depth-first search without learning (kept to compare against and as a second opinion).
SEARCHES = ("cdcl", "dfs")

# Probe every cell once at the root before the CDCL search (`extra={"probe": False}` turns it off): probing
# alone decides puzzles the CDCL search alone takes far longer on (benchmarks/results/native.md, "Root probing").
ROOT_PROBE = True
# Root probing's branch scores also seed the CDCL decision order (`extra={"guide": False}` turns it off):
# fewer conflicts on tournament puzzles and Forever (benchmarks/results/native.md, "Root probing").


# The CDCL search's decisions keep each cell's most likely colour by belief propagation
# (`extra={"beliefs": False}` turns it off), in stages: (conflicts without a solution, rounds of belief
# propagation, the share of the grid's cells that must be open for it). A short look from the start takes
# tournament puzzles to a solution in fewer than half the conflicts (on a grid that root probing left mostly
# decided the search needs few conflicts, fewer than the look costs); a thorough one after many conflicts finds
# a first solution of the survey's Knotty, Faase and Meow in seconds where the search alone finds none in
# minutes (benchmarks/results/native-core.md, "Beliefs from the start", "The hardest three").
BELIEF_STAGES: tuple[tuple[int, int, float], ...] = ((0, 20, 0.25), (10_000, 100, 0.0))

# `core`: which implementation runs the search (core.py): c, python (the reference) or auto (the compiled
# core when it takes the puzzle)
CORES = {"auto": None, "c": True, "python": False}


class NativeBackend(Backend):
    name = "native"
    variants = SEARCHES
    settings = Settings(
        Setting("probe", bool, ROOT_PROBE, "probe every cell once at the root before the CDCL search"),
        Setting("guide", bool, True, "root probing's branch scores seed the CDCL decision order"),
        Setting("beliefs", bool, True, "decisions keep each cell's most likely colour (belief propagation)"),
        Setting("minimize", bool, True, "shrink each learnt clause's line explanations"),
        Setting("core", tuple(CORES), "auto", "the compiled core (c), the Python reference (python) or auto"),
    )
    # no proofs; no solution callback (it answers in this process, with its own deadline checks); budgets in
    # CPU seconds of this process or conflicts (of the CDCL search; nodes of native:dfs do not count as any)
    capabilities = Capabilities(colours=True, enumerate=True, fixed=True, proofs=False, on_solution=False,
                                budget=True, narrows=True)
    stats = Stats(
        Stat("line_solves", int, "line solver calls (in C or Python)"),
        Stat("cache_hits", int, "line results taken from the Python core's cache instead"),
        Stat("probes", int, "cells probed (each colour tried, propagated, undone)"),
        Stat("probe_passes", int, "sweeps of probing over the grid"),
        Stat("nodes", int, "search decisions"),
        Stat("max_depth", int, "deepest decision level"),
        Stat("conflicts", int, "conflicts of the CDCL search"),
        Stat("restarts", int, "restarts of the CDCL search"),
        Stat("beliefs_at", int, "conflicts when the CDCL search's decisions began to keep the beliefs (absent: never)"),
        Stat("seconds", dict, "wall seconds per phase: propagate, search, total"),
        Stat("core", str, '"c" or "python": which core ran'),
        always=("line_solves", "conflicts", "seconds", "core"),
    )

    def __init__(self, variant: str = "") -> None:
        super().__init__(variant)
        self.method = variant or SEARCHES[0]

    def available(self) -> bool:
        return True

    def narrow(self, puzzle: Puzzle, options: SolveOptions) -> Narrowing:
        """Line propagation from `options.fixed`, then root probing unless the `probe` option is false."""
        probe = NativeBackend.settings.get(options.extra, "probe", self.name)
        masks, contradiction, stats = propagate_and_probe(puzzle, options.deadline(), fixed=options.fixed, probe=probe,
                                                          cancel=options.cancel)
        return Narrowing(masks, contradiction, stats)

    @staticmethod
    def _cdcl_search(engine: Engine, limit: int | None, found: Found, options: SolveOptions,
                     budget: BudgetMeter | None = None) -> bool:
        """Root probing (unless `extra["probe"]` is False), then CDCL on the core's propagated state; True when
        the search is exhausted."""
        core = engine.core
        get = NativeBackend.settings.get
        if get(options.extra, "probe", "native"):
            ok, _ = core.probe()
            if not ok:
                return True  # probing proved there is no solution
        prefer = None
        if get(options.extra, "beliefs", "native") and not engine.puzzle.has_counts:
            def prefer(masks: list[int], how: tuple[int, float]) -> list[int]:
                from nonocp.engines.native.belief import likely_colours

                rounds, min_open = how
                if sum(1 for m in masks if m & (m - 1)) < min_open * len(masks):
                    return [-1] * len(masks)
                puzzle, t, stats = engine.puzzle, time.monotonic(), engine.stats
                if stats.beliefs_at is None:
                    stats.beliefs_at = core.counters()["conflicts"]
                rows, cols = cast("tuple[Clue, ...]", puzzle.rows), cast("tuple[Clue, ...]", puzzle.cols)  # run clues
                colours = likely_colours(rows, cols, len(puzzle.palette), masks, rounds=rounds, deadline=core.deadline)
                stats.seconds["beliefs"] = stats.seconds.get("beliefs", 0.0) + time.monotonic() - t
                return colours
        stages = [(conflicts, (rounds, share)) for conflicts, rounds, share in BELIEF_STAGES]
        return cdcl_enumerate(core, limit, found, options.progress, get(options.extra, "minimize", "native"),
                              get(options.extra, "guide", "native"), prefer=prefer, prefer_stages=stages,
                              budget=budget)

    def version(self) -> str:
        from nonocp.engines.native import core

        return f"{VERSION} (core: {core.implementation()})"

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        start = time.monotonic()
        compiled = CORES[NativeBackend.settings.get(options.extra, "core", "native")]
        try:
            engine = Engine(puzzle, options.deadline(start), compiled)
        except ValueError as e:  # core=c on a puzzle the compiled core does not take
            raise BackendUnavailable(f"native: {e}") from None
        stats = engine.stats
        # each solution becomes a Grid as it is found: the conversion counts against the time limit, and
        # nothing but the `keep` first is held (an enumeration cut by the limit can have found millions)
        found = Found.of(options, convert=lambda st: state_to_grid(engine, st))
        forget = engine.stop_on(options.cancel)
        exhausted = False
        timed_out = False
        limit = options.max_solutions
        if limit is not None and limit < 1:
            limit = 1
        phase = "propagate"
        t = start
        core = engine.core
        budget = None if options.budget is None else options.budget.meter()
        if budget is not None and budget.budget.until_solution:
            budget = _UntilSolution(budget, found)
        try:
            root = engine.initial_state()
            engine.restrict(root, options.fixed)
            core.set_state(root)
            if core.propagate() < 0:
                exhausted = True
            elif not any(engine.unknown_rows(core.state())):
                # Line logic decided every cell, each line checked by the exact line solver: the one solution.
                # No search, so none of its per-cell tables (hundreds of MB on a 2000x2000 grid, to find nothing).
                found.append(core.state())
                exhausted = True
            else:
                stats.seconds["propagate"] = time.monotonic() - t
                phase, t = "search", time.monotonic()
                if self.method == "dfs":
                    exhausted = enumerate_solutions(engine, core.state(), limit, found, options.progress,
                                                    spent=None if budget is None else budget.spent)
                else:
                    exhausted = self._cdcl_search(engine, limit, found, options, budget)
        except OutOfTime:
            timed_out = True
        finally:
            forget()
        stats.seconds[phase] = time.monotonic() - t
        elapsed = time.monotonic() - start
        stats.seconds["total"] = elapsed
        return SolveResult(
            status=status_of(len(found), exhausted, limit, timed_out),
            solutions=found.grids(),
            exhausted=exhausted,
            backend=self.label,
            seconds=elapsed,
            stats=engine.stats_dict(),
            timed_out=ended_by_time(len(found), exhausted, limit, timed_out),
            found=len(found),
        )


def propagate_and_probe(
    puzzle: Puzzle,
    deadline: float | None = None,
    observer: Observer | None = None,
    fixed: dict[tuple[int, int], int] | None = None,
    probe: bool = True,
    cancel: Cancel | None = None,
) -> tuple[list[int], bool, dict[str, Any]]:
    """Line propagation then (unless `probe` is False) probing to a fixpoint (nonocp.engines.native says more).
    `cancel` stops it as the deadline does (OutOfTime)."""
    start = time.monotonic()
    engine = Engine(puzzle, deadline)
    engine.observer = observer
    trace = engine.report if observer is not None else None
    core = engine.core
    st = engine.initial_state()
    engine.restrict(st, fixed)
    core.set_state(st)
    forget = engine.stop_on(cancel)
    try:
        contradiction = core.propagate(None, trace) < 0
        t1 = time.monotonic()
        engine.stats.seconds["propagate"] = t1 - start
        if probe and not contradiction:
            ok, _ = core.probe(trace)
            contradiction = not ok
            engine.stats.seconds["probe"] = time.monotonic() - t1
    finally:
        forget()
    masks = [] if contradiction else core.masks()
    return masks, contradiction, engine.stats_dict()
