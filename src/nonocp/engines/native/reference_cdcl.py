"""The reference core's search with learning: conflict-driven clause learning (CDCL) over cells, with the
line solver as propagator. The compiled core (csrc/cdcl.c) takes exactly these steps; this module is its
oracle and the search where it is not built. The search's driver (restarts, solutions, limits) is cdcl.py.

Why: a depth-first search forgets why a branch failed, so on puzzles such as Forever (webpbn 6574) it
re-discovers the same dead ends under every later decision. Here every failure is analysed and turned into
a clause (a "nogood") that forbids the cause everywhere else.

The model. One Boolean per (cell, colour): p(v), v = cell * ncol + colour, "the cell is that colour"
(exactly one colour per cell). The search state is which p(v) are known false: the *removals*, kept on a
trail in the order they were made, each with its decision level and its reason:

* a decision (reason None): the search removes one colour from one undecided cell;
* a line step (reason: the line): the exact line solver removed it. Its explanation is every earlier
  removal in the same line (the line solver's answer depends on nothing else). That is always correct
  but coarse, so during analysis it is shrunk to the removals near the cell that still imply the step
  (`_shrink`); propagation only records each line's removals as they happen (`line_cum`);
* a clause step (reason: the other literals of a clause, copied): all other literals of a learned clause
  are false, so its first literal p(v) is true and every other colour of that cell is removed.

Propagation visits the clause watches of every new removal first (cheap), then solves one dirty line, in
the order the lines were queued: a line waits while its other cells change and is solved once for them all
(a third fewer line solves per conflict than solving the line queued last, benchmarks/results/native-core.md).

Learned clauses are disjunctions of positive literals p(v) ("one of these cells has that colour"), the
negation of a set of removals that together lead to a contradiction. They are found by the usual first-UIP
analysis, minimized (a removal whose reason lies within the clause is dropped), watched with two watched
literals (each watch keeps a blocker: a literal of the clause whose truth shows the clause satisfied without
reading it), and most are forgotten again when there are many (the ones spanning the most decision levels go
first). Decisions take the cell with the highest activity (bumped when it takes part in a conflict, seeded
from root probing's branch scores) and keep its preferred colour when the driver gave one (`prefer`: the
beliefs of belief.py) and the preferences are in force, else its colour on the longest trail so far (target
phases, forgotten every few restarts), else its last colour (phase saving), else its highest colour (ink
first). Preferences are in force for REPHASE_EVERY restarts from the driver's last `prefer`, then out of force
for as many, and so on: a search the beliefs lead astray for tens of thousands of conflicts gets periods on its
own phases (`preferences_in_force`).
The driver restarts the search on the Luby sequence and blocks each solution it is given. Why these:
measured on tournament puzzles (benchmarks/results/native.md, native-core.md).

The search is exhaustive over the residue (nothing is pruned except by sound propagation and by clauses
implied by the clues), so every solution of the residue is reached or refuted.

Why one module of this size: the trail, the watches, the learned clauses and the per-line records are one
state that propagation, explanation and conflict analysis all read and write; cdcl.c mirrors it section by
section, and keeping the two side by side is what lets a reader check one against the other.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections import deque
from typing import Any

from nonocp.core.errors import OutOfTime

# cdcl_search's answers (the compiled core's too)
EXHAUSTED, SOLUTION, RESTART, PAUSE = 0, 1, 2, 3
# what an audit callback hears (tests only): an explanation, a reason's trail entries, a learned clause
AUDIT_EXPLAIN, AUDIT_REASON, AUDIT_LEARN = 0, 1, 2

FIRST_REDUCE = 2000  # learned clauses kept before the first clean-up
DECAY = 1 / 0.95  # activity increment growth per conflict (VSIDS)
GREEDY_MAX = 12  # explanations with at most this many removals in their window get greedy deletion
STORE_WAYS = 4  # explanations remembered per kind of step (see _shrink)
STORE_WORDS = 8 << 20  # the store is emptied before it holds more line masks than this (bounds its memory)
# restarts between two forgettings of the target phases (see restart), and the length of each period with and
# without the preferred colours (preferences_in_force)
REPHASE_EVERY = 8


class Cdcl:
    """One search over the residue of `core`'s current state, which it narrows and restores in place."""

    def __init__(self, core: Any, minimize: bool, scores: dict[tuple[int, int], int] | None,
                 audit: Any = None) -> None:
        self.core = core
        H: int = core.H
        W: int = core.W
        ncol: int = core.ncol
        self.H, self.W, self.ncol = H, W, ncol
        ncells = H * W
        self.ncells = ncells
        st = core.st
        self.st0 = list(st)  # the level-0 state: explanations are taken against it
        # Per variable: still possible? (the same facts as the bitsets, read in O(1)); per cell: colours left.
        self.alive = bytearray(ncells * ncol)
        self.cnt = [0] * ncells
        for r in range(H):
            for c in range(W):
                cell = r * W + c
                for k in range(ncol):
                    if (st[r * ncol + k] >> c) & 1:
                        self.alive[cell * ncol + k] = 1
                        self.cnt[cell] += 1
        # The trail: removals made by this search (the start state's removals are facts, not on it; removals the
        # search proves at level 0, e.g. learned units, are on it at level 0 and never explained further).
        self.trail: list[int] = []  # variable removed
        self.tlevel: list[int] = []
        self.reason: list[Any] = []  # None (decision), int (line), or tuple of variables (clause)
        self.rlim: list[int] = []  # for a line step: the trail length when the line was solved
        # for a line step: its explanation once worked out (see _reason_of), kept while it is on the trail
        self.explanation: list[list[int] | None] = []
        self.pos = [-1] * (ncells * ncol)  # trail index of a removed variable (-1: a fact, or alive)
        self.line_trail: list[list[int]] = [[] for _ in range(core.nlines)]  # trail indices per line
        # Per line, parallel to line_trail: every removal in the line so far, packed in one int (bit
        # colour * length + position), so an explanation reads the line's state at any point in O(1).
        self.line_cum: list[list[int]] = [[] for _ in range(core.nlines)]
        self.trail_lim: list[int] = []  # trail length at the start of each level >= 1
        self.qhead = 0  # next trail entry whose clause watches are still to be visited
        # dirty lines, first in first out (a line waits while its other cells change, and is solved once for
        # them all); every line once at the start, so that each is at a fixpoint of this search's own state
        self.queue: deque[int] = deque(range(core.nlines))
        self.inq = bytearray(b"\x01" * core.nlines)
        # per literal: (clause, blocker) watches; the blocker, a literal of the clause (the other watched one when the
        # watch was made), shows the clause satisfied without reading it
        self.watches: list[list[tuple[list[int], int]]] = [[] for _ in range(ncells * ncol)]
        self.learned: list[tuple[int, list[int]]] = []  # (LBD, clause), may be forgotten
        self.activity = [0.0] * ncells
        self.inc = 1.0
        self.phase = [-1] * ncells  # per cell: the colour it had when last undone
        self.target = [-1] * ncells  # per cell: its colour on the longest trail so far
        self.preferred = [-1] * ncells  # per cell: the colour its decisions keep while alive (prefer)
        self.preferred_at = 0  # restarts when the preferences came (prefer)
        self.best_trail = 0
        self.conflicts = self.restarts = self.decisions = self.max_level = self.since_restart = 0
        self.max_learned = FIRST_REDUCE
        self.minimize = minimize  # shrink line explanations (see _shrink)
        # per kind of step (line, cell, colour; (line, -1, -1): a contradiction): [explanations stored so far,
        # the last STORE_WAYS of them] (see _shrink)
        self.explained: dict[tuple[int, int, int], list[Any]] = {}
        self.conflict_line = -1  # the line of the last conflict, -1 when a clause conflicted
        self.audit = audit
        if scores:
            # Start the decision order from root probing's branch scores (what each cell's probes decided):
            # scaled below one conflict's bump, so they order the first decisions and then give way.
            top = max(scores.values()) or 1
            for (r, c), score in scores.items():
                self.activity[r * W + c] = 0.5 * score / top

    def counters(self) -> dict[str, int]:
        return {"conflicts": self.conflicts, "restarts": self.restarts, "decisions": self.decisions,
                "max_level": self.max_level}

    # ----------------------------------------------------------------- trail

    def _remove(self, v: int, reason: Any, rlim: int, skip_line: int) -> None:
        """Record the removal of variable v (its colour from its cell) and queue the lines it touches."""
        ncol, W, H = self.ncol, self.W, self.H
        cell, k = divmod(v, ncol)
        r, c = divmod(cell, W)
        self.alive[v] = 0
        self.cnt[cell] -= 1
        st = self.core.st
        st[r * ncol + k] &= ~(1 << c)
        st[(H + c) * ncol + k] &= ~(1 << r)
        if not self.trail_lim:
            self.st0[r * ncol + k] &= ~(1 << c)
            self.st0[(H + c) * ncol + k] &= ~(1 << r)
        t = len(self.trail)
        self.trail.append(v)
        self.tlevel.append(len(self.trail_lim))
        self.reason.append(reason)
        self.rlim.append(rlim)
        self.explanation.append(None)
        self.pos[v] = t
        lt, lc = self.line_trail, self.line_cum
        lt[r].append(t)
        lt[H + c].append(t)
        x = lc[r]
        x.append((x[-1] if x else 0) | 1 << (k * W + c))
        x = lc[H + c]
        x.append((x[-1] if x else 0) | 1 << (k * H + r))
        inq, queue = self.inq, self.queue
        if r != skip_line and not inq[r]:
            inq[r] = 1
            queue.append(r)
        cl = H + c
        if cl != skip_line and not inq[cl]:
            inq[cl] = 1
            queue.append(cl)

    def _backtrack(self, level: int) -> None:
        """Undo every removal above `level` (from the end of the trail; a decided cell leaves its colour in
        `phase`) and forget the lines queued."""
        if level >= len(self.trail_lim):
            return
        lim = self.trail_lim[level]
        trail, alive, cnt, pos, ncol, phase = self.trail, self.alive, self.cnt, self.pos, self.ncol, self.phase
        st, W, H = self.core.st, self.W, self.H
        for t in range(len(trail) - 1, lim - 1, -1):
            v = trail[t]
            cell, k = divmod(v, ncol)
            if cnt[cell] == 1:  # the cell was decided: remember its colour for the next decision on it
                for j in range(ncol):
                    if alive[cell * ncol + j]:
                        phase[cell] = j
            alive[v] = 1
            cnt[cell] += 1
            pos[v] = -1
            r, c = divmod(cell, W)
            st[r * ncol + k] |= 1 << c
            st[(H + c) * ncol + k] |= 1 << r
        del trail[lim:], self.tlevel[lim:], self.reason[lim:], self.rlim[lim:], self.explanation[lim:]
        for lt, lc in zip(self.line_trail, self.line_cum, strict=True):
            while lt and lt[-1] >= lim:
                lt.pop()
                lc.pop()
        del self.trail_lim[level:]
        self.qhead = lim
        for ln in self.queue:
            self.inq[ln] = 0
        self.queue.clear()

    # ----------------------------------------------------------------- propagation

    def _propagate(self) -> list[int] | None:
        """Clause watches, then the line queued first, to a fixpoint. Returns None, or a conflict as
        trail indices (-1 for a fact)."""
        ncol, H, W = self.ncol, self.H, self.W
        line_result = self.core.line_result
        queue, inq = self.queue, self.inq
        trail = self.trail
        st = self.core.st
        while True:
            while self.qhead < len(trail):
                v = trail[self.qhead]
                self.qhead += 1
                if self.watches[v]:
                    conflict = self._visit_watches(v)
                    if conflict is not None:
                        return conflict
            if not queue:
                return None
            ln = queue.popleft()
            inq[ln] = 0
            base = ln * ncol
            old = (st[base], st[base + 1]) if ncol == 2 else tuple(st[base:base + ncol])
            res = line_result(ln, old)
            if res is None:
                self.conflict_line = ln
                return list(self.line_trail[ln])
            if res == old:
                continue
            lim = len(trail)
            for col in range(ncol):
                rem = old[col] ^ res[col]
                while rem:
                    low = rem & -rem
                    rem ^= low
                    i = low.bit_length() - 1
                    cell = ln * W + i if ln < H else i * W + (ln - H)
                    self._remove(cell * ncol + col, ln, lim, ln)

    def _visit_watches(self, v: int) -> list[int] | None:
        """p(v) just became false: move the watches of the clauses watching it; unit clauses propagate."""
        alive, cnt, ncol, watches, pos = self.alive, self.cnt, self.ncol, self.watches, self.pos
        ws = watches[v]
        watches[v] = keep = []
        n = len(ws)
        i = 0
        while i < n:
            watch = ws[i]
            i += 1
            cl, b = watch
            if alive[b] and cnt[b // ncol] == 1:  # satisfied by the blocker: the clause is not read
                keep.append(watch)
                continue
            if not cl:  # forgotten clause: drop the watch
                continue
            if cl[0] == v:
                cl[0], cl[1] = cl[1], v
            other = cl[0]
            if alive[other] and cnt[other // ncol] == 1:  # satisfied
                keep.append((cl, other))
                continue
            for j in range(2, len(cl)):
                w = cl[j]
                if alive[w]:
                    cl[1], cl[j] = w, v
                    watches[w].append((cl, other))
                    break
            else:
                keep.append((cl, other))
                if not alive[other]:  # every literal false: conflict
                    keep.extend(ws[i:])
                    self.conflict_line = -1
                    return [pos[w] for w in cl]
                # unit: the cell of `other` takes its colour; the other literals are the reason
                why = tuple(cl[1:])
                cell = other // ncol
                for u in range(cell * ncol, cell * ncol + ncol):
                    if u != other and alive[u]:
                        self._remove(u, why, 0, -1)
        return None

    # ----------------------------------------------------------------- learning

    def _reason_of(self, t: int) -> list[int]:
        """Trail indices of the removals that imply trail entry t (which is not a decision)."""
        why = self.reason[t]
        if type(why) is int:
            lt = self.line_trail[why]
            if not self.minimize:
                out = lt[:bisect_left(lt, self.rlim[t])]
            elif (known := self.explanation[t]) is not None:
                # Worked out once while t is on the trail: the removals before it stay as they are, and so do
                # the level-0 facts (they grow only at level 0, where t is gone), so it still holds. About half
                # of the explanations analysis asks for are of entries it explained in an earlier conflict.
                out = known
            else:
                n = bisect_left(lt, self.rlim[t])
                cell, k = divmod(self.trail[t], self.ncol)
                r, c = divmod(cell, self.W)
                out = self._shrink(why, self.line_cum[why][n - 1] if n else 0, c if why < self.H else r, k)
                self.explanation[t] = out
            if self.audit is not None:
                self.audit(AUDIT_REASON, t, self.rlim[t], tuple(out))
            return out
        pos = self.pos
        out = [pos[w] for w in why]
        if self.audit is not None:
            self.audit(AUDIT_REASON, t, -1, tuple(out))
        return out

    # Explanations. The line solver's answer depends only on the line, so "every earlier removal in the
    # line" always explains a line step; but most of those removals are irrelevant to one cell, and the
    # learned clause is only as general as its explanations. `_shrink` keeps the removals near the cell
    # that still make the line solver draw the same conclusion: the step is "implied" by a set of removals
    # when the line solver, given only those on top of the level-0 facts, removes colour k from cell i
    # (k < 0: finds no placement at all).

    def _shrink(self, ln: int, packed: int, i: int, k: int) -> list[int]:
        """Trail indices of removals in line ln, among those in `packed` (see line_cum), that still imply
        the step (see above and _narrow).

        Remembered: the last STORE_WAYS explanations of each kind of step (line, cell, colour). An earlier
        one is taken again, without a line solve, when each of its removals has been made again or has
        since become a level-0 fact: the line solver is monotone and level-0 facts only grow, so the same
        removals over at least the same facts still imply the step. Most explanations are found this way,
        because the search meets the same local patterns in a line under many other states of it."""
        ncol = self.ncol
        n = self.core.lengths[ln]
        b0 = ln * ncol
        base = self.st0[b0:b0 + ncol]
        # removals made at level 0 are already gone from `base`, so they drop out here (and `base` has only
        # the line's n bits, so it also cuts each colour's slice out of `packed`)
        removed = [base[c] & (packed >> (c * n)) for c in range(ncol)]
        if sum(m.bit_count() for m in removed) > 1:
            # Keyed by the line itself, never by its clue: two lines with the same clue can have different
            # level-0 facts, and an explanation leans on its own line's facts (keyed by clue, the search
            # would learn wrong clauses: tests/test_native.py checks this on mirrored grids).
            entry = self.explained.get((ln, i, k))
            need = None
            if entry is not None:
                for cand in entry[1]:
                    if not any(cand[c] & base[c] & ~removed[c] for c in range(ncol)):
                        need = tuple(cand[c] & removed[c] for c in range(ncol))
                        break
            if need is None:
                need = self._narrow(ln, base, removed, i, k)
                if entry is None:
                    if (len(self.explained) + 1) * STORE_WAYS * ncol > STORE_WORDS:
                        self.explained.clear()
                    entry = self.explained[(ln, i, k)] = [0, []]
                if len(entry[1]) < STORE_WAYS:
                    entry[1].append(need)
                else:
                    entry[1][entry[0] % STORE_WAYS] = need
                entry[0] += 1
        else:
            need = tuple(removed)  # at most one removal: nothing to shrink
        if self.audit is not None:
            self.audit(AUDIT_EXPLAIN, ln, i, k, tuple(base), tuple(removed), need)
        pos, W = self.pos, self.W
        row = ln < self.H
        out = []
        for c in range(ncol):
            m = need[c]
            while m:
                low = m & -m
                m ^= low
                p = low.bit_length() - 1
                cell = ln * W + p if row else p * W + (ln - self.H)
                out.append(pos[cell * ncol + c])
        return out

    def _narrow(self, ln: int, base: list[int], removed: list[int], i: int, k: int) -> tuple[int, ...]:
        """Per colour, the removals (a subset of `removed`) that suffice for the step. Works on removal
        bitmasks, one per colour, so each trial costs a few big-int operations and one line solve:

        1. the narrowest window of cells [a, b] around cell i whose removals suffice: first doubling a
           radius, then a binary search for each edge (the line solver is monotone: more removals never
           allow more, so "these removals suffice" is monotone in the window). For a contradiction
           (i < 0), the shortest prefix that still contradicts, then the shortest suffix of it;
        2. inside the window, greedy deletion of single cells, the farthest first, when few are left."""
        n = self.core.lengths[ln]
        ncol = self.ncol
        line_feasible = self.core.line_feasible

        def implies(keep: list[int]) -> bool:
            # A contradiction: the line has no placement. A removal: the line has none with colour k at cell i
            # (the line solver is exact, so this is its answer for that cell), with cell i forced to colour k.
            # Either way one forward pass of the line solver, not the two and the cover of a whole solve.
            forced = 0 if k < 0 else 1 << i
            return not line_feasible(ln, tuple(base[c] & ~keep[c] & (-1 if c == k else ~forced) for c in range(ncol)))

        def window(a: int, b: int) -> list[int]:
            w = ((1 << (b + 1)) - 1) ^ ((1 << a) - 1) if a <= b else 0
            return [m & w for m in removed]

        def largest_left(lo: int, hi: int, b: int) -> int:
            """The largest left edge a in [lo, hi] whose window [a, b] still suffices ([lo, b] must)."""
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if implies(window(mid, b)):
                    lo = mid
                else:
                    hi = mid - 1
            return lo

        def smallest_right(a: int, lo: int, hi: int) -> int:
            """The smallest right edge b in [lo, hi] whose window [a, b] still suffices ([a, hi] must)."""
            while lo < hi:
                mid = (lo + hi) // 2
                if implies(window(a, mid)):
                    hi = mid
                else:
                    lo = mid + 1
            return lo

        if i >= 0:
            radius = 1
            while radius < n and not implies(window(i - radius if radius <= i else 0, i + radius)):
                radius *= 2
            b = min(n - 1, i + radius)
            a = largest_left(max(0, i - radius), i, b)
            b = smallest_right(a, i, b)
        else:  # the shortest prefix that contradicts, then the shortest suffix of it
            b = smallest_right(0, 0, n - 1)
            a = largest_left(0, b, b)
        keep = window(a, b)
        # Greedy deletion of single removals inside the window, when few: each costs one line solve.
        inside = [(c, p) for c in range(ncol) for p in range(a, b + 1) if (keep[c] >> p) & 1]
        if 1 < len(inside) <= GREEDY_MAX:
            centre = i if i >= 0 else (a + b) // 2
            inside.sort(key=lambda x: -abs(x[1] - centre))
            for c, p in inside:
                keep[c] &= ~(1 << p)
                if not implies(keep):
                    keep[c] |= 1 << p
        return tuple(keep)

    def _analyze(self, conflict: list[int]) -> tuple[list[int], int, int]:
        """First-UIP analysis. Returns (learned clause as variables, asserting first; backjump level; LBD)."""
        trail, tlevel, ncol = self.trail, self.tlevel, self.ncol
        cur = len(self.trail_lim)
        seen = set()
        lower: list[int] = []
        count = 0
        activity = self.activity
        inc = self.inc
        pending = conflict
        idx = len(trail) - 1
        while True:
            for t in pending:
                if t < 0 or t in seen:
                    continue  # t < 0: a fact
                seen.add(t)
                lv = tlevel[t]
                if lv == 0:
                    continue
                activity[trail[t] // ncol] += inc
                if lv == cur:
                    count += 1
                else:
                    lower.append(t)
            while idx not in seen:
                idx -= 1
            t = idx
            idx -= 1
            count -= 1
            if count == 0:
                uip = t
                break
            pending = self._reason_of(t)
        if lower:
            # minimization: drop the removals whose reason lies within the clause (and the facts)
            inside = set(lower)
            kept = []
            for t in lower:
                if self.reason[t] is not None:
                    why = self._reason_of(t)
                    if all(x < 0 or tlevel[x] == 0 or x in inside for x in why):
                        continue
                kept.append(t)
            lower = kept
        lower.sort(key=lambda x: -tlevel[x])
        clause = [trail[uip]] + [trail[x] for x in lower]
        back = tlevel[lower[0]] if lower else 0
        lbd = len({tlevel[x] for x in lower}) + 1
        # later conflicts bump by more (VSIDS); all activities are scaled down before they overflow
        self.inc *= DECAY
        if self.inc > 1e100:
            self.activity = [a * 1e-100 for a in self.activity]
            self.inc *= 1e-100
        if self.audit is not None:
            self.audit(AUDIT_LEARN, tuple(clause))
        return clause, back, lbd

    def _add_clause(self, clause: list[int], lbd: int | None) -> None:
        """Attach a clause whose literals are all false but clause[0] (after the backjump), and assert it.

        clause[1] must be the literal falsified last (the highest level), as the watch scheme needs.
        `lbd` None marks a clause that must never be forgotten (a blocked solution)."""
        if len(clause) >= 2:
            self.watches[clause[0]].append((clause, clause[1]))
            self.watches[clause[1]].append((clause, clause[0]))
            if lbd is not None:
                self.learned.append((lbd, clause))
        why = tuple(clause[1:])
        ncol = self.ncol
        cell = clause[0] // ncol
        for u in range(cell * ncol, cell * ncol + ncol):
            if u != clause[0] and self.alive[u]:
                self._remove(u, why, 0, -1)

    def _reduce(self) -> None:
        """Forget the worse half of the learned clauses (most decision levels, then longest), keep LBD <= 2."""
        self.learned.sort(key=lambda x: (x[0], len(x[1])))
        keep = len(self.learned) // 2
        for lbd, cl in self.learned[keep:]:
            if lbd > 2:
                cl.clear()  # reasons on the trail are copies, so this never breaks an explanation
        self.learned = [x for x in self.learned if x[1]]
        self.max_learned = int(self.max_learned * 1.1) + 100

    # ----------------------------------------------------------------- search

    def _decide(self) -> int | None:
        """The next decision variable (a colour to remove), or None when every cell is decided."""
        cnt, act = self.cnt, self.activity
        best, best_a = -1, -1.0
        for cell in range(self.ncells):
            if cnt[cell] > 1 and act[cell] > best_a:
                best, best_a = cell, act[cell]
        if best < 0:
            return None
        ncol = self.ncol
        keep = self.phase[best]
        base = best * ncol
        target = self.target[best]
        if target >= 0 and self.alive[base + target]:
            keep = target
        preferred = self.preferred[best]
        if preferred >= 0 and self.alive[base + preferred] and self.preferences_in_force():
            keep = preferred
        if keep < 0 or not self.alive[base + keep]:
            keep = max(k for k in range(ncol) if self.alive[base + k])  # the highest colour left
        # remove one colour other than the one to keep (in black and white: decide the cell)
        for k in range(ncol - 1, -1, -1):
            if k != keep and self.alive[base + k]:
                return base + k
        return None  # unreachable: the cell has two colours left

    def search(self, restart_at: int, pause: float | None) -> int:
        """Search until a solution (SOLUTION: the core's state is it), proof that none is left
        (EXHAUSTED), `restart_at` conflicts since the last restart above level 0 (RESTART), or, with
        `pause`, that many seconds since the call at a conflict (PAUSE, for progress reports). Raises
        OutOfTime at the core's deadline. Each answer leaves the search where the next call goes on."""
        deadline = self.core.deadline
        started = time.monotonic() if pause is not None else 0.0
        while True:
            conflict = self._propagate()
            if conflict is not None:
                self.conflicts += 1
                if self.minimize and self.conflict_line >= 0:
                    lc = self.line_cum[self.conflict_line]
                    conflict = self._shrink(self.conflict_line, lc[-1] if lc else 0, -1, -1)
                self.since_restart += 1
                top = max((self.tlevel[t] for t in conflict if t >= 0), default=0)
                if top == 0:  # the level-0 facts alone contradict: no solution is left
                    return EXHAUSTED
                if top < len(self.trail_lim):
                    self._backtrack(top)
                clause, back, lbd = self._analyze(conflict)
                self._backtrack(back)
                self._add_clause(clause, lbd)
                # every conflict: one can cost milliseconds on a loaded machine
                if deadline is not None and time.monotonic() > deadline:
                    raise OutOfTime
                if len(self.learned) > self.max_learned:
                    self._reduce()
                if pause is not None and not self.conflicts & 15 and time.monotonic() - started > pause:
                    return PAUSE
                continue
            if self.since_restart >= restart_at and self.trail_lim:
                return RESTART
            if len(self.trail) > self.best_trail:  # the longest trail so far: its colours are the target phases
                self.best_trail = len(self.trail)
                cnt, alive, ncol, target = self.cnt, self.alive, self.ncol, self.target
                for cell in range(self.ncells):
                    if cnt[cell] == 1:
                        for k in range(ncol):
                            if alive[cell * ncol + k]:
                                target[cell] = k
            v = self._decide()
            if v is None:  # every cell decided and every line at a fixpoint: a solution
                return SOLUTION
            self.decisions += 1
            self.trail_lim.append(len(self.trail))
            if len(self.trail_lim) > self.max_level:
                self.max_level = len(self.trail_lim)
            self._remove(v, None, 0, -1)

    def block(self) -> bool:
        """Forbid the solution just found (the clause "not all of this path's decisions": the decisions and
        sound propagation determine that one solution) and go on from its last decision flipped. False
        when there was no decision: no other solution is left."""
        decisions = [self.trail[lim] for lim in self.trail_lim]
        if not decisions:
            return False
        decisions.reverse()  # the last decision first: it is the one the clause flips
        self._backtrack(len(decisions) - 1)
        self._add_clause(decisions, None)
        return True

    def prefer(self, colours: list[int]) -> None:
        """From now on, a decision on a cell keeps `colours[cell]` while it is alive (-1: no preference) and
        the preferences are in force (preferences_in_force)."""
        if len(colours) != self.ncells:
            raise ValueError(f"prefer: {len(colours)} colours for {self.ncells} cells")
        self.preferred = [k if 0 <= k < self.ncol else -1 for k in colours]
        self.preferred_at = self.restarts

    def preferences_in_force(self) -> bool:
        """Do decisions keep the preferred colours now? For the first REPHASE_EVERY restarts from the last
        `prefer`, not for the next as many (the search's own phases), and so on alternately. The beliefs take
        most tournament puzzles to a solution in a few hundred conflicts, but the few they lead astray kept
        returning to the same picture after every restart; alternating shortens those long searches (measured
        over fresh seeds of the search's luck) and keeps the beliefs' lead on the big pictures
        (benchmarks/results/native-core.md, "Tails")."""
        return (self.restarts - self.preferred_at) // REPHASE_EVERY % 2 == 0

    def restart(self) -> None:
        """Back to level 0. Every REPHASE_EVERY restarts the target phases are forgotten too: the search then
        follows its longest trail since, not one from a region that stopped giving solutions (the tail of the
        tournament sets: benchmarks/results/native-core.md and its history in git)."""
        self.restarts += 1
        self.since_restart = 0
        if self.restarts % REPHASE_EVERY == 0:
            self.best_trail = 0
            self.target = [-1] * self.ncells
        self._backtrack(0)
