"""solve(): the one entry point to every engine."""

from __future__ import annotations

from typing import Any

from nonocp.core.puzzle import Puzzle
from nonocp.core.result import SolveResult, Status
from nonocp.engines import DEFAULT_BACKEND, SolveOptions, get_backend


def solve(
    puzzle: Puzzle,
    backend: str = DEFAULT_BACKEND,
    *,
    max_solutions: int | None = 2,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    progress: Any = None,
    **extra: Any,
) -> SolveResult:
    """Solve `puzzle` with `backend`, looking for up to `max_solutions` solutions (None = all)."""
    puzzle.validate()
    mismatch = puzzle.count_mismatch()
    if mismatch is not None:  # no solution, proven by counting: no engine needed
        return SolveResult(Status.NONE, (), True, backend, stats={"proof": "counting", "reason": mismatch})
    options = SolveOptions(
        max_solutions=max_solutions, time_limit=time_limit, seed=seed, workers=workers, progress=progress, extra=extra
    )
    return get_backend(backend).solve(puzzle, options)
