"""`nonocp explain PUZZLE`: the native engine's solving, step by step (see nonocp.analysis.explain).

Formats: `text` (each step in words, then the grid after it: undecided cells show their candidate
colours, `?` in black and white; changed cells are followed by `*`; bounded, see render/steps_text.py),
`json` (the steps as data, schema in nonocp.analysis.explain; one object per puzzle per line), `svg`
(`--output DIR`: one picture per step, the empty grid as step 0, and index.html to page through them).
`--all` / `-n N` go on past the first solution; `--interactive` steps through it on a terminal
(nonocp.cli.stepping). A time limit covers writing the steps out too. Files, folders and `-` (standard
input) as in `solve`. Exit code: 0 solved (or stopped by --max-steps), 1 no solution, 2 bad input, 3 time
limit (the most serious of all puzzles, as in `solve`).
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import TYPE_CHECKING, Annotated

import typer

from nonocp.cli.common import EXIT_NO_SOLUTION, EXIT_SOLVED, EXIT_TIMEOUT, exit_codes, fail, guarded, load_puzzles
from nonocp.cli.inputs import expand, label, most_serious, read_inputs, report_error
from nonocp.cli.options import (
    CellSizeOpt,
    ForceOpt,
    FromOpt,
    ProgressOpt,
    PuzzlesArg,
    TimeoutOpt,
    format_option,
    max_solutions_option,
    solutions_limit,
)
from nonocp.cli.progress import Progress
from nonocp.core.text import one_line

if TYPE_CHECKING:  # the analysis is imported when the command runs, not for `nonocp --help`
    from nonocp.analysis.explain import Explanation
    from nonocp.core.outputs import Outputs

FORMATS = ("text", "json", "svg")


def write_svg(ex: Explanation, folder: str, outputs: Outputs, cell: int = 20) -> list[str]:
    """One SVG per step (step-0000.svg is the empty grid) and index.html, each checked by `outputs`; returns
    the files written."""
    from nonocp.render.partial import index_html, render_partial_svg
    from nonocp.render.steps_text import captions, headline, wrap

    p = ex.puzzle
    outputs.claim_folder(folder, "--output")
    masks = [(1 << len(p.palette)) - 1] * (p.width * p.height)
    digits = max(4, len(str(len(ex.steps))))
    written: list[str] = []
    entries: list[tuple[str, str]] = []

    def put(name: str, caption: str, changed) -> None:
        svg = render_partial_svg(p, masks, changed, caption=wrap(caption), cell=cell)
        outputs.write(os.path.join(folder, name), svg)
        written.append(name)
        entries.append((name, caption))

    put(f"step-{0:0{digits}d}.svg", "Step 0: the empty grid.", ())
    for s, caption in zip(ex.steps, captions(ex), strict=True):
        for r, c, m in s.changes:
            masks[r * p.width + c] = m
        put(f"step-{s.n:0{digits}d}.svg", caption, [(r, c) for r, c, _ in s.changes])
    outputs.write(os.path.join(folder, "index.html"), index_html(p.title or "nonocp explain", entries, headline(ex)))
    written.append("index.html")
    return written


def exit_code(outcomes: list[str]) -> int:
    if "timeout" in outcomes:
        return EXIT_TIMEOUT
    if "no-solution" in outcomes:
        return EXIT_NO_SOLUTION
    return EXIT_SOLVED


FormatOpt = Annotated[str, format_option(FORMATS, "svg: one picture per step into the --output folder")]
OutputOpt = Annotated[
    str | None,
    typer.Option("--output", "-o", metavar="PATH", help="File (text, json) or folder (svg: one picture per step)."),
]
MaxStepsOpt = Annotated[int | None, typer.Option("--max-steps", metavar="N", min=0, help="Stop after N steps.")]
NoGridOpt = Annotated[bool, typer.Option("--no-grid", help="Text: the steps in words only, no grid after each.")]
AllOpt = Annotated[bool, typer.Option("--all", help="Go on past the first solution to every solution, each with "
                                      "the guesses that led to it.")]
SolutionsOpt = Annotated[int | None, max_solutions_option(
    default="the first", what="Go on past the first solution as --all does, stopping after N")]
InteractiveOpt = Annotated[bool, typer.Option("--interactive", "-i", help="Step through it on a terminal: next, back, "
                                              "r3/c7 (examine a line), all remaining cells, guess, quit.")]

# With a time limit, the steps get this share of it and writing them out (grids included) the rest.
EXPLAIN_SHARE = 0.75


def explain_command(
    puzzles: PuzzlesArg,
    fmt: FormatOpt = "text",
    output: OutputOpt = None,
    max_steps: MaxStepsOpt = None,
    timeout: TimeoutOpt = None,
    no_grid: NoGridOpt = False,
    from_fmt: FromOpt = None,
    all_solutions: AllOpt = False,
    max_solutions: SolutionsOpt = None,
    interactive: InteractiveOpt = False,
    cell_size: CellSizeOpt = 20,
    force: ForceOpt = False,
    progress: ProgressOpt = True,
) -> None:
    """Explain how the native engine solves each puzzle, step by step."""
    if interactive:
        if len(puzzles) != 1 or puzzles[0] == "-":
            fail("--interactive takes one puzzle file")
        interact(puzzles[0], from_fmt)
    if fmt == "svg" and output is None:
        fail("--format svg writes one picture per step: give --output DIR")
    from nonocp.analysis.explain import explain, explanation_json
    from nonocp.render.steps_text import headline, step_text, text_report

    codes: list[int] = []
    with guarded():
        paths = expand(puzzles)
        from nonocp.core.outputs import Outputs

        outputs = Outputs(paths, force=force)
        if fmt == "svg" and output is not None and os.path.exists(output) and not os.path.isdir(output):
            fail(f"{output}: is a file; --format svg needs a folder")
        if output is not None and fmt != "svg":
            outputs.claim(output)
        collected: list[str] = []
        several = len(paths) > 1
        count = 0
        working = Progress(progress)
        with working:
            for item in read_inputs(paths, from_fmt):
                if item.error is not None:
                    codes.append(report_error(item))
                    continue
                for i, p in enumerate(item.puzzles, 1):
                    count += 1
                    start = time.monotonic()
                    working.say(f"explaining {one_line(p.title) or item.name} ({p.width}x{p.height})")
                    share = None if timeout is None else timeout * EXPLAIN_SHARE
                    ex = explain(p, max_steps=max_steps, time_limit=share,
                                 all_solutions=all_solutions or max_solutions is not None,
                                 max_solutions=solutions_limit(max_solutions))
                    codes.append(exit_code([ex.outcome]))
                    where = label(item, i, several)
                    if fmt == "svg":
                        assert output is not None
                        alone = not several and len(item.puzzles) == 1
                        folder = output if alone else os.path.join(output, f"puzzle-{count}")
                        written = write_svg(ex, folder, outputs, cell_size)
                        typer.echo(f"{headline(ex)}\nwrote {len(written)} files to {folder} (open index.html)")
                        continue
                    if fmt == "json":
                        doc = {"file": item.name, "index": i,
                               **explanation_json(ex, lambda s, p=p: step_text(s, p))}
                        text = json.dumps(doc, ensure_ascii=False) + "\n"
                    else:
                        text = text_report(ex, grids=not no_grid, deadline=None if timeout is None else start + timeout)
                        if where:
                            text = f"{where}: " + text + "\n"
                    if output is None:
                        typer.echo(text, nl=False)
                    else:
                        collected.append(text)
        if output is not None and fmt != "svg" and collected:
            outputs.write(output, "".join(collected))
    raise typer.Exit(most_serious(codes))


def interact(path: str, from_fmt: str | None) -> None:
    """The --interactive mode (nonocp.cli.stepping); refuses without a terminal on both ends."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        fail("--interactive needs a terminal (standard input and output); use --format text or json to "
             "read the steps instead")
    with guarded():
        puzzles = load_puzzles(path, from_fmt)
        if len(puzzles) != 1:
            fail(f"{path}: holds {len(puzzles)} puzzles; --interactive takes one")
        from rich.console import Console

        from nonocp.cli.stepping import run

        console = Console(highlight=False)
        run(puzzles[0], console, lambda: console.input("> "))
    raise typer.Exit(EXIT_SOLVED)


def register(app: typer.Typer) -> None:
    app.command("explain", epilog=exit_codes(0, 1, 2, 3, 130))(explain_command)
