"""A long-lived forked child that runs calls one at a time, killed and replaced when a call overruns.

What a Dask worker thread solves through (nonocp.batch.remote). Why not the alternatives:
- solving in the worker's own thread cannot be stopped at a time limit (a thread cannot be killed), and
  an engine that aborts its process would take the worker down;
- a fresh fork per puzzle (nonocp.engines.forked) costs more CPU than a small puzzle's solve, because a
  Dask worker process is large (benchmarks/results/cluster.md);
- multiprocessing cannot start children from a Dask worker (its processes are daemonic).
So the child is a plain os.fork() of the worker, which has the engines imported already, and it serves
calls over a pipe until it is killed (past a deadline) or the thread that forked it ends (Linux
PR_SET_PDEATHSIG: a worker that dies leaves no solver behind).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection, Pipe
from typing import Any


class SolverProcess:
    """One forked child per instance; `call` starts it on first use and again after a kill or a crash."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.conn: Connection | None = None
        self.lock = threading.Lock()

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...], limit: float | None) -> tuple[str, Any]:
        """("done", fn(*args) as run in the child), ("timeout", None) when it ran `limit` seconds and was
        killed, or ("died", how) when the child ended without answering. fn must be importable by name."""
        with self.lock:
            if self.conn is None:
                self._start()
            assert self.conn is not None
            try:
                self.conn.send((fn, args))
                if not self.conn.poll(limit):
                    self.stop()
                    return "timeout", None
                return "done", self.conn.recv()
            except (EOFError, OSError):
                return "died", self._reap()

    def _start(self) -> None:
        parent = os.getpid()
        ours, theirs = Pipe(duplex=True)
        pid = os.fork()
        if pid == 0:  # the child: serve until told to stop or the pipe closes; never returns
            code = 0
            try:
                ours.close()
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's to handle
                _die_with(parent)
                _serve(theirs)
            except BaseException:  # noqa: BLE001 - nothing to report to: the parent sees the pipe close
                code = 1
            finally:
                os._exit(code)
        theirs.close()
        self.pid, self.conn = pid, ours

    def _reap(self) -> str:
        pid, self.pid = self.pid, None
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if pid is None:
            return "the solver process is gone"
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            return "the solver process is gone"
        if os.WIFSIGNALED(status):
            try:
                how = signal.Signals(os.WTERMSIG(status)).name
            except ValueError:
                how = f"signal {os.WTERMSIG(status)}"
        else:
            how = f"exit code {os.WEXITSTATUS(status)}"
        return f"the solver process died ({how})"

    def stop(self) -> None:
        """Kill the child (if any) and wait for it."""
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._reap()


def _serve(conn: Connection) -> None:
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        fn, args = job
        conn.send(fn(*args))


def _die_with(parent: int) -> None:
    """Have the kernel kill this child when the thread that forked it ends (the worker died or closed)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return  # not Linux: the child still ends when its pipe closes, after its current solve
    if os.getppid() != parent:  # the worker died before prctl took effect
        os._exit(1)
