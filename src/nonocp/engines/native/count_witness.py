"""Witness lines for the count line solver (count_line.py): complete valid lines, one through every (cell,
colour) the programme kept, that prove its answer exact when scattered colours are not tracked in its states.

Most come from earlier ones by a move that keeps every constraint (a swap of two cells, or a together colour's
run rotated over its neighbours: a few bitset operations each); a pair no move reaches gets a line read off
the forward and backward passes (`_witness`), which prefers to break runs up, so that scattered colours get the
two or more runs they need. A line in which a scattered colour that is not tracked forms one run is not a
witness: that colour is reported, and count_line.py tracks it exactly.
"""

from __future__ import annotations

from nonocp.engines.native.count_states import SCATTERED, TOGETHER, Box, CountPlan, advance, digits, into

# Witnesses tried for one (cell, colour) before the colours they left in one run are tracked exactly (_witness)
ATTEMPTS = 4
# How many of the latest valid lines moves start from (check_witnesses)
POOL = 4


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
        s = into(plan, box, F[i][c], c, k, i, C[i + 1])
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
        assert st is not None  # s has a set bit: one side or the other finds it
        moved = advance(plan, box, st, c, k, i)
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
    used = digits(box, plan, state, i)
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
                    if (F[q][pc] >> prev) & 1 and advance(plan, box, prev, pc, j, q) == (state, c):
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
    done = digits(box, plan, state, i + 1)
    left = [total - a for total, a in zip(counts, done, strict=True)]
    second = [bool(mweight[j]) and bool((state // mweight[j]) & 1) for j in range(len(counts))]
    neighbour = k
    for q in range(i + 1, n):
        open_run = next((t for t in plan.together if 0 < left[t] < counts[t]), None)
        chosen: tuple[int, int, int, bool] | None = None
        for j in _ordered(allowed[q], neighbour, uncovered, q, left):
            if not left[j] or (open_run is not None and j != open_run):
                continue
            if plan.sort[j] == TOGETHER and left[j] < counts[j] and j != open_run:
                continue
            nxt = state + weight[j]
            cj = cls[j]
            starts_second = bool(cj) and c != cj and left[j] < counts[j] and not second[j]
            if starts_second:
                nxt += mweight[j]
            if (C[q + 1][cj] >> nxt) & 1:
                chosen = (j, nxt, cj, starts_second)
                break
        if chosen is None:
            return None
        j, state, c, starts_second = chosen
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


def check_witnesses(plan: CountPlan, box: Box, allowed: list[list[int]], F: list[list[int]],
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
