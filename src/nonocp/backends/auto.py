"""The hybrid engine `auto`: native line propagation first (probing too, with `extra={"probe": True}`),
SAT for what it leaves open.

1. `nonocp.backends.native.propagate_and_probe` narrows every cell to the colours line logic (and, when
   asked, probing) allow (sound: only impossible colours are removed). A contradiction proves there is no
   solution; a fully decided grid is the only candidate, checked against the clues.
2. Otherwise the sat engine solves the puzzle with every narrowed cell passed as `SolveOptions.fixed`:
   decided cells become constants, lines whose cells are all decided drop out of the CNF, and the
   blocking-clause loop counts solutions as usual (exhaustive: the cells fixed by step 1 hold in every
   solution, so the count is the puzzle's count).

Why: propagation solves line-solvable puzzles in milliseconds, where building a CNF in Python costs
more than solving it; SAT search finishes the hard ones that probing + DFS cannot. With `proof_dir` the
DRAT proof certifies the SAT step only (relative to the cells native fixed).

The variant picks the SAT solver (`auto:glucose4`); `extra` options reach the sat engine unchanged.
"""

from __future__ import annotations

import dataclasses
import time

from nonocp.backends.base import SolveOptions
from nonocp.backends.sat import DEFAULT_SOLVER, SatBackend
from nonocp.grid import Domains
from nonocp.puzzle import Puzzle
from nonocp.result import SolveResult, status_of

# Probing before SAT is off by default. Measured in session 6 (`benchmarks/bench_sat.py --backends
# auto,auto+probe --timeout 60`, the 31 survey puzzles, one run on a loaded machine; benchmarks/README.md):
# without probing 5 timeouts and 246 CPU s, with probing 7 timeouts (Nature and Marley too) and 267 CPU s.
# Probing won on some puzzles (M&M, Smoke, Thing, Center) and lost on others (Forever, Petro, Tragic, DiCap).
# `extra={"probe": True}` turns it on.
DEFAULT_PROBE = False


class AutoBackend:
    name = "auto"
    # its own probing switch, and the sat engine's options (passed on to the SAT stage)
    OPTIONS = {"probe": bool, **SatBackend.OPTIONS}

    def __init__(self, variant: str = DEFAULT_SOLVER) -> None:
        self.sat = SatBackend(variant)

    def available(self) -> bool:
        return self.sat.available()

    def version(self) -> str:
        return f"native line propagation, then {self.sat.version()}"

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        from nonocp.backends.native import Timeout, propagate_and_probe

        start = time.monotonic()
        deadline = options.deadline(start)
        limit = 1 if options.max_solutions is not None and options.max_solutions < 1 else options.max_solutions
        probe = options.extra.get("probe", DEFAULT_PROBE)
        try:
            masks, contradiction, native_stats = propagate_and_probe(puzzle, deadline, fixed=options.fixed,
                                                                     probe=probe)
        except Timeout:
            return self._result(status_of(0, False, limit, True), (), False, start, {"phase": "native"})
        stats = {f"native_{k}": v for k, v in native_stats.items()}
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
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        result = self.sat.solve(puzzle, dataclasses.replace(options, fixed=fixed, time_limit=remaining))
        stats.update(result.stats)
        stats["phase"] = "sat"
        return dataclasses.replace(
            result, backend=f"{self.name}:{self.sat.solver_name}", seconds=time.monotonic() - start, stats=stats
        )

    def _result(self, status, solutions, exhausted, start, stats) -> SolveResult:
        return SolveResult(
            status=status,
            solutions=tuple(solutions),
            exhausted=exhausted,
            backend=f"{self.name}:{self.sat.solver_name}",
            seconds=time.monotonic() - start,
            stats=stats,
        )
