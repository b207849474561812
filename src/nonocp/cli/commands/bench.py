"""`nonocp bench PATH...`: solve many puzzles with one or more engines, with a progress bar and reports.

The work itself (collecting puzzles, the worker pool, records, summaries) is nonocp.batch; this module
only turns options into a batch, draws the progress bar and the tables, and writes CSV/JSON.

Exit codes: 0 when the batch ran (timeouts and unreadable files are results, not failures), 2 on usage
errors (unknown engine, missing path), 4 when engines disagree on a verdict, 130 when interrupted
(after writing the partial reports).
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from typing import Annotated, Any

import typer

from nonocp.cli.common import EXIT_BAD_INPUT, EXIT_DISAGREE, EXIT_INTERRUPTED, console, exit_codes, fail, guarded
from nonocp.cli.options import (
    ColorOpt,
    FromOpt,
    backends_option,
    format_option,
    max_solutions_option,
    solutions_limit,
    timeout_option,
)
from nonocp.engines import DEFAULT_BACKEND

# With several engines and at most this many puzzles, the per-puzzle comparison is printed as a table
# (it is always in the JSON report and, as the `ratio` column, in the CSV).
PER_PUZZLE_TABLE_LIMIT = 40


def _engine_names(specs: list[str] | None) -> tuple[str, ...]:
    from nonocp.cli.options import split_engines
    from nonocp.core.errors import BackendUnavailable
    from nonocp.engines import DEFAULT_BACKEND, get_backend

    names = split_engines(specs, (DEFAULT_BACKEND,))
    for n in names:
        try:
            get_backend(n)  # unknown or not installed: say so now, not once per puzzle
        except BackendUnavailable as e:
            fail(f"--backend: {e}", EXIT_BAD_INPUT)
    return names


class _Progress:
    """The rich progress bar (on stderr) with running counts; fed one record at a time."""

    def __init__(self, total: int, enabled: bool) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.counts = {"solved": 0, "timeout": 0, "failed": 0}
        self.progress = Progress(
            SpinnerColumn(),
            TextColumn("[bold]bench[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[counts]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=not enabled,
        )
        self.task = self.progress.add_task("bench", total=total, counts=self._text())

    def _text(self) -> str:
        c = self.counts
        return f"[green]{c['solved']} solved[/] [yellow]{c['timeout']} timed out[/] [red]{c['failed']} failed[/]"

    def __enter__(self) -> _Progress:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.progress.__exit__(*exc)

    def add(self, record: Any) -> None:
        key = "solved" if record.answered else "timeout" if record.verdict == "timeout" else "failed"
        self.counts[key] += 1
        self.progress.update(self.task, advance=1, counts=self._text())


def _fmt(x: float | None, spec: str = ".3f") -> str:
    return "-" if x is None else format(x, spec)


def _summary_table(summary: Any, wall: float) -> Any:
    from rich import box
    from rich.table import Table

    t = Table(
        title=f"per engine (seconds; wall time {wall:.1f} s)", title_justify="left", box=box.SIMPLE_HEAD,
        padding=(0, 1, 0, 0), show_edge=False,
    )
    t.add_column("engine", no_wrap=True)
    for name in ("runs", "solved", "unique", "multiple", "none", "timeout", "error", "total", "median"):
        t.add_column(name, justify="right", no_wrap=True)
    for e in summary.engines:
        t.add_row(
            e.engine, str(e.runs), str(e.solved), str(e.unique), str(e.multiple), str(e.none),
            f"[yellow]{e.timeouts}[/]" if e.timeouts else "0", f"[red]{e.errors}[/]" if e.errors else "0",
            f"{e.total_seconds:.2f}", _fmt(e.median_seconds),
        )
    return t


def _ratio_table(summary: Any) -> Any:
    from rich import box
    from rich.table import Table

    base = summary.ratios[0].baseline
    t = Table(title=f"time / time of {base}, per puzzle both answered", title_justify="left", box=box.SIMPLE_HEAD)
    for name in ("engine", "puzzles", "median", "geo. mean", f"faster than {base}"):
        t.add_column(name, justify="left" if name == "engine" else "right", no_wrap=True)
    for r in summary.ratios:
        t.add_row(r.engine, str(r.compared), _fmt(r.median, ".3g"), _fmt(r.geometric_mean, ".3g"), str(r.faster))
    return t


def _per_puzzle_table(records: Any, engines: tuple[str, ...]) -> Any:
    from rich import box
    from rich.table import Table

    from nonocp.batch.summary import by_puzzle

    t = Table(title="per puzzle", title_justify="left", box=box.SIMPLE_HEAD)
    t.add_column("puzzle", overflow="fold")
    for e in engines:
        t.add_column(e, justify="right")
    t.add_column("agree")
    for (file, index), runs in by_puzzle(records).items():
        cells = []
        for e in engines:
            r = runs.get(e)
            if r is None:
                cells.append("-")
            else:
                ratio = f" x{r.ratio:.2g}" if r.ratio is not None and e != engines[0] else ""
                cells.append(f"{r.verdict} {_fmt(r.seconds, '.2f')}s{ratio}")
        answered = [r.verdict for r in runs.values() if r.answered]
        agree = "-" if len(answered) < 2 else "yes" if len(set(answered)) == 1 else "[red]NO[/]"
        name = file.rsplit("/", 1)[-1] + (f" #{index}" if index > 1 else "")
        t.add_row(name, *cells, agree)
    return t


def _json_head(engines: tuple[str, ...], options: Any, paths: list[str], cluster: str | None) -> dict[str, Any]:
    """What the JSON report says about the run itself (also the head of the streamed document)."""
    import nonocp

    return {
        "nonocp": nonocp.__version__,
        "paths": paths,
        "engines": list(engines),
        "options": {
            "jobs": options.jobs, "timeout": options.timeout, "hard_limit": options.hard_limit,
            "max_solutions": options.max_solutions, "engine_workers": options.engine_workers, "cluster": cluster,
        },
    }


def _json_document(outcome: Any, summary: Any, head: dict[str, Any]) -> dict[str, Any]:
    from nonocp.batch.summary import by_puzzle

    comparisons = []
    if len(outcome.engines) > 1:
        for (file, index), runs in by_puzzle(outcome.records).items():
            answered = {e: r.verdict for e, r in runs.items() if r.answered}
            comparisons.append({
                "file": file,
                "index": index,
                "verdicts": {e: r.verdict for e, r in runs.items()},
                "seconds": {e: r.seconds for e, r in runs.items()},
                "ratios": {e: r.ratio for e, r in runs.items() if r.ratio is not None},
                "agree": None if len(answered) < 2 else len(set(answered.values())) == 1,
            })
    return {
        **head,
        "interrupted": outcome.interrupted,
        "aborted": outcome.aborted,
        "wall_seconds": outcome.wall_seconds,
        "planned_rows": outcome.planned,
        "resumed_rows": outcome.resumed,
        "summary": summary.to_json(),
        "comparisons": comparisons,
        "runs": [r.to_json() for r in outcome.records],
    }


HELP = (
    "Solve many puzzles with one or more engines: progress bar, summary per engine, CSV/JSON reports.\n\n"
    "Every puzzle runs in a worker process (also with --jobs 1), so that a puzzle overrunning --timeout is "
    "stopped hard: the engine gets the time limit, and its worker is killed at timeout + 1 s + 10 %. "
    "Rows are written to the reports as they finish. Ctrl-C (or SIGTERM) stops the batch and keeps every "
    "finished row; --resume REPORT then runs only what that report lacks. --cluster runs the solves on a "
    "Dask cluster instead of local processes. Timeouts and unreadable files are rows of the report, not "
    "failures: exit 0 once the batch ran (2 when no puzzle could be read)."
)


def _report_targets(
    csv_path: str | None, json_path: str | None, resume: str | None
) -> tuple[str | None, str | None]:
    """Where the reports go: as given; with --resume and neither given, the resumed report itself."""
    if resume and not csv_path and not json_path:
        with open(resume, "rb") as fh:
            is_json = fh.read(4096).lstrip().startswith(b"{")
        return (None, resume) if is_json else (resume, None)
    return csv_path, json_path


def _runner_context(cluster: str | None) -> Any:
    if cluster is None:
        return nullcontext(None)
    from nonocp.batch.cluster import Cluster

    return Cluster.connect(cluster)


def register(app: typer.Typer) -> None:
    @app.command("bench", help=HELP, epilog=exit_codes(0, 2, 4, 130))
    def bench(
        paths: Annotated[
            list[str], typer.Argument(metavar="PATH...", help="Puzzle files, bundles or folders (walked recursively).")
        ],
        backend: Annotated[list[str] | None, backends_option(DEFAULT_BACKEND)] = None,
        jobs: Annotated[int, typer.Option("--jobs", "-j", metavar="N", min=1, help="Worker processes.")] = 1,
        timeout: Annotated[float | None, timeout_option(60.0)] = 60.0,
        max_solutions: Annotated[int, max_solutions_option()] = 2,
        csv_path: Annotated[
            str | None, typer.Option("--csv", metavar="FILE", help="Write one row per puzzle and engine.")
        ] = None,
        json_path: Annotated[
            str | None, typer.Option("--json", metavar="FILE", help="Write rows, summary and comparisons.")
        ] = None,
        fmt: FromOpt = None,
        limit: Annotated[
            int | None,
            typer.Option("--limit", metavar="N", min=1, help="Only the first N puzzles found (e.g. a slice of a set)."),
        ] = None,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Show the progress bar.")] = True,
        output_format: Annotated[
            str, format_option(("text", "json"), "json: one object per run per line, in input order")
        ] = "text",
        color: ColorOpt = "auto",
        cluster: Annotated[
            str | None,
            typer.Option(
                "--cluster", metavar="ADDRESS",
                help="Solve on a Dask cluster: its scheduler (tcp://host:8786), or local:N to start N worker "
                "processes here (--jobs is then not used; needs the nonocp[cluster] extra).",
            ),
        ] = None,
        force: Annotated[
            bool, typer.Option("--force", help="Let --csv/--json replace a read-only file (never an input).")
        ] = False,
        resume: Annotated[
            str | None,
            typer.Option(
                "--resume", metavar="REPORT",
                help="Skip the runs already in REPORT (a CSV or JSON report of an earlier bench, matched by "
                "puzzle fingerprint and engine); its rows are kept, and it receives the new ones unless "
                "--csv/--json name other files.",
            ),
        ] = None,
    ) -> None:
        """Solve many puzzles with one or more engines (see HELP)."""
        from rich.console import Console

        from nonocp.batch import BatchOptions, CsvReport, JsonReport, ReportError, collect, plan_batch, run_batch
        from nonocp.batch.reports import read_report
        from nonocp.batch.signals import stop_on_signals
        from nonocp.core.outputs import Outputs

        err = Console(stderr=True)
        problems: list[str] = []  # report files that could not be finished (the stream before them is kept)
        # usage errors, unwritable report files, workers that cannot start: one line, exit 2
        with guarded(), stop_on_signals():
            engines = _engine_names(backend)
            if cluster is not None:
                from nonocp.batch.cluster import parse_address, require_dask

                parse_address(cluster)
                require_dask()
            previous = read_report(resume, lambda say: print(f"nonocp: {say}", file=sys.stderr)) if resume else []
            with err.status("reading puzzles ...", spinner="dots") if progress else nullcontext():
                entries = collect(paths, fmt, limit=limit)
            if not entries:
                fail("no puzzle files found in " + ", ".join(paths), EXIT_BAD_INPUT)
            options = BatchOptions(jobs=jobs, timeout=timeout, max_solutions=solutions_limit(max_solutions))
            plan = plan_batch(entries, engines, options, previous)
            csv_path, json_path = _report_targets(csv_path, json_path, resume)
            # The reports are checked before any work: never a puzzle read (named, or found in a folder),
            # never both on one file, a read-only one only with --force (nonocp.core.outputs).
            outputs = Outputs([e.file for e in entries], force=force)
            if csv_path:
                outputs.claim(csv_path, "--csv")
            if json_path:
                outputs.claim(json_path, "--json")
            head = _json_head(engines, options, paths, cluster)

            def on_record(record: Any) -> None:
                bar.add(record)
                for report in (csv_report, json_report):
                    if report is not None:
                        report.add(record)

            # The cluster first: a scheduler that cannot be reached must not cost the user an old report.
            with _runner_context(cluster) as connected:
                runner = None
                if connected is not None:
                    runner = connected.runner()
                    link = connected.dashboard_link
                    if link:
                        print(f"nonocp: Dask dashboard: {link}", file=sys.stderr)
                csv_report = CsvReport(csv_path, plan.previous, outputs) if csv_path else None
                json_report = JsonReport(json_path, head, plan.previous, outputs) if json_path else None
                if resume:
                    print(f"nonocp: resuming {resume}: {len(plan.carried)} of {plan.planned} rows already "
                          f"there, {len(plan.tasks)} runs to do", file=sys.stderr)
                with _Progress(len(plan.tasks) + len(plan.input_errors), progress) as bar:
                    outcome = run_batch(entries, engines, options, on_record=on_record, runner=runner, plan=plan)
            summary = outcome.summary()
            # Reports first: they are what an interrupted user wants kept.
            if csv_report is not None:
                try:
                    csv_report.finish(outcome.records)
                except ReportError as e:
                    problems.append(str(e))
            if json_report is not None:
                try:
                    json_report.finish(_json_document(outcome, summary, head))
                except ReportError as e:
                    problems.append(str(e))
        if output_format == "json":  # one object per run per line (schema `bench` in nonocp/cli/schemas.py)
            import json

            for record in outcome.records:
                typer.echo(json.dumps(record.to_json(), default=str, ensure_ascii=False))
        else:
            # Piped or redirected output gets wide tables rather than truncated columns.
            _print_report(console(color, width=None if sys.stdout.isatty() else 120), outcome, summary)
        for problem in problems:
            print(f"nonocp: {problem}", file=sys.stderr)
        if outcome.interrupted:
            done = sum(1 for r in outcome.records if r.engine)
            why = outcome.aborted or "interrupted"
            print(f"nonocp: {why}; {done} finished runs kept", file=sys.stderr)
            raise typer.Exit(EXIT_BAD_INPUT if outcome.aborted else EXIT_INTERRUPTED)
        if problems:
            raise typer.Exit(EXIT_BAD_INPUT)
        if not any(e.ok for e in entries):
            print(f"nonocp: no puzzle could be read ({len(entries)} unreadable files or invalid puzzles)",
                  file=sys.stderr)
            raise typer.Exit(EXIT_BAD_INPUT)
        if summary.disagreements:
            raise typer.Exit(EXIT_DISAGREE)


def _print_report(console: Any, outcome: Any, summary: Any) -> None:
    console.print(_summary_table(summary, outcome.wall_seconds))
    if summary.ratios:
        console.print(_ratio_table(summary))
        if summary.puzzles <= PER_PUZZLE_TABLE_LIMIT:
            console.print(_per_puzzle_table(outcome.records, outcome.engines))
        agreement = f"agreement: {summary.agreed} of {summary.compared} puzzles answered by several engines"
        console.print(agreement if not summary.disagreements else f"[bold red]{agreement}[/]")
        for d in summary.disagreements:
            verdicts = ", ".join(f"{e} {v}" for e, v in d.verdicts.items())
            console.print(f"  [red]DISAGREE[/] {d.file} (puzzle {d.index}): {verdicts}")
    if summary.input_errors:
        console.print(f"[red]{summary.input_errors} unreadable files or invalid puzzles[/]:")
        for r in [r for r in outcome.records if not r.engine][:10]:
            console.print(f"  {r.error}", markup=False, highlight=False)
        if summary.input_errors > 10:
            console.print("  ... (every one is a row in the CSV/JSON report)")
    timeouts = sorted((r.seconds or 0 for r in outcome.records if r.verdict == "timeout"), reverse=True)
    if timeouts:
        from statistics import median  # not at the top: `nonocp --help` imports this module

        console.print(f"{len(timeouts)} runs timed out (median {median(timeouts):.1f} s used)")
