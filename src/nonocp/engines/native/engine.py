"""Propagation (a work queue of dirty lines to a fixpoint) and probing over a bitset grid state.

The working state of a grid is one flat list of ints, `state[line * ncol + colour]`: for each line (rows
0..H-1, then columns H..H+W-1) and each colour, the bitset of the line's cells that may still be that
colour. Every cell therefore appears twice (once in its row, once in its column) and both copies are kept
equal: whenever a line solve removes a colour from a cell, the crossing line loses it too and is queued.
A flat list of small ints makes a search-node copy a single `list(state)`.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nonocp.core.puzzle import COUNTS, Puzzle
from nonocp.engines.native import count_line, fast
from nonocp.engines.native.line import Blocks, Plan, blocks_of, feasible_planned, plan_of, solve_planned
from nonocp.engines.native.trace import LineDeduction, Observer, ProbeAgreement, ProbeContradiction

# The cache of line results is dropped when it grows past this many entries (keeps memory bounded on
# long searches; ~200 bytes an entry).
CACHE_LIMIT = 400_000

_MISSING = object()


class Timeout(Exception):
    """Raised inside the engine when the deadline passes; the backend turns it into status `timeout`."""


@dataclass
class Stats:
    line_solves: int = 0
    cache_hits: int = 0
    probes: int = 0
    probe_passes: int = 0
    nodes: int = 0
    max_depth: int = 0
    conflicts: int = 0  # CDCL search only
    restarts: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "line_solves": self.line_solves,
            "cache_hits": self.cache_hits,
            "probes": self.probes,
            "probe_passes": self.probe_passes,
            "nodes": self.nodes,
            "max_depth": self.max_depth,
            "conflicts": self.conflicts,
            "restarts": self.restarts,
            "seconds": {k: round(v, 6) for k, v in self.seconds.items()},
        }


def line_event(ln: int, H: int, old: Sequence[int], new: Sequence[int]) -> LineDeduction:
    """The LineDeduction for line `ln` (rows first, then columns; H rows) narrowed from the per-colour bitsets
    `old` to `new`."""
    changed = 0
    for a, b in zip(old, new, strict=True):
        changed |= a ^ b
    ncol = len(old)
    changes = []
    while changed:
        low = changed & -changed
        changed ^= low
        i = low.bit_length() - 1
        before = sum(((old[k] >> i) & 1) << k for k in range(ncol))
        after = sum(((new[k] >> i) & 1) << k for k in range(ncol))
        changes.append((ln, i, before, after) if ln < H else (i, ln - H, before, after))
    return LineDeduction(ln, tuple(changes))


def _inside(child: list[int], st: list[int]) -> bool:
    """True when every candidate left in `child` is still a candidate in `st` (child is inside st)."""
    for a, b in zip(child, st, strict=True):
        if a & ~b:
            return False
    return True


class Engine:
    """Line propagation and probing for one puzzle. The search (search.py) drives it."""

    def __init__(self, puzzle: Puzzle, deadline: float | None = None) -> None:
        self.puzzle = puzzle
        self.H = puzzle.height
        self.W = puzzle.width
        self.ncol = len(puzzle.palette)
        self.nlines = self.H + self.W
        self.deadline = deadline
        self.stats = Stats()
        # Who hears the deductions (trace.py); None runs the fast paths and reports nothing.
        self.observer: Observer | None = None
        self.failed_line = -1  # the line of the last contradiction the Python propagation met
        self.cache: dict[Any, tuple[int, ...] | None] = {}
        # Identical (clue, length) pairs share one cache key id.
        ids: dict[tuple[Blocks, int], int] = {}
        self.blocks: list[Blocks] = []
        self.plans: list[Plan] = []  # per line, the line solver's plan of its clue (made once, not per solve)
        self.length: list[int] = []
        self.key: list[int] = []
        # The line solver: run clues' (line.py), or count-and-contiguity clues' (count_line.py, same interface,
        # Python only: the C solver takes run clues).
        counts = puzzle.clue_kind == COUNTS
        self.solve_planned = count_line.solve_planned if counts else solve_planned
        self.feasible_planned = count_line.feasible_planned if counts else feasible_planned
        for clue, n in puzzle.lines():
            b = clue if counts else blocks_of(clue)
            self.blocks.append(b)
            self.plans.append(count_line.plan_of(clue, n) if counts else plan_of(b))
            self.length.append(n)
            self.key.append(ids.setdefault((b, n), len(ids)))
        # The C line solver (fast.py) when it is built and takes this puzzle: the three methods that solve lines
        # are replaced by theirs for this engine. No cache then: a C solve costs less than the cache's lookup.
        self.fast_plans = None if counts else fast.plans_for(self.blocks, self.length, self.ncol)
        if self.fast_plans is not None:
            self.line_result = self._fast_line_result  # type: ignore[method-assign]
            self.line_feasible = self._fast_line_feasible  # type: ignore[method-assign]
            self.propagate = self._fast_propagate  # type: ignore[method-assign]

    # ----------------------------------------------------------------- state helpers

    def initial_state(self) -> list[int]:
        st: list[int] = []
        for n in self.length:
            st.extend([(1 << n) - 1] * self.ncol)
        return st

    def restrict(self, st: list[int], fixed: dict[tuple[int, int], int] | None) -> None:
        """Apply `SolveOptions.fixed` ({(row, col): allowed colour mask}) to a state (no propagation)."""
        for (r, c), allowed in (fixed or {}).items():
            for k in range(self.ncol):
                if not (allowed >> k) & 1:
                    self.forbid(st, r, c, k)

    def cell_mask(self, st: list[int], r: int, c: int) -> int:
        """The Domains-style mask (bit k = colour k) of cell (r, c)."""
        base = r * self.ncol
        return sum(((st[base + k] >> c) & 1) << k for k in range(self.ncol))

    def to_masks(self, st: list[int]) -> list[int]:
        """Row-major per-cell masks, as in `nonocp.core.grid.Domains.masks`."""
        return [self.cell_mask(st, r, c) for r in range(self.H) for c in range(self.W)]

    def unknown_rows(self, st: list[int]) -> list[int]:
        """Per row, the bitset of cells with two or more colours left."""
        ncol = self.ncol
        out = []
        for r in range(self.H):
            base = r * ncol
            if ncol == 2:
                out.append(st[base] & st[base + 1])
            else:
                seen = multi = 0
                for k in range(ncol):
                    m = st[base + k]
                    multi |= seen & m
                    seen |= m
                out.append(multi)
        return out

    def assign(self, st: list[int], r: int, c: int, color: int) -> None:
        """Restrict cell (r, c) to `color` in both its row and its column (no propagation)."""
        ncol = self.ncol
        rb, cb = r * ncol, (self.H + c) * ncol
        rbit, cbit = ~(1 << c), ~(1 << r)
        for k in range(ncol):
            if k != color:
                st[rb + k] &= rbit
                st[cb + k] &= cbit

    def forbid(self, st: list[int], r: int, c: int, color: int) -> None:
        """Remove `color` from cell (r, c) in both its row and its column (no propagation)."""
        ncol = self.ncol
        st[r * ncol + color] &= ~(1 << c)
        st[(self.H + c) * ncol + color] &= ~(1 << r)

    def state_from_masks(self, masks: list[int]) -> list[int]:
        """A state from row-major Domains masks (the inverse of to_masks)."""
        ncol, H, W = self.ncol, self.H, self.W
        st = [0] * (self.nlines * ncol)
        for r in range(H):
            for c in range(W):
                m = masks[r * W + c]
                for k in range(ncol):
                    if (m >> k) & 1:
                        st[r * ncol + k] |= 1 << c
                        st[(H + c) * ncol + k] |= 1 << r
        return st

    def diff(self, before: list[int], after: list[int]) -> tuple[tuple[int, int, int, int], ...]:
        """(row, col, old mask, new mask) of every cell that differs between two states."""
        ncol = self.ncol
        out = []
        for r in range(self.H):
            base = r * ncol
            d = 0
            for k in range(ncol):
                d |= before[base + k] ^ after[base + k]
            while d:
                low = d & -d
                d ^= low
                c = low.bit_length() - 1
                out.append((r, c, self.cell_mask(before, r, c), self.cell_mask(after, r, c)))
        return tuple(out)

    def check_deadline(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Timeout

    # ----------------------------------------------------------------- propagation

    def line_result(self, ln: int, old: tuple[int, ...]) -> tuple[int, ...] | None:
        """The exact line solver's answer for line `ln` whose masks are `old`, through the cache.

        The one place every search solves a line (propagation, probing, the CDCL search and its
        explanations). Counts solves and cache hits; raises Timeout now and then when the deadline passed.
        """
        k = (self.key[ln], old[0], old[1]) if self.ncol == 2 else (self.key[ln], old)
        cache = self.cache
        res = cache.get(k, _MISSING)
        stats = self.stats
        if res is _MISSING:
            res = self.solve_planned(self.plans[ln], self.length[ln], old)
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            cache[k] = res
            stats.line_solves += 1
            if not stats.line_solves & 127 and self.deadline is not None and time.monotonic() > self.deadline:
                raise Timeout  # long propagations on big grids must honour the time limit too
        else:
            stats.cache_hits += 1
        return res

    def line_feasible(self, ln: int, old: tuple[int, ...]) -> bool:
        """Has line `ln` with masks `old` a valid placement? The cached answer if any, else one forward pass
        (a contradiction is cached like line_result's; a success is not, as it carries no narrowed masks)."""
        # the same key as line_result's, written out in both: a helper would add a call to the hottest path
        k = (self.key[ln], old[0], old[1]) if self.ncol == 2 else (self.key[ln], old)
        res = self.cache.get(k, _MISSING)
        if res is not _MISSING:
            self.stats.cache_hits += 1
            return res is not None
        self.stats.line_solves += 1
        if self.feasible_planned(self.plans[ln], self.length[ln], old):
            return True
        if len(self.cache) >= CACHE_LIMIT:
            self.cache.clear()
        self.cache[k] = None
        return False

    def _fast_line_result(self, ln: int, old: tuple[int, ...]) -> tuple[int, ...] | None:
        """line_result by the C line solver (no cache)."""
        stats = self.stats
        stats.line_solves += 1
        if not stats.line_solves & 127 and self.deadline is not None and time.monotonic() > self.deadline:
            raise Timeout
        return fast.solve_line(self.fast_plans[ln], self.length[ln], old)

    def _fast_line_feasible(self, ln: int, old: tuple[int, ...]) -> bool:
        self.stats.line_solves += 1
        return fast.solve_line(self.fast_plans[ln], self.length[ln], old) is not None

    def _fast_propagate(self, st: list[int], lines: Iterable[int], trace: bool = False) -> int:
        """propagate by the C propagation loop; with `trace` and an observer (who hears every step) the Python one."""
        if trace and self.observer is not None:
            return Engine.propagate(self, st, lines, trace)
        removed, solves = fast.propagate(st, lines, self.fast_plans, self.length, self.H, self.ncol)
        self.count_line_solves(solves)
        return removed

    def count_line_solves(self, solves: int) -> None:
        """Add line solves made in C (one call, many solves) to the stats; Timeout if the deadline passed."""
        if solves:
            self.stats.line_solves += solves
            self.check_deadline()

    def propagate(self, st: list[int], lines: Iterable[int], trace: bool = False) -> int:
        """Run the line solver on dirty lines until nothing changes. Mutates `st`.

        Returns the number of (cell, colour) candidates removed, or -1 on a contradiction (then `st` is
        left half-updated and must be discarded; `failed_line` names the line). With `trace`, every line
        step goes to the observer, if any.
        """
        ncol = self.ncol
        H = self.H
        line_result = self.line_result
        queue = deque()
        inq = bytearray(self.nlines)
        for ln in lines:
            if not inq[ln]:
                inq[ln] = 1
                queue.append(ln)
        removed = 0
        popleft, push = queue.popleft, queue.append
        while queue:
            ln = popleft()
            inq[ln] = 0
            base = ln * ncol
            old = (st[base], st[base + 1]) if ncol == 2 else tuple(st[base:base + ncol])
            res = line_result(ln, old)
            if res is None:
                self.failed_line = ln
                return -1
            if res == old:
                continue
            if ln < H:
                cross0, nb = H, ~(1 << ln)
            else:
                cross0, nb = 0, ~(1 << (ln - H))
            if trace and self.observer is not None:
                self.observer(self.line_event(ln, old, res))
            for col in range(ncol):
                rem = old[col] ^ res[col]
                if rem:
                    st[base + col] = res[col]
                    while rem:
                        low = rem & -rem
                        rem ^= low
                        cl = cross0 + low.bit_length() - 1
                        st[cl * ncol + col] &= nb
                        removed += 1
                        if not inq[cl]:
                            inq[cl] = 1
                            push(cl)
        return removed

    def line_event(self, ln: int, old: tuple[int, ...], new: tuple[int, ...]) -> LineDeduction:
        """The LineDeduction for line `ln` narrowed from masks `old` to `new` (per-colour bitsets)."""
        return line_event(ln, self.H, old, new)

    # ----------------------------------------------------------------- probing

    @staticmethod
    def branch_score(counts: list[int]) -> Any:
        """How good a branching cell is, from the ascending removal counts of its probes (higher = better).

        The sum of what the smallest and the largest branch decide: on the first 30 tournament puzzles it
        needed fewer nodes than max-min, the product or the maximum alone (138 vs 147-156), and on Forever
        it went deepest per node.
        """
        return counts[0] + counts[-1]

    def probe(self, st: list[int], trace: bool = False,
              scores: dict[tuple[int, int], Any] | None = None) -> tuple[bool, Any]:
        """Probe every unknown cell until a whole pass deduces nothing. Mutates `st` (narrows it).

        For each unknown cell and each colour left in it: assume the colour and propagate. A colour whose
        assumption contradicts is removed (then propagated); when every remaining colour is consistent,
        what all their fixpoints agree on is kept. Returns (consistent, branch) where branch is None when
        the grid is solved, else (cell, [(colour, propagated child state), ...]) for the cell the search
        should branch on: the one whose branches removed the most (the smaller branch counts first),
        so both subtrees start well narrowed.

        Probes are remembered between passes: a cell whose every probed child state is still inside the
        current state would probe to exactly the same children again (the line-propagation fixpoint below
        a narrower state that still contains the old fixpoint is that fixpoint), so it is not re-probed.
        This makes the final, confirming pass nearly free and re-probes only what the last deductions
        touched. (Probing only near the last change was measured too: on 15 tournament puzzles it
        needed the same nodes and probes but cost more, so every unknown cell is probed.)
        """
        ncol, H = self.ncol, self.H
        stats = self.stats
        deadline = self.deadline
        propagate = self.propagate
        memo: dict[tuple[int, int], list[tuple[int, int, list[int]]]] = {}
        while True:
            stats.probe_passes += 1
            changed = False
            best_score: Any = None
            best: Any = None
            unknown = self.unknown_rows(st)
            if not any(unknown):
                return True, None
            for r in range(H):
                u = unknown[r]
                rb = r * ncol
                while u:
                    low = u & -u
                    u ^= low
                    c = low.bit_length() - 1
                    cell = (r, c)
                    children = memo.get(cell)
                    if children is not None and not all(_inside(ch, st) for _, _, ch in children):
                        children = None
                    if children is None:
                        colors = [k for k in range(ncol) if st[rb + k] & low]
                        if len(colors) < 2:
                            continue
                        if deadline is not None and time.monotonic() > deadline:
                            raise Timeout
                        children = []
                        for k in colors:
                            child = list(st)
                            self.assign(child, r, c, k)
                            stats.probes += 1
                            n = propagate(child, (r, H + c))
                            if n < 0:
                                if trace and self.observer is not None:
                                    self._report_refutation(st, r, c, k)
                                self.forbid(st, r, c, k)
                                if propagate(st, (r, H + c), trace) < 0:
                                    return False, None
                                changed = True
                                break  # the cell is narrowed (decided, in black and white); next pass re-probes it
                            children.append((n, k, child))
                        else:
                            memo[cell] = children
                        if len(children) < len(colors):
                            continue  # the state changed; scores of this cell are stale
                        agreed = self._agreement(st, children, r, c, trace)
                        if agreed < 0:
                            return False, None
                        if agreed:
                            changed = True
                            continue
                    # (a remembered cell's counts were taken against an earlier, wider state: an estimate)
                    score = self.branch_score(sorted(n for n, _, _ in children))
                    if scores is not None:
                        scores[cell] = score
                    if best_score is None or score > best_score:
                        best_score = score
                        best = (cell, [(k, child) for _, k, child in sorted(children, key=lambda t: -t[0])])
            if not changed:
                return True, best

    def _report_refutation(self, st: list[int], r: int, c: int, k: int) -> None:
        """Tell the observer why colour k leaves cell (r, c): the assumption is propagated again by the
        Python loop (the trial may have run in C, which does not say which line failed), counting the line
        deductions on the way."""
        observer = self.observer
        assert observer is not None
        chain = 0

        def count(_event) -> None:
            nonlocal chain
            chain += 1

        trial = list(st)
        self.assign(trial, r, c, k)
        self.observer = count
        try:
            failed = Engine.propagate(self, trial, (r, self.H + c), True) < 0
        finally:
            self.observer = observer
        old = self.cell_mask(st, r, c)
        line = self.failed_line if failed else -1
        observer(ProbeContradiction((r, c), k, line, chain, ((r, c, old, old & ~(1 << k)),)))

    def _agreement(self, st: list[int], children: list[tuple[int, int, list[int]]], r: int, c: int,
                   trace: bool) -> int:
        """Narrow `st` to the union of the children's states. Returns removed count, or -1 on contradiction."""
        if fast.union_if_narrower is not None:  # in C: most probes agree on nothing new (a third of Petro's time)
            union = fast.union_if_narrower(st, [ch for _, _, ch in children])
            if union is None:
                return 0
        else:
            union = children[0][2]
            for _, _, ch in children[1:]:
                union = [a | b for a, b in zip(union, ch, strict=True)]
            if union == st:
                return 0
        dirty = []
        ncol = self.ncol
        for ln in range(self.nlines):
            base = ln * ncol
            if union[base:base + ncol] != st[base:base + ncol]:
                dirty.append(ln)
        if trace and self.observer is not None:
            self.observer(ProbeAgreement((r, c), self.diff(st, union)))
        st[:] = union
        # The union of consistent fixpoints cannot contradict (each child is a fixpoint below it), so this
        # propagation only narrows further.
        n = self.propagate(st, dirty, trace)
        return -1 if n < 0 else n + 1
