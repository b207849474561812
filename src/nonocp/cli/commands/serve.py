"""`nonocp serve`: the workbench in a browser (nonocp.web). The web stack is imported only when the
command runs, so the other commands never pay for it."""

from __future__ import annotations

from typing import Annotated

import typer

from nonocp.cli.common import exit_codes, fail, guarded


def serve_command(
    host: Annotated[
        str, typer.Option("--host", metavar="HOST", help="Address to listen on (loopback by default).")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", "-p", metavar="PORT", help="Port to listen on (0 picks a free one).")
    ] = 8765,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the default browser.")] = False,
    time_limit: Annotated[
        float,
        typer.Option("--time-limit", metavar="SECONDS",
                     help="Most seconds any one solve may run (it is killed past it)."),
    ] = 30.0,
    puzzles: Annotated[
        str | None,
        typer.Option("--puzzles", metavar="DIR", help="Folder of puzzles to offer (default: the shipped ones)."),
    ] = None,
) -> None:
    """Serve the nonocp workbench on http://HOST:PORT/: open, solve, step, design, edit and share puzzles."""
    if not 0.1 <= time_limit <= 3600:
        fail(f"--time-limit {time_limit:g}: choose from 0.1 to 3600 seconds")
    with guarded():
        from nonocp.web.config import Limits, Settings
        from nonocp.web.server import serve

        limits = Limits(max_time_limit=time_limit, default_time_limit=min(Limits().default_time_limit, time_limit))
        serve(host, port, open_browser, Settings(limits=limits, puzzles_dir=puzzles))


def register(app: typer.Typer) -> None:
    app.command("serve", epilog=exit_codes(0, 2))(serve_command)
