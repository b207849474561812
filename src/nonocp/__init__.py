"""nonocp: solve, verify and explain nonograms with three independent engines.

The public API (docs/python-api.md has a worked example of each part):

    >>> import nonocp
    >>> heart = nonocp.Puzzle.from_clues(rows=[[1, 1], [3], [1]], cols=[[2], [2], [2]])
    >>> result = nonocp.solve(heart)
    >>> str(result.status), len(result.solutions)
    ('unique', 1)
    >>> print(nonocp.render_text(heart, result.solution), end="")
          2 2 2
        +------
    1 1 | # . #
      3 | # # #
      1 | . # .

Everything is imported on first use (`nonocp.solve` does not import OR-Tools, `import nonocp` imports
nothing heavy), so scripts that call `nonocp` once per file stay fast. Every function checks what it is
given and raises TypeError or ValueError naming what it accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nonocp.analysis.backbone import Backbone
    from nonocp.analysis.crosscheck import CrossCheck
    from nonocp.analysis.explain import Explanation
    from nonocp.analysis.rate import Rating
    from nonocp.analysis.stepper import Stepper
    from nonocp.analysis.steps import Step
    from nonocp.api.stream import Solutions
    from nonocp.core.cancel import Cancel
    from nonocp.core.counts import Count
    from nonocp.core.errors import BackendUnavailable, InvalidPuzzleError, NonocpError, ParseError
    from nonocp.core.grid import Domains, Grid
    from nonocp.core.palette import Color, Palette
    from nonocp.core.puzzle import Block, Clue, Meta, Puzzle, clues_of
    from nonocp.core.result import SolveResult, Status
    from nonocp.render.steps_text import step_text

__version__ = "0.1.0"

# name -> module that defines it; imported when first asked for (module __getattr__ below)
_LAZY = {
    "BackendUnavailable": "nonocp.core.errors",
    "InvalidPuzzleError": "nonocp.core.errors",
    "NonocpError": "nonocp.core.errors",
    "ParseError": "nonocp.core.errors",
    "Cancel": "nonocp.core.cancel",
    "Count": "nonocp.core.counts",
    "Domains": "nonocp.core.grid",
    "Grid": "nonocp.core.grid",
    "Color": "nonocp.core.palette",
    "Palette": "nonocp.core.palette",
    "Block": "nonocp.core.puzzle",
    "Clue": "nonocp.core.puzzle",
    "Meta": "nonocp.core.puzzle",
    "Puzzle": "nonocp.core.puzzle",
    "clues_of": "nonocp.core.puzzle",
    "SolveResult": "nonocp.core.result",
    "Status": "nonocp.core.result",
    "Solutions": "nonocp.api.stream",
    "Stepper": "nonocp.analysis.stepper",
    "Step": "nonocp.analysis.steps",
    "Explanation": "nonocp.analysis.explain",
    "Rating": "nonocp.analysis.rate",
    "Backbone": "nonocp.analysis.backbone",
    "CrossCheck": "nonocp.analysis.crosscheck",
    "step_text": "nonocp.render.steps_text",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'nonocp' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


# The keywords solve() and solutions() take besides an engine's own options (TypeError names them).
_SOLVE_WORDS = ("backend", "max_solutions", "timeout", "fixed", "seed", "workers", "progress", "cancel", "time_limit")


def solve(
    puzzle: Puzzle,
    backend: str | None = None,
    *,
    max_solutions: int | None = 2,
    timeout: float | None = None,
    fixed: Any = None,
    seed: int | None = None,
    workers: int | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    cancel: Cancel | None = None,
    time_limit: float | None = None,
    **engine_options: Any,
) -> SolveResult:
    """Solve `puzzle` with an engine and say whether the solution is unique (as `nonocp solve`).

    The names and defaults are the command line's. `backend`: an engine from `nonocp backends` (`auto`,
    `native`, `cpsat`, `sat`, or a variant as `sat:glucose4`); None is the command's default engine
    (`nonocp.engines.DEFAULT_BACKEND`, `auto`). The engine looks for up to `max_solutions`
    solutions (2 tells unique from multiple; None lists them all: for many, iterate `solutions()` instead)
    within `timeout` seconds (None or 0: no limit; `time_limit` is another name for it).

    `fixed` gives cells before the search (assumptions): `{(row, col): colour}` (0-based; a colour is a palette
    index, a name or a symbol, or a set of them), rows of symbols with `?` for open cells, or a Grid.
    `progress(info)` is called about twice a second while the engine searches (`info["seconds"]`,
    `info["solutions"]` and the engine's counters). `cancel` (a nonocp.Cancel) stops the search from another
    thread. Other keywords are the engine's settings (as `nonocp solve --option`), e.g. `encoding="blocks"`
    for sat; an unknown keyword is a TypeError naming the accepted ones.

    The result's `status` is `unique`, `multiple`, `none`, `solved` (one found, uniqueness not asked) or
    `timeout`; `solutions` holds the grids found; `exhausted` says whether the search finished, and then
    `len(solutions)` is the exact number of solutions.

    >>> from nonocp import Puzzle
    >>> p = Puzzle.from_clues(rows=[[1], [1]], cols=[[1], [1]])
    >>> r = solve(p, "native", max_solutions=None)
    >>> str(r.status), len(r.solutions), r.exhausted
    ('multiple', 2, True)

    Still unique with a cell given? With the top-left cell black, yes:

    >>> solve(p, fixed={(0, 0): "#"})
    SolveResult(unique: 1 solution, search exhausted, by auto)
    #.
    .#
    """
    from nonocp.api.checks import seconds
    from nonocp.engines.solve import solve as _solve

    puzzle, backend, options = _search_arguments("solve", puzzle, backend, max_solutions, fixed, seed, workers,
                                                 cancel, engine_options)
    limit = seconds(timeout, time_limit, "solve")
    result = _solve(puzzle, backend, max_solutions=max_solutions, time_limit=limit,
                    progress=_with_clock(progress, "solve"), **options)
    return _with_palette(result, puzzle)


def solutions(
    puzzle: Puzzle,
    backend: str | None = None,
    *,
    max_solutions: int | None = None,
    timeout: float | None = None,
    fixed: Any = None,
    seed: int | None = None,
    workers: int | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    cancel: Cancel | None = None,
    time_limit: float | None = None,
    **engine_options: Any,
) -> Solutions:
    """The solutions of `puzzle`, yielded one by one as the engine finds them (python-sat's `enum_models`,
    OR-Tools' solution callback), however many there are: the search holds none of them. Stop whenever you
    like: `break` (and drop the iterator), `close()`, or use it in a `with` block; the search then ends
    within a fraction of a second. The keywords are solve()'s; `max_solutions` defaults to None (all).
    After the loop, `.result` says how the search ended (`found`, `exhausted`, `stop`).

    >>> from nonocp import Puzzle
    >>> big = Puzzle.from_clues(rows=[[1]] * 20, cols=[[1]] * 20)    # 20! solutions: about 2.4 * 10**18
    >>> with solutions(big) as stream:
    ...     first = next(stream)
    >>> big.is_solution(first), stream.result.stop
    (True, 'cancelled')
    >>> small = Puzzle.from_clues(rows=[[1]] * 3, cols=[[1]] * 3)    # 3! = 6 solutions
    >>> stream = solutions(small, "native")
    >>> len(list(stream)), stream.result.found, stream.result.exhausted
    (6, 6, True)
    """
    from nonocp.api.checks import seconds
    from nonocp.api.stream import Solutions
    from nonocp.engines.solve import solve as _solve

    puzzle, backend, options = _search_arguments("solutions", puzzle, backend, max_solutions, fixed, seed, workers,
                                                 cancel, engine_options)
    limit = seconds(timeout, time_limit, "solutions")
    user_cancel = options.pop("cancel")

    def run(**streaming: Any) -> SolveResult:
        return _solve(puzzle, backend, max_solutions=max_solutions, time_limit=limit, **options, **streaming)

    _check_callable(progress, "progress", "solutions")
    return Solutions(puzzle, run, progress, user_cancel)


def _search_arguments(function: str, puzzle: Any, backend: Any, max_solutions: Any, fixed: Any, seed: Any,
                      workers: Any, cancel: Any,
                      engine_options: dict[str, Any]) -> tuple[Puzzle, str, dict[str, Any]]:
    """solve()'s and solutions()' arguments checked (TypeError/ValueError naming what they take): the puzzle,
    the engine (None: the default engine) and the keywords of nonocp.engines.solve.solve."""
    from nonocp.api.checks import backend_arg, count_arg, engine_settings, puzzle_arg
    from nonocp.api.fixed import fixed_masks
    from nonocp.core.cancel import check_cancel
    from nonocp.engines import DEFAULT_BACKEND

    puzzle = puzzle_arg(puzzle, function)
    backend = backend_arg(DEFAULT_BACKEND if backend is None else backend, function)
    count_arg(max_solutions, "max_solutions", function)
    count_arg(workers, "workers", function)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"{function}(): seed must be a whole number or None, not {type(seed).__name__}")
    options = engine_settings(backend, engine_options, function, _SOLVE_WORDS)
    return puzzle, backend, {**options, "seed": seed, "workers": workers, "fixed": fixed_masks(fixed, puzzle, function),
                    "cancel": check_cancel(cancel)}


def _check_callable(value: Any, name: str, function: str) -> None:
    if value is not None and not callable(value):
        raise TypeError(f"{function}(): {name} must be a function (or None), not {type(value).__name__}")


def _with_clock(progress: Any, function: str) -> Callable[[dict[str, Any]], None] | None:
    """The engines' progress reports with the seconds since the call began."""
    _check_callable(progress, "progress", function)
    if progress is None:
        return None
    import time

    started = time.monotonic()

    def report(info: dict[str, Any]) -> None:
        progress({"solutions": 0, **info, "seconds": round(time.monotonic() - started, 3)})

    return report


def _with_palette(result: SolveResult, puzzle: Puzzle) -> SolveResult:
    """The result with its grids knowing the puzzle's palette (to_strings(), printing)."""
    import dataclasses

    palette = puzzle.palette
    return dataclasses.replace(result, solutions=tuple(g.with_palette(palette) for g in result.solutions))


def explain(puzzle: Puzzle, *, max_steps: int | None = None, timeout: float | None = None,
            time_limit: float | None = None) -> Explanation:
    """The native engine's solving of `puzzle`, step by step (as `nonocp explain`): each step has its `kind`
    (line, probe, guess, backtrack, solution, ...), the `technique` a person would name and the cells it
    changed; `nonocp.step_text(step, puzzle)` says it in words. `timeout` as in solve().

    >>> from nonocp import Puzzle
    >>> p = Puzzle.from_clues(rows=[[2], [1]], cols=[[2], [1]])
    >>> ex = explain(p)
    >>> ex.outcome, str(ex.status)
    ('solved', 'unique')
    >>> [(step.kind, step.technique) for step in ex.steps][0]
    ('line', 'overlap')
    >>> from nonocp import step_text
    >>> step_text(ex.steps[0], p)
    'Row 1 [2]: the leftmost and rightmost placements of a block overlap; decides r1c1=#, r1c2=#.'
    """
    from nonocp.analysis.explain import explain as _explain
    from nonocp.api.checks import count_arg, puzzle_arg, seconds

    puzzle = puzzle_arg(puzzle, "explain")
    count_arg(max_steps, "max_steps", "explain")
    return _explain(puzzle, max_steps=max_steps, time_limit=seconds(timeout, time_limit, "explain"))


def rate(puzzle: Puzzle, timeout: float | None = None, *, time_limit: float | None = None) -> Rating:
    """How hard `puzzle` is for a person: LINE, PROBE, BRANCH, MULTIPLE, NONE or UNKNOWN (as `nonocp rate`).

    >>> from nonocp import Puzzle
    >>> rate(Puzzle.from_clues(rows=[[2], [1]], cols=[[2], [1]])).verdict
    'LINE'
    """
    from nonocp.analysis.rate import rate as _rate
    from nonocp.api.checks import puzzle_arg, seconds

    return _rate(puzzle_arg(puzzle, "rate"), seconds(timeout, time_limit, "rate"))


def backbone(puzzle: Puzzle, backend: str | None = None, *, timeout: float | None = None,
             time_limit: float | None = None) -> Backbone:
    """Which cells have the same colour in every solution (as `nonocp solve --backbone`), found by queries to
    `backend` (None: the engine of small queries, `nonocp.engines.QUERY_BACKEND`, `native`).

    >>> from nonocp import Puzzle
    >>> bb = backbone(Puzzle.from_clues(rows=[[1], [1], [0]], cols=[[1], [1]]))
    >>> sorted(bb.ambiguous), sorted(bb.fixed)
    ([(0, 0), (0, 1), (1, 0), (1, 1)], [(2, 0), (2, 1)])
    """
    from nonocp.analysis.backbone import find_backbone
    from nonocp.api.checks import backend_arg, puzzle_arg, seconds
    from nonocp.engines import QUERY_BACKEND

    puzzle = puzzle_arg(puzzle, "backbone")
    backend = backend_arg(QUERY_BACKEND if backend is None else backend, "backbone")
    return find_backbone(puzzle, backend, time_limit=seconds(timeout, time_limit, "backbone"))


def check(
    puzzle: Puzzle,
    engines: Iterable[str] | None = None,
    *,
    timeout: float | None = None,
    max_solutions: int | None = 2,
    time_limit: float | None = None,
) -> CrossCheck:
    """Run several engines on `puzzle` and compare their verdicts and solutions (as `nonocp check`).

    `engines` defaults to every independent engine (native, cpsat, sat); `agree` is False when two of them
    contradict each other (each disagreement is a bug in some engine).

    >>> from nonocp import Puzzle
    >>> c = check(Puzzle.from_clues(rows=[[1], [0]], cols=[[1]]), ["native", "sat"])
    >>> c.agree, c.verdict, c.deciders
    (True, 'unique', 2)
    """
    from nonocp.analysis.crosscheck import crosscheck
    from nonocp.api.checks import backend_arg, count_arg, puzzle_arg, seconds
    from nonocp.engines import INDEPENDENT

    puzzle = puzzle_arg(puzzle, "check")
    if isinstance(engines, str):
        engines = [engines]
    if engines is not None and not isinstance(engines, Iterable):
        raise TypeError(f"check(): engines is a list of engine names, not {type(engines).__name__}")
    names = INDEPENDENT if engines is None else tuple(backend_arg(e, "check") for e in engines)
    if not names:
        raise ValueError("check(): give at least one engine")
    count_arg(max_solutions, "max_solutions", "check")
    return crosscheck(puzzle, names, timeout=seconds(timeout, time_limit, "check"), max_solutions=max_solutions)


def load(path: str, fmt: str | None = None) -> list[Puzzle]:
    """Every puzzle in the file at `path` (a bundle may hold many); the format comes from `fmt`, else the
    extension, else the content. Raises ParseError naming the file (and line) on bad input."""
    from nonocp.formats import load as _load

    return _load(_path_arg(path, "load"), _format_arg(fmt, "load", "read"))


def loads(text: str, fmt: str | None = None) -> list[Puzzle]:
    """Every puzzle in `text`, read as format `fmt` (`non`, `xml`, `json`, `picture`, ...; None: guessed).

    >>> (p,) = loads("#.#\\n###\\n.#.\\n", "picture")
    >>> p.rows[0]
    (Block(length=1, color=1), Block(length=1, color=1))
    """
    from nonocp.formats import detect
    from nonocp.formats import loads as _loads

    if isinstance(text, (bytes, bytearray)):
        raise TypeError("loads() takes the text of a puzzle (str); decode bytes first, or write them to a file "
                        "and use load(path)")
    if not isinstance(text, str):
        raise TypeError(f"loads() takes the text of a puzzle (str), not {type(text).__name__}")
    fmt = _format_arg(fmt, "loads", "read")
    return _loads(text, fmt or detect("<string>", text))


def dump(puzzle: Puzzle | Sequence[Puzzle], path: str, fmt: str | None = None) -> None:
    """Write `puzzle` (or a list, for formats that bundle) to `path`; the format is `fmt`, else the extension's."""
    from nonocp.formats import dump as _dump

    _dump(_puzzles_arg(puzzle, "dump"), _path_arg(path, "dump"), _format_arg(fmt, "dump", "write"))


def dumps(puzzle: Puzzle | Sequence[Puzzle], fmt: str = "non") -> str:
    """The text of `puzzle` in format `fmt` (`non`, `nonpack`, `xml`, `json`, `cnf`).

    >>> from nonocp import Puzzle
    >>> print(dumps(Puzzle.from_clues(rows=[[1]], cols=[[1]])), end="")
    width 1
    height 1
    <BLANKLINE>
    rows
    1
    <BLANKLINE>
    columns
    1
    """
    from nonocp.formats import dumps as _dumps

    return _dumps(_puzzles_arg(puzzle, "dumps"), _format_arg(fmt, "dumps", "write") or "non")


def render_text(puzzle: Puzzle, grid: Any = None, marked: Any = None) -> str:
    """The puzzle's clues around `grid` (a solution, rows of colour indices or of symbols; None: the empty
    grid) as `nonocp solve` prints them; `marked` cells (row, col) show `?`.

    >>> from nonocp import Puzzle
    >>> p = Puzzle.from_clues(rows=[[1], [1]], cols=[[1], [1]])
    >>> print(render_text(p, ["#.", ".#"]), end="")
        1 1
      +----
    1 | # .
    1 | . #
    """
    from nonocp.api.checks import grid_arg, puzzle_arg
    from nonocp.render import render_text as _render_text

    puzzle = puzzle_arg(puzzle, "render_text")
    if grid is not None:
        grid = grid_arg(grid, "render_text", puzzle)
        if grid.height != puzzle.height or any(len(row) != puzzle.width for row in grid.cells):
            raise ValueError(f"render_text(): the grid is {grid.width}x{grid.height} but the puzzle "
                             f"{puzzle.width}x{puzzle.height}")
        ncol = len(puzzle.palette)
        if any(not 0 <= v < ncol for row in grid.cells for v in row):
            raise ValueError(f"render_text(): the grid has a colour outside the puzzle's palette (0 to {ncol - 1})")
    if marked is not None:
        if isinstance(marked, (str, bytes)) or not isinstance(marked, Iterable):
            raise TypeError("render_text(): marked is a list of (row, col) cells")
        marked = list(marked)
        if not all(isinstance(m, tuple) and len(m) == 2 and all(isinstance(v, int) for v in m) for m in marked):
            raise TypeError("render_text(): marked is a list of (row, col) cells")
    return _render_text(puzzle, grid, marked)


def _path_arg(path: Any, function: str) -> str:
    import os

    from nonocp.core.puzzle import Puzzle

    if isinstance(path, str) or isinstance(path, os.PathLike):
        return os.fspath(path)
    if isinstance(path, Puzzle):
        raise TypeError(f"{function}(): the path comes second: {function}(puzzle, path)" if function == "dump"
                        else f"{function}() takes a file's path, not a Puzzle")
    raise TypeError(f"{function}() takes a file's path (str or os.PathLike), not {type(path).__name__}")


def _format_arg(fmt: Any, function: str, use: str) -> str | None:
    """`fmt` lower-cased if nonocp can `use` ("read" or "write") that format; ValueError naming those it can."""
    if fmt is None:
        return None
    from nonocp.formats import readable_formats, writable_formats

    known = readable_formats() if use == "read" else writable_formats()
    if not isinstance(fmt, str):
        raise TypeError(f"{function}(): fmt is a format's name ({', '.join(known)}), not {type(fmt).__name__}")
    if fmt.lower() not in known:
        raise ValueError(f"{function}(): cannot {use} format {fmt!r}; choose from {', '.join(known)}")
    return fmt.lower()


def _puzzles_arg(puzzle: Any, function: str) -> Puzzle | list[Puzzle]:
    from nonocp.core.puzzle import Puzzle

    if isinstance(puzzle, Puzzle):
        return puzzle
    if isinstance(puzzle, (list, tuple)) and puzzle and all(isinstance(p, Puzzle) for p in puzzle):
        return list(puzzle)
    from nonocp.api.checks import describe

    raise TypeError(f"{function}() takes a Puzzle or a list of Puzzles, not {describe(puzzle)}")


__all__ = [
    "Backbone", "BackendUnavailable", "Block", "Cancel", "Clue", "Color", "Count", "CrossCheck", "Domains",
    "Explanation", "Grid", "InvalidPuzzleError", "Meta", "NonocpError", "Palette", "ParseError", "Puzzle", "Rating",
    "Solutions", "SolveResult", "Status", "Step", "Stepper", "__version__", "backbone", "check", "clues_of", "dump",
    "dumps", "explain", "load", "loads", "rate", "render_text", "solutions", "solve", "step_text",
]
