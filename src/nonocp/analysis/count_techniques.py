"""The named line techniques of count-and-contiguity clues (core/counts.py): what a person checks by eye before
enumerating a line's bodies, in the shape of run clues' techniques (a rule maps a line's cells to narrower
cells, or None when the line has no completion it can see).

Their descriptions are in analysis/techniques.py's CATALOGUE (scope "count-line") and their sentences in
render/steps_text.py, beside run clues'. A line is given as its cells' candidate masks (bit k = palette colour
k; every colour is a real colour, there is no background) and its clue as one Count per colour. Every rule is
sound on its own: it only removes a colour that no line with these counts and flags puts in the cell
(tests/test_count_techniques.py checks them against brute force). The rules, simplest first:

- `zero-count`: a colour whose count is 0 is in none of the line's cells;
- `count-complete`: a colour whose count is reached by the cells already decided to it leaves every other cell;
  a colour with exactly as many candidate cells as its count takes them all;
- `all-in-a-row`: a colour whose cells are all in a row has one run, in a place of `count` cells that may all
  take it and hold its decided cells: it takes the cells every such place covers (the leftmost and rightmost
  places overlap) and leaves the cells none covers;
- `not-all-in-a-row`: a colour not all in a row whose decided cells are one run one cell short of its count
  cannot take the two cells at that run's ends (the run would be all of it, in one row);
- `enumeration`: everything else the exact line solver sees (enumerating the line's bodies).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from nonocp.analysis import techniques
from nonocp.core.counts import Count

Cells = list[int]
Rule = Callable[[Sequence[Count], Cells], Cells | None]

def _decided(cells: Cells, k: int) -> list[int]:
    return [i for i, m in enumerate(cells) if m == 1 << k]


def _candidates(cells: Cells, k: int) -> list[int]:
    return [i for i, m in enumerate(cells) if m >> k & 1]


def zero_count(clue: Sequence[Count], cells: Cells) -> Cells | None:
    keep = sum(1 << k for k, e in enumerate(clue) if e.count)
    out = [m & keep for m in cells]
    return None if not all(out) else out


def count_complete(clue: Sequence[Count], cells: Cells) -> Cells | None:
    out = list(cells)
    for k, e in enumerate(clue):
        decided = _decided(out, k)
        if len(decided) > e.count:
            return None
        if len(decided) == e.count:
            out = [m if m == 1 << k else m & ~(1 << k) for m in out]
        else:
            cands = _candidates(out, k)
            if len(cands) < e.count:
                return None
            if len(cands) == e.count:
                for i in cands:
                    out[i] = 1 << k
    return None if not all(out) else out


def all_in_a_row(clue: Sequence[Count], cells: Cells) -> Cells | None:
    out = list(cells)
    n = len(out)
    for k, e in enumerate(clue):
        if not e.together:
            continue
        bit, c = 1 << k, e.count
        decided = _decided(out, k)
        # the places the run can take: c cells that may all be k, holding every cell decided to k
        starts = [t for t in range(n - c + 1) if all(out[i] & bit for i in range(t, t + c))
                  and (not decided or t <= decided[0] and decided[-1] < t + c)]
        if not starts:
            return None
        first, last = starts[0], starts[-1]
        for i in range(n):
            if last <= i < first + c:  # inside every place: the leftmost and rightmost overlap
                out[i] = bit
            elif not any(t <= i < t + c for t in starts):  # out of the run's reach
                out[i] &= ~bit
    return None if not all(out) else out


def not_all_in_a_row(clue: Sequence[Count], cells: Cells) -> Cells | None:
    out = list(cells)
    for k, e in enumerate(clue):
        if e.together or e.count < 2:
            continue
        decided = _decided(out, k)
        if len(decided) == e.count - 1 and decided and decided[-1] - decided[0] + 1 == len(decided):
            for i in (decided[0] - 1, decided[-1] + 1):
                if 0 <= i < len(out):
                    out[i] &= ~(1 << k)
    return None if not all(out) else out


RULES: tuple[tuple[str, Rule], ...] = (
    ("zero-count", zero_count),
    ("count-complete", count_complete),
    ("all-in-a-row", all_in_a_row),
    ("not-all-in-a-row", not_all_in_a_row),
)
LINE_TECHNIQUES = (*(name for name, _ in RULES), "enumeration")


def decompose(clue: Sequence[Count], before: Cells, after: Cells) -> list[tuple[str, Cells, Cells]]:
    """An exact line deduction `before` -> `after` as named rules, [(technique, from, to), ...], as run clues'
    are told (analysis/techniques.decompose): the first rule that narrows the line makes the next piece, until
    none does; `enumeration` accounts for the rest."""
    return techniques.decompose(clue, before, after, RULES)


