"""`nonocp show PUZZLE`: what a puzzle file holds: title and credits, size, colours, the clues around
the grid, and the goal painted in when the file has one. `--format svg|png` draws the same picture
(a blank grid to print and solve by hand, or the goal)."""

from __future__ import annotations

from typing import Annotated

import typer

from nonocp.cli.common import (
    choose,
    fail,
    guarded,
    load_puzzles,
    same_file,
    stdout_is_terminal,
    terminal_console,
    write_output,
)
from nonocp.core.puzzle import Puzzle

FORMATS = ("text", "svg", "png")


def describe(puzzle: Puzzle, index: int, count: int) -> str:
    """The header lines: title, credits, size and colours."""
    m = puzzle.meta
    lines = []
    if count > 1:
        lines.append(f"puzzle {index} of {count}")
    lines.append(f"title: {m.title or '(untitled)'}")
    for label, value in (("author", m.author), ("copyright", m.copyright), ("license", m.license),
                         ("source", m.source)):
        if value:
            lines.append(f"{label}: {value}")
    lines.append(f"size: {puzzle.width}x{puzzle.height}")
    if puzzle.has_counts:
        named = ", ".join(f"{c.symbol}={c.name}" for c in puzzle.palette.colors)
        lines.append(f"colours: {len(puzzle.palette)} ({named}); count-and-contiguity clues (* = all in a row)")
    elif puzzle.palette.is_black_and_white:
        lines.append("colours: black and white")
    else:
        named = ", ".join(f"{c.symbol}={c.name} {c.rgb}" for c in puzzle.palette.colors[1:])
        lines.append(f"colours: {len(puzzle.palette) - 1} ({named}; background {puzzle.palette[0].rgb})")
    lines.append("goal: " + ("shown below" if m.goal is not None else "none in the file"))
    mismatch = puzzle.count_mismatch()
    if mismatch is not None:
        lines.append(f"no solution: {mismatch}")
    return "\n".join(lines) + "\n"


def show_command(
    puzzle: Annotated[str, typer.Argument(help="Puzzle file.", show_default=False)],
    from_fmt: Annotated[str | None, typer.Option("--from", help="Input format (default: from the name).")] = None,
    goal: Annotated[bool, typer.Option("--goal/--no-goal", help="Paint the file's goal into the grid.")] = True,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text, svg or png.")] = "text",
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write here instead of stdout.")] = None,
) -> None:
    """Show the clues of every puzzle in PUZZLE (and its goal, if the file has one)."""
    from nonocp.render import render_png, render_rich, render_svg, render_text

    fmt = choose(fmt, FORMATS, "--format")
    with guarded():
        if output is not None and same_file(output, puzzle):
            fail(f"{output}: refusing to overwrite the input file; choose another output")
        puzzles = load_puzzles(puzzle, from_fmt)
        if fmt != "text":
            if len(puzzles) > 1:
                fail(f"{puzzle}: holds {len(puzzles)} puzzles; {fmt} shows one (split the file first)")
            p = puzzles[0]
            data = (render_svg if fmt == "svg" else render_png)(p, p.meta.goal if goal else None)
            if output is None:
                if fmt == "png" and stdout_is_terminal():
                    fail("refusing to write PNG bytes to a terminal; use --output FILE or a pipe")
                typer.echo(data, nl=False)
            else:
                write_output(output, data, inputs=[puzzle])
            return
        painted = output is None and stdout_is_terminal()
        console = terminal_console() if painted else None
        parts: list[str] = []
        for i, p in enumerate(puzzles, 1):
            grid = p.meta.goal if goal else None
            if i > 1:
                parts.append("\n")
            parts.append(describe(p, i, len(puzzles)))
            if console is not None:
                console.print("".join(parts), end="", markup=False)
                console.print(render_rich(p, grid), end="")
                parts.clear()
            else:
                parts.append(render_text(p, grid))
        if output is not None:
            write_output(output, "".join(parts), inputs=[puzzle])
        elif parts:
            typer.echo("".join(parts), nl=False)


def register(app: typer.Typer) -> None:
    app.command("show")(show_command)
