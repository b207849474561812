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


@dataclass(frozen=True)
class Proof:
    """Files that certify an UNSAT answer (the CNF and the solver's DRAT proof)."""

    cnf_path: str
    proof_path: str | None = None
    format: str = "drat"


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


@dataclass(frozen=True)
class SolveResult:
    status: Status
    solutions: tuple[Grid, ...]
    exhausted: bool
    backend: str
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    proof: Proof | None = None

    @property
    def unique(self) -> bool:
        return self.status is Status.UNIQUE

    @property
    def solution(self) -> Grid | None:
        return self.solutions[0] if self.solutions else None
