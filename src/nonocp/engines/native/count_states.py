"""The state spaces of the count line solver (count_line.py): per clue and line length a plan, per refined set
of scattered colours a Box (digit weights, the masks the passes use, the accepting state), and the moves of one
state, for witnesses (count_witness.py).

A state is how many cells of each colour the line has used so far, a mixed-radix number with one digit per
colour (the biggest free colour has none: its count is the cells so far minus the others'), plus, for each
tracked scattered colour (V), a bit "has started a second run". A set of states is the bits of one Python int.
Classes: 0 = the previous cell's colour is not in V (or there is no previous cell), 1.. = it is that colour of V.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from nonocp.core.counts import Count, CountClue

# The sorts of colour in a clue: a count of 0, a count of 1 or only a count (free), all in a row (together, one
# run), not all in a row (scattered, two or more runs)
ZERO, FREE, TOGETHER, SCATTERED = 0, 1, 2, 3

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


def digits(box: Box, plan: CountPlan, state: int, position: int) -> list[int]:
    """The cells of each colour used by `state` after `position` cells."""
    a = [(state // box.weight[k]) % (c + 1) if c and k != box.implicit else 0 for k, c in enumerate(plan.counts)]
    if box.implicit >= 0:
        a[box.implicit] = position - sum(a)
    return a


def advance(plan: CountPlan, box: Box, state: int, c: int, k: int, position: int) -> tuple[int, int] | None:
    """One state's move by colour k from class c after `position` cells: (next state, next class), or None when
    k cannot come next."""
    counts = plan.counts
    a = digits(box, plan, state, position)
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


def into(plan: CountPlan, box: Box, states: int, c: int, k: int, i: int, after: list[int]) -> int:
    """The states among `states` (of class c, before cell i) that colour k in cell i moves into `after` (the
    states after cell i, by class): one step of the backward pass, for one colour and class."""
    ck, wk = box.cls[k], box.weight[k]
    if ck:
        if c == ck:
            return states & box.M[k] & (after[ck] >> wk)
        return states & box.nip_m[k] & ((box.zb1[k] & (after[ck] >> wk))
                                        | (box.nzb0[k] & (after[ck] >> (wk + box.mweight[k]))))
    return states & (after[0] >> wk) & (box.usrc[i] if k == box.implicit else box.src[k])
