"""Beliefs: the colour each cell most likely has, by loopy belief propagation between the rows and the columns.

Why: on big pictures with several solutions (the survey's Knotty, Faase, Meow) the CDCL search wanders for
minutes among partial pictures no line contradicts, and so do CaDiCaL and Kissat. Belief propagation sees the
whole grid at once: each line tells each of its cells how likely each colour is, weighting every placement of
its clue by what the crossing lines said last; after enough rounds the most likely colours form a picture
close to a solution. The CDCL search that keeps those colours at its decisions (cdcl.py, `prefer`) finds a
first solution of all three in seconds (benchmarks/results/native-core.md, "The hardest three"). Beliefs only
steer decisions: every deduction is still the line solver's, so answers and counts stay exact.

A line's message is exact (forward-backward sums over its clue's automaton); the loop between rows and
columns is not (hence "loopy"), which is why the result is a guide and never a deduction. Runs clues only
(count-and-contiguity clues have no automaton here). numpy: one array operation per cell position covers
every row (or every column) at once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from nonocp.core.errors import OutOfTime
from nonocp.core.puzzle import Clue
from nonocp.encode.automaton import clue_automaton

if TYPE_CHECKING:
    import numpy as np

ROUNDS = 100  # rows-then-columns rounds; fewer left Meow and Knotty unsolved (results/native-core.md)
DAMPING = 0.5  # each round keeps this share of the last message: undamped, loopy messages oscillate
EPSILON = 1e-9  # added to every incoming weight, so that no line is left with no weighted placement
# line_messages keeps five tables of (line length + 1) x lines x automaton states floats (the forward and
# backward sums, the weighted moves), and a round's work grows with that times the colours; past this many
# (about 300 MB of tables in black and white, or rounds of seconds) there are no beliefs, only the search's
# own phases
MAX_TABLE = 16_000_000


def _states(clue: Clue) -> int:
    return clue_automaton(clue).n_states


class _Automata:
    """The clue automata (nonocp.encode.automaton) of a batch of lines of one length, as arrays padded to the
    longest (padding is unreachable): per colour, the moves that stay (a gap on background), go one state on
    (a block's next cell, or the gap after its last cell) or two (a block's last cell straight into the next
    block's first, when their colours differ)."""

    def __init__(self, clues: Sequence[Clue], ncol: int) -> None:
        import numpy as np

        size = max(map(_states, clues))
        lines = len(clues)
        self.stay = np.zeros((lines, size))  # on background, stay (gap states)
        self.one = np.zeros((ncol, lines, size))  # on colour k, move one state on
        self.two = np.zeros((ncol, lines, size))  # on colour k, move two states on
        self.accept = np.zeros((lines, size))
        for i, clue in enumerate(clues):
            automaton = clue_automaton(clue)
            for state, colour, to in automaton.transitions:
                if to == state:
                    self.stay[i, state] = 1
                elif to == state + 1:
                    self.one[colour, i, state] = 1
                else:
                    self.two[colour, i, state] = 1
            for state in automaton.accepting:
                self.accept[i, state] = 1


def line_messages(auto: _Automata, weights: np.ndarray) -> np.ndarray:
    """Per line and cell, the weight of each colour summed over the clue's placements, each placement weighted
    by the product of `weights` (lines x cells x colours) over the line's *other* cells; normalized per cell."""
    import numpy as np

    lines, n, ncol = weights.shape
    size = auto.stay.shape[1]
    # each cell's weighted moves, for every position at once (positions x lines x states): the loops below
    # then take a few array operations per position
    stay = weights[:, :, 0].T[:, :, None] * auto.stay[None]
    one = np.einsum("lnk,kls->nls", weights, auto.one)
    two = np.einsum("lnk,kls->nls", weights, auto.two) if auto.two.any() else None
    alpha = np.zeros((n + 1, lines, size))
    beta = np.zeros((n + 1, lines, size))
    a = np.zeros((lines, size))
    a[:, 0] = 1
    alpha[0] = a
    for i in range(n):  # forward: alpha[i] sums the placements of cells 0..i-1 ending in each state
        nxt = alpha[i + 1]
        np.multiply(stay[i], a, out=nxt)
        nxt[:, 1:] += one[i, :, :-1] * a[:, :-1]
        if two is not None:
            nxt[:, 2:] += two[i, :, :-2] * a[:, :-2]
        nxt /= np.maximum(nxt.sum(1, keepdims=True), 1e-300)  # scale per position: only ratios matter
        a = nxt
    b = auto.accept.copy()
    beta[n] = b
    for i in range(n - 1, -1, -1):  # backward: beta[i] sums the placements of cells i..n-1 from each state
        nxt = beta[i]
        np.multiply(stay[i], b, out=nxt)
        nxt[:, :-1] += one[i, :, :-1] * b[:, 1:]
        if two is not None:
            nxt[:, :-2] += two[i, :, :-2] * b[:, 2:]
        nxt /= np.maximum(nxt.sum(1, keepdims=True), 1e-300)
        b = nxt
    # a colour's weight at cell i: the placements reaching a state before it, times the move on that colour,
    # times the placements from the state the move lands in
    head = alpha[:n]
    land_stay, land_one = head * beta[1:], head[:, :, :-1] * beta[1:, :, 1:]
    land_two = head[:, :, :-2] * beta[1:, :, 2:] if two is not None else None
    out = np.empty((lines, n, ncol))
    for k in range(ncol):
        o = np.einsum("nls,ls->ln", land_one, auto.one[k, :, :-1])
        if land_two is not None:
            o += np.einsum("nls,ls->ln", land_two, auto.two[k, :, :-2])
        if k == 0:
            o += np.einsum("nls,ls->ln", land_stay, auto.stay)
        out[:, :, k] = o
    normalised: np.ndarray = out / np.maximum(out.sum(2, keepdims=True), 1e-300)
    return normalised


def table_size(clues: Sequence[Clue], length: int) -> int:
    """The floats in one forward table of these lines (see MAX_TABLE)."""
    return (length + 1) * len(clues) * max(map(_states, clues))


def _compiled_beliefs(rows: Sequence[Clue], cols: Sequence[Clue], ncol: int, masks: Sequence[int],
                      rounds: int, deadline: float | None) -> list[float] | None:
    """The compiled core's beliefs, flat (cell by cell in row-major order, colour by colour within a cell), or
    None when the core is not built or does not take these colours."""
    from nonocp.engines.native.core import MAX_COLOURS, _core

    if _core is None or not 2 <= ncol <= MAX_COLOURS:
        return None
    as_pairs = [[(b.length, b.color) for b in clue] for clue in rows], \
        [[(b.length, b.color) for b in clue] for clue in cols]
    flat: list[float] = _core.beliefs(*as_pairs, ncol, list(masks), rounds, DAMPING, EPSILON, deadline, OutOfTime)
    return flat


def beliefs(rows: Sequence[Clue], cols: Sequence[Clue], ncol: int, masks: Sequence[int],
            rounds: int = ROUNDS, deadline: float | None = None, compiled: bool | None = None) -> np.ndarray:
    """Per cell (height x width x colours), how likely each colour is; `masks` are the cells' colours still
    possible (row-major, bit k = colour k), and an impossible colour's belief is 0. Raises OutOfTime once
    `deadline` (a time.monotonic() value) has passed. The compiled core computes the same sums (csrc/belief.c,
    tens of times faster) when it is built and takes the colours; `compiled` False insists on numpy."""
    # numpy here, not at the top: its import is a large part of a `nonocp solve` process, and a search whose
    # beliefs come from the compiled core (likely_colours) needs none
    import numpy as np

    height, width = len(rows), len(cols)
    if compiled is not False:
        flat = _compiled_beliefs(rows, cols, ncol, masks, rounds, deadline)
        if flat is not None:
            return np.array(flat).reshape(height, width, ncol)
        if compiled:
            raise ValueError("the compiled core is not built or does not take these colours")
    prior = np.array([[(m >> k) & 1 for k in range(ncol)] for m in masks], dtype=float).reshape(height, width, ncol)
    row_auto, col_auto = _Automata(rows, ncol), _Automata(cols, ncol)
    from_rows = np.full((height, width, ncol), 1.0 / ncol)
    from_cols = np.full((height, width, ncol), 1.0 / ncol)
    for _ in range(rounds):
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime
        fresh = line_messages(row_auto, from_cols * prior + EPSILON)
        from_rows = DAMPING * from_rows + (1 - DAMPING) * fresh
        fresh = line_messages(col_auto, (from_rows * prior + EPSILON).transpose(1, 0, 2)).transpose(1, 0, 2)
        from_cols = DAMPING * from_cols + (1 - DAMPING) * fresh
    belief = from_rows * from_cols * prior
    normalised: np.ndarray = belief / np.maximum(belief.sum(2, keepdims=True), 1e-300)
    return normalised


def _first_best(weights: list[float]) -> int:
    """The index of the largest weight, the first of equals (as numpy's argmax)."""
    return max(range(len(weights)), key=weights.__getitem__)


def likely_colours(rows: Sequence[Clue], cols: Sequence[Clue], ncol: int, masks: Sequence[int],
                   rounds: int = ROUNDS, deadline: float | None = None) -> list[int]:
    """Per cell (row-major), its most likely colour (the first of equals), or -1 where `masks` leaves it one
    colour only (every cell -1 when the tables times the colours would pass MAX_TABLE)."""
    if not rows or not cols or max(table_size(rows, len(cols)), table_size(cols, len(rows))) * ncol > MAX_TABLE:
        return [-1] * len(masks)
    flat = _compiled_beliefs(rows, cols, ncol, masks, rounds, deadline)
    if flat is None:
        best = [int(k) for k in beliefs(rows, cols, ncol, masks, rounds, deadline, compiled=False).argmax(2).ravel()]
    else:
        best = [_first_best(flat[i:i + ncol]) for i in range(0, len(flat), ncol)]
    return [k if m & (m - 1) else -1 for k, m in zip(best, masks, strict=True)]
