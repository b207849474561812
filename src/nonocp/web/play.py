"""POST /api/play: the Play mode's Check and Hint on a person's grid (nonocp.analysis.play, in a worker).

The body: {"puzzle": ..., "cells": [one value per cell, row-major: -1 unmarked, else a palette index
(0, the background, is a cross)], "action": "check" or "hint", "time_limit"?, "channel"?}. The answer:
{"check": {"status": ok | mistakes | no-solution | timeout, "mistakes": [[row, col]...], "exact",
"complete"}, "hint" (for a hint): {"kind": deduction | mistake | guess | solved | no-solution | timeout,
"cells": [[row, col, colour]...], "mistake"?: [row, col], "technique", "text", "about", "line", "before":
[sentences]}, "kept": whether the puzzle's solutions came from the server's memory}.

Both need the puzzle's solutions. The first request for a puzzle finds them in its worker and sends them
back; the server keeps them (a few puzzles, least recently used first out) and hands them to the next
request's worker, so that a hint costs the stepper's work, not a solve. They are kept as bytes (one per
cell), in this process only; nothing here imports an engine.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from nonocp.core.puzzle import Puzzle
from nonocp.web import codec
from nonocp.web.codec import ApiError

ACTIONS = ("check", "hint")
KEPT = 16  # puzzles whose solutions the server keeps


def puzzle_key(puzzle: Puzzle) -> tuple:
    """What the solutions depend on: the size, the clues and the palette (not the title)."""
    return (puzzle.width, puzzle.height, puzzle.rows, puzzle.cols, tuple(c.rgb for c in puzzle.palette.colors))


class Solutions:
    """The solutions found for the last KEPT puzzles: {"solutions": [bytes], "exhausted", "timed_out"}."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[tuple, dict[str, Any]] = OrderedDict()

    def get(self, key: tuple) -> dict[str, Any] | None:
        known = self._kept.get(key)
        if known is not None:
            self._kept.move_to_end(key)
        return known

    def put(self, key: tuple, known: dict[str, Any]) -> None:
        self._kept[key] = known
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)


def read_cells(body: dict[str, Any], puzzle: Puzzle) -> list[int]:
    cells = body.get("cells")
    n, colours = puzzle.width * puzzle.height, len(puzzle.palette)
    if not isinstance(cells, list) or len(cells) != n:
        raise ApiError(400, f"'cells' must be a list of {n} values (one per cell, row after row)")
    if any(not isinstance(v, int) or isinstance(v, bool) or not -1 <= v < colours for v in cells):
        raise ApiError(400, f"each of 'cells' must be -1 (unmarked) or a palette index from 0 to {colours - 1}")
    return cells


async def handle(api: Any, request: Request) -> Response:
    """The handler (api: nonocp.web.api.Api, whose request helpers and workers it uses)."""
    from nonocp.web.api import ok

    body = await api.json_body(request)
    puzzle = api.puzzle_of(body)
    action = codec.text_field(body, "action", 20)
    if action not in ACTIONS:
        raise ApiError(400, f"'action' must be one of {', '.join(ACTIONS)}")
    cells = read_cells(body, puzzle)
    limit = api.time_limit(body)
    key = puzzle_key(puzzle)
    known = api.solutions.get(key)
    outcome = await api.run(request, "play", (puzzle, cells, known, action, limit), limit, body)
    if not outcome.finished:
        raise ApiError(503, f"no answer within {limit:g} s; try again with a longer time limit")
    value = dict(outcome.value)
    found = value.pop("known", None)
    if found is not None and not found["timed_out"]:
        api.solutions.put(key, found)
    value["kept"] = known is not None  # the solutions came from the server's memory, not a solve
    return ok(value)
