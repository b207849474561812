"""A whole puzzle in CNF: cell variables, one line template per row and column, decoding, DIMACS text.

Pure Python (no solver import): the sat backend feeds `PuzzleCnf.clauses` to pysat, the `.cnf` writer
prints `to_dimacs`, and the auto backend encodes what propagation left open by passing `domains`.

Cell variables. Each cell gets the colours its row clue AND its column clue use, plus background (and,
with `domains`, only those the partial grid still allows). One possible colour: a constant. Two: one
variable (the second colour is its negation; in black and white that is every cell). More: one variable
per colour with exactly-one clauses. Constants are the literal +/-TRUE of a variable fixed by a unit
clause; line clauses made true by a constant are dropped and false constants removed from clauses.
Line templates rely on that restriction: they never mention colours absent from their clue.

Encodings (per line, see cnf_automaton.py and cnf_blocks.py): "automaton", "blocks", or "both" (the
two together over the same cell variables).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from nonocp.core.grid import Domains, Grid
from nonocp.core.puzzle import Clue, Puzzle, line_clue
from nonocp.encode.cnf_automaton import automaton_template
from nonocp.encode.cnf_blocks import blocks_template
from nonocp.encode.cnf_line import LineTemplate

TemplateFn = Callable[[Clue, int], LineTemplate]

ENCODINGS: dict[str, tuple[TemplateFn, ...]] = {
    "automaton": (automaton_template,),
    "blocks": (blocks_template,),
    "both": (blocks_template, automaton_template),
}
# blocks: fewer clauses, and the fastest of the three on the whole survey set (benchmarks/results/sat.md,
# "Encodings").
DEFAULT_ENCODING = "blocks"

TRUE = 1  # variable 1 is fixed true by a unit clause; cell constants are +TRUE / -TRUE


@dataclass
class PuzzleCnf:
    width: int
    height: int
    encoding: str
    n_vars: int
    clauses: list[list[int]]
    # per cell (index r*width + c): the global literal of "this cell has colour v", for every palette colour
    cell_literals: list[list[int]]
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)

    def literal(self, r: int, c: int, v: int) -> int:
        return self.cell_literals[r * self.width + c][v]

    def decode(self, model: Sequence[int]) -> Grid:
        """The grid of a pysat model (model[i-1] is +i or -i)."""
        true = set(lit for lit in model if lit > 0)
        true.add(TRUE)
        w = self.width

        def holds(lit: int) -> bool:
            return lit in true if lit > 0 else -lit not in true

        cells = [next(v for v, lit in enumerate(lits) if holds(lit)) for lits in self.cell_literals]
        return Grid(tuple(tuple(cells[r * w:(r + 1) * w]) for r in range(self.height)))

    def blocking_clause(self, grid: Grid) -> list[int]:
        """The clause every grid except `grid` satisfies (cells fixed by constants are left out)."""
        out = []
        for r, row in enumerate(grid.cells):
            for c, v in enumerate(row):
                lit = self.cell_literals[r * self.width + c][v]
                if lit != TRUE:
                    out.append(-lit)
        return out or [-TRUE]


def cell_options(
    puzzle: Puzzle, domains: Domains | None = None, fixed: Mapping[tuple[int, int], int] | None = None
) -> list[list[int]]:
    """Per cell, the colours it may take: background plus colours of both its clues, within the bit masks
    of `domains` (a partial grid) and `fixed` ({(row, col): mask}, SolveOptions.fixed)."""
    row_colours = [{b.color for b in clue} for clue in puzzle.rows]
    col_colours = [{b.color for b in clue} for clue in puzzle.cols]
    out = []
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            opts = [0, *sorted(row_colours[r] & col_colours[c])]
            if domains is not None:
                mask = domains.get(r, c)
                opts = [v for v in opts if mask >> v & 1]
            if fixed is not None and (r, c) in fixed:
                mask = fixed[(r, c)]
                opts = [v for v in opts if mask >> v & 1]
            out.append(opts)
    return out


def encode_puzzle(
    puzzle: Puzzle,
    encoding: str = DEFAULT_ENCODING,
    domains: Domains | None = None,
    fixed: Mapping[tuple[int, int], int] | None = None,
) -> PuzzleCnf:
    """The CNF of `puzzle`, optionally restricted to the colours `domains` and `fixed` allow per cell."""
    # Millions of small clause lists make the cyclic garbage collector rescan the growing heap again and
    # again, many times the encoding's own work (benchmarks/results/sat.md, "Building the CNF"); none of
    # them can form a cycle.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _encode(puzzle, encoding, domains, fixed)
    finally:
        if was_enabled:
            gc.enable()


def _encode(
    puzzle: Puzzle, encoding: str, domains: Domains | None, fixed: Mapping[tuple[int, int], int] | None
) -> PuzzleCnf:
    try:
        template_fns = ENCODINGS[encoding]
    except KeyError:
        raise ValueError(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}") from None
    start = time.perf_counter()
    ncolors = len(puzzle.palette)
    w, h = puzzle.width, puzzle.height
    clauses: list[list[int]] = [[TRUE]]
    next_var = TRUE + 1
    cell_literals: list[list[int]] = []
    constant = []  # per cell: True when the cell's colour is decided (no variable)
    for opts in cell_options(puzzle, domains, fixed):
        lits = [-TRUE] * ncolors
        if not opts:
            clauses.append([-TRUE])  # a cell with no colour left: the puzzle has no solution
        elif len(opts) == 1:
            lits[opts[0]] = TRUE
        elif len(opts) == 2:
            lits[opts[0]], lits[opts[1]] = -next_var, next_var
            next_var += 1
        else:
            own = list(range(next_var, next_var + len(opts)))
            next_var += len(opts)
            for v, lit in zip(opts, own, strict=True):
                lits[v] = lit
            clauses.append(own)
            clauses.extend([-a, -b] for i, a in enumerate(own) for b in own[i + 1:])
        cell_literals.append(lits)
        constant.append(len(opts) <= 1)

    lines = [(puzzle.rows[r], [r * w + c for c in range(w)]) for r in range(h)]
    lines += [(puzzle.cols[c], [r * w + c for r in range(h)]) for c in range(w)]
    cell_vars = next_var - TRUE - 1
    for clue, cells in lines:
        if all(constant[i] for i in cells):
            decided = [cell_literals[i].index(TRUE) if TRUE in cell_literals[i] else -1 for i in cells]
            if -1 in decided or line_clue(decided) != clue:
                clauses.append([-TRUE])
            continue
        has_constant = any(constant[i] for i in cells)
        for fn in template_fns:
            tmpl = fn(clue, len(cells))
            next_var = _instantiate(tmpl, [cell_literals[i] for i in cells], next_var, has_constant, clauses)

    seconds = time.perf_counter() - start
    stats = {"cell_vars": cell_vars, "aux_vars": next_var - 1 - cell_vars - 1}
    return PuzzleCnf(w, h, encoding, next_var - 1, clauses, cell_literals, seconds, stats)


def _instantiate(
    tmpl: LineTemplate, line_cells: list[list[int]], next_var: int, has_constant: bool, out: list[list[int]]
) -> int:
    """Append the template's clauses mapped onto this line's cells and fresh auxiliary variables.

    The lookup table holds the positive images of codes 1..size, then their negations in reverse
    order, so that Python's negative indexing maps code -k straight to the negated literal.
    """
    k = tmpl.alphabet
    positive: list[int] = []
    for lits in line_cells:
        positive.extend(lits[:k])
    positive.extend(range(next_var, next_var + tmpl.n_aux))
    lut = [0, *positive, *(-lit for lit in reversed(positive))]
    if not has_constant:
        out.extend([lut[code] for code in clause] for clause in tmpl.clauses)
    else:
        for clause in tmpl.clauses:
            mapped = [lut[code] for code in clause]
            if TRUE in mapped:
                continue
            if -TRUE in mapped:
                mapped = [lit for lit in mapped if lit != -TRUE] or [-TRUE]
            out.append(mapped)
    return next_var + tmpl.n_aux


def to_dimacs(cnf: PuzzleCnf, extra_clauses: Sequence[Sequence[int]] = (), comments: Sequence[str] = ()) -> str:
    """DIMACS text of the formula (plus `extra_clauses`, e.g. blocking clauses), with a header saying
    which literal means which cell colour, so the file can be read back without nonocp."""
    all_clauses = list(cnf.clauses) + [list(c) for c in extra_clauses]
    head = [f"c {line}" for line in comments]
    head.append(f"c nonocp CNF, encoding {cnf.encoding}, {cnf.width}x{cnf.height}; variable {TRUE} is constant true")
    head.append("c cell ROW COL COLOUR LITERAL: that literal true means the cell has that palette colour (0-based)")
    for i, lits in enumerate(cnf.cell_literals):
        r, c = divmod(i, cnf.width)
        head.extend(f"c cell {r} {c} {v} {lit}" for v, lit in enumerate(lits) if lit != -TRUE)
    head.append(f"p cnf {cnf.n_vars} {len(all_clauses)}")
    body = [" ".join(map(str, clause)) + " 0" for clause in all_clauses]
    return "\n".join(head + body) + "\n"
