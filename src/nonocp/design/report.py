"""analyse: what a designer needs to know about a design before publishing it.

Size and colours; the verdict (unique / multiple; a picture's own clues always have it as a solution,
so `none` only comes from a puzzle given without its picture); the ambiguous cells (those that differ
between solutions, exact: nonocp.analysis.backbone); the difficulty (nonocp.analysis.rate: LINE, PROBE,
BRANCH, or MULTIPLE) and the guesses the solving needs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from nonocp.core.errors import OutOfTime
from nonocp.core.result import Status
from nonocp.design.checks import SEARCH_ENGINE, left, run_solve
from nonocp.design.model import Design


@dataclass(frozen=True)
class DesignReport:
    """The findings of `analyse`.

    `verdict`: "unique", "multiple", "none" or "timeout". `ambiguous`: the cells (row, col), 0-based, whose
    colour differs between solutions; `ambiguous_exact` is False when the time ran out before every cell
    was decided (then `ambiguous` holds those proven so far). `difficulty`: LINE / PROBE / BRANCH for a
    unique design, MULTIPLE otherwise, UNKNOWN when rating ran out of time. `rating` is the full
    nonocp.analysis.rate.Rating (guesses, probes, steps...), or None when it was not computed.
    """

    width: int
    height: int
    colors: int
    verdict: str
    ambiguous: tuple[tuple[int, int], ...]
    ambiguous_exact: bool
    difficulty: str
    rating: Any = None
    seconds: float = 0.0
    source: dict[str, Any] = field(default_factory=dict)

    @property
    def guesses(self) -> int | None:
        """Guesses the engine's depth-first search makes on the way to the (first) solution."""
        return None if self.rating is None else self.rating.guesses

    @property
    def guesses_per_solution(self) -> tuple[int, ...]:
        """For each solution the walk reached (all of them when `rating.exhaustive`), the guesses in force
        when it was reached: 0 for a solution logic alone reaches."""
        return () if self.rating is None else tuple(self.rating.guesses_per_solution)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "width": self.width,
            "height": self.height,
            "colors": self.colors,
            "verdict": self.verdict,
            "ambiguous": [[r, c] for r, c in self.ambiguous],
            "ambiguous_exact": self.ambiguous_exact,
            "difficulty": self.difficulty,
            "guesses": self.guesses,
            "guesses_per_solution": list(self.guesses_per_solution),
            "seconds": round(self.seconds, 3),
        }
        if self.rating is not None:
            out["rating"] = self.rating.as_dict()
        if self.source:
            out["source"] = self.source
        return out


# Budgets of work that keep a report to seconds on any picture whose puzzle solves in about a second (the
# verdict itself is never cut short): the rating's walk takes tens of thousands of steps a second, and the
# exact ambiguous cells need a query per open cell. Past a budget the report says what it could not finish
# (difficulty UNKNOWN with the budget named; ambiguous cells not exact). benchmarks/results/design.md, "Report".
RATING_STEPS = 20_000
BACKBONE_CPU = 1.5  # CPU seconds of queries for the exact ambiguous cells


def analyse(design: Design, *, time_limit: float | None = None, engine: str = SEARCH_ENGINE,
            ambiguous: bool = True, rate: bool = True, solutions: int | None = 2,
            rating_steps: int | None = RATING_STEPS, backbone_cpu: float | None = BACKBONE_CPU) -> DesignReport:
    """The report on `design` (see DesignReport). `time_limit` bounds the whole analysis; `ambiguous`
    and `rate` can be turned off when only the verdict matters (a live editor checking as one draws).
    `solutions` is how many solutions the rating walks for guesses per solution (None: every one).
    `rating_steps` and `backbone_cpu` are the rating's and the ambiguous cells' budgets (None: unbounded)."""
    from nonocp.analysis.backbone import find_backbone
    from nonocp.analysis.rate import rate as rate_puzzle

    start = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    puzzle = design.puzzle()
    base = dict(width=design.width, height=design.height, colors=design.colors, source=design.source)
    try:
        result = run_solve(puzzle, engine, 2, deadline)
    except OutOfTime:
        return DesignReport(**base, verdict="timeout", ambiguous=(), ambiguous_exact=False, difficulty="UNKNOWN",
                            seconds=time.perf_counter() - start)
    verdict = result.status.value
    cells: tuple[tuple[int, int], ...] = ()
    exact = True
    if ambiguous and result.status is Status.MULTIPLE:
        try:
            bb = find_backbone(puzzle, engine, time_limit=left(deadline), cpu_limit=backbone_cpu)
            cells, exact = bb.ambiguous, bb.exact
            if not exact:  # out of budget: what it proved, and where the two solutions found differ
                cells = tuple(sorted(set(cells) | set(_differing(result.solutions))))
        except OutOfTime:
            cells, exact = _differing(result.solutions), False
    elif result.status is Status.MULTIPLE:
        cells, exact = _differing(result.solutions), False
    rating = None
    difficulty = "MULTIPLE" if result.status is Status.MULTIPLE else "NONE" if result.status is Status.NONE else ""
    if rate:
        try:
            rating = rate_puzzle(puzzle, left(deadline), max_solutions=solutions, max_steps=rating_steps)
            if rating.verdict != "UNKNOWN" or not difficulty:  # a walk cut short still leaves MULTIPLE known
                difficulty = rating.verdict
        except OutOfTime:
            difficulty = difficulty or "UNKNOWN"
    if not difficulty:
        difficulty = "UNKNOWN"
    return DesignReport(**base, verdict=verdict, ambiguous=cells, ambiguous_exact=exact, difficulty=difficulty,
                        rating=rating, seconds=time.perf_counter() - start)


def _differing(solutions) -> tuple[tuple[int, int], ...]:
    """Cells in which the solutions found differ (a lower bound on the ambiguous cells)."""
    if len(solutions) < 2:
        return ()
    a, b = solutions[0].cells, solutions[1].cells
    return tuple((r, c) for r in range(len(a)) for c in range(len(a[0])) if a[r][c] != b[r][c])
