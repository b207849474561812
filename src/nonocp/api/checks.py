"""What the Python API accepts, checked before any work: a wrong type is a TypeError and a wrong value a
ValueError, each naming what the call accepts, never a guess or an AttributeError from deep inside.

The names and defaults are the command line's: `timeout` in seconds with 0 (or None) for no limit,
`max_solutions` (default 2, None for every solution), `backend`, `seed`, `workers`. `time_limit` (the
web API's and the older Python name) is the same as `timeout`.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable, Mapping
from typing import Any

from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle

# Engine settings a program may pass besides an engine's declared options (SolveOptions.extra): a
# certificate's folder (`--proof DIR`), the memory budget in bytes, CP-SAT's raw parameters, and whether
# the sat and cpsat engines search in a child process (benchmarks that measure the in-process stop).
PROGRAM_SETTINGS = ("proof_dir", "memory", "params", "hard_stop")


def describe(value: Any) -> str:
    """`str 'heart.non'`, `None`, `int 3`: what a message says was given."""
    if value is None:
        return "None"
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(value).__name__} {text}"


def puzzle_arg(value: Any, function: str) -> Puzzle:
    """`value` if it is a Puzzle; TypeError saying what to pass instead."""
    if isinstance(value, Puzzle):
        return value
    hint = ""
    if isinstance(value, (str, bytes)) or hasattr(value, "__fspath__"):
        hint = "; read a file first: nonocp.load(path)[0] (or nonocp.loads(text) for a puzzle's text)"
    elif isinstance(value, (list, tuple)) and value and all(isinstance(p, Puzzle) for p in value):
        hint = "; nonocp.load returns a list: pass one of its puzzles"
    raise TypeError(f"{function}() takes a nonocp.Puzzle, not {describe(value)}{hint}")


def grid_arg(value: Any, function: str, puzzle: Puzzle | None = None) -> Grid:
    """A Grid from a Grid, rows of palette indices, or rows of the puzzle's symbols (`["#.#", ...]` in black and
    white, `.non` goal symbols otherwise); TypeError/ValueError saying what is accepted."""
    if isinstance(value, Grid):
        return value
    accepted = "a Grid, rows of colour indices or rows of symbols"
    if value is None or isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise TypeError(f"{function}() takes {accepted}, not {describe(value)}")
    if all(isinstance(row, str) for row in value):
        if puzzle is None:
            raise TypeError(f"{function}(): rows of symbols need the puzzle's palette; pass a Grid or colour indices")
        return grid_from_symbols(value, puzzle, function)
    rows = []
    for row in value:
        if isinstance(row, (str, bytes)) or not isinstance(row, (list, tuple)) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in row):
            raise TypeError(f"{function}() takes {accepted}; row {describe(row)} is neither")
        rows.append(tuple(row))
    return Grid(tuple(rows))


# How a cell is written in rows of symbols: the palette's symbols, and in black and white also the picture
# characters the `picture` format reads.
PICTURE = {"#": 1, "X": 1, "x": 1, ".": 0}


def grid_from_symbols(rows: Iterable[str], puzzle: Puzzle, function: str, unknown: str = "") -> Grid:
    """Rows of symbols as a Grid; a character in `unknown` becomes -1 (for partial grids)."""
    index = symbol_index(puzzle)
    out = []
    for r, row in enumerate(rows):
        cells = []
        for c, ch in enumerate(row):
            if ch in unknown:
                cells.append(-1)
            elif ch in index:
                cells.append(index[ch])
            else:
                known = "".join(index) + unknown
                raise ValueError(f"{function}(): row {r + 1} column {c + 1}: {ch!r} is not a colour of this puzzle "
                                 f"(its symbols: {known})")
        out.append(tuple(cells))
    return Grid(tuple(out))


def symbol_index(puzzle: Puzzle) -> dict[str, int]:
    index = {c.symbol: i for i, c in enumerate(puzzle.palette.colors)}
    if puzzle.palette.is_black_and_white and not puzzle.has_counts:
        for ch, k in PICTURE.items():
            index.setdefault(ch, k)
    return index


def seconds(timeout: Any, time_limit: Any, function: str) -> float | None:
    """The time limit from `timeout` (or its other name `time_limit`): seconds, None or 0 for no limit, as in
    the command line's `-t 0`."""
    if timeout is not None and time_limit is not None:
        raise TypeError(f"{function}(): give timeout or time_limit (the same thing), not both")
    value = timeout if time_limit is None else time_limit
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{function}(): timeout is seconds (a number; 0 or None for no limit), not {describe(value)}")
    if math.isnan(value) or value < 0:
        raise ValueError(f"{function}(): timeout {value!r} must be 0 (no limit) or more seconds")
    return None if value == 0 or math.isinf(value) else float(value)


def count_arg(value: Any, name: str, function: str, least: int = 1, allow_none: bool = True) -> int | None:
    """A whole number >= `least` (or None when allowed); TypeError/ValueError otherwise."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        none = " or None" if allow_none else ""
        raise TypeError(f"{function}(): {name} must be a whole number{none}, not {describe(value)}")
    if value < least:
        raise ValueError(f"{function}(): {name} {value} is less than {least}")
    return value


def backend_arg(value: Any, function: str) -> str:
    """An engine name (`native`, `sat:glucose4`, ...): TypeError when not a string, UnknownBackend (a ValueError
    naming the engines) when no engine has that name."""
    from nonocp.engines import backend_class, names

    if not isinstance(value, str):
        raise TypeError(f"{function}(): backend is an engine's name ({', '.join(names())}), not {describe(value)}")
    backend_class(value)
    return value


def engine_settings(backend: str, settings: Mapping[str, Any], function: str,
                    accepted: Iterable[str]) -> dict[str, Any]:
    """`settings` (the call's extra keywords) if each is an option of the engine (or a PROGRAM_SETTINGS name)
    with a value it takes: TypeError naming every accepted keyword for an unknown one (`timeout` for
    `time_limit`...), ValueError for a value the engine does not take."""
    from nonocp.core.errors import NonocpError
    from nonocp.engines import backend_class

    cls = backend_class(backend)
    declared = cls.settings.names()
    for key in settings:
        if key not in declared and key not in PROGRAM_SETTINGS:
            words = [*accepted, *declared]
            guess = difflib.get_close_matches(key, [*words, *PROGRAM_SETTINGS], 1)
            hint = f" (did you mean {guess[0]}?)" if guess else ""
            own = f"; the {backend} engine's settings: {', '.join(declared)}" if declared else \
                f"; the {backend} engine has no settings"
            raise TypeError(f"{function}() got an unexpected keyword argument {key!r}{hint}. It takes "
                            f"{', '.join(accepted)}{own}")
    try:
        cls.settings.check(settings, cls.name)
    except NonocpError as e:
        raise ValueError(f"{function}(): {e}") from None
    return dict(settings)


__all__ = ["PROGRAM_SETTINGS", "backend_arg", "count_arg", "describe", "engine_settings", "grid_arg",
           "grid_from_symbols", "puzzle_arg", "seconds", "symbol_index"]
