"""A pool of worker processes that can kill one stuck task without losing the others.

multiprocessing.Pool cannot stop a single running task, so this is a small pool of our own: one
duplex pipe per worker, tasks handed out one at a time, and a deadline per running task. A task that
runs past `hard_limit` seconds has its worker killed (SIGKILL) and replaced, and is reported as a
timeout. A worker that dies by itself (a segfault, an abort inside a C library) costs that task an
error row and is replaced the same way.

Workers start through the forkserver where the platform has one (a fork of a clean server process:
no threads or locks inherited from the parent, and cheap to replace), else by spawn.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from collections import deque
from collections.abc import Callable, Iterable
from multiprocessing.connection import Connection, wait
from typing import Any

from nonocp.batch.worker import INIT_FAILED, READY, Outcome, Task, worker_main
from nonocp.core.errors import NonocpError
from nonocp.engines import BACKENDS

# How long a worker may take to start (import nonocp and the engines) before the batch gives up. Generous:
# on a starved machine (load 30 on 2 cores, nice 10) a start was seen to take over two minutes.
STARTUP_LIMIT = 900.0
# A worker that dies before it is ready this many times in a row means the setup itself is broken.
MAX_STARTUP_FAILURES = 3


class PoolError(NonocpError):
    """The workers cannot be started (their setup fails): not a per-puzzle problem."""


def worker_context(registry: dict[str, str] | None = None) -> Any:
    """forkserver where available (Linux, macOS), else spawn; never plain fork (threads in the parent).

    The forkserver imports the worker code and the engines' modules once, so that a worker that
    replaces a killed one starts in milliseconds instead of re-importing ortools (seconds on a busy
    machine). The preload list only counts when the server starts (the first batch of a process).
    """
    methods = mp.get_all_start_methods()
    if "forkserver" in methods:
        ctx = mp.get_context("forkserver")
        engines = sorted({target.partition(":")[0] for target in (registry or {}).values()})
        # '__main__' keeps the default behaviour (the main script is imported in the server, as spawn does);
        # a module that fails to import is skipped by the server (the worker then reports it per task).
        ctx.set_forkserver_preload(["__main__", "nonocp.batch.worker", *engines])
        return ctx
    return mp.get_context("spawn")


class _Worker:
    def __init__(self, ctx: Any, engines: tuple[str, ...], registry: dict[str, str]) -> None:
        parent, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=worker_main, args=(child, engines, registry), daemon=True)
        self.process.start()
        child.close()  # so that recv() on our end sees EOF when the worker dies
        self.conn: Connection = parent
        self.ready = False
        self.started = time.monotonic()
        self.task: Task | None = None
        self.sent_at = 0.0

    def send(self, task: Task) -> None:
        self.task = task
        self.sent_at = time.monotonic()
        self.conn.send(task)

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()

    def stop(self) -> None:
        """Ask an idle worker to exit; kill it if it does not."""
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.process.join(2)
        self.kill()


def run_pool(
    tasks: Iterable[Task],
    jobs: int,
    hard_limit: float | None,
    on_outcome: Callable[[Task, Outcome], None],
) -> None:
    """Run every task on `jobs` worker processes, calling `on_outcome` (in this process) as each ends.

    `hard_limit` (seconds per task, None = none) is when a worker is killed. KeyboardInterrupt raised
    while waiting propagates after every worker has been killed; finished outcomes were already passed
    to `on_outcome`.
    """
    pending = deque(tasks)
    if not pending:
        return
    engines = tuple(dict.fromkeys(t.engine for t in pending))
    registry = {e.partition(":")[0]: BACKENDS[e.partition(":")[0]] for e in engines if e.partition(":")[0] in BACKENDS}
    ctx = worker_context(registry)
    workers: list[_Worker] = []
    startup_failures = 0

    def spawn() -> _Worker:
        w = _Worker(ctx, engines, registry)
        workers.append(w)
        return w

    def retire(w: _Worker) -> None:
        w.kill()
        workers.remove(w)

    try:
        for _ in range(max(1, min(jobs, len(pending)))):
            spawn()
        while pending or any(w.task is not None for w in workers):
            for w in workers:
                if w.ready and w.task is None and pending:
                    w.send(pending.popleft())
            now = time.monotonic()
            deadlines = [w.sent_at + hard_limit for w in workers if w.task is not None and hard_limit is not None]
            deadlines += [w.started + STARTUP_LIMIT for w in workers if not w.ready]
            timeout = max(0.0, min(deadlines) - now) if deadlines else None
            for conn in wait([w.conn for w in workers], timeout):
                w = next(x for x in workers if x.conn is conn)
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    message = None
                if isinstance(message, Outcome):
                    task, w.task = w.task, None
                    assert task is not None and task.task_id == message.task_id
                    on_outcome(task, message)
                elif isinstance(message, tuple) and message[0] == READY:
                    w.ready, startup_failures = True, 0
                elif isinstance(message, tuple) and message[0] == INIT_FAILED:
                    raise PoolError(f"the worker processes cannot start: {message[1]}")
                else:  # EOF: the worker died
                    task = w.task
                    retire(w)  # joins the process, so its exit code is known
                    code = w.process.exitcode
                    if task is None:
                        startup_failures += 1
                        if startup_failures >= MAX_STARTUP_FAILURES:
                            raise PoolError(f"the worker processes die while starting (exit code {code})")
                    else:
                        seconds = time.monotonic() - w.sent_at
                        on_outcome(task, Outcome(task.task_id, "error", 0, seconds, {}, _death(code)))
                    if pending:
                        spawn()
            now = time.monotonic()
            for w in list(workers):
                if w.task is not None and hard_limit is not None and now >= w.sent_at + hard_limit:
                    task = w.task
                    retire(w)
                    on_outcome(task, Outcome(task.task_id, "timeout", 0, now - w.sent_at, {"killed": True}))
                    if pending:
                        spawn()
                elif not w.ready and now >= w.started + STARTUP_LIMIT:
                    raise PoolError(f"a worker process did not start within {STARTUP_LIMIT:.0f} s")
    finally:
        for w in list(workers):
            if w.task is None and w.ready:
                w.stop()
            else:
                w.kill()


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        import signal

        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"the worker process died ({name}) while solving"
    return f"the worker process died (exit code {exitcode}) while solving"
