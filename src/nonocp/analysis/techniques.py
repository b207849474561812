"""The catalogue of named techniques, and how one line's deduction is told as a sequence of them.

The native engine narrows a line with its exact line solver in one go. People do it with a handful of
simple rules, each of which they can check by eye; this module names those rules and splits each exact
line deduction into the rules that account for it, simplest first, with `enumeration` for whatever none
of them sees. Every rule is sound on its own (it never removes a colour that some valid placement of the
clue puts in the cell; tests/test_steps.py checks them against brute force), so every step is a true
statement about the line as it was just before the step.

A line is given as its cells' candidate masks (bit k = palette colour k, 0 = background) and its clue
as `blocks`, ((length, colour), ...) in line order.

Chain ranges. Most rules work on the range of starts each block may take: the leftmost start comes from
packing the blocks from the left, each at the first place where all its cells may take its colour (a gap
of one cell between blocks of the same colour), the rightmost from packing from the right. Every valid
placement puts block j's start within [lo_j, hi_j].
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

Blocks = Sequence[tuple[int, int]]
Cells = list[int]


@dataclass(frozen=True)
class Technique:
    name: str
    scope: str  # "line" (one row or column), "grid" (assumptions over several lines) or "search"
    summary: str  # what a person does, in a sentence


CATALOGUE: dict[str, Technique] = {t.name: t for t in (
    Technique("missing-colour", "line", "A colour absent from the line's clue cannot be in any of its cells "
              "(a clue of 0 leaves only the background)."),
    Technique("overlap", "line", "The leftmost and rightmost placements of a block overlap: the cells they "
              "share take the block's colour."),
    Technique("out-of-reach", "line", "A colour stays in a cell only if some block of that colour can reach "
              "it between its leftmost and rightmost placement."),
    Technique("gap-too-small", "line", "A run of cells that may take a colour, too short for every block of "
              "that colour that could go there, cannot hold that colour."),
    Technique("join", "line", "Neighbouring boxes of one colour that no two different blocks can hold must "
              "belong to one block: the cells between them take that colour."),
    Technique("split", "line", "A cell that would join boxes into a run longer than any block that could "
              "hold it cannot take that colour."),
    Technique("pin", "line", "A box that only one block can cover pins that block around it; the narrowed "
              "range then decides more cells."),
    Technique("crossing-check", "line", "Each candidate colour of the line's cells is checked against the "
              "crossing line: a colour the crossing line cannot place in the cell leaves it."),
    Technique("enumeration", "line", "Enumerating every placement of the whole clue on the line (the line "
              "body) keeps only what some placement allows."),
    Technique("probe-contradiction", "grid", "Assuming a colour in a cell and following line logic leads to "
              "a line with no valid placement: the colour leaves the cell."),
    Technique("probe-agreement", "grid", "Every colour still possible in a cell leads, by line logic, to "
              "the same conclusion elsewhere: it holds whatever the cell is."),
    Technique("all-remaining-cells", "grid", "All undecided cells at once: every combination of their "
              "candidates is tried and what all completions share is kept."),
    Technique("guess", "search", "Nothing local decides more: assume a colour in a cell and go on."),
    Technique("contradiction", "search", "Under the guesses in force a line has no valid placement left."),
    Technique("backtrack", "search", "Leave a guess (wrong, or every solution under it found): the grid "
              "goes back to before it, without the guessed colour."),
    Technique("solution", "search", "Every cell is decided: a solution."),
)}

LINE_TECHNIQUES = tuple(name for name, t in CATALOGUE.items() if t.scope == "line")

# Count-and-contiguity clues' line techniques (their rules are in analysis/count_techniques.py; crossing-check,
# enumeration and the grid and search techniques above serve both kinds of clue).
CATALOGUE.update({t.name: t for t in (
    Technique("zero-count", "count-line", "A colour whose count in the line is 0 is in none of its cells."),
    Technique("count-complete", "count-line", "A colour whose count is reached by the cells decided to it leaves "
              "the other cells; a colour with just as many candidate cells as its count takes them all."),
    Technique("all-in-a-row", "count-line", "A colour whose cells are all in a row is one run: it takes the cells "
              "that every place it fits covers (leftmost and rightmost overlap) and leaves the cells none covers."),
    Technique("not-all-in-a-row", "count-line", "A colour not all in a row whose decided cells are one run, one "
              "cell short of its count, cannot take the cells at that run's ends."),
)})


def _bit(m: int, c: int) -> bool:
    return (m >> c) & 1 == 1


def _runs_of(cells: Cells, c: int) -> list[int]:
    """run[i]: how many consecutive cells from i on may take colour c."""
    n = len(cells)
    run = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        run[i] = run[i + 1] + 1 if _bit(cells[i], c) else 0
    return run


def _pack(blocks: Blocks, cells: Cells) -> list[int] | None:
    """Leftmost starts by packing from the left (see the module docstring); None when a block does not fit."""
    n = len(cells)
    runs: dict[int, list[int]] = {}
    starts = []
    pos = 0
    for j, (length, c) in enumerate(blocks):
        run = runs.get(c)
        if run is None:
            run = runs[c] = _runs_of(cells, c)
        s = pos
        while s + length <= n and run[s] < length:
            s += 1
        if s + length > n:
            return None
        starts.append(s)
        pos = s + length + (1 if j + 1 < len(blocks) and blocks[j + 1][1] == c else 0)
    return starts


def ranges(blocks: Blocks, cells: Cells) -> tuple[list[int], list[int]] | None:
    """(lo, hi): per block the leftmost and rightmost start; None when the blocks cannot be packed."""
    lo = _pack(blocks, cells)
    if lo is None:
        return None
    n = len(cells)
    rev = _pack(list(reversed(blocks)), list(reversed(cells)))
    if rev is None:
        return None
    k = len(blocks)
    hi = [n - rev[k - 1 - j] - blocks[j][0] for j in range(k)]
    if any(a > b for a, b in zip(lo, hi, strict=True)):
        return None
    return lo, hi


def _tighten(blocks: Blocks, lo: list[int], hi: list[int]) -> bool:
    """Order the ranges: each block starts after the previous one ends (and its gap). False if empty."""
    k = len(blocks)
    for j in range(1, k):
        gap = 1 if blocks[j][1] == blocks[j - 1][1] else 0
        lo[j] = max(lo[j], lo[j - 1] + blocks[j - 1][0] + gap)
    for j in range(k - 2, -1, -1):
        gap = 1 if blocks[j][1] == blocks[j + 1][1] else 0
        hi[j] = min(hi[j], hi[j + 1] - blocks[j][0] - gap)
    return all(a <= b for a, b in zip(lo, hi, strict=True))


def _boxes_from_ranges(blocks: Blocks, cells: Cells, lo: list[int], hi: list[int]) -> Cells | None:
    out = list(cells)
    for (length, c), a, b in zip(blocks, lo, hi, strict=True):
        for i in range(b, a + length):
            if not _bit(out[i], c):
                return None
            out[i] = 1 << c
    return out


def _reach_from_ranges(blocks: Blocks, cells: Cells, lo: list[int], hi: list[int]) -> Cells:
    reach = [1] * len(cells)  # background stays everywhere (overlap is what removes it)
    for (length, c), a, b in zip(blocks, lo, hi, strict=True):
        for i in range(a, b + length):
            reach[i] |= 1 << c
    return [m & r for m, r in zip(cells, reach, strict=True)]


# ----------------------------------------------------------------------------- the rules


def missing_colour(blocks: Blocks, cells: Cells) -> Cells | None:
    keep = 1
    for _, c in blocks:
        keep |= 1 << c
    return [m & keep for m in cells]


def overlap(blocks: Blocks, cells: Cells) -> Cells | None:
    r = ranges(blocks, cells)
    return None if r is None else _boxes_from_ranges(blocks, cells, *r)


def out_of_reach(blocks: Blocks, cells: Cells) -> Cells | None:
    r = ranges(blocks, cells)
    return None if r is None else _reach_from_ranges(blocks, cells, *r)


def gap_too_small(blocks: Blocks, cells: Cells) -> Cells | None:
    """Colour c stays in cell i only if some c-block fits, within its range, in the run of c-capable cells
    around i, covering i."""
    r = ranges(blocks, cells)
    if r is None:
        return None
    lo, hi = r
    n = len(cells)
    out = list(cells)
    for c in {c for _, c in blocks}:
        run = _runs_of(cells, c)
        back = [0] * n  # how many consecutive c-capable cells end at i
        for i in range(n):
            back[i] = (back[i - 1] + 1 if i else 1) if _bit(cells[i], c) else 0
        for i in range(n):
            if not _bit(cells[i], c):
                continue
            a, b = i - back[i] + 1, i + run[i] - 1  # the run around i
            if not any(bc == c and max(lo[j], a, i - length + 1) <= min(hi[j], b - length + 1, i)
                       for j, (length, bc) in enumerate(blocks)):
                out[i] &= ~(1 << c)
    return out


def _covering(blocks: Blocks, lo: list[int], hi: list[int], i: int, c: int) -> list[int]:
    """The blocks of colour c whose range reaches cell i."""
    return [j for j, (length, bc) in enumerate(blocks) if bc == c and lo[j] <= i <= hi[j] + length - 1]


def join(blocks: Blocks, cells: Cells) -> Cells | None:
    """Two boxes of colour c with only c-capable cells between them, which no two different blocks can hold
    (no block reaching the first before another one reaching the second), belong to one block."""
    r = ranges(blocks, cells)
    if r is None:
        return None
    lo, hi = r
    out = list(cells)
    n = len(cells)
    prev: dict[int, int] = {}  # colour -> position of the last box of that colour with no wall since
    for i in range(n):
        m = cells[i]
        for c in list(prev):
            if not _bit(m, c):
                del prev[c]  # a wall for colour c
        if m and not m & (m - 1) and m != 1:
            c = m.bit_length() - 1
            p = prev.get(c)
            if p is not None and p + 1 < i:
                first, second = _covering(blocks, lo, hi, p, c), _covering(blocks, lo, hi, i, c)
                if not any(a < b for a in first for b in second):
                    for x in range(p + 1, i):
                        out[x] = 1 << c
            prev[c] = i
    return out


def split(blocks: Blocks, cells: Cells) -> Cells | None:
    """Colour c leaves an undecided cell when making it c would join the c-boxes next to it into a run
    longer than any c-block whose range could hold that run."""
    r = ranges(blocks, cells)
    if r is None:
        return None
    lo, hi = r
    n = len(cells)
    out = list(cells)
    for i in range(n):
        m = cells[i]
        if not m & (m - 1):
            continue
        for c in range(1, m.bit_length()):
            if not _bit(m, c):
                continue
            a = i
            while a > 0 and cells[a - 1] == 1 << c:
                a -= 1
            b = i
            while b + 1 < n and cells[b + 1] == 1 << c:
                b += 1
            if a == i and b == i:
                continue  # no box next to it: nothing to join
            size = b - a + 1
            if not any(bc == c and length >= size and max(lo[j], b - length + 1) <= min(hi[j], a)
                       for j, (length, bc) in enumerate(blocks)):
                out[i] &= ~(1 << c)
    return out


def pin(blocks: Blocks, cells: Cells) -> Cells | None:
    """Boxes that only one block can cover narrow that block's range to around them; the ordered ranges
    then give boxes (as overlap does) and remove colours no block reaches (as out-of-reach does)."""
    r = ranges(blocks, cells)
    if r is None:
        return None
    lo, hi = r
    for _ in range(len(cells) + 1):
        changed = False
        for i, m in enumerate(cells):
            if m == 0 or m & (m - 1) or m == 1:
                continue
            c = m.bit_length() - 1
            who = _covering(blocks, lo, hi, i, c)
            if not who:
                return None
            if len(who) == 1:
                j = who[0]
                a, b = max(lo[j], i - blocks[j][0] + 1), min(hi[j], i)
                if (a, b) != (lo[j], hi[j]):
                    lo[j], hi[j] = a, b
                    changed = True
        if not _tighten(blocks, lo, hi):
            return None
        if not changed:
            break
    boxes = _boxes_from_ranges(blocks, cells, lo, hi)
    return None if boxes is None else _reach_from_ranges(blocks, boxes, lo, hi)


Rule = Callable[[Blocks, Cells], "Cells | None"]

# The order in which the rules are tried (simplest first); `enumeration` takes what is left.
RULES: tuple[tuple[str, Rule], ...] = (
    ("missing-colour", missing_colour),
    ("overlap", overlap),
    ("out-of-reach", out_of_reach),
    ("gap-too-small", gap_too_small),
    ("split", split),
    ("join", join),
    ("pin", pin),
)


def decompose(blocks: Blocks, before: Cells, after: Cells,
              rules: Sequence[tuple[str, Callable]] | None = None) -> list[tuple[str, Cells, Cells]]:
    """An exact line deduction `before` -> `after` as named rules: [(technique, from, to), ...].

    Each rule is applied to the line as the previous ones left it; the first (in RULES order) that narrows
    it makes the next piece, until none does; `enumeration` then accounts for the rest. The pieces chain
    from `before` to `after`. A rule's conclusions are clipped to `after` (they are sound, so clipping only
    matters if a rule ever claimed more than the exact solver, which the tests rule out). `rules` replaces
    RULES (count clues' rules, analysis/count_techniques.py, take their clue where these take blocks).
    """
    cur = list(before)
    out: list[tuple[str, Cells, Cells]] = []
    while cur != list(after):
        for name, rule in RULES if rules is None else rules:
            got = rule(blocks, cur)
            if got is None:
                continue
            nxt = [(g & m) | a for g, m, a in zip(got, cur, after, strict=True)]
            if nxt != cur:
                out.append((name, cur, nxt))
                cur = nxt
                break
        else:
            out.append(("enumeration", cur, list(after)))
            break
    return out


__all__ = ["CATALOGUE", "LINE_TECHNIQUES", "RULES", "Technique", "decompose", "gap_too_small", "join",
           "missing_colour", "out_of_reach", "overlap", "pin", "ranges", "split"]
