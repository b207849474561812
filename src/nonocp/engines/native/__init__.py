"""The native engine: exact bitset line solver, propagation, probing, search with learning and counting.

Public entry points:

* `NativeBackend` (name "native"): `solve(puzzle, SolveOptions) -> SolveResult`.
* `propagate_and_probe(puzzle, deadline=None, trace=None) -> (masks, contradiction, stats)`: the
  fixpoint of line propagation plus probing, for the hybrid `auto` engine and for explanations.
  `masks` is row-major per-cell bit masks exactly as `nonocp.core.grid.Domains.masks` (bit k = palette
  index k), `contradiction` is True when the puzzle has no solution (masks then mean nothing), `stats`
  is a dict (line_solves, cache_hits, probes, ..., seconds). Raises `Timeout` (from
  `nonocp.engines.native.engine`) when `deadline` (a `time.monotonic()` value) passes.
  `fixed` ({(row, col): allowed colour mask}, as `SolveOptions.fixed`) restricts cells first;
  `probe=False` stops after line propagation (the `auto` engine's default).
  Pass a list as `trace` to receive `TraceStep`s (engine.py) that replay the deductions in order.
* `possible_colours(puzzle, deadline=None) -> masks or None`: the all-remaining-cells step over the whole
  puzzle: per cell (masks as above), exactly the colours that occur in some solution; None when there is
  no solution. Exhaustive over the solutions, so only for puzzles with few. Raises `Timeout` like above.

Modules: line.py (the line solver), engine.py (state, propagation, probing, trace), cdcl.py (the default
search: conflict-driven clause learning over cells, counting), search.py (the probing depth-first
search, `native:dfs`, and the all-remaining-cells step), backend.py (the Backend).
"""

from __future__ import annotations

import time

from nonocp.core.puzzle import Puzzle
from nonocp.engines.native.backend import NativeBackend
from nonocp.engines.native.engine import Engine, Timeout, TraceStep
from nonocp.engines.native.line import solve_line
from nonocp.engines.native.search import all_remaining_cells


def propagate_and_probe(
    puzzle: Puzzle,
    deadline: float | None = None,
    trace: list[TraceStep] | None = None,
    fixed: dict[tuple[int, int], int] | None = None,
    probe: bool = True,
) -> tuple[list[int], bool, dict]:
    """Line propagation then (unless `probe` is False) probing to a fixpoint; see the module docstring."""
    start = time.monotonic()
    engine = Engine(puzzle, deadline)
    engine.trace = trace
    tracing = trace is not None
    st = engine.initial_state()
    engine.restrict(st, fixed)
    contradiction = engine.propagate(st, range(engine.nlines), tracing) < 0
    t1 = time.monotonic()
    engine.stats.seconds["propagate"] = t1 - start
    if probe and not contradiction:
        ok, _ = engine.probe(st, tracing)
        contradiction = not ok
        engine.stats.seconds["probe"] = time.monotonic() - t1
    masks = [] if contradiction else engine.to_masks(st)
    return masks, contradiction, engine.stats.as_dict()


def possible_colours(puzzle: Puzzle, deadline: float | None = None) -> list[int] | None:
    """Propagation, probing, then the all-remaining-cells step; see the module docstring."""
    engine = Engine(puzzle, deadline)
    st = engine.initial_state()
    ok = engine.propagate(st, range(engine.nlines)) >= 0 and engine.probe(st)[0]
    union = all_remaining_cells(engine, st) if ok else None
    return None if union is None else engine.to_masks(union)


__all__ = ["NativeBackend", "Timeout", "TraceStep", "possible_colours", "propagate_and_probe", "solve_line"]
