"""What the native search tells an observer: small, flat event records.

The probing depth-first search (search.py, `native:dfs`) and the propagation and probing under it
(engine.py) report every deduction to `Engine.observer` when one is attached: a callable that takes one
event. With no observer they emit nothing and run their fast (C) paths. The records hold only ints and
tuples of ints, so that a compiled core can emit the same ones:

* cells are (row, col), 0-based; `line` is the engine's line number: rows 0..H-1, then columns H..H+W-1
  (-1 where it is not known);
* masks are `nonocp.core.grid.Domains` bits (bit k = palette colour k);
* `changes` are (row, col, old mask, new mask) for every cell the event narrowed (a Backtrack widens, so it
  carries none: the observer restores the grid it had before the matching Guess, less the guessed colour).

Depth is the number of guesses in force. An observer may raise any exception to stop the search; it
propagates to the caller (the search state is then abandoned).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Change = tuple[int, int, int, int]  # (row, col, old mask, new mask)


@dataclass(frozen=True, slots=True)
class LineDeduction:
    """The exact line solver narrowed one line, using that line's clue and cells alone."""

    line: int
    changes: tuple[Change, ...]


@dataclass(frozen=True, slots=True)
class ProbeContradiction:
    """Assuming `colour` in `cell` and propagating line logic left `line` with no valid placement (after
    `chain` line deductions), so the colour is removed from the cell (one change)."""

    cell: tuple[int, int]
    colour: int
    line: int
    chain: int
    changes: tuple[Change, ...]


@dataclass(frozen=True, slots=True)
class ProbeAgreement:
    """Every colour left in `cell` leads, after propagation, to grids that agree on these changes."""

    cell: tuple[int, int]
    changes: tuple[Change, ...]


@dataclass(frozen=True, slots=True)
class Guess:
    """Propagation and probing are stuck: the search assumes `colour` in `cell`; `depth` counts this guess."""

    cell: tuple[int, int]
    colour: int
    depth: int


@dataclass(frozen=True, slots=True)
class Backtrack:
    """The search leaves the guess `colour` in `cell` (depth `depth`): every solution under it was found
    (`found` of them, 0 when the guess was simply wrong). The grid goes back to how it was before that
    guess, with the guessed colour removed from the cell."""

    cell: tuple[int, int]
    colour: int
    depth: int
    found: int


@dataclass(frozen=True, slots=True)
class Contradiction:
    """Under the guesses in force (`depth`), `line` has no valid placement left."""

    line: int
    depth: int


@dataclass(frozen=True, slots=True)
class Solution:
    """Every cell is decided: solution number `index` (1-based), reached with `depth` guesses in force and
    `guesses` guesses made since the search started."""

    index: int
    depth: int
    guesses: int


@dataclass(frozen=True, slots=True)
class Residue:
    """All remaining cells at once: the `cells` undecided cells have few enough combinations of candidates
    to try every one; `solutions` of them fit every clue, and the changes keep what those share (none of
    them when `solutions` is 0: the grid is a dead end)."""

    cells: int
    solutions: int
    changes: tuple[Change, ...]


Event = LineDeduction | ProbeContradiction | ProbeAgreement | Guess | Backtrack | Contradiction | Solution | Residue
Observer = Callable[[Event], None]

__all__ = ["Backtrack", "Change", "Contradiction", "Event", "Guess", "LineDeduction", "Observer", "ProbeAgreement",
           "ProbeContradiction", "Residue", "Solution"]
