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
    console,
    exit_codes,
    fail,
    guarded,
    load_puzzles,
    output_width,
    wants_color,
)
from nonocp.cli.options import (
    ColorOpt,
    FromOpt,
    ProgressOpt,
    PuzzlesArg,
    TimeoutOpt,
    format_option,
    max_solutions_option,
    solutions_limit,
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
            screen = console(color, width=output_width())
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
            for line in table_lines(rows, screen.width, painted):
                screen.print(line, markup=painted, overflow="ignore", crop=False)
            for line in errors_below(rows):
                screen.print(line, markup=False, soft_wrap=True)
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


HEADERS = ("file", "title", "size", "verdict", "steps", "probes", "guesses", "per sol.", "depth", "s")
TITLE_AT_LEAST = 10  # columns a title needs to say something; narrower, the column is left out
DEPTH = HEADERS.index("depth")
FILE_AT_LEAST = 12


def table_lines(rows, width: int = 80, painted: bool = False) -> list[str]:
    """The folder's table in at most `width` columns where it can be (rich markup when `painted`): one space
    between columns, a rule under the header, the size as `WxH Nc` (`*` count clues). When the line is full
    the depth column goes first (the JSON and the one-puzzle report have everything); then, when no puzzle
    comes from a bundle, a title is cut with `...` and left out under TITLE_AT_LEAST columns (a bundle's
    puzzle then keeps its title beside its file name, as far as it fits) before a file name is cut; when
    every row comes from bundles (one file name, rows told apart by their titles) the file names are cut
    first.
    Unreadable files are listed under the table, each with its reason."""
    from rich.markup import escape

    styles = {"LINE": "green", "PROBE": "cyan", "BRANCH": "yellow", "MULTIPLE": "magenta", "NONE": "red",
              "UNKNOWN": "dim", "ERROR": "red"}
    bundles = {name for name, i, *_ in rows if i > 1}
    cells = []
    for name, i, p, r, _error in rows:
        short = name.rsplit("/", 1)[-1] + (f" #{i}" if name in bundles else "")  # a bundle's rows: `file #i`
        if r is None or p is None:
            cells.append([short, "", "", "ERROR", *[""] * 6])
            continue
        per = ",".join(str(g) for g in r.guesses_per_solution) + ("" if r.exhaustive or not r.guesses_per_solution
                                                                   else "+")
        cells.append([short, one_line(p.title), _size(p).replace(" counts", "*"), r.verdict, str(r.steps),
                      str(r.probes), str(r.guesses), per, str(r.depth), f"{r.seconds:.2f}"])
    widths = [max(len(h), *(len(c[k]) for c in cells)) for k, h in enumerate(HEADERS)]
    show = list(range(len(HEADERS)))

    def used(columns: list[int]) -> int:
        return sum(widths[k] for k in columns) + len(columns) - 1

    # what gives way when the line is full: the depth column; then, in a folder of files, the title (cut,
    # then left out) before the file name; among a bundle's puzzles (one file name) the file name first
    if used(show) > width:
        show.remove(DEPTH)
    member = [name in bundles for name, *_ in rows]
    only_bundles = all(member)
    if used(show) > width and not only_bundles:
        title_room = width - used([k for k in show if k != 1]) - 1
        if title_room < min(widths[1], TITLE_AT_LEAST):
            show.remove(1)
            for c, of_bundle in zip(cells, member, strict=True):  # titles beside the file name, as far as they fit
                if of_bundle and c[1]:
                    c[0] = f"{c[0]} {c[1]}"
            widths[0] = min(max(len(c[0]) for c in cells), width - used(show[1:]) - 1)
        else:
            widths[1] = title_room
    if used(show) > width:
        widths[0] = max(FILE_AT_LEAST, widths[0] - (used(show) - width))
    if used(show) > width and 1 in show:
        widths[1] = max(TITLE_AT_LEAST, widths[1] - (used(show) - width))

    def fit(text: str, k: int) -> str:
        if len(text) > widths[k]:
            head, mark, index = text.rpartition(" #")
            if k == 0 and mark and index.isdigit():  # `bundle.nonpack #12`: cut the name, keep the number
                text = head[: max(1, widths[k] - len(mark + index) - 3)] + "..." + mark + index
            else:
                text = text[: widths[k] - 3] + "..."
        return text.rjust(widths[k]) if k >= 4 else text.ljust(widths[k])

    def line(values: list[str], head: bool = False) -> str:
        parts = []
        for k in show:
            text = fit(values[k], k)
            if painted and head:
                text = f"[bold]{escape(text)}[/bold]"
            elif painted and k == 3 and values[3] in styles:
                text = f"[{styles[values[3]]}]{escape(text)}[/{styles[values[3]]}]"
            else:
                text = escape(text) if painted else text
            parts.append(text)
        return " ".join(parts).rstrip()

    out = [line(list(HEADERS), head=True), "-" * min(width, sum(widths[k] for k in show) + len(show) - 1)]
    out += [line(c) for c in cells]
    if any(p is not None and p.has_counts for _, _, p, _, _ in rows):
        out.append("*: count clues")
    return out


def errors_below(rows) -> list[str]:
    """`file: reason` for each file the table lists as ERROR."""
    return [f"{name.rsplit('/', 1)[-1]}: {error}" for name, _, p, r, error in rows
            if (r is None or p is None) and error]


def totals(rows) -> str:
    from nonocp.analysis.rate import VERDICTS

    counts = {v: 0 for v in (*VERDICTS, "ERROR")}
    for _, _, _, r, _ in rows:
        counts["ERROR" if r is None else r.verdict] += 1
    parts = [f"{n} {v}" for v, n in counts.items() if n]
    return f"{len(rows)} puzzles: " + ", ".join(parts)


def register(app: typer.Typer) -> None:
    app.command("rate", epilog=exit_codes(0, 1, 2, 3, 130))(rate_command)
