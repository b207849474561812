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
cell), in this process only; nothing here imports an engine. The request is read in a worker like every
other (nonocp.web.reading: the action and the grid checked there too).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from nonocp.core.puzzle import Puzzle
from nonocp.web.codec import ApiError

if TYPE_CHECKING:
    from starlette.requests import Request

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


async def handle(api: Any, request: Request) -> bytes:
    """The handler (api: nonocp.web.api.Api, whose request helpers and workers it uses): the answer's JSON."""
    req = await api.read(request, "play")
    limit, key = req["time_limit"], req["key"]
    known = api.solutions.get(key)
    args = (req["puzzle"], req["cells"], known, req["action"], limit)
    outcome = await api.run(request, "play", args, limit, req)
    if not outcome.finished:
        raise ApiError(503, f"no answer within {limit:g} s; try again with a longer time limit")
    data, found = outcome.value
    if found is not None and not found["timed_out"]:
        api.solutions.put(key, found)
    return data
