"""The JSON API under /api/ (documented in docs/web.md, "The JSON API"; the page uses nothing else).

Handlers parse and check the request in the server process (cheap, bounded by the body limit), hand
anything that runs an engine to a worker process (nonocp.web.workers), and answer JSON. Errors are
ApiError (codec.py) or the workers' refusals, turned into {"error": message} with a 4xx status by app.py.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from nonocp.core.puzzle import Puzzle
from nonocp.web import codec
from nonocp.web.codec import ApiError
from nonocp.web.config import Settings
from nonocp.web.play import Solutions
from nonocp.web.play import handle as play_handler
from nonocp.web.puzzles import Catalogue
from nonocp.web.workers import Outcome, Workers

EXPORTS = {  # format -> (media type, file extension)
    "non": ("text/plain; charset=utf-8", ".non"),
    "xml": ("application/xml", ".xml"),
    "json": ("application/json", ".json"),
    "svg": ("image/svg+xml", ".svg"),
    "png": ("image/png", ".png"),
}


def ok(data: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})


class Api:
    def __init__(self, settings: Settings, workers: Workers, catalogue: Catalogue) -> None:
        self.settings = settings
        self.limits = settings.limits
        self.workers = workers
        self.catalogue = catalogue
        self.solutions = Solutions()  # the Play mode's solutions, per puzzle (nonocp.web.play)

    def routes(self) -> list[Route]:
        return [
            Route("/info", self.info, methods=["GET"]),
            Route("/puzzles", self.puzzle_list, methods=["GET"]),
            Route("/puzzles/{name}", self.puzzle_file, methods=["GET"]),
            Route("/open", self.open, methods=["POST"]),
            Route("/validate", self.validate, methods=["POST"]),
            Route("/solve", self.solve, methods=["POST"]),
            Route("/backbone", self.backbone, methods=["POST"]),
            Route("/rate", self.rate, methods=["POST"]),
            Route("/step", self.step, methods=["POST"]),
            Route("/play", self.play, methods=["POST"]),
            Route("/design/import", self.import_image, methods=["POST"]),
            Route("/design/unique", self.make_unique, methods=["POST"]),
            Route("/export", self.export, methods=["POST"]),
        ]

    # --- reading requests -------------------------------------------------------------------------

    async def body(self, request: Request, limit: int | None = None) -> bytes:
        """The request body, refused (413) past `limit` bytes before it is all read."""
        limit = self.limits.max_body if limit is None else limit
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise ApiError(413, f"the request body is {int(declared)} bytes; this server takes at most {limit}")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(413, f"the request body is over {limit} bytes; this server takes at most {limit}")
            chunks.append(chunk)
        return b"".join(chunks)

    async def json_body(self, request: Request) -> dict[str, Any]:
        return codec.parse_json(await self.body(request))

    def puzzle_of(self, body: dict[str, Any]) -> Puzzle:
        """The request's puzzle: `puzzle` (a JSON puzzle object) or `text` (a file's text, `format` optional)."""
        if "puzzle" in body:
            return codec.from_json(body["puzzle"], self.limits)
        text = body.get("text")
        if isinstance(text, str):
            fmt = codec.text_field(body, "format", 40)
            _, puzzles = codec.from_bytes(text.encode("utf-8"), None, fmt, self.limits)
            if len(puzzles) > 1:
                raise ApiError(400, f"the text holds {len(puzzles)} puzzles; send one")
            return puzzles[0]
        raise ApiError(400, "send the puzzle as 'puzzle' (a JSON puzzle object) or 'text' (a puzzle file's text)")

    def time_limit(self, body: dict[str, Any]) -> float:
        return codec.number(body, "time_limit", self.limits.default_time_limit, 0.01, self.limits.max_time_limit)

    async def run(self, request: Request, job: str, args: tuple, time_limit: float, body: dict[str, Any]) -> Outcome:
        """Run a job in a worker; if the client goes away first, the job is cancelled (its worker killed)."""
        channel = codec.text_field(body, "channel", 100)
        task = asyncio.ensure_future(self.workers.run(job, args, time_limit, channel))
        gone = asyncio.ensure_future(_disconnected(request))
        try:
            await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not task.done():
                task.cancel()
        if not task.done() or task.cancelled():
            raise ApiError(499, "the client closed the request")
        return task.result()

    # --- endpoints --------------------------------------------------------------------------------

    async def info(self, request: Request) -> Response:
        from nonocp import __version__
        from nonocp.engines import DEFAULT_BACKEND, GENERAL
        from nonocp.formats import readable_formats

        lim = self.limits
        return ok({
            "version": __version__,
            "engines": list(GENERAL),  # what the page offers (any registered engine is accepted)
            "default_engine": DEFAULT_BACKEND,
            "formats": {"read": readable_formats(), "export": list(EXPORTS)},
            "limits": {
                "max_body": lim.max_body, "max_image": lim.max_image, "max_side": lim.max_side,
                "max_cells": lim.max_cells, "max_colors": lim.max_colors, "max_solutions": lim.max_solutions,
                "default_time_limit": lim.default_time_limit, "max_time_limit": lim.max_time_limit,
                "max_running": lim.max_running, "max_waiting": lim.max_waiting,
            },
            "workers": {"running": self.workers.running, "started": self.workers.started},
            "features": features(),
        })

    async def puzzle_list(self, request: Request) -> Response:
        entries = self.catalogue.entries()
        return ok({"puzzles": [e.summary() for e in entries.values()]})

    async def puzzle_file(self, request: Request) -> Response:
        name = request.path_params["name"]
        entry = self.catalogue.get(name)
        if entry is None:
            raise ApiError(404, f"no shipped puzzle called {name[:80]!r} (GET /api/puzzles lists them)")
        return ok({"name": name, "puzzles": [codec.to_json(p) for p in entry.puzzles]})

    async def open(self, request: Request) -> Response:
        """The body is a puzzle file as it is on disk (any readable format); ?name= and ?format= help tell
        the format (else the content does)."""
        data = await self.body(request)
        name = request.query_params.get("name")
        fmt = request.query_params.get("format") or None
        fmt_used, puzzles = codec.from_bytes(data, name[:200] if name else None, fmt, self.limits)
        return ok({"format": fmt_used, "puzzles": [codec.to_json(p) for p in puzzles]})

    async def validate(self, request: Request) -> Response:
        body = await self.json_body(request)
        if "puzzle" not in body:
            raise ApiError(400, "send the puzzle as 'puzzle' (a JSON puzzle object; clue lines may be text)")
        problems, puzzle = codec.line_problems(body["puzzle"], self.limits)
        mismatch = None if puzzle is None else puzzle.count_mismatch()
        return ok({
            "valid": puzzle is not None,
            "problems": problems,
            "mismatch": mismatch,
            "puzzle": None if puzzle is None else codec.to_json(puzzle),
        })

    async def solve(self, request: Request) -> Response:
        body = await self.json_body(request)
        puzzle = self.puzzle_of(body)
        engine = codec.text_field(body, "engine", 40) or "auto"
        from nonocp.engines import BACKENDS

        if engine.partition(":")[0] not in BACKENDS:
            raise ApiError(400, f"unknown engine {engine!r}; choose from {', '.join(BACKENDS)}")
        wanted = int(codec.number(body, "max_solutions", 2, 1, self.limits.max_solutions))
        limit = self.time_limit(body)
        outcome = await self.run(request, "solve", (puzzle, engine, wanted, limit), limit, body)
        if not outcome.finished:
            return ok(_killed(engine, limit, outcome))
        result = dict(outcome.value)
        solutions = result["solutions"]
        result["count"] = len(solutions)
        result["differ"] = _differ(solutions)
        result["message"] = _verdict_words(result, wanted, limit)
        return ok(result)

    async def backbone(self, request: Request) -> Response:
        body = await self.json_body(request)
        puzzle = self.puzzle_of(body)
        limit = self.time_limit(body)
        outcome = await self.run(request, "backbone", (puzzle, limit), limit, body)
        if not outcome.finished:
            return ok({"status": "timeout", "exact": False, "killed": True,
                       "message": f"no backbone within {limit:g} s"})
        return ok(outcome.value)

    async def rate(self, request: Request) -> Response:
        body = await self.json_body(request)
        puzzle = self.puzzle_of(body)
        limit = self.time_limit(body)
        wanted = int(codec.number(body, "max_solutions", 2, 1, self.limits.max_solutions))
        outcome = await self.run(request, "rate", (puzzle, limit, wanted), limit, body)
        if not outcome.finished:
            return ok({"verdict": "UNKNOWN", "killed": True, "summary": f"no rating within {limit:g} s"})
        return ok(outcome.value)

    async def step(self, request: Request) -> Response:
        """The Step mode: the page keeps the stepper's state (JSON) and sends it with each action."""
        from nonocp.web.jobs import MAX_STEPS_PER_REQUEST, STEP_ACTIONS

        if not features()["step"]:
            raise ApiError(404, "this server has no step engine (nonocp.analysis.stepper)")
        # the state holds every step taken so far: allow it more room than a puzzle
        body = codec.parse_json(await self.body(request, 4 * self.limits.max_body))
        puzzle = self.puzzle_of(body)
        action = codec.text_field(body, "action", 20)
        if action not in STEP_ACTIONS:
            raise ApiError(400, f"'action' must be one of {', '.join(STEP_ACTIONS)}")
        state = body.get("state")
        if action == "start":
            state = None
        elif not isinstance(state, dict):
            raise ApiError(400, "'state' must be the stepper state from the previous answer (or use action 'start')")
        params: dict[str, Any] = {}
        most = MAX_STEPS_PER_REQUEST
        if action in ("next", "back"):
            params["count"] = int(codec.number(body, "count", 1, 1, most))
        elif action == "jump":
            params["target"] = int(codec.number(body, "target", 0, 0, 10**7))
        elif action == "remaining":
            params["limit"] = int(codec.number(body, "limit", 1000, 1, 100_000))
        elif action == "examine":
            line = body.get("line")
            size = {"row": puzzle.height, "column": puzzle.width}
            if (not isinstance(line, list) or len(line) != 2 or line[0] not in size
                    or not isinstance(line[1], int) or isinstance(line[1], bool) or not 0 <= line[1] < size[line[0]]):
                raise ApiError(400, "'line' must be [\"row\" or \"column\", 0-based index] inside the grid")
            params["line"] = ("row" if line[0] == "row" else "col", line[1])
        limit = self.time_limit(body)
        outcome = await self.run(request, "step", (puzzle, state, action, params, limit), limit, body)
        if not outcome.finished:
            raise ApiError(503, f"the step engine did not answer within {limit:g} s; try again, or step back")
        return ok(outcome.value)

    async def play(self, request: Request) -> Response:
        """The Play mode's Check and Hint on a person's grid (nonocp.web.play)."""
        return await play_handler(self, request)

    async def import_image(self, request: Request) -> Response:
        """The body is a picture file; ?width= or ?height= (cells; the other follows the aspect ratio),
        ?colors= (1: black and white), ?threshold= (0-255, black and white only: the grey level below which
        a cell is black; default: found from the picture), ?background= (auto, white, black or #rrggbb),
        ?name=."""
        if not features()["import_image"]:
            raise ApiError(404, "this server has no designer library (nonocp.design) to import images")
        data = await self.body(request, self.limits.max_image)
        if not data:
            raise ApiError(400, "send the picture file as the request body")
        q = request.query_params
        lim = self.limits

        def integer(key: str, low: int, high: int) -> int | None:
            v = q.get(key)
            if v in (None, ""):
                return None
            if not v.isdigit() or not low <= int(v) <= high:
                raise ApiError(400 if not v.isdigit() or int(v) < low else 422,
                               f"{key} must be a whole number from {low} to {high}")
            return int(v)

        width = integer("width", 1, lim.max_side)
        height = integer("height", 1, lim.max_side)
        colors = integer("colors", 1, min(16, lim.max_colors - 1)) or 1
        threshold = integer("threshold", 0, 255)
        if threshold is not None and colors != 1:
            raise ApiError(400, "threshold applies to black and white (colors=1); colours are found by clustering")
        background = (q.get("background") or "auto")[:20]
        name = (q.get("name") or "picture")[:200]
        limit = lim.default_time_limit
        body = {"channel": q.get("channel")}
        outcome = await self.run(request, "import_image", (data, name, width, height, colors, background, threshold),
                                 limit, body)
        if not outcome.finished:
            raise ApiError(503, f"the picture was not read within {limit:g} s")
        value = outcome.value
        puzzle = value["puzzle"]
        codec.check_limits(puzzle["width"], puzzle["height"], len(puzzle["colors"]), lim)
        return ok(value)

    async def make_unique(self, request: Request) -> Response:
        """The body: {"puzzle": a puzzle whose goal is the drawing, "time_limit"?}; the answer: the changed
        drawing (`goal`), every repainted cell (`changes`: [row, col, old, new], 0-based palette indices),
        and `status` (unique, already-unique, or timeout with the last drawing tried)."""
        if not features()["import_image"]:
            raise ApiError(404, "this server has no designer library (nonocp.design)")
        body = await self.json_body(request)
        puzzle = self.puzzle_of(body)
        if puzzle.meta.goal is None:
            raise ApiError(400, "send the drawing as the puzzle's 'goal'")
        limit = self.time_limit(body)
        outcome = await self.run(request, "make_unique", (puzzle, limit), limit, body)
        if not outcome.finished:
            raise ApiError(503, f"no unique drawing found within {limit:g} s")
        return ok(outcome.value)

    async def export(self, request: Request) -> Response:
        """The puzzle as a file: .non, XML, JSON (with the goal the puzzle carries), or an SVG/PNG picture
        (of `grid` when given: a solution; else the blank grid with its clues, to print)."""
        body = await self.json_body(request)
        puzzle = self.puzzle_of(body)
        fmt = (codec.text_field(body, "format", 10) or "").lower()
        if fmt not in EXPORTS:
            raise ApiError(400, f"'format' must be one of {', '.join(EXPORTS)}")
        grid = codec.grid_from_rows(body["grid"], puzzle) if body.get("grid") is not None else None
        media, ext = EXPORTS[fmt]
        data: str | bytes
        if fmt in ("svg", "png"):
            from nonocp.render import render_png, render_svg

            data = (render_svg if fmt == "svg" else render_png)(puzzle, grid)
        else:
            from nonocp.formats import dumps

            data = dumps(puzzle, fmt)
        stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in (puzzle.title or "puzzle"))[:60] or "puzzle"
        return Response(
            data,
            media_type=media,
            headers={"Content-Disposition": f'attachment; filename="{stem}{ext}"', "Cache-Control": "no-store"},
        )


@functools.cache
def features() -> dict[str, bool]:
    """What this installation can do beyond solving (the page hides what is missing): the step engine, and
    the designer library's image import (`nonocp.design.from_image`)."""
    import importlib
    import importlib.util

    def present(module: str, name: str | None = None) -> bool:
        try:
            if importlib.util.find_spec(module) is None:
                return False
            return name is None or hasattr(importlib.import_module(module), name)
        except ImportError:
            return False

    return {"step": present("nonocp.analysis.stepper"), "import_image": present("nonocp.design", "from_image")}


async def _disconnected(request: Request) -> None:
    """Returns when the client has gone (the ASGI server's http.disconnect)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def _killed(engine: str, limit: float, outcome: Outcome) -> dict[str, Any]:
    return {
        "status": "timeout", "exhausted": False, "engine": engine, "seconds": round(outcome.seconds, 4),
        "solutions": [], "count": 0, "differ": [], "killed": True,
        "message": f"timeout: no answer within {limit:g} s (the solver was stopped)",
    }


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
