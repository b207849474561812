"""make_unique: a few cell changes after which a picture's clues have exactly one solution.

The method (see also moves.py):

1. Ask the search engine for other solutions of the current picture's clues and split each into atomic
   moves (line-disjoint groups of repainted cells). Moves found in earlier rounds are kept: any that is
   still valid at the current picture is a known second solution, found without an engine.
2. Candidate changes are the cells of the lines the valid moves touch, each repainted with every other
   colour (a change elsewhere cannot stop a move). For each candidate, which moves it stops is decided
   exactly by recomputing the clues of the lines those moves touch.
3. Choose the cheapest set of candidates that stops every valid move (a weighted set cover, exact within
   a node budget; cover.py). A change costs 1 plus a hundredth of how sure the picture is of the cell, so
   that the number of changes comes first and the picture's own doubt breaks ties; putting a changed cell
   back costs (almost) nothing. Apply it, and repeat from 1 until the engine finds no other solution.
   Changes only ever move away from the picture here (nothing is put back), so the search cannot
   circle. On pictures so ambiguous that new moves keep appearing as fast as old ones are stopped (random
   dots), after `patience` rounds the line-logic greedy below takes over until the engine finds the
   picture unique: it always gets there, since a picture line logic solves is unique.
4. Minimise: try putting each changed cell back (surest first); keep it back when the picture stays
   unique (and within the difficulty asked). No listed change is then redundant on its own.
5. Prove the result unique with two independent engines (native and sat).

With `max_difficulty` LINE (or PROBE), the goal becomes "line logic (and probing) alone solves it":
greedily, the change that leaves the fewest cells undecided at the logic fixpoint, among the cells the
fixpoint leaves open, until none is; then the same minimisation. It runs twice, from the unique picture
of steps 1-4 and from the picture itself, and the shorter result wins.

How close this gets to the fewest changes is measured against `fewest_changes` (exact.py) in
benchmarks/results/design.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nonocp.core.errors import OutOfTime
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.design.checks import (
    PROOF_ENGINES,
    SEARCH_ENGINE,
    Counter,
    Proof,
    alternatives,
    fixpoint,
    prove_unique,
    puzzle_of,
    run_solve,
)
from nonocp.design.cover import near_covers
from nonocp.design.model import Change, Design, changes_between, to_lists
from nonocp.design.moves import Cells, Move, is_valid, kills, line_cells, move_between, split_move, touched_lines

DIFFICULTIES = ("LINE", "PROBE", "BRANCH")
RECOLOUR_COST = 0.001  # repainting a cell already changed takes the picture no farther: (almost) free


@dataclass(frozen=True)
class UniqueResult:
    """What make_unique proposes.

    `status`: `unique` (proven by every engine in `proofs`), `already-unique` (no change was needed; also
    proven), `timeout` (the limit ran out: `design` is the last picture tried, not unique).
    `changes` lists every cell in which `design` differs from `original`, and nothing else.
    """

    original: Design
    design: Design
    changes: tuple[Change, ...]
    status: str
    proofs: tuple[Proof, ...] = ()
    difficulty: str | None = None  # the rating of the result (LINE / PROBE / BRANCH) when asked for
    rating: Any = None  # the full nonocp.analysis.rate.Rating behind `difficulty`
    max_difficulty: str | None = None
    rounds: int = 0
    engine_calls: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def unique(self) -> bool:
        return self.status in ("unique", "already-unique")

    def puzzle(self) -> Puzzle:
        return self.design.puzzle()

    def as_dict(self) -> dict[str, Any]:
        palette = self.design.palette
        return {
            "status": self.status,
            "changes": [c.as_dict(palette) for c in self.changes],
            "proofs": [p.as_dict() for p in self.proofs],
            "difficulty": self.difficulty,
            "rating": None if self.rating is None else self.rating.as_dict(),
            "max_difficulty": self.max_difficulty,
            "rounds": self.rounds,
            "engine_calls": self.engine_calls,
            "seconds": round(self.seconds, 3),
            "goal": self.design.grid.to_strings(palette),
        }


Progress = Callable[[dict[str, Any]], None]


def disjoint_count(x: Cells, moves: list[Move]) -> int:
    """How many of `moves` have pairwise disjoint line cells (greedy): each needs a change of its own."""
    taken: set[tuple[int, int]] = set()
    count = 0
    for cells in sorted((set(line_cells(x, m)) for m in moves), key=len):
        if not cells & taken:
            count += 1
            taken |= cells
    return count


class _Search:
    """The working state of one make_unique run."""

    def __init__(self, design: Design, deadline: float | None, engine: str, progress: Progress | None,
                 tries: int = 24) -> None:
        self.design = design
        self.palette = design.palette
        self.kind = design.clue_kind
        self.goal = to_lists(design.grid)
        self.x = to_lists(design.grid)
        self.deadline = deadline
        self.engine = engine
        self.progress = progress
        self.pool: list[Move] = []
        self.counter = Counter()
        self.rounds = 0
        self.ncolors = len(design.palette)
        self.tries = tries

    # --- costs ------------------------------------------------------------------------------------

    def change_cost(self, r: int, c: int, v: int) -> float:
        if v == self.goal[r][c] or self.x[r][c] != self.goal[r][c]:
            return RECOLOUR_COST  # back to the picture, or another colour in a changed cell: no farther
        return self.design.cost(r, c)

    def changed(self) -> list[tuple[int, int]]:
        return [(r, c) for r, row in enumerate(self.x) for c, v in enumerate(row) if v != self.goal[r][c]]

    def report(self, stage: str, **extra: Any) -> None:
        if self.progress is not None:
            self.progress({"stage": stage, "round": self.rounds, "changes": len(self.changed()), **extra})

    # --- uniqueness -------------------------------------------------------------------------------

    def is_unique(self, x: Cells | None = None) -> bool:
        """Whether `x` (the current picture by default) is the only solution of its clues. A move of the
        pool still valid at `x` answers no at once; otherwise the engine decides, and the other solution
        it finds joins the pool as moves (minimise puts cells back one by one, and a cell put back mostly
        revives a move stopped before: the pool answers most of those without a search)."""
        x = x or self.x
        if any(is_valid(x, m) for m in self.pool):
            return False
        puzzle = puzzle_of(x, self.palette, kind=self.kind)
        solutions = run_solve(puzzle, self.engine, 2, self.deadline, counter=self.counter).solutions
        others = [y for y in (to_lists(g) for g in solutions) if y != x]
        for y in others:
            self.pool += split_move(move_between(x, y), self.kind)
        return not others

    def valid_moves(self) -> list[Move]:
        return [m for m in self.pool if is_valid(self.x, m)]

    def fix_unique(self, max_rounds: int, patience: int, sample: int) -> None:
        while True:
            valid = self.valid_moves()
            if not valid:
                found = alternatives(self.x, self.palette, self.deadline, engine=self.engine, counter=self.counter,
                                     kind=self.kind)
                if found is None:
                    return
                self.pool += found
                valid = [m for m in found if is_valid(self.x, m)]
                if not valid:  # cannot happen: every move an engine solution gives is valid where found
                    raise AssertionError("alternative solutions gave no valid move")
            self.rounds += 1
            if self.rounds > patience:
                # Each round's changes stop the moves known, and new ones keep appearing (a picture of
                # scattered dots has hundreds): steer by line logic instead, which converges.
                self.fix_logic(False, max_rounds, sample, until_unique=True)
                return
            self.report("unique", moves=len(valid))
            best: tuple[float, int, list[tuple[int, int, int]]] | None = None
            for k, (cost, changes) in enumerate(self.options(valid)):
                remaining = self.try_changes(changes)
                if remaining == 0:  # unique: take it
                    best = (cost, k, changes)
                    break
                key = (cost + remaining, k, changes)
                if best is None or key < best:
                    best = key
            assert best is not None
            for r, c, v in best[2]:
                self.x[r][c] = v

    def try_changes(self, changes: list[tuple[int, int, int]]) -> int:
        """Apply `changes` tentatively: 0 when the picture is then unique, else a lower bound on the
        further changes it needs (moves whose lines share no cell each need their own); moves found on
        the way join the pool."""
        old = [(r, c, self.x[r][c]) for r, c, _ in changes]
        for r, c, v in changes:
            self.x[r][c] = v
        try:
            valid = self.valid_moves()
            if not valid:
                found = alternatives(self.x, self.palette, self.deadline, engine=self.engine, batch=4, queries=0,
                                     counter=self.counter, kind=self.kind)
                if found is None:
                    return 0
                self.pool += found
                valid = found
            return disjoint_count(self.x, valid)
        finally:
            for r, c, v in reversed(old):
                self.x[r][c] = v

    def options(self, valid: list[Move]) -> list[tuple[float, list[tuple[int, int, int]]]]:
        """The cheapest sets of changes that stop every move in `valid` (each stop decided exactly),
        cheapest first, as (cost, changes)."""
        lines = [touched_lines(self.x, m) for m in valid]
        h, w = len(self.x), len(self.x[0])
        cells: set[tuple[int, int]] = set()
        for rows, cols in lines:
            cells |= {(r, c) for r in rows for c in range(w)}
            cells |= {(r, c) for c in cols for r in range(h)}
        sets: dict[tuple[int, int, int], tuple[float, frozenset]] = {}
        for r, c in sorted(cells):
            for v in range(self.ncolors):
                # no putting back while fixing: the search only moves away from the picture, so it cannot
                # go round in circles (stop A, revive B, stop B, revive A...); minimise() puts back later
                if v == self.x[r][c] or v == self.goal[r][c]:
                    continue
                stopped = frozenset(
                    i for i, m in enumerate(valid)
                    if (r in lines[i][0] or c in lines[i][1]) and kills(self.x, (r, c), v, m)
                )
                if stopped:
                    sets[(r, c, v)] = (self.change_cost(r, c, v), stopped)
        out = []
        for cover in near_covers(range(len(valid)), sets, slack=0.5, limit=self.tries):
            changes, seen = [], set()
            for r, c, v in cover.chosen:
                if (r, c) not in seen:  # one colour per cell
                    seen.add((r, c))
                    changes.append((r, c, v))
            out.append((cover.cost, changes))
        return out

    # --- logic ------------------------------------------------------------------------------------

    def open_cells(self, x: Cells, probe: bool) -> list[tuple[int, int]] | None:
        masks = fixpoint(puzzle_of(x, self.palette, kind=self.kind), probe, self.deadline, self.counter)
        if masks is None:  # cannot happen for a picture's own clues
            raise AssertionError("a picture's clues contradict themselves")
        w = len(x[0])
        return [divmod(i, w) for i, m in enumerate(masks) if m & (m - 1)]

    def fix_logic(self, probe: bool, max_rounds: int, sample: int, until_unique: bool = False) -> None:
        """Greedy: the change leaving the fewest cells open at the logic fixpoint, until none is open
        (or, with `until_unique`, until the engine finds the picture unique). A cell is changed once at
        most, so this ends."""
        tried: set[tuple[int, int]] = set()
        while True:
            if until_unique and self.is_unique():
                return
            open_now = self.open_cells(self.x, probe)
            if not open_now:
                return
            self.rounds += 1
            if self.rounds > max_rounds:
                raise OutOfTime(f"line logic does not solve the picture within {max_rounds} changes")
            self.report("logic", open=len(open_now))
            candidates = [rc for rc in open_now if rc not in tried] or open_now
            candidates = self.spread(candidates, sample)
            best: tuple[int, float, tuple[int, int, int]] | None = None
            for r, c in candidates:
                old = self.x[r][c]
                for v in range(self.ncolors):
                    if v == old:
                        continue
                    self.x[r][c] = v
                    left = len(self.open_cells(self.x, probe) or [])
                    self.x[r][c] = old
                    key = (left, self.change_cost(r, c, v), (r, c, v))
                    if best is None or key < best:
                        best = key
            assert best is not None
            r, c, v = best[2]
            tried.add((r, c))
            self.x[r][c] = v

    @staticmethod
    def spread(cells: list[tuple[int, int]], sample: int) -> list[tuple[int, int]]:
        """At most `sample` of `cells`, evenly spread (every k-th), so that big pictures stay quick."""
        if len(cells) <= sample:
            return cells
        step = len(cells) / sample
        return [cells[int(i * step)] for i in range(sample)]

    # --- minimisation -----------------------------------------------------------------------------

    def acceptable(self, x: Cells, level: str | None) -> bool:
        if level in ("LINE", "PROBE"):
            return not self.open_cells(x, level == "PROBE")
        return self.is_unique(x)

    def minimise(self, level: str | None) -> None:
        """Put changed cells back, surest first, while the picture stays acceptable."""
        improved = True
        while improved:
            improved = False
            order = sorted(self.changed(), key=lambda rc: -self.design.cost(*rc))
            for r, c in order:
                now = self.x[r][c]
                self.x[r][c] = self.goal[r][c]
                if self.acceptable(self.x, level):
                    improved = True
                    self.report("minimise")
                else:
                    self.x[r][c] = now


def make_unique(
    design: Design,
    *,
    max_difficulty: str | None = None,
    time_limit: float | None = None,
    engine: str = SEARCH_ENGINE,
    proof_engines: tuple[str, ...] = PROOF_ENGINES,
    rate_result: bool = True,
    max_rounds: int | None = None,
    sample: int = 120,
    tries: int = 24,
    patience: int = 10,
    progress: Progress | None = None,
) -> UniqueResult:
    """Repaint as few cells of `design` as it can find so that its clues have exactly one solution.

    `max_difficulty`: None or BRANCH (unique is enough), PROBE (line logic and probing solve it without
    guessing) or LINE (line logic alone solves it). `time_limit` bounds the whole run (status `timeout`
    with the last picture tried when it runs out). `engine` finds the other solutions; every engine in
    `proof_engines` must then prove the result unique (EnginesDisagree otherwise). `rate_result` adds the
    result's difficulty (nonocp.analysis.rate). `sample` bounds the cells tried per step of the logic
    fixer on big pictures; `tries` how many equally short sets of changes a round tries with the engine
    before it settles for the one that leaves the least to fix; after `patience` rounds without a
    unique picture the line-logic greedy takes over. `progress`, if given, receives small dicts.
    """
    level = None if max_difficulty is None else max_difficulty.upper()
    if level is not None and level not in DIFFICULTIES:
        raise ValueError(f"max_difficulty must be one of {', '.join(DIFFICULTIES)}, not {max_difficulty!r}")
    asked = level
    if level == "BRANCH":
        level = None
    start = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    cells = design.width * design.height
    rounds = max_rounds if max_rounds is not None else 2 * cells + 10
    searches = [_Search(design, deadline, engine, progress, tries)]
    status = "unique"
    try:
        searches[0].fix_unique(rounds, patience, sample)
        if level is not None:
            # Two starts, the shorter result wins: logic from the unique picture (few changes when the
            # fix for uniqueness already helps logic), and logic from the picture itself (often fewer in
            # all, since the greedy then chooses every change for what logic needs).
            searches[0].fix_logic(level == "PROBE", rounds, sample)
            searches.append(_Search(design, deadline, engine, progress, tries))
            searches[1].fix_logic(level == "PROBE", rounds, sample)
        for search in searches:
            if search.changed():
                search.minimise(level)
        search = min(searches, key=lambda s: (len(s.changed()), sum(design.cost(*rc) for rc in s.changed())))
        if not search.changed():
            status = "already-unique"
        final = Grid.from_rows(search.x)
        proofs = prove_unique(final, design.palette, deadline, proof_engines, design.clue_kind)
    except OutOfTime:
        search = searches[-1]
        final = Grid.from_rows(search.x)
        return UniqueResult(design, design.with_grid(final), changes_between(design.grid, final), "timeout",
                            max_difficulty=asked, rounds=sum(s.rounds for s in searches),
                            engine_calls=sum(s.counter.solves + s.counter.propagations for s in searches),
                            seconds=time.perf_counter() - start)
    result_design = design.with_grid(final)
    rating = None
    if rate_result:
        from nonocp.analysis.rate import rate
        from nonocp.design.report import RATING_STEPS

        # the report's budget of work: on a big picture that needs guessing the walk runs for minutes
        rest = None if deadline is None else max(0.1, deadline - time.monotonic())
        rating = rate(result_design.puzzle(), rest, max_steps=RATING_STEPS)
    return UniqueResult(
        design, result_design, changes_between(design.grid, final), status, proofs,
        None if rating is None else rating.verdict, rating, asked, sum(s.rounds for s in searches),
        sum(s.counter.solves + s.counter.propagations for s in searches), time.perf_counter() - start,
    )
