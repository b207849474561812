"""Backbones: which cells are the same in every solution of a puzzle, and which colours the others may take.

For each cell the exact set of colours it has in *some* solution ("possible colours"). A cell with one
possible colour is in the backbone (a designer need not touch it); a cell with several is ambiguous
(the designer must change a clue around it). A puzzle with no solution has no possible colours at all.

Method (engines used as black boxes through their public interface):
1. Ask for two solutions. Every colour a solution shows in a cell is possible there.
2. For every cell, ask the engine for a solution in which that cell takes a colour not yet known to be
   possible there (`SolveOptions.fixed = {(r, c): mask}`: cell (r, c) restricted to the
   colours in the bit mask). A solution found is a witness: it makes its colour possible in *every*
   cell, so one query usually settles many cells. "No solution" proves the remaining colours impossible.
   The number of queries is about (backbone cells) + (witnesses found), instead of cells x colours.

An optional sound superset (`upper`, e.g. the native engine's propagation + probing fixpoint, see
`native_upper_bound`) skips queries for colours it has already ruled out. The result is exact when no
query timed out (`exact`).

A second, independent computation for cross-checking: `native_backbone` runs the native engine's
all-remaining-cells step (exhaustive enumeration of the residue after propagation and probing; feasible
when the puzzle has few solutions). Two exact methods must give the same masks (`compare_backbones`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from nonocp.core.errors import NonocpError
from nonocp.core.grid import Domains, Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import Status
from nonocp.core.verify import verify
from nonocp.engines import QUERY_BACKEND, SolveOptions, get_backend


class BackboneError(NonocpError):
    """The engine answered something a backbone cannot be built on (a wrong witness, an ignored option)."""


@dataclass(frozen=True)
class Backbone:
    """Per cell (row-major), the colours it takes in some solution: `possible[r * width + c]` is a bit mask.

    `open_` holds colours neither proven possible nor impossible (all zero when `exact`).
    """

    width: int
    height: int
    ncolors: int
    status: str  # "unique", "multiple" or "none" (or "timeout" when even the first solve ran out)
    possible: tuple[int, ...]
    open_: tuple[int, ...]
    queries: int = 0
    witnesses: int = 0
    seconds: float = 0.0

    @property
    def exact(self) -> bool:
        return not any(self.open_)

    def mask(self, r: int, c: int) -> int:
        return self.possible[r * self.width + c]

    def colours(self, r: int, c: int) -> tuple[int, ...]:
        m = self.mask(r, c)
        return tuple(k for k in range(self.ncolors) if m >> k & 1)

    def fixed_colour(self, r: int, c: int) -> int | None:
        """The cell's colour in every solution, or None when it varies (or is unknown / no solution)."""
        i = r * self.width + c
        m = self.possible[i]
        if self.open_[i] or m == 0 or m & (m - 1):
            return None
        return m.bit_length() - 1

    def is_ambiguous(self, r: int, c: int) -> bool:
        m = self.mask(r, c)
        return bool(m & (m - 1))

    def cells(self) -> Iterator[tuple[int, int]]:
        for r in range(self.height):
            for c in range(self.width):
                yield r, c

    @property
    def ambiguous(self) -> tuple[tuple[int, int], ...]:
        return tuple(rc for rc in self.cells() if self.is_ambiguous(*rc))

    @property
    def fixed(self) -> dict[tuple[int, int], int]:
        out: dict[tuple[int, int], int] = {}
        for r, c in self.cells():
            k = self.fixed_colour(r, c)
            if k is not None:
                out[(r, c)] = k
        return out

    def to_domains(self) -> Domains:
        """The possible colours as a partial grid (what renderers of partial grids take)."""
        return Domains(self.width, self.height, self.ncolors, list(self.possible))

    def display_grid(self) -> Grid:
        """A Grid for the renderers: fixed cells in their colour, every other cell background (0).

        Render it with `marked=self.ambiguous` so that ambiguous cells are flagged, e.g.
        `render_text(puzzle, bb.display_grid(), bb.ambiguous)`.
        """
        return Grid(
            tuple(
                tuple(k if (k := self.fixed_colour(r, c)) is not None else 0 for c in range(self.width))
                for r in range(self.height)
            )
        )

    def to_json(self, puzzle: Puzzle) -> dict:
        """For `--format json`: rows in the goal alphabet with `?` for cells that differ between solutions,
        and for each such cell the symbols it can take. With no solution there is no grid: rows is null."""
        symbols = [c.symbol for c in puzzle.palette.colors]
        rows = None if self.status == "none" else [
            "".join(symbols[k] if (k := self.fixed_colour(r, c)) is not None else "?" for c in range(self.width))
            for r in range(self.height)
        ]
        return {
            "status": self.status,
            "exact": self.exact,
            "fixed_cells": len(self.fixed),
            "ambiguous_cells": len(self.ambiguous),
            "rows": rows,
            "ambiguous": [
                {"row": r, "col": c, "colors": [symbols[k] for k in self.colours(r, c)]} for r, c in self.ambiguous
            ],
            "queries": self.queries,
            "seconds": round(self.seconds, 3),
        }

    def to_rows(self) -> list[list[list[int]]]:
        """JSON-friendly: rows of cells, each the sorted list of its possible colour indices."""
        return [[list(self.colours(r, c)) for c in range(self.width)] for r in range(self.height)]


Solver = Callable[[Puzzle, SolveOptions], object]


def _solver(backend: str | object) -> Solver:
    engine = get_backend(backend) if isinstance(backend, str) else backend
    return engine.solve  # type: ignore[attr-defined,return-value]


def _absorb(possible: list[int], grid: Grid, width: int) -> None:
    for r, row in enumerate(grid.cells):
        base = r * width
        for c, v in enumerate(row):
            possible[base + c] |= 1 << v


def compute_backbone(
    puzzle: Puzzle,
    backend: str | object = QUERY_BACKEND,
    *,
    time_limit: float | None = None,
    upper: Domains | None = None,
    seed: int | None = None,
    cpu_limit: float | None = None,
) -> Backbone:
    """The exact possible colours of every cell of `puzzle`, found by queries to `backend`.

    `backend` is a registry name or a Backend object; it must honour `SolveOptions.fixed`. `time_limit`
    bounds the whole computation (each query gets what is left); `cpu_limit` (CPU seconds of this process and
    its children) stops asking further queries once spent; colours not decided in time stay in `open_`.
    `upper`, if given, must be sound (a superset of the true possible colours).
    """
    start = time.perf_counter()
    cpu_end = None if cpu_limit is None else _cpu_seconds() + cpu_limit
    deadline = None if time_limit is None else time.monotonic() + time_limit
    solve = _solver(backend)
    w, h = puzzle.width, puzzle.height
    n = len(puzzle.palette)
    full = (1 << n) - 1

    def run(max_solutions: int, fixed: dict[tuple[int, int], int] | None = None):
        left = None if deadline is None else max(0.01, deadline - time.monotonic())
        if cpu_end is not None:  # one query must not run past the CPU budget: its time, at least its CPU, is capped
            cpu_left = max(0.01, cpu_end - _cpu_seconds())
            left = cpu_left if left is None else min(left, cpu_left)
        options = SolveOptions(max_solutions=max_solutions, time_limit=left, seed=seed, fixed=fixed)
        result = solve(puzzle, options)
        for g in result.solutions:  # type: ignore[attr-defined]
            check = verify(puzzle, g)
            if not check.ok:
                raise BackboneError(f"the engine returned a grid that is not a solution: {check.summary()}")
            for (r, c), allowed in (fixed or {}).items():
                if not allowed >> g.cells[r][c] & 1:
                    raise BackboneError(
                        f"the engine ignored SolveOptions.fixed at cell ({r + 1},{c + 1}); it cannot compute backbones"
                    )
        return result

    first = run(2)
    possible = [0] * (w * h)
    for g in first.solutions:  # type: ignore[attr-defined]
        _absorb(possible, g, w)
    status = first.status.value  # type: ignore[attr-defined]
    if status not in (Status.UNIQUE.value, Status.MULTIPLE.value):
        # none: nothing is possible anywhere; timeout: nothing is known
        open_ = [0] * (w * h) if status == Status.NONE.value else [full & ~m for m in possible]
        return Backbone(w, h, n, status, tuple(possible), tuple(open_), 1, 0, time.perf_counter() - start)
    if status == Status.UNIQUE.value:
        return Backbone(w, h, n, status, tuple(possible), (0,) * (w * h), 1, 0, time.perf_counter() - start)

    # Colours still to decide: everything not yet seen, minus what a sound superset already excludes.
    candidates = [full & ~m for m in possible]
    if upper is not None:
        candidates = [cand & upper.masks[i] for i, cand in enumerate(candidates)]
    open_ = [0] * (w * h)
    queries, witnesses = 1, 0
    for i in range(w * h):
        spent = cpu_end is not None and _cpu_seconds() >= cpu_end
        if spent or (deadline is not None and time.monotonic() >= deadline):
            open_[i] = candidates[i]  # out of time: what is not yet seen stays undecided
            continue
        while candidates[i] & ~possible[i]:
            ask = candidates[i] & ~possible[i]
            r, c = divmod(i, w)
            result = run(1, {(r, c): ask})
            queries += 1
            if result.solutions:  # type: ignore[attr-defined]
                witnesses += 1
                _absorb(possible, result.solutions[0], w)  # type: ignore[attr-defined]
            elif result.status.value == Status.NONE.value:  # type: ignore[attr-defined]
                candidates[i] &= possible[i]
            else:  # timeout: undecided, move on
                open_[i] = ask
                break
    open_ = [o & ~p for o, p in zip(open_, possible, strict=True)]
    return Backbone(w, h, n, status, tuple(possible), tuple(open_), queries, witnesses, time.perf_counter() - start)


def find_backbone(
    puzzle: Puzzle, backend: str | object = QUERY_BACKEND, *, time_limit: float | None = None, seed: int | None = None,
    cpu_limit: float | None = None,
) -> Backbone:
    """What `nonocp solve --backbone` calls: queries to `backend`, pruned first by the native fixpoint.

    The native propagation + probing fixpoint is sound, so using it as `upper` changes no answer, only
    the number of queries (217 -> 1 on picross-solver's Two Cakes). `time_limit` bounds the whole run;
    `cpu_limit` the CPU seconds spent asking queries (compute_backbone).
    """
    deadline = None if time_limit is None else time.monotonic() + time_limit
    upper = native_upper_bound(puzzle, deadline)
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    return compute_backbone(puzzle, backend, time_limit=left, upper=upper, seed=seed, cpu_limit=cpu_limit)


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (engines may solve in a forked child)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def backbone_from_solutions(puzzle: Puzzle, solutions: list[Grid] | tuple[Grid, ...], status: str) -> Backbone:
    """The backbone of a complete list of solutions (from an exhaustive enumeration): exact by definition."""
    w, h = puzzle.width, puzzle.height
    possible = [0] * (w * h)
    for g in solutions:
        _absorb(possible, g, w)
    return backbone_from_union(puzzle, possible, status)


def backbone_from_union(puzzle: Puzzle, possible: Sequence[int], status: str) -> Backbone:
    """The exact backbone from the union of every solution's colours per cell (row-major bit masks, as an
    enumeration streaming its solutions gathers them)."""
    w, h = puzzle.width, puzzle.height
    return Backbone(w, h, len(puzzle.palette), status, tuple(possible), (0,) * (w * h))


def compare_backbones(a: Backbone, b: Backbone) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    """Cells where two exact backbones differ: (row, col, colours in a, colours in b). Empty = they agree."""
    if (a.width, a.height) != (b.width, b.height):
        raise ValueError("backbones of different sizes")
    return [(r, c, a.colours(r, c), b.colours(r, c)) for r, c in a.cells() if a.mask(r, c) != b.mask(r, c)]


def native_upper_bound(puzzle: Puzzle, deadline: float | None = None) -> Domains | None:
    """The native engine's propagation + probing fixpoint: a sound superset of the possible colours.

    None when the native engine is not installed, when it proves the puzzle has no solution, or when
    `deadline` (a time.monotonic() value) passes first.
    """
    try:
        from nonocp.core.errors import OutOfTime
        from nonocp.engines.native import propagate_and_probe
    except ImportError:
        return None
    try:
        masks, contradiction, _ = propagate_and_probe(puzzle, deadline)
    except OutOfTime:
        return None
    if contradiction:
        return None
    return Domains(puzzle.width, puzzle.height, len(puzzle.palette), list(masks))


def native_backbone(puzzle: Puzzle, deadline: float | None = None) -> Backbone | None:
    """The possible colours by the native engine's all-remaining-cells step (exhaustive; few solutions only).

    None when the native engine is not installed or the deadline passes.
    """
    start = time.perf_counter()
    try:
        from nonocp.core.errors import OutOfTime
        from nonocp.engines.native import possible_colours
    except ImportError:
        return None
    w, h, n = puzzle.width, puzzle.height, len(puzzle.palette)
    try:
        union = possible_colours(puzzle, deadline)
    except OutOfTime:
        return None
    seconds = time.perf_counter() - start
    if union is None:
        return Backbone(w, h, n, Status.NONE.value, (0,) * (w * h), (0,) * (w * h), seconds=seconds)
    possible = tuple(union)
    ambiguous = any(m & (m - 1) for m in possible)
    status = Status.MULTIPLE.value if ambiguous else Status.UNIQUE.value
    return Backbone(w, h, n, status, possible, (0,) * (w * h), seconds=seconds)
