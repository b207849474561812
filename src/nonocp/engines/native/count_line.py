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
window of `count` consecutive cells) needs no witness. The state spaces are in count_states.py, the witnesses
in count_witness.py. Checked against brute force in tests/test_count_line.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from nonocp.core.counts import Count
from nonocp.engines.native.count_states import FREE, SCATTERED, Box, CountPlan, plan_of
from nonocp.engines.native.count_witness import check_witnesses

# The most states times classes worth tracking scattered colours in exactly, rather than checking witnesses
# (_cheap)
TRACK_COST = 1 << 14


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
            broken = check_witnesses(plan, box, allowed, F, C, new, risky)
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


def feasible_planned(plan: CountPlan, n: int, masks: Sequence[int]) -> bool:
    """Has some line these masks allow the plan's clue? (solve_planned(...) is not None.)"""
    return solve_planned(plan, n, masks) is not None


def solve_line(clue: Sequence[Count], n: int, masks: Sequence[int]) -> tuple[int, ...] | None:
    """`solve_planned` for a clue (its plan made or looked up here)."""
    return solve_planned(plan_of(clue, n), n, masks)


__all__ = ["plan_of", "solve_line", "solve_planned", "feasible_planned", "TRACK_COST"]
