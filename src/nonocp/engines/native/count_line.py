"""The exact line solver for count-and-contiguity clues (core/counts.py): which colours each cell of a line can
still take, given per colour its count and, for counts of 2 or more, whether those cells are all in a row.

The same interface as line.py (`plan_of`, `solve_planned`, `feasible_planned`, `solve_line`): `masks[k]` has
bit i set when cell i may still be colour k; the answer keeps exactly the colours some valid line puts there,
or is None when no line fits.

How. The colours of a clue are of four sorts: a count of 0 (never used), a count of 1 or *free* (only its
count matters), *together* (count >= 2, all in a row: one interval) and *scattered* (count >= 2, not all in a
row: two or more runs). A dynamic programme runs over the cells, left to right; its state is how many cells of
each colour the line has used so far (a mixed-radix number, one digit per colour). Every state is a bit of one
Python int, so a whole set of states moves through a cell in a few big-int operations: placing colour k adds
k's digit weight, i.e. shifts the set, after masking out the states where k is used up ("M_k"). A together
colour may only start while no other together colour is in progress and may not be left before its count is
reached; digit masks say both. The forward pass gives the states reachable before each cell, a backward pass
those from which the line can still be completed, and colour k survives in cell i when some reachable state
before i moves by k into a completable one.

Scattered colours need "two or more runs", which counts alone cannot see. Tracking it for every scattered
colour would multiply the states by (|S| + 1) * 2^|S|, so it is added lazily (counterexample-guided): the
programme first ignores it, then checks its answer with *witnesses*, complete valid lines read off the two
passes, one through every (cell, colour) it kept. A witness in which some scattered colour forms a single run
puts that colour in the refined set V, and the programme runs again with, for each colour of V, a bit "has
started a second run" and a state class saying whether the previous cell had that colour. When every kept
(cell, colour) has a valid witness the answer is exact: kept ones have a witness, dropped ones have no line even
under the weaker constraints. A scattered colour that cannot form one run within the kept cells at all (no
window of `count` consecutive cells) needs no witness. Checked against brute force in tests/test_count_line.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from nonocp.core.counts import Count, CountClue

ZERO, FREE, TOGETHER, SCATTERED = 0, 1, 2, 3

# Witnesses tried for one (cell, colour) before the colours they left in one run are tracked exactly (_witness)
ATTEMPTS = 4
# How many of the latest valid lines moves start from (_check_witnesses)
POOL = 4
# The most states times classes worth tracking scattered colours in exactly, rather than checking witnesses
# (_cheap)
TRACK_COST = 1 << 14
_PLANS: dict[tuple[CountClue, int], CountPlan] = {}
_PLANS_LIMIT = 20_000


def _digit_mask(weight: int, radix: int, size: int, values: Sequence[int]) -> int:
    """The set of states (bits 0..size-1) whose digit of this weight and radix is one of `values`."""
    unit = 0
    block = (1 << weight) - 1
    for v in values:
        unit |= block << (v * weight)
    period = weight * radix
    repeat = ((1 << size) - 1) // ((1 << period) - 1)  # one bit at the start of every period
    return unit * repeat


@dataclass
class Box:
    """The state space for one refined set V: digit weights, the masks the passes use, the accepting state.

    Classes: 0 = the previous cell's colour is not in V (or there is no previous cell), 1.. = the previous cell
    has that colour of V (`cls[k]`)."""

    V: tuple[int, ...]
    size: int
    weight: list[int]  # per colour (0 for colours of count 0)
    mweight: list[int]  # per colour of V: the weight of its "second run started" bit (0 otherwise)
    cls: list[int]  # per colour: its class (0 unless in V)
    nclasses: int
    accept: int
    M: list[int]  # per colour: states where it is not used up
    Z: list[int]  # per colour: states where it is not used yet
    inprog: list[int]  # per together colour: states where its run has started and is not complete
    nip_m: list[int]  # per colour: M_k and no together colour in progress (a new run of k may start)
    nip_z: list[int]  # per colour: Z_k and no together colour in progress
    src: list[int]  # per colour outside V: the states it may follow (inprog | nip_z if together, else nip_m)
    zb1: list[int]  # per colour of V: not used yet, or second run already started
    nzb0: list[int]  # per colour of V: used, second run not started
    implicit: int = -1  # the colour without a digit (-1: none): its count is the cells so far minus the others'
    usrc: list[int] = field(default_factory=list)  # per cell i: the states the implicit colour may follow there


@dataclass
class CountPlan:
    """What one clue on one line length needs, made once (plan_of): the sort of each colour, and the state
    spaces by refined set (made on first use)."""

    clue: CountClue
    n: int
    counts: tuple[int, ...]
    sort: tuple[int, ...]
    scattered: tuple[int, ...]
    together: tuple[int, ...]
    boxes: dict[tuple[int, ...], Box] = field(default_factory=dict)

    def box(self, V: tuple[int, ...]) -> Box:
        b = self.boxes.get(V)
        if b is None:
            b = self.boxes[V] = _make_box(self, V)
        return b


def _make_box(plan: CountPlan, V: tuple[int, ...]) -> Box:
    K = len(plan.counts)
    # The implicit colour: the biggest count whose only condition is its count (free, or scattered and not in
    # V). Every state after i cells has used i cells, so its count is i minus the others': it needs no digit,
    # which divides the states by its count + 1; "not used up" becomes a mask per cell (usrc).
    free = [k for k, c in enumerate(plan.counts) if c and plan.sort[k] in (FREE, SCATTERED) and k not in V]
    implicit = max(free, key=lambda k: plan.counts[k]) if free else -1
    weight = [0] * K
    mweight = [0] * K
    size = 1
    for k, c in enumerate(plan.counts):
        if c and k != implicit:
            weight[k] = size
            size *= c + 1
    for k in V:
        mweight[k] = size
        size *= 2
    cls = [0] * K
    for i, k in enumerate(V, 1):
        cls[k] = i
    full = (1 << size) - 1
    M, Z, inprog = [0] * K, [0] * K, [0] * K
    for k, c in enumerate(plan.counts):
        if c and k != implicit:
            M[k] = _digit_mask(weight[k], c + 1, size, range(c))
            Z[k] = _digit_mask(weight[k], c + 1, size, (0,))
            if plan.sort[k] == TOGETHER:
                inprog[k] = _digit_mask(weight[k], c + 1, size, range(1, c))
    nip = full
    for t in plan.together:
        nip &= ~inprog[t]
    zb1, nzb0 = [0] * K, [0] * K
    for k in V:
        b1 = _digit_mask(mweight[k], 2, size, (1,))
        zb1[k] = Z[k] | b1
        nzb0[k] = ~Z[k] & ~b1 & full
    accept = sum(c * w for c, w in zip(plan.counts, weight, strict=True)) + sum(mweight[k] for k in V)
    nip_m, nip_z = [nip & m for m in M], [nip & z for z in Z]
    src = [(inprog[k] | nip_z[k]) if plan.sort[k] == TOGETHER else nip_m[k] for k in range(K)]
    usrc: list[int] = []
    if implicit >= 0:
        at_least = _at_least(plan, weight, mweight, V, implicit)
        c = plan.counts[implicit]
        usrc = [nip & at_least[max(0, i - c + 1)] if i - c + 1 < len(at_least) else 0 for i in range(plan.n)]
        src[implicit] = nip_m[implicit] = 0  # position-dependent: usrc
    return Box(V, size, weight, mweight, cls, len(V) + 1, accept, M, Z, inprog, nip_m, nip_z, src, zb1, nzb0,
               implicit, usrc)


def _at_least(plan: CountPlan, weight: list[int], mweight: list[int], V: tuple[int, ...], implicit: int) -> list[int]:
    """at_least[t]: the states whose digits (the implicit colour has none) add up to t or more."""
    levels = [1]  # levels[t]: the states of the digits so far adding up to t
    for k, c in enumerate(plan.counts):
        if not c or k == implicit:
            continue
        grown = [0] * (len(levels) + c)
        for t, states in enumerate(levels):
            for v in range(c + 1):
                grown[t + v] |= states << (v * weight[k])
        levels = grown
    for k in V:  # both values of each "second run started" bit
        levels = [states | (states << mweight[k]) for states in levels]
    out = [0] * (len(levels) + 1)
    for t in range(len(levels) - 1, -1, -1):
        out[t] = out[t + 1] | levels[t]
    return out


def plan_of(clue: Sequence[Count], n: int) -> CountPlan:
    """The plan of a count clue on a line of `n` cells (kept in a bounded table keyed by the clue)."""
    clue = tuple(clue)
    key = (clue, n)
    plan = _PLANS.get(key)
    if plan is None:
        counts = tuple(e.count for e in clue)
        sort = tuple(ZERO if e.count == 0 else FREE if e.count == 1 else TOGETHER if e.together else SCATTERED
                     for e in clue)
        plan = CountPlan(clue, n, counts, sort, tuple(k for k, s in enumerate(sort) if s == SCATTERED),
                         tuple(k for k, s in enumerate(sort) if s == TOGETHER))
        if len(_PLANS) >= _PLANS_LIMIT:
            _PLANS.clear()
        _PLANS[key] = plan
    return plan


# --------------------------------------------------------------------------------------------- the passes


def _allowed(plan: CountPlan, n: int, masks: Sequence[int]) -> list[list[int]] | None:
    """Per cell, the colours it may take (count > 0 and still in its mask); None when a cell has none or a
    colour has fewer candidate cells than its count."""
    counts = plan.counts
    colours = [k for k, c in enumerate(counts) if c]
    for k in colours:
        if masks[k].bit_count() < counts[k]:
            return None
    out: list[list[int]] = []
    for i in range(n):
        here = [k for k in colours if (masks[k] >> i) & 1]
        if not here:
            return None
        out.append(here)
    return out


def _forward(plan: CountPlan, box: Box, allowed: list[list[int]]) -> list[list[int]] | None:
    """F[i][class]: the states reachable after the first i cells; None when the end is not reachable."""
    w, cls = box.weight, box.cls
    M, nip_m, src = box.M, box.nip_m, box.src
    implicit, usrc = box.implicit, box.usrc
    nclasses = box.nclasses
    cur = [0] * nclasses
    cur[0] = 1
    F = [cur]
    for i, here in enumerate(allowed):
        if nclasses == 1:
            u = cur[0]
            x = 0
            for k in here:
                x |= (u & (usrc[i] if k == implicit else src[k])) << w[k]
            if not x:
                return None
            cur = [x]
        else:
            u = 0
            for s in cur:
                u |= s
            new = [0] * nclasses
            for k in here:
                c = cls[k]
                if c:
                    wk = w[k]
                    other = 0
                    for j, s in enumerate(cur):
                        if j != c:
                            other |= s
                    other &= nip_m[k]
                    new[c] |= ((cur[c] & M[k]) << wk) | ((other & box.zb1[k]) << wk) \
                        | ((other & box.nzb0[k]) << (wk + box.mweight[k]))
                else:
                    new[0] |= (u & (usrc[i] if k == implicit else src[k])) << w[k]
            if not any(new):
                return None
            cur = new
        F.append(cur)
    if not any((s >> box.accept) & 1 for s in cur):
        return None
    return F


def _backward(plan: CountPlan, box: Box, allowed: list[list[int]], F: list[list[int]], K: int
              ) -> tuple[list[int], list[list[int]]]:
    """The new masks (colour k kept in cell i when a state reachable before i moves by k into one that can
    still complete the line) and C[i][class]: the states before cell i that are reachable and can complete it."""
    w, cls = box.weight, box.cls
    M, nip_m, src = box.M, box.nip_m, box.src
    implicit, usrc = box.implicit, box.usrc
    nclasses = box.nclasses
    n = len(allowed)
    acc = 1 << box.accept
    cur = [s & acc for s in F[n]]
    C: list[list[int]] = [[]] * (n + 1)
    C[n] = cur
    new = [0] * K
    for i in range(n - 1, -1, -1):
        Fi = F[i]
        bit = 1 << i
        if nclasses == 1:
            f = Fi[0]
            t = cur[0]
            x = 0
            for k in allowed[i]:
                y = f & (t >> w[k]) & (usrc[i] if k == implicit else src[k])
                if y:
                    x |= y
                    new[k] |= bit
            cur = [x]
        else:
            nxt = [0] * nclasses
            for k in allowed[i]:
                c = cls[k]
                wk = w[k]
                hit = 0
                if c:
                    t1 = cur[c] >> wk
                    y = Fi[c] & M[k] & t1
                    if y:
                        nxt[c] |= y
                        hit = 1
                    g = nip_m[k] & ((box.zb1[k] & t1) | (box.nzb0[k] & (cur[c] >> (wk + box.mweight[k]))))
                    if g:
                        for j in range(nclasses):
                            if j != c:
                                y = Fi[j] & g
                                if y:
                                    nxt[j] |= y
                                    hit = 1
                else:
                    g = (cur[0] >> wk) & (usrc[i] if k == implicit else src[k])
                    if g:
                        for j in range(nclasses):
                            y = Fi[j] & g
                            if y:
                                nxt[j] |= y
                                hit = 1
                if hit:
                    new[k] |= bit
            cur = nxt
        C[i] = cur
    return new, C


# --------------------------------------------------------------------------------------------- witnesses


def _digits(box: Box, plan: CountPlan, state: int, position: int) -> list[int]:
    """The cells of each colour used by `state` after `position` cells."""
    a = [(state // box.weight[k]) % (c + 1) if c and k != box.implicit else 0 for k, c in enumerate(plan.counts)]
    if box.implicit >= 0:
        a[box.implicit] = position - sum(a)
    return a


def _advance(plan: CountPlan, box: Box, state: int, c: int, k: int, position: int) -> tuple[int, int] | None:
    """One state's move by colour k from class c after `position` cells: (next state, next class), or None when
    k cannot come next."""
    counts = plan.counts
    a = _digits(box, plan, state, position)
    if a[k] >= counts[k]:
        return None
    for t in plan.together:
        if t != k and 0 < a[t] < counts[t]:
            return None  # a together colour in progress cannot be left
    wk = box.weight[k]
    ck = box.cls[k]
    if plan.sort[k] == TOGETHER:
        return state + wk, 0  # (a together colour that is complete cannot restart: a[k] >= count above)
    if not ck:
        return state + wk, 0
    if c == ck or a[k] == 0 or (state // box.mweight[k]) & 1:
        return state + wk, ck
    return state + wk + box.mweight[k], ck


def _into(plan: CountPlan, box: Box, states: int, c: int, k: int, i: int, after: list[int]) -> int:
    """The states among `states` (of class c, before cell i) that colour k in cell i moves into `after` (the
    states after cell i, by class): one step of the backward pass, for one colour and class."""
    ck, wk = box.cls[k], box.weight[k]
    if ck:
        if c == ck:
            return states & box.M[k] & (after[ck] >> wk)
        return states & box.nip_m[k] & ((box.zb1[k] & (after[ck] >> wk))
                                        | (box.nzb0[k] & (after[ck] >> (wk + box.mweight[k]))))
    return states & (after[0] >> wk) & (box.usrc[i] if k == box.implicit else box.src[k])


def _near(bits: int, index: int, above: bool) -> int | None:
    """The set bit of `bits` nearest to `index` at or above it (or at or below it); None if there is none."""
    if above:
        rest = bits >> index
        return None if not rest else index + (rest & -rest).bit_length() - 1
    rest = bits & ((2 << index) - 1)
    return None if not rest else rest.bit_length() - 1


def _witness(plan: CountPlan, box: Box, allowed: list[list[int]], F: list[list[int]], C: list[list[int]],
             i: int, k: int, uncovered: list[int], attempt: int) -> list[int] | None:
    """A complete line valid under `box`'s constraints with colour k in cell i (None if there is none), read
    off the passes. Where there is a choice it prefers a colour different from the neighbour just chosen (runs
    broken up are what scattered colours need), then a (cell, colour) not yet covered by a witness (_ordered).
    The state before cell i is the one nearest to each colour's share of cells (its count spread evenly over
    the line): below it (attempt 0), above it (1), the fewest cells of the last colours (2) or the most (3)."""
    n = len(allowed)
    share = i / max(n - 1, 1)
    ideal = sum(box.weight[j] * int(round((c - (j == k)) * share)) for j, c in enumerate(plan.counts))
    start = None
    for c in range(box.nclasses):
        s = _into(plan, box, F[i][c], c, k, i, C[i + 1])
        if not s:
            continue
        if attempt == 0:
            st = _near(s, ideal, False)
            st = _near(s, ideal, True) if st is None else st
        elif attempt == 1:
            st = _near(s, ideal, True)
            st = _near(s, ideal, False) if st is None else st
        else:
            st = (s & -s).bit_length() - 1 if attempt == 2 else s.bit_length() - 1
        moved = _advance(plan, box, st, c, k, i)
        assert moved is not None
        start = (st, c, moved)
        break
    if start is None:
        return None
    line = [0] * n
    line[i] = k
    state, c, after = start
    counts, weight, mweight, cls = plan.counts, box.weight, box.mweight, box.cls
    # to the left: a predecessor of (state, c) in F[q] for cell q; `used` = the cells of each colour in 0..q
    used = _digits(box, plan, state, i)
    neighbour = k
    for q in range(i - 1, -1, -1):
        best = None
        for j in _ordered(allowed[q], neighbour, uncovered, q, used):
            if cls[j] != c or not used[j]:
                continue  # the class says which colour (or which sort of colour) the previous cell had
            wj = weight[j]
            for prev in (state - wj, state - wj - mweight[j]) if cls[j] else (state - wj,):
                if prev < 0:
                    continue
                for pc in range(box.nclasses):
                    if (F[q][pc] >> prev) & 1 and _advance(plan, box, prev, pc, j, q) == (state, c):
                        best = (j, prev, pc)
                        break
                if best:
                    break
            if best:
                break
        if best is None:  # cannot happen: every reachable state has a reachable predecessor
            return None
        line[q], state, c = best
        used[line[q]] -= 1
        neighbour = line[q]
    # to the right: a successor of `after` that can still complete the line; `left` = cells still to place
    state, c = after
    done = _digits(box, plan, state, i + 1)
    left = [total - a for total, a in zip(counts, done, strict=True)]
    second = [bool(mweight[j]) and bool((state // mweight[j]) & 1) for j in range(len(counts))]
    neighbour = k
    for q in range(i + 1, n):
        open_run = next((t for t in plan.together if 0 < left[t] < counts[t]), None)
        best = None
        for j in _ordered(allowed[q], neighbour, uncovered, q, left):
            if not left[j] or (open_run is not None and j != open_run):
                continue
            if plan.sort[j] == TOGETHER and left[j] < counts[j] and j != open_run:
                continue
            nxt = state + weight[j]
            cj = cls[j]
            starts_second = cj and c != cj and left[j] < counts[j] and not second[j]
            if starts_second:
                nxt += mweight[j]
            if (C[q + 1][cj] >> nxt) & 1:
                best = (j, nxt, cj, starts_second)
                break
        if best is None:
            return None
        j, state, c, starts_second = best
        line[q] = j
        left[j] -= 1
        if starts_second:
            second[j] = True
        neighbour = j
    return line


def _ordered(colours: list[int], neighbour: int, uncovered: list[int], q: int, left: list[int]) -> list[int]:
    """Colours in order of preference: not the neighbour's, then not covered yet, then the most cells of it
    still to place on this side (`left`): spreading the big colours out keeps scattered colours in several
    runs, as interleaving cards keeps equal ones apart."""
    return sorted(colours, key=lambda j: (j == neighbour, not (uncovered[j] >> q) & 1, -left[j]))


def _one_run(line: list[int], colour: int) -> bool:
    first = line.index(colour)
    last = len(line) - 1 - line[::-1].index(colour)
    return all(v == colour for v in line[first:last + 1])


def _has_window(mask: int, length: int) -> bool:
    """Has `mask` `length` consecutive set bits?"""
    m = mask
    span = 1
    while span < length and m:
        step = min(span, length - span)
        m &= m >> step
        span += step
    return bool(m)


# --------------------------------------------------------------------------------------------- the solver


def solve_planned(plan: CountPlan, n: int, masks: Sequence[int]) -> tuple[int, ...] | None:
    """The exact narrowing of `masks` by the plan's clue (see the module docstring); None when no line fits."""
    K = len(plan.counts)
    allowed = _allowed(plan, n, masks)
    if allowed is None:
        return None
    # scattered colours that might form one run: tracked exactly from the start when that is cheap
    risky = [s for s in plan.scattered if _has_window(masks[s], plan.counts[s])]
    V: tuple[int, ...] = tuple(risky) if _cheap(plan, tuple(risky)) else ()
    while True:
        box = plan.box(V)
        F = _forward(plan, box, allowed)
        if F is None:
            return None
        new, C = _backward(plan, box, allowed, F, K)
        risky = [s for s in plan.scattered if s not in V and _has_window(new[s], plan.counts[s])]
        if not risky:
            return tuple(new)
        if _cheap(plan, tuple(sorted(set(V) | set(risky)))):
            broken = set(risky)
        else:
            broken = _check_witnesses(plan, box, allowed, F, C, new, risky)
            if not broken:
                return tuple(new)
        V = tuple(sorted(set(V) | broken))
        allowed = [[k for k in here if (new[k] >> i) & 1] for i, here in enumerate(allowed)]


def _cheap(plan: CountPlan, V: tuple[int, ...]) -> bool:
    """Is tracking the scattered colours V exactly cheaper than checking witnesses? A pass costs about the number
    of states times the classes, (|V| + 1) * 2^|V| times what V = () costs (more if the implicit colour is in
    V), while witnesses cost about the same whatever the states; so only a small state space is worth it
    (benchmarks/results/count-clues.md, "Line solver")."""
    free = [k for k, c in enumerate(plan.counts) if c and plan.sort[k] in (FREE, SCATTERED) and k not in V]
    implicit = max(free, key=lambda k: plan.counts[k]) if free else -1
    states = 1 << len(V)
    for k, c in enumerate(plan.counts):
        if c and k != implicit:
            states *= c + 1
    return states * (len(V) + 1) <= TRACK_COST


def _check_witnesses(plan: CountPlan, box: Box, allowed: list[list[int]], F: list[list[int]],
                     C: list[list[int]], new: list[int], risky: list[int]) -> set[int]:
    """Cover every kept (cell, colour) by a valid line; the risky scattered colours that some witness read off
    the passes left in one run (empty: every kept pair has a valid line, so `new` is exact).

    Most lines come from earlier ones by a move that keeps every constraint (_moved: a swap of two cells, or a
    together colour's run rotated over its neighbours), a few bitset operations each; a pair no move reaches
    gets a witness from the passes (_witness)."""
    uncovered = list(new)
    pool: list[list[int]] = []  # valid lines found, as per-colour masks
    while True:
        target = None
        for k, m in enumerate(uncovered):
            if m:
                target = ((m & -m).bit_length() - 1, k)
                break
        if target is None:
            return set()
        i, k = target
        found = None
        for line_masks in reversed(pool[-POOL:]):
            found = _moved(plan, line_masks, new, uncovered, i, k)
            if found is not None:
                break
        if found is None:
            broken: set[int] = set()
            for attempt in range(ATTEMPTS):
                line = _witness(plan, box, allowed, F, C, i, k, uncovered, attempt)
                if line is None:  # cannot happen: a kept pair has a path through it
                    raise AssertionError("count line solver: a kept colour has no witness")
                wrong = {s for s in risky if _one_run(line, s)}
                if not wrong:
                    break
                broken |= wrong
            else:
                return broken
            found = [0] * len(new)
            for q, j in enumerate(line):
                found[j] |= 1 << q
        pool.append(found)
        for j, m in enumerate(found):
            uncovered[j] &= ~m


def _runs(mask: int) -> int:
    """How many runs of set bits `mask` has."""
    return (mask & ~(mask << 1)).bit_count()


def _moved(plan: CountPlan, x: list[int], new: list[int], uncovered: list[int], p: int, j: int) -> list[int] | None:
    """A valid line with colour j in cell p, made from the valid line `x` (per-colour masks) by one move that
    keeps every count and every together colour's run whole, or None:

    - j and x's colour at p are neither together: swap cell p with a cell q of colour j (preferring a q where
      the colour coming in is not covered yet); scattered colours must keep two or more runs;
    - j is together: rotate the cells between j's run and p so that the run reaches p (the others keep their
      order; a together run cut by the segment's edge, or a scattered colour closed up, refuses the move).
    Every moved colour must stay where `new` allows it."""
    sort = plan.sort
    bit = 1 << p
    here = next(c for c, m in enumerate(x) if m & bit)
    if sort[j] != TOGETHER and sort[here] != TOGETHER:
        qs = x[j] & new[here]
        for pass_ in (uncovered[here] & qs, qs & ~uncovered[here]):
            while pass_:
                qbit = pass_ & -pass_
                pass_ ^= qbit
                both = bit | qbit
                mj, mh = x[j] ^ both, x[here] ^ both
                if (sort[j] == SCATTERED and _runs(mj) < 2) or (sort[here] == SCATTERED and _runs(mh) < 2):
                    continue
                y = list(x)
                y[j], y[here] = mj, mh
                return y
        return None
    if sort[j] != TOGETHER:
        return None
    run = x[j]
    first = (run & -run).bit_length() - 1
    last = run.bit_length() - 1
    c = plan.counts[j]
    if p > last:  # [run, z...] over first..p becomes [z..., run]
        seg = ((1 << (p + 1)) - 1) ^ ((1 << first) - 1)
        rest, shift, run_at = ((1 << (p + 1)) - 1) ^ ((1 << (last + 1)) - 1), -c, p - c + 1
    else:  # [z..., run] over p..last becomes [run, z...]
        seg = ((1 << (last + 1)) - 1) ^ ((1 << p) - 1)
        rest, shift, run_at = ((1 << first) - 1) ^ ((1 << p) - 1), c, p
    y = []
    for colour, m in enumerate(x):
        if colour == j:
            moved = ((1 << c) - 1) << run_at
        else:
            part = m & rest
            moved = part << shift if shift > 0 else part >> -shift
        m2 = (m & ~seg) | moved
        if m2 & ~new[colour]:
            return None
        if m2 != m and colour != j and sort[colour] >= TOGETHER:
            # a together run cut by the segment's edge comes apart; a scattered colour may close up
            runs = _runs(m2)
            if (sort[colour] == TOGETHER and runs != 1) or (sort[colour] == SCATTERED and runs < 2):
                return None
        y.append(m2)
    return y


def feasible_planned(plan: CountPlan, n: int, masks: Sequence[int]) -> bool:
    """Has some line these masks allow the plan's clue? (solve_planned(...) is not None.)"""
    return solve_planned(plan, n, masks) is not None


def solve_line(clue: Sequence[Count], n: int, masks: Sequence[int]) -> tuple[int, ...] | None:
    """`solve_planned` for a clue (its plan made or looked up here)."""
    return solve_planned(plan_of(clue, n), n, masks)
