"""How hard a puzzle is, judged by what the native engine needs to solve it (for `nonocp rate`).

Verdicts, from easiest:

* `LINE`: line logic alone (each row and column on its own, repeated) solves it;
* `PROBE`: line logic stalls, and probing (assume a colour in one cell, propagate, drop what leads to a
  contradiction or keep what every colour agrees on) finishes it without guessing;
* `BRANCH`: unique, but probing stalls too: the search has to guess and backtrack;
* `MULTIPLE`: two or more solutions; `NONE`: no solution;
* `UNKNOWN`: the time limit ran out first.

The counts come from the explanation of the solving (nonocp.analysis.explain): steps, line steps, probe steps
(probes that deduced something), probe trials (every assumption the engine tried), guesses and
backtracks on the way to the first solution, and the deepest nesting of guesses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nonocp.analysis.explain import Explanation, explain
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import Status

VERDICTS = ("LINE", "PROBE", "BRANCH", "MULTIPLE", "NONE", "UNKNOWN")


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
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        """One line for people."""
        stall = "" if self.stalled_unknown is None else f" with {self.stalled_unknown} cells undecided"
        if self.verdict == "LINE":
            return f"LINE: line logic alone solves it in {self.steps} steps."
        if self.verdict == "PROBE":
            return (f"PROBE: line logic stalls{stall}; {self.probes} probes ({self.probe_trials} tried) "
                    f"finish it without guessing ({self.steps} steps).")
        if self.verdict == "BRANCH":
            return (f"BRANCH: line logic and probing stall{stall}; {self.guesses} guesses "
                    f"(depth {self.depth}), {self.backtracks} backtracks, {self.probes} probes, "
                    f"{self.steps} steps.")
        if self.verdict == "MULTIPLE":
            how = f" after {self.guesses} guesses" if self.guesses else ""
            return f"MULTIPLE: two or more solutions; the first is reached in {self.steps} steps{how}."
        if self.verdict == "NONE":
            return f"NONE: no solution; the contradiction is reached in {self.steps} steps."
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
    if ex.count("guess") or ex.count("all-remaining-cells"):
        return "BRANCH"
    if ex.count("probe-contradiction") or ex.count("probe-agreement"):
        return "PROBE"
    return "LINE"


def rating_of(ex: Explanation) -> Rating:
    counts = ex.counts
    stalled = next((i for i, s in enumerate(ex.steps) if s.kind != "line"), None)
    stalled_unknown = None
    if stalled is not None and ex.steps[stalled].kind != "contradiction":
        stalled_unknown = ex.steps[stalled - 1].unknown if stalled else ex.puzzle.width * ex.puzzle.height
    return Rating(
        verdict=verdict_of(ex),
        steps=counts["steps"],
        line_steps=counts["line"],
        probes=counts["probes"],
        probe_trials=int(ex.engine_stats.get("probes", 0)),
        guesses=counts["guesses"],
        backtracks=counts["backtracks"],
        depth=counts["max_depth"],
        stalled_unknown=stalled_unknown,
        seconds=ex.seconds,
        status=ex.status,
    )


def rate(puzzle: Puzzle, time_limit: float | None = None) -> Rating:
    """The difficulty verdict of `puzzle` (see the module docstring)."""
    return rating_of(explain(puzzle, time_limit=time_limit, classify=False))
