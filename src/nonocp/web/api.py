"""The JSON API under /api/ (documented in docs/web.md, "The JSON API"; the page uses nothing else).

The server's event loop only moves bytes. A handler checks what the headers show (the size, before the
body is read), refuses at once when the workers have no room, reads the body as bytes, and hands it to a
worker process: the `read` lane parses it, checks and sizes its puzzle (nonocp.web.reading), the `solve`
lane runs anything that needs an engine (nonocp.web.jobs), and each answers with the JSON bytes the
handler sends on. Errors are ApiError (codec.py) or the workers' refusals, turned into {"error": message}
with a 4xx status by app.py.
"""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from nonocp.web import codec
from nonocp.web.codec import ApiError
from nonocp.web.config import Settings
from nonocp.web.play import Solutions
from nonocp.web.play import handle as play_handler
from nonocp.web.puzzles import Catalogue
from nonocp.web.reading import exports
from nonocp.web.workers import READ, SOLVE, Busy, Outcome, Workers

JSON = "application/json"
FILE = "application/octet-stream"  # an uploaded file (/api/open, /api/design/import), sent as it is
READ_WALL_FACTOR = 10  # wall seconds per CPU second a read may take (a loaded machine shares its cores)


def ok(data: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})


def _encoded(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def answer(data: bytes) -> Response:
    """A JSON answer a worker built and encoded."""
    return Response(data, media_type="application/json", headers={"Cache-Control": "no-store"})


class Api:
    def __init__(self, settings: Settings, workers: Workers, catalogue: Catalogue) -> None:
        self.settings = settings
        self.limits = settings.limits
        self.workers = workers
        self.catalogue = catalogue
        self.solutions = Solutions()  # the Play mode's solutions, per puzzle (nonocp.web.play)
        self._info: bytes | None = None  # /api/info's JSON up to its workers

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

    async def body(self, request: Request, limit: int | None = None, *lanes: str, file: bool = False) -> bytes:
        """The request body as bytes, refused before it is read when its type is not JSON (`file`: not
        application/octet-stream, a file sent as it is) (415), when it says it is over `limit` (413), or
        when one of `lanes` has no room for it (429); refused past `limit` bytes while it is read.

        Both types make a browser ask before another site's page may send them (a CORS preflight, which
        this server never grants), where text/plain, form and multipart bodies would be sent unasked."""
        wanted = FILE if file else JSON
        given = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if given != wanted:
            raise ApiError(415, f"send the body as {wanted}" + (f", not {given[:60]}" if given else ""))
        limit = self.limits.max_body if limit is None else limit
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise ApiError(413, f"the request body is {int(declared)} bytes; this server takes at most {limit}")
        for lane in lanes:
            if not self.workers.has_room(lane):
                raise Busy("the server is busy; try again in a moment")
        chunks, size = [], 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise ApiError(413, f"the request body is over {limit} bytes; this server takes at most {limit}")
                chunks.append(chunk)
        except ClientDisconnect:  # the client went away mid-body: nobody to answer
            raise ApiError(499, "the client closed the request") from None
        return b"".join(chunks)

    async def read(self, request: Request, kind: str = "", limit: int | None = None) -> dict[str, Any]:
        """The request's JSON body read in a worker (nonocp.web.reading.request): `puzzle` (checked and
        sized), `time_limit`, `channel`, `body` (the other fields) and what `kind` takes besides; `arrival`
        orders it among the requests on its channel."""
        arrival = self.workers.arrival()
        data = await self.body(request, limit, READ, SOLVE)
        return {**await self.job(request, "read", (kind, data, self.limits)), "arrival": arrival}

    async def job(self, request: Request, name: str, args: tuple) -> Any:
        """Run a job of the `read` lane (reading, validating, exporting: no engine) and return its value. Its
        budget is CPU seconds (Limits.read_cpu_seconds: work, whatever the machine's load); the wall-clock
        limit behind it only catches a worker that stopped using the CPU."""
        cpu = self.limits.read_cpu_seconds
        outcome = await self.run(request, name, args, READ_WALL_FACTOR * cpu, None, READ, cpu=cpu)
        if not outcome.finished:
            raise ApiError(503, "the request could not be read: its worker stopped using the processor")
        return outcome.value

    async def run(self, request: Request, job: str, args: tuple, time_limit: float,
                  channel: str | dict[str, Any] | None = None, lane: str = SOLVE, cpu: int | None = None) -> Outcome:
        """Run a job in a worker; if the client goes away first, the job is cancelled (its worker killed).
        `channel`: the request's channel, or a read request holding it (and its arrival)."""
        arrival = None
        if isinstance(channel, dict):
            channel, arrival = channel.get("channel"), channel.get("arrival")
        task = asyncio.ensure_future(self.workers.run(job, args, time_limit, channel, lane, arrival, cpu))
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
        """What this server is and can do (encoded once: it does not change), and its workers now. The page's
        first request, and the one a flood must not slow: it costs the loop as little as an answer can."""
        if self._info is None:
            self._info = _encoded(self._static_info())[:-1] + b',"workers":'
        workers = f'{{"running":{self.workers.running},"started":{self.workers.started}}}}}'
        return answer(self._info + workers.encode())

    def _static_info(self) -> dict[str, Any]:
        from nonocp import __version__
        from nonocp.engines import DEFAULT_BACKEND, GENERAL
        from nonocp.formats import readable_formats

        lim = self.limits
        return {
            "version": __version__,
            "engines": list(GENERAL),  # what the page offers (any registered engine is accepted)
            "default_engine": DEFAULT_BACKEND,
            "formats": {"read": readable_formats(), "export": list(exports())},
            "limits": {
                "max_body": lim.max_body, "max_image": lim.max_image, "max_side": lim.max_side,
                "max_cells": lim.max_cells, "max_colors": lim.max_colors, "max_solutions": lim.max_solutions,
                "default_time_limit": lim.default_time_limit, "max_time_limit": lim.max_time_limit,
                "max_running": lim.max_running, "max_waiting": lim.max_waiting,
            },
            "features": features(),
        }

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
        data = await self.body(request, None, READ, file=True)
        name = request.query_params.get("name")
        fmt = request.query_params.get("format") or None
        return answer(await self.job(request, "open", (data, name[:200] if name else None, fmt, self.limits)))

    async def validate(self, request: Request) -> Response:
        data = await self.body(request, None, READ)
        return answer(await self.job(request, "validate", (data, self.limits)))

    async def solve(self, request: Request) -> Response:
        req = await self.read(request, "solve")
        engine, limit = req["engine"], req["time_limit"]
        outcome = await self.run(request, "solve", (req["puzzle"], engine, req["max_solutions"], limit), limit, req)
        if not outcome.finished:
            return ok(_killed(engine, limit, outcome))
        return answer(outcome.value)

    async def backbone(self, request: Request) -> Response:
        req = await self.read(request, "backbone")
        limit = req["time_limit"]
        outcome = await self.run(request, "backbone", (req["puzzle"], limit), limit, req)
        if not outcome.finished:
            return ok({"status": "timeout", "exact": False, "killed": True,
                       "message": f"no backbone within {limit:g} s"})
        return answer(outcome.value)

    async def rate(self, request: Request) -> Response:
        req = await self.read(request, "rate")
        limit = req["time_limit"]
        outcome = await self.run(request, "rate", (req["puzzle"], limit, req["max_solutions"]), limit, req)
        if not outcome.finished:
            return ok({"verdict": "UNKNOWN", "killed": True, "summary": f"no rating within {limit:g} s"})
        return answer(outcome.value)

    async def step(self, request: Request) -> Response:
        """The Step mode: the page keeps the stepper's state (JSON) and sends it with each action."""
        if not features()["step"]:
            raise ApiError(404, "this server has no step engine (nonocp.analysis.stepper)")
        # the state holds every step taken so far: allow it more room than a puzzle
        req = await self.read(request, "step", 4 * self.limits.max_body)
        limit = req["time_limit"]
        args = (req["puzzle"], req["state"], req["action"], req["params"], limit)
        outcome = await self.run(request, "step", args, limit, req)
        if not outcome.finished:
            raise ApiError(503, f"the step engine did not answer within {limit:g} s; try again, or step back")
        return answer(outcome.value)

    async def play(self, request: Request) -> Response:
        """The Play mode's Check and Hint on a person's grid (nonocp.web.play)."""
        return answer(await play_handler(self, request))

    async def import_image(self, request: Request) -> Response:
        """The body is a picture file; ?width= or ?height= (cells; the other follows the aspect ratio),
        ?colors= (1: black and white), ?threshold= (0-255, black and white only: the grey level below which
        a cell is black; default: found from the picture), ?background= (auto, white, black or #rrggbb),
        ?name=."""
        if not features()["import_image"]:
            raise ApiError(404, "this server has no designer library (nonocp.design) to import images")
        data = await self.body(request, self.limits.max_image, SOLVE, file=True)
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
        cpu = lim.read_cpu_seconds  # decoding a picture: bounded by its work, as reading a request is
        channel = (q.get("channel") or "")[:100] or None
        args = (data, name, width, height, colors, background, threshold, lim)
        outcome = await self.run(request, "import_image", args, READ_WALL_FACTOR * cpu, channel, cpu=cpu)
        if not outcome.finished:
            raise ApiError(503, "the picture could not be read: its worker stopped using the processor")
        return answer(outcome.value)

    async def make_unique(self, request: Request) -> Response:
        """The body: {"puzzle": a puzzle whose goal is the drawing, "time_limit"?}; the answer: the changed
        drawing (`goal`), every repainted cell (`changes`: [row, col, old, new], 0-based palette indices),
        and `status` (unique, already-unique, or timeout with the last drawing tried)."""
        if not features()["import_image"]:
            raise ApiError(404, "this server has no designer library (nonocp.design)")
        req = await self.read(request, "make_unique")
        limit = req["time_limit"]
        outcome = await self.run(request, "make_unique", (req["puzzle"], limit), limit, req)
        if not outcome.finished:
            raise ApiError(503, f"no unique drawing found within {limit:g} s")
        return answer(outcome.value)

    async def export(self, request: Request) -> Response:
        """The puzzle as a file: .non, XML, JSON (with the goal the puzzle carries), or an SVG/PNG picture
        (of `grid` when given: a solution; else the blank grid with its clues, to print)."""
        data = await self.body(request, None, READ)
        content, media, filename = await self.job(request, "export", (data, self.limits))
        return Response(content, media_type=media,
                        headers={"Content-Disposition": f'attachment; filename="{filename}"',
                                 "Cache-Control": "no-store"})


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
