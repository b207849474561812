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


@dataclass(frozen=True)
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

    @property
    def stop(self) -> str:
        """How the search ended: STOP_EXHAUSTED, STOP_LIMIT or STOP_TIMEOUT."""
        if self.exhausted:
            return STOP_EXHAUSTED
        if self.timed_out or self.status is Status.TIMEOUT:
            return STOP_TIMEOUT
        return STOP_LIMIT

    @property
    def complete(self) -> bool:
        """False when the time limit cut the search short of what was asked (an `--all` enumeration
        stopped at the time limit is `multiple` but not complete)."""
        return self.stop != STOP_TIMEOUT

    @property
    def unique(self) -> bool:
        return self.status is Status.UNIQUE

    @property
    def solution(self) -> Grid | None:
        return self.solutions[0] if self.solutions else None
