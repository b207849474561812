"""Search: the all-remaining-cells step, branching with backtracking, solution counting.

When line propagation and probing reach a fixpoint with unknown cells left, nothing local decides them;
the engine then considers *all remaining unknown cells together* and explores their assignments
exhaustively: a depth-first search that branches on one cell (the one whose probes narrowed the grid
most in every branch), re-runs propagation and probing at every node, and backtracks on contradiction.
Every complete solution of the residue is reached, which is what makes the engine complete. Two uses:

* `enumerate_solutions` stops at a solution limit (the solver's verdict: none / unique / multiple);
* `all_remaining_cells` runs it to exhaustion and keeps, per cell, only the colours that occur in some
  complete solution (the deduction form of the step, for callers that want narrowed domains).

This step runs only after `Engine.probe` has stalled (at the root and at every search node), so on
line-solvable puzzles it never runs, and on most others it runs on a small residue.

The default native search is now cdcl.py (it learns from conflicts, which this search cannot); this one is
`--backend native:dfs`, the exhaustive step behind `all_remaining_cells` (backbones) and `explain`'s
guessing, and a second native opinion in the conformance tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from nonocp.engines.native.engine import Engine

State = list[int]


def enumerate_solutions(
    engine: Engine,
    root: State,
    limit: int | None,
    found: list[State],
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> bool:
    """Append solved states of `root` (already propagated to a fixpoint) to `found`, up to `limit`.

    Returns True when the search space was exhausted (every solution below `root` is in `found`).
    Raises engine's Timeout when the deadline passes (`found` keeps what was found so far).
    """
    stats = engine.stats
    stack: list[tuple[State, int]] = [(root, 0)]
    last_report = time.monotonic()
    while stack:
        st, depth = stack.pop()
        stats.nodes += 1
        if depth > stats.max_depth:
            stats.max_depth = depth
        ok, branch = engine.probe(st)
        if not ok:
            continue
        if branch is None:
            found.append(st)
            if limit is not None and len(found) >= limit:
                return not stack
            continue
        _, children = branch
        for _, child in reversed(children):
            stack.append((child, depth + 1))
        if progress is not None and stats.nodes % 64 == 0:
            now = time.monotonic()
            if now - last_report > 0.5:
                last_report = now
                progress({"nodes": stats.nodes, "depth": depth, "solutions": len(found)})
    return True


def all_remaining_cells(engine: Engine, root: State) -> State | None:
    """The union of all complete solutions below `root` (per line and colour), or None when there is none.

    Exhaustive: it enumerates every solution of the residue, so call it only on small residues.
    """
    found: list[State] = []
    enumerate_solutions(engine, list(root), None, found)
    if not found:
        return None
    union = list(found[0])
    for st in found[1:]:
        for i, v in enumerate(st):
            union[i] |= v
    return union
