"""`nonocp explain PUZZLE --interactive`: step through the solving on a terminal, steering it.

Each round draws the grid (undecided cells show the colours still possible), the last steps in words and
the commands, then reads one command line:

    Enter, n, next      the engine's next step            b, back     take back what the last command did
    r3, c7              examine row 3 / column 7          a, all      all remaining cells at once
    g r3c4 x, guess ... assume colour x in r3c4          q, quit     leave (end of input too)

It runs on nonocp.analysis.stepper.Stepper, which keeps going past solutions until every one is found.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.console import Console

from nonocp.analysis.stepper import Stepper
from nonocp.analysis.steps import Step
from nonocp.core.puzzle import Puzzle
from nonocp.render.partial import PartialText
from nonocp.render.steps_terminal import partial_rich
from nonocp.render.steps_text import step_text

HELP = "Enter/n next · b back · r3/c7 examine a line · a all remaining cells · g r3c4 x guess · q quit"

NOTES = {
    "finished": "Finished: every solution has been found.",
    "nothing-new": "Nothing new.",
    "contradiction": "Contradiction: a line has no valid placement left (b goes back, n backtracks).",
    "gave-up-limit": "All remaining cells: too many completions to try; gave up.",
    "gave-up-time": "Gave up: the time limit for this step ran out.",
    "nothing-to-undo": "Nothing to take back.",
}

REMAINING_LIMIT = 10_000  # completions the all-remaining-cells command tries before giving up
REMAINING_SECONDS = 10.0


def _symbol_index(puzzle: Puzzle, symbol: str) -> int | None:
    palette = puzzle.palette
    if palette.is_black_and_white:
        return {"#": 1, "1": 1, "x": 1, "b": 1, ".": 0, "0": 0, "w": 0, "-": 0}.get(symbol.lower())
    for k, c in enumerate(palette.colors):
        if symbol in (c.symbol, c.name) or (k == 0 and symbol in (".", "0")):
            return k
    return None


def _act(stepper: Stepper, command: str, history: list[tuple[int, str]] | None = None) -> tuple[list[Step], str]:
    """Run one command; returns (steps taken, message). Raises StopIteration on quit. `history` holds, for
    each command that took steps, (how many steps there were before it, the command), so that `b` takes
    back everything the last one did (every step of a line examined), not one step."""
    history = [] if history is None else history
    cmd = command.strip().lower()
    if cmd in ("b", "back"):
        return _back(stepper, history)
    before = len(stepper.steps)
    steps, message = _run_command(stepper, command)
    if len(stepper.steps) > before:
        history.append((before, command.strip() or "n"))
    return steps, message


def _back(stepper: Stepper, history: list[tuple[int, str]]) -> tuple[list[Step], str]:
    target, what = history.pop() if history else (len(stepper.steps) - 1, "")
    taken: list[Step] = []
    while len(stepper.steps) > max(target, 0):
        step = stepper.undo()
        if step is None:
            break
        taken.append(step)
    while history and history[-1][0] >= len(stepper.steps):  # commands whose steps went with these
        history.pop()
    if not taken:
        return [], NOTES["nothing-to-undo"]
    first, last = taken[-1].n, taken[0].n
    steps = f"step {first}" if first == last else f"steps {first} to {last}"
    return [], f"Took back {steps}" + (f" (what {what!r} did)." if what else ".")


def _run_command(stepper: Stepper, command: str) -> tuple[list[Step], str]:
    p = stepper.puzzle
    cmd = command.strip().lower()
    if cmd in ("q", "quit", "exit"):
        raise StopIteration
    if cmd in ("", "n", "next"):
        steps = stepper.step()
        return steps, NOTES.get(stepper.note or "", "") if not steps else ""
    if cmd in ("a", "all", "remaining"):
        steps = stepper.remaining_cells(REMAINING_LIMIT, REMAINING_SECONDS)
        return steps, NOTES.get(stepper.note or "", "")
    m = re.fullmatch(r"([rc])\s*(\d+)", cmd)
    if m:
        kind, n = ("row" if m.group(1) == "r" else "col"), int(m.group(2))
        size = p.height if kind == "row" else p.width
        if not 1 <= n <= size:
            return [], f"No {'row' if kind == 'row' else 'column'} {n}: 1 to {size}."
        steps = stepper.examine((kind, n - 1))
        return steps, NOTES.get(stepper.note or "", "") if not steps or stepper.note else ""
    m = re.fullmatch(r"(?:g|guess)\s+r(\d+)\s*c(\d+)\s*[= ]\s*(\S+)", command.strip(), re.IGNORECASE)
    if m:
        r, c = int(m.group(1)) - 1, int(m.group(2)) - 1
        k = _symbol_index(p, m.group(3))
        if k is None:
            return [], f"No colour {m.group(3)!r}."
        try:
            return stepper.guess((r, c), k), ""
        except ValueError as e:
            return [], str(e).capitalize() + "."
    return [], f"Unknown command {command.strip()!r}. {HELP}"


def run(puzzle: Puzzle, console: Console, read: Callable[[], str]) -> None:
    """The interactive loop: draw, read a command, act, until quit or the end of input."""
    stepper = Stepper(puzzle)
    drawer = PartialText(puzzle)
    last: list[Step] = []
    history: list[tuple[int, str]] = []
    message = "The empty grid. Enter takes the engine's next step."
    name = puzzle.title or "untitled"
    while True:
        console.clear()
        console.print(f"{name} ({puzzle.width}x{puzzle.height}): explain, step by step", markup=False,
                      highlight=False)
        changed = [(r, c) for s in last for r, c, _ in s.changes]
        console.print(partial_rich(puzzle, stepper.masks, changed, drawer))
        found = len(stepper.solutions)
        sweep = stepper.steps[-1].pass_ if stepper.steps else 0
        console.print(f"{len(stepper.steps)} steps · pass {sweep} · {stepper.undecided} undecided · "
                      f"depth {stepper.depth} · "
                      f"{found} solution{'s' if found != 1 else ''} found"
                      + ("" if puzzle.palette.is_black_and_white else " · 3?: a cell 3 colours may still be"),
                      markup=False, highlight=False)
        for s in last[-6:]:
            console.print(f"Step {s.n}: {step_text(s, puzzle)}", markup=False, highlight=False)
        if message:
            console.print(message, markup=False, highlight=False)
        console.print(HELP, style="dim", markup=False, highlight=False)
        try:
            command = read()
        except EOFError:
            return
        try:
            last, message = _act(stepper, command, history)
        except StopIteration:
            return
