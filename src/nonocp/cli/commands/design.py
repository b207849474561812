"""`nonocp design PICTURE`: turn a picture into a puzzle and say whether it can be published.

Reads PNG, JPEG, GIF, BMP, WebP, TIFF (Pillow) and any puzzle file with a goal (the text picture, PBM,
`.non`...); scales it (`--width`/`--height`, aspect kept), reduces it to black and white (`--threshold`)
or to `--colors K` colours with a background (`--background`), and reports the size, the colours, the
verdict (unique or not), the cells that differ between solutions, the difficulty and the guesses.
`--make-unique` proposes a few repainted cells after which the puzzle has one solution (proven by two
engines); `--max-difficulty LINE` keeps going until line logic alone solves it. `-o PUZZLE` writes the
puzzle (any writable format, the picture as its goal); `--picture FILE.png|.svg` draws before and after.

Exit codes: 0 done; 2 bad input; 3 the time limit ran out first; 4 the engines disagree on the proposal.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from nonocp.cli.common import (
    EXIT_DISAGREE,
    EXIT_SOLVED,
    EXIT_TIMEOUT,
    choose,
    fail,
    guarded,
    same_file,
    stdout_is_terminal,
    terminal_console,
    write_output,
)

REPORT_FORMATS = ("text", "json")
LEVELS = ("LINE", "PROBE", "BRANCH")


PictureArg = Annotated[str, typer.Argument(help="Image (PNG, JPEG, GIF, BMP, WebP, TIFF) or a puzzle file with a goal.",
                                           show_default=False)]
WidthOpt = Annotated[int | None, typer.Option("--width", help="Cells across (the height follows the aspect).")]
HeightOpt = Annotated[int | None, typer.Option("--height", help="Cells down (the width follows the aspect).")]
ColorsOpt = Annotated[int, typer.Option("--colors", "-c", help="Colours besides the background; 1: black and white.")]
ThresholdOpt = Annotated[int | None, typer.Option("--threshold", help="Grey level 0-255 below which a pixel is dark "
                                                  "(default: Otsu's, from the image).")]
BackgroundOpt = Annotated[str, typer.Option("--background", help="auto, white, black, a colour name or #rrggbb.")]
UniqueOpt = Annotated[bool, typer.Option("--make-unique", "-u", help="Propose cell changes after which the "
                                         "solution is unique.")]
LevelOpt = Annotated[str | None, typer.Option("--max-difficulty", help="LINE (line logic alone solves it), PROBE or "
                                              "BRANCH; implies --make-unique.")]
OutputOpt = Annotated[str | None, typer.Option("--output", "-o", help="Write the puzzle here (.non, .xml, .json...).")]
ToOpt = Annotated[str | None, typer.Option("--to", help="Format of --output (default: from its extension).")]
PictureOpt = Annotated[str | None, typer.Option("--picture", help="Draw the design before and after (.png or .svg).")]
FromOpt = Annotated[str | None, typer.Option("--from", help="Format of a puzzle-file PICTURE.")]
TitleOpt = Annotated[str | None, typer.Option("--title", help="The puzzle's title (default: the file name).")]
TimeoutOpt = Annotated[float | None, typer.Option("--timeout", "-t", help="Time limit for everything, seconds.")]
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="The report as text or json.")]


def design_command(
    picture: PictureArg,
    width: WidthOpt = None,
    height: HeightOpt = None,
    colors: ColorsOpt = 1,
    threshold: ThresholdOpt = None,
    background: BackgroundOpt = "auto",
    make_unique: UniqueOpt = False,
    max_difficulty: LevelOpt = None,
    output: OutputOpt = None,
    to_fmt: ToOpt = None,
    picture_out: PictureOpt = None,
    from_fmt: FromOpt = None,
    title: TitleOpt = None,
    timeout: TimeoutOpt = None,
    fmt: FormatOpt = "text",
) -> None:
    """Make a puzzle from a picture: verdict, ambiguous cells, difficulty; optionally fix it to be unique."""
    fmt = choose(fmt, REPORT_FORMATS, "--format")
    level = choose(max_difficulty, [v.lower() for v in LEVELS], "--max-difficulty")
    level = level.upper() if level else None
    if timeout is not None and timeout <= 0:
        fail(f"--timeout: {timeout:g} must be more than 0 seconds")
    if level is not None:
        make_unique = True
    with guarded():
        for out in (output, picture_out):
            if out is not None and same_file(out, picture):
                fail(f"{out}: refusing to overwrite the input file; choose another output")
        out_fmt = _output_format(output, to_fmt)
        pic_fmt = _picture_format(picture_out)
        code = _run(picture, width, height, colors, threshold, background, make_unique, level, output, out_fmt,
                    picture_out, pic_fmt, from_fmt, title, timeout, fmt)
    raise typer.Exit(code)


def _output_format(output: str | None, to_fmt: str | None) -> str | None:
    from nonocp.formats import format_for_extension, writable_formats

    if output is None:
        if to_fmt is not None:
            fail("--to needs --output")
        return None
    name = (to_fmt or format_for_extension(output) or "").lower()
    if not name:
        fail(f"{output}: cannot tell the output format from the name; give --to ({', '.join(writable_formats())})")
    if name not in writable_formats():
        fail(f"--to: {name!r} cannot be written; choose from {', '.join(writable_formats())}")
    return name


def _picture_format(path: str | None) -> str | None:
    if path is None:
        return None
    lower = path.lower()
    if lower.endswith(".png"):
        return "png"
    if lower.endswith(".svg"):
        return "svg"
    fail(f"--picture {path}: give a .png or .svg file name")


def _run(picture, width, height, colors, threshold, background, make_unique, level, output, out_fmt,
         picture_out, pic_fmt, from_fmt, title, timeout, fmt) -> int:
    import time

    from nonocp.design import analyse, from_image
    from nonocp.design import make_unique as fix
    from nonocp.design.checks import EnginesDisagree

    deadline = None if timeout is None else time.monotonic() + timeout

    def rest() -> float | None:
        return None if deadline is None else max(0.05, deadline - time.monotonic())

    design = from_image(picture, width=width, height=height, colors=colors, threshold=threshold,
                        background=background, title=title, fmt=from_fmt)
    report = analyse(design, time_limit=rest())
    result = None
    after = None
    code = EXIT_TIMEOUT if report.verdict == "timeout" else EXIT_SOLVED
    if make_unique and code == EXIT_SOLVED:
        try:
            result = fix(design, max_difficulty=level, time_limit=rest())
        except EnginesDisagree as e:
            fail(f"{picture}: {e}", EXIT_DISAGREE)
        if not result.unique:
            code = EXIT_TIMEOUT
        elif result.changes:
            after = analyse(result.design, time_limit=rest(), ambiguous=False)
    final = result.design if result is not None and result.unique else design
    if output is not None and out_fmt is not None:
        from nonocp.formats import dumps

        write_output(output, dumps(final.puzzle(), out_fmt), inputs=[picture])
    if picture_out is not None and pic_fmt is not None:
        write_output(picture_out, _picture(design, report, result, after, pic_fmt), inputs=[picture])
    if fmt == "json":
        record: dict[str, Any] = {"picture": picture, "design": report.as_dict(),
                                  "goal": design.grid.to_strings(design.palette)}
        if result is not None:
            record["make_unique"] = result.as_dict()
            if after is not None:
                record["after"] = after.as_dict()
        record["output"] = output
        typer.echo(json.dumps(record, ensure_ascii=False))
    else:
        _text(picture, design, report, result, after, output, picture_out)
    return code


def _colours_line(design) -> str:
    src = design.source
    if design.palette.is_black_and_white:
        if "threshold" in src:
            how = "Otsu's" if src.get("threshold_from") == "otsu" else "asked"
            return (f"black and white (threshold {src['threshold']}, {how}; {src.get('background', 'light')} "
                    f"background)")
        return "black and white"
    names = ", ".join(f"{c.symbol}={c.name} {c.rgb}" for c in design.palette.colors[1:])
    return f"{design.colors} ({names}; background {design.palette[0].rgb})"


def _difficulty_lines(report) -> list[str]:
    rating = report.rating
    if rating is None:
        return [f"difficulty: {report.difficulty}"]
    return [f"difficulty: {rating.summary}", f"guesses: {rating.guesses} (on the way to the first solution)"]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _text(picture, design, report, result, after, output, picture_out) -> None:
    from nonocp.render import render_rich, render_text

    src = design.source
    painted = stdout_is_terminal()
    console = terminal_console() if painted else None

    def say(text: str) -> None:
        if console is not None:
            console.print(text, markup=False, highlight=False)
        else:
            typer.echo(text)

    def grid(puzzle, g, marked=()) -> None:
        if console is not None:
            console.print(render_rich(puzzle, g, marked), end="")
        else:
            typer.echo(render_text(puzzle, g, marked), nl=False)

    size = src.get("image_size")
    origin = f" ({size[0]}x{size[1]} {'pixels' if src.get('kind') == 'image' else 'cells'})" if size else ""
    say(f"picture: {picture}{origin} -> {design.width}x{design.height} cells ({src.get('size_from', 'as given')})")
    say(f"colours: {_colours_line(design)}")
    if report.verdict == "unique":
        say("verdict: unique: the picture is the only solution")
    elif report.verdict == "multiple":
        exact = "" if report.ambiguous_exact else " at least"
        say(f"verdict: multiple solutions;{exact} {_plural(len(report.ambiguous), 'cell')} differ between them "
            "(marked ?)")
    else:
        say(f"verdict: {report.verdict}")
    for line in _difficulty_lines(report):
        say(line)
    puzzle = design.puzzle()
    grid(puzzle, design.grid, report.ambiguous)
    if result is not None:
        if result.status == "already-unique":
            say("make unique: nothing to change; proven unique by " + " and ".join(p.engine for p in result.proofs))
        elif result.unique:
            goal = f" and {result.max_difficulty} solvable" if result.max_difficulty else ""
            say(f"make unique: {_plural(len(result.changes), 'change')}, unique{goal} (proven unique by "
                f"{' and '.join(p.engine for p in result.proofs)}; {result.seconds:.2f} s)")
            for ch in result.changes:
                say(f"  {ch.describe(design.palette)}")
            if after is not None:
                for line in _difficulty_lines(after):
                    say(line.replace(":", " after:", 1))
            grid(result.design.puzzle(), result.design.grid)
        else:
            say(f"make unique: the time limit ran out after {result.rounds} rounds; no unique picture yet")
    if output is not None:
        say(f"wrote {output}")
    if picture_out is not None:
        say(f"wrote {picture_out}")


def _picture(design, report, result, after, fmt: str) -> bytes | str:
    from nonocp.render.design import Panel, panels_png, panels_svg

    def verdict(rep) -> str:
        if rep.verdict == "multiple":
            return f"{len(rep.ambiguous)} ambiguous cells"
        return rep.verdict

    panels = [Panel(design.puzzle(), design.grid, f"as drawn: {verdict(report)}, {report.difficulty}",
                    crossed=report.ambiguous)]
    if result is not None and result.unique and result.changes:
        difficulty = after.difficulty if after is not None else result.difficulty
        panels.append(Panel(result.design.puzzle(), result.design.grid,
                            f"{_plural(len(result.changes), 'cell')} changed: unique, {difficulty}",
                            outlined=[(c.row, c.col) for c in result.changes]))
    cell = 16 if max(design.width, design.height) <= 40 else 10
    return panels_png(panels, cell) if fmt == "png" else panels_svg(panels, cell)


def register(app: typer.Typer) -> None:
    app.command("design")(design_command)
