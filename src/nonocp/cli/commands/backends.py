"""`nonocp backends`: every engine in the registry, whether it works here, and its version.
`--format json`: one object per engine per line (schema `backends`)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from nonocp.cli.options import ColorOpt, console, format_option, wants_color


def engine_rows() -> list[dict[str, object]]:
    """One row per registered engine: name, available, version, note (why it is unavailable)."""
    from nonocp.cli.options import engine_names
    from nonocp.engines import get_backend

    rows: list[dict[str, object]] = []
    for name in engine_names():
        try:
            backend = get_backend(name)
            rows.append({"name": name, "available": True, "version": str(backend.version()), "note": ""})
        except Exception as e:  # noqa: BLE001 - a broken engine module must not break the listing
            note = " ".join(str(e).split()) or type(e).__name__
            rows.append({"name": name, "available": False, "version": "-", "note": note})
    return rows


def backends_command(
    fmt: Annotated[str, format_option(("text", "json"))] = "text",
    color: ColorOpt = "auto",
) -> None:
    """List the engines: name, available here, version."""
    rows = engine_rows()
    if fmt == "json":
        for row in rows:
            typer.echo(json.dumps(row))
        return
    if wants_color(color):
        from rich.markup import escape
        from rich.table import Table

        table = Table("name", "available", "version", "note")
        for r in rows:
            table.add_row(escape(str(r["name"])), "yes" if r["available"] else "[red]no[/]",
                          escape(str(r["version"])), escape(str(r["note"])))
        console(color).print(table)
        return
    cells = [("name", "available", "version", "note")]
    cells += [(str(r["name"]), "yes" if r["available"] else "no", str(r["version"]), str(r["note"])) for r in rows]
    widths = [max(len(row[k]) for row in cells) for k in range(3)]
    for name, available, version, note in cells:
        columns = "  ".join(v.ljust(w) for v, w in zip((name, available, version), widths, strict=True))
        typer.echo(f"{columns}  {note}".rstrip())


def register(app: typer.Typer) -> None:
    app.command("backends")(backends_command)
