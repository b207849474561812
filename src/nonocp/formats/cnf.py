"""DIMACS CNF export (writer only): the puzzle as the sat engine encodes it.

`nonocp convert puzzle.non puzzle.cnf` writes the formula any SAT solver can read. The header comments
name the literal of each cell colour (`c cell ROW COL COLOUR LITERAL`, 0-based, palette indices), so a
model printed by an outside solver can be turned back into a grid without nonocp. A CNF cannot be read
back as a puzzle (the clues are not recoverable in general), hence no reader.
"""

from __future__ import annotations

from nonocp.core.puzzle import Puzzle
from nonocp.encode.cnf import DEFAULT_ENCODING, encode_puzzle, to_dimacs


def puzzle_to_dimacs(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING) -> str:
    """The DIMACS text of `puzzle` (satisfying assignments = solutions, one to one on the cell literals)."""
    palette = " ".join(f"{i}={c.name}" for i, c in enumerate(puzzle.palette.colors))
    title = puzzle.title or "untitled"  # to_dimacs makes every comment one ASCII line
    comments = [
        f"nonocp puzzle {title} ({puzzle.width}x{puzzle.height}), fingerprint {puzzle.fingerprint()}",
        f"palette {palette}",
    ]
    return to_dimacs(encode_puzzle(puzzle, encoding), comments=comments)
