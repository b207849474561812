"""Search: the probing depth-first search (`native:dfs`), solution counting, the all-remaining-cells step.

When line propagation and probing reach a fixpoint with unknown cells left, nothing local decides them;
the search then branches on one cell (the one whose probes narrowed the grid most in every branch), re-runs
propagation and probing at every node, and backtracks on contradiction. Every complete solution is reached,
which is what makes the engine complete. Three uses:

* `enumerate_solutions` stops at a solution limit (the solver's verdict: none / unique / multiple);
* `all_remaining_cells` runs it to exhaustion and keeps, per cell, only the colours that occur in some
  complete solution (the deduction form of the step, for callers that want narrowed domains);
* with an observer on the engine (trace.py) the same search reports what it does, step by step: it is what
  `explain`, the stepper and `rate` follow. Tracing costs only when an observer is attached.

The default native search is cdcl.py (it learns from conflicts, which this search cannot); this one is
`--backend native:dfs`, the one whose every step a person can check (a probe or a guess, never a learned
clause), and a second native opinion in the conformance tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from nonocp.core.errors import OutOfTime
from nonocp.engines.found import Sink
from nonocp.engines.native.engine import Engine
from nonocp.engines.native.trace import Backtrack, Contradiction, Guess, Observer, Residue, Solution

State = list[int]


def enumerate_solutions(
    engine: Engine,
    root: State,
    limit: int | None,
    found: Sink,
    progress: Callable[[dict[str, Any]], None] | None = None,
    traced: int | None = None,
    residue: int = 0,
    spent: Callable[[], bool] | None = None,
) -> bool:
    """Append solved states of `root` (already propagated to a fixpoint) to `found`, up to `limit`.

    Returns True when the search space was exhausted (every solution below `root` is in `found`).
    Raises engine's OutOfTime when the deadline passes (`found` keeps what was found so far).

    With `engine.observer` set, every step goes to it (trace.py) until `traced` solutions were reported
    (None: all); then the observer is detached and the search goes on untraced. `residue` > 0 (traced only):
    at a stalled node whose undecided cells have at most that many combinations of candidates, all of them
    are tried at once (a Residue event) before any guess. `spent()` True stops the search (OutOfTime) at the next
    node: a work budget (the contract's Budget) that is used up.
    """
    stats = engine.stats
    stack: list[tuple[State, int, Any]] = [(root, 0, None)]
    last_report = time.monotonic()
    tracer = _Tracer(engine, residue) if engine.observer is not None else None
    while stack:
        st, depth, how = stack.pop()
        if spent is not None and spent():
            raise OutOfTime
        if tracer is not None:
            st = tracer.enter(st, how, len(found), len(stack))
        stats.nodes += 1
        if depth > stats.max_depth:
            stats.max_depth = depth
        ok, branch = engine.probe(st, tracer is not None)
        if ok and branch is not None and tracer is not None:
            ok, branch = tracer.residue(st, branch, len(stack))
        if not ok:
            if tracer is not None:
                tracer.dead()
            continue
        if branch is None:
            found.append(st)
            if tracer is not None and tracer.solution(len(found), traced):
                tracer = None
            if limit is not None and len(found) >= limit:
                return not stack
            continue
        cell, children = branch
        last = len(children) - 1
        for i in range(last, -1, -1):
            k, child = children[i]
            # traced: how to re-derive the child with its steps shown (a guess unless it is the last colour)
            stack.append((child, depth + 1, None if tracer is None else (cell, k, i < last, st, len(tracer.path))))
        if progress is not None and stats.nodes % 64 == 0:
            now = time.monotonic()
            if now - last_report > 0.5:
                last_report = now
                progress({"nodes": stats.nodes, "depth": depth, "solutions": len(found)})
    return True


class _Tracer:
    """The search's bookkeeping for its observer: the guesses in force, and the events that need them."""

    def __init__(self, engine: Engine, residue: int) -> None:
        self.engine = engine
        assert engine.observer is not None  # a tracer reports to the engine's observer
        self.observer: Observer = engine.observer
        self.residue_limit = residue
        self.path: list[tuple[tuple[int, int], int, int]] = []  # guesses in force: (cell, colour, found then)
        self.guesses = 0
        # the stack height below which the search has left the node of the last Residue step (no other
        # Residue step is taken under that node), or None
        self.residue_mark: int | None = None
        self.reported_dead = False

    def enter(self, st: State, how: Any, solutions: int, height: int) -> State:
        """Report leaving the guesses this node is not under, the guess that makes it, and the line steps
        that follow from it (the child is propagated again, traced: the fixpoint is the same state)."""
        if self.residue_mark is not None and height < self.residue_mark:
            self.residue_mark = None
        if how is None:
            return st
        cell, k, is_guess, parent, level = how
        observer, path = self.observer, self.path
        while len(path) > level:
            c2, k2, before = path.pop()
            observer(Backtrack(c2, k2, len(path) + 1, solutions - before))
        if is_guess:
            path.append((cell, k, solutions))
            self.guesses += 1
            observer(Guess(cell, k, len(path)))
        engine = self.engine
        r, c = cell
        child = list(parent)
        engine.assign(child, r, c, k)
        engine.propagate(child, (r, engine.H + c), True)
        return child

    def dead(self) -> None:
        if self.reported_dead:  # the Residue step said so already
            self.reported_dead = False
            return
        self.observer(Contradiction(self.engine.failed_line, len(self.path)))

    def solution(self, index: int, traced: int | None) -> bool:
        """Report a solution; True when tracing ends here."""
        self.observer(Solution(index, len(self.path), self.guesses))
        if traced is not None and index >= traced:
            self.engine.observer = None
            return True
        return False

    def residue(self, st: State, branch: Any, height: int) -> tuple[bool, Any]:
        """The all-remaining-cells step at a stalled node, when its combinations are few (see
        enumerate_solutions). Returns what probe would: (consistent, branch or None when solved)."""
        if not self.residue_limit or self.residue_mark is not None:
            return True, branch
        engine = self.engine
        masks = engine.to_masks(st)
        combos = 1
        for m in masks:
            combos *= bin(m).count("1")
            if combos > self.residue_limit:
                return True, branch
        completions: list[State] = []
        engine.observer = None  # the completions are tried untraced: one step says what they share
        try:
            enumerate_solutions(engine, list(st), None, completions)
        finally:
            engine.observer = self.observer
        cells = sum(1 for m in masks if m & (m - 1))
        if not completions:
            self.observer(Residue(cells, 0, ()))
            self.reported_dead = True
            return False, None
        union = list(completions[0])
        for other in completions[1:]:
            union = [a | b for a, b in zip(union, other, strict=True)]
        self.observer(Residue(cells, len(completions), engine.diff(st, union)))
        st[:] = union
        if len(completions) == 1:
            return True, None
        self.residue_mark = height
        return engine.probe(st, True)


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
