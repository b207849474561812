"""nonocp: solve, verify and explain nonograms with three independent engines."""

from nonocp.core.errors import BackendUnavailable, InvalidPuzzleError, NonocpError, ParseError
from nonocp.core.grid import Domains, Grid
from nonocp.core.palette import Color, Palette
from nonocp.core.puzzle import Block, Clue, Meta, Puzzle, clues_of
from nonocp.core.result import SolveResult, Status
from nonocp.engines.solve import solve

__version__ = "0.1.0"


def load(path: str, fmt: str | None = None) -> list[Puzzle]:
    """Every puzzle in the file at `path` (a bundle may hold many)."""
    from nonocp.formats import load as _load

    return _load(path, fmt)


def dump(puzzle: Puzzle, path: str, fmt: str | None = None) -> None:
    from nonocp.formats import dump as _dump

    _dump(puzzle, path, fmt)


__all__ = [
    "BackendUnavailable", "Block", "Clue", "Color", "Domains", "Grid", "InvalidPuzzleError", "Meta",
    "NonocpError", "Palette", "ParseError", "Puzzle", "SolveResult", "Status", "clues_of", "dump", "load",
    "solve", "__version__",
]
