"""`nonocp rate PUZZLE|FOLDER...`: how hard each puzzle is (LINE, PROBE, BRANCH, MULTIPLE, NONE; see
nonocp.analysis.rate), with the counts behind the verdict and the guesses each solution rests on
(`-n N` walks to N solutions, 0 to every one; default 2, enough to tell unique from multiple).

One puzzle: its one-line summary and counts. Several (a bundle, several files, folders walked
recursively): a table, then how many got each verdict. `--format json`: one object per puzzle per line.
Exit codes as `solve`'s: 0 every puzzle rated, 1 some puzzle has no solution (NONE), 3 the time limit ran
out on some puzzle, 2 some file could not be read (its row says why; a single unreadable file is a one-line
error as in every command); the most serious one met.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from nonocp.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_NO_SOLUTION,
    EXIT_SOLVED,
    EXIT_TIMEOUT,
    exit_codes,
    fail,
    guarded,
    load_puzzles,
    stdout_is_terminal,
)
from nonocp.cli.options import (
    ColorOpt,
    FromOpt,
    ProgressOpt,
    PuzzlesArg,
    TimeoutOpt,
    console,
    format_option,
    max_solutions_option,
    solutions_limit,
    wants_color,
)
from nonocp.cli.progress import Progress
from nonocp.core.errors import NonocpError
from nonocp.core.puzzle import Puzzle
from nonocp.core.text import one_line

if TYPE_CHECKING:  # the analysis is imported when the command runs, not for `nonocp --help`
    from nonocp.analysis.rate import Rating

FORMATS = ("text", "json")
PathsArg = PuzzlesArg
FormatOpt = Annotated[str, format_option(FORMATS, "json: one object per puzzle per line")]
SolutionsOpt = Annotated[int, max_solutions_option(what="Walk to at most N solutions, each with its guesses")]


def _size(p: Puzzle) -> str:
    size = f"{p.width}x{p.height}"
    if p.has_counts:  # every palette colour is a colour (no background)
        size += f" {len(p.palette)}c counts"
    elif not p.palette.is_black_and_white:
        size += f" {len(p.palette) - 1}c"
    return size


def _entries(paths: list[str], fmt: str | None) -> list[tuple[str, int, Puzzle | None, str | None]]:
    """(file, index in file, puzzle or None, error or None) for every puzzle under `paths`."""
    from nonocp.batch.collect import puzzle_files

    out: list[tuple[str, int, Puzzle | None, str | None]] = []
    files = puzzle_files(paths)
    single_file = len(files) == 1 and len(paths) == 1
    for f in files:
        name = str(f)
        if single_file:  # a bad single file is a usage error, like in every other command
            puzzles = load_puzzles(name, fmt)
        else:
            try:
                puzzles = load_puzzles(name, fmt)
            except NonocpError as e:
                out.append((name, 0, None, str(e)))
                continue
            except (OSError, UnicodeError, ValueError) as e:
                out.append((name, 0, None, f"{name}: {e}"))
                continue
        out.extend((name, i, p, None) for i, p in enumerate(puzzles, 1))
    return out


def rate_command(
    paths: PathsArg,
    timeout: TimeoutOpt = None,
    fmt: FormatOpt = "text",
    from_fmt: FromOpt = None,
    max_solutions: SolutionsOpt = 2,
    color: ColorOpt = "auto",
    progress: ProgressOpt = True,
) -> None:
    """Rate each puzzle: LINE, PROBE, BRANCH, MULTIPLE or NONE, with steps, probes, guesses per solution and depth."""
    from nonocp.analysis.rate import rate

    painted = wants_color(color)
    with guarded():
        entries = _entries(paths, from_fmt)
        if not entries:
            fail(f"{' '.join(paths)}: no puzzle files found")
        rows: list[tuple[str, int, Puzzle | None, Rating | None, str | None]] = []
        many = len(entries) > 1
        screen = None
        if fmt == "text" and many:
            # a pipe or file gets the whole table at once, not folded to 80 columns
            screen = console(color, width=None if stdout_is_terminal() else 200)
        with Progress(progress) as working:
            for k, (name, i, p, error) in enumerate(entries, 1):
                if p is not None:
                    working.say(f"rating {one_line(p.title) or name} ({k} of {len(entries)})")
                rating = rate(p, timeout, solutions_limit(max_solutions)) if p is not None else None
                rows.append((name, i, p, rating, error))
                if fmt == "json":
                    record = {"file": name, "index": i, "title": p.title if p else None, "error": error}
                    if rating is not None and p is not None:
                        record.update({"size": _size(p), **rating.as_dict()})
                    typer.echo(json.dumps(record, ensure_ascii=False))
                elif not many:
                    assert p is not None and rating is not None
                    typer.echo(single_report(p, rating))
        if screen is not None:
            screen.print(table(rows, painted))
            screen.print(totals(rows), markup=False)
    errors = any(r[4] for r in rows)
    timeouts = any(r[3] is not None and r[3].verdict == "UNKNOWN" for r in rows)
    none = any(r[3] is not None and r[3].verdict == "NONE" for r in rows)
    raise typer.Exit(EXIT_BAD_INPUT if errors else EXIT_TIMEOUT if timeouts else EXIT_NO_SOLUTION if none
                     else EXIT_SOLVED)


def single_report(p: Puzzle, r: Rating) -> str:
    name = one_line(p.title) or "untitled"
    lines = [
        f"{name} ({_size(p)}): {r.summary}",
        f"  verdict {r.verdict}; steps {r.steps} (line {r.line_steps}, probe {r.probes}); "
        f"probe trials {r.probe_trials}; guesses {r.guesses}; backtracks {r.backtracks}; depth {r.depth}; "
        f"{r.seconds:.3f} s",
    ]
    if r.guesses_per_solution:
        more = "" if r.exhaustive else " (stopped at -n; there may be more)"
        lines.append(f"  guesses per solution: {', '.join(str(g) for g in r.guesses_per_solution)}{more}")
    return "\n".join(lines)


def table(rows, painted: bool = False):
    from rich.markup import escape
    from rich.table import Table

    t = Table(show_lines=False, header_style="bold")
    for col, justify in (("file", "left"), ("#", "right"), ("title", "left"), ("size", "left"),
                         ("verdict", "left"), ("steps", "right"), ("probes", "right"), ("guesses", "right"),
                         ("per solution", "right"), ("depth", "right"), ("seconds", "right")):
        t.add_column(col, justify=justify, no_wrap=col in ("file", "verdict", "size"), overflow="fold")
    styles = {"LINE": "green", "PROBE": "cyan", "BRANCH": "yellow", "MULTIPLE": "magenta", "NONE": "red",
              "UNKNOWN": "dim"}
    for name, i, p, r, error in rows:
        short = name.rsplit("/", 1)[-1]
        if r is None or p is None:
            t.add_row(short, str(i), error or "", "", "[red]ERROR[/red]", "", "", "", "", "", "")
            continue
        verdict = f"[{styles[r.verdict]}]{r.verdict}[/{styles[r.verdict]}]" if painted else r.verdict
        per = ",".join(str(g) for g in r.guesses_per_solution) + ("" if r.exhaustive or not r.guesses_per_solution
                                                                   else "+")
        t.add_row(short, str(i), escape(one_line(p.title)), _size(p), verdict, str(r.steps), str(r.probes),
                  str(r.guesses), per, str(r.depth), f"{r.seconds:.2f}")
    return t


def totals(rows) -> str:
    from nonocp.analysis.rate import VERDICTS

    counts = {v: 0 for v in (*VERDICTS, "ERROR")}
    for _, _, _, r, _ in rows:
        counts["ERROR" if r is None else r.verdict] += 1
    parts = [f"{n} {v}" for v, n in counts.items() if n]
    return f"{len(rows)} puzzles: " + ", ".join(parts)


def register(app: typer.Typer) -> None:
    app.command("rate", epilog=exit_codes(0, 1, 2, 3, 130))(rate_command)
