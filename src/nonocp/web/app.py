"""The ASGI application: the page (static files shipped in the package), the JSON API, errors as JSON.

Starlette rather than FastAPI: the API is a dozen endpoints whose input is puzzle files and puzzle
objects that nonocp's own readers check (with messages naming the line), so FastAPI's pydantic models
would be a second, weaker validator whose 422 answers have their own shape; Starlette alone is small
(it and anyio are its only dependencies), imports fast, and its test client drives the app in-process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from nonocp.web.api import Api
from nonocp.web.codec import ApiError
from nonocp.web.config import Settings
from nonocp.web.jobs import JOBS, preload
from nonocp.web.puzzles import Catalogue, find_folder
from nonocp.web.workers import JobFailed, JobRefused, Workers

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("nonocp.web")

# The page loads nothing from elsewhere (it works offline); a stray script from a puzzle title cannot run.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status,
                        headers={"Cache-Control": "no-store"})


# What a browser says about who made a request (Fetch Metadata): only the page itself, or the person typing
# an address, may use the API.
ALLOWED_FETCH_SITES = {"same-origin", "none"}


class Guard:
    """Who may use the server, checked before anything else runs, error pages included:

    - a Host header not in the allowed list is answered 400 (a loopback server must not be reachable through
      another site's DNS name pointing at 127.0.0.1);
    - an /api/ request from another origin is answered 403: a page on another site can make the browser send
      requests here (a form, `fetch(..., {mode: "no-cors"})`; it cannot read the answer, but could keep the
      workers busy), and the browser says so in `Sec-Fetch-Site` and `Origin`. A request without these
      headers (a script, curl) is not a browser acting for another site and is served;
    and it adds the security headers to every answer."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...] | None) -> None:
        self.app = app
        self.allowed = None if allowed is None else {h.lower() for h in allowed}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k: v.decode("latin-1") for k, v in scope.get("headers", []) if k in (b"host", b"origin",
                                                                                       b"sec-fetch-site")}
        host = headers.get(b"host", "").lower()
        if self.allowed is not None:
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            name = name.strip("[]")
            if name not in self.allowed:
                await error(400, f"host {host[:80]!r} is not served here")(scope, receive, send)
                return
        if scope.get("path", "").startswith("/api/"):
            why = _foreign(headers, host, scope.get("scheme", "http"))
            if why:
                await error(403, f"{why}: the API answers only the workbench's own page")(scope, receive, send)
                return

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                for k, v in SECURITY_HEADERS.items():
                    if k.lower().encode() not in present:
                        headers.append((k.lower().encode(), v.encode()))
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _foreign(headers: dict[bytes, str], host: str, scheme: str) -> str | None:
    """Why a request comes from another site (its Fetch Metadata or its Origin), or None."""
    site = headers.get(b"sec-fetch-site")
    if site is not None and site.lower() not in ALLOWED_FETCH_SITES:
        return f"a {site[:20]} request"
    origin = headers.get(b"origin")
    if origin is not None and origin.lower() != f"{scheme}://{host}":
        return f"a request from {origin[:80]!r}"
    return None


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    workers = Workers(settings.limits, {**JOBS, **settings.jobs}, preload())
    catalogue = Catalogue(find_folder(settings.puzzles_dir))
    api = Api(settings, workers, catalogue)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if settings.warm_workers:
            await asyncio.to_thread(workers.warm)
        try:
            yield
        finally:
            workers.close()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def print_page(request: Request) -> Response:
        return FileResponse(STATIC / "print.html", headers={"Cache-Control": "no-cache"})

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return error(exc.status, exc.message)

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, JobRefused)
        return error(exc.status, (exc.message.splitlines() or [""])[0])

    async def failed(request: Request, exc: Exception) -> Response:
        log.error("a job failed: %s", exc)
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return error(500, f"the server could not finish this request ({first})")

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404:
            return error(404, f"nothing at {request.url.path[:100]}")
        if exc.status_code == 405:
            return error(405, f"{request.method} is not allowed on {request.url.path[:100]}")
        return error(exc.status_code, str(exc.detail))

    async def crashed(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s", request.url.path, exc_info=exc)
        return error(500, "internal error: the server could not finish this request")

    app = Starlette(
        routes=[
            Route("/", page, methods=["GET"]),
            Route("/print", print_page, methods=["GET"]),
            Mount("/api", routes=api.routes()),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={
            ApiError: api_error,
            JobRefused: refused,
            JobFailed: failed,
            HTTPException: http_error,
            Exception: crashed,
        },
        lifespan=lifespan,
    )
    app.state.workers = workers
    app.state.settings = settings
    # the host and origin checks wrap everything, error pages included
    app.add_middleware(Guard, allowed=settings.allowed_hosts)
    if not logging.getLogger().handlers and not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("nonocp serve: %(message)s"))
        log.addHandler(handler)
    return app
