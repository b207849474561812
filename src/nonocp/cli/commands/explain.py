"""`nonocp explain PUZZLE...`: the native engine's solving, step by step (see nonocp.analysis.explain).

Formats: `text` (each step in words, then the grid after it: undecided cells show their candidate
colours, `?` in black and white; changed cells are followed by `*`), `json` (the steps as data, schema in
nonocp.analysis.explain; one object per puzzle per line), `svg` (`--output DIR`: one picture per step, the empty grid
as step 0, and index.html listing them). Files, folders and `-` (standard input) as in `solve`. Exit code:
0 solved (or stopped by --max-steps), 1 no solution, 2 bad input, 3 time limit (the most serious of all
puzzles, as in `solve`).
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Annotated

import typer

from nonocp.cli.common import EXIT_NO_SOLUTION, EXIT_SOLVED, EXIT_TIMEOUT, fail, guarded, write_output
from nonocp.cli.inputs import expand, label, most_serious, read_inputs, refuse_overwriting, report_error
from nonocp.cli.options import CellSizeOpt, FromOpt, PuzzlesArg, TimeoutOpt, format_option

if TYPE_CHECKING:  # the analysis is imported when the command runs, not for `nonocp --help`
    from nonocp.analysis.explain import Explanation

def headline(ex: Explanation) -> str:
    p = ex.puzzle
    name = p.title or "untitled"
    c = ex.counts
    verdict = {
        "solved": "solved" + (f" ({ex.status})" if ex.status is not None else ""),
        "no-solution": "no solution",
        "truncated": "stopped at --max-steps",
        "timeout": "time limit reached",
    }[ex.outcome]
    return (f"{name} ({p.width}x{p.height}): {verdict}: {c['steps']} steps: {c['line']} line, {c['probes']} probe, "
            f"{c['guesses']} guesses, {c['backtracks']} backtracks, depth {c['max_depth']}")


def text_report(ex: Explanation, grids: bool = True) -> str:
    from nonocp.render.partial import render_partial_text

    p = ex.puzzle
    ncells = p.width * p.height
    masks = [(1 << len(p.palette)) - 1] * ncells
    out = [headline(ex) + "\n"]
    if grids:
        out.append(render_partial_text(p, masks))
    for s in ex.steps:
        for r, c, m in s.changes:
            masks[r * p.width + c] = m
        indent = "  " * s.depth
        out.append(f"\n{indent}Step {s.n}: {s.text} [{s.unknown} undecided]\n")
        if grids and s.changes:
            out.append(render_partial_text(p, masks, [(r, c) for r, c, _ in s.changes]))
    if ex.status is not None and str(ex.status) == "multiple":
        out.append("\nThe puzzle has other solutions too; this is the first one the engine reaches.\n")
    return "".join(out)


def write_svg(ex: Explanation, folder: str, cell: int = 20) -> list[str]:
    """One SVG per step (step-0000.svg is the empty grid) and index.html; returns the files written."""
    from nonocp.render.partial import index_html, render_partial_svg

    p = ex.puzzle
    os.makedirs(folder, exist_ok=True)
    masks = [(1 << len(p.palette)) - 1] * (p.width * p.height)
    digits = max(4, len(str(len(ex.steps))))
    written: list[str] = []
    entries: list[tuple[str, str]] = []

    def put(name: str, caption: str, changed) -> None:
        svg = render_partial_svg(p, masks, changed, caption=_wrap(caption), cell=cell)
        write_output(os.path.join(folder, name), svg)
        written.append(name)
        entries.append((name, caption))

    put(f"step-{0:0{digits}d}.svg", "Step 0: the empty grid.", ())
    for s in ex.steps:
        for r, c, m in s.changes:
            masks[r * p.width + c] = m
        put(f"step-{s.n:0{digits}d}.svg", f"Step {s.n}: {s.text}", [(r, c) for r, c, _ in s.changes])
    write_output(os.path.join(folder, "index.html"), index_html(p.title or "nonocp explain", entries, headline(ex)))
    written.append("index.html")
    return written


def _wrap(text: str, width: int = 60) -> list[str]:
    """Caption lines of at most about `width` characters."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def exit_code(outcomes: list[str]) -> int:
    if "timeout" in outcomes:
        return EXIT_TIMEOUT
    if "no-solution" in outcomes:
        return EXIT_NO_SOLUTION
    return EXIT_SOLVED


FORMATS = ("text", "json", "svg")
FormatOpt = Annotated[str, format_option(FORMATS, "svg: one picture per step into the --output folder")]
OutputOpt = Annotated[
    str | None,
    typer.Option("--output", "-o", metavar="PATH", help="File (text, json) or folder (svg: one picture per step)."),
]
MaxStepsOpt = Annotated[int | None, typer.Option("--max-steps", metavar="N", min=0, help="Stop after N steps.")]
NoGridOpt = Annotated[bool, typer.Option("--no-grid", help="Text: the steps in words only, no grid after each.")]


def explain_command(
    puzzles: PuzzlesArg,
    fmt: FormatOpt = "text",
    output: OutputOpt = None,
    max_steps: MaxStepsOpt = None,
    timeout: TimeoutOpt = None,
    no_grid: NoGridOpt = False,
    from_fmt: FromOpt = None,
    cell_size: CellSizeOpt = 20,
) -> None:
    """Explain how the native engine solves each puzzle, step by step; exit 0 solved, 1 no solution, 3 time limit."""
    from nonocp.analysis.explain import explain, explanation_json

    if fmt == "svg" and output is None:
        fail("--format svg writes one picture per step: give --output DIR")
    codes: list[int] = []
    with guarded():
        paths = expand(puzzles)
        refuse_overwriting(output, paths)
        if fmt == "svg" and os.path.exists(output) and not os.path.isdir(output):
            fail(f"{output}: is a file; --format svg needs a folder")
        collected: list[str] = []
        several = len(paths) > 1
        count = 0
        for item in read_inputs(paths, from_fmt):
            if item.error is not None:
                codes.append(report_error(item))
                continue
            for i, p in enumerate(item.puzzles, 1):
                count += 1
                ex = explain(p, max_steps=max_steps, time_limit=timeout)
                codes.append(exit_code([ex.outcome]))
                where = label(item, i, several)
                if fmt == "svg":
                    assert output is not None
                    alone = not several and len(item.puzzles) == 1
                    folder = output if alone else os.path.join(output, f"puzzle-{count}")
                    written = write_svg(ex, folder, cell_size)
                    typer.echo(f"{headline(ex)}\nwrote {len(written)} files to {folder} (open index.html)")
                    continue
                if fmt == "json":
                    doc = {"file": item.name, "index": i, **explanation_json(ex)}
                    text = json.dumps(doc, ensure_ascii=False) + "\n"
                else:
                    text = text_report(ex, grids=not no_grid)
                    if where:
                        text = f"{where}: " + text + "\n"
                if output is None:
                    typer.echo(text, nl=False)
                else:
                    collected.append(text)
        if output is not None and fmt != "svg" and collected:
            write_output(output, "".join(collected), inputs=paths)
    raise typer.Exit(most_serious(codes))


def register(app: typer.Typer) -> None:
    app.command("explain")(explain_command)
