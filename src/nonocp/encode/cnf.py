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

Memory: the clauses live in one flat array (ClauseStore, 4 bytes a literal, where a list of Python ints
costs about ten times that: benchmarks/results/memory.md), and every line's template is built before any
clause is written, so the formula's exact size (CnfSize) is known first: `encode_puzzle(..., check=fn)` calls
`fn(size)`, which may raise to refuse a formula that would not fit (the sat engine's memory budget).
"""

from __future__ import annotations

import gc
import itertools
import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from nonocp.core.errors import OutOfTime
from nonocp.core.grid import Domains, Grid
from nonocp.core.puzzle import Clue, Puzzle, line_clue
from nonocp.core.text import ascii_line
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


class ClauseStore:
    """Clauses as one flat array of literals, each clause followed by 0. Iterating yields each clause as an
    array slice (pysat's add_clause takes any iterable of ints)."""

    __slots__ = ("count", "lits")

    def __init__(self, clauses: Iterable[Iterable[int]] = ()) -> None:
        self.lits = array("i")
        self.count = 0
        for clause in clauses:
            self.append(clause)

    def append(self, clause: Iterable[int]) -> None:
        self.lits.extend(clause)
        self.lits.append(0)
        self.count += 1

    def extend_flat(self, flat: Iterable[int], n_clauses: int) -> None:
        """Add `n_clauses` clauses given as one 0-terminated sequence."""
        self.lits.extend(flat)
        self.count += n_clauses

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[array]:
        lits, start = self.lits, 0
        find = lits.index
        for _ in range(self.count):
            end = find(0, start)  # a C-speed scan to the terminator
            yield lits[start:end]
            start = end + 1

    def __contains__(self, clause: object) -> bool:
        wanted = list(clause)  # type: ignore[call-overload]
        return any(list(c) == wanted for c in self)

    @property
    def n_literals(self) -> int:
        return len(self.lits) - self.count


class CnfSize(NamedTuple):
    """A formula's size, known before its clauses are written (encode_puzzle's `check`)."""

    variables: int
    clauses: int
    literals: int


@dataclass
class PuzzleCnf:
    width: int
    height: int
    encoding: str
    n_vars: int
    clauses: ClauseStore
    # per cell (index r*width + c): the global literal of "this cell has colour v", for every palette colour
    cell_literals: list[list[int]]
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)

    def literal(self, r: int, c: int, v: int) -> int:
        return self.cell_literals[r * self.width + c][v]

    def decode(self, model: Sequence[int]) -> Grid:
        """The grid of a pysat model (model[i-1] is +i or -i)."""
        true = bytearray(self.n_vars + 2)  # one byte a variable: a set of the true ones costs far more
        for lit in model:
            if lit > 0:
                true[lit] = 1
        true[TRUE] = 1
        w = self.width

        def holds(lit: int) -> bool:
            return bool(true[lit]) if lit > 0 else not true[-lit]

        cells = [next(v for v, lit in enumerate(lits) if holds(lit)) for lits in self.cell_literals]
        return Grid(tuple(tuple(cells[r * w:(r + 1) * w]) for r in range(self.height)))

    def same_colour_clauses(self, groups: Iterable[Sequence[tuple[int, int]]]) -> list[list[int]]:
        """Clauses that give every cell of each group (row, column) the colour of the group's first cell."""
        out = []
        for cells in groups:
            (r0, c0), rest = cells[0], cells[1:]
            first = self.cell_literals[r0 * self.width + c0]
            for r, c in rest:
                for a, b in zip(first, self.cell_literals[r * self.width + c], strict=True):
                    if a != b:
                        out += ([-a, b], [a, -b])
        return out

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
    puzzle: Puzzle, domains: Domains | None = None, fixed: Mapping[tuple[int, int], int] | None = None,
    deadline: float | None = None,
) -> list[list[int]]:
    """Per cell, the colours it may take: background plus colours of both its clues, within the bit masks
    of `domains` (a partial grid) and `fixed` ({(row, col): mask}, SolveOptions.fixed). OutOfTime when
    `deadline` passes (a row at a time: 4 million cells take seconds)."""
    row_colours = [{b.color for b in clue} for clue in puzzle.rows]
    col_colours = [{b.color for b in clue} for clue in puzzle.cols]
    out = []
    for r in range(puzzle.height):
        if deadline is not None and time.monotonic() >= deadline:
            raise OutOfTime
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
    check: Callable[[CnfSize], None] | None = None,
    deadline: float | None = None,
    bound: Callable[[CnfSize], None] | None = None,
) -> PuzzleCnf:
    """The CNF of `puzzle`, optionally restricted to the colours `domains` and `fixed` allow per cell.
    `check(size)` is called with the formula's size (an upper bound: clauses satisfied by fixed cells are
    counted) before any clause is written; whatever it raises propagates. `bound(size)` hears the size so
    far while the line templates are built (the final size is at least that), so that a formula too big
    to hold is refused before all of it is built (a 2000x2000 grid's templates alone take gigabytes).
    OutOfTime when `deadline` (a time.monotonic() value) passes first."""
    # Millions of small objects make the cyclic garbage collector rescan the growing heap again and again,
    # many times the encoding's own work (benchmarks/results/sat.md, "Building the CNF"); none of them can
    # form a cycle.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _encode(puzzle, encoding, domains, fixed, check, deadline, bound)
    finally:
        if was_enabled:
            gc.enable()


class _Sized(Exception):
    """Carries the size out of encode_puzzle (cnf_size): the clauses are never written."""


def cnf_size(
    puzzle: Puzzle,
    encoding: str = DEFAULT_ENCODING,
    domains: Domains | None = None,
    fixed: Mapping[tuple[int, int], int] | None = None,
    deadline: float | None = None,
    bound: Callable[[CnfSize], None] | None = None,
) -> CnfSize:
    """The size encode_puzzle's formula would have, without writing it (the line templates it builds are
    cached, so a following encode_puzzle reuses them). OutOfTime when `deadline` passes; `bound` as in
    encode_puzzle."""

    def stop(size: CnfSize) -> None:
        raise _Sized(size)

    try:
        encode_puzzle(puzzle, encoding, domains, fixed, check=stop, deadline=deadline, bound=bound)
    except _Sized as sized:
        return sized.args[0]
    raise AssertionError("encode_puzzle did not report the size")  # pragma: no cover - check always runs


def _encode(
    puzzle: Puzzle, encoding: str, domains: Domains | None, fixed: Mapping[tuple[int, int], int] | None,
    check: Callable[[CnfSize], None] | None = None,
    deadline: float | None = None,
    bound: Callable[[CnfSize], None] | None = None,
) -> PuzzleCnf:
    try:
        template_fns = ENCODINGS[encoding]
    except KeyError:
        raise ValueError(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}") from None
    start = time.perf_counter()
    ncolors = len(puzzle.palette)
    w, h = puzzle.width, puzzle.height
    clauses = ClauseStore([[TRUE]])
    next_var = TRUE + 1
    cell_literals: list[list[int]] = []
    constant = []  # per cell: True when the cell's colour is decided (no variable)
    for opts in cell_options(puzzle, domains, fixed, deadline):
        if not len(cell_literals) & 0xFFFF and deadline is not None and time.monotonic() >= deadline:
            raise OutOfTime
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
            for i, a in enumerate(own):
                for b in own[i + 1:]:
                    clauses.append((-a, -b))
        cell_literals.append(lits)
        constant.append(len(opts) <= 1)

    lines = [(puzzle.rows[r], [r * w + c for c in range(w)]) for r in range(h)]
    lines += [(puzzle.cols[c], [r * w + c for r in range(h)]) for c in range(w)]
    cell_vars = next_var - TRUE - 1
    # Every template first (cached per clue and length), so that the size is known before any clause is
    # written; then the clauses.
    work: list[tuple[list[int], list[LineTemplate], bool]] = []
    aux = n_clauses = n_literals = 0  # the templates' sizes so far
    for clue, cells in lines:
        if deadline is not None and time.monotonic() >= deadline:
            raise OutOfTime
        if all(constant[i] for i in cells):
            decided = [cell_literals[i].index(TRUE) if TRUE in cell_literals[i] else -1 for i in cells]
            if -1 in decided or line_clue(decided) != clue:
                clauses.append([-TRUE])
            continue
        templates = [fn(clue, len(cells)) for fn in template_fns]
        work.append((cells, templates, any(constant[i] for i in cells)))
        for t in templates:
            aux, n_clauses, n_literals = aux + t.n_aux, n_clauses + t.n_clauses, n_literals + t.n_literals
        if bound is not None:
            bound(CnfSize(next_var - 1 + aux, len(clauses) + n_clauses, clauses.n_literals + n_literals))
    if check is not None:
        check(CnfSize(next_var - 1 + aux, len(clauses) + n_clauses, clauses.n_literals + n_literals))
    for cells, templates, has_constant in work:
        if deadline is not None and time.monotonic() >= deadline:
            raise OutOfTime
        line_cells = [cell_literals[i] for i in cells]
        for tmpl in templates:
            next_var = _instantiate(tmpl, line_cells, next_var, has_constant, clauses)

    seconds = time.perf_counter() - start
    stats = {"cell_vars": cell_vars, "aux_vars": next_var - 1 - cell_vars - 1}
    return PuzzleCnf(w, h, encoding, next_var - 1, clauses, cell_literals, seconds, stats)


def _instantiate(
    tmpl: LineTemplate, line_cells: list[list[int]], next_var: int, has_constant: bool, out: ClauseStore
) -> int:
    """Append the template's clauses mapped onto this line's cells and fresh auxiliary variables.

    The lookup table holds 0 (the clause terminator maps to itself), the positive images of codes
    1..size, then their negations in reverse order, so that Python's negative indexing maps code -k
    straight to the negated literal: the whole flat template maps in one pass.
    """
    k = tmpl.alphabet
    positive: list[int] = []
    for lits in line_cells:
        positive.extend(lits[:k])
    positive.extend(range(next_var, next_var + tmpl.n_aux))
    lut = [0, *positive, *(-lit for lit in reversed(positive))]
    mapped = [lut[code] for code in tmpl.codes]
    if not has_constant:
        out.extend_flat(mapped, tmpl.n_clauses)
    else:
        # constants: a clause holding TRUE is satisfied (dropped), -TRUE literals are false (removed)
        start = 0
        for end in _terminators(mapped):
            clause = mapped[start:end]
            start = end + 1
            if TRUE in clause:
                continue
            if -TRUE in clause:
                clause = [lit for lit in clause if lit != -TRUE] or [-TRUE]
            out.append(clause)
    return next_var + tmpl.n_aux


def _terminators(flat: list[int]) -> Iterator[int]:
    """The positions of the 0s in a flat clause list."""
    find, at = flat.index, -1
    try:
        while True:
            at = find(0, at + 1)
            yield at
    except ValueError:
        return


def to_dimacs(cnf: PuzzleCnf, extra_clauses: Sequence[Sequence[int]] = (), comments: Sequence[str] = ()) -> str:
    """DIMACS text of the formula (plus `extra_clauses`, e.g. blocking clauses), with a header saying
    which literal means which cell colour, so the file can be read back without nonocp. Each comment is
    one ASCII line (core.text.ascii_line): a title with a newline or `Żółw` cannot break the format."""
    head = [f"c {ascii_line(line)}" for line in comments]
    head.append(f"c nonocp CNF, encoding {cnf.encoding}, {cnf.width}x{cnf.height}; variable {TRUE} is constant true")
    head.append("c cell ROW COL COLOUR LITERAL: that literal true means the cell has that palette colour (0-based)")
    for i, lits in enumerate(cnf.cell_literals):
        r, c = divmod(i, cnf.width)
        head.extend(f"c cell {r} {c} {v} {lit}" for v, lit in enumerate(lits) if lit != -TRUE)
    head.append(f"p cnf {cnf.n_vars} {len(cnf.clauses) + len(extra_clauses)}")
    body = [" ".join(map(str, clause)) + " 0" for clause in itertools.chain(cnf.clauses, extra_clauses)]
    return "\n".join(head + body) + "\n"
