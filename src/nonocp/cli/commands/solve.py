"""`nonocp solve PUZZLE`: solve every puzzle in a file and show the answer.

Output formats (`--format`): `text` (the grid with its clues; in colour on a terminal), `json` (one
object per puzzle per line, the contract in DESIGN.md), `non` (the puzzle with the solution as its
`goal`), `svg` and `png` (pictures). Exit code: 0 when every puzzle got a solution, 1 when some
puzzle has none (proven), 3 when the time ran out on some puzzle (this wins over 1), 2 on bad input.

`--backbone` also finds which cells are the same in every solution (nonocp.analysis.backbone): text and pictures
show those cells and mark the others `?`; JSON gets a `"backbone"` object beside the usual fields. A
backbone not decided in time counts as a timeout (exit 3).
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from nonocp.cli.common import (
    EXIT_NO_SOLUTION,
    EXIT_SOLVED,
    EXIT_TIMEOUT,
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
from nonocp.core.result import SolveResult, Status
from nonocp.engines import DEFAULT_BACKEND

if TYPE_CHECKING:
    from nonocp.analysis.backbone import Backbone

FORMATS = ("text", "json", "non", "svg", "png")
PICTURES = ("svg", "png")


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    return {
        "title": puzzle.title,
        "width": puzzle.width,
        "height": puzzle.height,
        # every colour, the background too: solutions are written with these symbols
        "colors": {c.symbol: c.rgb for c in puzzle.palette.colors},
    }


def result_json(puzzle: Puzzle, result: SolveResult) -> dict[str, Any]:
    """The `--format json` object of DESIGN.md."""
    return {
        "puzzle": puzzle_json(puzzle),
        "backend": result.backend,
        "status": str(result.status),
        "solutions": [g.to_strings(puzzle.palette) for g in result.solutions],
        "seconds": round(result.seconds, 4),
        "stats": result.stats,
    }


def exit_code(statuses: Sequence[Status]) -> int:
    """One code for a file of puzzles: a timeout anywhere says the most (3), then a proven `none` (1)."""
    if Status.TIMEOUT in statuses:
        return EXIT_TIMEOUT
    if Status.NONE in statuses:
        return EXIT_NO_SOLUTION
    return EXIT_SOLVED


def summary(puzzle: Puzzle, result: SolveResult, index: int, count: int) -> str:
    """One line saying which puzzle, its verdict, the engine and the time."""
    name = puzzle.title or "untitled"
    where = f"puzzle {index} of {count}: " if count > 1 else ""
    n = len(result.solutions)
    verdict = {
        Status.UNIQUE: "unique solution",
        Status.MULTIPLE: f"several solutions ({n} shown)",
        Status.NONE: "no solution",
        Status.SOLVED: "solved (uniqueness not checked)",
        Status.TIMEOUT: f"time limit reached ({n} solution{'s' if n != 1 else ''} found)",
    }[result.status]
    size = f"{puzzle.width}x{puzzle.height}"
    if puzzle.has_counts:
        size += f", {len(puzzle.palette)} colours, count clues"
    elif not puzzle.palette.is_black_and_white:
        size += f", {len(puzzle.palette) - 1} colours"
    return f"{where}{name} ({size}): {verdict} [{result.backend}, {result.seconds:.3f} s]"


def text_report(puzzle: Puzzle, result: SolveResult, index: int, count: int, bb: Backbone | None = None) -> str:
    from nonocp.render import render_text

    parts = [summary(puzzle, result, index, count) + "\n"]
    if bb is not None:
        parts.append(backbone_summary(bb) + "\n")
        grid, marked = backbone_view(bb)
        if grid is not None:
            parts.append(render_text(puzzle, grid, marked))
        return "".join(parts)
    for k, grid in enumerate(result.solutions, 1):
        if len(result.solutions) > 1:
            parts.append(f"solution {k}:\n")
        parts.append(render_text(puzzle, grid))
    return "".join(parts)


def print_rich_report(
    console, puzzle: Puzzle, result: SolveResult, index: int, count: int, bb: Backbone | None = None
) -> None:
    from nonocp.render import render_rich

    console.print(summary(puzzle, result, index, count), markup=False)
    if bb is not None:
        console.print(backbone_summary(bb), markup=False)
        grid, marked = backbone_view(bb)
        if grid is not None:
            console.print(render_rich(puzzle, grid, marked), end="")
        return
    for k, grid in enumerate(result.solutions, 1):
        if len(result.solutions) > 1:
            console.print(f"solution {k}:", markup=False)
        console.print(render_rich(puzzle, grid), end="")


def with_solution(puzzle: Puzzle, result: SolveResult) -> Puzzle:
    """The puzzle carrying the first solution found as its goal (unchanged when none was found)."""
    if not result.solutions:
        return puzzle
    return dataclasses.replace(puzzle, meta=dataclasses.replace(puzzle.meta, goal=result.solutions[0]))


def picture(puzzle: Puzzle, result: SolveResult, fmt: str, bb: Backbone | None = None) -> str | bytes:
    from nonocp.render import render_png, render_svg

    render = render_svg if fmt == "svg" else render_png
    if bb is not None:
        return render(puzzle, *backbone_view(bb))
    return render(puzzle, result.solution)


# --- --backbone -------------------------------------------------------------------------------------


def backbone_of(puzzle: Puzzle, backend: str, result: SolveResult, timeout: float | None, seed: int | None) -> Backbone:
    """The puzzle's backbone by the same engine, within what is left of the puzzle's time limit.

    A search that was exhausted has listed every solution already (unique, none, or `--all`): their union
    is the exact backbone and no query is needed. Otherwise nonocp.analysis.backbone asks the engine cell by cell.
    `--timeout` is per puzzle, so the backbone gets what the plain solve left of it.
    """
    from nonocp.analysis.backbone import backbone_from_solutions, find_backbone

    if result.exhausted:
        return backbone_from_solutions(puzzle, result.solutions, str(result.status))
    left = None if timeout is None else max(0.0, timeout - result.seconds)
    return find_backbone(puzzle, backend, time_limit=left, seed=seed)


def backbone_status(result: SolveResult, bb: Backbone) -> Status:
    """The verdict the exit code is made of: an undecided backbone is a timeout, no solution is `none`."""
    if not bb.exact:
        return Status.TIMEOUT
    if bb.status == Status.NONE.value:
        return Status.NONE
    return result.status


def undecided_cells(bb: Backbone) -> list[tuple[int, int]]:
    """Cells with a colour neither proven possible nor impossible (the time ran out): not known to be fixed."""
    return [(r, c) for r, c in bb.cells() if bb.open_[r * bb.width + c] and not bb.is_ambiguous(r, c)]


def backbone_view(bb: Backbone):
    """(grid, marked) for the renderers: fixed cells in their colour, `?` on cells that differ between
    solutions and on cells not decided in time. (None, None) when there is no solution: nothing to show."""
    if bb.status == Status.NONE.value:
        return None, None
    return bb.display_grid(), [*bb.ambiguous, *undecided_cells(bb)]


def backbone_summary(bb: Backbone) -> str:
    """One line: how many cells are fixed, how many differ, whether the answer is complete."""
    if bb.status == Status.NONE.value:
        return "backbone: no solution, so no cell has a colour"
    cells = bb.width * bb.height
    if bb.exact and not bb.ambiguous:
        line = f"backbone: every cell fixed ({cells} cells)"
    else:
        line = f"backbone: {len(bb.fixed)} of {cells} cells fixed, {len(bb.ambiguous)} differ between solutions (?)"
    if not bb.exact:
        line += f"; inexact, the time ran out ({len(undecided_cells(bb))} more cells undecided, also ?)"
    if bb.queries:  # 0 when the solve's own exhaustive search already listed every solution
        line += f" [{bb.queries} queries, {bb.seconds:.3f} s]"
    return line


def numbered(path: str, index: int) -> str:
    """`out.svg` -> `out-3.svg`: one picture file per puzzle of a bundle."""
    stem, ext = os.path.splitext(path)
    return f"{stem}-{index}{ext}"


# The options, spelled once here so that the signature below stays readable.
PuzzleArg = Annotated[str, typer.Argument(help="Puzzle file (.non, .nonpack, webpbn XML, ...).", show_default=False)]
BackendOpt = Annotated[
    str, typer.Option("--backend", "-b", help="Engine: native, cpsat, sat, auto, or a variant like sat:glucose4.")
]
MaxOpt = Annotated[
    int | None,
    typer.Option("--max-solutions", "-n", help="Stop after N solutions (default 2: tells unique from multiple)."),
]
AllOpt = Annotated[bool, typer.Option("--all", help="Enumerate every solution.")]
TimeoutOpt = Annotated[float | None, typer.Option("--timeout", "-t", help="Time limit per puzzle, seconds.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Random seed for engines that use one.")]
WorkersOpt = Annotated[int | None, typer.Option("--workers", "-w", help="Threads for engines that use them.")]
ProofOpt = Annotated[
    str | None, typer.Option("--proof", metavar="DIR", help="Write UNSAT certificates (CNF + DRAT) into DIR.")
]
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="text, json, non, svg or png.")]
OutputOpt = Annotated[str | None, typer.Option("--output", "-o", help="Write here instead of stdout.")]
FromOpt = Annotated[str | None, typer.Option("--from", help="Input format when the file name does not say.")]
EngineOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-O", metavar="KEY=VALUE",
        help="An engine setting, repeatable: sat/auto encoding=blocks|automaton|both, phase=solver|background; "
        "native probe|guide|minimize=true|false; cpsat uniqueness=enumerate|block, cell_model=int|bool, "
        "cut_domains=true|false.",
    ),
]
BackboneOpt = Annotated[
    bool,
    typer.Option("--backbone", help="Also show which cells are the same in every solution; mark the others ?."),
]


def solve_command(
    puzzle: PuzzleArg,
    backend: BackendOpt = DEFAULT_BACKEND,
    max_solutions: MaxOpt = None,
    all_solutions: AllOpt = False,
    timeout: TimeoutOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = None,
    proof: ProofOpt = None,
    fmt: FormatOpt = "text",
    output: OutputOpt = None,
    from_fmt: FromOpt = None,
    backbone: BackboneOpt = False,
    engine_options: EngineOpt = None,
) -> None:
    """Solve every puzzle in PUZZLE; exit 0 solved, 1 no solution, 2 bad input, 3 time limit."""
    from nonocp.engines import get_backend
    from nonocp.engines.contract import parse_engine_options
    from nonocp.engines.solve import solve

    fmt = choose(fmt, FORMATS, "--format")
    if all_solutions and max_solutions is not None:
        fail("--all and --max-solutions cannot be used together")
    # checked here rather than by typer so that every usage error is one line
    if max_solutions is not None and max_solutions < 1:
        fail(f"--max-solutions: {max_solutions} must be at least 1")
    if timeout is not None and timeout <= 0:
        fail(f"--timeout: {timeout:g} must be more than 0 seconds")
    if workers is not None and workers < 1:
        fail(f"--workers: {workers} must be at least 1")
    if backbone and fmt == "non":
        fail("--backbone: not available with --format non (use text, json, svg or png)")
    limit = None if all_solutions else (max_solutions or 2)
    with guarded():
        # an unknown or missing engine, or an option it does not take, is a usage error before any work
        extra = parse_engine_options(engine_options or [], get_backend(backend))
        if proof is not None:
            extra["proof_dir"] = proof
            os.makedirs(proof, exist_ok=True)
        puzzles = load_puzzles(puzzle, from_fmt)
        if fmt == "png" and output is None and stdout_is_terminal():
            fail("refusing to write PNG bytes to a terminal; use --output FILE or a pipe")
        if fmt in PICTURES and output is None and len(puzzles) > 1:
            fail(f"{puzzle}: holds {len(puzzles)} puzzles; {fmt} needs --output FILE (one file per puzzle)")
        if output is not None and same_file(output, puzzle):  # say so now, not after a long solve
            fail(f"{output}: refusing to overwrite the input file; choose another output")
        painted = fmt == "text" and output is None and stdout_is_terminal()
        console = terminal_console() if painted else None

        statuses: list[Status] = []
        collected: list[str] = []  # what --output (or a `non` bundle) receives, written once at the end
        solved: list[Puzzle] = []
        for i, p in enumerate(puzzles, 1):
            result = solve(p, backend, max_solutions=limit, time_limit=timeout, seed=seed, workers=workers, **extra)
            bb = backbone_of(p, backend, result, timeout, seed) if backbone else None
            statuses.append(result.status if bb is None else backbone_status(result, bb))
            if fmt == "json":
                doc = result_json(p, result)
                if bb is not None:
                    doc["backbone"] = bb.to_json(p)
                emit(json.dumps(doc, default=str, ensure_ascii=False) + "\n", output, collected)
            elif fmt == "text":
                if console is not None:
                    print_rich_report(console, p, result, i, len(puzzles), bb)
                else:
                    emit(text_report(p, result, i, len(puzzles), bb), output, collected)
            elif fmt == "non":
                solved.append(with_solution(p, result))
            else:
                data = picture(p, result, fmt, bb)
                if output is None:
                    typer.echo(data, nl=False)  # bytes go to the binary stream
                else:
                    target = output if len(puzzles) == 1 else numbered(output, i)
                    write_output(target, data, inputs=[puzzle])

        if fmt == "non":
            from nonocp.formats import dumps

            emit(dumps(solved[0] if len(solved) == 1 else solved, "non"), output, collected)
        if output is not None and fmt not in PICTURES:
            write_output(output, "".join(collected), inputs=[puzzle])
    raise typer.Exit(exit_code(statuses))


def emit(text: str, output: str | None, collected: list[str]) -> None:
    """Print now (stdout) or keep for the one atomic write at the end (--output)."""
    if output is None:
        typer.echo(text, nl=False)
    else:
        collected.append(text)


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)
