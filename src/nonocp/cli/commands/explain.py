"""`nonocp explain PUZZLE`: the native engine's solving, step by step (see nonocp.analysis.explain).

Formats: `text` (each step in words, then the grid after it: undecided cells show their candidate
colours, `?` in black and white; changed cells are followed by `*`; bounded, see render/steps_text.py),
`json` (the steps as data, schema in nonocp.analysis.explain; one object per puzzle per line), `svg`
(`--output DIR`: one picture per step, the empty grid as step 0, and index.html to page through them).
`--all` / `--solutions N` go on past the first solution; `--interactive` steps through it on a terminal
(nonocp.cli.stepping). A time limit covers writing the steps out too. Exit code: 0 solved (or stopped by
--max-steps), 1 no solution, 2 bad input, 3 time limit.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Annotated

import typer

from nonocp.analysis.explain import Explanation, explain, explanation_json
from nonocp.cli.common import (
    EXIT_NO_SOLUTION,
    EXIT_SOLVED,
    EXIT_TIMEOUT,
    choose,
    fail,
    guarded,
    load_puzzles,
    same_file,
    write_output,
)
from nonocp.core.puzzle import Puzzle

FORMATS = ("text", "json", "svg")


def write_svg(ex: Explanation, folder: str) -> list[str]:
    """One SVG per step (step-0000.svg is the empty grid) and index.html; returns the files written."""
    from nonocp.render.partial import index_html, render_partial_svg
    from nonocp.render.steps_text import captions, headline, wrap

    p = ex.puzzle
    os.makedirs(folder, exist_ok=True)
    masks = [(1 << len(p.palette)) - 1] * (p.width * p.height)
    digits = max(4, len(str(len(ex.steps))))
    written: list[str] = []
    entries: list[tuple[str, str]] = []

    def put(name: str, caption: str, changed) -> None:
        svg = render_partial_svg(p, masks, changed, caption=wrap(caption))
        write_output(os.path.join(folder, name), svg)
        written.append(name)
        entries.append((name, caption))

    put(f"step-{0:0{digits}d}.svg", "Step 0: the empty grid.", ())
    for s, caption in zip(ex.steps, captions(ex), strict=True):
        for r, c, m in s.changes:
            masks[r * p.width + c] = m
        put(f"step-{s.n:0{digits}d}.svg", caption, [(r, c) for r, c, _ in s.changes])
    write_output(os.path.join(folder, "index.html"), index_html(p.title or "nonocp explain", entries, headline(ex)))
    written.append("index.html")
    return written


def exit_code(outcomes: list[str]) -> int:
    if "timeout" in outcomes:
        return EXIT_TIMEOUT
    if "no-solution" in outcomes:
        return EXIT_NO_SOLUTION
    return EXIT_SOLVED


PuzzleArg = Annotated[str, typer.Argument(help="Puzzle file (.non, .nonpack, webpbn XML, ...).", show_default=False)]
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="text, json or svg.")]
OutputOpt = Annotated[
    str | None, typer.Option("--output", "-o", help="File (text, json) or folder (svg: one picture per step).")
]
MaxStepsOpt = Annotated[int | None, typer.Option("--max-steps", help="Stop after N steps.")]
TimeoutOpt = Annotated[float | None, typer.Option("--timeout", "-t", help="Time limit per puzzle, seconds.")]
NoGridOpt = Annotated[bool, typer.Option("--no-grid", help="Text: the steps in words only, no grid after each.")]
FromOpt = Annotated[str | None, typer.Option("--from", help="Input format when the file name does not say.")]
AllOpt = Annotated[bool, typer.Option("--all", help="Go on past the first solution to every solution, each with "
                                      "the guesses that led to it.")]
SolutionsOpt = Annotated[int | None, typer.Option("--solutions", "-n", help="Like --all, but stop after N solutions.")]
InteractiveOpt = Annotated[bool, typer.Option("--interactive", "-i", help="Step through it on a terminal: next, back, "
                                              "r3/c7 (examine a line), all remaining cells, guess, quit.")]

# With a time limit, the steps get this share of it and writing them out (grids included) the rest.
EXPLAIN_SHARE = 0.75


def explain_command(
    puzzle: PuzzleArg,
    fmt: FormatOpt = "text",
    output: OutputOpt = None,
    max_steps: MaxStepsOpt = None,
    timeout: TimeoutOpt = None,
    no_grid: NoGridOpt = False,
    from_fmt: FromOpt = None,
    all_solutions: AllOpt = False,
    solutions: SolutionsOpt = None,
    interactive: InteractiveOpt = False,
) -> None:
    """Explain how the native engine solves PUZZLE, step by step; exit 0 solved, 1 no solution, 3 time limit."""
    fmt = choose(fmt, FORMATS, "--format")
    if solutions is not None and solutions < 1:
        fail(f"--solutions: {solutions} must be 1 or more")
    if interactive:
        interact(puzzle, from_fmt)
    if max_steps is not None and max_steps < 0:
        fail(f"--max-steps: {max_steps} must be 0 or more")
    if timeout is not None and timeout <= 0:
        fail(f"--timeout: {timeout:g} must be more than 0 seconds")
    if fmt == "svg" and output is None:
        fail("--format svg writes one picture per step: give --output DIR")
    from nonocp.render.steps_text import headline, step_text, text_report

    outcomes: list[str] = []
    with guarded():
        puzzles: list[Puzzle] = load_puzzles(puzzle, from_fmt)
        if output is not None and same_file(output, puzzle):
            fail(f"{output}: refusing to overwrite the input file; choose another output")
        if fmt == "svg" and os.path.exists(output) and not os.path.isdir(output):
            fail(f"{output}: is a file; --format svg needs a folder")
        collected: list[str] = []
        for i, p in enumerate(puzzles, 1):
            start = time.monotonic()
            ex = explain(p, max_steps=max_steps, time_limit=None if timeout is None else timeout * EXPLAIN_SHARE,
                         all_solutions=all_solutions or solutions is not None, max_solutions=solutions)
            outcomes.append(ex.outcome)
            if fmt == "svg":
                assert output is not None
                folder = output if len(puzzles) == 1 else os.path.join(output, f"puzzle-{i}")
                written = write_svg(ex, folder)
                typer.echo(f"{headline(ex)}\nwrote {len(written)} files to {folder} (open index.html)")
                continue
            if fmt == "json":
                text = json.dumps(explanation_json(ex, lambda s, p=p: step_text(s, p)), ensure_ascii=False) + "\n"
            else:
                text = text_report(ex, grids=not no_grid, deadline=None if timeout is None else start + timeout)
                if len(puzzles) > 1:
                    text = f"puzzle {i} of {len(puzzles)}: " + text + "\n"
            if output is None:
                typer.echo(text, nl=False)
            else:
                collected.append(text)
        if output is not None and fmt != "svg":
            write_output(output, "".join(collected), inputs=[puzzle])
    raise typer.Exit(exit_code(outcomes))


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
    app.command("explain")(explain_command)
