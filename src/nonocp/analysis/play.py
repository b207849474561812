"""A person's grid against the puzzle: which of their cells are mistakes, and the next deduction from it.

The web workbench's Play mode asks these two questions of a grid a person is filling in by hand. The
grid is one value per cell, row-major: -1 where the person has marked nothing, else the palette index
they put there (0, the background, is a cross).

* `check(puzzle, cells, known)`: the person's cells that stand between their grid and every solution.
  When the grid has a completion (a solution agreeing with every marked cell) there is no mistake. When
  it has none and every solution is known (`known.exhausted`), the mistakes are the cells in which the
  closest solution differs (for a unique puzzle: the cells that differ from the solution); that set is
  the smallest change that makes the grid completable. With more solutions than were enumerated, the
  closest one found gives a change that works, not necessarily the smallest (`exact` False).
* `hint(puzzle, cells, known)`: mistakes first (one of them is pointed at); else the stepper
  (nonocp.analysis.stepper, the one `explain` follows) starts from the person's cells as decided cells and
  takes steps until one decides a cell the person has not marked: that step is the hint (its technique,
  line and the cells it decides). When the engine's next step is a guess, only a guess remains.

`known` holds the puzzle's solutions (`solutions_of`): the server keeps them per puzzle, so that each
request does not solve the puzzle again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from nonocp.analysis.stepper import Stepper
from nonocp.analysis.steps import Step
from nonocp.core.puzzle import Puzzle
from nonocp.engines import DEFAULT_BACKEND, get_backend
from nonocp.engines.contract import SolveOptions
from nonocp.engines.solve import solve

UNKNOWN = -1
# solutions enumerated per puzzle: up to this many, the closest solution to a grid is exactly the closest
MAX_KNOWN = 20
# steps taken from one grid before the hint gives up looking for one that decides a cell (in colour, a
# step may narrow candidates without deciding any)
MAX_HINT_STEPS = 400
# steps the engine makes ahead per request while looking for a hint (the stepper's default is for stepping
# through a whole solve; a hint is usually the first step)
HINT_BATCH = 16


@dataclass(frozen=True)
class Known:
    """Solutions of a puzzle, each one palette index per cell (row-major); `exhausted`: these are all of
    them; `timed_out`: the search was stopped by the time limit before it knew."""

    solutions: tuple[tuple[int, ...], ...]
    exhausted: bool
    timed_out: bool = False


@dataclass(frozen=True)
class Check:
    """`status`: "ok" (the grid has a completion), "mistakes", "no-solution" (the puzzle has none) or
    "timeout". `mistakes`: (row, col) cells, row-major order; `exact`: they are the fewest cells whose
    change makes the grid completable. `complete`: every cell is marked and the grid is a solution."""

    status: str
    mistakes: tuple[tuple[int, int], ...] = ()
    exact: bool = True
    complete: bool = False


@dataclass(frozen=True)
class Hint:
    """`kind`: "mistake" (`mistake` is one wrong cell, `check` has them all), "deduction" (`step` decides
    `cells`: (row, col, colour) not marked by the person; `before` are steps that narrowed candidates on
    the way without deciding a cell), "guess" (no deduction is left: only a guess), "solved" (the grid is
    complete and right), "no-solution", "timeout"."""

    kind: str
    check: Check
    step: Step | None = None
    cells: tuple[tuple[int, int, int], ...] = ()
    before: tuple[Step, ...] = field(default_factory=tuple)
    mistake: tuple[int, int] | None = None


def solutions_of(puzzle: Puzzle, time_limit: float | None = None, limit: int = MAX_KNOWN) -> Known:
    """Up to `limit` solutions of the puzzle (the default engine)."""
    result = solve(puzzle, max_solutions=limit, time_limit=time_limit)
    flat = tuple(tuple(v for row in g.cells for v in row) for g in result.solutions)
    return Known(flat, result.exhausted, result.timed_out)


def check_cells(puzzle: Puzzle, cells: list[int]) -> None:
    """ValueError unless `cells` is one value per cell, each -1 or a palette index."""
    n = len(puzzle.palette)
    if len(cells) != puzzle.width * puzzle.height:
        raise ValueError(f"the grid has {len(cells)} cells; the puzzle has {puzzle.width * puzzle.height}")
    if any(not isinstance(v, int) or isinstance(v, bool) or not UNKNOWN <= v < n for v in cells):
        raise ValueError(f"each cell must be -1 (unmarked) or a palette index from 0 to {n - 1}")


def check(puzzle: Puzzle, cells: list[int], known: Known, deadline: float | None = None) -> Check:
    """See the module docstring. `deadline` (time.monotonic()) bounds the completion search, needed only
    when the puzzle has more solutions than `known` holds."""
    check_cells(puzzle, cells)
    marked = [(i, v) for i, v in enumerate(cells) if v != UNKNOWN]
    full = len(marked) == len(cells)
    if not known.solutions:
        return Check("timeout" if known.timed_out else "no-solution", exact=False)

    def differences(solution: tuple[int, ...]) -> list[int]:
        return [i for i, v in marked if solution[i] != v]

    closest = min(known.solutions, key=lambda s: len(differences(s)))
    wrong = differences(closest)
    if not wrong:
        return Check("ok", complete=full)
    w = puzzle.width
    exact = known.exhausted
    if not exact:
        # more solutions than were enumerated: one of the others may agree with every marked cell
        left = None if deadline is None else max(0.01, deadline - time.monotonic())
        full_mask = (1 << len(puzzle.palette)) - 1
        fixed = {divmod(i, w): 1 << v for i, v in marked if (1 << v) != full_mask}
        result = get_backend(DEFAULT_BACKEND).solve(puzzle, SolveOptions(max_solutions=1, time_limit=left, fixed=fixed))
        if result.solutions:
            return Check("ok", complete=full)
        if not result.exhausted:
            return Check("timeout", exact=False)
    return Check("mistakes", tuple(divmod(i, w) for i in wrong), exact)


def hint(puzzle: Puzzle, cells: list[int], known: Known, deadline: float | None = None) -> Hint:
    """See the module docstring."""
    verdict = check(puzzle, cells, known, deadline)
    if verdict.status == "mistakes":
        return Hint("mistake", verdict, mistake=verdict.mistakes[0])
    if verdict.status != "ok":
        return Hint(verdict.status, verdict)
    if verdict.complete:
        return Hint("solved", verdict)
    full = (1 << len(puzzle.palette)) - 1
    masks = [full if v == UNKNOWN else 1 << v for v in cells]
    left = None if deadline is None else max(0.01, deadline - time.monotonic())
    stepper = Stepper.from_grid(puzzle, masks, time_limit=left)
    stepper.batch = HINT_BATCH
    before: list[Step] = []
    for _ in range(MAX_HINT_STEPS):
        taken = stepper.step()
        if not taken:
            break
        step = taken[0]
        if step.kind != "line" and not step.kind.startswith("probe") and step.kind != "all-remaining-cells":
            # a guess (or what follows one): the grid has no deduction left
            return Hint("guess", verdict, before=tuple(before))
        decided = tuple((r, c, v) for r, c, v in step.decided if cells[r * puzzle.width + c] == UNKNOWN)
        if decided:
            return Hint("deduction", verdict, step=step, cells=decided, before=tuple(before))
        before.append(step)
    if stepper.note == "gave-up-time" or (deadline is not None and time.monotonic() >= deadline):
        return Hint("timeout", verdict)
    return Hint("guess", verdict, before=tuple(before))


__all__ = ["MAX_KNOWN", "UNKNOWN", "Check", "Hint", "Known", "check", "check_cells", "hint", "solutions_of"]
