"""`nonocp convert IN OUT`: rewrite puzzles in another format. The input format comes from `--from`,
else the extension, else the content; the output format from `--to`, else OUT's extension.

OUT is written by the one write path (nonocp.formats.files): atomically, never over the input, written
through (not replaced) when it is a device or FIFO. Unlike `-o` of the other commands, an existing OUT
is not replaced without `--force`: a conversion names its target as an argument, where a slip of the
keyboard (`convert a.non b.non` for `convert b.xml b.non`) would otherwise lose a file."""

from __future__ import annotations

from typing import Annotated

import typer

from nonocp.cli.common import fail, guarded, load_puzzles, same_file, write_output


def convert_command(
    source: Annotated[str, typer.Argument(metavar="IN", help="Puzzle file to read.", show_default=False)],
    target: Annotated[str, typer.Argument(metavar="OUT", help="File to write ('-' for stdout).", show_default=False)],
    from_fmt: Annotated[str | None, typer.Option("--from", help="Input format (default: from IN).")] = None,
    to_fmt: Annotated[str | None, typer.Option("--to", help="Output format (default: from OUT's extension).")] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace OUT if it exists (even read-only; never IN).")
    ] = False,
) -> None:
    """Convert every puzzle in IN to OUT's format (.non, .nonpack, webpbn .xml, .json, ...)."""
    from nonocp.formats import dumps, format_for_extension, writable_formats

    with guarded():
        to_stdout = target == "-"
        if not to_stdout and same_file(target, source):
            fail(f"{target}: refusing to overwrite the input file; choose another output")
        fmt = to_fmt or (None if to_stdout else format_for_extension(target))
        if fmt is None:
            fail(f"{target}: cannot tell the output format from the name; give --to ({', '.join(writable_formats())})")
        if fmt.lower() not in writable_formats():
            fail(f"--to: {fmt!r} cannot be written; choose from {', '.join(writable_formats())}")
        puzzles = load_puzzles(source, from_fmt)
        text = dumps(puzzles[0] if len(puzzles) == 1 else puzzles, fmt.lower())
        if to_stdout:
            typer.echo(text, nl=False)
        else:
            write_output(target, text, inputs=[source], force=force, replace=False)


def register(app: typer.Typer) -> None:
    app.command("convert")(convert_command)
