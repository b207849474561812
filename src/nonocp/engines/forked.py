"""Run a function in a forked child process that is killed if it is still running at a deadline.

This is the engines' one signal story. A solver library that runs in this process cannot be stopped
cleanly: CaDiCaL in pysat aborts the process on SIGINT ("invalid API usage"), Glucose raises its own
error, CP-SAT catches SIGINT itself and answers as if its time limit had run out. So the sat and cpsat
engines always search in a child (`isolated`), with or without a time limit: the child ignores Ctrl-C
and sits in a process group of its own, the caller waits in select() where Ctrl-C raises
KeyboardInterrupt, kills the child and re-raises, and the command exits 130 ("interrupted"). The native
engine is Python and stops at the next bytecode. A caller killed outright (SIGKILL, SIGTERM) takes its
children with it (PR_SET_PDEATHSIG).

Why a time limit needs the child too: some solvers cannot be stopped from inside the process. CaDiCaL's
pysat binding has no working interrupt() or prop_budget() (both raise NotImplementedError in pysat
1.9.dev24), so the sat engine stops it between slices of conflicts, and one slice can run far past the time
limit on a loaded machine (seconds late). Kissat and Lingeling cannot be stopped at all. A child process
can always be killed, so the time limit becomes a hard one.

The child is a plain os.fork() of the caller: nothing is pickled on the way in (the puzzle, the options
and any monkeypatching are simply there), and the child starts in about a millisecond. Only what the
function returns and the messages it sends come back, pickled through a pipe, as they happen, so the
caller keeps what was found before a kill. The child runs in a process group of its own and ignores
Ctrl-C; the caller gets KeyboardInterrupt, kills the child and re-raises. A child that dies (a solver
aborting the process, the kernel's OOM killer) becomes a NonocpError instead of taking the caller down.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import time
import traceback
from collections.abc import Callable
from typing import Any

from nonocp.core.cancel import Cancel
from nonocp.core.errors import NonocpError
from nonocp.engines.memory import ENV, OverBudget, gib, limit_this_process

_HEADER = struct.Struct("!Q")  # the length of each pickled frame
# How long after its deadline an engine's child is killed when it has not stopped itself (a CaDiCaL slice cut
# to end at the deadline can overrun it; Kissat cannot be stopped at all): benchmarks/results/time-limits.md.
HARD_STOP_GRACE = 0.5
TICK = 0.5  # seconds between a race's on_tick calls
# Signals a caller may turn into KeyboardInterrupt (Ctrl-C; SIGTERM and SIGHUP in `solve`, `check`, `bench`)
_STOP_SIGNALS = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)}


def cpu_seconds_of(pid: int) -> float | None:
    """The CPU seconds (user + system) process `pid` has used so far, from /proc; None where that cannot be
    read (not Linux, or the process is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rpartition(")")[2].split()
    except OSError:
        return None
    # after the command's name: state is field 3, utime and stime are fields 14 and 15 (proc(5))
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def fork_available() -> bool:
    return hasattr(os, "fork")


def isolated(options: Any) -> bool:
    """True when an engine should search in a child (see the module docstring): fork is there and the
    caller did not ask to stay in process (`extra={"hard_stop": False}`, for benchmarks that measure the
    in-process stop)."""
    return fork_available() and bool(options.extra.get("hard_stop", True))


class ChildCrashed(NonocpError):
    """The child process ended without answering (killed by a signal, aborted, or out of memory)."""


class ChildFailed(RuntimeError):
    """The function raised an exception in the child that cannot be re-raised as itself (the message
    carries the child's traceback)."""


def call_in_child(
    fn: Callable[[Callable[[Any], None]], Any],
    kill_at: float | None,
    on_message: Callable[[Any], None] | None = None,
    memory: int | None = None,
    cancel: Cancel | None = None,
    on_tick: Callable[[], None] | None = None,
) -> tuple[bool, Any]:
    """Run `fn(send)` in a forked child; (True, what fn returned), or (False, None) if the child was still
    running at `kill_at` (a time.monotonic() value; None waits for ever) and was killed.

    Every `send(obj)` in the child reaches `on_message(obj)` here, in order, before the result. An exception
    raised by fn is raised here: the same exception when it survives pickling, else ChildFailed (or a
    NonocpError with the same message, for nonocp's own errors). `memory`: the bytes the child may add
    to what it inherits (engines.memory.limit_this_process); past them it fails as out of memory.
    `cancel` and `on_tick`: as in race_in_children.
    """
    deliver = None if on_message is None else (lambda _index, obj: on_message(obj))
    winner, value = race_in_children([fn], kill_at, deliver, memory, cancel, on_tick)
    return winner is not None, value


def race_in_children(
    fns: list[Callable[[Callable[[Any], None]], Any]],
    kill_at: float | None,
    on_message: Callable[[int, Any], bool | None] | None = None,
    memory: int | None = None,
    cancel: Cancel | None = None,
    on_tick: Callable[[], None] | None = None,
) -> tuple[int | None, Any]:
    """Run every `fn(send)` at once, each in its own forked child; (i, what fns[i] returned) for the first to
    return, the others killed. (None, None) when none has returned by `kill_at` (all are killed then), or when
    `on_message` returns True: the caller has what it needs (say, enough solutions from the members together).

    Messages arrive as `on_message(i, obj)`, in order per child. A member that raises or dies is out of the
    race; when every member is out, the first one's exception is raised (as in call_in_child).
    `memory`: each child's hard memory cap (as in call_in_child). `cancel` (a nonocp.Cancel) ends the race
    like `kill_at` the moment it is cancelled. `on_tick()` is called about every TICK seconds while the
    children run (a caller's progress report).
    """
    parent = os.getpid()
    running: dict[int, tuple[int, _Frames]] = {}  # read fd -> (member index, its frames)
    pids: dict[int, int] = {}  # member index -> pid, until reaped
    failures: dict[int, BaseException] = {}  # member index -> why it is out of the race
    try:
        for i, fn in enumerate(fns):
            read_fd, write_fd = os.pipe()
            # The stop signals are held back across the fork: a Ctrl-C (or a SIGTERM a command turns into
            # KeyboardInterrupt) landing between fork() and the bookkeeping below would leave a child the
            # cleanup does not know of (or, in the child, run the caller's code). Held, it is delivered right
            # after, with the child registered.
            mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
            try:
                try:
                    pid = os.fork()
                except OSError:  # no process to be had: the members already started are killed below
                    os.close(read_fd)
                    os.close(write_fd)
                    raise
                if pid == 0:  # the child: never returns
                    _start_child(fn, read_fd, write_fd, list(running), parent, mask, memory)
                os.close(write_fd)
                running[read_fd] = (i, _Frames(read_fd))
                pids[i] = pid
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        stop_fd = None if cancel is None else cancel.fileno()
        next_tick = time.monotonic() + TICK
        while running:
            now = time.monotonic()
            wait = None if kill_at is None else kill_at - now
            if wait is not None and wait <= 0:
                return None, None
            if on_tick is not None:
                if now >= next_tick:
                    on_tick()
                    next_tick = now + TICK
                wait = next_tick - now if wait is None else min(wait, next_tick - now)
            watched = list(running) if stop_fd is None else [*running, stop_fd]
            ready, _, _ = select.select(watched, [], [], wait)
            if stop_fd is not None and stop_fd in ready:
                return None, None
            for fd in ready:  # if none, the loop re-checks the clock
                i, frames = running[fd]
                for kind, payload in frames.read():
                    if kind == "message":
                        if on_message is not None and on_message(i, payload):
                            return None, None
                    elif kind == "done":
                        return i, payload
                    else:  # "error": this member is out (the child exits right after sending it)
                        failures[i] = payload
                        break
                if frames.closed or i in failures:
                    del running[fd]
                    os.close(fd)
                    status = _reap(pids.pop(i))
                    if memory is not None and status.startswith("signal"):
                        # solver libraries do not survive a failed allocation: at the cap they crash
                        failures.setdefault(i, OverBudget(
                            f"the solver needed more than the {gib(memory)} of memory left to it and stopped "
                            f"({status}); set {ENV} to a bigger budget to allow more"))
                    else:
                        failures.setdefault(i, ChildCrashed(f"the solver process died without answering ({status})"))
        raise failures[min(failures)]
    finally:
        for pid in pids.values():
            _kill_and_reap(pid)
        for fd in running:
            os.close(fd)


def _start_child(fn: Callable[[Callable[[Any], None]], Any], read_fd: int, write_fd: int, others: list[int],
                 parent: int, mask: set[int | signal.Signals], memory: int | None) -> None:
    """The child's side of the fork (the stop signals still blocked): never returns."""
    try:
        os.close(read_fd)
        for fd in others:  # the other members' pipes are not this child's
            os.close(fd)
        # A process group of its own: Ctrl-C in a terminal goes to the whole foreground group, and
        # pysat's solve() installs its own SIGINT handler over ours (CaDiCaL then aborts, printing
        # "fatal error: invalid API usage" before the caller's one-line message). The caller alone
        # gets Ctrl-C and kills the children.
        os.setpgid(0, 0)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for sig in _STOP_SIGNALS - {signal.SIGINT}:  # the caller's handlers (if any) are not the child's
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        _die_with(parent)
        if memory is not None:
            limit_this_process(memory)
        _child_main(fn, write_fd, memory)
    finally:
        os._exit(1)


def _child_main(fn: Callable[[Callable[[Any], None]], Any], write_fd: int, memory: int | None = None) -> None:
    code = 0
    try:
        send = lambda obj: _write_frame(write_fd, ("message", obj))  # noqa: E731
        try:
            value = fn(send)
        except MemoryError:
            cap = "" if memory is None else f" of {gib(memory)}"
            _write_frame(write_fd, ("error", OverBudget(f"the solver ran out of its memory budget{cap} ({ENV} "
                                                        "raises the budget)")))
        except BaseException as exc:  # noqa: BLE001 - everything goes back to the caller
            _write_frame(write_fd, ("error", _portable(exc)))
        else:
            _write_frame(write_fd, ("done", value))
    except BaseException:  # noqa: BLE001 - the pipe is gone: the caller stopped waiting
        code = 1
    finally:
        os._exit(code)  # no atexit handlers, no flushing of buffers copied from the caller


def _die_with(parent: int) -> None:
    """Have the kernel kill this child when the caller dies (Linux), so that a caller killed from outside
    (a `nonocp bench` worker past its hard limit gets SIGKILL) leaves no solver running on its own."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return  # not Linux: an orphan still ends at its own deadline, unless its solver cannot be stopped
    if os.getppid() != parent:  # the caller died before prctl took effect
        os._exit(1)


def _portable(exc: BaseException) -> BaseException:
    """The exception itself if it survives a pickle round trip, else one that carries its message."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any failure to pickle or rebuild
        if isinstance(exc, NonocpError):
            return NonocpError(str(exc))
        text = "".join(traceback.format_exception(exc))
        return ChildFailed(f"{type(exc).__name__}: {exc}\n{text}")


def _write_frame(fd: int, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


class _Frames:
    """Length-prefixed pickles read from a pipe as they arrive."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.closed = False

    def read(self) -> list[tuple[str, Any]]:
        chunk = os.read(self.fd, 1 << 20)
        if not chunk:
            self.closed = True
        self.buffer += chunk
        frames = []
        while len(self.buffer) >= _HEADER.size:
            (n,) = _HEADER.unpack_from(self.buffer)
            if len(self.buffer) < _HEADER.size + n:
                break
            frames.append(pickle.loads(self.buffer[_HEADER.size:_HEADER.size + n]))
            del self.buffer[:_HEADER.size + n]
        return frames


def _kill_and_reap(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _reap(pid: int) -> str:
    """Wait for a child whose pipe has closed; how it ended, in words."""
    _, status = os.waitpid(pid, 0)
    return _describe(status)


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            return f"signal {signal.Signals(sig).name}"
        except ValueError:
            return f"signal {sig}"
    return f"exit code {os.WEXITSTATUS(status)}"


__all__ = ["HARD_STOP_GRACE", "ChildCrashed", "ChildFailed", "call_in_child", "cpu_seconds_of", "fork_available",
           "isolated", "race_in_children"]
