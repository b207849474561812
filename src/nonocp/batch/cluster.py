"""`--cluster ADDRESS`: running a batch's solves on a Dask distributed cluster instead of the local pool.

    with Cluster.connect("tcp://host:8786") as cluster:      # or "local:4": four local worker processes
        outcome = run_batch(entries, engines, options, runner=cluster.runner())

Only this module imports Dask (nonocp.batch.pool is the default and never does). The client submits a
task per puzzle and engine (several puzzles per task when they are quick), each puzzle as text; on the
worker nonocp.batch.remote solves it in a solver process with the hard time limit. The client keeps a
bounded number of tasks in flight (a 100,000-puzzle archive is not 100,000 futures at once) and hands
each result back as it completes. A worker that dies mid-puzzle is Dask's to handle: the scheduler gives
the task to another worker; a task that kills `allowed-failures` workers in a row becomes error rows.
On Ctrl-C the tasks not finished are cancelled, and a local cluster is shut down.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from nonocp.batch.remote import check_text, puzzle_text, solve_texts
from nonocp.batch.worker import Outcome, Task
from nonocp.core.errors import NonocpError
from nonocp.engines import BACKENDS

try:  # this module is imported only for --cluster; without Dask, require_dask() says what to install
    from distributed import WorkerPlugin as _PluginBase
except ImportError:
    _PluginBase = object  # type: ignore[assignment, misc]

INSTALL_HINT = "pip install 'nonocp[cluster]' (Dask distributed)"
# How long to wait for a remote scheduler to answer before giving up (the handshake included: an endpoint
# that accepts the connection and never answers as Dask does is given up on too).
CONNECT_SECONDS = 20
# `local:N` starts N worker processes (each with its solver processes): at most one per core this process
# may use (and 2 on any machine), unless this variable names another cap.
LOCAL_WORKERS_ENV = "NONOCP_LOCAL_WORKERS"
# Tasks kept in flight per worker thread: enough that no worker waits for the client's next submission.
IN_FLIGHT_PER_THREAD = 4
# Quick puzzles travel several to a task, about this many seconds of solving each (see _Chunking).
TASK_SECONDS = 1.0
MAX_CHUNK = 64


# Dask's background work, cut for the clusters started here: the statistical profiler (it samples every
# worker thread 100 times a second, and ours only wait on their solver processes), the event-loop and
# system monitors (polled every 20 and 500 ms). Together they cost a local cluster several per cent of a
# core; see benchmarks/results/cluster.md. Remote workers keep their own configuration.
QUIET_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.system-monitor.gil.enabled": False,
}


class ClusterError(NonocpError):
    """The cluster cannot be used: Dask missing, a bad address, a scheduler that does not answer."""


def require_dask() -> None:
    """Raise ClusterError with what to install when Dask distributed is not importable here."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(f"--cluster needs Dask, which is not installed here: {INSTALL_HINT}") from None


SCHEMES = ("tcp", "tls", "ws", "wss")


def parse_address(address: str) -> tuple[str, int | str]:
    """("local", N) for `local:N`, else ("remote", address) for a scheduler address [scheme://]host:port
    (host a name, an IPv4 address or a bracketed IPv6 one); ClusterError, in one line, for anything else."""
    text = address.strip()
    if text.lower().startswith("local"):
        m = re.fullmatch(r"local:(\d{1,9})", text)
        if not m:
            raise ClusterError(f"--cluster {address}: a local cluster is local:N (N worker processes), e.g. local:2")
        n = int(m.group(1))
        if n < 1:
            raise ClusterError(f"--cluster {address}: a local cluster needs at least 1 worker (local:N, N >= 1)")
        cap = local_worker_cap()
        if n > cap:
            raise ClusterError(f"--cluster {address}: at most {cap} local workers here (one per core); set "
                               f"{LOCAL_WORKERS_ENV}={n} to start {n} anyway")
        return "local", n
    return "remote", _remote_address(address, text)


def _remote_address(address: str, text: str) -> str:
    import ipaddress
    from urllib.parse import urlsplit

    usage = f"--cluster {address}: give a scheduler address (tcp://host:8786) or local:N"
    scheme, sep, _ = text.partition("://")
    if sep and scheme.lower() not in SCHEMES:
        raise ClusterError(f"--cluster {address}: unknown protocol {scheme!r} (use {', '.join(SCHEMES)})")
    try:
        parts = urlsplit(text if sep else f"tcp://{text}")
        host, port = parts.hostname, parts.port
    except ValueError:  # a bracket not closed, a port that is no number
        raise ClusterError(usage) from None
    if not host or port is None or parts.path or parts.query or parts.fragment or parts.username:
        raise ClusterError(usage)
    if not 1 <= port <= 65535:
        raise ClusterError(f"--cluster {address}: port {port} is not from 1 to 65535")
    if "[" in parts.netloc:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise ClusterError(f"--cluster {address}: {host!r} is not an IPv6 address") from None
    elif not re.fullmatch(r"[A-Za-z0-9](?:[A-Za-z0-9.\-]{0,252})", host):
        raise ClusterError(f"--cluster {address}: {host!r} is not a host name or address")
    return text


def local_worker_cap() -> int:
    """How many workers `local:N` may start: NONOCP_LOCAL_WORKERS when set, else the cores this process may
    use, at least 2 (a cluster of 1,000 local workers is a thousand processes on them)."""
    given = os.environ.get(LOCAL_WORKERS_ENV, "").strip()
    if given:
        if not given.isdigit() or int(given) < 1:
            raise ClusterError(f"{LOCAL_WORKERS_ENV}={given}: give a whole number of workers, 1 or more")
        return int(given)
    try:
        return max(2, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(2, os.cpu_count() or 1)


def _remote_client(value: str, address: str) -> Any:
    """A Client of the scheduler at `value`, or ClusterError within CONNECT_SECONDS: Dask's own timeout
    does not cover its handshake (an endpoint that accepts and stays silent holds it for ever, one that
    answers something else can make it read a gigantic length)."""
    from distributed import Client

    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = Client(value, timeout=f"{CONNECT_SECONDS}s")
        except BaseException as e:  # noqa: BLE001 - handed to the caller, which says it in one line
            box["error"] = e

    thread = threading.Thread(target=connect, name="nonocp-dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS + 5)
    if thread.is_alive():
        raise ClusterError(f"--cluster {address}: nothing there answered as a Dask scheduler within "
                           f"{CONNECT_SECONDS} s")
    error = box.get("error")
    if isinstance(error, KeyboardInterrupt):
        raise error
    if error is not None:
        if isinstance(error, OSError | TimeoutError):
            why = " ".join(str(error).split())[:200] or type(error).__name__
            raise ClusterError(f"--cluster {address}: cannot reach the Dask scheduler ({why})")
        raise ClusterError(f"--cluster {address}: it did not answer as a Dask scheduler does "
                           f"({type(error).__name__})")
    return box["client"]


def _engine_targets(engines: Iterable[str]) -> dict[str, str | None]:
    return {e: BACKENDS.get(e.partition(":")[0]) for e in engines}


class Cluster:
    """A connected Dask client (and the local cluster it started, if any)."""

    def __init__(self, client: Any, local: Any = None) -> None:
        self.client = client
        self.local = local
        self.run_id = uuid.uuid4().hex[:8]  # task keys are unique per batch on a shared scheduler
        self._threads = (0.0, 1)  # (when counted, worker threads)

    @classmethod
    @contextmanager
    def connect(cls, address: str) -> Iterator[Cluster]:
        """Connect to `address` (or start `local:N`), yield the Cluster, and always close what was opened."""
        kind, value = parse_address(address)
        require_dask()
        import dask
        from distributed import Client, LocalCluster

        local = client = None
        try:
            if kind == "local":
                with dask.config.set(QUIET_CONFIG):  # the workers take their configuration from here
                    local = LocalCluster(
                        n_workers=int(value), threads_per_worker=1, processes=True, scheduler_port=0,
                        dashboard_address=_dashboard_address(), silence_logs=logging.ERROR,
                    )
                client = Client(local)
                client.register_plugin(_QuietWorker())
            else:
                client = _remote_client(str(value), address)
            yield cls(client, local)
        finally:
            _close(client, local)

    @property
    def dashboard_link(self) -> str | None:
        """The Dask dashboard's address, when the scheduler runs one (it needs bokeh)."""
        try:
            return self.client.dashboard_link
        except (KeyError, AttributeError, OSError):
            return None

    def worker_threads(self) -> int:
        """Threads over all workers (counted at most every few seconds: workers come and go)."""
        when, count = self._threads
        if time.monotonic() - when > 5.0:
            count = max(1, sum(self.client.nthreads().values()))
            self._threads = (time.monotonic(), count)
        return count

    def submit_all(
        self,
        fn: Callable[..., Any],
        jobs: Iterable[tuple[Any, tuple[Any, ...]]],
        on_result: Callable[[Any, Any], None],
        on_failure: Callable[[Any, BaseException], None],
    ) -> None:
        """Run fn(*args) for each (tag, args) of `jobs` on the cluster; on_result(tag, value) or
        on_failure(tag, exception) in this thread as each finishes (completion order).

        At most IN_FLIGHT_PER_THREAD tasks per worker thread are in flight at a time. Any exception here
        (KeyboardInterrupt included) cancels the tasks still in flight before it propagates.
        """
        from distributed import as_completed

        pending = iter(jobs)
        in_flight: dict[str, Any] = {}  # future key -> tag
        done = as_completed(with_results=True, raise_errors=False)
        serial = 0

        def top_up() -> None:
            """Refill to IN_FLIGHT_PER_THREAD tasks per thread once half of them are done: one message to
            the scheduler per refill, not one per task (each costs the scheduler a graph update)."""
            nonlocal serial
            most = IN_FLIGHT_PER_THREAD * self.worker_threads()
            if len(in_flight) > most // 2:
                return
            batch = list(itertools.islice(pending, most - len(in_flight)))
            if not batch:
                return
            keys = [f"nonocp-{self.run_id}-{serial + i}" for i in range(len(batch))]
            serial += len(batch)
            columns = list(zip(*(args for _, args in batch), strict=True))
            for (tag, _), future in zip(batch, self.client.map(fn, *columns, key=keys, pure=False), strict=True):
                in_flight[future.key] = tag
                done.add(future)

        try:
            top_up()
            for future, value in done:
                tag = in_flight.pop(future.key)
                if future.status == "error":
                    on_failure(tag, value[1])
                else:
                    on_result(tag, value)
                future.release()
                top_up()
        except BaseException:
            futures = list(done.futures) if hasattr(done, "futures") else []
            if futures:
                try:
                    self.client.cancel(futures, force=True)
                except Exception:  # noqa: BLE001 - the client may be closing already
                    pass
            raise

    def runner(self) -> Callable[[Sequence[Task], float | None, Callable[[Task, Outcome], None]], None]:
        """A nonocp.batch Runner that solves `bench` tasks on this cluster, several puzzles per Dask task
        when they are quick (see _Chunking)."""

        def run(tasks: Sequence[Task], hard_limit: float | None, on_outcome: Callable[[Task, Outcome], None]) -> None:
            targets = _engine_targets(t.engine for t in tasks)
            chunking = _Chunking(self.worker_threads())

            def jobs() -> Iterator[tuple[Sequence[Task], tuple[Any, ...]]]:
                start = 0
                while start < len(tasks):
                    chunk = tasks[start:start + chunking.size()]
                    start += len(chunk)
                    items = [(t.task_id, puzzle_text(t.puzzle), t.engine, targets[t.engine], t.options) for t in chunk]
                    yield chunk, (items, hard_limit)

            def done(chunk: Sequence[Task], outcomes: list[Outcome]) -> None:
                for task, outcome in zip(chunk, outcomes, strict=True):
                    chunking.add(outcome.seconds)
                    on_outcome(task, outcome)

            def failed(chunk: Sequence[Task], exc: BaseException) -> None:
                for task in chunk:
                    on_outcome(task, Outcome(task.task_id, "error", 0, 0.0, {}, _failure_text(exc)))

            self.submit_all(solve_texts, jobs(), done, failed)

        return run

    def check(
        self,
        puzzles: Sequence[Any],
        engines: Sequence[str],
        options: Any,
        hard_limit: float | None,
        on_run: Callable[[int, Any], None],
    ) -> None:
        """Run every engine on every puzzle (`check`); on_run(puzzle index, EngineRun) as each finishes."""
        from nonocp.analysis.crosscheck import CRASHED, EngineRun

        targets = _engine_targets(engines)

        def jobs() -> Iterator[tuple[tuple[int, str], tuple[Any, ...]]]:
            for i, puzzle in enumerate(puzzles):
                text = puzzle_text(puzzle)
                for e in engines:
                    yield (i, e), (text, e, targets[e], options, hard_limit)

        def failed(tag: tuple[int, str], exc: BaseException) -> None:
            on_run(tag[0], EngineRun(tag[1], CRASHED, message=_failure_text(exc)))

        self.submit_all(check_text, jobs(), lambda tag, run: on_run(tag[0], run), failed)


class _Chunking:
    """How many puzzles go in one Dask task: one at first, then as many as take about TASK_SECONDS to
    solve by the running mean (at most MAX_CHUNK). Every task costs the scheduler, the client and the
    worker a few milliseconds of CPU whatever it holds (benchmarks/results/cluster.md): quick puzzles
    one per task would leave a large cluster waiting on its scheduler. A chunk's rows arrive together;
    a worker that dies mid-chunk has the whole chunk run again elsewhere (its rows were not sent yet)."""

    def __init__(self, threads: int) -> None:
        self.warm_up = 2 * threads  # rows seen before chunking starts
        self.count = 0
        self.total = 0.0

    def add(self, seconds: float | None) -> None:
        self.count += 1
        self.total += seconds or 0.0

    def size(self) -> int:
        if self.count < self.warm_up:
            return 1
        mean = max(self.total / self.count, 1e-3)
        return max(1, min(MAX_CHUNK, int(TASK_SECONDS / mean)))


def _failure_text(exc: BaseException) -> str:
    """A task that failed on the cluster side (not in the engine): most often KilledWorker."""
    name = type(exc).__name__
    if name == "KilledWorker":
        return "the workers running this puzzle died each time it was tried (Dask KilledWorker)"
    text = " ".join(str(exc).split())
    return f"{name}: {text}" if text else name


def _dashboard_address() -> str | None:
    """Any free port for a local cluster's dashboard, or none when bokeh (which serves it) is missing."""
    try:
        import bokeh  # noqa: F401
    except ImportError:
        return None
    return "127.0.0.1:0"


def _close(client: Any, local: Any) -> None:
    for thing in (client, local):
        if thing is not None:
            try:
                thing.close()
            except Exception:  # noqa: BLE001 - closing after an interrupt: nothing more to do about it
                pass


class _QuietWorker(_PluginBase):  # type: ignore[misc, valid-type]
    """In a local cluster's workers: Ctrl-C reaches the terminal's whole process group, and it is the
    client's job to stop the batch (it closes the cluster); a worker must not die of it on its own."""

    name = "nonocp-quiet-worker"

    def setup(self, worker: Any) -> None:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
