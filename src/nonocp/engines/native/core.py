"""The native engine's core: one puzzle's search state and the algorithms on it, compiled or in Python.

Two implementations of one API, chosen once per puzzle by `new_core`:

* `_core.Core`, compiled from csrc/ by setup.py when a C compiler is there: grids of up to MAX_LENGTH
  cells a side and up to MAX_COLOURS colours (its words are fixed-size bitsets);
* `reference.PyCore` (reference.py, reference_cdcl.py): any puzzle, count-and-contiguity clues included
  (with count_line.py's line solver). It is the specification: the compiled
  core takes the same steps in the same order, so both give the same answers and the same counts
  (tests/test_core.py). It runs where the compiled core cannot, and everywhere with `NONOCP_PURE_PYTHON=1`.

The API. Lines are rows 0..H-1, then columns H..H+W-1; a *state* is a flat list of ints, `st[line * ncol +
colour]`, the bitset of the line's cells that may still be that colour (each cell is in two lines, kept equal).

* `H`, `W`, `ncol`, `nlines`, `implementation` ("c" or "python"); `deadline` (a time.monotonic() value or
  None, settable): past it every long call raises `nonocp.core.errors.OutOfTime`; `failed_line`: the line of the last
  contradiction propagation met;
* the state: `reset()` (every colour everywhere), `set_state(st)`, `state()`, `masks()` (row-major cell masks,
  bit k = colour k, as `nonocp.core.grid.Domains.masks`), `assign(r, c, colour)`, `forbid(r, c, colour)`;
* `solve_line(line, masks)`: the exact line solver on one line's per-colour masks (None: no placement);
* `propagate(lines=None, trace=None)`: line propagation from the dirty lines (None: all) to a fixpoint;
  the candidates removed, or -1 on a contradiction (the state is then spoilt);
* `probe(trace=None, branch=False)`: probing to a fixpoint (reference.PyCore.probe); `(consistent, best)`;
  `scores()` the branch score of every cell it scored;
* the CDCL search over the current state (reference_cdcl.py; driven by cdcl.py): `cdcl_begin(minimize=True,
  guide=True, audit=None)`, `cdcl_search(restart_at, pause=None)` -> EXHAUSTED, SOLUTION, RESTART or PAUSE,
  `cdcl_solution()`, `cdcl_block()`, `cdcl_restart()`, `cdcl_prefer(colours)` (the colour each cell's
  decisions keep from then on, every other REPHASE_EVERY restarts, -1 for none: the driver's beliefs);
* `counters()`: line solves, probes, probe passes, and the CDCL's conflicts, restarts, decisions and deepest
  level (`cache_hits` is the reference's line cache; the compiled core has none).

`trace` callbacks hear the deductions of propagation and probing (reference.py: TRACE_*; engine.py turns
them into the events of trace.py); `audit` callbacks hear every explanation and learned clause (tests).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from nonocp.core.errors import OutOfTime
from nonocp.core.puzzle import COUNTS, Puzzle
from nonocp.engines.native.line import Blocks, blocks_of
from nonocp.engines.native.reference import PyCore, Trace

_core: ModuleType | None
try:
    if os.environ.get("NONOCP_PURE_PYTHON"):
        raise ImportError("NONOCP_PURE_PYTHON is set")
    from nonocp.engines.native import _core
except ImportError:
    _core = None

# what the compiled core takes: grids up to 127 cells a side where the compiler has a 128-bit integer (gcc,
# clang on 64-bit machines), else 63; up to 64 colours
MAX_LENGTH = 0 if _core is None else _core.MAX_N
MAX_COLOURS = 0 if _core is None else _core.MAX_COLOURS



class Core(Protocol):
    """The API both cores implement, member for member (the module docstring says what each does). The type
    checker holds both to it: `_core.pyi` declares the compiled core, and _both_cores_are_cores below must
    type-check."""

    H: int
    W: int
    ncol: int
    nlines: int
    implementation: str
    deadline: float | None
    failed_line: int

    def reset(self) -> None: ...
    def set_state(self, st: Sequence[int]) -> None: ...
    def state(self) -> list[int]: ...
    def masks(self) -> list[int]: ...
    def assign(self, r: int, c: int, colour: int) -> None: ...
    def forbid(self, r: int, c: int, colour: int) -> None: ...
    def solve_line(self, ln: int, masks: Sequence[int]) -> tuple[int, ...] | None: ...
    def propagate(self, lines: Iterable[int] | None = None, trace: Trace | None = None) -> int: ...
    def probe(self, trace: Trace | None = None, branch: bool = False) -> tuple[bool, Any]: ...
    def scores(self) -> dict[tuple[int, int], int]: ...
    def counters(self) -> dict[str, int]: ...
    def cdcl_begin(self, minimize: bool = True, guide: bool = True,
                   audit: Callable[..., None] | None = None) -> None: ...
    def cdcl_search(self, restart_at: int, pause: float | None = None) -> int: ...
    def cdcl_solution(self) -> list[int]: ...
    def cdcl_block(self) -> bool: ...
    def cdcl_restart(self) -> None: ...
    def cdcl_prefer(self, colours: list[int]) -> None: ...


if TYPE_CHECKING:
    from nonocp.engines.native._core import Core as CompiledCore

    def _both_cores_are_cores(compiled: CompiledCore, reference: PyCore) -> tuple[Core, Core]:
        return compiled, reference  # the type checker fails here when either core leaves the Protocol


def available() -> bool:
    """Is the compiled core built (and not switched off by NONOCP_PURE_PYTHON)?"""
    return _core is not None


def fits(height: int, width: int, ncol: int) -> bool:
    """Does the compiled core take a puzzle of this size?"""
    return _core is not None and max(height, width) <= MAX_LENGTH and ncol <= MAX_COLOURS


def new_core(blocks: Sequence[Blocks], lengths: Sequence[int], height: int, width: int, ncol: int,
             compiled: bool | None = None) -> Core:
    """A core for these lines: the compiled one when it is built and takes them, else the reference.
    `compiled` True insists on the compiled one (ValueError when it cannot), False asks for the reference."""
    if compiled is not False and _core is not None and fits(height, width, ncol):
        core: Core = _core.Core(list(blocks), list(lengths), height, width, ncol, OutOfTime)
        return core
    if compiled:
        raise ValueError("the compiled core is not built or does not take this puzzle")
    return PyCore(blocks, lengths, height, width, ncol)


def core_for(puzzle: Puzzle, compiled: bool | None = None) -> Core:
    """`new_core` for a puzzle's clues. Count-and-contiguity clues always get the reference core: the
    compiled one solves run clues only."""
    if puzzle.clue_kind == COUNTS:
        if compiled:
            raise ValueError("the compiled core takes run clues only, not count-and-contiguity clues")
        lines = list(puzzle.lines())
        return PyCore([clue for clue, _ in lines], [n for _, n in lines], puzzle.height, puzzle.width,
                      len(puzzle.palette), counts=True)
    blocks, lengths = [], []
    for clue, n in puzzle.lines():
        blocks.append(blocks_of(clue))
        lengths.append(n)
    return new_core(blocks, lengths, puzzle.height, puzzle.width, len(puzzle.palette), compiled)


def implementation() -> str:
    """Which core the engine can use here, for `nonocp backends` and the stats."""
    if _core is None:
        return "Python"
    return f"C (grids up to {MAX_LENGTH} cells a side, {MAX_COLOURS} colours), else Python"


__all__ = ["MAX_COLOURS", "MAX_LENGTH", "Core", "available", "core_for", "fits", "implementation", "new_core"]
