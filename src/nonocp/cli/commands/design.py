"""`nonocp design PICTURE`: turn a picture into a puzzle and say whether it can be published.

Reads PNG, JPEG, GIF, BMP, WebP, TIFF (Pillow) and any puzzle file with a goal (the text picture, PBM,
`.non`...); scales it (`--width`/`--height`, aspect kept), reduces it to black and white (`--threshold`)
or to `--colors K` colours with a background (`--background`), and reports the size, the colours, the
verdict (unique or not), the cells that differ between solutions, the difficulty and the guesses per
solution. `--make-unique` proposes a few repainted cells after which the puzzle has one solution (proven
by two engines); `--max-difficulty LINE` keeps going until line logic alone solves it. `--clues counts`
makes a count-and-contiguity puzzle instead of run clues (the background one of its colours). `-o PUZZLE`
writes the puzzle (any writable format that holds its clues, the picture as its goal); `--picture
FILE.png|.svg` draws the design before and after.

Exit codes: 0 done; 2 bad input; 3 the time limit ran out first; 4 the engines disagree on the proposal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from nonocp.cli.common import (
    EXIT_DISAGREE,
    EXIT_SOLVED,
    EXIT_TIMEOUT,
    console,
    exit_codes,
    fail,
    fit_text_grids,
    guarded,
    say_unkept_text,
    wants_color,
)
from nonocp.cli.options import (
    CellSizeOpt,
    ColorOpt,
    CompactOpt,
    ForceOpt,
    FromOpt,
    ProgressOpt,
    clues_option,
    difficulty_level,
    format_option,
    max_solutions_option,
    solutions_limit,
    timeout_option,
)
from nonocp.cli.progress import Progress

PictureArg = Annotated[str, typer.Argument(
    metavar="PICTURE", show_default=False,
    help="An image (PNG, JPEG, GIF, BMP, WebP, TIFF) or a puzzle file with a goal (text picture, PBM, .non...).")]
WidthOpt = Annotated[int | None, typer.Option("--width", metavar="CELLS", min=1,
                                              help="Cells across (the height follows the aspect ratio).")]
HeightOpt = Annotated[int | None, typer.Option("--height", metavar="CELLS", min=1,
                                               help="Cells down (the width follows the aspect ratio).")]
ColorsOpt = Annotated[int, typer.Option("--colors", "-c", metavar="K", min=1,
                                        help="Colours besides the background; 1 is black and white.")]
ThresholdOpt = Annotated[int | None, typer.Option(
    "--threshold", metavar="GREY", min=0, max=255,
    help="Black and white: a cell darker than this grey level (0-255) is dark (default: Otsu's, from the image).")]
BackgroundOpt = Annotated[str, typer.Option("--background", metavar="COLOUR",
                                            help="auto (the border's colour), white, black, a colour name or "
                                                 "#rrggbb.")]
UniqueOpt = Annotated[bool, typer.Option("--make-unique", "-u",
                                         help="Propose cell changes after which the solution is unique.")]
LevelOpt = Annotated[str | None, typer.Option("--max-difficulty", metavar="LEVEL", callback=difficulty_level,
                                              help="LINE (line logic alone solves it), PROBE or BRANCH; implies "
                                                   "--make-unique.")]
PuzzleOutOpt = Annotated[str | None, typer.Option("--output", "-o", metavar="PUZZLE",
                                                  help="Write the puzzle here (.non, .xml, .json...), the picture "
                                                       "(as changed) its goal.")]
ToOpt = Annotated[str | None, typer.Option("--to", metavar="FORMAT",
                                           help="Format of --output (default: from its extension).")]
PictureOutOpt = Annotated[str | None, typer.Option("--picture", metavar="FILE",
                                                   help="Draw the design before and after (.png or .svg).")]
TrimOpt = Annotated[bool, typer.Option("--trim", help="Leave out the empty rows and columns at the picture's "
                                                        "edges (after scaling to --width/--height).")]
TitleOpt = Annotated[str | None, typer.Option("--title", metavar="TITLE",
                                              help="The puzzle's title (default: the file's name).")]
SolutionsOpt = Annotated[int, max_solutions_option(what="Solutions the rating walks for guesses per solution")]
CluesOpt = Annotated[str | None, clues_option(
    "runs (blocks in order) or counts (per colour a count and whether all in a row; the background is one of "
    "the colours). Default: runs, or as the puzzle file given has them.")]
TimeoutOpt = Annotated[float | None, timeout_option()]
FormatOpt = Annotated[str, format_option(("text", "json"))]


@dataclass(frozen=True)
class Job:
    picture: str
    width: int | None
    height: int | None
    colors: int
    threshold: int | None
    background: str
    make_unique: bool
    level: str | None
    output: str | None
    out_fmt: str | None
    picture_out: str | None
    from_fmt: str | None
    title: str | None
    solutions: int | None
    timeout: float | None
    fmt: str
    color: str
    cell: int
    clues: str | None = None
    trim: bool = False


# A black-and-white design with less than this share of its cells filled (or of them empty) has thrown the
# picture away: a photo-like picture whose threshold kept only its brightest spots, or nothing but its frame.
LOST_SHARE = 0.05
# A colour count is suggested when its design fills between these shares of the cells.
KEPT_SHARES = (0.12, 0.88)


def design_command(
    picture: PictureArg,
    width: WidthOpt = None,
    height: HeightOpt = None,
    colors: ColorsOpt = 1,
    threshold: ThresholdOpt = None,
    background: BackgroundOpt = "auto",
    make_unique: UniqueOpt = False,
    max_difficulty: LevelOpt = None,
    output: PuzzleOutOpt = None,
    to_fmt: ToOpt = None,
    picture_out: PictureOutOpt = None,
    cell_size: CellSizeOpt = 20,
    compact: CompactOpt = False,
    from_fmt: FromOpt = None,
    title: TitleOpt = None,
    max_solutions: SolutionsOpt = 2,
    timeout: TimeoutOpt = None,
    fmt: FormatOpt = "text",
    color: ColorOpt = "auto",
    force: ForceOpt = False,
    clues: CluesOpt = None,
    trim: TrimOpt = False,
    progress: ProgressOpt = True,
) -> None:
    """Make a puzzle from a picture: verdict, ambiguous cells, difficulty; --make-unique fixes it."""
    fit_text_grids(compact)
    from nonocp.core.outputs import Outputs

    with guarded():
        outputs = Outputs([picture], force=force)
        if output is not None:
            outputs.claim(output)
        if picture_out is not None:
            outputs.claim(picture_out, "--picture")
        job = Job(picture, width, height, colors, threshold, background, make_unique or max_difficulty is not None,
                  max_difficulty, output, _output_format(output, to_fmt), picture_out, from_fmt, title,
                  solutions_limit(max_solutions), timeout, fmt, color, cell_size, clues, trim)
        _picture_format(picture_out)
        with Progress(progress) as working:
            code = run(job, outputs, working)
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


def _check_output_holds(job: Job, kind: str) -> None:
    """Refuse, before the work, an --output format that cannot hold the design's clues."""
    from nonocp.core.puzzle import KIND_NAMES
    from nonocp.formats import FORMATS, writable_formats

    if job.out_fmt is None or kind in FORMATS[job.out_fmt].clue_kinds:
        return
    holding = [f for f in writable_formats() if kind in FORMATS[f].clue_kinds]
    other = "runs" if kind == "counts" else "counts"
    fail(f"{job.output}: format {job.out_fmt!r} cannot hold {KIND_NAMES[kind]} clues; write {' or '.join(holding)} "
         f"(or choose --clues {other})")


def _warn_if_lost(job: Job, design: Any, from_image: Any) -> None:
    """One line on stderr when a black-and-white threshold threw the picture away (nearly every cell empty,
    or nearly every one filled), with a colour count that keeps it, tried on the same picture."""
    if job.colors != 1 or design.source.get("kind") != "image":
        return
    share = design.filled_share()
    if LOST_SHARE <= share <= 1 - LOST_SHARE:
        return
    source = design.source
    how = "asked" if source.get("threshold_from") == "asked" else "Otsu's"
    said = (f"nonocp: warning: {job.picture}: black and white at threshold {source.get('threshold')} ({how}) "
            f"fills {share:.0%} of the cells: most of the picture is lost")
    for k in (2, 3, 4):
        other = from_image(job.picture, width=job.width, height=job.height, colors=k, background=job.background,
                           title=job.title, fmt=job.from_fmt)
        kept = other.filled_share()
        if KEPT_SHARES[0] <= kept <= KEPT_SHARES[1]:
            typer.echo(f"{said}; --colors {k} keeps it ({kept:.0%} of the cells filled)", err=True)
            return
    typer.echo(f"{said}; try --threshold LEVEL (0-255) or --colors 2 to 4", err=True)


def _picture_format(path: str | None) -> str | None:
    if path is None:
        return None
    lower = path.lower()
    if lower.endswith(".png"):
        return "png"
    if lower.endswith(".svg"):
        return "svg"
    fail(f"--picture {path}: give a .png or .svg file name")


def run(job: Job, outputs: Any, working: Progress | None = None) -> int:
    import dataclasses
    import time

    from nonocp.core.errors import NonocpError
    from nonocp.design import EnginesDisagree, analyse, from_image, make_unique

    deadline = None if job.timeout is None else time.monotonic() + job.timeout

    def rest() -> float | None:
        return None if deadline is None else max(0.05, deadline - time.monotonic())

    say = (lambda text: None) if working is None else working.say
    say(f"reading {job.picture}")
    design = from_image(job.picture, width=job.width, height=job.height, colors=job.colors,
                        threshold=job.threshold, background=job.background, title=job.title, fmt=job.from_fmt)
    _warn_if_lost(job, design, from_image)
    if job.trim:
        try:
            design = design.trimmed()
        except NonocpError as e:
            fail(f"{job.picture}: {e}")
    if job.clues == "counts":
        design = design.as_counts()
    elif job.clues == "runs" and design.clue_kind != "runs":
        design = dataclasses.replace(design, clue_kind="runs")  # the first colour becomes the background
    _check_output_holds(job, design.clue_kind)
    say(f"analysing the {design.width}x{design.height} design (uniqueness, ambiguous cells, difficulty)")
    report = analyse(design, time_limit=rest(), solutions=job.solutions)
    result = after = None
    code = EXIT_TIMEOUT if report.verdict == "timeout" else EXIT_SOLVED
    if job.make_unique and code == EXIT_SOLVED:
        try:
            say("making it unique" + (f" (at most {job.level})" if job.level else ""))
            result = make_unique(design, max_difficulty=job.level, time_limit=rest())
        except EnginesDisagree as e:
            fail(f"{job.picture}: {e}", EXIT_DISAGREE)
        if not result.unique:
            code = EXIT_TIMEOUT
        elif result.changes:
            after = analyse(result.design, time_limit=rest(), ambiguous=False, solutions=job.solutions)
    final = result.design if result is not None and result.unique else design
    if job.output is not None and job.out_fmt is not None:
        from nonocp.formats import dumps

        outputs.write(job.output, dumps(final.puzzle(), job.out_fmt))
        say_unkept_text([final.puzzle()], job.out_fmt, job.output)
    if job.picture_out is not None:
        outputs.write(job.picture_out, _picture(job, design, report, result, after), "--picture")
    if job.fmt == "json":
        record: dict[str, Any] = {"picture": job.picture, "clues": design.clue_kind, "design": report.as_dict(),
                                  "goal": design.grid.to_strings(design.palette)}
        if result is not None:
            record["make_unique"] = result.as_dict()
            if after is not None:
                record["after"] = after.as_dict()
        record["output"] = job.output
        typer.echo(json.dumps(record, ensure_ascii=False))
    else:
        _text(job, design, report, result, after)
    return code


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _colours_line(design) -> str:
    src = design.source
    if design.clue_kind == "counts":
        names = ", ".join(f"{c.symbol}={c.name} {c.rgb}" for c in design.palette.colors)
        return f"{design.colors} ({names}); count clues (* = all in a row)"
    if design.palette.is_black_and_white:
        if "threshold" in src:
            how = "Otsu's" if src.get("threshold_from") == "otsu" else "as asked"
            return f"black and white (threshold {src['threshold']}, {how}; {src.get('background')} background)"
        return "black and white"
    names = ", ".join(f"{c.symbol}={c.name} {c.rgb}" for c in design.palette.colors[1:])
    return f"{design.colors} ({names}; background {design.palette[0].rgb})"


def _rating_lines(report, suffix: str = "") -> list[str]:
    rating = report.rating
    if rating is None:
        return [f"difficulty{suffix}: {report.difficulty}"]
    per = report.guesses_per_solution
    if report.verdict == "unique":
        which = "the only solution"
    elif rating.exhaustive:
        which = f"all {len(per)} solutions"
    else:
        which = f"the first {len(per)} solutions"
    # the guesses per solution get a line of their own below, saying which solutions they cover
    lines = [f"difficulty{suffix}: {rating.describe(guesses_per_solution=not per)}"]
    if per:
        lines.append(f"guesses per solution{suffix}: {', '.join(map(str, per))} ({which})")
    return lines


def _text(job: Job, design, report, result, after) -> None:
    from nonocp.render import render_rich, render_text

    src = design.source
    painted = wants_color(job.color)
    out = console(job.color) if painted else None

    def say(text: str) -> None:
        if out is not None:
            out.print(text, markup=False, highlight=False)
        else:
            typer.echo(text)

    def grid(puzzle, g, marked=()) -> None:
        if out is not None:
            out.print(render_rich(puzzle, g, marked), end="")
        else:
            typer.echo(render_text(puzzle, g, marked), nl=False)

    size = src.get("image_size")
    unit = "pixels" if src.get("kind") == "image" else "cells"
    origin = f" ({size[0]}x{size[1]} {unit})" if size else ""
    cut = src.get("trimmed")
    trimmed = "" if not cut else ", trimmed: " + ", ".join(
        f"{n} {side}" for side, n in cut.items() if n) + " empty rows/columns left out"
    say(f"picture: {job.picture}{origin} -> {design.width}x{design.height} cells "
        f"({src.get('size_from', 'as given')}{trimmed})")
    say(f"colours: {_colours_line(design)}")
    if report.verdict == "unique":
        say("verdict: unique: the picture is the only solution")
    elif report.verdict == "multiple":
        least = "" if report.ambiguous_exact else " at least"
        say(f"verdict: multiple solutions;{least} {_plural(len(report.ambiguous), 'cell')} differ between them "
            "(marked ?)")
    else:
        say(f"verdict: {report.verdict}")
    for line in _rating_lines(report):
        say(line)
    grid(design.puzzle(), design.grid, report.ambiguous)
    if result is not None:
        engines = " and ".join(p.engine for p in result.proofs)
        if result.status == "already-unique":
            say(f"make unique: nothing to change; proven unique by {engines}")
        elif result.unique:
            goal = f" and {result.max_difficulty}-solvable" if result.max_difficulty else ""
            say(f"make unique: {_plural(len(result.changes), 'change')}, unique{goal} (proven by {engines}; "
                f"{result.seconds:.2f} s)")
            for ch in result.changes:
                say(f"  {ch.describe(design.palette)}")
            if after is not None:
                for line in _rating_lines(after, " after"):
                    say(line)
            grid(result.design.puzzle(), result.design.grid)
        else:
            say(f"make unique: the time limit ran out after {_plural(result.rounds, 'round')}; no unique picture yet")
    for path in (job.output, job.picture_out):
        if path is not None:
            say(f"wrote {path}")


def _picture(job: Job, design, report, result, after) -> bytes | str:
    from nonocp.render.design import Panel, panels_png, panels_svg

    drawn = f"{_plural(len(report.ambiguous), 'ambiguous cell')}" if report.verdict == "multiple" else \
        f"{report.verdict}, {report.difficulty}"
    panels = [Panel(design.puzzle(), design.grid, f"as drawn: {drawn}", marked=report.ambiguous)]
    if result is not None and result.unique and result.changes:
        difficulty = after.difficulty if after is not None else result.difficulty
        panels.append(Panel(result.design.puzzle(), result.design.grid,
                            f"{_plural(len(result.changes), 'cell')} changed: unique, {difficulty}",
                            outlined=[(c.row, c.col) for c in result.changes]))
    if _picture_format(job.picture_out) == "png":
        return panels_png(panels, job.cell)
    return panels_svg(panels, job.cell)


def register(app: typer.Typer) -> None:
    app.command("design", epilog=exit_codes(0, 2, 3, 4, 130))(design_command)
