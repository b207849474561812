"""NativeBackend: the `native` engine behind `nonocp.solve` and `--backend native`."""

from __future__ import annotations

import time

from nonocp.core.errors import BackendUnavailable
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import SolveResult, ended_by_time, status_of
from nonocp.engines.contract import SolveOptions
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
# alone solves Tragic, Petro and Signed, on which CDCL with line-wide explanations alone timed out at 60 s.
ROOT_PROBE = True
# Root probing's branch scores also seed the CDCL decision order (`extra={"guide": False}` turns it off):
# fewer conflicts on tournament puzzles and Forever (benchmarks/README.md, "native engine").


class NativeBackend:
    name = "native"
    OPTIONS = {"probe": bool, "guide": bool, "minimize": bool}  # settable by `nonocp solve --option`

    def __init__(self, variant: str = "") -> None:
        if variant and variant not in SEARCHES:
            raise BackendUnavailable(f"native: unknown search {variant!r} (choose from {', '.join(SEARCHES)})")
        self.variant = variant
        self.search = variant or SEARCHES[0]

    def available(self) -> bool:
        return True

    @staticmethod
    def _cdcl_search(engine: Engine, root: list[int], limit: int | None, found: list[list[int]],
                     options: SolveOptions) -> bool:
        """Root probing (unless `extra["probe"]` is False), then CDCL; True when the search is exhausted."""
        scores: dict[tuple[int, int], int] = {}
        if options.extra.get("probe", ROOT_PROBE):
            ok, _ = engine.probe(root, scores=scores if options.extra.get("guide", True) else None)
            if not ok:
                return True  # probing proved there is no solution
        return cdcl_enumerate(engine, root, limit, found, options.progress,
                              options.extra.get("minimize", True), scores)

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
            elif not any(engine.unknown_rows(root)):
                # Line logic decided every cell, each line checked by the exact line solver: the one solution.
                # No search, so none of its per-cell tables (a 2000x2000 grid's took 700 MB to find nothing).
                found.append(root)
                exhausted = True
            else:
                stats.seconds["propagate"] = time.monotonic() - t
                phase, t = "search", time.monotonic()
                if self.search == "dfs":
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
            backend=f"{self.name}:{self.variant}" if self.variant else self.name,
            seconds=elapsed,
            stats={**stats.as_dict(), "line_solver": "c" if engine.fast_plans is not None else "python"},
            timed_out=ended_by_time(len(grids), exhausted, limit, timed_out),
        )
