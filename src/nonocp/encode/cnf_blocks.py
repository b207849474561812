"""Encoding (b): block positions with order ladders (the encoding the strongest SAT nonogram solvers use).

For block j (length L_j, colour c_j) of a line of n cells, its start lies in [e_j, l_j]: e_j packs the
blocks to the left, l_j to the right (same-colour neighbours need one background cell between them,
different colours may touch). Variables:
  o(j, s) = "block j starts at or before s", for e_j <= s < l_j (below e_j it is False, from l_j on True)
  cov(j, p) = "block j covers cell p", only for cells that more than one block of that colour can reach
Clauses, with x(p, v) = "cell p has colour v":
  ladder     o(j, s) -> o(j, s+1)
  order      o(j+1, s) -> o(j, s - L_j - gap_j)          (block j ends, plus a gap, before block j+1)
  paint      o(j, p) & -o(j, p - L_j) -> x(p, c_j)        (a block paints the cells it covers)
  cover      x(p, c) -> OR{ block j of colour c covers p }  (a coloured cell belongs to some block)
"Block j covers p" is o(j, p) & -o(j, p - L_j); when only one block of colour c can reach p the cover
clause is written as two binary clauses, otherwise through cov(j, p) (defined both ways, so that it
propagates in both directions).
"""

from __future__ import annotations

from functools import lru_cache

from nonocp.core.puzzle import Clue
from nonocp.encode.cnf_line import LineTemplate, LineTemplateBuilder, Lit, neg


def start_ranges(clue: Clue, length: int) -> list[tuple[int, int]]:
    """(earliest, latest) start of each block."""
    k = len(clue)
    gaps = [1 if clue[j].color == clue[j + 1].color else 0 for j in range(k - 1)]
    earliest = [0] * k
    for j in range(1, k):
        earliest[j] = earliest[j - 1] + clue[j - 1].length + gaps[j - 1]
    latest = [0] * k
    if k:
        latest[k - 1] = length - clue[k - 1].length
    for j in range(k - 2, -1, -1):
        latest[j] = latest[j + 1] - gaps[j] - clue[j].length
    return list(zip(earliest, latest, strict=True))


@lru_cache(maxsize=8192)
def blocks_template(clue: Clue, length: int) -> LineTemplate:
    alphabet = 1 + max((b.color for b in clue), default=0)
    b = LineTemplateBuilder(length, alphabet)
    ranges = start_ranges(clue, length)

    ladders: list[dict[int, int]] = []
    for e, last in ranges:
        ladders.append({s: b.new_var() for s in range(e, last)})

    def order(j: int, s: int) -> Lit:
        e, last = ranges[j]
        if s < e:
            return False
        if s >= last:
            return True
        return ladders[j][s]

    for j, ladder in enumerate(ladders):
        for s in ladder:
            b.add(-ladder[s], order(j, s + 1))
        if j + 1 < len(clue):
            gap = 1 if clue[j].color == clue[j + 1].color else 0
            for s in ladders[j + 1]:
                b.add(-ladders[j + 1][s], order(j, s - clue[j].length - gap))

    # reach[p][c] = blocks of colour c that can cover cell p
    reach: list[dict[int, list[int]]] = [{} for _ in range(length)]
    for j, (blk, (e, last)) in enumerate(zip(clue, ranges, strict=True)):
        for p in range(e, last + blk.length):
            reach[p].setdefault(blk.color, []).append(j)
            # paint: o(j,p) & -o(j,p-L) -> x(p, c_j)
            b.add(neg(order(j, p)), order(j, p - blk.length), b.cell(p, blk.color))

    for p in range(length):
        for c in range(1, alphabet):
            x = b.cell(p, c)
            blocks = reach[p].get(c, [])
            if not blocks:
                # colours absent from the clue are excluded per cell by the puzzle encoding
                if any(blk.color == c for blk in clue):
                    b.add(-x)
                continue
            if len(blocks) == 1:
                j = blocks[0]
                b.add(-x, order(j, p))
                b.add(-x, neg(order(j, p - clue[j].length)))
                continue
            covers = []
            for j in blocks:
                cov = b.new_var()
                started, ended = order(j, p), order(j, p - clue[j].length)
                b.add(-cov, started)
                b.add(-cov, neg(ended))
                b.add(cov, neg(started), ended)
                covers.append(cov)
            b.add(-x, *covers)
    return b.build()

