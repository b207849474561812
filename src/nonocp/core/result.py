"""What every engine answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from nonocp.core.grid import Grid


class Status(StrEnum):
    UNIQUE = "unique"  # search exhausted, exactly one solution
    MULTIPLE = "multiple"  # two or more solutions found
    NONE = "none"  # search exhausted, no solution
    SOLVED = "solved"  # one solution found and uniqueness not asked for (max_solutions=1)
    TIMEOUT = "timeout"  # the time limit ran out before a verdict (solutions may hold what was found)


# Why a search ended (SolveResult.stop). A verdict and a complete answer are two things: `multiple` is
# proven by two grids, but `--all` asked for every solution, and an enumeration cut by the time limit
# holds only some of them. So every result says how it ended, and the CLI exits 3 when the time limit
# (not the search, not the requested number of solutions) ended it.
STOP_EXHAUSTED = "exhausted"  # the search space was exhausted: `solutions` is every solution, the count is exact
STOP_LIMIT = "limit"  # max_solutions were found; others may exist
STOP_TIMEOUT = "timeout"  # the time limit ended the search before either of the above
STOP_CANCELLED = "cancelled"  # a nonocp.Cancel ended it (from another thread, or a stream closed early)


@dataclass(frozen=True)
class Proof:
    """Files that certify an UNSAT answer (the CNF and the solver's DRAT proof)."""

    cnf_path: str
    proof_path: str | None = None
    format: str = "drat"


def proof_files(folder: str, fingerprint: str) -> tuple[str, str]:
    """Where the certificate of the puzzle with this fingerprint goes in `folder`: (CNF, DRAT refutation)."""
    import os

    base = os.path.join(folder, f"puzzle-{fingerprint}")
    return base + ".cnf", base + ".drat"


def status_of(n_solutions: int, exhausted: bool, max_solutions: int | None, timed_out: bool = False) -> Status:
    """The one rule turning (solutions found, search exhausted?) into a verdict, shared by every engine."""
    if n_solutions >= 2:
        return Status.MULTIPLE
    if exhausted:
        return Status.UNIQUE if n_solutions == 1 else Status.NONE
    if timed_out:
        return Status.TIMEOUT
    if n_solutions == 1 and max_solutions == 1:
        return Status.SOLVED
    return Status.TIMEOUT


def ended_by_time(n_solutions: int, exhausted: bool, max_solutions: int | None, timed_out: bool) -> bool:
    """SolveResult.timed_out from what an engine knows when it stops: the clock ran out (`timed_out`)
    before the search was exhausted or had found `max_solutions` (None: every solution was asked for)."""
    if exhausted or not timed_out:
        return False
    return max_solutions is None or n_solutions < max(1, max_solutions)


REPR_SOLUTIONS = 3  # solutions a SolveResult's repr draws


@dataclass(frozen=True, repr=False)
class SolveResult:
    status: Status
    solutions: tuple[Grid, ...]
    exhausted: bool
    backend: str
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    proof: Proof | None = None
    # The time limit ended the search before it was exhausted or had found max_solutions (see STOP_*);
    # engines set it with ended_by_time().
    timed_out: bool = False
    # How many solutions the search found: len(solutions) unless the caller asked to keep fewer of them
    # (SolveOptions.keep: an enumeration streamed to its output holds none). None is len(solutions).
    found: int | None = None
    # A nonocp.Cancel stopped the search before it ended by itself (SolveOptions.cancel).
    cancelled: bool = False

    def __post_init__(self) -> None:
        if self.found is None:
            object.__setattr__(self, "found", len(self.solutions))

    @property
    def stop(self) -> str:
        """How the search ended: STOP_EXHAUSTED, STOP_LIMIT, STOP_TIMEOUT or STOP_CANCELLED."""
        if self.exhausted:
            return STOP_EXHAUSTED
        if self.cancelled:
            return STOP_CANCELLED
        if self.timed_out or self.status is Status.TIMEOUT:
            return STOP_TIMEOUT
        return STOP_LIMIT

    @property
    def complete(self) -> bool:
        """False when the time limit (or a Cancel) cut the search short of what was asked (an `--all`
        enumeration stopped at the time limit is `multiple` but not complete)."""
        return self.stop not in (STOP_TIMEOUT, STOP_CANCELLED)

    @property
    def unique(self) -> bool:
        return self.status is Status.UNIQUE

    @property
    def solution(self) -> Grid | None:
        return self.solutions[0] if self.solutions else None

    def __repr__(self) -> str:
        """`SolveResult(unique: 1 solution, search exhausted, by auto)` and the solutions held as pictures
        (the first REPR_SOLUTIONS), as a person reads a puzzle's answer."""
        n = self.found if self.found is not None else len(self.solutions)
        count = f"{n} solution{'' if n == 1 else 's'}"
        if len(self.solutions) < n:
            count += f" ({len(self.solutions)} held)"
        how = {STOP_EXHAUSTED: "search exhausted", STOP_LIMIT: "stopped at the number asked for",
               STOP_TIMEOUT: "time limit reached", STOP_CANCELLED: "cancelled"}[self.stop]
        lines = [f"SolveResult({self.status}: {count}, {how}, by {self.backend})"]
        for k, grid in enumerate(self.solutions[:REPR_SOLUTIONS]):
            if k:
                lines.append("")
            lines.append(str(grid))
        if len(self.solutions) > REPR_SOLUTIONS:
            lines.append(f"... and {len(self.solutions) - REPR_SOLUTIONS} more")
        return "\n".join(lines)
