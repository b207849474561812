"""`nonocp backends`: every engine in the registry, whether it works here, and its version.
`--format json`: one object per engine per line (schema `backends`)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from nonocp.cli.common import console, exit_codes, wants_color
from nonocp.cli.options import ColorOpt, format_option


def engine_rows() -> list[dict[str, object]]:
    """One row per registered engine: name, available, version, note (why it is unavailable), role, summary,
    and what its class declares (variants, options, capabilities) when it can be imported."""
    from nonocp.engines import BACKENDS, backend_class, entry, get_backend

    rows: list[dict[str, object]] = []
    for name in BACKENDS:
        known = entry(name)
        row: dict[str, object] = {"name": name, "available": False, "version": "-", "note": "",
                                  "role": known.role if known else "-", "summary": known.summary if known else ""}
        try:
            backend = get_backend(name)
            row.update(available=True, version=str(backend.version()))
        except Exception as e:  # noqa: BLE001 - a broken engine module must not break the listing
            row["note"] = " ".join(str(e).split()) or type(e).__name__
        try:
            cls = backend_class(name)
            row.update(variants=list(cls.variants), options=cls.settings.describe(),
                       capabilities=cls.capabilities.as_dict())
        except Exception:  # noqa: BLE001 - not importable: the note says why
            pass
        rows.append(row)
    return rows


def backends_command(
    fmt: Annotated[str, format_option(("text", "json"))] = "text",
    color: ColorOpt = "auto",
) -> None:
    """List the engines: name, available here, version, role; with --format json also their variants,
    options and capabilities."""
    rows = engine_rows()
    if fmt == "json":
        for row in rows:
            typer.echo(json.dumps(row))
        return
    if wants_color(color):
        from rich.markup import escape
        from rich.table import Table

        table = Table("name", "available", "version", "role", "note")
        for r in rows:
            table.add_row(escape(str(r["name"])), "yes" if r["available"] else "[red]no[/]",
                          escape(str(r["version"])), escape(str(r["role"])), escape(str(r["note"] or r["summary"])))
        console(color).print(table)
        return
    cells = [("name", "available", "version", "role", "note")]
    cells += [(str(r["name"]), "yes" if r["available"] else "no", str(r["version"]), str(r["role"]),
               str(r["note"] or r["summary"])) for r in rows]
    widths = [max(len(row[k]) for row in cells) for k in range(4)]
    for *columns, note in cells:
        text = "  ".join(v.ljust(w) for v, w in zip(columns, widths, strict=True))
        typer.echo(f"{text}  {note}".rstrip())


def register(app: typer.Typer) -> None:
    app.command("backends", epilog=exit_codes(0, 2))(backends_command)
