"""A long-lived solver process that runs calls one at a time, killed and replaced when a call overruns.

What a Dask worker thread solves through (nonocp.batch.remote). Why not the alternatives:
- solving in the worker's own thread cannot be stopped at a time limit (a thread cannot be killed), and
  an engine that aborts its process would take the worker down;
- a fork of the worker (per puzzle, or kept) is a copy of a large process: every fork an engine makes
  inside it (the sat engine solves in a forked child) costs more, and a fork per puzzle costs more CPU
  than a small puzzle's solve (benchmarks/results/cluster.md);
- multiprocessing cannot start children from a Dask worker (its processes are daemonic).
So the solver is a fresh interpreter (`python -m nonocp.batch.solver_process`) that imports the engines
on first use and serves calls over a pipe until it is killed (past a deadline) or the thread that
started it ends (Linux PR_SET_PDEATHSIG: a worker that dies leaves no solver behind). Starting one costs
an interpreter start and the engines' imports, paid again only after a kill.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection, Pipe
from typing import Any

from nonocp.batch.pool import STARTUP_LIMIT


class SolverProcess:
    """One solver process per instance; `call` starts it on first use and again after a kill or a crash."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.conn: Connection | None = None
        self.lock = threading.Lock()

    def call(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        limit: float | None,
        prepare: tuple[Callable[..., Any], tuple[Any, ...]] | None = None,
    ) -> tuple[str, Any]:
        """("done", fn(*args) as run in the solver process), ("timeout", seconds) when it ran `limit` seconds
        and was killed, or ("died", how) when the process ended without answering. `prepare` (a function
        and its arguments: importing the engine) runs first, off the clock, as does starting the process.
        Functions must be importable by name (they are pickled by reference)."""
        with self.lock:
            if self.conn is None:
                self._start()
            assert self.conn is not None
            try:
                if prepare is not None:
                    self.conn.send(prepare)
                    if not self.conn.poll(STARTUP_LIMIT):
                        self.stop()
                        return "died", f"the solver process did not start within {STARTUP_LIMIT:.0f} s"
                    self.conn.recv()
                sent = time.monotonic()
                self.conn.send((fn, args))
                if not self.conn.poll(limit):
                    self.stop()
                    return "timeout", time.monotonic() - sent
                return "done", self.conn.recv()
            except (EOFError, OSError):
                return "died", self._reap()

    def _start(self) -> None:
        ours, theirs = Pipe(duplex=True)
        fd = theirs.fileno()
        # Dask starts its workers with MALLOC_TRIM_THRESHOLD_ low, so that they hand memory back often; an
        # engine allocating and freeing all the time would pay system calls for it: the solver keeps the
        # default, as the local pool's workers do.
        env = {k: v for k, v in os.environ.items() if k != "MALLOC_TRIM_THRESHOLD_"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "nonocp.batch.solver_process", str(fd), str(os.getpid())],
            pass_fds=(fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env,
        )
        theirs.close()
        self.conn = ours
        # The worker's import path: an engine registered from a module of the caller's imports here too.
        ours.send(list(sys.path))

    def _reap(self) -> str:
        process, self.process = self.process, None
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if process is None:
            return "the solver process is gone"
        code = process.wait()
        if code < 0:
            try:
                how = signal.Signals(-code).name
            except ValueError:
                how = f"signal {-code}"
        else:
            how = f"exit code {code}"
        return f"the solver process died ({how})"

    def stop(self) -> None:
        """Kill the process (if any) and wait for it."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
        self._reap()


def _serve(conn: Connection) -> None:
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(fn(*args))


def _die_with(parent: int) -> None:
    """Have the kernel kill this process when the thread that started it ends (the worker died or closed)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return  # not Linux: the process still ends when its pipe closes, after its current solve
    if os.getppid() != parent:  # the worker died before prctl took effect
        os._exit(1)


def main(argv: list[str]) -> None:
    fd, parent = int(argv[1]), int(argv[2])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's to handle (it stops the batch)
    _die_with(parent)
    conn = Connection(fd)
    sys.path[:] = conn.recv()
    _serve(conn)


if __name__ == "__main__":
    main(sys.argv)
