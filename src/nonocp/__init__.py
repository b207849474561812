"""nonocp: solve, verify and explain nonograms with three independent engines.

The public API (documented with a worked example in docs/python-api.md):

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
nothing heavy), so scripts that call `nonocp` once per file stay fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nonocp.analysis.backbone import Backbone
    from nonocp.analysis.crosscheck import CrossCheck
    from nonocp.analysis.explain import Explanation
    from nonocp.analysis.rate import Rating
    from nonocp.core.errors import BackendUnavailable, InvalidPuzzleError, NonocpError, ParseError
    from nonocp.core.grid import Domains, Grid
    from nonocp.core.palette import Color, Palette
    from nonocp.core.puzzle import Block, Clue, Meta, Puzzle, clues_of
    from nonocp.core.result import SolveResult, Status

__version__ = "0.1.0"

# name -> module that defines it; imported when first asked for (module __getattr__ below)
_LAZY = {
    "BackendUnavailable": "nonocp.core.errors",
    "InvalidPuzzleError": "nonocp.core.errors",
    "NonocpError": "nonocp.core.errors",
    "ParseError": "nonocp.core.errors",
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
    "render_text": "nonocp.render",
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


def solve(
    puzzle: Puzzle,
    backend: str = "auto",
    *,
    max_solutions: int | None = 2,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    **options: Any,
) -> SolveResult:
    """Solve `puzzle` with an engine and say whether the solution is unique.

    `backend` is an engine name from `nonocp backends` (`auto`, `native`, `cpsat`, `sat`, or a variant such
    as `sat:glucose4`). The engine looks for up to `max_solutions` solutions (the default 2 tells unique
    from multiple; None lists them all) within `time_limit` seconds. `options` are engine settings (as
    `nonocp solve --option`), e.g. `encoding="blocks"` for sat.

    The result's `status` is `unique`, `multiple`, `none`, `solved` (one found, uniqueness not asked) or
    `timeout`; `solutions` holds the grids found; `exhausted` says whether the search finished, and then
    `len(solutions)` is the exact number of solutions.

    >>> from nonocp import Puzzle
    >>> p = Puzzle.from_clues(rows=[[1], [1]], cols=[[1], [1]])
    >>> r = solve(p, "native", max_solutions=None)
    >>> str(r.status), len(r.solutions), r.exhausted
    ('multiple', 2, True)
    """
    from nonocp.engines.solve import solve as _solve

    return _solve(puzzle, backend, max_solutions=max_solutions, time_limit=time_limit, seed=seed,
                  workers=workers, **options)


def explain(puzzle: Puzzle, *, max_steps: int | None = None, time_limit: float | None = None) -> Explanation:
    """The native engine's solving of `puzzle`, step by step (as `nonocp explain`): each step has its `kind`
    (line, probe, guess, backtrack, solution, ...), the `technique` a person would name and the cells it
    changed; `nonocp.render.steps_text.step_text(step, puzzle)` says it in words.

    >>> from nonocp import Puzzle
    >>> ex = explain(Puzzle.from_clues(rows=[[2], [1]], cols=[[2], [1]]))
    >>> ex.outcome, str(ex.status)
    ('solved', 'unique')
    >>> [(step.kind, step.technique) for step in ex.steps][0]
    ('line', 'overlap')
    """
    from nonocp.analysis.explain import explain as _explain

    return _explain(puzzle, max_steps=max_steps, time_limit=time_limit)


def rate(puzzle: Puzzle, time_limit: float | None = None) -> Rating:
    """How hard `puzzle` is for a person: LINE, PROBE, BRANCH, MULTIPLE, NONE or UNKNOWN (as `nonocp rate`).

    >>> from nonocp import Puzzle
    >>> rate(Puzzle.from_clues(rows=[[2], [1]], cols=[[2], [1]])).verdict
    'LINE'
    """
    from nonocp.analysis.rate import rate as _rate

    return _rate(puzzle, time_limit)


def backbone(puzzle: Puzzle, backend: str = "native", *, time_limit: float | None = None) -> Backbone:
    """Which cells have the same colour in every solution (as `nonocp solve --backbone`).

    >>> from nonocp import Puzzle
    >>> bb = backbone(Puzzle.from_clues(rows=[[1], [1], [0]], cols=[[1], [1]]))
    >>> sorted(bb.ambiguous), sorted(bb.fixed)
    ([(0, 0), (0, 1), (1, 0), (1, 1)], [(2, 0), (2, 1)])
    """
    from nonocp.analysis.backbone import find_backbone

    return find_backbone(puzzle, backend, time_limit=time_limit)


def check(
    puzzle: Puzzle,
    engines: Iterable[str] | None = None,
    *,
    time_limit: float | None = None,
    max_solutions: int | None = 2,
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
    from nonocp.engines import INDEPENDENT

    return crosscheck(puzzle, INDEPENDENT if engines is None else tuple(engines), timeout=time_limit,
                      max_solutions=max_solutions)


def load(path: str, fmt: str | None = None) -> list[Puzzle]:
    """Every puzzle in the file at `path` (a bundle may hold many); the format comes from `fmt`, else the
    extension, else the content. Raises ParseError naming the file (and line) on bad input."""
    from nonocp.formats import load as _load

    return _load(path, fmt)


def loads(text: str, fmt: str | None = None) -> list[Puzzle]:
    """Every puzzle in `text`, read as format `fmt` (`non`, `xml`, `json`, `picture`, ...; None: guessed).

    >>> (p,) = loads("#.#\\n###\\n.#.\\n", "picture")
    >>> p.rows[0]
    (Block(length=1, color=1), Block(length=1, color=1))
    """
    from nonocp.formats import detect
    from nonocp.formats import loads as _loads

    return _loads(text, fmt or detect("<string>", text))


def dump(puzzle: Puzzle | Sequence[Puzzle], path: str, fmt: str | None = None) -> None:
    """Write `puzzle` (or a list, for formats that bundle) to `path`; the format is `fmt`, else the extension's."""
    from nonocp.formats import dump as _dump

    _dump(puzzle, path, fmt)


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

    return _dumps(puzzle, fmt)


__all__ = [
    "BackendUnavailable", "Block", "Clue", "Color", "Domains", "Grid", "InvalidPuzzleError", "Meta",
    "NonocpError", "Palette", "ParseError", "Puzzle", "SolveResult", "Status", "__version__", "backbone", "check",
    "clues_of", "dump", "dumps", "explain", "load", "loads", "rate", "render_text", "solve",
]
