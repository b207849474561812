"""The Backend protocol and the options every engine takes."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from nonocp.core.errors import NonocpError
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import SolveResult


@dataclass(frozen=True)
class SolveOptions:
    """max_solutions=None means enumerate all. time_limit in seconds (None = no limit).

    `progress`, when set, is called by engines with a short dict now and then (never printed by core code).
    `fixed` restricts cells before solving: {(row, col): bit mask of allowed palette indices}. Every engine
    honours it (backbone queries and the auto hybrid rely on it); a cell whose mask is 0 makes the puzzle
    unsolvable.
    `extra` carries engine-specific settings (e.g. {"encoding": "blocks"} for sat) without widening this type.
    """

    max_solutions: int | None = 2
    time_limit: float | None = None
    seed: int | None = None
    workers: int | None = None
    progress: Callable[[dict[str, Any]], None] | None = None
    fixed: dict[tuple[int, int], int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def deadline(self, start: float | None = None) -> float | None:
        """Absolute time.monotonic() by which the engine must answer."""
        if self.time_limit is None:
            return None
        return (time.monotonic() if start is None else start) + self.time_limit


class Backend(Protocol):
    name: str

    def available(self) -> bool:
        """True when the engine's library is importable here."""
        ...

    def version(self) -> str:
        """The engine's own version (library version for wrapped solvers)."""
        ...

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        ...


# What `nonocp solve --option KEY=VALUE` may set in SolveOptions.extra, declared by each engine as its
# class attribute OPTIONS: key -> the words it takes (a tuple), or bool (true/false, yes/no, on/off, 1/0).
OptionSpec = dict[str, Any]
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def parse_engine_options(specs: list[str], backend: Any) -> dict[str, Any]:
    """`["encoding=automaton", "phase=background"]` -> {"encoding": "automaton", ...}, checked against the
    engine's OPTIONS; NonocpError (one line, naming the option and what it takes) for anything else."""
    accepted: OptionSpec = getattr(backend, "OPTIONS", {})
    out: dict[str, Any] = {}
    for spec in specs:
        key, sep, value = spec.partition("=")
        key, value = key.strip().replace("-", "_"), value.strip()
        if not sep or not key:
            raise NonocpError(f"--option {spec!r}: write it as KEY=VALUE")
        kind = accepted.get(key)
        if kind is None:
            known = ", ".join(sorted(accepted)) or "none"
            raise NonocpError(f"--option {key}: engine {backend.name} has no such option (its options: {known})")
        if kind is bool:
            if value.lower() not in _TRUE + _FALSE:
                raise NonocpError(f"--option {key}={value}: expected true or false")
            out[key] = value.lower() in _TRUE
        elif value not in kind:
            raise NonocpError(f"--option {key}={value}: choose from {', '.join(kind)}")
        else:
            out[key] = value
    return out
