"""The native engine's solving as steps a person can follow (for `nonocp explain` and `nonocp rate`).

`explain(puzzle)` drives the native engine (propagation, probing, then guessing with backtracking when
those stall) with its trace switched on, and turns every recorded deduction into a `Step`: which line or
cell, which technique, which candidate colours it removed, which cells it decided. Applying the steps'
`changes` in order to an empty grid (every colour possible everywhere) replays the solving and ends on
the first solution of the engine's probing depth-first search, `native:dfs` (or on the contradiction that
proves there is none). It follows that search, not the default CDCL one, because every step of the DFS is
a probe or a guess a person can check, while a learned clause is not.

Techniques (`Step.kind` / `Step.technique`):

* `line`: the exact line solver narrowed one row or column, using that line alone. The technique says
  what is *enough* to see it (the simplest rule whose deductions include the step's):
  `empty` (the clue is 0: every cell is background), `crossing` (a colour absent from this line's clue is
  ruled out in cells where the crossing lines still allowed it), `overlap` (block overlap: the leftmost
  and rightmost placements of each block overlap, or leave cells out of every block's reach),
  `enumeration` (only the full enumeration of the clue's placements on the line finds it).
* `probe-contradiction`: assuming colour `color` in `cell` and propagating line logic runs into a line
  with no valid placement (`contradiction_line`, after `chain` line deductions), so the colour is removed.
* `probe-agreement`: every colour left in `cell` leads (after propagation) to states that agree on the
  changed cells, so those hold whatever the cell is.
* `guess`: probing is stuck; the engine's search assumes `color` in `cell` (nesting `depth` + 1).
* `contradiction`: under the current guesses, `line` has no valid placement left.
* `backtrack`: the guess of step `returns_to` was wrong: the grid goes back to how it was before that
  guess, with the guessed colour removed from the cell (changes may widen candidates here).
* `all-remaining-cells`: when a stalled grid has few candidates left (their product at most
  `SMALL_RESIDUE`), all undecided cells are considered together, exhaustively: the step keeps what every
  completion shares (`solutions` completions; 0 proves there is none, 1 finishes the grid); with several,
  guesses then pick the completion the engine's own search reaches first.

JSON schema (`explanation_json`, what `nonocp explain --format json` prints), version `nonocp-explain/1`:

    {"format": "nonocp-explain/1",
     "puzzle": {"title", "width", "height", "colors": {symbol: "#rrggbb"}},  # colours in palette order
     "outcome": "solved" | "no-solution" | "truncated" | "timeout",
     "status": "unique" | "multiple" | "none" | null,   # null when truncated or timed out
     "solution": [row strings in the goal alphabet] | null,
     "counts": {"steps", "line", "probes", "guesses", "backtracks", "all_remaining_cells", "max_depth",
                "techniques": {technique: steps}},
     "steps": [{"n": 1-based step number, "kind", "technique", "depth": guesses in force,
                "line": {"kind": "row"|"col", "index": 0-based} | null,
                "cell": [row, col] | null, "color": symbol | null,
                "changes": [[row, col, candidates], ...],  # candidates: symbols still possible, palette order
                "decided": [[row, col, symbol], ...],      # cells this step left with one colour
                "removed": candidates removed (count), "unknown": undecided cells after the step,
                "text": one sentence for people,
                and, for some kinds: "contradiction_line" and "chain" (probe-contradiction),
                "returns_to" (backtrack), "solutions" and "residue" (all-remaining-cells: how many
                completions, and how many undecided cells were taken together)}]}

Rows and columns are 0-based in data and 1-based in `text` (r3c4 is row 3, column 4).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from nonocp.analysis import count_techniques
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import Status
from nonocp.engines.native.engine import Engine, Timeout, TraceStep
from nonocp.engines.native.search import enumerate_solutions

SCHEMA = "nonocp-explain/1"

# A stalled grid whose undecided cells have at most this many combinations of candidates is finished by
# one all-remaining-cells step instead of guesses (enumerating so few is instant and reads better).
SMALL_RESIDUE = 64

LINE_TECHNIQUES = ("empty", "crossing", "overlap", "enumeration")
KINDS = ("line", "probe-contradiction", "probe-agreement", "guess", "contradiction", "backtrack",
         "all-remaining-cells")

Change = tuple[int, int, int]  # (row, col, new candidate mask; bit k = palette index k)


@dataclass(frozen=True)
class Step:
    n: int
    kind: str
    technique: str
    depth: int
    changes: tuple[Change, ...]
    old: tuple[int, ...] = ()  # the masks of the changed cells before the step (same order as changes)
    line: tuple[str, int] | None = None
    cell: tuple[int, int] | None = None
    color: int | None = None
    unknown: int = 0
    returns_to: int | None = None
    contradiction_line: tuple[str, int] | None = None
    chain: int | None = None
    solutions: int | None = None
    residue: int | None = None  # all-remaining-cells: how many undecided cells it took together
    text: str = ""

    @property
    def removed(self) -> int:
        """Candidates removed by the step (a backtrack may give some back; those do not count)."""
        return sum(bin(o & ~m).count("1") for (_, _, m), o in zip(self.changes, self.old, strict=True))

    @property
    def decided(self) -> tuple[tuple[int, int, int], ...]:
        """(row, col, colour) of the cells this step left with exactly one colour."""
        return tuple(
            (r, c, m.bit_length() - 1)
            for (r, c, m), o in zip(self.changes, self.old, strict=True)
            if m and not m & (m - 1) and o != m
        )


@dataclass
class Explanation:
    puzzle: Puzzle
    steps: list[Step]
    outcome: str  # solved | no-solution | truncated | timeout
    status: Status | None  # UNIQUE / MULTIPLE / NONE; None when truncated or timed out
    solution: Grid | None
    masks: list[int]  # the replayed grid at the end (Domains masks)
    seconds: float = 0.0
    engine_stats: dict[str, Any] = field(default_factory=dict)

    def count(self, kind: str) -> int:
        return sum(1 for s in self.steps if s.kind == kind)

    @property
    def counts(self) -> dict[str, Any]:
        techniques: dict[str, int] = {}
        for s in self.steps:
            techniques[s.technique] = techniques.get(s.technique, 0) + 1
        return {
            "steps": len(self.steps),
            "line": self.count("line"),
            "probes": self.count("probe-contradiction") + self.count("probe-agreement"),
            "guesses": self.count("guess"),
            "backtracks": self.count("backtrack"),
            "all_remaining_cells": self.count("all-remaining-cells"),
            "max_depth": max((s.depth for s in self.steps), default=0),
            "techniques": techniques,
        }


class _Enough(Exception):
    """The step limit was reached."""


# ----------------------------------------------------------------------------- line techniques


def valid_starts(blocks: Sequence[tuple[int, int]], n: int, masks: Sequence[int]) -> list[list[int]] | None:
    """Per block, the starts s at which some complete valid placement of the clue puts that block.

    `masks` are the line's cells in Domains bits (bit k = colour k). Plain lists, written for clarity:
    it runs only when explaining, once per line step. None when the line has no valid placement.
    """
    fwd = _prefix_starts(blocks, n, masks)
    bwd = _prefix_starts(tuple(reversed(blocks)), n, list(reversed(masks)))
    if fwd is None or bwd is None:
        return None
    k = len(blocks)
    out = []
    for j, (length, _) in enumerate(blocks):
        mirror = bwd[k - 1 - j]
        starts = [s for s in fwd[j] if (n - s - length) in mirror]
        if not starts:
            return None
        out.append(starts)
    return out


def _prefix_starts(blocks, n, masks) -> list[set[int]] | None:
    """Per block j, the starts where blocks 0..j fit validly in the cells up to the block's end."""
    bg = [bool(m & 1) for m in masks]
    # run[c][i]: how many cells from i on may be colour c (to test a block fit in O(1))
    runs: dict[int, list[int]] = {}

    def run_of(color: int) -> list[int]:
        if color not in runs:
            r = [0] * (n + 1)
            for i in range(n - 1, -1, -1):
                r[i] = r[i + 1] + 1 if (masks[i] >> color) & 1 else 0
            runs[color] = r
        return runs[color]

    reach = [False] * (n + 1)  # the next block may start at p
    reach[0] = True
    for p in range(1, n + 1):
        reach[p] = reach[p - 1] and bg[p - 1]
    out: list[set[int]] = []
    for j, (length, color) in enumerate(blocks):
        run = run_of(color)
        starts = {s for s in range(n - length + 1) if reach[s] and run[s] >= length}
        if not starts:
            return None
        out.append(starts)
        same_next = j + 1 < len(blocks) and blocks[j + 1][1] == color
        end = [False] * (n + 1)
        for s in starts:
            end[s + length] = True
        reach = [False] * (n + 1)
        for p in range(n + 1):
            # right after the block (unless the next block has the same colour: a gap is compulsory),
            # or after more background cells
            reach[p] = (end[p] and not same_next) or (p > 0 and bg[p - 1] and (end[p - 1] or reach[p - 1]))
    if not reach[n]:
        return None
    return out


def _crossing_rule(blocks, masks: Sequence[int]) -> list[int]:
    """Remove the colours absent from the clue (they can only have come from the crossing lines)."""
    keep = 1 | sum(1 << c for c in {c for _, c in blocks})
    return [m & keep for m in masks]


def _overlap_rule(blocks, n: int, masks: Sequence[int]) -> list[int] | None:
    """Leftmost/rightmost placements: cells every placement of a block covers take its colour; a colour
    stays only in cells some block of that colour can reach."""
    starts = valid_starts(blocks, n, masks)
    if starts is None:
        return None
    reach: dict[int, int] = {}
    forced: dict[int, int] = {}
    for (length, color), ss in zip(blocks, starts, strict=True):
        lo, hi = min(ss), max(ss)
        for i in range(lo, hi + length):
            reach[i] = reach.get(i, 1) | (1 << color)
        for i in range(hi, lo + length):
            forced[i] = 1 << color
    return [m & forced.get(i, reach.get(i, 1)) for i, m in enumerate(masks)]


def line_technique(blocks, n: int, before: Sequence[int], after: Sequence[int]) -> str:
    """The simplest technique whose deductions on this line include the step `before` -> `after`."""
    if not blocks:
        return "empty"

    def covers(rule: Sequence[int] | None) -> bool:
        # every candidate the step removed is removed by the rule too
        return rule is not None and all(r & ~a == 0 for r, a in zip(rule, after, strict=True))

    if covers(_crossing_rule(blocks, before)):
        return "crossing"
    if covers(_overlap_rule(blocks, n, before)):
        return "overlap"
    return "enumeration"


# ----------------------------------------------------------------------------- the explainer


def _masks_state(engine: Engine, masks: Sequence[int]) -> list[int]:
    """An engine state (the per-line, per-colour bitsets documented in engine.py) from Domains masks."""
    ncol, H, W = engine.ncol, engine.H, engine.W
    st = [0] * (engine.nlines * ncol)
    for r in range(H):
        for c in range(W):
            m = masks[r * W + c]
            for k in range(ncol):
                if (m >> k) & 1:
                    st[r * ncol + k] |= 1 << c
                    st[(H + c) * ncol + k] |= 1 << r
    return st


class _Explainer:
    def __init__(self, puzzle: Puzzle, deadline: float | None, max_steps: int | None, classify: bool) -> None:
        self.puzzle = puzzle
        self.engine = Engine(puzzle, deadline)
        self.engine.trace = []
        self.pos = 0  # how much of engine.trace has become steps
        self.W, self.H = puzzle.width, puzzle.height
        self.ncol = len(puzzle.palette)
        self.masks = [(1 << self.ncol) - 1] * (self.W * self.H)
        self.undecided = self.W * self.H  # cells of self.masks with two or more colours (kept by emit)
        self.steps: list[Step] = []
        self.max_steps = max_steps
        self.classify = classify
        self.depth = 0
        self.pending: list[list[int]] = []  # unexplored sibling states of the path to the first solution
        self.several = False  # a second solution was seen on the way

    # --- bookkeeping

    def emit(self, kind: str, technique: str, changes: Sequence[Change], **extra: Any) -> Step:
        if self.max_steps is not None and len(self.steps) >= self.max_steps:
            raise _Enough
        W = self.W
        old = tuple(self.masks[r * W + c] for r, c, _ in changes)
        for (r, c, m), o in zip(changes, old, strict=True):
            self.masks[r * W + c] = m
            self.undecided += bool(m & (m - 1)) - bool(o & (o - 1))
        step = Step(len(self.steps) + 1, kind, technique, self.depth, tuple(changes), old,
                    unknown=self.undecided, **extra)
        step = _with_text(step, self.puzzle)
        self.steps.append(step)
        return step

    def drain(self) -> None:
        """Turn what the engine traced since the last call into steps."""
        trace = self.engine.trace
        assert trace is not None
        while self.pos < len(trace):
            t = trace[self.pos]
            self.pos += 1
            self.convert(t)

    def convert(self, t: TraceStep) -> None:
        if t.technique == "line":
            technique = "enumeration"
            if self.classify:
                technique = self.classify_line(t)
            self.emit("line", technique, t.changes, line=(t.kind, t.index))
        elif t.technique == "probe-contradiction":
            assert t.cell is not None
            color = t.removed.bit_length() - 1
            chain, where = self.refute(t.cell, color)
            self.emit("probe-contradiction", "probe-contradiction", t.changes, cell=t.cell, color=color,
                      chain=chain, contradiction_line=where)
        elif t.technique == "probe-agreement":
            self.emit("probe-agreement", "probe-agreement", t.changes, cell=t.cell)
        else:  # a technique this version does not know: keep the replay exact anyway
            self.emit(t.technique, t.technique, t.changes, cell=t.cell)

    def line_masks(self, kind: str, index: int) -> list[int]:
        W = self.W
        if kind == "row":
            return self.masks[index * W:(index + 1) * W]
        return [self.masks[r * W + index] for r in range(self.H)]

    def classify_line(self, t: TraceStep) -> str:
        before = self.line_masks(t.kind, t.index)
        after = list(before)
        for r, c, m in t.changes:
            after[c if t.kind == "row" else r] = m
        ln = t.index if t.kind == "row" else self.H + t.index
        if self.puzzle.has_counts:  # count clues: their own techniques (analysis/count_techniques.py)
            return count_techniques.line_technique(self.engine.blocks[ln], before, after)
        return line_technique(self.engine.blocks[ln], self.engine.length[ln], before, after)

    def refute(self, cell: tuple[int, int], color: int) -> tuple[int | None, tuple[str, int] | None]:
        """Re-run a probe's assumption on the current grid: (line deductions made, line that failed)."""
        engine = self.engine
        r, c = cell
        masks = list(self.masks)
        masks[r * self.W + c] = 1 << color
        st = _masks_state(engine, masks)
        saved, engine.trace = engine.trace, []
        try:
            if engine.propagate(st, (r, engine.H + c), True) >= 0:
                return None, None  # only possible if the engine changed its notion of a probe
            chain = engine.trace
        finally:
            engine.trace = saved
        for t in chain:
            for r2, c2, m in t.changes:
                masks[r2 * self.W + c2] = m
        return len(chain), self.failing_line(masks)

    def failing_line(self, masks: list[int] | None = None) -> tuple[str, int] | None:
        """A line with no valid placement on the given (default: current) grid."""
        masks = self.masks if masks is None else masks
        W, H, ncol = self.W, self.H, self.ncol
        engine = self.engine
        for ln in range(engine.nlines):
            if ln < H:
                cells = masks[ln * W:(ln + 1) * W]
            else:
                cells = [masks[r * W + ln - H] for r in range(H)]
            line = [sum(((m >> k) & 1) << i for i, m in enumerate(cells)) for k in range(ncol)]
            if engine.solve_planned(engine.plans[ln], engine.length[ln], line) is None:
                return ("row", ln) if ln < H else ("col", ln - H)
        return None

    def restore(self, target: list[int]) -> list[Change]:
        W = self.W
        return [(i // W, i % W, m) for i, (m, now) in enumerate(zip(target, self.masks, strict=True)) if m != now]

    # --- the search, mirroring nonocp.engines.native.search.enumerate_solutions

    def run(self) -> list[int] | None:
        engine = self.engine
        st = engine.initial_state()
        return self.node(st, range(engine.nlines))

    def node(self, st: list[int], dirty) -> list[int] | None:
        """Propagate, probe, then guess on `st`; the solved state on the first solution, else None."""
        engine = self.engine
        while True:
            n = engine.propagate(st, dirty, True)
            self.drain()
            if n < 0:
                self.contradiction()
                return None
            ok, branch = engine.probe(st, True)
            self.drain()
            if not ok:
                self.contradiction()
                return None
            if branch is None:
                return st
            small = self.small_residue(st)
            if small is not None:
                return small or None
            (r, c), children = branch
            parent_st, parent_masks = st, list(self.masks)
            refuted = 0
            for i, (k, _child) in enumerate(children[:-1]):
                guess = self.emit("guess", "guess", [(r, c, 1 << k)], cell=(r, c), color=k)
                self.depth += 1
                trial = list(parent_st)
                engine.assign(trial, r, c, k)
                found = self.node(trial, (r, engine.H + c))
                self.depth -= 1
                if found is not None:
                    # the engine's stack would still hold these siblings: they decide uniqueness
                    self.pending.extend(ch for _, ch in children[i + 1:])
                    return found
                refuted |= 1 << k
                target = list(parent_masks)
                target[r * self.W + c] &= ~refuted
                self.emit("backtrack", "backtrack", self.restore(target), cell=(r, c), color=k,
                          returns_to=guess.n)
            # every other colour failed: the last one is forced, and the engine goes on from there
            st = list(parent_st)
            engine.assign(st, r, c, children[-1][0])
            dirty = (r, engine.H + c)

    def contradiction(self) -> None:
        where = self.failing_line()
        self.emit("contradiction", "contradiction", [], line=where)

    def small_residue(self, st: list[int]) -> list[int] | bool | None:
        """The all-remaining-cells step when few combinations of candidates are left.

        Returns None when there are too many (guessing follows), False when no completion exists, else
        the solved state the engine reaches first from here. With several completions the step keeps what
        they all share, then guesses lead to the first one the engine's own search would find (its
        enumeration from this node lists them in the engine's order).
        """
        combos = 1
        for m in self.masks:
            combos *= bin(m).count("1")
            if combos > SMALL_RESIDUE:
                return None
        found: list[list[int]] = []
        enumerate_solutions(self.engine, list(st), None, found)
        cells = self.undecided
        if not found:
            self.emit("all-remaining-cells", "all-remaining-cells", [], solutions=0, residue=cells)
            return False
        union = self.engine.to_masks(found[0])
        for other in found[1:]:
            union = [a | b for a, b in zip(union, self.engine.to_masks(other), strict=True)]
        self.emit("all-remaining-cells", "all-remaining-cells", self.restore(union), solutions=len(found),
                  residue=cells)
        if len(found) == 1:
            return found[0]
        self.several = True
        engine = self.engine
        first = engine.to_masks(found[0])
        st = _masks_state(engine, self.masks)
        depth = self.depth
        for i, m in enumerate(first):
            if self.masks[i] == m:
                continue  # decided by the propagation after an earlier guess
            r, c = divmod(i, self.W)
            k = m.bit_length() - 1
            self.emit("guess", "guess", [(r, c, m)], cell=(r, c), color=k)
            self.depth += 1
            engine.assign(st, r, c, k)
            n = engine.propagate(st, (r, engine.H + c), True)
            self.drain()
            assert n >= 0, "a guess towards a known solution cannot contradict"
        self.depth = depth
        return st

    def has_more_solutions(self) -> bool:
        if self.several:
            return True
        for st in self.pending:
            found: list[list[int]] = []
            enumerate_solutions(self.engine, st, 1, found)
            if found:
                return True
        return False


def explain(
    puzzle: Puzzle,
    *,
    max_steps: int | None = None,
    time_limit: float | None = None,
    classify: bool = True,
    check_unique: bool = True,
) -> Explanation:
    """The native engine's solving of `puzzle` as steps (see the module docstring).

    `max_steps` stops after that many steps (outcome `truncated`); `time_limit` (seconds) gives outcome
    `timeout`; `classify=False` skips naming line techniques (all `enumeration`; faster, for `rate`);
    `check_unique=False` skips the search for a second solution (status is then None after a solution).
    """
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    ex = _Explainer(puzzle, deadline, max_steps, classify)
    outcome, status, solution = "solved", None, None
    try:
        final = ex.run()
        if final is None:
            outcome, status = "no-solution", Status.NONE
        else:
            solution = Grid.from_rows(
                [[m.bit_length() - 1 for m in ex.masks[r * ex.W:(r + 1) * ex.W]] for r in range(ex.H)]
            )
            if check_unique:
                status = Status.MULTIPLE if ex.has_more_solutions() else Status.UNIQUE
    except _Enough:
        outcome = "truncated"
    except Timeout:
        outcome = "timeout"
    stats = ex.engine.stats.as_dict()
    return Explanation(puzzle, ex.steps, outcome, status, solution, ex.masks, time.monotonic() - start, stats)


def replay(puzzle: Puzzle, steps: Sequence[Step]) -> list[int]:
    """The grid (Domains masks) after applying the steps' changes to an empty grid."""
    masks = [(1 << len(puzzle.palette)) - 1] * (puzzle.width * puzzle.height)
    for s in steps:
        for r, c, m in s.changes:
            masks[r * puzzle.width + c] = m
    return masks


# ----------------------------------------------------------------------------- words


def where(line: tuple[str, int] | None) -> str:
    if line is None:
        return "some line"
    kind, index = line
    return f"{'row' if kind == 'row' else 'column'} {index + 1}"


def cell_name(cell: tuple[int, int]) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def color_name(puzzle: Puzzle, k: int) -> str:
    palette = puzzle.palette
    if palette.is_black_and_white:
        return "black" if k else "white"
    return palette[k].name


def candidates(puzzle: Puzzle, mask: int) -> str:
    """The symbols of the colours in `mask`, in palette order."""
    return "".join(c.symbol for k, c in enumerate(puzzle.palette.colors) if (mask >> k) & 1)


def clue_text(puzzle: Puzzle, line: tuple[str, int]) -> str:
    from nonocp.render.clues import line_tokens

    clue = puzzle.rows[line[1]] if line[0] == "row" else puzzle.cols[line[1]]
    return " ".join(token for token, _ in line_tokens(puzzle, clue))


TECHNIQUE_WORDS = {
    "empty": "its clue is 0, so every cell is background",
    "crossing": "colours missing from its clue are ruled out where the crossing lines still allowed them",
    "overlap": "block overlap of the leftmost and rightmost placements",
    "enumeration": "enumerating every placement of its clue",
}
COUNT_TECHNIQUE_WORDS = count_techniques.TECHNIQUE_WORDS


def _decided_words(step: Step, puzzle: Puzzle, limit: int = 8) -> str:
    decided = step.decided
    if not decided:
        return f"narrows {len(step.changes)} cell{'s' if len(step.changes) != 1 else ''}"
    from nonocp.render.text import cell_symbol  # `#`/`.` in black and white, the colour's symbol otherwise

    names = [f"{cell_name((r, c))}={cell_symbol(puzzle, k)}" for r, c, k in decided[:limit]]
    more = f" and {len(decided) - limit} more" if len(decided) > limit else ""
    rest = len(step.changes) - len(decided)
    narrowed = f"; narrows {rest} more" if rest > 0 else ""
    return f"decides {', '.join(names)}{more}{narrowed}"


def _with_text(step: Step, puzzle: Puzzle) -> Step:
    from dataclasses import replace

    kind = step.kind
    if kind == "line":
        assert step.line is not None
        words = COUNT_TECHNIQUE_WORDS if puzzle.has_counts else TECHNIQUE_WORDS
        text = (f"{where(step.line).capitalize()} [{clue_text(puzzle, step.line)}]: "
                f"{words.get(step.technique, step.technique)}; {_decided_words(step, puzzle)}.")
    elif kind == "probe-contradiction":
        assert step.cell is not None and step.color is not None
        text = (f"Probe: if {cell_name(step.cell)} were {color_name(puzzle, step.color)}, "
                f"{where(step.contradiction_line)} would have no valid placement"
                f"{f' after {step.chain} line deductions' if step.chain else ''}; "
                f"so {cell_name(step.cell)} is not {color_name(puzzle, step.color)}.")
    elif kind == "probe-agreement":
        assert step.cell is not None
        text = (f"Probe: every colour still possible in {cell_name(step.cell)} leads to the same result "
                f"elsewhere; {_decided_words(step, puzzle)}.")
    elif kind == "guess":
        assert step.cell is not None and step.color is not None
        text = (f"Guess (depth {step.depth + 1}): line logic and probing are stuck; "
                f"assume {cell_name(step.cell)} is {color_name(puzzle, step.color)}.")
    elif kind == "contradiction":
        text = f"Contradiction: {where(step.line)} has no valid placement left."
    elif kind == "backtrack":
        assert step.cell is not None and step.color is not None
        text = (f"Backtrack to step {step.returns_to}: the guess was wrong, so {cell_name(step.cell)} "
                f"is not {color_name(puzzle, step.color)}.")
    elif kind == "all-remaining-cells":
        if step.solutions == 1:
            text = (f"All remaining cells: the {step.residue} undecided cells, taken together, have exactly "
                    f"one completion; {_decided_words(step, puzzle)}.")
        elif step.solutions:
            what = _decided_words(step, puzzle) if step.changes else "they share nothing more"
            text = (f"All remaining cells: the {step.residue} undecided cells, taken together, have "
                    f"{step.solutions} completions (the puzzle has several solutions); {what}.")
        else:
            text = f"All remaining cells: no completion of the {step.residue} undecided cells fits every clue."
    else:
        text = f"{kind}: {_decided_words(step, puzzle)}."
    return replace(step, text=text)


def step_json(step: Step, puzzle: Puzzle) -> dict[str, Any]:
    symbols = [c.symbol for c in puzzle.palette.colors]
    out: dict[str, Any] = {
        "n": step.n,
        "kind": step.kind,
        "technique": step.technique,
        "depth": step.depth,
        "line": None if step.line is None else {"kind": step.line[0], "index": step.line[1]},
        "cell": None if step.cell is None else list(step.cell),
        "color": None if step.color is None else symbols[step.color],
        "changes": [[r, c, candidates(puzzle, m)] for r, c, m in step.changes],
        "decided": [[r, c, symbols[k]] for r, c, k in step.decided],
        "removed": step.removed,
        "unknown": step.unknown,
        "text": step.text,
    }
    if step.kind == "probe-contradiction":
        out["chain"] = step.chain
        cl = step.contradiction_line
        out["contradiction_line"] = None if cl is None else {"kind": cl[0], "index": cl[1]}
    if step.kind == "backtrack":
        out["returns_to"] = step.returns_to
    if step.kind == "all-remaining-cells":
        out["solutions"] = step.solutions
        out["residue"] = step.residue
    return out


def explanation_json(ex: Explanation) -> dict[str, Any]:
    p = ex.puzzle
    return {
        "format": SCHEMA,
        "puzzle": {"title": p.title, "width": p.width, "height": p.height,
                   "colors": {c.symbol: c.rgb for c in p.palette.colors}},
        "outcome": ex.outcome,
        "status": None if ex.status is None else str(ex.status),
        "solution": None if ex.solution is None else ex.solution.to_strings(p.palette),
        "seconds": round(ex.seconds, 4),
        "counts": ex.counts,
        "steps": [step_json(s, p) for s in ex.steps],
    }


def masks_from_json(puzzle: Puzzle, steps: Sequence[dict[str, Any]]) -> list[int]:
    """Replay JSON steps (as printed by `explain --format json`) on an empty grid."""
    index = {c.symbol: k for k, c in enumerate(puzzle.palette.colors)}
    masks = [(1 << len(puzzle.palette)) - 1] * (puzzle.width * puzzle.height)
    for s in steps:
        for r, c, cands in s["changes"]:
            masks[r * puzzle.width + c] = sum(1 << index[ch] for ch in cands)
    return masks


__all__ = ["Explanation", "Step", "explain", "explanation_json", "line_technique", "masks_from_json", "replay",
           "valid_starts"]
