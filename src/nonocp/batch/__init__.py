"""Batch solving: many puzzles, one or more engines, worker processes, one record per puzzle and engine.

    entries = collect(["puzzles/", "set.txt"])            # every puzzle, or the reason a file is unusable
    outcome = run_batch(entries, ["native", "sat"], BatchOptions(jobs=2, timeout=10), on_record=print)
    summary = summarize(outcome.records, outcome.engines)

Core code: nothing here prints. `on_record` is called in the calling process as each row is final
(input errors first, then runs as they finish), which is where a progress bar or a report stream hooks in.

The runs go to a local pool of worker processes (nonocp.batch.pool, the default: no Dask involved) or,
given a `runner` from nonocp.batch.cluster, to a Dask cluster. `resume` rows (an earlier report of the
same batch, nonocp.batch.reports.read_report) are matched by puzzle fingerprint and engine and not run
again: see plan_batch.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from nonocp.batch.collect import PuzzleEntry, collect, puzzle_extensions, puzzle_files, read_entries
from nonocp.batch.pool import PoolError, run_pool
from nonocp.batch.records import CSV_FIELDS, Record
from nonocp.batch.reports import CsvReport, JsonReport, ReportError, read_csv, read_report, write_csv, write_json
from nonocp.batch.summary import EngineSummary, RatioSummary, Summary, summarize, with_ratios
from nonocp.batch.worker import Outcome, Task
from nonocp.engines import SolveOptions

# Runs tasks somewhere, calling on_outcome(task, outcome) in this process as each ends:
# runner(tasks, hard_limit, on_outcome). The local pool is one; nonocp.batch.cluster makes others.
Runner = Callable[[Sequence[Task], "float | None", Callable[[Task, Outcome], None]], None]


@dataclass(frozen=True)
class BatchOptions:
    """How to run a batch.

    `timeout` is given to each engine as its time limit; a worker still running at timeout + grace is
    killed (the backstop for engines that overrun their limit). `jobs` worker processes are used even
    when it is 1, so that the hard kill always works. `engine_workers` is the engines' own thread count
    (CP-SAT): 1 by default, because parallelism comes from `jobs`.
    """

    jobs: int = 1
    timeout: float | None = 60.0
    max_solutions: int | None = 2
    engine_workers: int | None = 1
    seed: int | None = None

    @property
    def grace(self) -> float:
        """Extra seconds past the timeout before the hard kill: engines check their clock between steps."""
        return 1.0 + 0.1 * (self.timeout or 0.0)

    @property
    def hard_limit(self) -> float | None:
        return None if self.timeout is None else self.timeout + self.grace

    def solve_options(self) -> SolveOptions:
        return SolveOptions(
            max_solutions=self.max_solutions, time_limit=self.timeout, seed=self.seed, workers=self.engine_workers
        )


@dataclass(frozen=True)
class BatchOutcome:
    engines: tuple[str, ...]
    records: tuple[Record, ...]  # in input order, ratios against the first engine filled in
    interrupted: bool  # Ctrl-C, or `aborted`
    aborted: str  # why the batch stopped early when it was not Ctrl-C ("" otherwise)
    wall_seconds: float
    planned: int  # rows the batch would have had if it ran to the end
    resumed: int = 0  # rows carried over from the report given to --resume (included in `records`)

    def summary(self) -> Summary:
        return summarize(self.records, self.engines)


def input_error_record(entry: PuzzleEntry, order: int) -> Record:
    return Record(file=entry.file, index=entry.index, engine="", verdict="error", error=entry.error or "", order=order)


def run_record(entry: PuzzleEntry, engine: str, outcome: Outcome, order: int) -> Record:
    p = entry.puzzle
    assert p is not None
    return Record(
        fingerprint=p.fingerprint(),
        file=entry.file,
        index=entry.index,
        engine=engine,
        verdict=outcome.verdict,
        title=p.title,
        width=p.width,
        height=p.height,
        colors=len(p.palette) - 1,
        solutions=outcome.solutions,
        seconds=outcome.seconds,
        stats=outcome.stats,
        error=outcome.error,
        order=order,
    )


def planned_rows(entries: Sequence[PuzzleEntry], engines: Sequence[str]) -> int:
    return sum(len(engines) if e.ok else 1 for e in entries)


@dataclass(frozen=True)
class Plan:
    """What a batch will do: the runs left to do, and the rows it already has.

    `carried` are rows of the resumed report that match this batch (their `order` set to the task they
    stand for); `kept` are rows of that report for puzzles this batch does not have (kept at the end, so
    that resuming with fewer paths loses nothing); `input_errors` are this batch's unreadable files and
    invalid puzzles not already in the report.
    """

    tasks: tuple[Task, ...]
    entries: dict[int, tuple[PuzzleEntry, str]]  # task id -> (entry, engine)
    carried: tuple[Record, ...]
    kept: tuple[Record, ...]
    input_errors: tuple[Record, ...]
    planned: int

    @property
    def previous(self) -> tuple[Record, ...]:
        """The resumed report's rows this batch keeps, in order: what a new report starts with."""
        return tuple(sorted(self.carried + self.kept, key=lambda r: r.order))


def plan_batch(
    entries: Sequence[PuzzleEntry], engines: Sequence[str], options: BatchOptions, resume: Sequence[Record] = ()
) -> Plan:
    """Number every row of the batch (input order, engines in the order given) and match `resume` rows.

    A resumed row stands for a run when it has the same puzzle fingerprint and engine; a puzzle that
    appears k times in the input (two files, one puzzle) is matched by up to k rows, so that the report
    still has every puzzle exactly once per engine.
    """
    available: dict[tuple[str, ...], list[Record]] = {}
    for r in resume:
        available.setdefault(r.resume_key, []).append(r)
    solve_options = options.solve_options()
    tasks: list[Task] = []
    task_entries: dict[int, tuple[PuzzleEntry, str]] = {}
    carried: list[Record] = []
    errors: list[Record] = []
    order = 0  # one number per row, in input order: the task id and the report's sort key

    def take(key: tuple[str, ...]) -> Record | None:
        rows = available.get(key)
        return rows.pop(0) if rows else None

    for entry in entries:
        if not entry.ok:
            record = input_error_record(entry, order)
            old = take(record.resume_key)
            (errors if old is None else carried).append(record if old is None else old.with_order(order))
            order += 1
            continue
        fingerprint = entry.puzzle.fingerprint()  # type: ignore[union-attr]
        for engine in engines:
            old = take(("run", fingerprint, engine)) or take(("file", entry.file, str(entry.index), engine))
            if old is not None:
                carried.append(old.with_order(order))
            else:
                tasks.append(Task(order, entry.puzzle, engine, solve_options))  # type: ignore[arg-type]
                task_entries[order] = (entry, engine)
            order += 1
    planned = order
    # Rows of other puzzles (resuming with fewer paths) stay; old error rows of files that now read do not.
    kept = [r for rows in available.values() for r in rows if r.engine]
    kept = [r.with_order(planned + i) for i, r in enumerate(sorted(kept, key=lambda r: r.order))]
    return Plan(tuple(tasks), task_entries, tuple(carried), tuple(kept), tuple(errors), planned)


def run_batch(
    entries: Sequence[PuzzleEntry],
    engines: Sequence[str],
    options: BatchOptions = BatchOptions(),
    on_record: Callable[[Record], None] | None = None,
    *,
    resume: Sequence[Record] = (),
    runner: Runner | None = None,
    plan: Plan | None = None,
) -> BatchOutcome:
    """Run every engine on every entry's puzzle (puzzle by puzzle, engines in the order given).

    Ctrl-C (KeyboardInterrupt) stops the batch: workers are stopped and the outcome holds every row
    finished so far, with `interrupted` set; so does a ReportError raised by `on_record` (a full disk),
    with `aborted` saying why. Engines are looked up in nonocp.engines.BACKENDS as it is in this process
    (entries added at run time reach the workers too). `runner` defaults to the local pool with
    `options.jobs` workers; `plan` (from plan_batch, with `resume`) when the caller made it already.
    """
    engines = tuple(engines)
    start = time.monotonic()
    plan = plan or plan_batch(entries, engines, options, resume)
    records: list[Record] = list(plan.carried + plan.kept)
    run = runner or (lambda tasks, limit, done: run_pool(tasks, options.jobs, limit, done))

    def emit(record: Record) -> None:
        records.append(record)
        if on_record is not None:
            on_record(record)

    interrupted, aborted = False, ""
    try:
        for record in plan.input_errors:
            emit(record)

        def finished(task: Task, outcome: Outcome) -> None:
            entry, engine = plan.entries[task.task_id]
            emit(run_record(entry, engine, outcome, task.task_id))

        run(plan.tasks, options.hard_limit, finished)
    except KeyboardInterrupt:
        interrupted = True
    except (PoolError, ReportError) as e:  # the workers cannot run, or the report cannot be written: stop
        interrupted, aborted = True, str(e)
    return BatchOutcome(
        engines=engines,
        records=tuple(with_ratios(records, engines)),
        interrupted=interrupted,
        aborted=aborted,
        wall_seconds=time.monotonic() - start,
        planned=plan.planned + len(plan.kept),
        resumed=len(plan.carried) + len(plan.kept),
    )


__all__ = [
    "CSV_FIELDS", "BatchOptions", "BatchOutcome", "CsvReport", "EngineSummary", "JsonReport", "Plan", "PoolError",
    "PuzzleEntry", "RatioSummary", "Record", "ReportError", "Runner", "Summary", "collect", "plan_batch",
    "planned_rows", "puzzle_extensions", "puzzle_files", "read_csv", "read_entries", "read_report", "run_batch",
    "summarize", "with_ratios", "write_csv", "write_json",
]
