"""`nonocp convert IN OUT`: rewrite puzzles in another format. The input format comes from `--from`,
else the extension, else the content (`-` reads standard input); the output format from `--to`, else
OUT's extension (`-` writes to standard output). `--format json` prints what was done as one JSON object
(schema `convert`).

`--clues counts` (implied by `--to counts`) turns run-clue puzzles into count-clue puzzles made from their
goal pictures (a text picture, a PBM, a file with a goal), the background one of the colours; `--clues runs`
does the reverse. A puzzle without a goal cannot change its clue kind: exit 2, naming it.

OUT is written by the one write path (nonocp.core.outputs): atomically, never over the input, written
through (not replaced) when it is a device or FIFO. Unlike `-o` of the other commands, an existing OUT
is not replaced without `--force`: a conversion names its target as an argument, where a slip of the
keyboard (`convert a.non b.non` for `convert b.xml b.non`) would otherwise lose a file."""

from __future__ import annotations

import json
import os
import shlex
from typing import Annotated

import typer

from nonocp.cli.common import exit_codes, fail, guarded, say_unkept_text
from nonocp.cli.inputs import STDIN, read_inputs
from nonocp.cli.options import FromOpt, clues_option, format_option
from nonocp.core.errors import NonocpError
from nonocp.core.outputs import Outputs

FormatOpt = Annotated[str, format_option(("text", "json"), "json: a one-line report of what was written")]
CluesOpt = Annotated[str | None, clues_option(
    "runs or counts: the clues to write, made from each puzzle's goal when the file has the other kind "
    "(default: as in IN; counts with --to counts).")]


PICTURES = ("svg", "png")


def _draw_instead(source: str, target: str, picture: str) -> str:
    """What to run instead of `convert a.non demo.svg`: convert writes puzzle files, the pictures are drawn by
    `show` (the clues, with the goal when the file has one) and `solve` (the solution)."""
    out = shlex.quote(target if target != STDIN and target.lower().endswith("." + picture) else f"picture.{picture}")
    src = shlex.quote(source)
    return (f"convert writes puzzle files, not {picture.upper()} pictures; draw one with `nonocp show {src} "
            f"-f {picture} -o {out}` (the clues) or `nonocp solve {src} -f {picture} -o {out}` (the solution)")


def convert_command(
    source: Annotated[str, typer.Argument(metavar="IN", help="Puzzle file to read (- for standard input).",
                                          show_default=False)],
    target: Annotated[str, typer.Argument(metavar="OUT", help="File to write (- for standard output).",
                                          show_default=False)],
    from_fmt: FromOpt = None,
    to_fmt: Annotated[
        str | None, typer.Option("--to", metavar="FORMAT", help="Output format (default: from OUT's extension).")
    ] = None,
    fmt: FormatOpt = "text",
    force: Annotated[
        bool, typer.Option("--force", help="Replace OUT if it exists (even read-only; never IN).")
    ] = False,
    clues: CluesOpt = None,
) -> None:
    """Convert every puzzle in IN to OUT's format (.non, .nonpack, webpbn .xml, .json, .counts, ...)."""
    from nonocp.core.puzzle import COUNTS, with_clue_kind
    from nonocp.formats import FORMATS, dumps, format_for_extension, writable_formats

    with guarded():
        to_stdout = target == STDIN
        outputs = Outputs([source], force=force)
        if not to_stdout:
            outputs.claim(target, "OUT", replace=False)
        out_fmt = to_fmt or (None if to_stdout else format_for_extension(target))
        picture = (to_fmt or os.path.splitext(target)[1].lstrip(".")).lower()
        if out_fmt is None and picture in PICTURES or (to_fmt or "").lower() in PICTURES:
            fail(_draw_instead(source, target, picture))
        if out_fmt is None:
            fail(f"{target}: cannot tell the output format from the name; give --to ({', '.join(writable_formats())})")
        if out_fmt.lower() not in writable_formats():
            fail(f"--to: {out_fmt!r} cannot be written; choose from {', '.join(writable_formats())}")
        (item,) = read_inputs([source], from_fmt)
        if item.error is not None:
            fail(item.error)
        puzzles = item.puzzles
        kinds = FORMATS[out_fmt.lower()].clue_kinds
        kind = clues or (COUNTS if kinds == (COUNTS,) else None)
        if kind is not None:
            converted = []
            for i, p in enumerate(puzzles, 1):
                try:
                    converted.append(with_clue_kind(p, kind))
                except NonocpError as e:
                    fail(f"{item.name}{f' (puzzle {i})' if len(puzzles) > 1 else ''}: {e}")
            puzzles = converted
        text = dumps(puzzles[0] if len(puzzles) == 1 else puzzles, out_fmt.lower())
        say_unkept_text(puzzles, out_fmt.lower(), "<stdout>" if to_stdout else target)
        if to_stdout:
            typer.echo(text, nl=False)
        else:
            outputs.write(target, text, "OUT", replace=False)
        if fmt == "json":
            report = {"source": item.name, "target": "<stdout>" if to_stdout else target,
                      "format": out_fmt.lower(), "puzzles": len(puzzles)}
            typer.echo(json.dumps(report, ensure_ascii=False), err=to_stdout)


def register(app: typer.Typer) -> None:
    app.command("convert", epilog=exit_codes(0, 2))(convert_command)
