"""The optional C line solver (`_fastline.c`): which one the engine uses, and the plans it needs.

The C module is built at install time when a C compiler is there (setup.py marks it optional). It takes
lines of at most 127 cells (one 128-bit word per colour; 63 where the compiler has no 128-bit type); a
puzzle with a longer line, or an install without the module, runs the Python line solver (line.py), which
gives the same answers. `NONOCP_PURE_PYTHON=1` in the environment forces the Python one (for comparing the
two, and for debugging).

Measured: benchmarks/results/native.md, "What each C part gave".
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from nonocp.engines.native.line import Blocks

try:
    if os.environ.get("NONOCP_PURE_PYTHON"):
        raise ImportError("NONOCP_PURE_PYTHON is set")
    from nonocp.engines.native import _fastline
except ImportError:
    _fastline = None

# what the C module takes (its own constants): lines of up to 127 cells where the compiler has a 128-bit
# integer (gcc, clang on 64-bit machines), else 63; up to 64 colours and 128 blocks a line
MAX_LENGTH = 0 if _fastline is None else _fastline.MAX_N
MAX_COLOURS = 0 if _fastline is None else _fastline.MAX_COLOURS
MAX_BLOCKS = 0 if _fastline is None else _fastline.MAX_BLOCKS


def available() -> bool:
    return _fastline is not None


def plans_for(blocks: Sequence[Blocks], lengths: Sequence[int], ncol: int) -> list[Any] | None:
    """The C plan of every line, or None when the C solver cannot take this puzzle (or is not built)."""
    if _fastline is None or ncol > MAX_COLOURS or not lengths or max(lengths) > MAX_LENGTH:
        return None
    if any(len(b) > MAX_BLOCKS for b in blocks):
        return None
    try:
        return [_fastline.make_plan(b) for b in blocks]
    except ValueError:  # a block longer than any line (no placement): the Python solver says so
        return None


def implementation() -> str:
    """Which line solver the engine can use here, for `nonocp backends` and the stats."""
    return f"C (lines up to {MAX_LENGTH} cells), else Python" if _fastline is not None else "Python"


solve_line = None if _fastline is None else _fastline.solve_line
propagate = None if _fastline is None else _fastline.propagate
narrow = None if _fastline is None else _fastline.narrow  # the C core of cdcl_shrink on its own, for its tests
union_if_narrower = None if _fastline is None else _fastline.union_if_narrower
cdcl_propagate = None if _fastline is None else _fastline.cdcl_propagate
cdcl_undo = None if _fastline is None else _fastline.cdcl_undo
cdcl_shrink = None if _fastline is None else _fastline.cdcl_shrink
cdcl_analyze = None if _fastline is None else _fastline.cdcl_analyze
most_active = None if _fastline is None else _fastline.most_active
