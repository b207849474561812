"""nonocp: solve, verify and explain nonograms with three independent engines."""

from nonocp.errors import BackendUnavailable, InvalidPuzzleError, NonocpError, ParseError
from nonocp.grid import Domains, Grid
from nonocp.puzzle import Block, Clue, Color, Meta, Palette, Puzzle, clues_of
from nonocp.result import SolveResult, Status
from nonocp.solve import solve

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
