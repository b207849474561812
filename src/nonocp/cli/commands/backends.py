"""`nonocp backends`: every engine in the registry, whether it works here, and its version."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from nonocp.cli.common import choose, stdout_is_terminal, terminal_console


def engine_rows() -> list[dict[str, object]]:
    """One row per registered engine: name, available, version, note (why it is unavailable)."""
    from nonocp.engines import BACKENDS, get_backend

    rows: list[dict[str, object]] = []
    for name in BACKENDS:
        try:
            backend = get_backend(name)
            rows.append({"name": name, "available": True, "version": str(backend.version()), "note": ""})
        except Exception as e:  # noqa: BLE001 - a broken engine module must not break the listing
            note = " ".join(str(e).split()) or type(e).__name__
            rows.append({"name": name, "available": False, "version": "-", "note": note})
    return rows


def backends_command(
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
) -> None:
    """List the engines: name, available here, version."""
    fmt = choose(fmt, ("text", "json"), "--format")
    rows = engine_rows()
    if fmt == "json":
        typer.echo(json.dumps(rows))
        return
    if stdout_is_terminal():
        from rich.table import Table

        table = Table("name", "available", "version", "note")
        for r in rows:
            table.add_row(str(r["name"]), "yes" if r["available"] else "[red]no[/]", str(r["version"]), str(r["note"]))
        terminal_console().print(table)
        return
    cells = [("name", "available", "version", "note")]
    cells += [(str(r["name"]), "yes" if r["available"] else "no", str(r["version"]), str(r["note"])) for r in rows]
    widths = [max(len(row[k]) for row in cells) for k in range(3)]
    for name, available, version, note in cells:
        columns = "  ".join(v.ljust(w) for v, w in zip((name, available, version), widths, strict=True))
        typer.echo(f"{columns}  {note}".rstrip())


def register(app: typer.Typer) -> None:
    app.command("backends")(backends_command)
