"""The puzzle model: colours, palettes, clues and puzzles (all immutable)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from nonocp.core.counts import CountClue, clue_problem, count_clues_of
from nonocp.core.errors import InvalidPuzzleError, NonocpError
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette

# The two kinds of clue a puzzle may have (Puzzle.clue_kind): runs (blocks in order, the usual nonogram) or
# count-and-contiguity clues (core/counts.py: per colour a count and whether those cells are all in a row).
RUNS = "runs"
COUNTS = "counts"
CLUE_KINDS = (RUNS, COUNTS)
KIND_NAMES = {RUNS: "run", COUNTS: "count-and-contiguity"}  # in messages: "... run clues"


@dataclass(frozen=True)
class Block:
    """A run of `length` cells of palette colour `color` (1..len(palette)-1)."""

    length: int
    color: int = 1


Clue = tuple[Block, ...]


def min_length(clue: Clue) -> int:
    """Fewest cells a clue needs: its blocks plus one gap between consecutive same-colour blocks."""
    total = sum(b.length for b in clue)
    gaps = sum(1 for a, b in zip(clue, clue[1:], strict=False) if a.color == b.color)
    return total + gaps


def line_clue(cells: Sequence[int]) -> Clue:
    """The clue of one line of colour indices (0 = background)."""
    out: list[Block] = []
    run, prev = 0, 0
    for v in cells:
        if v == prev:
            run += 1
            continue
        if prev:
            out.append(Block(run, prev))
        run, prev = 1, v
    if prev:
        out.append(Block(run, prev))
    return tuple(out)


def clues_of(grid: Grid) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """(row clues, column clues) of a solved grid."""
    rows = tuple(line_clue(r) for r in grid.cells)
    cols = tuple(line_clue([grid.cells[r][c] for r in range(grid.height)]) for c in range(grid.width))
    return rows, cols


@dataclass(frozen=True)
class Meta:
    """What a file says about a puzzle besides its clues. `goal` is one known solution (not always unique)."""

    title: str = ""
    author: str = ""
    copyright: str = ""
    license: str = ""
    source: str = ""
    goal: Grid | None = None


@dataclass(frozen=True)
class Puzzle:
    """A puzzle's clues, palette and metadata. `clue_kind` says what `rows` and `cols` hold: run clues (`Clue`,
    blocks in order; palette index 0 is the background) or, for COUNTS, count clues (`CountClue`, one `Count`
    per palette colour; every palette index is a colour and there is no background).

    Code that reads run clues calls `require_runs(what)` first, so that a count puzzle gets a one-line refusal
    instead of a wrong answer."""

    rows: tuple[Clue, ...] | tuple[CountClue, ...]
    cols: tuple[Clue, ...] | tuple[CountClue, ...]
    palette: Palette = field(default_factory=Palette.black_and_white)
    meta: Meta = field(default_factory=Meta, compare=False)
    clue_kind: str = RUNS

    @property
    def has_counts(self) -> bool:
        """True for count-and-contiguity clues (clue_kind COUNTS)."""
        return self.clue_kind == COUNTS

    def require_runs(self, what: str) -> None:
        """NonocpError (one line) when this puzzle's clues are not run clues: for code that reads only those."""
        if self.clue_kind != RUNS:
            raise NonocpError(f"{what} takes run clues only; this puzzle has count-and-contiguity clues")

    @property
    def width(self) -> int:
        return len(self.cols)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def title(self) -> str:
        return self.meta.title

    def lines(self) -> list[tuple[Clue, int]]:
        """Every line as (clue, length): rows first, then columns (the order engines index lines in)."""
        return [(c, self.width) for c in self.rows] + [(c, self.height) for c in self.cols]

    def validate(self) -> Puzzle:
        """Raise InvalidPuzzleError with the reason if these clues cannot be a puzzle; return self.

        Clues whose colour totals differ are a puzzle (with no solution): see count_mismatch().
        """
        if self.width < 1 or self.height < 1:
            raise InvalidPuzzleError(f"the grid is {self.width}x{self.height}; it needs at least one row and column")
        if self.clue_kind not in CLUE_KINDS:
            raise InvalidPuzzleError(f"unknown clue kind {self.clue_kind!r}; choose from {', '.join(CLUE_KINDS)}")
        if self.clue_kind == COUNTS:
            self._validate_counts()
            return self._validate_goal()
        ncol = len(self.palette)
        for kind, clues, length in (("row", self.rows, self.width), ("column", self.cols, self.height)):
            for i, clue in enumerate(clues, 1):
                for b in clue:
                    if not 1 <= b.color < ncol:
                        raise InvalidPuzzleError(f"{kind} {i}: colour index {b.color} is not in the palette")
                    if b.length < 1:
                        raise InvalidPuzzleError(f"{kind} {i}: block length {b.length} must be positive")
                need = min_length(clue)
                if need > length:
                    raise InvalidPuzzleError(f"{kind} {i}: the clue needs {need} cells but the line has {length}")
        return self._validate_goal()

    def _validate_counts(self) -> None:
        """Count clues: one count per colour, adding up to the line's length, flags on counts >= 2 only, and
        every colour painting as many cells by the rows as by the columns."""
        ncol = len(self.palette)
        for kind, clues, length in (("row", self.rows, self.width), ("column", self.cols, self.height)):
            for i, clue in enumerate(clues, 1):
                problem = clue_problem(clue, length, ncol)
                if problem is not None:
                    raise InvalidPuzzleError(f"{kind} {i}: {problem}")
        for k in range(ncol):
            in_rows = sum(clue[k].count for clue in self.rows)
            in_cols = sum(clue[k].count for clue in self.cols)
            if in_rows != in_cols:
                raise InvalidPuzzleError(
                    f"colour {self.palette[k].name!r}: the row counts add up to {in_rows} cells but the column "
                    f"counts to {in_cols}"
                )

    def _validate_goal(self) -> Puzzle:
        if self.meta.goal is not None and (
            self.meta.goal.width != self.width or self.meta.goal.height != self.height
        ):
            goal = self.meta.goal
            raise InvalidPuzzleError(
                f"the goal is {goal.width}x{goal.height} but the puzzle is {self.width}x{self.height}"
            )
        return self

    def count_mismatch(self) -> str | None:
        """Why the clues cannot have a solution by counting alone (some colour's row clues paint a
        different number of cells than its column clues), or None when the counts agree.

        Not part of validate(): such a file is a well-formed puzzle whose answer is `none` (the
        command-line contract expects status `none`, exit 1). Count clues check their totals in validate().
        """
        if self.clue_kind == COUNTS:
            return None
        for color in range(1, len(self.palette)):
            in_rows = sum(b.length for clue in self.rows for b in clue if b.color == color)
            in_cols = sum(b.length for clue in self.cols for b in clue if b.color == color)
            if in_rows != in_cols:
                name = self.palette[color].name
                return (
                    f"colour {name!r}: the row clues paint {in_rows} cells but the column clues paint {in_cols}"
                )
        return None

    def fingerprint(self) -> str:
        """A short stable hash of the clues and colour values (not names or metadata)."""
        h = hashlib.sha256()
        h.update(f"{self.width}x{self.height};".encode())
        h.update(",".join(c.rgb for c in self.palette.colors).encode())
        if self.clue_kind == COUNTS:
            h.update(b";counts")
            for clue in self.rows + self.cols:
                h.update((";" + ",".join(e.token() for e in clue)).encode())
            return h.hexdigest()[:16]
        for clue in self.rows + self.cols:
            h.update((";" + ",".join(f"{b.length}.{b.color}" for b in clue)).encode())
        return h.hexdigest()[:16]

    def is_solution(self, grid: Grid) -> bool:
        """True when `grid` satisfies every clue."""
        if grid.width != self.width or grid.height != self.height:
            return False
        if self.clue_kind == COUNTS:
            return count_clues_of(grid.cells, len(self.palette)) == (self.rows, self.cols)
        return clues_of(grid) == (self.rows, self.cols)
