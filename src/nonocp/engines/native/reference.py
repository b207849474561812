"""The reference core in Python: the grid state, line propagation and probing (the CDCL search is in
reference_cdcl.py). It is the oracle the compiled core (`_core`, csrc/) is tested against, step for step,
and the core that runs where the compiled one cannot (no compiler, lines over its word size, more colours
than it takes, `NONOCP_PURE_PYTHON=1`). core.py documents the API both offer and picks one.

The state is one flat list of ints, `st[line * ncol + colour]`: for each line (rows 0..H-1, then columns
H..H+W-1) and each colour, the bitset of the line's cells that may still be that colour. Every cell appears
twice (in its row and in its column) and both copies are kept equal: whenever a line solve removes a colour
from a cell, the crossing line loses it too and is queued.

The compiled core must take exactly the same steps in the same order (the same line solves, probes,
branch choices, trace events), so every order below is part of the contract: a change here is a change
there (tests/test_core.py compares the two on random grids).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from nonocp.core.errors import OutOfTime
from nonocp.engines.native import count_line, line
from nonocp.engines.native.line import Blocks

# The cache of line results is dropped when it grows past CACHE_LIMIT entries or CACHE_BYTES, whichever comes
# first (keeps memory bounded on long searches). An entry holds two line-long masks in its key and `ncol` in
# its value, so on long lines an entry is several times what it is on 25-cell lines. Only this core has a
# cache: a compiled line solve costs less than a lookup.
CACHE_LIMIT = 400_000
CACHE_BYTES = 128 << 20

# What a trace callback hears (core.py): a line narrowed, a probed colour refuted, a probed cell's colours agreed.
TRACE_LINE, TRACE_REFUTE, TRACE_AGREE = 0, 1, 2

Trace = Callable[..., None]
_MISSING = object()


def cache_limit(longest_line: int, ncol: int) -> int:
    """Entries the line cache may hold for lines up to `longest_line` cells with `ncol` colours."""
    per_entry = 150 + 2 * ncol * (28 + 4 * (longest_line // 30 + 1))
    return max(1000, min(CACHE_LIMIT, CACHE_BYTES // per_entry))


def branch_score(counts: list[int]) -> int:
    """How good a branching cell is, from the ascending removal counts of its probes (higher = better).

    The sum of what the smallest and the largest branch decide: on the first 30 tournament puzzles it needed
    fewer nodes than max-min, the product or the maximum alone, and on Forever it went deepest per node
    (benchmarks/results/native.md, "Root probing")."""
    return counts[0] + counts[-1]


def _inside(child: list[int], st: list[int]) -> bool:
    """True when every candidate left in `child` is still a candidate in `st` (child is inside st)."""
    for a, b in zip(child, st, strict=True):
        if a & ~b:
            return False
    return True


class PyCore:
    """One puzzle's search state and the algorithms on it (see the module docstring and core.py)."""

    implementation = "python"

    def __init__(self, blocks: Sequence[Any], lengths: Sequence[int], height: int, width: int,
                 ncol: int, counts: bool = False) -> None:
        """`blocks`: per line its run clue as line.py's Blocks, or with `counts` its count-and-contiguity clue
        (CountClue), solved by count_line.py (the same interface; the compiled core takes run clues only)."""
        self.H, self.W, self.ncol = height, width, ncol
        self.nlines = height + width
        self.lengths = list(lengths)
        solver: Any = count_line if counts else line
        self.plans = [count_line.plan_of(b, n) for b, n in zip(blocks, lengths, strict=True)] if counts else \
            [line.plan_of(b) for b in blocks]
        self._solve_planned, self._feasible_planned = solver.solve_planned, solver.feasible_planned
        self.cache_limit = cache_limit(max(self.lengths, default=0), ncol)
        # identical (clue, length) pairs share one cache key id
        ids: dict[tuple[Blocks, int], int] = {}
        self.key = [ids.setdefault((b, n), len(ids)) for b, n in zip(blocks, lengths, strict=True)]
        self.cache: dict[Any, tuple[int, ...] | None] = {}
        self.deadline: float | None = None
        self.failed_line = -1  # the line of the last contradiction propagation met
        self.line_solves = self.cache_hits = self.probes = self.probe_passes = 0
        self._scores: dict[tuple[int, int], int] = {}
        self.cdcl: Any = None
        self.st: list[int] = []
        self.reset()

    # ----------------------------------------------------------------- state

    def reset(self) -> None:
        """Every colour possible in every cell."""
        st: list[int] = []
        for n in self.lengths:
            st.extend([(1 << n) - 1] * self.ncol)
        self.st = st

    def set_state(self, st: Sequence[int]) -> None:
        if len(st) != self.nlines * self.ncol:
            raise ValueError("set_state: the state does not fit this puzzle")
        self.st = list(st)

    def state(self) -> list[int]:
        return list(self.st)

    def masks(self) -> list[int]:
        """Row-major per-cell masks, as in `nonocp.core.grid.Domains.masks` (bit k = colour k)."""
        st, ncol = self.st, self.ncol
        if self.H * self.W > BIG_GRID:
            return _masks_by_rows(st, ncol, self.H, self.W)
        out = []
        for r in range(self.H):
            base = r * ncol
            for c in range(self.W):
                out.append(sum(((st[base + k] >> c) & 1) << k for k in range(ncol)))
        return out

    def assign(self, r: int, c: int, colour: int) -> None:
        """Restrict cell (r, c) to `colour` in its row and its column (no propagation)."""
        _assign(self.st, self.ncol, self.H, r, c, colour)

    def forbid(self, r: int, c: int, colour: int) -> None:
        """Remove `colour` from cell (r, c) in its row and its column (no propagation)."""
        ncol = self.ncol
        self.st[r * ncol + colour] &= ~(1 << c)
        self.st[(self.H + c) * ncol + colour] &= ~(1 << r)

    def counters(self) -> dict[str, int]:
        out = {"line_solves": self.line_solves, "cache_hits": self.cache_hits, "probes": self.probes,
               "probe_passes": self.probe_passes}
        if self.cdcl is not None:
            out.update(self.cdcl.counters())
        return out

    def _check_deadline(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfTime

    # ----------------------------------------------------------------- the line solver

    def line_result(self, ln: int, old: tuple[int, ...]) -> tuple[int, ...] | None:
        """The exact line solver's answer for line `ln` whose masks are `old`, through the cache. Every call
        counts as a line solve (a cached answer too, so that the count is the compiled core's); raises
        OutOfTime once the deadline passed: before every fresh solve (one of a 10,000-cell line takes tens of
        milliseconds, a clock read 50 ns) and every 128 cached answers."""
        self.line_solves += 1
        deadline = self.deadline
        if not self.line_solves & 127 and deadline is not None and time.monotonic() > deadline:
            raise OutOfTime
        k = (self.key[ln], old[0], old[1]) if self.ncol == 2 else (self.key[ln], old)
        cache = self.cache
        res = cache.get(k, _MISSING)
        if res is _MISSING:
            if deadline is not None and time.monotonic() > deadline:
                raise OutOfTime
            res = self._solve_planned(self.plans[ln], self.lengths[ln], old)
            if len(cache) >= self.cache_limit:
                cache.clear()
            cache[k] = res
        else:
            self.cache_hits += 1
        return res  # type: ignore[return-value]  # not _MISSING here: a line's masks, or None

    def line_feasible(self, ln: int, old: tuple[int, ...]) -> bool:
        """Has line `ln` with masks `old` a valid placement? The cached answer if any, else one forward pass
        (a contradiction is cached like line_result's; a success is not, as it carries no narrowed masks)."""
        self.line_solves += 1
        k = (self.key[ln], old[0], old[1]) if self.ncol == 2 else (self.key[ln], old)
        res = self.cache.get(k, _MISSING)
        if res is not _MISSING:
            self.cache_hits += 1
            return res is not None
        if self._feasible_planned(self.plans[ln], self.lengths[ln], old):
            return True
        if len(self.cache) >= self.cache_limit:
            self.cache.clear()
        self.cache[k] = None
        return False

    def solve_line(self, ln: int, masks: Sequence[int]) -> tuple[int, ...] | None:
        """Line `ln`'s exact answer for the per-colour `masks` (a line solve like any other)."""
        return self.line_result(ln, tuple(masks))

    # ----------------------------------------------------------------- propagation

    def propagate(self, lines: Iterable[int] | None = None, trace: Trace | None = None) -> int:
        """Line propagation on the state from the dirty `lines` (None: every line) to a fixpoint; see
        `_propagate`. Returns removed candidates, or -1 on a contradiction (the state is then spoilt)."""
        return self._propagate(self.st, range(self.nlines) if lines is None else lines, trace)[0]

    def _propagate(self, st: list[int], lines: Iterable[int], trace: Trace | None = None) -> tuple[int, int]:
        """Run the line solver on dirty lines, first in first out, until nothing changes. Mutates `st`.

        Returns (removed, changed lines): the (cell, colour) candidates removed, or -1 on a contradiction
        (then `failed_line` names the line), and how many line solves narrowed their line. Every narrowing
        goes to `trace` (TRACE_LINE, line, old masks, new masks) before it is applied."""
        ncol, H = self.ncol, self.H
        line_result = self.line_result
        queue: deque[int] = deque()
        inq = bytearray(self.nlines)
        for ln in lines:
            if not inq[ln]:
                inq[ln] = 1
                queue.append(ln)
        removed = changed = 0
        popleft, push = queue.popleft, queue.append
        while queue:
            ln = popleft()
            inq[ln] = 0
            base = ln * ncol
            old = (st[base], st[base + 1]) if ncol == 2 else tuple(st[base:base + ncol])
            res = line_result(ln, old)
            if res is None:
                self.failed_line = ln
                return -1, changed
            if res == old:
                continue
            changed += 1
            if ln < H:
                cross0, nb = H, ~(1 << ln)
            else:
                cross0, nb = 0, ~(1 << (ln - H))
            if trace is not None:
                trace(TRACE_LINE, ln, old, res)
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
        return removed, changed

    # ----------------------------------------------------------------- probing

    def scores(self) -> dict[tuple[int, int], int]:
        """The branch score of every cell the last probe() scored (a cell keeps its last score)."""
        return dict(self._scores)

    def probe(self, trace: Trace | None = None, branch: bool = False) -> tuple[bool, Any]:
        """Probe every unknown cell until a whole pass deduces nothing. Narrows the state.

        For each unknown cell (rows in order, cells left to right) and each colour left in it: assume the
        colour and propagate. A colour whose assumption contradicts is removed (then propagated); when every
        remaining colour is consistent, what all their fixpoints agree on is kept. Returns (consistent,
        best): best is None when the grid is solved or `branch` is False, else (cell, [(colour, propagated
        child state), ...]) for the cell the search should branch on: the one of highest branch_score (the
        first of equals), its children by decreasing removals (colour order among equals), so both
        subtrees start well narrowed. Every scored cell's score is kept (scores()).

        Probes are remembered between passes: a cell whose every probed child state is still inside the
        current state would probe to exactly the same children again (the propagation fixpoint below a
        narrower state that still contains the old fixpoint is that fixpoint), so it is not re-probed.
        This makes the final, confirming pass nearly free and re-probes only what the last deductions
        touched.

        With `trace`: every line narrowing of the state (TRACE_LINE), every refuted colour (TRACE_REFUTE,
        cell index, colour, the line that failed, the trial's line narrowings before it, the cell's mask
        before) and every
        agreement (TRACE_AGREE, cell index, state before, state after, then its propagation's lines).
        """
        st = self.st
        ncol, H, W = self.ncol, self.H, self.W
        deadline = self.deadline
        scores = self._scores
        scores.clear()
        memo: dict[tuple[int, int], list[tuple[int, int, list[int]]]] = {}
        while True:
            self.probe_passes += 1
            changed = False
            best_score = -1
            best: Any = None
            unknown = _unknown_rows(st, ncol, H)
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
                            raise OutOfTime
                        children = []
                        for k in colors:
                            child = list(st)
                            _assign(child, ncol, H, r, c, k)
                            self.probes += 1
                            n, chain = self._propagate(child, (r, H + c))
                            if n < 0:
                                if trace is not None:
                                    old = sum(((st[rb + j] >> c) & 1) << j for j in range(ncol))
                                    trace(TRACE_REFUTE, r * W + c, k, self.failed_line, chain, old)
                                st[rb + k] &= ~low
                                st[(H + c) * ncol + k] &= ~(1 << r)
                                if self._propagate(st, (r, H + c), trace)[0] < 0:
                                    return False, None
                                changed = True
                                break  # the cell is narrowed; the next pass re-probes it
                            children.append((n, k, child))
                        else:
                            memo[cell] = children
                        if len(children) < len(colors):
                            continue  # the state changed; scores of this cell are stale
                        agreed = self._agreement(children, r, c, trace)
                        if agreed < 0:
                            return False, None
                        if agreed:
                            changed = True
                            continue
                    # (a remembered cell's counts were taken against an earlier, wider state: an estimate)
                    score = branch_score(sorted(n for n, _, _ in children))
                    scores[cell] = score
                    if score > best_score:
                        best_score = score
                        best = (cell, children)
            if not changed:
                if best is None or not branch:
                    return True, None
                cell, children = best
                return True, (cell, [(k, list(child)) for _, k, child in sorted(children, key=lambda t: -t[0])])

    def _agreement(self, children: list[tuple[int, int, list[int]]], r: int, c: int, trace: Trace | None) -> int:
        """Narrow the state to the union of the children's states. Returns removed + 1, 0 when the union
        is the state, or -1 on a contradiction."""
        st = self.st
        union = children[0][2]
        for _, _, ch in children[1:]:
            union = [a | b for a, b in zip(union, ch, strict=True)]
        if union == st:
            return 0
        ncol = self.ncol
        dirty = [ln for ln in range(self.nlines) if union[ln * ncol:(ln + 1) * ncol] != st[ln * ncol:(ln + 1) * ncol]]
        if trace is not None:
            trace(TRACE_AGREE, r * self.W + c, list(st), list(union))
        st[:] = union
        # The union of consistent fixpoints cannot contradict (each child is a fixpoint below it), so this
        # propagation only narrows further.
        n = self._propagate(st, dirty, trace)[0]
        return -1 if n < 0 else n + 1

    # ----------------------------------------------------------------- the CDCL search (reference_cdcl.py)

    def cdcl_begin(self, minimize: bool = True, guide: bool = True, audit: Callable[..., None] | None = None) -> None:
        """Start a CDCL search over the residue of the current (propagated) state; see reference_cdcl.py."""
        from nonocp.engines.native.reference_cdcl import Cdcl

        self.cdcl = Cdcl(self, minimize, self._scores if guide else None, audit)

    def cdcl_search(self, restart_at: int, pause: float | None = None) -> int:
        code: int = self.cdcl.search(restart_at, pause)
        return code

    def cdcl_solution(self) -> list[int]:
        return list(self.st)

    def cdcl_block(self) -> bool:
        left: bool = self.cdcl.block()
        return left

    def cdcl_restart(self) -> None:
        self.cdcl.restart()

    def cdcl_prefer(self, colours: list[int]) -> None:
        self.cdcl.prefer(colours)


def _assign(st: list[int], ncol: int, H: int, r: int, c: int, colour: int) -> None:
    rb, cb = r * ncol, (H + c) * ncol
    rbit, cbit = ~(1 << c), ~(1 << r)
    for k in range(ncol):
        if k != colour:
            st[rb + k] &= rbit
            st[cb + k] &= cbit


def _unknown_rows(st: list[int], ncol: int, H: int) -> list[int]:
    """Per row, the bitset of cells with two or more colours left."""
    out = []
    for r in range(H):
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


# Above this many cells, masks() unpacks each row's bitsets with numpy: a Python loop per cell costs seconds
# on a 4-million-cell grid, which the time limit does not cover.
BIG_GRID = 100_000


def _masks_by_rows(st: Sequence[int], ncol: int, height: int, width: int) -> list[int]:
    import numpy as np

    nbytes = (width + 7) // 8
    cells = (1 << width) - 1
    out = np.zeros((height, width), dtype=np.uint64)
    for r in range(height):
        base = r * ncol
        row = out[r]
        for k in range(ncol):
            bits = st[base + k] & cells
            if bits:
                flags = np.unpackbits(np.frombuffer(bits.to_bytes(nbytes, "little"), dtype=np.uint8),
                                      bitorder="little")[:width]
                row |= flags.astype(np.uint64) << np.uint64(k)
    return out.ravel().tolist()
