"""How hard a puzzle is, judged by what the native engine needs to solve it (for `nonocp rate`).

Verdicts, from easiest:

* `LINE`: line logic alone (each row and column on its own, repeated) solves it;
* `PROBE`: line logic stalls, and probing (assume a colour in one cell, propagate, drop what leads to a
  contradiction or keep what every colour agrees on) finishes it without guessing;
* `BRANCH`: unique, but probing stalls too: the search has to guess and backtrack;
* `MULTIPLE`: two or more solutions; `NONE`: no solution;
* `UNKNOWN`: the time limit ran out first.

The verdict comes from the walk over the solutions (nonocp.analysis.explain with `all_solutions`, up to
`max_solutions`, default 2: enough to tell unique from multiple): no solution, several, or one reached with
no guess (LINE or PROBE by what it needed) or with guesses (BRANCH). Beside it: the guesses each solution
rests on (`guesses_per_solution`: the guesses in force when it was reached), and, on the way to the first
solution, the steps, line steps, probe steps (probes that deduced something), probe trials (every
assumption the engine tried), guesses and backtracks, and the deepest nesting of guesses.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from nonocp.analysis.explain import Explanation, explain
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import Status

VERDICTS = ("LINE", "PROBE", "BRANCH", "MULTIPLE", "NONE", "UNKNOWN")


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}es" if noun.endswith("s") else f"{n} {noun}s"


@dataclass(frozen=True)
class Rating:
    verdict: str
    steps: int
    line_steps: int
    probes: int  # probe steps that deduced something
    probe_trials: int  # assumptions the engine tried while probing
    guesses: int
    backtracks: int
    depth: int  # deepest nesting of guesses
    stalled_unknown: int | None  # undecided cells when line logic first stalled (None: it never did)
    seconds: float
    status: Status | None
    guesses_per_solution: tuple[int, ...] = ()  # per solution reached, the guesses in force
    exhaustive: bool = False  # guesses_per_solution covers every solution
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        """One line for people."""
        return self.describe()

    def describe(self, guesses_per_solution: bool = True) -> str:
        """The summary line; without the guesses per solution for a caller that prints them on a line of
        their own."""
        stall = "" if self.stalled_unknown is None else f" with {self.stalled_unknown} cells undecided"
        if self.verdict == "LINE":
            return f"LINE: line logic alone solves it in {self.steps} steps."
        if self.verdict == "PROBE":
            return (f"PROBE: line logic stalls{stall}; {self.probes} probes ({self.probe_trials} tried) "
                    f"finish it without guessing ({self.steps} steps).")
        if self.verdict == "BRANCH":
            return (f"BRANCH: line logic and probing stall{stall}; {_plural(self.guesses, 'guess')} "
                    f"(depth {self.depth}), {self.backtracks} backtracks, {self.probes} probes, "
                    f"{self.steps} steps.")
        if self.verdict == "MULTIPLE":
            how = f" after {_plural(self.guesses, 'guess')}" if self.guesses else ""
            n = len(self.guesses_per_solution)
            count = f"{n} solutions" if self.exhaustive else f"{n} or more solutions"
            per = ", ".join(str(g) for g in self.guesses_per_solution)
            listed = f"; guesses per solution: {per}" if guesses_per_solution else ""
            return f"MULTIPLE: {count}; the first is reached in {self.steps} steps{how}{listed}."
        if self.verdict == "NONE":
            return f"NONE: no solution; the contradiction is reached in {self.steps} steps."
        if self.extra.get("step_budget"):
            return f"UNKNOWN: the rating stopped at its budget of {self.extra['step_budget']} steps."
        return f"UNKNOWN: the time limit ran out after {self.steps} steps."

    def as_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "status": None if self.status is None else str(self.status),
            "steps": self.steps,
            "line_steps": self.line_steps,
            "probes": self.probes,
            "probe_trials": self.probe_trials,
            "guesses": self.guesses,
            "backtracks": self.backtracks,
            "depth": self.depth,
            "stalled_unknown": self.stalled_unknown,
            "guesses_per_solution": list(self.guesses_per_solution),
            "exhaustive": self.exhaustive,
            "seconds": round(self.seconds, 4),
            "summary": self.summary,
        }


def verdict_of(ex: Explanation) -> str:
    if ex.outcome == "timeout" or (ex.status is None and ex.outcome != "no-solution"):
        return "UNKNOWN"
    if ex.status is Status.NONE:
        return "NONE"
    if ex.status is Status.MULTIPLE:
        return "MULTIPLE"
    first = _first_solution(ex)
    on_the_way = ex.steps[:first + 1]
    if any(s.kind in ("guess", "all-remaining-cells") for s in on_the_way):
        return "BRANCH"
    if any(s.kind in ("probe-contradiction", "probe-agreement") for s in on_the_way):
        return "PROBE"
    return "LINE"


def _first_solution(ex: Explanation) -> int:
    """The index of the first solution step (the last step when there is none)."""
    return next((i for i, s in enumerate(ex.steps) if s.kind == "solution"), len(ex.steps) - 1)


def rating_of(ex: Explanation) -> Rating:
    steps = ex.steps[:_first_solution(ex) + 1]
    stalled = next((i for i, s in enumerate(steps) if s.kind != "line"), None)
    stalled_unknown = None
    if stalled is not None and steps[stalled].kind not in ("contradiction", "solution"):
        stalled_unknown = steps[stalled - 1].unknown if stalled else ex.puzzle.width * ex.puzzle.height

    def count(*kinds: str) -> int:
        return sum(1 for s in steps if s.kind in kinds)

    return Rating(
        verdict=verdict_of(ex),
        steps=len(steps),
        line_steps=count("line"),
        probes=count("probe-contradiction", "probe-agreement"),
        probe_trials=int(ex.engine_stats.get("probes", 0)),
        guesses=count("guess"),
        backtracks=count("backtrack"),
        depth=max((s.depth for s in steps), default=0),
        stalled_unknown=stalled_unknown,
        seconds=ex.seconds,
        status=ex.status,
        guesses_per_solution=tuple(s.depth for s in ex.solutions),
        exhaustive=ex.exhaustive,
    )


def rate(puzzle: Puzzle, time_limit: float | None = None, max_solutions: int | None = 2,
         max_steps: int | None = None) -> Rating:
    """The difficulty verdict of `puzzle` (see the module docstring); `max_solutions` bounds the walk over
    the solutions (None: all of them); `max_steps` the steps it may take (a budget of work: past it the
    verdict is UNKNOWN and the summary says so)."""
    ex = explain(puzzle, time_limit=time_limit, classify=False, all_solutions=True, max_solutions=max_solutions,
                 max_steps=max_steps)
    rating = rating_of(ex)
    if ex.outcome == "truncated" and max_steps is not None:
        rating = replace(rating, extra={**rating.extra, "step_budget": max_steps})
    return rating
