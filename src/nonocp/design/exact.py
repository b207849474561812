"""fewest_changes: the true minimum number of cell changes that make a design unique (small designs).

An exact search, used to measure how close make_unique comes (benchmarks/bench_design.py) and in tests.
Iterative deepening over k = 1, 2, ...: a depth-first search over sets of at most k changes, pruned by
two facts that lose no solution:

* A move valid at the current picture stays valid under any further changes outside the lines it
  touches. So some further change must lie in those lines: the search branches only on the cells of
  the lines of one valid move (the one with the fewest such cells). Branch i also forbids the
  candidates of branches 1..i-1, so each set of changes is visited once.
* Moves whose line cells are pairwise disjoint each need a change of their own: more of them than
  changes left means no set within the budget exists below this node; and the last change must lie in
  the lines of every valid move at once.

A leaf with no known valid move is checked by the engine; a second solution it finds is split into
moves that join the pool. The first unique picture found at depth k is optimal, since every set of
fewer changes was tried before. Exponential: meant for designs up to about 10x10 or a few changes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from nonocp.core.errors import OutOfTime
from nonocp.design.checks import SEARCH_ENGINE, Counter, alternatives, left
from nonocp.design.model import Change, Design, to_lists
from nonocp.design.moves import Move, is_valid, line_cells


@dataclass(frozen=True)
class Fewest:
    """`changes` is a smallest fix when `optimal`; otherwise None, and no fix has fewer than
    `lower_bound` changes (the search ran out of budget or time after proving that much)."""

    changes: tuple[Change, ...] | None
    optimal: bool
    lower_bound: int
    nodes: int
    engine_calls: int
    seconds: float


def fewest_changes(design: Design, *, max_changes: int = 6, time_limit: float | None = None,
                   engine: str = SEARCH_ENGINE) -> Fewest:
    """The fewest cell changes that give `design` a unique solution, searching up to `max_changes`."""
    start = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    x = to_lists(design.grid)
    goal = to_lists(design.grid)
    ncolors = len(design.palette)
    counter = Counter()
    pool: list[Move] = []
    nodes = 0

    def valid_moves() -> list[Move]:
        return [m for m in pool if is_valid(x, m)]

    def ensure_valid() -> list[Move] | None:
        """Valid moves at x (asking the engine when the pool has none); None when x is unique."""
        valid = valid_moves()
        if valid:
            return valid
        found = alternatives(x, design.palette, deadline, engine=engine, batch=4, queries=0, counter=counter,
                             kind=design.clue_kind)
        if found is None:
            return None
        pool.extend(found)
        return [m for m in found if is_valid(x, m)]

    def packing(valid: list[Move]) -> tuple[int, list[tuple[int, int]]]:
        """How many valid moves have pairwise disjoint line cells (greedy), and the smallest such set."""
        sets = sorted((set(line_cells(x, m)) for m in valid), key=len)
        taken: set[tuple[int, int]] = set()
        count = 0
        for s in sets:
            if not s & taken:
                count += 1
                taken |= s
        return count, sorted(sets[0])

    def search(budget: int, changed: set[tuple[int, int]], forbidden: set) -> list[tuple[int, int, int]] | None:
        nonlocal nodes
        nodes += 1
        left(deadline)
        valid = ensure_valid()
        if valid is None:
            return []
        if budget == 0:
            return None
        need, cells = packing(valid)
        if need > budget:
            return None
        if budget == 1:  # the last change must lie in the lines of every valid move at once
            common = set(cells)
            for m in valid:
                common &= set(line_cells(x, m))
            cells = sorted(common)
        branches = [(r, c, v) for r, c in cells if (r, c) not in changed
                    for v in range(ncolors) if v != x[r][c]]
        local_forbidden = set(forbidden)
        for r, c, v in branches:
            if (r, c, v) in local_forbidden:
                continue
            old = x[r][c]
            x[r][c] = v
            changed.add((r, c))
            found = search(budget - 1, changed, local_forbidden)
            changed.discard((r, c))
            x[r][c] = old
            if found is not None:
                return [(r, c, v), *found]
            local_forbidden.add((r, c, v))
        return None

    lower = 0
    try:
        if ensure_valid() is None:
            return Fewest((), True, 0, nodes, counter.solves, time.perf_counter() - start)
        lower = 1
        for k in range(1, max_changes + 1):
            found = search(k, set(), set())
            if found is not None:
                changes = tuple(sorted(Change(r, c, goal[r][c], v) for r, c, v in found))
                return Fewest(changes, True, k, nodes, counter.solves, time.perf_counter() - start)
            lower = k + 1
    except OutOfTime:
        pass
    return Fewest(None, False, lower, nodes, counter.solves, time.perf_counter() - start)

