"""`nonocp check PUZZLE...`: run every independent engine on each puzzle and compare what they say.

`--backend a,b` picks the engines (`--backends`, the old spelling, still works); `--format json` prints one
object per puzzle per line (schema `check` in nonocp/cli/schemas.py).

Exit 4 when any puzzle makes the engines disagree (named on stderr), 2 on bad input, 3 when on some
puzzle every engine ran out of time (nothing was checked: "agree" would be vacuous), 1 when they agree
that some puzzle has no solution (as `solve` would say it), 0 otherwise. A
timeout next to a verdict is shown but is not a disagreement; each puzzle's title says whether its
verdict was cross-checked (two or more engines reached it), proven (`multiple` backed by two distinct
grids that passed the independent check, whichever engines found them) or reached by one engine only.
The comparison rules live in nonocp.analysis.crosscheck.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from nonocp.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_DISAGREE,
    EXIT_NO_SOLUTION,
    EXIT_TIMEOUT,
    console,
    exit_codes,
    fail,
    guarded,
)
from nonocp.cli.options import (
    ColorOpt,
    FromOpt,
    ProgressOpt,
    PuzzlesArg,
    TimeoutOpt,
    backends_option,
    format_option,
    max_solutions_option,
    solutions_limit,
)
from nonocp.cli.progress import Progress
from nonocp.core.text import one_line

FORMATS = ("text", "json")


def _engine_names(specs: list[str] | None) -> tuple[str, ...]:
    from nonocp.cli.options import split_engines
    from nonocp.engines import BACKENDS, INDEPENDENT

    names = split_engines(specs, INDEPENDENT)
    for n in names:
        if n.partition(":")[0] not in BACKENDS:
            fail(f"--backend: unknown engine {n!r}; choose from {', '.join(BACKENDS)}", EXIT_BAD_INPUT)
    return names


def _label(path: str, index: int, count: int, title: str) -> str:
    where = path if count == 1 else f"{path} (puzzle {index})"
    return f"{where} [{title}]" if title else where


def _summary(check) -> str:
    """The table's title after the puzzle's name: whether the verdict was checked, and by how many."""
    if not check.agree:
        return "[bold red]DISAGREE[/]"
    if check.deciders >= 2:
        return f"[green]agree[/] ({check.verdict}, cross-checked by {check.deciders} engines)"
    if check.proven_multiple:
        return ("[green]multiple[/], proven: two distinct solutions passed the independent check "
                f"(engines with a verdict: {check.deciders})")
    if check.deciders == 1:
        return f"[yellow]{check.verdict} by one engine only[/] (not cross-checked: the others ran out of time)"
    return "[yellow]no verdict[/]: every engine ran out of time"


def _json_of(check) -> dict:
    """One puzzle's `--format json` object (schema `check` in nonocp/cli/schemas.py)."""
    return {
        "puzzle": check.puzzle,
        "agree": check.agree,
        "deciders": check.deciders,
        "proven_multiple": check.proven_multiple,
        "verdict": check.verdict,
        "solutions": check.solution_count,
        "engines": [
            {
                "engine": r.engine,
                "status": r.status,
                "seconds": round(r.seconds, 4),
                "solutions": len(r.solutions),
                "exhausted": r.exhausted,
                "solutions_ok": r.solutions_ok,
                "message": r.message,
            }
            for r in check.runs
        ],
        "disagreements": [
            {"kind": d.kind, "engines": list(d.engines), "detail": d.detail} for d in check.disagreements
        ],
    }


def _print_table(console, check) -> None:
    from rich.markup import escape
    from rich.table import Table

    # names and messages come from files and exceptions: escape them, "[Political]" is not a style
    title = f"{escape(check.puzzle)}: " + _summary(check)
    table = Table(title=title, title_justify="left")
    table.add_column("engine")
    table.add_column("verdict")
    table.add_column("seconds", justify="right")
    table.add_column("solutions", justify="right")
    table.add_column("solutions ok")
    table.add_column("note", overflow="fold")
    for r in check.runs:
        ok = "-" if not r.solutions else ("yes" if r.solutions_ok else "[red]NO[/]")
        seconds = f"{r.seconds:.3f}" if r.ran else "-"
        note = r.message if len(r.message) <= 60 else r.message[:59] + "…"  # full text in --format json
        table.add_row(escape(r.engine), r.status, seconds, str(len(r.solutions)) if r.ran else "-", ok, escape(note))
    console.print(table)
    for d in check.disagreements:
        console.print(f"  [red]{escape(str(d))}[/]")


def _check_on_cluster(address, labelled, engines, timeout, limit, finished) -> None:
    """Every engine on every puzzle as separate tasks on a Dask cluster; `finished(CrossCheck)` is called
    in input order, each puzzle as soon as it and every puzzle before it have all their runs."""
    from nonocp.analysis.crosscheck import CrossCheck, compare
    from nonocp.batch import BatchOptions
    from nonocp.batch.cluster import Cluster
    from nonocp.engines import SolveOptions

    options = SolveOptions(max_solutions=limit, time_limit=timeout)
    hard_limit = BatchOptions(timeout=timeout).hard_limit  # the same grace as `bench`
    runs: list[dict[str, object]] = [{} for _ in labelled]
    shown = 0

    def on_run(i: int, run) -> None:
        nonlocal shown
        runs[i][run.engine] = run
        while shown < len(labelled) and len(runs[shown]) == len(engines):
            ordered = tuple(runs[shown][e] for e in engines)
            finished(CrossCheck(labelled[shown][0], ordered, compare(ordered), limit))
            shown += 1

    with Cluster.connect(address) as connected:
        link = connected.dashboard_link
        if link:
            print(f"nonocp: Dask dashboard: {link}", file=sys.stderr)
        connected.check([p for _, p in labelled], engines, options, hard_limit, on_run)


def register(app: typer.Typer) -> None:
    @app.command("check", epilog=exit_codes(0, 1, 2, 3, 4, 130))
    def check_command(
        puzzles: PuzzlesArg,
        backends: Annotated[list[str] | None, backends_option("every independent engine")] = None,
        timeout: TimeoutOpt = None,
        max_solutions: Annotated[int, max_solutions_option(least=2)] = 2,
        all_solutions: Annotated[
            bool, typer.Option("--all", help="Enumerate every solution; the engines must then list the same ones.")
        ] = False,
        fmt: Annotated[str, format_option(FORMATS, "json: one object per puzzle per line")] = "text",
        input_format: FromOpt = None,
        color: ColorOpt = "auto",
        cluster: Annotated[
            str | None,
            typer.Option(
                "--cluster", metavar="ADDRESS",
                help="Run the engines on a Dask cluster: its scheduler (tcp://host:8786), or local:N to start N "
                "worker processes here; each run is then stopped hard past its time limit (needs the nonocp[cluster] "
                "extra).",
            ),
        ] = None,
        progress: ProgressOpt = True,
    ) -> None:
        """Run every engine on each puzzle, compare verdicts and solutions (3: none of them decided in time)."""
        from nonocp.analysis.crosscheck import crosscheck
        from nonocp.batch.signals import stop_on_signals
        from nonocp.cli.inputs import expand, read_inputs

        engines = _engine_names(backends)
        limit = None if all_solutions else solutions_limit(max_solutions)
        with guarded(), stop_on_signals():
            if cluster is not None:
                from nonocp.batch.cluster import parse_address, require_dask

                parse_address(cluster)
                require_dask()
            # read everything first: a bad file is reported before any engine runs
            loaded = []
            for item in read_inputs(expand(puzzles), input_format):
                if item.error is not None:
                    fail(item.error)
                loaded.append((item.name, item.puzzles))
            # (file, index in it, label, puzzle), in input order: the order results come back in
            labelled = [
                (path, i, _label(path, i, len(items), one_line(puzzle.title)), puzzle)
                for path, items in loaded
                for i, puzzle in enumerate(items, 1)
            ]
            checks = []
            screen = console(color) if fmt == "text" else None

            def finished(result) -> None:
                if not any(r.ran for r in result.runs):
                    reasons = "; ".join(r.message for r in result.runs)
                    fail(f"no engine could run: {reasons}", EXIT_BAD_INPUT)
                path, index, _, _ = labelled[len(checks)]
                checks.append(result)
                if screen is not None:
                    _print_table(screen, result)
                else:  # one object per puzzle per line, as soon as it is checked (schema `check`)
                    doc = {"file": path, "index": index, **_json_of(result)}
                    print(json.dumps(doc, ensure_ascii=False), flush=True)

            if cluster is not None:
                _check_on_cluster(cluster, [(label, p) for _, _, label, p in labelled], engines, timeout, limit,
                                  finished)
            else:
                with Progress(progress) as working:
                    for k, (_, _, label, puzzle) in enumerate(labelled, 1):
                        working.say(f"checking {label} with {len(engines)} engines ({k} of {len(labelled)})")
                        finished(crosscheck(puzzle, engines, name=label, timeout=timeout, max_solutions=limit))

        bad = [c for c in checks if not c.agree]
        for c in bad:
            kinds = ", ".join(sorted({d.kind for d in c.disagreements}))
            print(f"nonocp: {c.puzzle}: engines {', '.join(c.culprits)} disagree ({kinds})", file=sys.stderr)
        if bad:
            raise typer.Exit(EXIT_DISAGREE)
        undecided = [c for c in checks if c.verdict == "timeout"]  # no verdict, and no two grids proving one
        for c in undecided:
            print(f"nonocp: {c.puzzle}: no engine reached a verdict in time", file=sys.stderr)
        if undecided:
            raise typer.Exit(EXIT_TIMEOUT)
        if any(c.verdict == "none" for c in checks):  # the engines agree: no solution (as `solve` says it)
            raise typer.Exit(EXIT_NO_SOLUTION)
