"""What the designer asks the engines: the other solutions of a picture's clues (as atomic moves), the
proof that a picture is unique (two independent engines), and how far line logic gets.

Everything goes through the engines' public interface (`nonocp.engines`, `nonocp.engines.native`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from nonocp.core.errors import NonocpError, OutOfTime
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.core.puzzle import RUNS, Meta, Puzzle, picture_puzzle
from nonocp.core.result import SolveResult, Status
from nonocp.design.moves import Cells, Move, dedupe, move_between, split_move
from nonocp.engines import PROOF_BACKENDS, QUERY_BACKEND, SolveOptions, get_backend

# The engine that finds alternatives while searching (fast on pictures, and deterministic, so the same design
# always gets the same proposal), and the engines that must both prove a proposal unique.
SEARCH_ENGINE = QUERY_BACKEND
PROOF_ENGINES = PROOF_BACKENDS


class EnginesDisagree(NonocpError):
    """Two engines gave different answers about one design (a bug in one of them)."""


def puzzle_of(x: Cells | Grid, palette: Palette, title: str = "", kind: str = RUNS) -> Puzzle:
    """The puzzle of picture `x`'s clues of kind `kind`, with the picture as its goal."""
    grid = x if isinstance(x, Grid) else Grid.from_rows(x)
    return picture_puzzle(grid, palette, kind, Meta(title=title))


def left(deadline: float | None) -> float | None:
    """Seconds until `deadline` (a time.monotonic() value); OutOfTime when it has passed."""
    if deadline is None:
        return None
    rest = deadline - time.monotonic()
    if rest <= 0:
        raise OutOfTime("the time limit ran out")
    return rest


@dataclass
class Counter:
    """How many engine calls a run made (reported by make_unique and the benchmark)."""

    solves: int = 0
    propagations: int = 0


def run_solve(puzzle: Puzzle, engine: str, max_solutions: int | None, deadline: float | None,
              fixed: dict[tuple[int, int], int] | None = None, counter: Counter | None = None) -> SolveResult:
    options = SolveOptions(max_solutions=max_solutions, time_limit=left(deadline), fixed=fixed, workers=1)
    result = get_backend(engine).solve(puzzle, options)
    if counter is not None:
        counter.solves += 1
    if result.status is Status.TIMEOUT:
        raise OutOfTime(f"the {engine} engine ran out of time")
    for g in result.solutions:  # never build on an answer we have not checked ourselves
        if not puzzle.is_solution(g):
            raise EnginesDisagree(f"the {engine} engine returned a grid that does not fit the clues")
    return result


def alternatives(x: Cells, palette: Palette, deadline: float | None, *, engine: str = SEARCH_ENGINE,
                 batch: int = 6, queries: int = 24, counter: Counter | None = None,
                 kind: str = RUNS) -> list[Move] | None:
    """Atomic moves valid at `x` (its clues' other solutions, split into line-disjoint groups), or None
    when `x` is the unique solution of its clues.

    First up to `batch` solutions at once; then, for up to `queries` cells that line logic and probing
    leave open and that no move found so far covers, a solution in which that cell differs from `x` (a
    witness), so that the moves cover the picture's ambiguous places rather than one of them many times.
    """
    puzzle = puzzle_of(x, palette, kind=kind)
    first = run_solve(puzzle, engine, batch, deadline, counter=counter)
    if first.status is Status.UNIQUE:
        return None
    moves: list[Move] = []
    for g in first.solutions:
        other = [list(r) for r in g.cells]
        if other != x:
            moves += split_move(move_between(x, other), kind)
    covered = {cell for m in moves for cell in m}
    full = (1 << len(palette)) - 1
    asked = 0
    for r, c in open_cells(puzzle, deadline, counter):
        if asked >= queries:
            break
        if (r, c) in covered:
            continue
        asked += 1
        res = run_solve(puzzle, engine, 1, deadline, {(r, c): full & ~(1 << x[r][c])}, counter)
        if res.solutions:
            found = split_move(move_between(x, [list(row) for row in res.solutions[0].cells]), kind)
            moves += found
            covered |= {cell for m in found for cell in m}
    return dedupe(moves)


def open_cells(puzzle: Puzzle, deadline: float | None, counter: Counter | None = None) -> list[tuple[int, int]]:
    """Cells that line logic and probing leave undecided (a superset of the ambiguous cells)."""
    masks = fixpoint(puzzle, True, deadline, counter)
    if masks is None:
        return []
    w = puzzle.width
    return [divmod(i, w) for i, m in enumerate(masks) if m & (m - 1)]


def fixpoint(puzzle: Puzzle, probe: bool, deadline: float | None, counter: Counter | None = None) -> list[int] | None:
    """The native engine's line-logic (and, with `probe`, probing) fixpoint: per cell the colours still
    possible (bit masks), or None when the clues contradict."""
    from nonocp.engines.native import propagate_and_probe

    if counter is not None:
        counter.propagations += 1
    try:
        masks, contradiction, _ = propagate_and_probe(puzzle, None if deadline is None else deadline, probe=probe)
    except OutOfTime:
        raise OutOfTime("the time limit ran out during line logic") from None
    return None if contradiction else masks


def undecided(puzzle: Puzzle, probe: bool, deadline: float | None, counter: Counter | None = None) -> int:
    """How many cells logic without guessing leaves undecided (0: it solves the puzzle alone)."""
    masks = fixpoint(puzzle, probe, deadline, counter)
    if masks is None:
        return puzzle.width * puzzle.height
    return sum(1 for m in masks if m & (m - 1))


@dataclass(frozen=True)
class Proof:
    """One engine's verdict on a proposal."""

    engine: str
    status: str
    seconds: float

    def as_dict(self) -> dict:
        return {"engine": self.engine, "status": self.status, "seconds": round(self.seconds, 4)}


def prove_unique(grid: Grid, palette: Palette, deadline: float | None = None,
                 engines: tuple[str, ...] = PROOF_ENGINES, kind: str = RUNS) -> tuple[Proof, ...]:
    """Each engine's proof that `grid` is the only solution of its clues (of kind `kind`); EnginesDisagree
    when one finds another solution or a different one (the designer only proposes grids it believes
    unique)."""
    puzzle = puzzle_of(grid, palette, kind=kind)
    proofs = []
    for name in engines:
        start = time.perf_counter()
        result = run_solve(puzzle, name, 2, deadline)
        proofs.append(Proof(name, result.status.value, time.perf_counter() - start))
        if result.status is not Status.UNIQUE or result.solutions[0] != grid:
            raise EnginesDisagree(
                f"the {name} engine does not confirm the proposal: it answers {result.status.value}"
            )
    return tuple(proofs)
