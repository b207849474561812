"""Steps a person can follow: the data model, and how the native search's events become steps.

A `Step` is one named deduction (or search move) with the cells it changed, their candidate sets before
and after (Domains masks: bit k = palette colour k), the line or cell it is about, the guesses in force
(`depth`), the engine event it came from (`group`: one exact line deduction told as several named rules
shares one group) and its pass (one sweep of propagation over the dirty lines). The sentences people read
are made from these fields in the presentation layer (nonocp.render.steps_text).

`StepMaker` holds the grid (candidate masks) and turns each event of the native search
(nonocp.engines.native: LineDeduction, ProbeContradiction, ...) into steps, applying them as it goes.
Applying the steps' changes in order to an empty grid replays the solving.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from nonocp.analysis import count_techniques
from nonocp.analysis.techniques import decompose
from nonocp.core.puzzle import Puzzle
from nonocp.engines import native

Change = tuple[int, int, int]  # (row, col, new candidate mask)

KINDS = ("line", "probe-contradiction", "probe-agreement", "guess", "contradiction", "backtrack",
         "all-remaining-cells", "solution")


@dataclass(frozen=True)
class Step:
    n: int  # 1-based, in the order the steps were taken
    kind: str  # one of KINDS
    technique: str  # a name from nonocp.analysis.techniques.CATALOGUE
    depth: int  # guesses in force after the step
    changes: tuple[Change, ...]  # the changed cells' new masks
    old: tuple[int, ...] = ()  # their masks before the step (same order)
    line: tuple[str, int] | None = None  # ("row" | "col", 0-based index)
    cell: tuple[int, int] | None = None
    color: int | None = None
    unknown: int = 0  # undecided cells after the step
    group: int = 0  # the engine event (or user action) the step belongs to
    pass_: int = 0  # the propagation sweep
    returns_to: int | None = None  # backtrack: the guess step it leaves
    found: int | None = None  # backtrack: solutions found under that guess
    contradiction_line: tuple[str, int] | None = None  # probe-contradiction: the line that failed
    chain: int | None = None  # probe-contradiction: line deductions before it failed
    solutions: int | None = None  # all-remaining-cells: completions
    residue: int | None = None  # all-remaining-cells: undecided cells taken together
    solution: int | None = None  # solution: its number
    guesses: int | None = None  # solution: guesses made since the start
    by: str = "engine"  # who chose the step: "engine" or "user"
    cross: tuple[str, int] | None = None  # crossing-check: the crossing line whose clue removed colours

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

    def as_dict(self) -> dict[str, Any]:
        """Plain data (masks as ints): the form a stepper's JSON state keeps."""
        out: dict[str, Any] = {"n": self.n, "kind": self.kind, "technique": self.technique, "depth": self.depth,
                               "changes": [list(ch) for ch in self.changes], "old": list(self.old),
                               "unknown": self.unknown, "group": self.group, "pass": self.pass_, "by": self.by}
        for name in ("line", "cell", "contradiction_line", "cross"):
            v = getattr(self, name)
            if v is not None:
                out[name] = list(v)
        for name in ("color", "returns_to", "found", "chain", "solutions", "residue", "solution", "guesses"):
            v = getattr(self, name)
            if v is not None:
                out[name] = v
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Step:
        kw: dict[str, Any] = {"n": int(d["n"]), "kind": str(d["kind"]), "technique": str(d["technique"]),
                              "depth": int(d["depth"]), "changes": tuple(tuple(int(x) for x in ch)
                                                                         for ch in d["changes"]),
                              "old": tuple(int(x) for x in d["old"]), "unknown": int(d["unknown"]),
                              "group": int(d["group"]), "pass_": int(d["pass"]), "by": str(d.get("by", "engine"))}
        for name in ("line", "contradiction_line", "cross"):
            if d.get(name) is not None:
                kw[name] = (str(d[name][0]), int(d[name][1]))
        if d.get("cell") is not None:
            kw["cell"] = (int(d["cell"][0]), int(d["cell"][1]))
        for name in ("color", "returns_to", "found", "chain", "solutions", "residue", "solution", "guesses"):
            if d.get(name) is not None:
                kw[name] = int(d[name])
        return cls(**kw)


def replay(puzzle: Puzzle, steps: Sequence[Step]) -> list[int]:
    """The grid (Domains masks) after applying the steps' changes to an empty grid."""
    masks = [(1 << len(puzzle.palette)) - 1] * (puzzle.width * puzzle.height)
    for s in steps:
        for r, c, m in s.changes:
            masks[r * puzzle.width + c] = m
    return masks


def line_name(puzzle: Puzzle, ln: int) -> tuple[str, int] | None:
    """An engine line number (rows first, then columns) as ("row" | "col", index); None for -1."""
    if ln < 0:
        return None
    return ("row", ln) if ln < puzzle.height else ("col", ln - puzzle.height)


# How a line may be named wherever one is asked for: ("row", i) or ("column", i) as the web API and the
# messages say it, ("col", i) as steps and the JSON of `explain` write it (indices from 0).
LINE_KINDS = {"row": "row", "r": "row", "column": "col", "col": "col", "c": "col"}


def parse_line(puzzle: Puzzle, line: object) -> tuple[str, int]:
    """`line` as ("row" | "col", index); TypeError/ValueError (naming the spellings and the grid's size) for
    anything else: a line is ("row", i) or ("column", i) (also "col"), 0-based."""
    if not (isinstance(line, (tuple, list)) and len(line) == 2 and isinstance(line[0], str)
            and isinstance(line[1], int) and not isinstance(line[1], bool)):
        raise TypeError(f"a line is (\"row\", i) or (\"column\", i), 0-based; not {line!r}")
    kind = LINE_KINDS.get(line[0].lower())
    if kind is None:
        raise ValueError(f"no line kind {line[0]!r}: a line is (\"row\", i) or (\"column\", i) (also \"col\")")
    size = puzzle.height if kind == "row" else puzzle.width
    if not 0 <= line[1] < size:
        what = "row" if kind == "row" else "column"
        raise ValueError(f"no {what} {line[1]}: the puzzle's {what}s are 0 to {size - 1}")
    return kind, line[1]


def line_number(puzzle: Puzzle, line: tuple[str, int]) -> int:
    return line[1] if line[0] == "row" else puzzle.height + line[1]


def line_cells(puzzle: Puzzle, line: tuple[str, int]) -> list[tuple[int, int]]:
    kind, i = line
    return [(i, c) for c in range(puzzle.width)] if kind == "row" else [(r, i) for r in range(puzzle.height)]


def blocks_of_line(puzzle: Puzzle, line: tuple[str, int]) -> tuple[tuple[int, int], ...]:
    clue = puzzle.rows[line[1]] if line[0] == "row" else puzzle.cols[line[1]]
    return tuple((b.length, b.color) for b in clue)


@dataclass
class Frame:
    """A guess in force: the step that made it, and the grid just before it (to go back to)."""

    step: int
    cell: tuple[int, int]
    color: int
    before: list[int]
    found: int = 0  # solutions found when it was made

    def as_dict(self) -> dict[str, Any]:
        return {"step": self.step, "cell": list(self.cell), "color": self.color, "before": self.before,
                "found": self.found}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Frame:
        return cls(int(d["step"]), (int(d["cell"][0]), int(d["cell"][1])), int(d["color"]),
                   [int(x) for x in d["before"]], int(d.get("found", 0)))


@dataclass
class StepMaker:
    """The grid as steps leave it, and the conversion of search events into steps (see the module docs).

    `classify=False` tells each line deduction as one `enumeration` step (cheaper, for counting).
    """

    puzzle: Puzzle
    classify: bool = True
    masks: list[int] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    solutions: list[list[int]] = field(default_factory=list)
    group: int = 0
    last_pass: int = 0
    # the engine's propagation queue as far as the events show it: line number -> pass; None = no
    # propagation under way (the next line deduction starts a new sweep)
    queue: dict[int, int] | None = None
    next_n: int = 1
    guesses: int = 0  # guesses made so far (the engine's and the user's)

    def __post_init__(self) -> None:
        p = self.puzzle
        if not self.masks:
            self.masks = [(1 << len(p.palette)) - 1] * (p.width * p.height)
        self.undecided = sum(1 for m in self.masks if m & (m - 1))

    # --- applying steps

    def add(self, kind: str, technique: str, changes: Sequence[Change], **extra: Any) -> Step:
        W = self.puzzle.width
        old = tuple(self.masks[r * W + c] for r, c, _ in changes)
        for (r, c, m), o in zip(changes, old, strict=True):
            self.masks[r * W + c] = m
            self.undecided += bool(m & (m - 1)) - bool(o & (o - 1))
        extra.setdefault("depth", len(self.frames))
        extra.setdefault("group", self.group)
        extra.setdefault("pass_", self.last_pass)
        step = Step(self.next_n, kind, technique, changes=tuple(changes), old=old, unknown=self.undecided, **extra)
        self.next_n += 1
        self.steps.append(step)
        return step

    def restore(self, target: Sequence[int]) -> list[Change]:
        W = self.puzzle.width
        return [(i // W, i % W, m) for i, (m, now) in enumerate(zip(target, self.masks, strict=True)) if m != now]

    def apply(self, step: Step) -> None:
        """Take a step made elsewhere (by a StepMaker that started from this one's state) as the next one."""
        W = self.puzzle.width
        if step.kind == "guess":
            assert step.cell is not None and step.color is not None
            self.frames.append(Frame(step.n, step.cell, step.color, list(self.masks), len(self.solutions)))
            self.guesses += 1
        elif step.kind == "backtrack":
            self.frames.pop()
        for (r, c, m), o in zip(step.changes, step.old, strict=True):
            self.masks[r * W + c] = m
            self.undecided += bool(m & (m - 1)) - bool(o & (o - 1))
        if step.kind == "solution":
            self.solutions.append(list(self.masks))
        self.steps.append(step)
        self.next_n = step.n + 1
        self.group = max(self.group, step.group)
        self.last_pass = max(self.last_pass, step.pass_)

    def undo(self) -> Step:
        """Take back the last step (the grid, the guesses in force and the solutions as they were)."""
        step = self.steps.pop()
        W = self.puzzle.width
        for (r, c, m), o in zip(step.changes, step.old, strict=True):
            self.masks[r * W + c] = o
            self.undecided += bool(o & (o - 1)) - bool(m & (m - 1))
        if step.kind == "guess":
            self.frames.pop()
            self.guesses -= 1
        elif step.kind == "backtrack":
            assert step.cell is not None and step.color is not None and step.returns_to is not None
            before = replay(self.puzzle, self.steps[:step.returns_to - 1])
            found = sum(1 for s in self.steps[:step.returns_to - 1] if s.kind == "solution")
            self.frames.append(Frame(step.returns_to, step.cell, step.color, before, found))
        elif step.kind == "solution":
            self.solutions.pop()
        self.next_n = step.n
        self.last_pass = max((s.pass_ for s in self.steps), default=0)
        self.queue = None
        return step

    # --- passes

    def _start(self, lines: Sequence[int]) -> None:
        """A new propagation starts from these lines (in the engine's order): a new sweep."""
        self.last_pass += 1
        self.queue = {}
        for ln in lines:
            self.queue.setdefault(ln, self.last_pass)

    def _line_pass(self, ln: int, changes: Sequence[native.Change]) -> int:
        if self.queue is None:
            self._start(range(self.puzzle.height + self.puzzle.width))
        queue = self.queue
        assert queue is not None
        # the engine pops its queue in order: lines before `ln` were examined and yielded nothing
        while queue and ln in queue:
            first = next(iter(queue))
            p = queue.pop(first)
            if first == ln:
                break
        else:
            p = self.last_pass
        # the crossing lines of the removed candidates join the queue, colour by colour as the engine does
        H = self.puzzle.height
        ncol = len(self.puzzle.palette)
        for k in range(ncol):
            for r, c, old, new in changes:
                if (old >> k) & 1 and not (new >> k) & 1:
                    cross = H + c if ln < H else r
                    if cross not in queue:
                        queue[cross] = p + 1
        self.last_pass = max(self.last_pass, p)
        return p

    # --- events

    def event(self, ev: native.Event) -> list[Step]:
        """Turn one search event into steps (applied to the grid); returns them."""
        self.group += 1
        first = len(self.steps)
        p = self.puzzle
        H = p.height
        if isinstance(ev, native.LineDeduction):
            pass_ = self._line_pass(ev.line, ev.changes)
            self.line_steps(line_name(p, ev.line), ev.changes, pass_=pass_)
        elif isinstance(ev, native.ProbeContradiction):
            r, c = ev.cell
            self.add("probe-contradiction", "probe-contradiction", [(r, c, new) for _, _, _, new in ev.changes],
                     cell=ev.cell, color=ev.colour, chain=ev.chain, contradiction_line=line_name(p, ev.line),
                     pass_=self.last_pass + 1)
            self._start([r, H + c])
        elif isinstance(ev, native.ProbeAgreement):
            self.add("probe-agreement", "probe-agreement", [(r, c, new) for r, c, _, new in ev.changes],
                     cell=ev.cell, pass_=self.last_pass + 1)
            self._start(sorted({r for r, _, _, _ in ev.changes} | {H + c for _, c, _, _ in ev.changes}))
        elif isinstance(ev, native.Guess):
            self.guess(ev.cell, ev.colour)
        elif isinstance(ev, native.Backtrack):
            self.backtrack(ev.found)
        elif isinstance(ev, native.Contradiction):
            self.add("contradiction", "contradiction", [], line=line_name(p, ev.line))
            self.queue = None
        elif isinstance(ev, native.Solution):
            self.solutions.append(list(self.masks))
            self.add("solution", "solution", [], solution=len(self.solutions), guesses=self.guesses)
            self.queue = None
        elif isinstance(ev, native.Residue):
            self.add("all-remaining-cells", "all-remaining-cells", [(r, c, new) for r, c, _, new in ev.changes],
                     solutions=ev.solutions, residue=ev.cells, pass_=self.last_pass + 1)
            self.queue = None
        return self.steps[first:]

    def line_steps(self, line: tuple[str, int] | None, changes: Sequence[native.Change], **extra: Any) -> None:
        """One exact line deduction as named technique steps (or one `enumeration` step)."""
        assert line is not None
        p = self.puzzle
        if not self.classify:
            self.add("line", "enumeration", [(r, c, new) for r, c, _, new in changes], line=line, **extra)
            return
        cells = line_cells(p, line)
        W = p.width
        before = [self.masks[r * W + c] for r, c in cells]
        after = list(before)
        pos = {rc: i for i, rc in enumerate(cells)}
        for r, c, _, new in changes:
            after[pos[(r, c)]] = new
        if p.has_counts:  # count clues: their own rules (analysis/count_techniques.py)
            clue = p.rows[line[1]] if line[0] == "row" else p.cols[line[1]]
            pieces = count_techniques.decompose(clue, before, after)
        else:
            pieces = decompose(blocks_of_line(p, line), before, after)
        for technique, a, b in pieces:
            self.add("line", technique, [(*cells[i], b[i]) for i in range(len(cells)) if a[i] != b[i]], line=line,
                     **extra)

    def guess(self, cell: tuple[int, int], color: int, by: str = "engine") -> Step:
        r, c = cell
        frame = Frame(self.next_n, cell, color, list(self.masks), len(self.solutions))
        self.frames.append(frame)
        self.guesses += 1
        step = self.add("guess", "guess", [(r, c, 1 << color)], cell=cell, color=color, by=by,
                        pass_=self.last_pass + 1)
        self._start([r, self.puzzle.height + c])
        return step

    def backtrack(self, found: int | None = None, by: str = "engine") -> Step:
        """Leave the innermost guess: back to the grid before it, without the guessed colour."""
        frame = self.frames.pop()
        target = list(frame.before)
        r, c = frame.cell
        target[r * self.puzzle.width + c] &= ~(1 << frame.color)
        if found is None:
            found = len(self.solutions) - frame.found
        step = self.add("backtrack", "backtrack", self.restore(target), cell=frame.cell, color=frame.color,
                        returns_to=frame.step, found=found, by=by, pass_=self.last_pass + 1)
        self._start([r, self.puzzle.height + c])
        return step


__all__ = ["KINDS", "Frame", "Step", "StepMaker", "blocks_of_line", "line_cells", "line_name", "line_number"]
