"""What `nonocp solve` does once its arguments are read (nonocp/cli/commands/solve.py says what the command
does and declares its options). Free of typer: nonocp.cli.quick runs `solve_puzzles` straight from argv
when the arguments are plain ones, which saves the framework's import on every short run."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from nonocp.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_NO_SOLUTION,
    EXIT_SOLVED,
    EXIT_TIMEOUT,
    console,
    fail,
    fit_text_grids,
    guarded,
    numbered,
    say_unkept_text,
    stdout_is_terminal,
    wants_color,
)
from nonocp.cli.enumeration import PuzzleStream, SolutionUnion, Writer, with_first
from nonocp.cli.inputs import expand, label, most_serious, read_inputs, report_error
from nonocp.cli.progress import Progress
from nonocp.core.outputs import Outputs
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import SolveResult, Status, proof_files
from nonocp.core.text import json_safe, one_line
from nonocp.engines import DEFAULT_BACKEND
from nonocp.render.text import Deadline

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
    """The `--format json` object (schema `solve` in nonocp/cli/schemas.py; docs/contract.md: the contract's core plus
    `decided_by`, `exhaustive`, `stopped` and `count`). `stopped`: why the search ended ("exhausted",
    "limit": the number of solutions asked for was reached, "timeout": the time limit cut it short)."""
    doc = {
        "puzzle": puzzle_json(puzzle),
        "backend": result.backend,
        "decided_by": decided_by(result),
        "status": str(result.status),
        "exhaustive": result.exhausted,
        "stopped": result.stop,
        # an exhausted search found every solution: their number is the puzzle's exact count
        "count": result.found if result.exhausted else None,
        "solutions": [g.to_strings(puzzle.palette) for g in result.solutions],
        "seconds": round(result.seconds, 4),
        "stats": result.stats,
    }
    if result.proof is not None:
        doc["proof"] = {"cnf": result.proof.cnf_path, "proof": result.proof.proof_path, "format": result.proof.format}
    return doc


def decided_by(result: SolveResult) -> str:
    """Which engine (or stage of the hybrid) reached the verdict: `native line logic`, `native + cadical195`."""
    if result.stats.get("proof") == "counting":
        return "counting (row and column totals differ)"
    said = result.stats.get("decided_by")
    return str(said) if said else result.backend


def exit_status(result: SolveResult) -> Status:
    """The status the exit code is made of: a search the time limit cut short counts as a timeout, even
    with a proven verdict (`--all` stopped after 7,000 of 20! solutions is `multiple`, not complete)."""
    return Status.TIMEOUT if not result.complete else result.status


def exit_code(statuses: Sequence[Status]) -> int:
    """One code for a file of puzzles: a timeout anywhere says the most (3), then a proven `none` (1)."""
    if Status.TIMEOUT in statuses:
        return EXIT_TIMEOUT
    if Status.NONE in statuses:
        return EXIT_NO_SOLUTION
    return EXIT_SOLVED


def engine_label(result: SolveResult) -> str:
    """`auto: native line logic`, `auto: native + cadical195`, or the engine alone when it did everything."""
    by = decided_by(result)
    if by == result.backend:
        return by
    return f"{result.backend.partition(':')[0]}: {by}"


def summary(puzzle: Puzzle, result: SolveResult, where: str = "") -> str:
    """One line saying which puzzle, its verdict, the engine that decided and the time."""
    name = one_line(puzzle.title) or "untitled"
    n = result.found if result.found is not None else len(result.solutions)
    several = f"several solutions ({n} shown)" if result.complete else \
        f"several solutions, at least {n} (time limit reached before the enumeration finished)"
    verdict = {
        Status.UNIQUE: "unique solution",
        Status.MULTIPLE: f"exactly {n} solutions (all shown)" if result.exhausted else several,
        Status.NONE: "no solution",
        Status.SOLVED: "solved (uniqueness not checked)",
        Status.TIMEOUT: f"time limit reached ({n} solution{'s' if n != 1 else ''} found)",
    }[result.status]
    size = f"{puzzle.width}x{puzzle.height}"
    if puzzle.has_counts:
        size += f", {len(puzzle.palette)} colours, count clues"
    elif not puzzle.palette.is_black_and_white:
        size += f", {len(puzzle.palette) - 1} colours"
    prefix = f"{one_line(where)}: " if where else ""
    return f"{prefix}{name} ({size}): {verdict} [{engine_label(result)}, {result.seconds:.3f} s]"


def text_report(puzzle: Puzzle, result: SolveResult, where: str = "", bb: Backbone | None = None,
                deadline: Deadline | None = None) -> str:
    """The summary and the grids; the drawing stops at `deadline` (the puzzle's time limit covers it)."""
    from nonocp.render import render_text

    parts = [summary(puzzle, result, where) + "\n"]
    if bb is not None:
        parts.append(backbone_summary(bb) + "\n")
        grid, marked = backbone_view(bb)
        if grid is not None:
            parts.append(render_text(puzzle, grid, marked, deadline=deadline))
        return "".join(parts)
    for k, grid in enumerate(result.solutions, 1):
        if deadline is not None and deadline.cut:
            break
        if len(result.solutions) > 1:
            parts.append(f"solution {k}:\n")
        parts.append(render_text(puzzle, grid, deadline=deadline))
    return "".join(parts)


def print_rich_report(
    console, puzzle: Puzzle, result: SolveResult, where: str = "", bb: Backbone | None = None,
    deadline: Deadline | None = None,
) -> None:
    from nonocp.render import render_rich

    console.print(summary(puzzle, result, where), markup=False)
    if bb is not None:
        console.print(backbone_summary(bb), markup=False)
        grid, marked = backbone_view(bb)
        if grid is not None:
            console.print(render_rich(puzzle, grid, marked, deadline=deadline), end="")
        return
    for k, grid in enumerate(result.solutions, 1):
        if deadline is not None and deadline.cut:
            break
        if len(result.solutions) > 1:
            console.print(f"solution {k}:", markup=False)
        console.print(render_rich(puzzle, grid, deadline=deadline), end="")


def with_solution(puzzle: Puzzle, result: SolveResult) -> Puzzle:
    """The puzzle carrying the first solution found as its goal (unchanged when none was found)."""
    if not result.solutions:
        return puzzle
    return dataclasses.replace(puzzle, meta=dataclasses.replace(puzzle.meta, goal=result.solutions[0]))


def picture(puzzle: Puzzle, result: SolveResult, fmt: str, bb: Backbone | None = None, cell: int = 20) -> str | bytes:
    from nonocp.render import render_png, render_svg

    render = render_svg if fmt == "svg" else render_png
    if bb is not None:
        return render(puzzle, *backbone_view(bb), cell=cell)
    return render(puzzle, result.solution, cell=cell)


# --- --backbone -------------------------------------------------------------------------------------


def backbone_of(puzzle: Puzzle, backend: str, result: SolveResult, timeout: float | None, seed: int | None,
                union: SolutionUnion | None = None) -> Backbone:
    """The puzzle's backbone by the same engine, within what is left of the puzzle's time limit.

    A search that was exhausted has found every solution already (unique, none, or `--all`): their union
    is the exact backbone and no query is needed (`union`: gathered as an enumeration streamed them).
    Otherwise nonocp.analysis.backbone asks the engine cell by cell. `--timeout` is per puzzle, so the
    backbone gets what the plain solve left of it.
    """
    from nonocp.analysis.backbone import backbone_from_solutions, backbone_from_union, find_backbone

    if result.exhausted:
        if union is not None:
            return backbone_from_union(puzzle, union.possible, str(result.status))
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


def proof_note(result: SolveResult, proof_dir: str) -> str:
    """Where `--proof` wrote the certificate of this answer, or why there is none."""
    if result.proof is not None:
        files = [f for f in (result.proof.cnf_path, result.proof.proof_path) if f]
        return f"proof: wrote {' and '.join(files)} ({result.proof.format.upper()} refutation of the CNF)"
    if result.status is Status.MULTIPLE and not result.exhausted:
        why = "the search stopped at the solutions asked for: nothing was refuted"
    elif result.status is Status.TIMEOUT:
        why = "the time ran out before a refutation"
    else:
        why = f"decided by {decided_by(result)}, which writes no certificate"
    return f"proof: none written to {proof_dir} ({why})"


def solve_puzzles(
    puzzles: Sequence[str],
    backend: str = DEFAULT_BACKEND,
    max_solutions: int | None = None,
    all_solutions: bool = False,
    timeout: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    proof: str | None = None,
    fmt: str = "text",
    output: str | None = None,
    from_fmt: str | None = None,
    backbone: bool = False,
    engine_options: Sequence[str] | None = None,
    color: str = "auto",
    cell_size: int = 20,
    compact: bool = False,
    force: bool = False,
    progress: bool = True,
) -> int:
    """Solve every puzzle in the files and write the answers; the exit code (the most serious of the
    puzzles'). The parameters are `nonocp solve`'s options, with their defaults, already checked."""
    fit_text_grids(compact)
    from nonocp.engines import get_backend
    from nonocp.engines.solve import solve

    if all_solutions and max_solutions is not None:
        fail("--all and --max-solutions cannot be used together")
    if backbone and fmt == "non":
        fail("--backbone: not available with --format non (use text, json, svg or png)")
    limit = None if all_solutions or max_solutions == 0 else (max_solutions or 2)
    codes: list[int] = []
    with guarded():
        # an unknown or missing engine, or an option it does not take, is a usage error before any work
        engine = get_backend(backend)
        extra: dict[str, Any] = {}
        if engine_options:
            from nonocp.engines.contract import parse_engine_options

            extra = parse_engine_options(engine_options, engine)
        paths = expand(puzzles)
        # every file written is checked now, not after a long solve (nonocp.core.outputs)
        outputs = Outputs(paths, force=force)
        if proof is not None:
            extra["proof_dir"] = outputs.claim_folder(proof, "--proof")
            if force:  # a read-only certificate from an earlier run may be replaced
                extra["proof_force"] = True
        if output is not None:
            outputs.claim(output)
        if fmt == "png" and output is None and stdout_is_terminal():
            fail("refusing to write PNG bytes to a terminal; use --output FILE or a pipe")
        if fmt in PICTURES and output is None and len(paths) > 1:
            fail(f"{len(paths)} files: {fmt} needs --output FILE (one picture per puzzle)")
        painted = fmt == "text" and output is None and wants_color(color)
        screen = console(color) if painted else None

        # `--all` and `-n N`: every solution written as it is found, none held (nonocp.cli.enumeration)
        enumerating = all_solutions or max_solutions is not None
        writer = Writer(output, outputs, streaming=enumerating and fmt in ("text", "json"))
        solved: list[Puzzle] = []
        pictures = 0
        several = len(paths) > 1
        working = Progress(progress)
        reports = {"progress": working.engine_report} if working.on else {}
        with working:
            for item in read_inputs(paths, from_fmt):
                if item.error is not None:
                    codes.append(report_error(item))
                    if fmt == "json":
                        error = {"file": item.name, "index": 0, "error": item.error}
                        writer.emit(json_safe(json.dumps(error, ensure_ascii=False)) + "\n")
                    continue
                if fmt in PICTURES and output is None and len(item.puzzles) > 1:
                    fail(f"{item.name}: holds {len(item.puzzles)} puzzles; {fmt} needs --output FILE "
                         "(one file per puzzle)")
                for i, p in enumerate(item.puzzles, 1):
                    where = label(item, i, several)
                    # the time limit covers drawing the answer too (a 4-million-cell grid is 24 MB of text)
                    drawing = Deadline(None if timeout is None else time.monotonic() + timeout)
                    if proof is not None:
                        for certificate in proof_files(proof, p.fingerprint()):
                            outputs.claim(certificate, "--proof")
                    stream = union = None
                    streaming: dict[str, Any] = {}
                    if enumerating:
                        union = SolutionUnion(p) if backbone else None
                        head = {"file": item.name, "index": i, "puzzle": puzzle_json(p)}
                        stream = PuzzleStream(p, fmt, writer, head, screen, union, drawing)
                        streaming = {"on_solution": stream.add, "keep": 0}
                    working.say(f"solving {one_line(p.title) or item.name} ({p.width}x{p.height}) with {backend}")
                    result = solve(p, backend, max_solutions=limit, time_limit=timeout, seed=seed, workers=workers,
                                   **streaming, **reports, **extra)
                    if stream is not None:
                        result = with_first(result, stream)
                    if backbone:
                        working.say(f"finding the cells every solution shares ({backend})")
                    bb = backbone_of(p, backend, result, timeout, seed, union) if backbone else None
                    status = exit_status(result) if bb is None else backbone_status(result, bb)
                    if fmt == "json":
                        doc = {"file": item.name, "index": i, **result_json(p, result)}
                        if bb is not None:
                            doc["backbone"] = bb.to_json(p)
                        if stream is not None:  # the solutions are written already: the rest of the object
                            stream.finish_json({k: v for k, v in doc.items()
                                                if k not in ("file", "index", "puzzle", "solutions")})
                        else:
                            writer.emit(json_safe(json.dumps(doc, default=str, ensure_ascii=False)) + "\n")
                    elif fmt == "text":
                        if stream is not None:
                            finish_text(writer, screen, p, result, where, bb, drawing)
                        elif screen is not None:
                            print_rich_report(screen, p, result, where, bb, drawing)
                        else:
                            writer.emit(text_report(p, result, where, bb, drawing))
                        if proof is not None:
                            writer.emit(proof_note(result, proof) + "\n")
                    elif fmt == "non":
                        solved.append(with_solution(p, result))
                    else:
                        data = picture(p, result, fmt, bb, cell_size)
                        pictures += 1
                        if output is None:
                            write_stdout(data)
                        else:
                            numbered_files = several or len(item.puzzles) > 1
                            target = numbered(output, pictures) if numbered_files else output
                            outputs.write(target, data)
                    if proof is not None and fmt in ("non", *PICTURES):
                        print(f"nonocp: {proof_note(result, proof)}", file=sys.stderr)
                    codes.append(exit_code([Status.TIMEOUT if drawing.cut else status]))

        if fmt == "non" and solved:
            from nonocp.formats import dumps

            writer.emit(dumps(solved[0] if len(solved) == 1 else solved, "non"))
            say_unkept_text(solved, "non", output or "<stdout>")
        if fmt not in PICTURES:
            writer.close(write_collected=bool(writer.collected) or EXIT_BAD_INPUT not in codes)
    return most_serious(codes)


def finish_text(writer: Writer, screen: Any, puzzle: Puzzle, result: SolveResult, where: str,
                bb: Backbone | None, deadline: Deadline | None = None) -> None:
    """After an enumeration's solutions (written as they came): the summary, and the backbone when asked."""
    from nonocp.render import render_rich, render_text

    lines = [summary(puzzle, result, where)]
    if bb is not None:
        lines.append(backbone_summary(bb))
    if screen is not None:
        for line in lines:
            screen.print(line, markup=False)
    else:
        writer.emit("".join(line + "\n" for line in lines))
    if bb is not None:
        grid, marked = backbone_view(bb)
        if grid is not None:
            if screen is not None:
                screen.print(render_rich(puzzle, grid, marked, deadline=deadline), end="")
            else:
                writer.emit(render_text(puzzle, grid, marked, deadline=deadline))


def write_stdout(data: str | bytes) -> None:
    """A picture to standard output: PNG bytes to the binary stream, after any text already written."""
    if isinstance(data, bytes):
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(data)
