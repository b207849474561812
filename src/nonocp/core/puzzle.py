"""The puzzle model: colours, palettes, clues and puzzles (all immutable)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from nonocp.core.counts import ALL_IN_A_ROW_MARKS, Count, CountClue, clue_problem, count_clues_of, count_colours_of
from nonocp.core.errors import InvalidPuzzleError, NonocpError
from nonocp.core.grid import Grid
from nonocp.core.limits import MAX_CELLS, MAX_COLORS, MAX_SIDE
from nonocp.core.palette import BLACK, WHITE, Color, Palette

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


def picture_puzzle(grid: Grid, palette: Palette, clue_kind: str = RUNS, meta: Meta | None = None) -> Puzzle:
    """The puzzle whose clues the picture `grid` makes, in `clue_kind`, with the picture as its goal (`meta`'s
    other fields kept). For count clues the palette must already be a count puzzle's (every index a colour,
    symbols a, b, c...: core/counts.count_colours_of makes one from any picture's)."""
    if clue_kind == COUNTS:
        rows, cols = count_clues_of(grid.cells, len(palette))
    else:
        rows, cols = clues_of(grid)
    return Puzzle(rows, cols, palette, replace(meta or Meta(), goal=grid), clue_kind)


def with_clue_kind(puzzle: Puzzle, clue_kind: str) -> Puzzle:
    """`puzzle` with clues of `clue_kind`: itself when it has them, else the clues its goal makes (the rest of
    what the file said kept). NonocpError when it has no goal to make them from. To count clues, the goal's
    colours (the background one of them) become the puzzle's; to run clues, its first colour becomes the
    background."""
    if puzzle.clue_kind == clue_kind:
        return puzzle
    goal = puzzle.meta.goal
    if goal is None:
        name = f" {puzzle.title!r}" if puzzle.title else ""
        raise NonocpError(f"the puzzle{name} has {KIND_NAMES[puzzle.clue_kind]} clues and no goal picture to make "
                          f"{KIND_NAMES[clue_kind]} clues from")
    if clue_kind == COUNTS:
        cells, palette = count_colours_of(goal.cells, puzzle.palette)
        return picture_puzzle(Grid.from_rows(cells), palette, COUNTS, puzzle.meta)
    return picture_puzzle(goal, puzzle.palette, RUNS, puzzle.meta)


@dataclass(frozen=True)
class Meta:
    """What a file says about a puzzle besides its clues. `goal` is one known solution (not always unique)."""

    title: str = ""
    author: str = ""
    copyright: str = ""
    license: str = ""
    source: str = ""
    goal: Grid | None = None
    notes: str = ""  # free text about the puzzle (a hint, a comment); shown by `show`


# Colour names `Puzzle.from_clues` knows without a #rrggbb value (the CSS basic colours and a few more).
NAMED_COLORS = {
    "black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000", "blue": "#0000ff",
    "yellow": "#ffff00", "orange": "#ffa500", "purple": "#800080", "pink": "#ffc0cb", "brown": "#a52a2a",
    "grey": "#808080", "gray": "#808080", "cyan": "#00ffff", "magenta": "#ff00ff", "lime": "#00ff00",
    "navy": "#000080", "teal": "#008080", "olive": "#808000", "maroon": "#800000", "silver": "#c0c0c0",
    "gold": "#ffd700",
}
_SYMBOLS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ23456789"


@dataclass(frozen=True, repr=False)
class Puzzle:
    """A nonogram: row clues (top to bottom), column clues (left to right), the palette and what the file
    said about it. Clues may be given as plain data: `Puzzle(rows=[[1, 1], [3]], cols=[[1], [2], [1]])`
    turns each number into a block of colour 1 (black), and `(length, colour)` pairs name the colour by
    palette index, symbol or name; `Puzzle.from_clues` also builds the palette from colour names.

    `clue_kind` says what `rows` and `cols` hold: run clues (`Clue`, blocks in order; palette index 0 is the
    background) or, for COUNTS, count clues (`CountClue`, one `Count` per palette colour; every palette index
    is a colour and there is no background). Code that reads run clues calls `require_runs(what)` first, so
    that a count puzzle gets a one-line refusal instead of a wrong answer.
    """

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

    def __post_init__(self) -> None:
        if not isinstance(self.palette, Palette):  # colour names (or Colors, or name -> #rrggbb) are welcome
            if self.palette is None or isinstance(self.palette, (str, bytes)) or not isinstance(
                    self.palette, (Sequence, Mapping)):
                raise TypeError(f"palette must be a Palette or a list of colour names, not "
                                f"{type(self.palette).__name__}")
            object.__setattr__(self, "palette", _palette_of(self.palette, background=self.clue_kind != COUNTS))
        if not isinstance(self.meta, Meta):
            raise TypeError(f"meta must be a nonocp.Meta, not {type(self.meta).__name__}")
        for kind, lines in (("rows", self.rows), ("cols", self.cols)):
            as_clues = _as_count_clues if self.clue_kind == COUNTS else _as_clues
            clues = as_clues(lines, kind, self.palette)
            if clues is not lines:
                object.__setattr__(self, kind, clues)

    @classmethod
    def from_clues(
        cls,
        rows: Sequence[Sequence[Any]],
        cols: Sequence[Sequence[Any]],
        colors: Sequence[str | Color] | Mapping[str, str] | None = None,
        *,
        title: str = "",
        clues: str = RUNS,
    ) -> Puzzle:
        """A validated puzzle from plain clues, within the file readers' size limits (core/limits.py).

        Run clues (`clues="runs"`, the default), black and white: each clue is a list of numbers (`[]` or
        `[0]` for an empty line). Colour: give the colours by name (`["red", "green"]`, names from
        NAMED_COLORS) or as a mapping name -> `#rrggbb`, and write each block as `(length, colour name)`; a
        plain number is allowed when there is one colour only.

        Count clues (`clues="counts"`, the count-and-contiguity kind): `colors` names every colour (there is no
        background) and each clue has one count per colour, in that order: a number, `"3*"` (or `"3•"`) when
        those cells are all in a row, or a `(count, all_in_a_row)` pair.

        >>> p = Puzzle.from_clues(rows=[[2], [1]], cols=[[2], [1]])
        >>> p.width, p.height, p.rows[0]
        (2, 2, (Block(length=2, color=1),))
        >>> flag = Puzzle.from_clues(rows=[[(1, "red"), (1, "green")]], cols=[[(1, "red")], [(1, "green")]],
        ...                          colors=["red", "green"])
        >>> [c.name for c in flag.palette.colors], flag.rows[0]
        (['white', 'red', 'green'], (Block(length=1, color=1), Block(length=1, color=2)))
        >>> cat = Puzzle.from_clues(rows=[["2*", 0], [1, 1]], cols=[["2*", 0], [1, 1]], colors=["orange", "blue"],
        ...                         clues="counts")
        >>> cat
        Puzzle(2x2, count clues, 2 colours: orange, blue)
        >>> import nonocp
        >>> print(nonocp.solve(cat).solution)
        oo
        ob
        """
        if clues not in CLUE_KINDS:
            raise ValueError(f"from_clues(): clues={clues!r}; choose {' or '.join(map(repr, CLUE_KINDS))}")
        _check_lines(rows, "rows")
        _check_lines(cols, "cols")
        if len(rows) > MAX_SIDE or len(cols) > MAX_SIDE or len(rows) * len(cols) > MAX_CELLS:
            raise InvalidPuzzleError(f"{len(cols)}x{len(rows)} is over the size limit ({MAX_SIDE} a side, "
                                     f"{MAX_CELLS:,} cells), as for files")
        if not isinstance(title, str):
            raise TypeError(f"from_clues(): title must be a string, not {type(title).__name__}")
        if clues == COUNTS:
            if colors is None:
                widths = {len(c) for c in (*rows, *cols) if isinstance(c, Sequence)}
                if widths != {2}:
                    raise InvalidPuzzleError("count clues need their colours: colors=[...], one name per count")
                colors = ["white", "black"]
            palette = _palette_of(colors, background=False)
            rows, cols = _count_tokens(rows, "row"), _count_tokens(cols, "column")
        else:
            palette = Palette.black_and_white() if colors is None else _palette_of(colors)
        return cls(rows, cols, palette, Meta(title=title), clues).validate()

    def __repr__(self) -> str:
        """`Puzzle('Heart', 9x8, black and white)`: what it is, not every block."""
        parts = [repr(self.meta.title)] if self.meta.title else []
        parts.append(f"{self.width}x{self.height}")
        names = [c.name for c in self.palette.colors]
        if self.clue_kind == COUNTS:
            parts.append(f"count clues, {len(names)} colours: {', '.join(names)}")
        elif self.palette.is_black_and_white:
            parts.append("black and white")
        else:
            parts.append(f"{len(names) - 1} colours: {', '.join(names[1:])}")
        return f"Puzzle({', '.join(parts)})"

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
        import hashlib  # here, not at the top: OpenSSL's start-up is a visible part of `nonocp solve`'s

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
        if not isinstance(grid, Grid):
            raise TypeError(f"is_solution() takes a Grid (a solution: nonocp.solve(puzzle).solution), not "
                            f"{type(grid).__name__}")
        if grid.width != self.width or grid.height != self.height:
            return False
        if self.clue_kind == COUNTS:
            return count_clues_of(grid.cells, len(self.palette)) == (self.rows, self.cols)
        return clues_of(grid) == (self.rows, self.cols)


def _palette_of(colors: Sequence[str | Color] | Mapping[str, str], background: bool = True) -> Palette:
    """White background (unless `background` is False: count clues have none) plus `colors` (names, Colors,
    or name -> #rrggbb), each with a one-letter symbol."""
    if isinstance(colors, Palette):
        return colors
    if isinstance(colors, (str, bytes)) or not isinstance(colors, (Sequence, Mapping)):
        raise TypeError(f"colors must be a list of colour names or a mapping name -> '#rrggbb', not "
                        f"{type(colors).__name__}")
    items: list[tuple[str, str | None] | Color] = []
    if isinstance(colors, Mapping):
        items = [(str(name), str(rgb)) for name, rgb in colors.items()]
    else:
        for c in colors:
            if not isinstance(c, (str, Color)):
                raise TypeError(f"colors: {c!r} is neither a colour name nor a Color")
            items.append(c if isinstance(c, Color) else (c, None))
    names = [c.name if isinstance(c, Color) else c[0] for c in items]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise InvalidPuzzleError(f"colour {twice!r} is named twice; each colour needs its own name")
    if len(items) > MAX_COLORS:
        raise InvalidPuzzleError(f"{len(items)} colours is over the limit of {MAX_COLORS}, as for files")
    if not background:
        if [c if isinstance(c, tuple) else (c.name, c.rgb) for c in items] in ([("white", None), ("black", None)],
                                                                               [("white", "#ffffff"),
                                                                                ("black", "#000000")]):
            return Palette((WHITE, BLACK))  # written 0 and 1, as black and white
        if len(items) < 2:
            raise InvalidPuzzleError(f"count clues need two colours or more, not {len(items)}: with one, every "
                                     "cell would have it and there would be nothing to solve")
    taken = ({WHITE.symbol} if background else set()) | {c.symbol for c in items if isinstance(c, Color)}
    out = [WHITE] if background else []
    for item in items:
        if isinstance(item, Color):
            out.append(item)
            continue
        name, rgb = item
        if rgb is None:
            rgb = name.lower() if name.startswith("#") else NAMED_COLORS.get(name.lower())
            if rgb is None:
                raise InvalidPuzzleError(f"colour {name!r}: unknown name; give its value as {{{name!r}: '#rrggbb'}}")
        symbol = next((s for s in (name[:1].lower(), *_SYMBOLS) if s.isalnum() and s not in taken), None)
        if symbol is None:
            raise InvalidPuzzleError(f"too many colours ({len(items)}): no symbol left for {name!r}")
        taken.add(symbol)
        out.append(BLACK if (name, rgb.lower()) == ("black", BLACK.rgb) and len(items) == 1 and background else
                   Color(name, rgb.lower(), symbol))
    if background and len(out) < 2:
        raise InvalidPuzzleError("colors is empty: name at least one colour (or leave colors out: black and white)")
    return Palette(tuple(out))


def _check_lines(lines: Any, kind: str) -> None:
    if isinstance(lines, (str, bytes)) or not isinstance(lines, Sequence):
        what = "None" if lines is None else type(lines).__name__
        raise TypeError(f"from_clues(): {kind} must be a list of clues (one per line), not {what}")


def _count_tokens(lines: Sequence[Any], what: str) -> list[Any]:
    """Count clues with `"3*"` / `"3•"` / `"3"` tokens turned into Counts (other forms are left to Puzzle)."""
    out = []
    for i, clue in enumerate(lines, 1):
        if isinstance(clue, Sequence) and not isinstance(clue, (str, bytes)):
            out.append([_count_token(item, f"{what} {i}") if isinstance(item, str) else item for item in clue])
        else:
            out.append(clue)
    return out


def _count_token(token: str, where: str) -> Count:
    text = token.strip()
    together = text.endswith(ALL_IN_A_ROW_MARKS)
    digits = text[:-1] if together else text
    if not digits.isdigit() or len(digits) > 7:
        raise InvalidPuzzleError(f"{where}: {token!r} is not a count (a number, with * or • when those cells are "
                                 "all in a row)")
    return Count(int(digits), together)


def _as_clues(lines: Any, kind: str, palette: Palette) -> tuple[Clue, ...]:
    """`lines` as a tuple of clues of Blocks; the same object when it already is one (the readers' case)."""
    if isinstance(lines, tuple) and all(
        isinstance(clue, tuple) and all(type(b) is Block for b in clue) for clue in lines
    ):
        return lines
    if isinstance(lines, (str, bytes)) or not isinstance(lines, Sequence):
        raise InvalidPuzzleError(f"{kind}: expected a list of clues, got {type(lines).__name__}")
    what = "row" if kind == "rows" else "column"
    return tuple(_as_clue(clue, f"{what} {i}", palette) for i, clue in enumerate(lines, 1))


def _as_count_clues(lines: Any, kind: str, palette: Palette) -> tuple[CountClue, ...]:
    """Count clues as tuples of Counts; a count may also be given as a number (not all in a row) or a
    (count, all in a row) pair. The same object when it already is tuples of Counts (the readers' case)."""
    if isinstance(lines, tuple) and all(
        isinstance(clue, tuple) and all(type(e) is Count for e in clue) for clue in lines
    ):
        return lines
    if isinstance(lines, (str, bytes)) or not isinstance(lines, Sequence):
        raise InvalidPuzzleError(f"{kind}: expected a list of count clues, got {type(lines).__name__}")
    what = "row" if kind == "rows" else "column"
    out = []
    for i, clue in enumerate(lines, 1):
        if isinstance(clue, (str, bytes)) or not isinstance(clue, Sequence):
            raise InvalidPuzzleError(f"{what} {i}: expected one count per colour, got {clue!r}")
        entries = []
        for item in clue:
            if isinstance(item, Count):
                entries.append(item)
            elif isinstance(item, int) and not isinstance(item, bool):
                entries.append(Count(item))
            elif (isinstance(item, Sequence) and len(item) == 2 and isinstance(item[0], int)
                  and isinstance(item[1], bool)):
                entries.append(Count(item[0], item[1]))
            else:
                raise InvalidPuzzleError(f"{what} {i}: {item!r} is not a count (a number or (count, all in a row))")
        out.append(tuple(entries))
    return tuple(out)


def _as_clue(clue: Any, where: str, palette: Palette) -> Clue:
    if isinstance(clue, int) and not isinstance(clue, bool):
        clue = [clue]
    if isinstance(clue, (str, bytes)) or not isinstance(clue, Sequence):
        raise InvalidPuzzleError(f"{where}: expected a list of blocks, got {clue!r}")
    blocks = []
    for item in clue:
        block = _as_block(item, where, palette)
        if block is not None:
            blocks.append(block)
    return tuple(blocks)


def _as_block(item: Any, where: str, palette: Palette) -> Block | None:
    """One block from a Block, a number (colour 1) or a (length, colour) pair; None for a `0` (empty line)."""
    if isinstance(item, Block):
        return item
    if isinstance(item, int) and not isinstance(item, bool):
        if item == 0:
            return None
        if len(palette) > 2:
            raise InvalidPuzzleError(f"{where}: block {item} has no colour; write ({item}, 'colour name')")
        return Block(item, 1)
    if isinstance(item, Sequence) and not isinstance(item, (str, bytes)) and len(item) == 2:
        length, color = item
        if not isinstance(length, int) or isinstance(length, bool):
            raise InvalidPuzzleError(f"{where}: block length {length!r} is not a whole number")
        return Block(length, _colour_index(color, where, palette))
    raise InvalidPuzzleError(f"{where}: {item!r} is not a block (a number or a (length, colour) pair)")


def _colour_index(color: Any, where: str, palette: Palette) -> int:
    if isinstance(color, int) and not isinstance(color, bool):
        return color
    if isinstance(color, str):
        for find in (palette.index_of_name, palette.index_of_symbol):
            try:
                return find(color)
            except KeyError:
                continue
    names = ", ".join(c.name for c in palette.colors[1:])
    raise InvalidPuzzleError(f"{where}: colour {color!r} is not in the palette ({names})")
