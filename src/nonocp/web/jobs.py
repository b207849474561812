"""The work that runs in a worker process (nonocp.web.workers): solving, backbones, ratings, steps, image
imports, and reading requests (nonocp.web.reading).

Each job takes picklable arguments (a Puzzle and plain values) and returns its answer as JSON bytes, built
and encoded here, so that the server only forwards bytes. Engines are imported here, never in the server
process: the server stays small and responsive, and a worker that overruns can be killed.
"""

from __future__ import annotations

from typing import Any

from nonocp.core.errors import NonocpError
from nonocp.core.puzzle import Puzzle
from nonocp.web import reading
from nonocp.web.config import Limits
from nonocp.web.reading import encoded


def solve(puzzle: Puzzle, engine: str, max_solutions: int, time_limit: float) -> bytes:
    from nonocp.engines.solve import solve as run

    result = run(puzzle, engine, max_solutions=max_solutions, time_limit=time_limit)
    solutions = [g.to_strings(puzzle.palette) for g in result.solutions]
    answer = {
        "status": result.status.value,
        "exhausted": result.exhausted,
        "engine": result.backend,
        "seconds": round(result.seconds, 4),
        "solutions": solutions,
        "stats": {k: v for k, v in result.stats.items() if isinstance(v, str | int | float | bool)},
        "count": len(solutions),
        "differ": _differ(solutions),
    }
    answer["message"] = _verdict_words(answer, max_solutions, time_limit)
    return encoded(answer)


def backbone(puzzle: Puzzle, time_limit: float) -> bytes:
    from nonocp.analysis.backbone import find_backbone

    bb = find_backbone(puzzle, time_limit=time_limit)
    return encoded({
        "status": bb.status,
        "exact": bb.exact,
        "possible": list(bb.possible),
        "ambiguous": [[r, c] for r, c in bb.ambiguous],
        "queries": bb.queries,
        "seconds": round(bb.seconds, 4),
    })


def rate(puzzle: Puzzle, time_limit: float, max_solutions: int = 2) -> bytes:
    """The rating, walking over up to `max_solutions` solutions (the guesses each one rests on)."""
    from nonocp.analysis.rate import rate as run

    return encoded(run(puzzle, time_limit=time_limit, max_solutions=max_solutions).as_dict())


RECENT = 40  # steps described in each answer, for the page's log


def step(puzzle: Puzzle, state: dict | None, action: str, params: dict[str, Any], time_limit: float) -> bytes:
    """One request of the Step mode: the stepper (nonocp.analysis.stepper) rebuilt from the state the page
    keeps, the action taken, and the new state with what the page shows (the grid's candidate masks, the
    steps taken, the current step and the last few, in words)."""
    import time

    from nonocp.analysis.stepper import Stepper

    deadline = time.monotonic() + time_limit
    stepper = Stepper(puzzle) if state is None else Stepper.from_state(puzzle, state)
    stepper.time_limit = time_limit  # each request to the engine for more steps
    taken: list = []
    undone = 0

    def forward(until: int) -> None:
        while len(stepper.steps) < until and time.monotonic() < deadline:
            got = stepper.step()
            if not got:
                break
            taken.extend(got)

    def backward(until: int) -> None:
        nonlocal undone
        while len(stepper.steps) > until and stepper.undo() is not None:
            undone += 1

    now = len(stepper.steps)
    if action == "next":
        forward(now + int(params.get("count", 1)))
    elif action == "back":
        backward(now - int(params.get("count", 1)))
    elif action == "jump":
        target = int(params["target"])
        backward(target)
        forward(target)
    elif action == "examine":
        taken = stepper.examine(params["line"])
    elif action == "remaining":
        left = max(0.01, deadline - time.monotonic())
        taken = stepper.remaining_cells(int(params.get("limit", 1000)), time_limit=left)
    steps = stepper.steps
    return encoded({
        "state": stepper.state(),
        "masks": list(stepper.masks),
        "position": len(steps),
        "taken": [_step_words(s, puzzle) for s in taken[-RECENT:]],
        "taken_count": len(taken),
        "undone": undone,
        "current": _step_words(steps[-1], puzzle) if steps else None,
        "recent": [_step_words(s, puzzle) for s in steps[-RECENT:]],
        "finished": stepper.finished,
        "note": stepper.note,
        "solutions": len(stepper.solutions),
        "undecided": stepper.undecided,
        "depth": stepper.depth,
        "timed_out": time.monotonic() >= deadline,
    })


def _step_words(step_: Any, puzzle: Puzzle) -> dict[str, Any]:
    from nonocp.analysis.techniques import CATALOGUE
    from nonocp.render.steps_text import step_text

    out = step_.as_dict()
    out["text"] = step_text(step_, puzzle)
    technique = CATALOGUE.get(step_.technique)
    out["about"] = technique.summary if technique is not None else ""
    return out


def play(puzzle: Puzzle, cells: list[int], known: dict | None, action: str,
         time_limit: float) -> tuple[bytes, dict[str, Any] | None]:
    """The Play mode's check or hint on a person's grid (nonocp.analysis.play): (the answer, the solutions
    found). `known`: the solutions the server kept from an earlier request ({"solutions": [bytes], ...});
    when None they are found here and sent back beside the answer for the server to keep."""
    import time

    from nonocp.analysis import play as game

    deadline = time.monotonic() + time_limit
    out: dict[str, Any] = {}
    kept = None
    if known is None:
        found = game.solutions_of(puzzle, time_limit)
        kept = {"solutions": [bytes(s) for s in found.solutions], "exhausted": found.exhausted,
                "timed_out": found.timed_out}
    else:
        found = game.Known(tuple(tuple(s) for s in known["solutions"]), known["exhausted"], known["timed_out"])
    try:
        if action == "check":
            verdict = game.check(puzzle, cells, found, deadline)
        else:
            given = game.hint(puzzle, cells, found, deadline)
            verdict = given.check
            out["hint"] = _hint_words(given, puzzle)
    except ValueError as e:
        raise NonocpError(str(e)) from None
    out["check"] = {"status": verdict.status, "mistakes": [list(rc) for rc in verdict.mistakes],
                    "exact": verdict.exact, "complete": verdict.complete}
    out["kept"] = known is not None  # the solutions came from the server's memory, not a solve
    return encoded(out), kept


def _hint_words(given: Any, puzzle: Puzzle) -> dict[str, Any]:
    """A hint as the page shows it: its kind, the step's technique, line and sentence, the cells."""
    out: dict[str, Any] = {"kind": given.kind, "cells": [list(x) for x in given.cells]}
    if given.mistake is not None:
        out["mistake"] = list(given.mistake)
    if given.step is not None:
        words = _step_words(given.step, puzzle)
        out.update({k: words[k] for k in ("technique", "text", "about")})
        out["line"] = words.get("line")
    out["before"] = [_step_words(s, puzzle)["text"] for s in given.before]
    return out


def import_image(data: bytes, name: str, width: int | None, height: int | None, colors: int,
                 background: str, threshold: int | None, limits: Limits) -> bytes:
    """A picture (PNG, JPEG, GIF, BMP, PBM, ...) made into a design by the designer library: decoded here,
    in a worker, so that a hostile image costs the server nothing."""
    from nonocp.design import from_image
    from nonocp.formats.json_format import to_obj
    from nonocp.web.codec import check_limits

    design = from_image(data, width=width, height=height, colors=colors, threshold=threshold, background=background,
                        name=name)
    puzzle = design.puzzle()
    check_limits(puzzle.width, puzzle.height, len(puzzle.palette), limits)
    colours = "black and white" if design.colors == 1 else f"{design.colors} colours"
    return encoded({"puzzle": to_obj(puzzle), "report": f"{name}: {design.width}x{design.height}, {colours}"})


def make_unique(puzzle: Puzzle, time_limit: float) -> bytes:
    """The Design mode's "make unique": the designer library's fewest repainted cells (proven unique by two
    engines) for the drawing in the puzzle's goal, as `nonocp design --make-unique` finds them."""
    from nonocp.design import Design
    from nonocp.design import make_unique as fix

    result = fix(Design.from_puzzle(puzzle), time_limit=time_limit, rate_result=False)
    return encoded({
        "status": result.status,
        "goal": result.design.grid.to_strings(puzzle.palette),
        "changes": [[ch.row, ch.col, ch.old, ch.new] for ch in result.changes],
        "seconds": round(result.seconds, 3),
    })


def warm() -> bool:
    """Nothing: starting it starts the fork server, which imports the engines once for every worker."""
    return True


def _differ(solutions: list[list[str]]) -> list[list[int]]:
    """Cells (row, col) whose symbol is not the same in every solution found."""
    if len(solutions) < 2:
        return []
    first = solutions[0]
    return [
        [r, c]
        for r, row in enumerate(first)
        for c, ch in enumerate(row)
        if any(s[r][c] != ch for s in solutions[1:])
    ]


def _verdict_words(result: dict[str, Any], wanted: int, limit: float) -> str:
    status, n = result["status"], len(result["solutions"])
    if status == "unique":
        return "unique: exactly one solution"
    if status == "multiple":
        if result["exhausted"]:
            return f"multiple: exactly {n} solutions"
        return f"multiple: at least {n} solutions" if n >= wanted else f"multiple: {n} or more solutions"
    if status == "none":
        return "none: no solution"
    if status == "solved":
        return "solved: a solution (uniqueness not checked)"
    found = f" ({n} found so far)" if n else ""
    return f"timeout: no answer within {limit:g} s{found}"


# job name -> function; the server runs jobs by name (nonocp.web.config.Settings.jobs may replace one)
JOBS = {"solve": solve, "backbone": backbone, "rate": rate, "step": step, "play": play, "import_image": import_image,
        "make_unique": make_unique, "warm": warm, "read": reading.request, "open": reading.open_file,
        "validate": reading.validate, "export": reading.export}


def preload() -> list[str]:
    """What the fork server imports once, so that each worker starts with the engines loaded: this module,
    the analyses, and every engine's module as the registry names it."""
    from nonocp.engines import BACKENDS

    engines = sorted({target.partition(":")[0] for target in BACKENDS.values()})
    return [__name__, "nonocp.web.reading", "nonocp.formats", "nonocp.engines.solve", "nonocp.analysis.backbone",
            "nonocp.analysis.rate", "nonocp.analysis.stepper", "nonocp.analysis.play", "nonocp.render.steps_text",
            *COUNT_CLUE_MODULES, *engines]


# What count-clue puzzles need besides, imported on first use elsewhere (about 120 ms a worker otherwise).
COUNT_CLUE_MODULES = ("nonocp.formats.counts", "PIL.ImageColor", "nonocp.engines.native.count_line",
                      "nonocp.analysis.count_techniques")
