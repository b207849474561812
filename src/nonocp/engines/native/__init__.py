"""The native engine: exact bitset line solver, propagation, probing, search with learning and counting.

Public entry points (everything above the engines uses only these):

* `NativeBackend` (name "native"): `solve(puzzle, SolveOptions) -> SolveResult`.
* `propagate_and_probe(puzzle, deadline=None, observer=None, fixed=None, probe=True, cancel=None)
  -> (masks, contradiction, stats)`: the fixpoint of line propagation plus probing, for the hybrid `auto`
  engine and backbones. `masks` is row-major per-cell bit masks exactly as `nonocp.core.grid.Domains.masks`
  (bit k = palette index k), `contradiction` is True when the puzzle has no solution (masks then mean
  nothing), `stats` is a dict (line_solves, cache_hits, probes, ..., seconds). Raises `OutOfTime` when
  `deadline` (a `time.monotonic()` value) passes. `fixed` ({(row, col): allowed colour mask}, as
  `SolveOptions.fixed`) restricts cells first; `probe=False` stops after line propagation (the `auto`
  engine's default). An `observer` hears every deduction (the events of trace.py).
* `trace_solve(puzzle, observer, ...) -> TraceResult`: the probing depth-first search (`native:dfs`) with
  its steps reported to `observer` (the events of trace.py): what `explain`, the stepper and `rate`
  follow. It may start from a partial grid (`masks`) and go on past the first solution.
* `deduce_line(puzzle, masks, line)`: the exact line solver on one line of a partial grid, as an event
  (a LineDeduction, a Contradiction, or None when the line yields nothing new).
* `possible_colours(puzzle, deadline=None) -> masks or None`: the all-remaining-cells step over the whole
  puzzle: per cell (masks as above), exactly the colours that occur in some solution; None when there is
  no solution. Exhaustive over the solutions, so only for puzzles with few. Raises `OutOfTime` like above.
  `remaining_cells(puzzle, masks, limit, deadline)` is the same from a partial grid, bounded.
* `solve_line(blocks, n, masks)`: the exact line solver itself (line.py).

Modules: core.py (the core: one puzzle's search state and algorithms, compiled from csrc/ or the Python
reference in reference.py and reference_cdcl.py, which it is tested against), line.py (the Python line
solver), engine.py (a puzzle's core with list-state helpers and trace events), cdcl.py (the default
search's driver: restarts, counting), belief.py (belief propagation: the colours the CDCL search's
decisions keep once it has gone long without a solution), search.py (the probing depth-first search,
`native:dfs`, and the all-remaining-cells step), trace.py (the events an observer hears), limits.py
(OutOfTime), backend.py.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from nonocp.core.counts import CountClue
from nonocp.core.puzzle import Clue, Puzzle
from nonocp.engines.native import count_line
from nonocp.engines.native.backend import NativeBackend, propagate_and_probe
from nonocp.engines.native.engine import Engine, line_event
from nonocp.engines.native.line import blocks_of, solve_line
from nonocp.engines.native.search import all_remaining_cells, enumerate_solutions
from nonocp.engines.native.trace import (
    Backtrack,
    Change,
    Contradiction,
    Event,
    Guess,
    LineDeduction,
    Observer,
    ProbeAgreement,
    ProbeContradiction,
    Residue,
    Solution,
)


@dataclass
class TraceResult:
    """What trace_solve found: each solution as row-major Domains masks (one colour per cell), whether the
    search was exhausted (every solution below the start is among them), and the engine's stats."""

    solutions: list[list[int]]
    exhausted: bool
    stats: dict[str, Any] = field(default_factory=dict)


def trace_solve(
    puzzle: Puzzle,
    observer: Observer | None,
    *,
    masks: Sequence[int] | None = None,
    max_solutions: int | None = 1,
    traced: int | None = None,
    residue: int = 0,
    deadline: float | None = None,
) -> TraceResult:
    """The probing depth-first search with every step reported to `observer` (see trace.py).

    Starts from `masks` (row-major Domains masks; default: every colour everywhere), propagates every line,
    then probes and guesses until `max_solutions` solutions (None: all). Tracing stops after `traced`
    solutions (None: never); the search then goes on untraced (e.g. to tell unique from multiple).
    `residue` > 0 lets the search take an all-remaining-cells step (a Residue event) on stalled grids with
    at most that many combinations of candidates. Raises `OutOfTime` when `deadline` passes, and whatever
    the observer raises.
    """
    start = time.monotonic()
    engine = Engine(puzzle, deadline)
    engine.observer = observer
    root = engine.initial_state() if masks is None else engine.state_from_masks(list(masks))
    found: list[list[int]] = []
    if engine.propagate(root, range(engine.nlines), True) < 0:
        if observer is not None:
            observer(Contradiction(engine.failed_line, 0))
        exhausted = True
    else:
        exhausted = enumerate_solutions(engine, root, max_solutions, found, traced=traced, residue=residue)
    engine.stats.seconds["total"] = time.monotonic() - start
    return TraceResult([engine.to_masks(st) for st in found], exhausted, engine.stats_dict())


def line_masks(puzzle: Puzzle, masks: Sequence[int], line: int) -> list[int]:
    """The per-colour bitsets of one line (rows 0..H-1, then columns) of row-major Domains masks."""
    W, H, ncol = puzzle.width, puzzle.height, len(puzzle.palette)
    cells = masks[line * W:(line + 1) * W] if line < H else masks[line - H::W]
    return [sum(((m >> k) & 1) << i for i, m in enumerate(cells)) for k in range(ncol)]


def deduce_line(puzzle: Puzzle, masks: Sequence[int], line: int) -> LineDeduction | Contradiction | None:
    """The exact line solver on line `line` (rows 0..H-1, then columns) of a partial grid: what it narrows
    (a LineDeduction), a Contradiction (depth 0) when the line has no valid placement, or None."""
    H = puzzle.height
    clue = puzzle.rows[line] if line < H else puzzle.cols[line - H]
    old = line_masks(puzzle, masks, line)
    n = puzzle.width if line < H else H
    if puzzle.has_counts:
        new = count_line.solve_line(cast(CountClue, clue), n, old)
    else:
        new = solve_line(blocks_of(cast(Clue, clue)), n, old)
    if new is None:
        return Contradiction(line, 0)
    if tuple(new) == tuple(old):
        return None
    return line_event(line, H, old, new)


def possible_colours(puzzle: Puzzle, deadline: float | None = None) -> list[int] | None:
    """Propagation, probing, then the all-remaining-cells step; see the module docstring."""
    engine = Engine(puzzle, deadline)
    st = engine.initial_state()
    ok = engine.propagate(st, range(engine.nlines)) >= 0 and engine.probe(st)[0]
    union = all_remaining_cells(engine, st) if ok else None
    return None if union is None else engine.to_masks(union)


def remaining_cells(
    puzzle: Puzzle, masks: Sequence[int], limit: int, deadline: float | None = None
) -> tuple[list[int] | None, int, bool]:
    """All remaining cells of a partial grid at once: (union, solutions, complete).

    Tries every completion of `masks` (by the probing search, untraced) up to `limit` of them. Complete:
    `union` keeps per cell exactly the colours some completion uses (None when there is none) and
    `solutions` counts them. When there are more than `limit`, it gives up: (None, limit + 1, False).
    Raises `OutOfTime` when `deadline` passes.
    """
    engine = Engine(puzzle, deadline)
    root = engine.state_from_masks(list(masks))
    found: list[list[int]] = []
    if engine.propagate(root, range(engine.nlines)) >= 0:
        enumerate_solutions(engine, root, limit + 1, found)
    if len(found) > limit:
        return None, len(found), False
    if not found:
        return None, 0, True
    union = list(found[0])
    for st in found[1:]:
        union = [a | b for a, b in zip(union, st, strict=True)]
    return engine.to_masks(union), len(found), True


__all__ = ["Backtrack", "Change", "Contradiction", "Event", "Guess", "LineDeduction", "NativeBackend", "Observer",
           "ProbeAgreement", "ProbeContradiction", "Residue", "Solution", "TraceResult", "deduce_line",
           "line_masks", "possible_colours", "propagate_and_probe", "remaining_cells", "solve_line", "trace_solve"]
