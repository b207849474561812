"""A puzzle's solving, one step at a time, steered by a person: the stepper behind `explain --interactive`
and the web workbench's Step mode.

    s = Stepper(puzzle)
    s.step()                    # the engine's next step: [Step]
    s.examine(("row", 2))       # the user's choice: crossing check and that line's deductions: [Step, ...]
                                # (a line is ("row", i) or ("column", i), also "col", 0-based)
    s.guess((4, 7), 1)          # assume colour 1 in r5c8: [Step]
    s.remaining_cells(1000)     # every combination of the undecided cells at once, bounded: [Step] or []
    s.undo()                    # take back the last step: the Step, or None
    s.candidates(4, 7)          # colours still possible in a cell (palette indices)
    doc = s.state()             # plain JSON data; Stepper.from_state(puzzle, doc) gives it back

Every action returns the steps it took (nonocp.analysis.steps.Step: technique, line or cell, the changed
cells with old and new candidate masks, depth, group, pass; sentences come from
nonocp.render.steps_text.step_text; `nonocp.analysis.explain.step_json(step, puzzle, describe)` gives the
JSON form `explain --format json` prints, candidates as symbols) and leaves a short machine-readable `note`
when it took none or gave up ("nothing-new", "contradiction", "finished", "gave-up-limit", "gave-up-time",
"nothing-to-undo").

How `step()` chooses: it follows the native engine's probing depth-first search (nonocp.engines.native
`trace_solve`) from the current grid, and keeps going past solutions: line steps, probes, guesses,
contradictions, backtracks, one `solution` step per solution, until every solution was reached (`finished`).
The engine's events are made into steps ahead, in batches, and taken one by one; any user action drops
the batch, and the next `step()` asks the engine again from the grid as it then is. The guesses in force
(the engine's and the user's) are the stepper's own frames, so after a contradiction or a solution with
nothing left below it the stepper backtracks the innermost guess itself; from a fresh grid and with only
`step()`, it walks every solution, each exactly once.

State (`state()`, schema `nonocp-stepper/1`): the puzzle's size and fingerprint, the grid (one mask per cell,
row-major, bit k = palette colour k), every step taken (for undo and replay), the guesses in force with the
grid before each, the solutions reached, the counters, the `finished` flag, the last note, and the steps
made ahead (so that a restored stepper takes exactly the steps the saved one would have taken).
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from typing import Any

from nonocp.analysis.explain import SMALL_RESIDUE
from nonocp.analysis.steps import Frame, Step, StepMaker, line_cells, line_name, line_number, parse_line
from nonocp.core.errors import NonocpError, OutOfTime
from nonocp.core.puzzle import Puzzle
from nonocp.engines import native

SCHEMA = "nonocp-stepper/1"

# Steps made ahead per request to the engine (a batch costs one search from the current grid).
BATCH = 200


class StepperStateError(NonocpError):
    """A saved state that does not fit this puzzle or this version."""


class _Full(Exception):
    """The batch is full."""


def fingerprint(puzzle: Puzzle) -> str:
    """A short hash of the clues and palette: a saved state only loads onto the puzzle it was made for."""
    if puzzle.has_counts:
        return puzzle.fingerprint()
    text = repr((puzzle.width, puzzle.height, [[(b.length, b.color) for b in c] for c in puzzle.rows],
                 [[(b.length, b.color) for b in c] for c in puzzle.cols], [c.rgb for c in puzzle.palette.colors]))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Stepper:
    """See the module docstring. `classify=False` tells line deductions as one `enumeration` step each."""

    def __init__(self, puzzle: Puzzle, *, classify: bool = True, residue: int = SMALL_RESIDUE,
                 time_limit: float | None = None) -> None:
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"Stepper() takes a nonocp.Puzzle, not {type(puzzle).__name__}")
        self.puzzle = puzzle
        self.classify = classify
        self.residue = residue
        self.time_limit = time_limit  # per request to the engine (None: no limit)
        self.batch = BATCH  # steps made ahead per request to the engine (a hint wants only the next few)
        self.maker = StepMaker(puzzle, classify=classify)
        self.ahead: deque[Step] = deque()  # steps made ahead by the engine, not taken yet
        self.ahead_ends = False  # the engine's run behind `ahead` ended by itself (solution or no more)
        self.finished = False
        self.note: str | None = None

    @classmethod
    def from_grid(cls, puzzle: Puzzle, masks: list[int], **options: Any) -> Stepper:
        """A stepper whose grid starts as `masks` (row-major, bit k = palette colour k: a person's partial
        grid) instead of every colour everywhere; its steps deduce from there."""
        s = cls(puzzle, **options)
        full = (1 << len(puzzle.palette)) - 1
        if len(masks) != puzzle.width * puzzle.height or any(not 0 < m <= full for m in masks):
            raise ValueError("the grid does not fit the puzzle (one non-empty colour mask per cell)")
        s.maker = StepMaker(puzzle, classify=s.classify, masks=list(masks))
        return s

    # ----------------------------------------------------------------- reading

    @property
    def masks(self) -> list[int]:
        return self.maker.masks

    @property
    def steps(self) -> list[Step]:
        return self.maker.steps

    @property
    def depth(self) -> int:
        return len(self.maker.frames)

    @property
    def solutions(self) -> list[list[int]]:
        return self.maker.solutions

    @property
    def undecided(self) -> int:
        return self.maker.undecided

    def candidates(self, r: int, c: int) -> list[int]:
        m = self.masks[r * self.puzzle.width + c]
        return [k for k in range(len(self.puzzle.palette)) if (m >> k) & 1]

    def _dead(self) -> bool:
        last = self.maker.steps[-1] if self.maker.steps else None
        return last is not None and (last.kind == "contradiction" or
                                     (last.kind == "all-remaining-cells" and last.solutions == 0))

    # ----------------------------------------------------------------- the engine's choice

    def step(self) -> list[Step]:
        """The engine's next step (see the module docstring); [] with note "finished" when none is left."""
        self.note = None
        if self.finished:
            self.note = "finished"
            return []
        if not self.ahead and (self._dead() or self._reached() or self.ahead_ends):
            self.ahead_ends = False
            if self._dead() or self._reached():
                if not self.maker.frames:
                    self.finished = True
                    self.note = "finished"
                    return []
                return [self.maker.backtrack()]  # nothing is left below the innermost guess
        if not self.ahead:
            self._think()
            if not self.ahead:
                self.finished = not self.maker.frames
                self.note = "finished" if self.finished else "nothing-new"
                return []
        step = self.ahead.popleft()
        self.maker.apply(step)
        return [step]

    def _think(self) -> None:
        """Ask the engine for the next batch of steps from the current grid and guesses."""
        shadow = StepMaker(self.puzzle, classify=self.classify, masks=list(self.maker.masks),
                           frames=[Frame(f.step, f.cell, f.color, list(f.before), f.found) for f in self.maker.frames],
                           solutions=[list(s) for s in self.maker.solutions], group=self.maker.group,
                           last_pass=self.maker.last_pass, next_n=self.maker.next_n, guesses=self.maker.guesses)

        def observe(ev: native.Event) -> None:
            shadow.event(ev)
            if len(shadow.steps) >= self.batch:
                raise _Full

        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        self.ahead_ends = False
        try:
            native.trace_solve(self.puzzle, observe, masks=self.maker.masks, max_solutions=1, residue=self.residue,
                               deadline=deadline)
            self.ahead_ends = True
        except _Full:
            pass
        except OutOfTime:
            self.note = "gave-up-time"
        self.ahead = deque(shadow.steps)

    # ----------------------------------------------------------------- the user's choices

    def _user(self) -> None:
        self.ahead.clear()
        self.ahead_ends = False
        self.finished = False
        self.note = None
        self.maker.queue = None
        self.maker.group += 1

    def examine(self, line: tuple[str, int]) -> list[Step]:
        """The user's choice of line (("row", i) or ("column", i), also "col"; 0-based): the crossing check of
        its cells (each candidate colour against the crossing line), then that line's own deductions as named
        techniques. Note "nothing-new" when it yields nothing, "contradiction" when the line has no valid
        placement left."""
        p = self.puzzle
        line = parse_line(p, line)  # ("row", i) or ("column", i): TypeError/ValueError for anything else
        kind = line[0]
        self._user()
        maker = self.maker
        first = len(maker.steps)
        W = p.width
        pass_ = maker.last_pass + 1
        for r, c in line_cells(p, line):
            m = maker.masks[r * W + c]
            if not m & (m - 1):
                continue
            cross = ("col", c) if kind == "row" else ("row", r)
            ev = native.deduce_line(p, maker.masks, line_number(p, cross))
            if isinstance(ev, native.LineDeduction):
                new = next((n for r2, c2, _, n in ev.changes if (r2, c2) == (r, c)), None)
                if new is not None:
                    maker.add("line", "crossing-check", [(r, c, new)], line=line, cross=cross, by="user",
                              pass_=pass_)
        ev = native.deduce_line(p, maker.masks, line_number(p, line))
        if isinstance(ev, native.Contradiction):
            maker.add("contradiction", "contradiction", [], line=line, by="user", pass_=pass_)
            self.note = "contradiction"
        elif ev is not None:
            maker.line_steps(line, ev.changes, by="user", pass_=pass_)
        taken = maker.steps[first:]
        if not taken:
            self.note = "nothing-new"
        elif not maker.undecided and self.note is None:
            taken += self._check_solved()
        return taken

    def _reached(self) -> bool:
        """This solved grid was reported already: a solution step since the last backtrack (a solved grid
        changes only by going back)."""
        for step in reversed(self.maker.steps):
            if step.kind == "solution":
                return True
            if step.kind == "backtrack":
                return False
        return False

    def _check_solved(self) -> list[Step]:
        """After a user action decided every cell: a solution step if the grid fits every clue."""
        p = self.puzzle
        if self._reached():
            return []
        for ln in range(p.height + p.width):
            ev = native.deduce_line(p, self.maker.masks, ln)
            if isinstance(ev, native.Contradiction):
                self.note = "contradiction"
                return [self.maker.add("contradiction", "contradiction", [], line=line_name(p, ln), by="user")]
        self.maker.solutions.append(list(self.maker.masks))
        return [self.maker.add("solution", "solution", [], solution=len(self.maker.solutions),
                               guesses=self.maker.guesses, by="user")]

    def guess(self, cell: tuple[int, int], color: int) -> list[Step]:
        """Assume `color` (a palette index still possible there) in `cell`: a guess in force until undone or
        backtracked (a contradiction below it, or every solution under it found)."""
        r, c = cell
        p = self.puzzle
        if not (0 <= r < p.height and 0 <= c < p.width):
            raise ValueError(f"no such cell: r{r + 1}c{c + 1}")
        m = self.masks[r * p.width + c]
        if not 0 <= color < len(p.palette) or not (m >> color) & 1:
            raise ValueError(f"colour {color} is not possible in r{r + 1}c{c + 1}")
        if m == 1 << color:
            raise ValueError(f"r{r + 1}c{c + 1} is decided already")
        self._user()
        return [self.maker.guess(cell, color, by="user")]

    def remaining_cells(self, limit: int = 1000, time_limit: float | None = None) -> list[Step]:
        """All undecided cells at once: every completion of the grid (up to `limit` of them) is found, and
        the step keeps what they share (a dead end when there is none). Gives up, taking no step, when
        there are more than `limit` (note "gave-up-limit") or `time_limit` seconds pass ("gave-up-time")."""
        self._user()
        if not self.maker.undecided:
            out = self._check_solved()
            if not out and self.note is None:
                self.note = "nothing-new"
            return out
        deadline = None if time_limit is None else time.monotonic() + time_limit
        try:
            union, count, complete = native.remaining_cells(self.puzzle, self.masks, limit, deadline)
        except OutOfTime:
            self.note = "gave-up-time"
            return []
        if not complete:
            self.note = "gave-up-limit"
            return []
        maker = self.maker
        changes = [] if union is None else maker.restore(union)
        step = maker.add("all-remaining-cells", "all-remaining-cells", changes, solutions=count,
                         residue=maker.undecided, by="user", pass_=maker.last_pass + 1)
        if count == 0:
            self.note = "contradiction"
        out = [step]
        if count == 1:
            out += self._check_solved()
        return out

    def undo(self) -> Step | None:
        """Take back the last step; None when there is none. A step the engine made is offered again by the
        next step()."""
        if not self.maker.steps:
            self.note = "nothing-to-undo"
            return None
        step = self.maker.undo()
        self.finished = False
        self.note = None
        if step.by == "engine":  # the steps made ahead follow on from it: offer it again
            self.ahead.appendleft(step)
        else:
            self.ahead.clear()
            self.ahead_ends = False
        return step

    # ----------------------------------------------------------------- saving

    def state(self) -> dict[str, Any]:
        """Everything needed to go on later, as plain JSON data (see the module docstring)."""
        p = self.puzzle
        m = self.maker
        return {
            "format": SCHEMA,
            "puzzle": {"width": p.width, "height": p.height, "colors": len(p.palette), "fingerprint": fingerprint(p)},
            "classify": self.classify,
            "residue": self.residue,
            "masks": list(m.masks),
            "steps": [s.as_dict() for s in m.steps],
            "frames": [f.as_dict() for f in m.frames],
            "solutions": [list(s) for s in m.solutions],
            "group": m.group,
            "pass": m.last_pass,
            "guesses": m.guesses,
            "finished": self.finished,
            "note": self.note,
            "ahead": [s.as_dict() for s in self.ahead],
            "ahead_ends": self.ahead_ends,
        }

    @classmethod
    def from_state(cls, puzzle: Puzzle, state: dict[str, Any]) -> Stepper:
        """A stepper from `state()`'s data; StepperStateError when it was made for another puzzle or is
        malformed."""
        try:
            if state.get("format") != SCHEMA:
                raise StepperStateError(f"not a stepper state ({SCHEMA} expected)")
            if state["puzzle"].get("fingerprint") != fingerprint(puzzle):
                raise StepperStateError("the stepper state belongs to another puzzle")
            s = cls(puzzle, classify=bool(state.get("classify", True)),
                    residue=int(state.get("residue", SMALL_RESIDUE)))
            masks = [int(x) for x in state["masks"]]
            full = (1 << len(puzzle.palette)) - 1
            if len(masks) != puzzle.width * puzzle.height or any(not 0 <= x <= full for x in masks):
                raise StepperStateError("the stepper state's grid does not fit the puzzle")
            steps = [Step.from_dict(d) for d in state["steps"]]
            frames = [Frame.from_dict(d) for d in state["frames"]]
            s.maker = StepMaker(puzzle, classify=s.classify, masks=masks, steps=steps, frames=frames,
                                solutions=[[int(x) for x in sol] for sol in state["solutions"]],
                                group=int(state["group"]), last_pass=int(state["pass"]),
                                next_n=len(steps) + 1, guesses=int(state.get("guesses", 0)))
            s.finished = bool(state.get("finished", False))
            s.note = state.get("note")
            s.ahead = deque(Step.from_dict(d) for d in state.get("ahead", ()))
            s.ahead_ends = bool(state.get("ahead_ends", False))
        except StepperStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise StepperStateError(f"malformed stepper state: {e}") from None
        return s


__all__ = ["BATCH", "SCHEMA", "Stepper", "StepperStateError", "fingerprint"]
