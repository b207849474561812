"""Run several engines on one puzzle and say whether they agree. Returns data; never prints.

What counts as a disagreement (each one is a bug in some engine):
- a reported solution that the independent checker (nonocp.core.verify) rejects;
- the same solution reported twice by one engine (it would inflate the count);
- a verdict that contradicts the engine's own solutions (`unique` with two grids, `none` with one...);
- decisive verdicts (unique / multiple / none) that differ;
- an engine that claims to have exhausted the search and yet misses a solution another engine found
  (this covers "unique but a different grid", and "all N solutions" lists that differ);
- an engine that crashed (raised anything but BackendUnavailable).

Not disagreements: a timeout (reported, it proves nothing either way), an engine that is not installed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from nonocp.core.errors import BackendUnavailable
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import SolveResult, Status
from nonocp.core.verify import verify
from nonocp.engines import INDEPENDENT, SolveOptions, get_backend

UNAVAILABLE = "unavailable"
CRASHED = "error"
DECISIVE = (Status.UNIQUE.value, Status.MULTIPLE.value, Status.NONE.value)


@dataclass(frozen=True)
class EngineRun:
    """What one engine answered. `status` is a Status value, or "unavailable" / "error"."""

    engine: str
    status: str
    seconds: float = 0.0
    solutions: tuple[Grid, ...] = ()
    exhausted: bool = False
    rejected: tuple[int, ...] = ()  # indices of solutions the checker rejected
    message: str = ""  # why unavailable / the exception / the first rejection reason

    @property
    def ran(self) -> bool:
        return self.status not in (UNAVAILABLE, CRASHED)

    @property
    def decisive(self) -> bool:
        return self.status in DECISIVE

    @property
    def solutions_ok(self) -> bool:
        return not self.rejected

    @property
    def verified(self) -> frozenset[Grid]:
        return frozenset(g for i, g in enumerate(self.solutions) if i not in self.rejected)


@dataclass(frozen=True)
class Disagreement:
    kind: str  # "invalid-solution", "duplicate-solution", "inconsistent", "verdict", "missed-solution", "error"
    engines: tuple[str, ...]
    detail: str

    def __str__(self) -> str:
        return f"{self.kind} ({', '.join(self.engines)}): {self.detail}"


@dataclass(frozen=True)
class CrossCheck:
    """The runs of every engine on one puzzle, and what they disagree on (empty = they agree)."""

    puzzle: str  # a name for messages (file and title)
    runs: tuple[EngineRun, ...]
    disagreements: tuple[Disagreement, ...] = ()
    max_solutions: int | None = 2

    @property
    def agree(self) -> bool:
        return not self.disagreements

    @property
    def verdict(self) -> str:
        """The common decisive verdict, "timeout" when no engine reached one (unless their solutions prove
        several), "disagree" when they differ."""
        if self.disagreements:
            return "disagree"
        decisive = {r.status for r in self.runs if r.decisive}
        if not decisive and self.proven_multiple:
            return Status.MULTIPLE.value  # timed-out engines found two distinct valid grids between them
        return decisive.pop() if len(decisive) == 1 else "timeout"

    @property
    def deciders(self) -> int:
        """How many engines reached a verdict: two or more that agree make the verdict cross-checked."""
        return sum(1 for r in self.runs if r.decisive)

    @property
    def proven_multiple(self) -> bool:
        """Two distinct grids accepted by the independent checker, from any engines (timed-out ones too):
        that proves several solutions without trusting any engine, even when only one reached a verdict."""
        grids: set[Grid] = set()
        for r in self.runs:
            grids |= r.verified
        return len(grids) >= 2

    @property
    def culprits(self) -> tuple[str, ...]:
        """Every engine named in a disagreement, in run order."""
        named = {e for d in self.disagreements for e in d.engines}
        return tuple(r.engine for r in self.runs if r.engine in named)

    @property
    def solution_count(self) -> int | None:
        """The exact number of solutions when some engine exhausted the search and all agree, else None."""
        if self.disagreements:
            return None
        for r in self.runs:
            if r.decisive and r.exhausted:
                return len(r.verified)
        return None


Resolver = Callable[[str], object]


def run_engine(name: str, puzzle: Puzzle, options: SolveOptions, resolve: Resolver | None = None) -> EngineRun:
    """Run one engine and check each of its solutions with the independent checker."""
    try:
        backend = (resolve or get_backend)(name)
    except BackendUnavailable as e:
        return EngineRun(name, UNAVAILABLE, message=str(e))
    except Exception as e:  # noqa: BLE001 - a half-installed engine (e.g. its class missing) cannot run either
        return EngineRun(name, UNAVAILABLE, message=f"cannot load: {type(e).__name__}: {e}")
    start = time.perf_counter()
    try:
        result: SolveResult = backend.solve(puzzle, options)  # type: ignore[attr-defined]
    except BackendUnavailable as e:
        return EngineRun(name, UNAVAILABLE, message=str(e))
    except Exception as e:  # noqa: BLE001 - a crashing engine is a finding, not a reason to stop checking
        return EngineRun(name, CRASHED, time.perf_counter() - start, message=f"{type(e).__name__}: {e}")
    seconds = result.seconds or (time.perf_counter() - start)
    rejected, first_reason = [], ""
    for i, grid in enumerate(result.solutions):
        check = verify(puzzle, grid)
        if not check.ok:
            rejected.append(i)
            first_reason = first_reason or f"solution {i + 1}: {check.summary()}"
    status = result.status.value if isinstance(result.status, Status) else str(result.status)
    return EngineRun(
        name, status, seconds, tuple(result.solutions), bool(result.exhausted), tuple(rejected), first_reason
    )


def compare(runs: Sequence[EngineRun]) -> tuple[Disagreement, ...]:
    """Every disagreement among `runs` (see the module docstring for the rules)."""
    found: list[Disagreement] = []
    for r in runs:
        if r.status == CRASHED:
            found.append(Disagreement("error", (r.engine,), r.message))
        if r.rejected:
            found.append(Disagreement("invalid-solution", (r.engine,), r.message))
        if len(set(r.solutions)) != len(r.solutions):
            found.append(Disagreement("duplicate-solution", (r.engine,), "the same grid is reported twice"))
        problem = _inconsistency(r)
        if problem:
            found.append(Disagreement("inconsistent", (r.engine,), problem))

    decisive = [r for r in runs if r.decisive]
    verdicts = {r.status for r in decisive}
    if len(verdicts) > 1:
        detail = ", ".join(f"{r.engine}: {r.status}" for r in decisive)
        found.append(Disagreement("verdict", tuple(r.engine for r in decisive), detail))

    # Every verified solution from any engine (timeouts included) must be in the list of an engine that
    # says it saw them all. With unique verdicts this is "identical grids"; with --all it is "same sets".
    every = frozenset().union(*(r.verified for r in runs)) if runs else frozenset()
    for r in runs:
        if not (r.ran and r.exhausted):
            continue
        missed = every - frozenset(r.solutions)
        if missed:
            finders = tuple(o.engine for o in runs if o is not r and o.verified & missed)
            found.append(
                Disagreement(
                    "missed-solution",
                    (r.engine, *finders),
                    f"{r.engine} exhausted the search ({r.status}, {len(set(r.solutions))} solutions) "
                    f"but {', '.join(finders)} found {len(missed)} more",
                )
            )
    return tuple(found)


def _inconsistency(r: EngineRun) -> str:
    n = len(set(r.solutions))
    if r.status == Status.UNIQUE.value and (n != 1 or not r.exhausted):
        return f"says unique with {n} solutions (exhausted={r.exhausted})"
    if r.status == Status.NONE.value and (n != 0 or not r.exhausted):
        return f"says none with {n} solutions (exhausted={r.exhausted})"
    if r.status == Status.MULTIPLE.value and n < 2:
        return f"says multiple with {n} distinct solutions"
    return ""


def crosscheck(
    puzzle: Puzzle,
    engines: Iterable[str] = INDEPENDENT,
    *,
    name: str = "",
    timeout: float | None = None,
    max_solutions: int | None = 2,
    resolve: Resolver | None = None,
    extra: dict | None = None,
) -> CrossCheck:
    """Run each engine on `puzzle` with the same limits and compare. `max_solutions=None` enumerates all.

    `max_solutions` must be at least 2 (or None): with 1 an engine cannot tell unique from multiple.
    """
    if max_solutions is not None and max_solutions < 2:
        raise ValueError("a cross-check needs max_solutions >= 2 (or None for all)")
    options = SolveOptions(max_solutions=max_solutions, time_limit=timeout, extra=dict(extra or {}))
    runs = tuple(run_engine(e, puzzle, options, resolve) for e in engines)
    return CrossCheck(name or puzzle.title or puzzle.fingerprint(), runs, compare(runs), max_solutions)


