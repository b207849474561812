"""The exact line solver on bitsets: one Python int per colour per line.

A line of `n` cells is described by `masks[c]` for every palette colour c (0 = background): bit i of
`masks[c]` is set when cell i may still be colour c. `solve_line` returns the narrowed masks, in which a
colour survives in a cell exactly when some valid placement of the whole clue puts it there, or None when
no placement exists (a contradiction).

How (the same code serves black-and-white and colour; black-and-white is simply two masks):

* Positions are bits too: bit p of a "position set" means "the first p cells are consumed" (p = 0..n).
* Fits: the starts s where L consecutive cells may be the block's colour, by a log-step AND of shifted
  copies of the colour mask (O(log L) big-int operations instead of O(L)); the shifts per block length are
  computed once per clue (`plan_of`), with the other per-block facts the passes need.
* `extend(X)`: every position reachable from X by consuming cells that may be background, in one
  addition: `X | (((X & bg) + bg) ^ bg)`. The carry of the addition runs through each run of
  background-capable cells above a start bit and stops on the first cell that cannot be background.
* Forward pass over the blocks gives, for block j, the starts reachable from the left (`S_j`) and the
  gap positions before it; the same pass on the reversed line gives what is reachable from the right.
  A start is valid when it is reachable from both sides; a cell may be background when it lies in some
  gap that both sides can reach. On short lines, reversing all the per-block sets costs one reversal of
  one packed integer (the sets are laid side by side with a stride, so reversing the packed integer also
  reverses the block order, which is exactly the mirror mapping); on long ones each set is reversed alone.

Cost: O(k) big-int operations for k blocks (each O(n / 64) machine words), i.e. O(n * k) in the worst
case and much less in practice. Checked against brute force in tests/test_line_solver.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nonocp.core.puzzle import Block

Blocks = tuple[tuple[int, int], ...]  # ((length, colour), ...) in line order


_BYTE_REVERSED = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def _reverse(x: int, width: int) -> int:
    """x with its low `width` bits in reverse order (bit i -> bit width-1-i).

    Bytes little-endian, each byte's bits reversed by table, read back big-endian: three C calls (2-4x
    faster than reversing a binary string on 25- to 470-bit values, far more on 5000 bits; one timing run).
    """
    nb = (width + 7) >> 3
    return int.from_bytes(x.to_bytes(nb, "little").translate(_BYTE_REVERSED), "big") >> ((nb << 3) - width)


# Up to this many bits in all (cells x sets), the sets are reversed as one packed integer (fewer calls);
# past it each is reversed alone, because packing and unpacking cost the square of the total: a 10,000-cell
# line of 2,000 blocks took 1.7 s a solve packed, 13 ms alone (crossover measured near 1,000-2,500 bits).
PACKED_BITS = 2048


def _mirrored(sets: Sequence[int], n: int) -> list[int]:
    """The `n`-cell sets in reverse order, each with its cells reversed (cell i -> cell n-1-i)."""
    if n * len(sets) > PACKED_BITS:
        return [_reverse(x, n) for x in reversed(sets)]
    packed = 0
    for x in reversed(sets):  # sets[0] in the lowest slot: after the reversal it is in the highest
        packed = (packed << n) | x
    mirrored = _reverse(packed, n * len(sets))
    mask, out = (1 << n) - 1, []
    for _ in sets:
        out.append(mirrored & mask)
        mirrored >>= n
    return out


# (forward steps, mirrored steps); a step is (length, colour, compulsory gap after it, shift schedule)
Step = tuple[int, int, bool, tuple[int, ...]]
Plan = tuple[tuple[Step, ...], ...]
_PLANS: dict[Blocks, Plan] = {}
_PLANS_LIMIT = 50_000  # distinct clues kept (a few hundred bytes each); a batch over a whole corpus clears it


def _schedule(length: int) -> tuple[int, ...]:
    """The shifts that turn a colour mask into block starts (`m &= m >> step`) and valid starts into the
    cells they cover (`v |= v << step`) for a block of this length: spans doubling up to `length`."""
    out = []
    span = 1
    while span < length:
        step = span if span <= length - span else length - span
        out.append(step)
        span += step
    return tuple(out)


def plan_of(blocks: Blocks) -> Plan:
    """Per clue, computed once: for the forward and the mirrored pass, the steps (length, colour,
    compulsory gap after the block, shift schedule), so the passes do no indexing or comparisons of their
    own: a line solve is measurably cheaper (benchmarks/results/native.md, "Per-clue plans"). Callers that
    solve the same line many times (the engine) keep the plan; `solve_line` looks it up here, in a bounded
    table keyed by the clue."""
    plan = _PLANS.get(blocks)
    if plan is None:
        def steps(bl: Blocks) -> tuple[Step, ...]:
            k = len(bl)
            return tuple((bl[j][0], bl[j][1], j + 1 < k and bl[j + 1][1] == bl[j][1], _schedule(bl[j][0]))
                         for j in range(k))
        if len(_PLANS) >= _PLANS_LIMIT:
            _PLANS.clear()
        plan = _PLANS[blocks] = (steps(blocks), steps(tuple(reversed(blocks))))
    return plan


def _forward(steps: Sequence[Step], n: int, masks: Sequence[int]) -> tuple[list[int], list[int]] | None:
    """Left-to-right pass over the plan's steps. Returns (starts[j], gapcells[j]) or None when no placement exists.

    starts[j]   = cells where block j can start, with blocks 0..j-1 validly placed to its left.
    gapcells[j] = cells that can be background in gap j (before block j; gap k is after the last block)
                  with blocks 0..j-1 validly placed to their left.
    """
    bg = masks[0]
    g = 1 | (((1 & bg) + bg) ^ bg)  # extend({0}) through background cells
    starts: list[int] = []
    gapcells: list[int] = [g & bg]
    for length, color, gap, schedule in steps:
        f = masks[color]
        for step in schedule:  # f: the starts of `length` consecutive cells that may all be `color`
            f &= f >> step
        s = g & f
        if not s:
            return None
        starts.append(s)
        e = s << length
        # same colour next: one background cell is compulsory; a different colour may touch, and after the
        # last block the line may end
        p = (e & bg) << 1 if gap else e
        g = p | (((p & bg) + bg) ^ bg)
        gapcells.append((g | e) & bg)
    if not (g >> n) & 1:
        return None
    return starts, gapcells


def solve_line(blocks: Blocks, n: int, masks: Sequence[int]) -> tuple[int, ...] | None:
    """Narrow the per-colour masks of one line to exactly what some valid placement allows.

    `blocks` are (length, colour) pairs; `masks[c]` has bit i set when cell i may be colour c.
    Returns the new masks (a tuple, same length as `masks`) or None when the line has no valid placement.
    """
    return solve_planned(plan_of(blocks), n, masks)


def solve_planned(plan: Plan, n: int, masks: Sequence[int]) -> tuple[int, ...] | None:
    """`solve_line` with the clue's plan (`plan_of`) already at hand."""
    fsteps, bsteps = plan
    fwd = _forward(fsteps, n, masks)
    if fwd is None:
        return None
    starts, gapcells = fwd
    bwd = _forward(bsteps, n, [_reverse(m, n) for m in masks])
    if bwd is None:  # cannot happen when the forward pass succeeded; kept as a guard
        return None
    rstarts, rgaps = bwd
    # What the right-to-left pass found for gap j and block j, in the line's own cell order: the mirror of
    # what it computed for reversed gap k-j and reversed block k-1-j. A start r of a mirrored block is the
    # block's last cell n-1-r, hence the shift back by its length - 1 below.
    bgnew = 0
    for g, m in zip(gapcells, _mirrored(rgaps, n), strict=True):
        bgnew |= g & m
    new = [0] * len(masks)
    new[0] = bgnew
    for (length, color, _, schedule), s, m in zip(fsteps, starts, _mirrored(rstarts, n), strict=True):
        valid = s & (m >> (length - 1))  # the ends from the right, shifted to starts
        if not valid:
            return None
        for step in schedule:  # every cell that some valid placement of the block covers
            valid |= valid << step
        new[color] |= valid
    return tuple(new)


def feasible_planned(plan: Plan, n: int, masks: Sequence[int]) -> bool:
    """Has the line some valid placement? (solve_line(...) is not None, at half the cost: one pass.) For a
    clue's plan (plan_of)."""
    return _forward(plan[0], n, masks) is not None


def blocks_of(clue: Iterable[Block]) -> Blocks:
    """(length, colour) pairs of a `nonocp.core.puzzle.Clue`."""
    return tuple((b.length, b.color) for b in clue)
