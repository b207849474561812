"""A count-and-contiguity puzzle (core/counts.py) in CNF, for the sat engine: the same PuzzleCnf as run clues
(encode/cnf.py), so that decoding, blocking clauses and DIMACS output are shared.

Cells. A cell may take the colours with a non-zero count in both its row and its column (within `domains` and
`fixed`). One possible colour: a constant (+-TRUE); two: one variable and its negation; more: one variable per
colour and exactly-one clauses.

Lines, per colour k with count c (x_p: "cell p of the line is k"):
- count 1, or 2 or more not all in a row: a cardinality constraint, exactly c of the x_p;
- 2 or more not all in a row, besides: start literals s_p <-> x_p and not x_(p-1) (a run of k starts at p), and
  at least two of them;
- 2 or more all in a row: one literal per place the run can start, u_t (only where all c cells may be k),
  exactly one of them, u_t -> x_p for the c cells it covers, and x_p -> some u_t covering p. This fixes the
  count as well, so no cardinality constraint is added.

Cardinality constraints come from the caller (`cardinality`): the sat engine passes pysat's encodings (this
package stays free of pysat).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from nonocp.core.grid import Domains
from nonocp.core.puzzle import Puzzle
from nonocp.encode.cnf import TRUE, PuzzleCnf

# cardinality(literals, bound, relation, top variable) -> (clauses, new top variable); relation is "equals" or
# "atleast"; the clauses may use fresh variables above `top`.
Cardinality = Callable[[list[int], int, str, int], tuple[list[list[int]], int]]

ENCODING = "counts"


class _Clauses:
    """Clauses with the constants folded in: a clause holding TRUE is dropped, -TRUE literals are left out (an
    empty clause becomes [-TRUE], unsatisfiable)."""

    def __init__(self) -> None:
        self.out: list[list[int]] = [[TRUE]]

    def add(self, *lits: int) -> None:
        if TRUE in lits:
            return
        kept = [lit for lit in lits if lit != -TRUE]
        self.out.append(kept or [-TRUE])


def count_options(puzzle: Puzzle, domains: Domains | None = None,
                  fixed: Mapping[tuple[int, int], int] | None = None) -> list[list[int]]:
    """Per cell (row-major), the colours it may take: a non-zero count in its row and its column, within the
    masks of `domains` and `fixed`."""
    ncol = len(puzzle.palette)
    out = []
    for r, row in enumerate(puzzle.rows):
        for c, col in enumerate(puzzle.cols):
            opts = [k for k in range(ncol) if row[k].count and col[k].count]
            if domains is not None:
                opts = [k for k in opts if domains.get(r, c) >> k & 1]
            if fixed is not None and (r, c) in fixed:
                opts = [k for k in opts if fixed[(r, c)] >> k & 1]
            out.append(opts)
    return out


def encode_counts(puzzle: Puzzle, cardinality: Cardinality, domains: Domains | None = None,
                  fixed: Mapping[tuple[int, int], int] | None = None) -> PuzzleCnf:
    """The CNF of a count-clue puzzle (see the module docstring), restricted to what `domains` and `fixed` allow."""
    start = time.perf_counter()
    ncol = len(puzzle.palette)
    w, h = puzzle.width, puzzle.height
    cl = _Clauses()
    top = TRUE
    cell_literals: list[list[int]] = []
    for opts in count_options(puzzle, domains, fixed):
        lits = [-TRUE] * ncol
        if not opts:
            cl.add(-TRUE)
        elif len(opts) == 1:
            lits[opts[0]] = TRUE
        elif len(opts) == 2:
            top += 1
            lits[opts[0]], lits[opts[1]] = -top, top
        else:
            own = list(range(top + 1, top + 1 + len(opts)))
            top += len(opts)
            for k, lit in zip(opts, own, strict=True):
                lits[k] = lit
            cl.add(*own)
            for i, a in enumerate(own):
                for b in own[i + 1:]:
                    cl.add(-a, -b)
        cell_literals.append(lits)
    cell_vars = top - TRUE

    def card(lits: list[int], bound: int, relation: str) -> None:
        """`relation` ("equals"/"atleast") `bound` of `lits`, constants counted first."""
        nonlocal top
        known = sum(1 for lit in lits if lit == TRUE)
        free = [lit for lit in lits if abs(lit) != TRUE]
        need = bound - known
        if need < 0 and relation == "equals" or need > len(free):
            cl.add(-TRUE)
        elif need <= 0 and relation == "atleast":
            return
        elif relation == "equals" and need == 0:
            for lit in free:
                cl.add(-lit)
        elif relation == "equals" and need == len(free):
            for lit in free:
                cl.add(lit)
        else:
            clauses, top = cardinality(free, need, relation, top)
            for clause in clauses:
                cl.add(*clause)

    lines = [(puzzle.rows[r], [r * w + c for c in range(w)]) for r in range(h)]
    lines += [(puzzle.cols[c], [r * w + c for r in range(h)]) for c in range(w)]
    for clue, cells in lines:
        n = len(cells)
        for k, entry in enumerate(clue):
            if not entry.count:
                continue
            x = [cell_literals[i][k] for i in cells]
            if entry.together and entry.count >= 2:
                # one start literal per place the run fits, exactly one true; each covers its cells, and a
                # cell of the colour is covered by a start
                c = entry.count
                starts: dict[int, int] = {}
                for t in range(n - c + 1):
                    if all(x[p] != -TRUE for p in range(t, t + c)):
                        top += 1
                        starts[t] = top
                        for p in range(t, t + c):
                            cl.add(-top, x[p])
                card(list(starts.values()), 1, "equals")
                for p in range(n):
                    cl.add(-x[p], *(s for t, s in starts.items() if t <= p < t + c))
                continue
            card(x, entry.count, "equals")
            if entry.count >= 2:
                starts = []
                for p in range(n):
                    previous = x[p - 1] if p else -TRUE
                    top += 1
                    s = top
                    cl.add(-s, x[p])
                    cl.add(-s, -previous)
                    cl.add(s, -x[p], previous)
                    starts.append(s)
                card(starts, 2, "atleast")
    seconds = time.perf_counter() - start
    return PuzzleCnf(w, h, ENCODING, top, cl.out, cell_literals, seconds,
                     {"cell_vars": cell_vars, "aux_vars": top - TRUE - cell_vars})
