"""The native engine's solving as steps a person can follow (for `nonocp explain` and `nonocp rate`).

`explain(puzzle)` runs the native engine's probing depth-first search (`native:dfs`, through
`nonocp.engines.native.trace_solve`) with an observer that turns every event into steps
(nonocp.analysis.steps): each exact line deduction told as the named techniques of
nonocp.analysis.techniques, then probes, guesses, backtracks, contradictions and solutions. It follows that
search, not the default CDCL one, because every step of it is a probe or a guess a person can check, while
a learned clause is not. Replaying the steps' `changes` on an empty grid reaches the first solution (or
the contradiction that proves there is none); with `all_solutions` the walk goes on, through guesses and
backtracks, until every solution was reached (or a limit).

JSON (`explanation_json`, what `nonocp explain --format json` prints), schema `nonocp-explain/1`:

    {"format": "nonocp-explain/1",
     "puzzle": {"title", "width", "height", "colors": {symbol: "#rrggbb"}},  # colours in palette order
     "outcome": "solved" | "no-solution" | "truncated" | "timeout",
     "status": "unique" | "multiple" | "none" | null,   # null when truncated or timed out
     "solution": [row strings in the goal alphabet] | null,   # the first solution reached
     "solutions": [{"n", "step", "guesses", "depth", "rows"}],  # every solution reached, in order
     "exhaustive": true | false,                       # solutions lists every solution (--all)
     "counts": {"steps", "line", "probes", "guesses", "backtracks", "all_remaining_cells", "max_depth",
                "passes", "solutions", "techniques": {technique: steps}},
     "steps": [{"n": 1-based step number, "kind", "technique", "depth": guesses in force,
                "group": the engine event it belongs to, "pass": the propagation sweep,
                "line": {"kind": "row"|"col", "index": 0-based} | null,
                "cell": [row, col] | null, "color": symbol | null,
                "changes": [[row, col, candidates], ...],  # candidates: symbols still possible, palette order
                "old": [candidates before, ...],           # same order as changes
                "decided": [[row, col, symbol], ...],      # cells this step left with one colour
                "removed": candidates removed (count), "unknown": undecided cells after the step,
                "text": one sentence for people (when the caller gives a describer),
                and, for some kinds: "contradiction_line" and "chain" (probe-contradiction),
                "returns_to" and "found" (backtrack), "solutions" and "residue" (all-remaining-cells),
                "solution" and "guesses" (solution)}]}

Rows and columns are 0-based in data and 1-based in sentences (r3c4 is row 3, column 4).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nonocp.analysis.steps import Step, StepMaker, replay
from nonocp.core.errors import OutOfTime
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import Status
from nonocp.engines import native

SCHEMA = "nonocp-explain/1"

# A stalled grid whose undecided cells have at most this many combinations of candidates is finished by
# one all-remaining-cells step instead of guesses (enumerating so few is instant and reads better).
SMALL_RESIDUE = 64


@dataclass(frozen=True)
class FoundSolution:
    n: int  # 1-based, in the order reached
    step: int  # the solution step's number
    guesses: int  # guesses made since the start when it was reached
    depth: int  # guesses in force on its path: how many guessed cells it rests on
    grid: Grid


@dataclass
class Explanation:
    puzzle: Puzzle
    steps: list[Step]
    outcome: str  # solved | no-solution | truncated | timeout
    status: Status | None  # UNIQUE / MULTIPLE / NONE; None when truncated or timed out
    solution: Grid | None  # the first solution reached
    masks: list[int]  # the replayed grid at the end (Domains masks)
    seconds: float = 0.0
    engine_stats: dict[str, Any] = field(default_factory=dict)
    solutions: list[FoundSolution] = field(default_factory=list)
    exhaustive: bool = False  # `solutions` holds every solution of the puzzle
    all_solutions: bool = False  # the walk was asked to go past the first solution

    def count(self, kind: str) -> int:
        return sum(1 for s in self.steps if s.kind == kind)

    @property
    def counts(self) -> dict[str, Any]:
        techniques: dict[str, int] = {}
        for s in self.steps:
            techniques[s.technique] = techniques.get(s.technique, 0) + 1
        return {
            "steps": len(self.steps),
            "line": self.count("line"),
            "probes": self.count("probe-contradiction") + self.count("probe-agreement"),
            "guesses": self.count("guess"),
            "backtracks": self.count("backtrack"),
            "all_remaining_cells": self.count("all-remaining-cells"),
            "max_depth": max((s.depth for s in self.steps), default=0),
            "passes": max((s.pass_ for s in self.steps), default=0),
            "solutions": len(self.solutions),
            "techniques": techniques,
        }


class _Enough(Exception):
    """The step limit was reached."""


def _grid(puzzle: Puzzle, masks: Sequence[int]) -> Grid:
    W = puzzle.width
    return Grid.from_rows([[m.bit_length() - 1 for m in masks[r * W:(r + 1) * W]] for r in range(puzzle.height)])


def explain(
    puzzle: Puzzle,
    *,
    max_steps: int | None = None,
    time_limit: float | None = None,
    classify: bool = True,
    check_unique: bool = True,
    all_solutions: bool = False,
    max_solutions: int | None = None,
    residue: int = SMALL_RESIDUE,
) -> Explanation:
    """The native engine's solving of `puzzle` as steps (see the module docstring).

    `max_steps` stops after that many steps (outcome `truncated`); `time_limit` (seconds, the step-making
    included) gives outcome `timeout`; `classify=False` tells each line deduction as one `enumeration`
    step (faster, for counting); `check_unique=False` skips the search for a second solution (status is
    then None after a solution). `all_solutions` walks on to every solution (at most `max_solutions`, None:
    all), each reported with the guesses that led to it.
    """
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    maker = StepMaker(puzzle, classify=classify)
    seen = [0]

    def observe(ev: native.Event) -> None:
        maker.event(ev)
        if max_steps is not None and len(maker.steps) >= max_steps:
            if len(maker.steps) > max_steps:
                del maker.steps[max_steps:]
            raise _Enough
        seen[0] += 1
        if deadline is not None and not seen[0] & 31 and time.monotonic() > deadline:
            raise OutOfTime  # turning events into steps must honour the limit too

    if all_solutions:
        limit, traced = max_solutions, max_solutions
    else:
        limit, traced = (2 if check_unique else 1), 1
    outcome = "solved"
    result: native.TraceResult | None = None
    if max_steps == 0:
        outcome = "truncated"
    else:
        try:
            result = native.trace_solve(puzzle, observe, max_solutions=limit, traced=traced, residue=residue,
                                        deadline=deadline)
        except _Enough:
            outcome = "truncated"
        except OutOfTime:
            outcome = "timeout"
    found = [FoundSolution(s.solution or 0, s.n, s.guesses or 0, s.depth, _grid(puzzle, masks))
             for s, masks in zip((s for s in maker.steps if s.kind == "solution"), maker.solutions, strict=False)]
    status: Status | None = None
    exhaustive = False
    if result is not None:
        n = len(result.solutions)
        if n == 0:
            outcome, status = "no-solution", Status.NONE
        elif n >= 2:
            status = Status.MULTIPLE
        elif result.exhausted and (check_unique or all_solutions):
            status = Status.UNIQUE
        # the solutions listed are all there are (with only the first traced, that is when there is at most one)
        exhaustive = result.exhausted and (all_solutions or (n <= 1 and check_unique))
    elif found and outcome != "truncated" and all_solutions and len(found) >= 2:
        status = Status.MULTIPLE  # timed out after two solutions: several, not how many
    stats = result.stats if result is not None else {}
    masks = replay(puzzle, maker.steps) if outcome == "truncated" else maker.masks
    return Explanation(puzzle, maker.steps, outcome, status, found[0].grid if found else None, masks,
                       time.monotonic() - start, stats, found, exhaustive, all_solutions)


# ----------------------------------------------------------------------------- JSON


def candidates(puzzle: Puzzle, mask: int) -> str:
    """The symbols of the colours in `mask`, in palette order."""
    return "".join(c.symbol for k, c in enumerate(puzzle.palette.colors) if (mask >> k) & 1)


def _line_json(line: tuple[str, int] | None) -> dict[str, Any] | None:
    return None if line is None else {"kind": line[0], "index": line[1]}


def step_json(step: Step, puzzle: Puzzle, describe: Callable[[Step], str] | None = None) -> dict[str, Any]:
    symbols = [c.symbol for c in puzzle.palette.colors]
    out: dict[str, Any] = {
        "n": step.n,
        "kind": step.kind,
        "technique": step.technique,
        "depth": step.depth,
        "group": step.group,
        "pass": step.pass_,
        "line": _line_json(step.line),
        "cell": None if step.cell is None else list(step.cell),
        "color": None if step.color is None else symbols[step.color],
        "changes": [[r, c, candidates(puzzle, m)] for r, c, m in step.changes],
        "old": [candidates(puzzle, m) for m in step.old],
        "decided": [[r, c, symbols[k]] for r, c, k in step.decided],
        "removed": step.removed,
        "unknown": step.unknown,
    }
    if step.by != "engine":
        out["by"] = step.by
    if step.cross is not None:
        out["cross"] = _line_json(step.cross)
    if step.kind == "probe-contradiction":
        out["chain"] = step.chain
        out["contradiction_line"] = _line_json(step.contradiction_line)
    if step.kind == "backtrack":
        out["returns_to"] = step.returns_to
        out["found"] = step.found
    if step.kind == "all-remaining-cells":
        out["solutions"] = step.solutions
        out["residue"] = step.residue
    if step.kind == "solution":
        out["solution"] = step.solution
        out["guesses"] = step.guesses
    if describe is not None:
        out["text"] = describe(step)
    return out


def explanation_json(ex: Explanation, describe: Callable[[Step], str] | None = None) -> dict[str, Any]:
    """The explanation as JSON data (schema in the module docstring); `describe` gives each step's sentence
    (nonocp.render.steps_text.step_text does; without it there is no "text")."""
    p = ex.puzzle
    return {
        "format": SCHEMA,
        "puzzle": {"title": p.title, "width": p.width, "height": p.height,
                   "colors": {c.symbol: c.rgb for c in p.palette.colors}},
        "outcome": ex.outcome,
        "status": None if ex.status is None else str(ex.status),
        "solution": None if ex.solution is None else ex.solution.to_strings(p.palette),
        "solutions": [{"n": s.n, "step": s.step, "guesses": s.guesses, "depth": s.depth,
                       "rows": s.grid.to_strings(p.palette)} for s in ex.solutions],
        "exhaustive": ex.exhaustive,
        "seconds": round(ex.seconds, 4),
        "counts": ex.counts,
        "steps": [step_json(s, p, describe) for s in ex.steps],
    }


__all__ = ["SCHEMA", "SMALL_RESIDUE", "Explanation", "FoundSolution", "candidates", "explain", "explanation_json",
           "replay", "step_json"]
