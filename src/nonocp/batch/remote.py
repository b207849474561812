"""What runs on a Dask worker: one puzzle, sent as text, solved in a solver process with a hard deadline.

`solve_text` and `check_text` run in the worker (imported through the functions the client submits; no
Dask import here); each worker thread hands its puzzles to a long-lived solver process of its own
(nonocp.batch.solver_process), where `_solve_here` / `_check_here` run. The solver process imports each
engine once (`_BACKENDS`) and keeps it for the next puzzles; a solve past its hard limit is killed with
its process (the next puzzle gets a fresh one), and an engine that crashes its process (an abort in a C
library) costs one row, never the worker.

Puzzles travel as nonocp JSON text, so workers need no shared disk and no pickled nonocp objects on the
way in; what comes back (an Outcome, or an EngineRun for `check`) is plain data.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from nonocp.batch.solver_process import SolverProcess
from nonocp.batch.worker import Outcome, Task, run_task
from nonocp.core.errors import NonocpError
from nonocp.core.puzzle import Puzzle
from nonocp.engines import BACKENDS, SolveOptions, get_backend

# The engines this solver process has loaded: name -> backend object.
_BACKENDS: dict[str, Any] = {}


def puzzle_text(puzzle: Puzzle) -> str:
    """How a puzzle travels to the workers (lossless: clues, palette and title)."""
    from nonocp.formats import dumps

    return dumps(puzzle, "json")


def _puzzle(text: str) -> Puzzle:
    from nonocp.formats import loads

    return loads(text, "json")[0]


def _load(engine: str, target: str | None) -> None:
    """Make `engine` resolve here as it does in the client (a plugin or test engine), and import it once."""
    base = engine.partition(":")[0]
    if target is not None and BACKENDS.get(base) != target:
        BACKENDS[base] = target
        _BACKENDS.pop(engine, None)
    if engine not in _BACKENDS:
        try:
            _BACKENDS[engine] = get_backend(engine)
        except NonocpError:
            pass  # run_task reports it as the row's error


_SOLVERS = threading.local()  # one solver process per worker thread


def _solver() -> SolverProcess:
    solver = getattr(_SOLVERS, "process", None)
    if solver is None:
        solver = _SOLVERS.process = SolverProcess()
    return solver


def solve_text(
    task_id: int, text: str, engine: str, target: str | None, options: SolveOptions, hard_limit: float | None
) -> Outcome:
    """`bench`'s unit of work on a worker: the same Outcome the local pool's worker sends back."""
    start = time.monotonic()
    try:
        status, value = _solver().call(
            _solve_here, (task_id, text, engine, target, options), hard_limit, prepare=(_load, (engine, target))
        )
    except Exception as e:  # noqa: BLE001 - whatever goes wrong here is this row's error, not the batch's
        return Outcome(task_id, "error", 0, time.monotonic() - start, {}, f"{type(e).__name__}: {e}")
    if status == "timeout":  # still running at the hard limit: killed, as the local pool kills its worker
        return Outcome(task_id, "timeout", 0, value, {"killed": True})
    if status == "died":
        return Outcome(task_id, "error", 0, time.monotonic() - start, {}, f"{value} while solving")
    return value


def solve_texts(items: list[tuple[Any, ...]], hard_limit: float | None) -> list[Outcome]:
    """Several puzzles in one Dask task: solve_text on each (task id, text, engine, target, options)."""
    return [solve_text(*item, hard_limit) for item in items]


def _solve_here(task_id: int, text: str, engine: str, target: str | None, options: SolveOptions) -> Outcome:
    """In the solver process: run_task reports any failure of the engine as the outcome's error."""
    try:
        puzzle = _puzzle(text)
        _load(engine, target)
    except Exception as e:  # noqa: BLE001 - a puzzle that does not parse here is this row's error
        return Outcome(task_id, "error", 0, 0.0, {}, f"{type(e).__name__}: {e}")
    return run_task(Task(task_id, puzzle, engine, options), _BACKENDS)


def check_text(
    text: str, engine: str, target: str | None, options: SolveOptions, hard_limit: float | None
) -> Any:
    """`check`'s unit of work on a worker: one engine's EngineRun on one puzzle (solutions verified)."""
    from nonocp.analysis.crosscheck import CRASHED, EngineRun

    start = time.monotonic()
    try:
        status, value = _solver().call(
            _check_here, (text, engine, target, options), hard_limit, prepare=(_load, (engine, target))
        )
    except Exception as e:  # noqa: BLE001 - reported as this engine's crash on this puzzle
        return EngineRun(engine, CRASHED, time.monotonic() - start, message=f"{type(e).__name__}: {e}")
    if status == "timeout":
        return EngineRun(engine, "timeout", value, message="stopped at the hard time limit")
    if status == "died":
        return EngineRun(engine, CRASHED, time.monotonic() - start, message=f"{value} while solving")
    return value


def _check_here(text: str, engine: str, target: str | None, options: SolveOptions) -> Any:
    from nonocp.analysis.crosscheck import CRASHED, EngineRun, run_engine

    try:
        puzzle = _puzzle(text)
        _load(engine, target)
    except Exception as e:  # noqa: BLE001 - reported as this engine's crash on this puzzle
        return EngineRun(engine, CRASHED, message=f"{type(e).__name__}: {e}")
    return run_engine(engine, puzzle, options, _resolve)


def _resolve(engine: str) -> Any:
    backend = _BACKENDS.get(engine)
    return backend if backend is not None else get_backend(engine)


def worker_pid() -> int:
    """This worker's process id (tests and `--cluster` diagnostics ask each worker for it)."""
    import os

    return os.getpid()
