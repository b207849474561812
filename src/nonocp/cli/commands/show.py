"""`nonocp show PUZZLE...`: what a puzzle file holds: title and credits, size, colours, the clues around
the grid, and the goal painted in when the file has one. `--format svg|png` draws the same picture
(a blank grid to print and solve by hand, or the goal; with several puzzles, `--output pic.svg` writes
pic-1.svg, pic-2.svg, ...); `--format json` gives the same facts as data, one
object per puzzle per line (schema `show` in nonocp/cli/schemas.py). Exit 0, or 2 when some input could
not be read (the others are still shown)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from nonocp.cli.common import (
    console,
    exit_codes,
    fail,
    fit_text_grids,
    guarded,
    numbered,
    stdout_is_terminal,
    wants_color,
)
from nonocp.cli.inputs import expand, label, most_serious, read_inputs, report_error
from nonocp.cli.options import (
    CellSizeOpt,
    ColorOpt,
    CompactOpt,
    ForceOpt,
    FromOpt,
    OutputOpt,
    PuzzlesArg,
    format_option,
)
from nonocp.core.outputs import Outputs
from nonocp.core.puzzle import Puzzle
from nonocp.core.text import json_safe, one_line

FORMATS = ("text", "json", "svg", "png")
PICTURES = ("svg", "png")


def describe(puzzle: Puzzle, where: str = "", goal_shown: bool = True) -> str:
    """The header lines: title, credits, size and colours (free text from the file as one printable line
    each: a title cannot move the cursor or retitle the terminal)."""
    m = puzzle.meta
    lines = []
    if where:
        lines.append(one_line(where))
    lines.append(f"title: {one_line(m.title) or '(untitled)'}")
    if m.notes:
        lines.append(f"notes: {one_line(m.notes)}")
    for key, value in credits(puzzle).items():
        lines.append(f"{key}: {one_line(value)}")
    lines.append(f"size: {puzzle.width}x{puzzle.height}")
    if puzzle.has_counts:
        named = ", ".join(f"{c.symbol}={one_line(c.name)}" for c in puzzle.palette.colors)
        lines.append(f"colours: {len(puzzle.palette)} ({named}); count-and-contiguity clues (* = all in a row)")
    elif puzzle.palette.is_black_and_white:
        lines.append("colours: black and white")
    else:
        named = ", ".join(f"{c.symbol}={one_line(c.name)} {c.rgb}" for c in puzzle.palette.colors[1:])
        lines.append(f"colours: {len(puzzle.palette) - 1} ({named}; background {puzzle.palette[0].rgb})")
    if m.goal is None:
        lines.append("goal: none in the file")
    else:
        lines.append("goal: shown below" if goal_shown else "goal: in the file, not shown (--no-goal)")
    mismatch = puzzle.count_mismatch()
    if mismatch is not None:
        lines.append(f"no solution: {mismatch}")
    return "\n".join(lines) + "\n"


def credits(puzzle: Puzzle) -> dict[str, str]:
    m = puzzle.meta
    pairs = (("author", m.author), ("copyright", m.copyright), ("license", m.license), ("source", m.source))
    return {k: v for k, v in pairs if v}


def show_json(puzzle: Puzzle, goal_shown: bool) -> dict[str, Any]:
    """The `--format json` object of one puzzle (schema `show`)."""
    from nonocp.render import clue_tokens

    p = puzzle
    return {
        "title": p.title,
        **{k: credits(p).get(k, "") for k in ("author", "copyright", "license", "source")},
        "notes": p.meta.notes,
        "width": p.width,
        "height": p.height,
        "colors": {c.symbol: c.rgb for c in p.palette.colors},
        "color_names": {c.symbol: c.name for c in p.palette.colors},
        "rows": [clue_tokens(c, p.palette) for c in p.rows],
        "cols": [clue_tokens(c, p.palette) for c in p.cols],
        "goal": p.meta.goal.to_strings(p.palette) if goal_shown and p.meta.goal is not None else None,
        "has_goal": p.meta.goal is not None,
        "no_solution": p.count_mismatch(),
    }


GoalOpt = Annotated[bool, typer.Option("--goal/--no-goal", help="Paint the file's goal into the grid.")]
FormatOpt = Annotated[str, format_option(FORMATS, "svg and png: a picture to print", from_output=True)]


def show_command(
    puzzles: PuzzlesArg,
    from_fmt: FromOpt = None,
    goal: GoalOpt = True,
    fmt: FormatOpt = "text",
    output: OutputOpt = None,
    color: ColorOpt = "auto",
    cell_size: CellSizeOpt = 20,
    compact: CompactOpt = False,
    force: ForceOpt = False,
) -> None:
    """Show the clues of every puzzle in the files (and the goal, if the file has one)."""
    fit_text_grids(compact)
    from nonocp.render import render_png, render_rich, render_svg, render_text

    codes: list[int] = []
    with guarded():
        paths = expand(puzzles)
        outputs = Outputs(paths, force=force)
        if output is not None:
            outputs.claim(output)
        if fmt in PICTURES and output is None:
            if fmt == "png" and stdout_is_terminal():
                fail("refusing to write PNG bytes to a terminal; use --output FILE or a pipe")
            if len(paths) > 1:
                fail(f"{len(paths)} files: {fmt} needs --output FILE (one picture per puzzle)")
        painted = fmt == "text" and output is None and wants_color(color)
        screen = console(color) if painted else None
        several = len(paths) > 1
        parts: list[str] = []
        first = True
        pictures = 0
        for item in read_inputs(paths, from_fmt):
            if item.error is not None:
                codes.append(report_error(item))
                continue
            if fmt in PICTURES:
                if output is None and len(item.puzzles) > 1:
                    fail(f"{item.name}: holds {len(item.puzzles)} puzzles; {fmt} needs --output FILE (one picture "
                         "per puzzle)")
                for p in item.puzzles:
                    data = (render_svg if fmt == "svg" else render_png)(p, p.meta.goal if goal else None,
                                                                        cell=cell_size)
                    pictures += 1
                    if output is None:
                        typer.echo(data, nl=False)
                    else:  # one file per puzzle when there are several, as `solve` does: out-1.svg, out-2.svg
                        numbered_files = several or len(item.puzzles) > 1
                        outputs.write(numbered(output, pictures) if numbered_files else output, data)
                continue
            for i, p in enumerate(item.puzzles, 1):
                if fmt == "json":
                    doc = {"file": item.name, "index": i, **show_json(p, goal)}
                    parts.append(json_safe(json.dumps(doc, ensure_ascii=False)) + "\n")
                    continue
                grid = p.meta.goal if goal else None
                if not first:
                    parts.append("\n")
                first = False
                parts.append(describe(p, label(item, i, several), goal_shown=goal))
                if screen is not None:
                    screen.print("".join(parts), end="", markup=False)
                    screen.print(render_rich(p, grid), end="")
                    parts.clear()
                else:
                    parts.append(render_text(p, grid))
            if output is None and parts:
                typer.echo("".join(parts), nl=False)
                parts.clear()
        if output is not None and fmt not in PICTURES and parts:
            outputs.write(output, "".join(parts))
    raise typer.Exit(most_serious(codes))


def register(app: typer.Typer) -> None:
    app.command("show", epilog=exit_codes(0, 2))(show_command)
