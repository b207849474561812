"""The CP-SAT model of a count-and-contiguity puzzle (core/counts.py), for the cpsat engine (cpsat.build_model).

Per cell, one Boolean per colour it may take ("the cell is colour k", exactly one true) and an integer holding its
palette index (what the solve loop reads and blocks). Per line and colour:
- a cardinality constraint: the line's Booleans of that colour add up to its count;
- for a count of 2 or more, the run condition over those Booleans (the colour's indicator cells), one of
  RUN_MODELS:
  - "starts" (the default): all in a row, one Boolean per place the run may start, exactly one true, each
    implying its cells, each cell of the colour implying a start that covers it; not all in a row, run-start
    Booleans s_p <-> x_p and not x_(p-1), at least two true;
  - "automaton": an automaton over the indicators, ONE_RUN accepting 0*1+0*, TWO_RUNS lines with two or more
    runs of 1. CP-SAT expands it into many more literals, and took about twice the deterministic time on
    generated 20x20 puzzles (benchmarks/results/count-clues.md, "cpsat: run models").

A cell may take only the colours with a non-zero count in both its row and its column (and those `fixed`
allows). ortools itself is not imported here: cpsat.py passes its `cp_model` module in.
"""

from __future__ import annotations

from typing import Any, cast

from nonocp.core.counts import CountClue, count_clue
from nonocp.core.puzzle import Puzzle

# (state, bit, next state); state 0 is the start. One run: 0 before it, 1 in it, 2 after it.
ONE_RUN = ((0, 0, 0), (0, 1, 1), (1, 1, 1), (1, 0, 2), (2, 0, 2))
ONE_RUN_FINAL = (1, 2)
# Two or more runs: 0 none yet, 1 in the first, 2 after the first, 3 in a later one, 4 after a later one.
TWO_RUNS = ((0, 0, 0), (0, 1, 1), (1, 1, 1), (1, 0, 2), (2, 0, 2), (2, 1, 3), (3, 1, 3), (3, 0, 4), (4, 0, 4),
            (4, 1, 3))
TWO_RUNS_FINAL = (3, 4)


def count_domains(puzzle: Puzzle, fixed: dict[tuple[int, int], int] | None, cut: bool) -> list[list[list[int]]]:
    """domains[r][c]: the colours cell (r, c) may take: a non-zero count in its row and its column (every palette
    colour when `cut` is False), within `fixed`'s mask for that cell."""
    ncol = len(puzzle.palette)
    domains = []
    rows, cols = cast("tuple[CountClue, ...]", puzzle.rows), cast("tuple[CountClue, ...]", puzzle.cols)
    for r, row in enumerate(rows):
        out = []
        for c, col in enumerate(cols):
            dom = [k for k in range(ncol) if not cut or (row[k].count and col[k].count)]
            if fixed and (r, c) in fixed:
                dom = [k for k in dom if fixed[(r, c)] >> k & 1]
            out.append(dom)
        domains.append(out)
    return domains


RUN_MODELS = ("starts", "automaton")


def build_counts_model(puzzle: Puzzle, cp: Any, model_type: Any, fixed: dict[tuple[int, int], int] | None,
                       cut: bool, check_deadline: Any, run_model: str = RUN_MODELS[0]) -> Any:
    """The model as a `model_type` (cpsat.NonogramModel): cells, domains, the colour Booleans as its
    colour literals, and `empty` when some cell or fully decided line rules out every solution before search.
    `check_deadline()` raises cpsat's OutOfTime when the time is up."""
    import time

    start = time.perf_counter()
    model = cp.CpModel()
    domains = count_domains(puzzle, fixed, cut)
    empty = any(not d for row in domains for d in row)
    cells: list[list[Any]] = []
    literals: dict[tuple[int, int, int], Any] = {}
    for r, row in enumerate(domains):
        check_deadline()
        out: list[Any] = []
        for c, dom in enumerate(row):
            if len(dom) <= 1:
                out.append(dom[0] if dom else 0)
                continue
            x = model.new_int_var_from_domain(cp.Domain.from_values(dom), f"x_{r}_{c}")
            bools = []
            for k in dom:
                b = model.new_bool_var(f"b_{r}_{c}_{k}")
                literals[(r, c, k)] = b
                bools.append(b)
            model.add_exactly_one(bools)
            model.add(x == sum(k * b for k, b in zip(dom, bools, strict=True)))
            out.append(x)
        cells.append(out)
    if not empty:
        ncol = len(puzzle.palette)
        rows, cols = cast("tuple[CountClue, ...]", puzzle.rows), cast("tuple[CountClue, ...]", puzzle.cols)
        lines = [(rows[r], [(r, c) for c in range(puzzle.width)]) for r in range(puzzle.height)]
        lines += [(cols[c], [(r, c) for r in range(puzzle.height)]) for c in range(puzzle.width)]
        for clue, where in lines:
            check_deadline()
            values = [cells[r][c] for r, c in where]
            if all(isinstance(v, int) for v in values):
                if count_clue(values, ncol) != tuple(clue):
                    empty = True
                continue
            for k, entry in enumerate(clue):
                bits = [_indicator(cells[r][c], literals.get((r, c, k)), k) for r, c in where]
                known = sum(b for b in bits if isinstance(b, int))
                free = [b for b in bits if not isinstance(b, int)]
                if known > entry.count or known + len(free) < entry.count:
                    empty = True
                    continue
                if free:
                    model.add(sum(free) == entry.count - known)
                if entry.count >= 2:
                    _runs(model, bits, entry, run_model)
    return model_type(model, cells, domains, {}, literals, time.perf_counter() - start, empty)


def _runs(model: Any, bits: list[Any], entry: Any, run_model: str) -> None:
    """The run condition of one colour in one line, over its indicator cells (0/1 constants or Booleans): all
    in a row, or two or more runs (see the module docstring)."""
    if run_model == "automaton":
        table, final = (ONE_RUN, ONE_RUN_FINAL) if entry.together else (TWO_RUNS, TWO_RUNS_FINAL)
        model.add_automaton(bits, 0, list(final), list(table))
        return
    n, c = len(bits), entry.count
    if entry.together:
        starts: dict[int, Any] = {}
        for t in range(n - c + 1):
            if any(isinstance(b, int) and b == 0 for b in bits[t:t + c]):
                continue  # a cell that cannot be the colour: no run there
            u = model.new_bool_var("")
            for b in bits[t:t + c]:
                if not isinstance(b, int):
                    model.add_implication(u, b)
            starts[t] = u
        model.add_exactly_one(list(starts.values()))
        for p, b in enumerate(bits):
            covering = [u for t, u in starts.items() if t <= p < t + c]
            if isinstance(b, int):
                if b:
                    model.add_bool_or(covering) if covering else model.add_bool_or([])
            else:
                model.add_bool_or([*covering, b.Not()])
        return
    starts_ = []
    for p, x in enumerate(bits):
        before = bits[p - 1] if p else 0
        if isinstance(x, int) and isinstance(before, int):
            starts_.append(int(x == 1 and before == 0))
            continue
        s = model.new_bool_var("")
        model.add(s <= x)
        model.add(s + before <= 1)
        model.add(s >= x - before)
        starts_.append(s)
    model.add(sum(starts_) >= 2)


def _indicator(cell: Any, literal: Any, k: int) -> Any:
    """The 0/1 expression "this cell has colour k": a constant for a decided cell, its Boolean otherwise (0 when
    k is not among its colours)."""
    if isinstance(cell, int):
        return int(cell == k)
    return 0 if literal is None else literal
