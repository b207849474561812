"""Worker processes for the server: every job runs in a process of its own, killed if it overruns.

Why a process per job: some engines cannot be interrupted from Python (CaDiCaL and Kissat in pysat), and
a hostile puzzle can keep any engine busy; a process can always be killed, so each job's time limit is a
hard one, and the server's own process only parses, routes and waits. Workers are forks of a fork server
(multiprocessing's "forkserver", never a plain fork of the server, which has threads) that imported the
engines once, so a job starts in milliseconds and no state survives from one request to the next.

Two lanes, each with its own slots: `solve` (engines: solves, backbones, ratings, steps, image imports) and
`read` (reading a request: parsing, checking and sizing its puzzle, validating, exporting), so that a
request is read in a worker too and the server's event loop only moves bytes, and reading a request never
waits behind a long solve. In each lane at most `running` jobs run at once and `waiting` more may queue;
past that a request is refused at once (Busy, 429) instead of piling up (`has_room` lets the caller refuse
before it reads the body). A job given a `channel` (say, one browser tab's
design check) kills the job still running or waiting on that channel: only the newest request of a
channel matters, and the one it replaces is answered Superseded (409). A request whose client goes away
is cancelled by the caller (the awaiting task), and the process is killed on the way out.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing as mp
import os
import signal
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nonocp.core.errors import NonocpError
from nonocp.web.codec import ApiError
from nonocp.web.config import Limits

SOLVE = "solve"
READ = "read"
# Workers run this much nicer than the server: however many solves and reads are running, the process
# that answers every request (and refuses the ones there is no room for) is scheduled first.
WORKER_NICENESS = 10


class JobRefused(Exception):
    """A job that did not run or did not finish for a reason the client should hear (a 4xx answer)."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Busy(JobRefused):
    status = 429


class Superseded(JobRefused):
    status = 409


class Stopping(JobRefused):
    status = 503


class TooBig(JobRefused):
    status = 422


class JobFailed(Exception):
    """The job raised something that is not the client's fault, or its process died (a 500 answer)."""


@dataclass(frozen=True)
class Outcome:
    finished: bool  # False: still running at its limit, and killed
    value: Any
    seconds: float


def _die_with_parent() -> None:
    """Have the kernel kill this worker when its parent (the fork server) goes, which it does when the
    server exits: no solver outlives the server, however the server ended."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class _OutOfCpu(Exception):
    pass


def _out_of_cpu(signum: int, frame: Any) -> None:
    raise _OutOfCpu


def _child_main(conn: Any, fn: Callable[..., Any], args: tuple, memory: int | None = None,
                cpu: int | None = None) -> None:
    """The worker: run fn(*args) and send back ("ok", value), ("api", (status, message)), ("bad", message),
    ("big", message) or ("error", message). `memory`: bytes of address space; `cpu`: CPU seconds, after
    which the job is refused (SIGXCPU; the kernel kills it a second later if it is inside C code)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's: it stops and kills us
    _die_with_parent()
    with contextlib.suppress(OSError):  # the server's own loop goes first when the cores are busy
        os.nice(WORKER_NICENESS)
    try:
        import resource

        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if cpu is not None:
            spent = resource.getrusage(resource.RUSAGE_SELF)
            used = int(spent.ru_utime + spent.ru_stime) + 1
            signal.signal(signal.SIGXCPU, _out_of_cpu)
            resource.setrlimit(resource.RLIMIT_CPU, (used + cpu, used + cpu + 1))
    except (ImportError, ValueError, OSError, AttributeError):
        pass  # no limit to be had here: the grid limits still bound what a request can ask
    try:
        reply: tuple = ("ok", fn(*args))
    except ApiError as e:  # a request read here and refused, with its HTTP status
        reply = ("api", (e.status, e.message))
    except _OutOfCpu:
        reply = ("api", (413, f"reading the request took more than its {cpu} s of CPU time; send a smaller one"))
    except NonocpError as e:  # the puzzle or the options were wrong: the client's to fix
        reply = ("bad", str(e))
    except MemoryError:
        gib = f"{memory / 1024**3:g} GiB" if memory else "the memory it has"
        reply = ("big", f"the solve needed more memory than a worker may use ({gib})")
    except BaseException as e:  # noqa: BLE001 - everything goes back to the server, which logs it
        reply = ("error", f"{type(e).__name__}: {e}\n{traceback.format_exc()}")
    try:
        conn.send(reply)
    finally:
        conn.close()


@dataclass
class _Lane:
    """Slots of one lane: `running` jobs at once, `waiting` more queued."""

    running: int
    waiting: int
    slots: asyncio.Semaphore | None = None
    pending: int = 0  # jobs waiting or running

    @property
    def capacity(self) -> int:
        return self.running + self.waiting


def _receive(conn: Any) -> tuple:
    """The worker's answer (in a thread: it may be megabytes). uvloop's add_reader leaves the descriptor
    non-blocking, and Connection.recv needs it blocking."""
    os.set_blocking(conn.fileno(), True)
    return conn.recv() if conn.poll() else ("died", None)


# The fork server listens on a Unix socket in multiprocessing's temporary folder, and a socket's path holds at
# most 107 bytes: the folder name and the socket's take about 40 of them.
SOCKET_FOLDER_ROOM = 60


def _short_socket_folder() -> None:
    """With a long TMPDIR, put multiprocessing's temporary folder (made once per process, removed at exit)
    under /tmp, so the fork server can listen; everything else still goes to TMPDIR."""
    if len(tempfile.gettempdir()) <= SOCKET_FOLDER_ROOM or not os.access("/tmp", os.W_OK):
        return
    from multiprocessing import util

    saved = tempfile.tempdir
    tempfile.tempdir = "/tmp"
    try:
        util.get_temp_dir()
    finally:
        tempfile.tempdir = saved


class Workers:
    """Runs named jobs (nonocp.web.jobs.JOBS, or replacements) in worker processes; see the module doc."""

    def __init__(self, limits: Limits, jobs: dict[str, Callable[..., Any]], preload: list[str]) -> None:
        self.limits = limits
        self.jobs = jobs
        self.ctx = mp.get_context("forkserver")
        _short_socket_folder()
        self.ctx.set_forkserver_preload(preload)
        self._lanes = {SOLVE: _Lane(limits.max_running, limits.max_waiting),
                       READ: _Lane(limits.max_reading, limits.max_reading_waiting)}
        self._procs: set[Any] = set()
        # channel -> (arrival, cancel signal) of its newest job; arrival: when its request came in (a request
        # is read before its channel is known, and a later one may be read sooner)
        self._channels: dict[str, tuple[int, asyncio.Event]] = {}
        self._arrivals = 0
        self._cancels: set[asyncio.Event] = set()  # every job's cancel signal, for stop_soon()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False
        self.started = 0  # worker processes started (for /api/info and the tests)

    @property
    def running(self) -> int:
        return len(self._procs)

    @property
    def _pending(self) -> int:
        return self._lanes[SOLVE].pending

    def has_room(self, lane: str = SOLVE) -> bool:
        """Whether a new job in `lane` would be taken now (a request refused anyway is not read first)."""
        return not self.stopping and self._lanes[lane].pending < self._lanes[lane].capacity

    def warm(self) -> None:
        """Start the fork server and one worker, and wait for it (blocking: call it from a thread)."""
        conn_r, conn_w = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=_child_main, args=(conn_w, self.jobs["warm"], ()), daemon=True)
        proc.start()
        conn_w.close()
        proc.join(600)
        conn_r.close()

    def arrival(self) -> int:
        """A number for a request that has just come in: on a channel, the latest arrival wins."""
        self._arrivals += 1
        return self._arrivals

    async def run(self, name: str, args: tuple, time_limit: float, channel: str | None = None,
                  lane: str = SOLVE, arrival: int | None = None, cpu: int | None = None) -> Outcome:
        """Run job `name` with `args` in `lane`; Outcome(finished=False) when it was still running
        `time_limit` + kill_grace seconds after it started (it is killed). `cpu`: CPU seconds the job may
        use (work a request costs, whatever the load; past them it is refused, 413). Raises Busy,
        Superseded, JobRefused (the job said the input was bad), ApiError (a request read and refused) or
        JobFailed."""
        slots = self._lanes[lane]
        if slots.slots is None:
            slots.slots = asyncio.Semaphore(slots.running)
        self._loop = asyncio.get_running_loop()
        if self.stopping:
            raise Stopping("the server is stopping")
        cancel = asyncio.Event()
        self._cancels.add(cancel)
        replaced = None
        if channel is not None:
            arrival = self.arrival() if arrival is None else arrival
            newest = self._channels.get(channel)
            if newest is not None and newest[0] > arrival:
                self._cancels.discard(cancel)
                raise self._why_cancelled()  # a later request on this channel is already here
            if newest is not None:
                replaced = newest[1]
                replaced.set()
            self._channels[channel] = (arrival, cancel)
        try:
            if slots.pending - (1 if replaced is not None else 0) >= slots.capacity:
                raise Busy(f"the server is busy ({slots.pending} jobs running or waiting); try again in a moment")
            slots.pending += 1
            try:
                await self._acquire(slots.slots, cancel)
                try:
                    return await self._run_process(self.jobs[name], args, time_limit, cancel, cpu)
                finally:
                    slots.slots.release()
            finally:
                slots.pending -= 1
        finally:
            self._cancels.discard(cancel)
            if channel is not None and self._channels.get(channel, (0, None))[1] is cancel:
                del self._channels[channel]

    async def _acquire(self, slots: asyncio.Semaphore, cancel: asyncio.Event) -> None:
        """Take a slot, unless the channel's cancel signal comes first (Superseded, holding no slot)."""
        acquire = asyncio.ensure_future(slots.acquire())
        stop = asyncio.ensure_future(cancel.wait())
        try:
            await asyncio.wait({acquire, stop}, return_when=asyncio.FIRST_COMPLETED)
            if cancel.is_set():
                raise self._why_cancelled()
        except BaseException:
            if acquire.done() and not acquire.cancelled():
                slots.release()
            acquire.cancel()
            raise
        finally:
            stop.cancel()

    async def _run_process(
        self, fn: Callable[..., Any], args: tuple, time_limit: float, cancel: asyncio.Event, cpu: int | None = None
    ) -> Outcome:
        conn_r, conn_w = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=_child_main, args=(conn_w, fn, args, self.limits.worker_memory, cpu),
                                daemon=True)
        start = time.monotonic()
        # start() asks the fork server for a fork and sends it the arguments (a request's body: up to
        # megabytes): in a thread, so that the event loop goes on moving bytes meanwhile
        starting = asyncio.ensure_future(asyncio.to_thread(proc.start))
        try:
            await asyncio.shield(starting)
            self._procs.add(proc)
            self.started += 1
            conn_w.close()
            ready = await self._wait(conn_r, proc, time_limit + self.limits.kill_grace, cancel)
            seconds = time.monotonic() - start
            if cancel.is_set():
                raise self._why_cancelled()
            if not ready:
                return Outcome(False, None, seconds)
            try:
                kind, value = await asyncio.to_thread(_receive, conn_r)  # an answer may be megabytes
            except EOFError:  # the pipe closed: the worker ended without a word
                kind, value = "died", None
            if kind == "died":
                proc.join(1)
                raise JobFailed(f"the worker process died without answering (exit code {proc.exitcode})")
            if kind == "api":
                raise ApiError(*value)
            if kind == "bad":
                raise JobRefused(value)
            if kind == "big":
                raise TooBig(value)
            if kind == "error":
                raise JobFailed(value)
            return Outcome(True, value, seconds)
        finally:
            if not starting.done():  # cancelled while the process was being started: it can be killed once it is
                with contextlib.suppress(BaseException):
                    await starting
            try:
                if proc.pid is not None:
                    if proc.is_alive():
                        proc.kill()
                    # a worker runs at nice 10: on a busy machine it may take many milliseconds to end (after
                    # its answer, or killed); the loop does not wait for it meanwhile
                    await asyncio.shield(asyncio.to_thread(proc.join, 5))
            finally:
                self._procs.discard(proc)
                conn_r.close()
                if not conn_w.closed:
                    conn_w.close()

    @staticmethod
    async def _wait(conn: Any, proc: Any, timeout: float, cancel: asyncio.Event) -> bool:
        """True when the worker answered or ended; False at the timeout or when cancelled."""
        loop = asyncio.get_running_loop()
        ready = asyncio.Event()
        fds = [conn.fileno(), proc.sentinel]
        for fd in fds:
            loop.add_reader(fd, ready.set)
        done_wait = asyncio.ensure_future(ready.wait())
        stop = asyncio.ensure_future(cancel.wait())
        try:
            await asyncio.wait({done_wait, stop}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            done_wait.cancel()
            stop.cancel()
            for fd in fds:
                loop.remove_reader(fd)
        return ready.is_set() and not cancel.is_set()

    def _why_cancelled(self) -> JobRefused:
        if self.stopping:
            return Stopping("the server is stopping")
        return Superseded("replaced by a newer request on the same channel")

    def stop_soon(self) -> None:
        """From a signal handler or another thread: refuse new jobs and cancel every running or waiting
        one (their workers are killed, their requests answered 503), so that the server stops at once."""
        self.stopping = True
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._cancel_all)

    def _cancel_all(self) -> None:
        for cancel in list(self._cancels):
            cancel.set()

    def close(self) -> None:
        """Kill every worker still running (the server is stopping)."""
        for proc in list(self._procs):
            if proc.is_alive():
                proc.kill()
            proc.join(5)
        self._procs.clear()
