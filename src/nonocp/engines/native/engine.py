"""A puzzle's core (core.py) with the helpers the probing depth-first search and the public functions use:
states as lists, cell masks, and the trace callback that turns the core's reports into trace.py events.

The state format is the core's: one flat list of ints, `state[line * ncol + colour]` (see core.py). The
depth-first search (search.py) keeps a stack of such lists and hands each to the core in turn; the CDCL
search keeps its state in the core and never goes through here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nonocp.core.cancel import Cancel
from nonocp.core.puzzle import Puzzle
from nonocp.engines.native.core import Core, core_for
from nonocp.engines.native.reference import TRACE_LINE, TRACE_REFUTE
from nonocp.engines.native.trace import LineDeduction, Observer, ProbeAgreement, ProbeContradiction

# A deadline that never comes (seconds): what the core gets when only a Cancel may stop it.
NO_DEADLINE = 1e9


def _nothing() -> None:
    pass


@dataclass
class Stats:
    """What the search in Python counts (the depth-first search's nodes and depth; phases' seconds); the
    core counts the rest (line solves, probes, conflicts...)."""

    nodes: int = 0
    max_depth: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    beliefs_at: int | None = None  # the CDCL search's conflicts when its decisions began to keep the beliefs

    def as_dict(self, counters: dict[str, int]) -> dict[str, Any]:
        out: dict[str, Any] = {"line_solves": 0, "cache_hits": 0, "probes": 0, "probe_passes": 0,
                               "nodes": self.nodes, "max_depth": self.max_depth, "conflicts": 0, "restarts": 0}
        for key, value in counters.items():
            if key == "decisions":
                out["nodes"] += value
            elif key == "max_level":
                out["max_depth"] = max(out["max_depth"], value)
            else:
                out[key] = value
        out["seconds"] = {k: round(v, 6) for k, v in self.seconds.items()}
        if self.beliefs_at is not None:
            out["beliefs_at"] = self.beliefs_at
        return out


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


class Engine:
    """One puzzle's core, list-state helpers, and the observer that hears traced steps (trace.py)."""

    def __init__(self, puzzle: Puzzle, deadline: float | None = None, compiled: bool | None = None) -> None:
        self.puzzle = puzzle
        self.H = puzzle.height
        self.W = puzzle.width
        self.ncol = len(puzzle.palette)
        self.nlines = self.H + self.W
        self.core: Core = core_for(puzzle, compiled)
        self.core.deadline = deadline
        self.stats = Stats()
        # Who hears the deductions (trace.py); None: the core reports nothing.
        self.observer: Observer | None = None

    def stop_on(self, cancel: Cancel | None) -> Callable[[], None]:
        """Have `cancel` stop this engine (its core raises Timeout at its next check, within milliseconds);
        returns the function that stops watching, to call when the search is over."""
        if cancel is None:
            return _nothing
        core = self.core
        if core.deadline is None:  # the core reads its clock, and lets other threads run, only with a deadline
            core.deadline = time.monotonic() + NO_DEADLINE
        return cancel.on_cancel(lambda: setattr(core, "deadline", 0.0))

    @property
    def failed_line(self) -> int:
        """The line of the last contradiction propagation met."""
        return self.core.failed_line

    def stats_dict(self) -> dict[str, Any]:
        return {**self.stats.as_dict(self.core.counters()), "core": self.core.implementation}

    # ----------------------------------------------------------------- states as lists

    def initial_state(self) -> list[int]:
        st: list[int] = []
        for ln in range(self.nlines):
            st.extend([(1 << (self.W if ln < self.H else self.H)) - 1] * self.ncol)
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
            seen = multi = 0
            for k in range(ncol):
                m = st[r * ncol + k]
                multi |= seen & m
                seen |= m
            out.append(multi)
        return out

    def assign(self, st: list[int], r: int, c: int, color: int) -> None:
        """Restrict cell (r, c) to `color` in both its row and its column (no propagation)."""
        for k in range(self.ncol):
            if k != color:
                self.forbid(st, r, c, k)

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

    # ----------------------------------------------------------------- the core on a list state

    def propagate(self, st: list[int], lines: Iterable[int], trace: bool = False) -> int:
        """Line propagation of `st` (narrowed in place) from the dirty `lines`; with `trace`, every step goes
        to the observer. Removed candidates, or -1 on a contradiction (`st` is then spoilt)."""
        core = self.core
        core.set_state(st)
        n = core.propagate(lines, self.report if trace and self.observer is not None else None)
        st[:] = core.state()
        return n

    def probe(self, st: list[int], trace: bool = False,
              scores: dict[tuple[int, int], Any] | None = None) -> tuple[bool, Any]:
        """Probing of `st` (narrowed in place) to a fixpoint: (consistent, branch), branch None when solved,
        else (cell, [(colour, child state), ...]) to branch on (reference.PyCore.probe). With `scores`, every
        scored cell's branch score is added to it."""
        core = self.core
        core.set_state(st)
        ok, best = core.probe(self.report if trace and self.observer is not None else None, True)
        st[:] = core.state()
        if scores is not None:
            scores.update(core.scores())
        return ok, best

    def report(self, kind: int, *args: Any) -> None:
        """The core's report of one deduction, as a trace.py event to the observer."""
        observer = self.observer
        if observer is None:
            return
        if kind == TRACE_LINE:
            ln, old, new = args
            observer(line_event(ln, self.H, old, new))
        elif kind == TRACE_REFUTE:
            cell, k, line, chain, old = args
            r, c = divmod(cell, self.W)
            observer(ProbeContradiction((r, c), k, line, chain, ((r, c, old, old & ~(1 << k)),)))
        else:
            cell, before, after = args
            observer(ProbeAgreement(divmod(cell, self.W), self.diff(before, after)))


__all__ = ["Engine", "Stats", "line_event"]
