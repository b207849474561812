"""solve(): the one entry point to every engine."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from nonocp.core.cancel import Cancel
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import STOP_TIMEOUT, SolveResult, Status
from nonocp.engines import DEFAULT_BACKEND, SolveOptions, get_backend


def solve(
    puzzle: Puzzle,
    backend: str = DEFAULT_BACKEND,
    *,
    max_solutions: int | None = 2,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    fixed: dict[tuple[int, int], int] | None = None,
    on_solution: Callable[[Grid], None] | None = None,
    keep: int | None = None,
    cancel: Cancel | None = None,
    **extra: Any,
) -> SolveResult:
    """Solve `puzzle` with `backend`, looking for up to `max_solutions` solutions (None = all).

    Streaming (SolveOptions): `on_solution(grid)` hears each solution once, as it is found, at most
    `max_solutions` of them; the result holds the first `keep` (None: all). `cancel` stops the search from
    another thread: the result then says `stop == "cancelled"`."""
    puzzle.validate()
    mismatch = puzzle.count_mismatch()
    if mismatch is not None:  # no solution, proven by counting: no engine needed
        return SolveResult(Status.NONE, (), True, backend, stats={"proof": "counting", "reason": mismatch})
    if on_solution is not None and max_solutions is not None:
        on_solution = _at_most(max(1, max_solutions), on_solution)
    options = SolveOptions(
        max_solutions=max_solutions, time_limit=time_limit, seed=seed, workers=workers, progress=progress,
        fixed=fixed, extra=extra, on_solution=on_solution, keep=keep, cancel=cancel,
    )
    result = get_backend(backend).solve(puzzle, options)
    if cancel is not None and cancel.cancelled and result.stop == STOP_TIMEOUT:
        result = dataclasses.replace(result, cancelled=True, timed_out=False)
    return result


def _at_most(n: int, stream: Callable[[Grid], None]) -> Callable[[Grid], None]:
    """`stream`, passed the first `n` grids only: the hybrid's members may find more than were asked for
    between them before the race ends."""
    passed = 0

    def limited(grid: Grid) -> None:
        nonlocal passed
        if passed < n:
            passed += 1
            stream(grid)

    return limited
