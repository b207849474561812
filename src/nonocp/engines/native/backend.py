"""NativeBackend: the `native` engine behind `nonocp.solve` and `--backend native`."""

from __future__ import annotations

import time

from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import SolveResult, status_of
from nonocp.engines.contract import Backend, Capabilities, Option, Options, SolveOptions, Stat, Stats
from nonocp.engines.native.cdcl import cdcl_enumerate
from nonocp.engines.native.engine import Engine, Timeout
from nonocp.engines.native.search import enumerate_solutions

VERSION = "1.0"


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


class NativeBackend(Backend):
    name = "native"
    variants = SEARCHES
    options = Options(
        Option("probe", bool, ROOT_PROBE, "probe every cell once at the root before the CDCL search"),
        Option("guide", bool, True, "root probing's branch scores seed the CDCL decision order"),
        Option("minimize", bool, True, "shrink each learnt clause's line explanations"),
    )
    # no proofs; no solution callback (it answers in this process, with its own deadline checks)
    capabilities = Capabilities(colours=True, enumerate=True, fixed=True, proofs=False, on_solution=False)
    stats = Stats(
        Stat("line_solves", int, "line solver calls (in C or Python)"),
        Stat("cache_hits", int, "line results taken from the cache instead"),
        Stat("probes", int, "cells probed (each colour tried, propagated, undone)"),
        Stat("probe_passes", int, "sweeps of probing over the grid"),
        Stat("nodes", int, "search decisions"),
        Stat("max_depth", int, "deepest decision level"),
        Stat("conflicts", int, "conflicts of the CDCL search"),
        Stat("restarts", int, "restarts of the CDCL search"),
        Stat("seconds", dict, "wall seconds per phase: propagate, search, total"),
        Stat("line_solver", str, '"c" or "python": which line solver ran'),
        always=("line_solves", "conflicts", "seconds", "line_solver"),
    )

    def __init__(self, variant: str = "") -> None:
        super().__init__(variant)
        self.method = variant or SEARCHES[0]

    def available(self) -> bool:
        return True

    @staticmethod
    def _cdcl_search(engine: Engine, root: list[int], limit: int | None, found: list[list[int]],
                     options: SolveOptions) -> bool:
        """Root probing (unless `extra["probe"]` is False), then CDCL; True when the search is exhausted."""
        scores: dict[tuple[int, int], int] = {}
        get = NativeBackend.options.get
        if get(options.extra, "probe", "native"):
            ok, _ = engine.probe(root, scores=scores if get(options.extra, "guide", "native") else None)
            if not ok:
                return True  # probing proved there is no solution
        return cdcl_enumerate(engine, root, limit, found, options.progress,
                              get(options.extra, "minimize", "native"), scores)

    def version(self) -> str:
        from nonocp.engines.native import fast

        return f"{VERSION} (line solver: {fast.implementation()})"

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        start = time.monotonic()
        engine = Engine(puzzle, options.deadline(start))
        stats = engine.stats
        found: list[list[int]] = []
        exhausted = False
        timed_out = False
        limit = options.max_solutions
        if limit is not None and limit < 1:
            limit = 1
        phase = "propagate"
        t = start
        try:
            root = engine.initial_state()
            engine.restrict(root, options.fixed)
            if engine.propagate(root, range(engine.nlines)) < 0:
                exhausted = True
            else:
                stats.seconds["propagate"] = time.monotonic() - t
                phase, t = "search", time.monotonic()
                if self.method == "dfs":
                    exhausted = enumerate_solutions(engine, root, limit, found, options.progress)
                else:
                    exhausted = self._cdcl_search(engine, root, limit, found, options)
        except Timeout:
            timed_out = True
        stats.seconds[phase] = time.monotonic() - t
        grids = tuple(state_to_grid(engine, st) for st in found)
        elapsed = time.monotonic() - start
        stats.seconds["total"] = elapsed
        return SolveResult(
            status=status_of(len(grids), exhausted, limit, timed_out),
            solutions=grids,
            exhausted=exhausted,
            backend=self.label,
            seconds=elapsed,
            stats={**stats.as_dict(), "line_solver": "c" if engine.fast_plans is not None else "python"},
        )
