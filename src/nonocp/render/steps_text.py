"""Steps in words: the one sentence a person reads for each step, and the text report of `nonocp explain`.

Steps are data (nonocp.analysis.steps); this module is where they become English. Rows and columns are
1-based here (r3c4 is row 3, column 4).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from nonocp.analysis.explain import Explanation
from nonocp.analysis.steps import Step
from nonocp.core.puzzle import Puzzle
from nonocp.render.clues import clue_tokens
from nonocp.render.partial import PartialText
from nonocp.render.text import cell_symbol

# What each line technique saw, after "Row 3 [2 1]: ".
TECHNIQUE_WORDS = {
    "missing-colour": "colours missing from its clue cannot be in it",
    "overlap": "the leftmost and rightmost placements of a block overlap",
    "out-of-reach": "no block of that colour reaches these cells",
    "gap-too-small": "the gaps are too small for any block that could go there",
    "split": "these cells would join boxes into a block longer than the clue allows",
    "join": "neighbouring boxes must belong to one block",
    "pin": "a box only one block can cover pins that block",
    "crossing-check": "the crossing lines cannot place these colours here",
    "enumeration": "enumerating every placement of its clue",
    # count-and-contiguity clues (analysis/count_techniques.py)
    "zero-count": "colours with a count of 0 cannot be in it",
    "count-complete": "a colour whose count is reached leaves the other cells (or one with just enough candidates "
                      "takes them all)",
    "all-in-a-row": "the places a colour all in a row can take overlap here, and leave the rest out of its reach",
    "not-all-in-a-row": "a colour not all in a row cannot close its one run to its full count",
}
COUNT_ENUMERATION = "enumerating every body of the line (its counts and flags)"


def where(line: tuple[str, int] | None) -> str:
    if line is None:
        return "some line"
    kind, index = line
    return f"{'row' if kind == 'row' else 'column'} {index + 1}"


def cell_name(cell: tuple[int, int]) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def color_name(puzzle: Puzzle, k: int) -> str:
    palette = puzzle.palette
    if palette.is_black_and_white and not puzzle.has_counts:
        return "black" if k else "white"
    return palette[k].name


def clue_text(puzzle: Puzzle, line: tuple[str, int]) -> str:
    clue = puzzle.rows[line[1]] if line[0] == "row" else puzzle.cols[line[1]]
    return " ".join(clue_tokens(clue, puzzle.palette))


def decided_words(step: Step, puzzle: Puzzle, limit: int = 8) -> str:
    decided = step.decided
    if not decided:
        n = len(step.changes)
        gone = 0
        for (_, _, new), old in zip(step.changes, step.old, strict=True):
            gone |= old & ~new
        names = ", ".join(cell_symbol(puzzle, k) for k in range(len(puzzle.palette)) if (gone >> k) & 1)
        return f"rules out {names} in {n} cell{'s' if n != 1 else ''}" if names else f"narrows {n} cells"
    names = [f"{cell_name((r, c))}={cell_symbol(puzzle, k)}" for r, c, k in decided[:limit]]
    more = f" and {len(decided) - limit} more" if len(decided) > limit else ""
    rest = len(step.changes) - len(decided)
    narrowed = f"; narrows {rest} more" if rest > 0 else ""
    return f"decides {', '.join(names)}{more}{narrowed}"


def step_text(step: Step, puzzle: Puzzle) -> str:
    """The step in one sentence."""
    text = _sentence(step, puzzle)
    return text[:-1] if text.endswith("..") else text  # "decides r2c5=." ends the sentence already


def _sentence(step: Step, puzzle: Puzzle) -> str:
    kind = step.kind
    if kind == "line":
        assert step.line is not None
        words = TECHNIQUE_WORDS.get(step.technique, step.technique)
        if step.technique == "enumeration" and puzzle.has_counts:
            words = COUNT_ENUMERATION
        if step.technique == "crossing-check" and step.cross is not None and step.changes:
            (r, c, new), old = step.changes[0], step.old[0]
            gone = ", ".join(color_name(puzzle, k) for k in range(len(puzzle.palette)) if (old & ~new) >> k & 1)
            words = (f"crossing check: {where(step.cross)} [{clue_text(puzzle, step.cross)}] cannot put "
                     f"{gone} in {cell_name((r, c))}")
        return (f"{where(step.line).capitalize()} [{clue_text(puzzle, step.line)}]: {words}; "
                f"{decided_words(step, puzzle)}.")
    if kind == "probe-contradiction":
        assert step.cell is not None and step.color is not None
        return (f"Probe: if {cell_name(step.cell)} were {color_name(puzzle, step.color)}, "
                f"{where(step.contradiction_line)} would have no valid placement"
                f"{f' after {step.chain} line deductions' if step.chain else ''}; "
                f"so {cell_name(step.cell)} is not {color_name(puzzle, step.color)}.")
    if kind == "probe-agreement":
        assert step.cell is not None
        return (f"Probe: every colour still possible in {cell_name(step.cell)} leads to the same result "
                f"elsewhere; {decided_words(step, puzzle)}.")
    if kind == "guess":
        assert step.cell is not None and step.color is not None
        who = "you assume" if step.by == "user" else "line logic and probing are stuck; assume"
        return f"Guess (depth {step.depth}): {who} {cell_name(step.cell)} is {color_name(puzzle, step.color)}."
    if kind == "contradiction":
        return f"Contradiction: {where(step.line)} has no valid placement left."
    if kind == "backtrack":
        assert step.cell is not None and step.color is not None
        if step.found:
            why = f"every solution under it is found ({step.found})"
        else:
            why = "the guess was wrong"
        return (f"Backtrack to step {step.returns_to}: {why}, so {cell_name(step.cell)} "
                f"is not {color_name(puzzle, step.color)}.")
    if kind == "all-remaining-cells":
        if step.solutions == 1:
            return (f"All remaining cells: the {step.residue} undecided cells, taken together, have exactly "
                    f"one completion; {decided_words(step, puzzle)}.")
        if step.solutions:
            what = decided_words(step, puzzle) if step.changes else "they share nothing more"
            return (f"All remaining cells: the {step.residue} undecided cells, taken together, have "
                    f"{step.solutions} completions (the puzzle has several solutions); {what}.")
        return f"All remaining cells: no completion of the {step.residue} undecided cells fits every clue."
    if kind == "solution":
        after = f" after {step.guesses} guess{'es' if step.guesses != 1 else ''}" if step.guesses else ""
        return f"Solved: every cell is decided (solution {step.solution}{after})."
    return f"{kind}: {decided_words(step, puzzle)}."


def headline(ex: Explanation) -> str:
    p = ex.puzzle
    name = p.title or "untitled"
    c = ex.counts
    verdict = {
        "solved": "solved" + (f" ({ex.status})" if ex.status is not None else ""),
        "no-solution": "no solution",
        "truncated": "stopped at --max-steps",
        "timeout": "time limit reached",
    }[ex.outcome]
    n = c["solutions"]
    sols = f"{n} solution{'s' if n != 1 else ''}, " if ex.all_solutions else ""
    passes = f"{c['passes']} pass{'es' if c['passes'] != 1 else ''}"
    return (f"{name} ({p.width}x{p.height}): {verdict}: {sols}{c['steps']} steps in {passes}: "
            f"{c['line']} line, {c['probes']} probe, {c['guesses']} guesses, {c['backtracks']} backtracks, "
            f"depth {c['max_depth']}")


def solutions_text(ex: Explanation) -> str:
    """The solutions reached, each with the guesses that led to it."""
    out = []
    for s in ex.solutions:
        out.append(f"solution {s.n} (step {s.step}): {s.depth} guess{'es' if s.depth != 1 else ''} in force, "
                   f"{s.guesses} made so far")
    if ex.exhaustive:
        out.append(f"{len(ex.solutions)} solution{'s' if len(ex.solutions) != 1 else ''} in all.")
    elif ex.outcome == "solved":
        out.append("Stopped at the solution limit: there may be more.")
    elif ex.outcome in ("timeout", "truncated"):
        out.append("Stopped before every solution was found.")
    return "\n".join(out)


# Text reports stop drawing grids past this many characters (a grid per step of a big puzzle runs to
# tens of megabytes), and stop altogether past twice as many.
MAX_TEXT = 2_000_000


def text_report(ex: Explanation, grids: bool = True, max_chars: int | None = MAX_TEXT,
                deadline: float | None = None) -> str:
    """Each step in words, with the grid after it (after the last step of a group: one line examined once).
    Undecided cells show their candidates; changed cells are followed by `*`. Past `max_chars`, or once
    `deadline` (a time.monotonic() value) has passed, the grids stop and a note says so; past twice
    `max_chars` the steps stop too, with a note."""
    p = ex.puzzle
    masks = [(1 << len(p.palette)) - 1] * (p.width * p.height)
    drawer = PartialText(p)
    out = [headline(ex) + "\n"]
    size = len(out[0])
    if grids:
        out.append(drawer.render(masks))
        size += len(out[-1])
    steps = ex.steps
    changed: list[tuple[int, int]] = []
    for i, s in enumerate(steps):
        for r, c, m in s.changes:
            masks[r * p.width + c] = m
        changed += [(r, c) for r, c, _ in s.changes]
        part = f"\n{'  ' * s.depth}Step {s.n}: {step_text(s, p)} [{s.unknown} undecided]\n"
        # the steps of one group (one line examined once, told as several techniques) share one grid
        if i + 1 < len(steps) and steps[i + 1].group == s.group and steps[i + 1].kind == s.kind == "line":
            out.append(part)
            size += len(part)
            continue
        if grids and changed:
            if max_chars is not None and size > max_chars:
                grids = False
                part = "\n(no more grids: the output limit was reached)\n" + part
            elif deadline is not None and not i & 15 and time.monotonic() > deadline:
                grids = False
                part = "\n(no more grids: the time limit was reached)\n" + part
            else:
                part += drawer.render(masks, changed)
        changed = []
        if max_chars is not None and size > 2 * max_chars:
            out.append(f"\n... {len(ex.steps) - i} more steps left out (the output limit was reached; "
                       "--format json has them all)\n")
            break
        out.append(part)
        size += len(part)
    if ex.all_solutions:
        out.append("\n" + solutions_text(ex) + "\n")
    elif ex.status is not None and str(ex.status) == "multiple":
        out.append("\nThe puzzle has other solutions too; this is the first one the engine reaches "
                   "(--all walks on to every one).\n")
    return "".join(out)


def wrap(text: str, width: int = 60) -> list[str]:
    """Lines of at most about `width` characters (captions under pictures)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def captions(ex: Explanation) -> Sequence[str]:
    """'Step n: sentence' for every step."""
    return [f"Step {s.n}: {step_text(s, ex.puzzle)}" for s in ex.steps]
