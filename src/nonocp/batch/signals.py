"""SIGTERM (and SIGHUP) stop a batch the way Ctrl-C does: finished rows kept, every process it started ended.

Without this, SIGTERM kills the parent at once and leaves its forkserver, resource tracker, workers and
their solver children running (a worker busy in a solve without a time limit runs for ever). With it, the
signal becomes a KeyboardInterrupt in the main thread, so the one interrupt path runs: the pool kills its
workers (whose solver children die with them), a local Dask cluster is closed, the reports are written.
Signals that arrive while that cleanup runs are ignored: a second Ctrl-C must not cut it short.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, the first SIGINT/SIGTERM/SIGHUP raises KeyboardInterrupt; later ones are ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread can have signal handlers; the caller's own handling stays
        return
    fired = False

    def handler(signum: int, frame: Any) -> None:
        nonlocal fired
        if fired:
            return
        fired = True
        raise KeyboardInterrupt

    previous = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    for s in STOP_SIGNALS:
        signal.signal(s, handler)
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old if old is not None else signal.SIG_DFL)
