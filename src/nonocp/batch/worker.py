"""The code that runs inside a worker process: take a task, solve it, send back what happened.

A worker ignores SIGINT: Ctrl-C in a terminal reaches the whole process group, and it is the parent's
job to decide what stops (it kills the workers and keeps the finished rows).
"""

from __future__ import annotations

import signal
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from nonocp.core.errors import NonocpError
from nonocp.core.puzzle import Puzzle
from nonocp.engines import BACKENDS, SolveOptions, get_backend


@dataclass(frozen=True)
class Task:
    task_id: int
    puzzle: Puzzle
    engine: str
    options: SolveOptions


@dataclass(frozen=True)
class Outcome:
    """What a worker sends back for one task."""

    task_id: int
    verdict: str
    solutions: int
    seconds: float
    stats: dict[str, Any]
    error: str = ""


# Messages from a worker: READY once set up, then one Outcome per task; INIT_FAILED and exit if setup broke.
READY = "ready"
INIT_FAILED = "init-failed"


def _short(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def run_task(task: Task, backends: dict[str, Any]) -> Outcome:
    """Solve one task with its engine; any exception becomes an "error" outcome with the reason."""
    from nonocp.batch.records import jsonable  # small; keeps this module's imports minimal

    start = time.perf_counter()
    try:
        backend = backends.get(task.engine)
        if backend is None:
            backend = backends[task.engine] = get_backend(task.engine)
        result = backend.solve(task.puzzle, task.options)
    except Exception as e:  # an engine bug must cost one row, not the batch
        detail = _short(e) if isinstance(e, NonocpError) else _short(e) + " | " + _last_frame(e)
        return Outcome(task.task_id, "error", 0, time.perf_counter() - start, {}, detail)
    seconds = time.perf_counter() - start
    stats = jsonable(result.stats)
    # A batch is where engine bugs show up at scale: every reported grid is checked against the clues.
    wrong = sum(1 for g in result.solutions if not task.puzzle.is_solution(g))
    if wrong:
        message = f"{wrong} of the {len(result.solutions)} reported solutions break the clues"
        return Outcome(task.task_id, "error", len(result.solutions), seconds, stats, message)
    return Outcome(task.task_id, str(result.status), len(result.solutions), seconds, stats)


def _last_frame(e: BaseException) -> str:
    tb = traceback.extract_tb(e.__traceback__)
    return f"{tb[-1].filename}:{tb[-1].lineno}" if tb else ""


def worker_main(conn: Connection, engines: tuple[str, ...], registry: dict[str, str]) -> None:
    """Entry point of a worker process (spawned or forked from the forkserver).

    `registry` is the parent's entries of nonocp.engines.BACKENDS for `engines`, so that an engine
    registered at run time in the parent (a plugin, a test double) resolves the same way here.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        BACKENDS.update(registry)
        # Import the engines now, so that the first task's time does not include importing ortools.
        backends: dict[str, Any] = {}
        for name in engines:
            try:
                backends[name] = get_backend(name)
            except NonocpError:
                pass  # reported per task, as an error row naming the reason
    except BaseException as e:  # noqa: BLE001 - report any setup failure to the parent, then exit
        conn.send((INIT_FAILED, _short(e)))
        conn.close()
        return
    conn.send((READY, None))
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        if task is None:
            return
        conn.send(run_task(task, backends))
