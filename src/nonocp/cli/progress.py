"""Progress on standard error while a command works: one line, redrawn in place.

    with Progress(enabled) as progress:
        progress.say("solving faase.non (80x95) with auto")
        ... long work; progress.detail("3 solutions") as it goes ...

The line shows only on a terminal (standard error a tty, TERM not `dumb`), only once the work has taken
DELAY seconds (a quick command prints nothing more than before), and never with `--no-progress`. It is
erased before anything else is written to the terminal (the command's own output and messages go through
`sys.stdout`/`sys.stderr`, which the context wraps) and when the work ends, so what stays on the screen is
exactly what the command prints without it. A thread redraws it every INTERVAL seconds with the time spent.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, TextIO

from nonocp.cli.common import terminal_width

DELAY = 1.0  # seconds of work before the line shows
INTERVAL = 0.25  # seconds between redraws
ERASE = "\r\x1b[K"


def on_terminal(stream: Any) -> bool:
    """Whether `stream` is a terminal that takes `\\r` and erase-line (not TERM=dumb)."""
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class _Guarded:
    """A text stream that erases the progress line before each write (the line is redrawn later, below)."""

    def __init__(self, stream: TextIO, progress: Progress) -> None:
        self._stream = stream
        self._progress = progress

    def write(self, text: str) -> int:
        with self._progress.lock:
            self._progress.erase()
            return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class Progress:
    """See the module docstring. Thread-safe: `say` and `detail` may be called from any thread (an engine's
    progress callback runs in the search's)."""

    def __init__(self, enabled: bool = True, stream: TextIO | None = None) -> None:
        self.out = sys.stderr if stream is None else stream
        self.on = enabled and on_terminal(self.out)
        self.lock = threading.RLock()
        self.text = ""
        self.extra = ""
        self.shown = False
        self.started = time.monotonic()
        self._since = self.started
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._saved: tuple[Any, Any] | None = None

    def say(self, text: str) -> None:
        """What the work is doing now (its seconds count from here)."""
        with self.lock:
            self.text = text
            self.extra = ""
            self._since = time.monotonic()

    def detail(self, text: str) -> None:
        """A detail after the text (`12 solutions`), replaced by the next one."""
        self.extra = text

    def engine_report(self, info: dict[str, Any]) -> None:
        """An engine's progress callback (SolveOptions.progress): solutions and conflicts so far."""
        parts = []
        if info.get("solutions"):
            parts.append(f"{info['solutions']:,} solutions")
        if info.get("conflicts"):
            parts.append(f"{info['conflicts']:,} conflicts")
        self.extra = ", ".join(parts)

    def erase(self) -> None:
        """Take the line off the screen (the caller holds `lock`)."""
        if self.shown:
            self.out.write(ERASE)
            self.out.flush()
            self.shown = False

    def _draw(self) -> None:
        with self.lock:
            if not self.text:
                return
            seconds = round(time.monotonic() - self._since)
            line = f"nonocp: {self.text}" + (f", {self.extra}" if self.extra else "") + f" ({seconds} s)"
            width = terminal_width(self.out) - 1
            if len(line) > width:
                line = line[: max(0, width - 3)] + "..."
            self.out.write(ERASE + line)
            self.out.flush()
            self.shown = True

    def _run(self) -> None:
        if self._stop.wait(DELAY):
            return
        while not self._stop.is_set():
            self._draw()
            self._stop.wait(INTERVAL)

    def __enter__(self) -> Progress:
        if self.on:
            self._saved = (sys.stdout, sys.stderr)
            if on_terminal(sys.stdout):
                sys.stdout = _Guarded(sys.stdout, self)  # type: ignore[assignment]
            sys.stderr = _Guarded(sys.stderr, self)  # type: ignore[assignment]
            self._thread = threading.Thread(target=self._run, name="nonocp.progress", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
            with self.lock:
                self.erase()
        if self._saved is not None:
            sys.stdout, sys.stderr = self._saved
            self._saved = None

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["DELAY", "Progress", "on_terminal"]
