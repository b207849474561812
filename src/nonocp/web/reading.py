"""Reading API requests, in a worker process (the `read` lane of nonocp.web.workers), never on the server's
event loop: the JSON body parsed, the puzzle read, checked and sized, every option checked. A hostile body
(a row of a million clues, a deeply nested document) then costs a worker that is killed at its limit, not
the server, which goes on answering everyone else.

`request(kind, data, limits)` reads the body of /api/solve, /backbone, /rate, /step (or any endpoint that
takes a puzzle: `body` keeps the other fields) into what the job that answers it takes; `open_file`,
`validate` and `export` answer their endpoint whole (they run no engine). Problems are ApiError (status
and one line), sent back to the server as they are.
"""

from __future__ import annotations

import json
from typing import Any

from nonocp.core.puzzle import Puzzle
from nonocp.web import codec
from nonocp.web.codec import ApiError
from nonocp.web.config import Limits


def exports() -> dict[str, tuple[str, str]]:
    """What the page may export, format -> (media type, file extension): every puzzle file format that reads
    back (nonocp.formats.file_formats), then every picture (nonocp.render.PICTURES)."""
    from nonocp.formats import FORMATS, file_formats
    from nonocp.render import PICTURES

    files = {name: (FORMATS[name].media_type, FORMATS[name].extensions[0]) for name in file_formats()}
    return files | {name: (p.media_type, p.extension) for name, p in PICTURES.items()}


STEP_ACTIONS = ("start", "next", "back", "jump", "examine", "remaining")
MAX_STEPS_PER_REQUEST = 2000  # a jump (or "next" with a count) takes at most this many steps at once


def encoded(answer: dict[str, Any]) -> bytes:
    """An answer as the JSON bytes the server sends as they are."""
    return json.dumps(answer, separators=(",", ":")).encode("utf-8")


def puzzle_of(body: dict[str, Any], limits: Limits) -> Puzzle:
    """The request's puzzle: `puzzle` (a JSON puzzle object) or `text` (a file's text, `format` optional)."""
    if "puzzle" in body:
        return codec.from_json(body["puzzle"], limits)
    text = body.get("text")
    if isinstance(text, str):
        fmt = codec.text_field(body, "format", 40)
        _, puzzles = codec.from_bytes(text.encode("utf-8"), None, fmt, limits)
        if len(puzzles) > 1:
            raise ApiError(400, f"the text holds {len(puzzles)} puzzles; send one")
        return puzzles[0]
    raise ApiError(400, "send the puzzle as 'puzzle' (a JSON puzzle object) or 'text' (a puzzle file's text)")


def time_limit(body: dict[str, Any], limits: Limits) -> float:
    return codec.number(body, "time_limit", limits.default_time_limit, 0.01, limits.max_time_limit)


def request(kind: str, data: bytes, limits: Limits) -> dict[str, Any]:
    """The request of /api/`kind` (solve, backbone, rate, step) read and checked: `puzzle`, `time_limit`,
    `channel` and what that kind takes besides."""
    body = codec.parse_json(data)
    puzzle = puzzle_of(body, limits)
    out: dict[str, Any] = {"puzzle": puzzle, "channel": codec.text_field(body, "channel", 100),
                           "time_limit": time_limit(body, limits),
                           "body": {k: v for k, v in body.items() if k not in ("puzzle", "text")}}
    if kind in ("solve", "rate"):
        out["max_solutions"] = int(codec.number(body, "max_solutions", 2, 1, limits.max_solutions))
    if kind == "solve":
        from nonocp.engines import BACKENDS, DEFAULT_BACKEND

        engine = codec.text_field(body, "engine", 40) or DEFAULT_BACKEND
        if engine.partition(":")[0] not in BACKENDS:
            raise ApiError(400, f"unknown engine {engine!r}; choose from {', '.join(BACKENDS)}")
        out["engine"] = engine
    if kind == "step":
        out.update(_step_request(body, puzzle))
    if kind == "play":
        out.update(_play_request(body, puzzle))
    if kind == "make_unique" and puzzle.meta.goal is None:
        raise ApiError(400, "send the drawing as the puzzle's 'goal'")
    return out


def _step_request(body: dict[str, Any], puzzle: Puzzle) -> dict[str, Any]:
    action = codec.text_field(body, "action", 20)
    if action not in STEP_ACTIONS:
        raise ApiError(400, f"'action' must be one of {', '.join(STEP_ACTIONS)}")
    state = body.get("state")
    if action == "start":
        state = None
    elif not isinstance(state, dict):
        raise ApiError(400, "'state' must be the stepper state from the previous answer (or use action 'start')")
    params: dict[str, Any] = {}
    if action in ("next", "back"):
        params["count"] = int(codec.number(body, "count", 1, 1, MAX_STEPS_PER_REQUEST))
    elif action == "jump":
        params["target"] = int(codec.number(body, "target", 0, 0, 10**7))
    elif action == "remaining":
        params["limit"] = int(codec.number(body, "limit", 1000, 1, 100_000))
    elif action == "examine":
        from nonocp.analysis.steps import parse_line

        try:  # ["row", i] or ["column", i] (also "col"), as everywhere a line is named
            params["line"] = parse_line(puzzle, body.get("line"))
        except (TypeError, ValueError) as e:
            raise ApiError(400, f"'line': {e}") from None
    return {"action": action, "state": state, "params": params}


PLAY_ACTIONS = ("check", "hint")


def _play_request(body: dict[str, Any], puzzle: Puzzle) -> dict[str, Any]:
    """The Play mode's action and the person's grid: one value per cell, row after row, -1 unmarked, else a
    palette index (0, the background, is a cross); `key`: what the puzzle's solutions depend on."""
    from nonocp.web.play import puzzle_key

    action = codec.text_field(body, "action", 20)
    if action not in PLAY_ACTIONS:
        raise ApiError(400, f"'action' must be one of {', '.join(PLAY_ACTIONS)}")
    cells = body.get("cells")
    n, colours = puzzle.width * puzzle.height, len(puzzle.palette)
    if not isinstance(cells, list) or len(cells) != n:
        raise ApiError(400, f"'cells' must be a list of {n} values (one per cell, row after row)")
    if any(not isinstance(v, int) or isinstance(v, bool) or not -1 <= v < colours for v in cells):
        raise ApiError(400, f"each of 'cells' must be -1 (unmarked) or a palette index from 0 to {colours - 1}")
    return {"action": action, "cells": cells, "key": puzzle_key(puzzle)}


def open_file(data: bytes, name: str | None, fmt: str | None, limits: Limits) -> bytes:
    """/api/open: the body is a puzzle file as it is on disk; `name` and `fmt` help tell the format."""
    used, puzzles = codec.from_bytes(data, name, fmt, limits)
    return encoded({"format": used, "puzzles": [codec.to_json(p) for p in puzzles]})


def validate(data: bytes, limits: Limits) -> bytes:
    """/api/validate: every wrong clue line with its reason, or the puzzle."""
    body = codec.parse_json(data)
    if "puzzle" not in body:
        raise ApiError(400, "send the puzzle as 'puzzle' (a JSON puzzle object; clue lines may be text)")
    problems, puzzle = codec.line_problems(body["puzzle"], limits)
    return encoded({
        "valid": puzzle is not None,
        "problems": problems,
        "mismatch": None if puzzle is None else puzzle.count_mismatch(),
        "puzzle": None if puzzle is None else codec.to_json(puzzle),
    })


def export(data: bytes, limits: Limits) -> tuple[bytes, str, str]:
    """/api/export: (the file's bytes, its media type, its name)."""
    body = codec.parse_json(data)
    puzzle = puzzle_of(body, limits)
    fmt = (codec.text_field(body, "format", 10) or "").lower()
    offered = exports()
    if fmt not in offered:
        raise ApiError(400, f"'format' must be one of {', '.join(offered)}")
    grid = codec.grid_from_rows(body["grid"], puzzle) if body.get("grid") is not None else None
    media, ext = offered[fmt]
    out: str | bytes
    from nonocp.render import PICTURES

    if fmt in PICTURES:
        out = PICTURES[fmt].render(puzzle, grid)
    else:
        from nonocp.formats import dumps

        out = dumps(puzzle, fmt)
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in (puzzle.title or "puzzle"))[:60] or "puzzle"
    return (out.encode("utf-8") if isinstance(out, str) else out), media, stem + ext
