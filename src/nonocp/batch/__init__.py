"""Batch solving: many puzzles, one or more engines, worker processes, one record per puzzle and engine.

    entries = collect(["puzzles/", "set.txt"])            # every puzzle, or the reason a file is unusable
    outcome = run_batch(entries, ["native", "sat"], BatchOptions(jobs=2, timeout=10), on_record=print)
    summary = summarize(outcome.records, outcome.engines)

Core code: nothing here prints. `on_record` is called in the calling process as each row is final
(input errors first, then runs as they finish), which is where a progress bar or a CSV stream hooks in.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from nonocp.batch.collect import PuzzleEntry, collect, puzzle_extensions, puzzle_files, read_entries
from nonocp.batch.pool import PoolError, run_pool
from nonocp.batch.records import CSV_FIELDS, CsvStream, Record, read_csv, write_csv, write_json
from nonocp.batch.summary import EngineSummary, RatioSummary, Summary, summarize, with_ratios
from nonocp.batch.worker import Outcome, Task
from nonocp.engines import SolveOptions


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

    def summary(self) -> Summary:
        return summarize(self.records, self.engines)


def input_error_record(entry: PuzzleEntry, order: int) -> Record:
    return Record(file=entry.file, index=entry.index, engine="", verdict="error", error=entry.error or "", order=order)


def run_record(entry: PuzzleEntry, engine: str, outcome: Outcome, order: int) -> Record:
    p = entry.puzzle
    assert p is not None
    return Record(
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


def run_batch(
    entries: Sequence[PuzzleEntry],
    engines: Sequence[str],
    options: BatchOptions = BatchOptions(),
    on_record: Callable[[Record], None] | None = None,
) -> BatchOutcome:
    """Run every engine on every entry's puzzle (puzzle by puzzle, engines in the order given).

    Ctrl-C (KeyboardInterrupt) stops the batch: workers are killed and the outcome holds every row
    finished so far, with `interrupted` set. Engines are looked up in nonocp.engines.BACKENDS as it is
    in this process (entries added at run time reach the workers too).
    """
    engines = tuple(engines)
    start = time.monotonic()
    records: list[Record] = []
    tasks: list[Task] = []
    task_entries: dict[int, tuple[PuzzleEntry, str]] = {}
    solve_options = options.solve_options()

    def emit(record: Record) -> None:
        records.append(record)
        if on_record is not None:
            on_record(record)

    interrupted, aborted = False, ""
    try:
        order = 0  # one number per row, in input order: the task id and the report's sort key
        for entry in entries:
            if not entry.ok:
                emit(input_error_record(entry, order))
                order += 1
                continue
            for engine in engines:
                tasks.append(Task(order, entry.puzzle, engine, solve_options))  # type: ignore[arg-type]
                task_entries[order] = (entry, engine)
                order += 1

        def finished(task: Task, outcome: Outcome) -> None:
            entry, engine = task_entries[task.task_id]
            emit(run_record(entry, engine, outcome, task.task_id))

        run_pool(tasks, options.jobs, options.hard_limit, finished)
    except KeyboardInterrupt:
        interrupted = True
    except PoolError as e:  # the workers cannot run: stop, but keep (and report) what finished
        interrupted, aborted = True, str(e)
    return BatchOutcome(
        engines=engines,
        records=tuple(with_ratios(records, engines)),
        interrupted=interrupted,
        aborted=aborted,
        wall_seconds=time.monotonic() - start,
        planned=planned_rows(entries, engines),
    )


__all__ = [
    "CSV_FIELDS", "BatchOptions", "BatchOutcome", "CsvStream", "EngineSummary", "PoolError", "PuzzleEntry",
    "RatioSummary", "Record", "Summary", "collect", "planned_rows", "puzzle_extensions", "puzzle_files",
    "read_csv", "read_entries", "run_batch", "summarize", "with_ratios", "write_csv", "write_json",
]
