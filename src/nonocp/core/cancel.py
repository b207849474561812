"""Cancel: stop a search from another thread (a button, a server's request that went away, a second answer).

    stop = nonocp.Cancel()
    threading.Timer(2.0, stop.cancel).start()
    result = nonocp.solve(puzzle, cancel=stop)   # returns within a fraction of a second of stop.cancel()

The engines watch it in the way each can be stopped: the native engine's core reads a deadline that
`cancel()` moves to the past (the compiled core lets other threads run now and then for this); engines that
search in a child process wait in select() on `fileno()`, which becomes readable, and kill the child.
A cancelled search answers like one the time limit ended (`status` timeout, or multiple with the solutions
found so far) and says `stop == "cancelled"`.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable


class Cancel:
    """A flag that stops the searches it is given to, set from any thread by `cancel()`. Once set it stays
    set: use a new one per search you may want to stop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cancelled = False
        self._hooks: list[Callable[[], None]] = []
        self._pipe: tuple[int, int] | None = None
        # the pipe's descriptors are closed with the object, whoever drops it last
        self._closer: weakref.finalize | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        """Stop every search watching this flag (they return within a fraction of a second)."""
        with self._lock:
            if self._cancelled:
                return
            self._cancelled = True
            hooks, self._hooks = self._hooks, []
            if self._pipe is not None:
                os.write(self._pipe[1], b"x")
        for hook in hooks:
            hook()

    def on_cancel(self, hook: Callable[[], None]) -> Callable[[], None]:
        """Call `hook()` (from the cancelling thread) when cancelled, at once if it is already. Returns a
        function that unregisters it (call it when the search it stops has ended)."""
        with self._lock:
            if not self._cancelled:
                self._hooks.append(hook)

                def forget() -> None:
                    with self._lock:
                        if hook in self._hooks:
                            self._hooks.remove(hook)

                return forget
        hook()
        return lambda: None

    def fileno(self) -> int:
        """A descriptor that select() sees readable once cancelled (for code that waits on descriptors)."""
        with self._lock:
            if self._pipe is None:
                read_fd, write_fd = os.pipe()
                self._pipe = (read_fd, write_fd)
                self._closer = weakref.finalize(self, _close, read_fd, write_fd)
                if self._cancelled:
                    os.write(write_fd, b"x")
            return self._pipe[0]

    def __repr__(self) -> str:
        return f"Cancel({'cancelled' if self._cancelled else 'not cancelled'})"


def _close(*fds: int) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


def check_cancel(value: object) -> Cancel | None:
    """`value` if it is a Cancel (or None); TypeError saying what `cancel=` takes otherwise."""
    if value is None or isinstance(value, Cancel):
        return value
    raise TypeError(f"cancel must be a nonocp.Cancel (or None), not {type(value).__name__}")


__all__ = ["Cancel", "check_cancel"]
