"""Solutions: a puzzle's solutions yielded as the engine finds them, stoppable at any time.

The search runs in a thread of its own with the engines' streaming (SolveOptions.on_solution, holding
none of the solutions itself: nonocp.engines.found) and hands each grid over through a small queue. When
the queue is full the search waits, so a slow reader costs no memory. Closing the stream (`close()`,
leaving a `with` block, `break` out of a for loop and dropping it) cancels the search, which then ends
within a fraction of a second: engines that search in a child process kill it.

Progress reports go through the same queue and the reader's thread calls `progress(...)`, so a callback
never runs at the same time as the loop body.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from nonocp.core.cancel import Cancel
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import SolveResult

# Grids waiting to be read: enough to smooth out a reader's pauses, few enough to hold nothing big.
BUFFER = 64
_GRID, _PROGRESS, _DONE, _ERROR = range(4)


class _Search:
    """What the search thread shares with the reader (not the Solutions object itself, so that a stream the
    reader drops is collected, and cancelled, while its thread still runs)."""

    def __init__(self) -> None:
        self.queue: queue.Queue[tuple[int, Any]] = queue.Queue(BUFFER)
        self.cancel = Cancel()

    def put(self, kind: int, value: Any) -> None:
        """Hand `value` to the reader, waiting while the queue is full. Once the stream is cancelled nobody
        waits for grids: they are dropped, and the end of the search (_DONE, _ERROR) makes room for itself."""
        final = kind in (_DONE, _ERROR)
        if not final and self.cancel.cancelled:
            return  # nobody reads it: the search hears of the cancel at its next check, within milliseconds
        while True:
            try:
                self.queue.put((kind, value), timeout=0.05)
                return
            except queue.Full:
                if not self.cancel.cancelled:
                    continue
                if not final:
                    return
                try:
                    self.queue.get_nowait()
                except queue.Empty:
                    pass

    def offer(self, kind: int, value: Any) -> None:
        """Hand `value` over only if there is room now (a progress report is not worth waiting for)."""
        try:
            self.queue.put_nowait((kind, value))
        except queue.Full:
            pass


class Solutions:
    """An iterator over a puzzle's solutions as they are found (see nonocp.solutions). After the loop,
    `result` is the search's SolveResult (its `found`, `exhausted`, `stop`; it holds no solutions)."""

    def __init__(self, puzzle: Puzzle, run: Callable[..., SolveResult],
                 progress: Callable[[dict[str, Any]], None] | None, cancel: Cancel | None) -> None:
        self.puzzle = puzzle
        self.result: SolveResult | None = None
        self._run = run
        self._progress = progress
        self._search = _Search()
        self._thread: threading.Thread | None = None
        self._done = False
        if cancel is not None:  # the caller's Cancel stops this stream too
            cancel.on_cancel(self._search.cancel.cancel)

    def __iter__(self) -> Iterator[Grid]:
        return self

    def __next__(self) -> Grid:
        if self._done:
            raise StopIteration
        if self._thread is None:
            self._start()
        search = self._search
        while True:
            kind, value = search.queue.get()
            if kind == _GRID:
                return value.with_palette(self.puzzle.palette)
            if kind == _PROGRESS:
                if self._progress is not None:
                    self._progress(value)
                continue
            self._finish()
            if kind == _ERROR:
                raise value
            self.result = value
            raise StopIteration

    def _start(self) -> None:
        # the thread holds these, never `self`: a stream its reader drops is collected, and cancelled, at once
        search, run, wants_progress, started = self._search, self._run, self._progress is not None, time.monotonic()
        found = 0

        def on_solution(grid: Grid) -> None:
            nonlocal found
            found += 1
            search.put(_GRID, grid)

        def progress(info: dict[str, Any]) -> None:
            search.offer(_PROGRESS, {**info, "solutions": found, "seconds": round(time.monotonic() - started, 3)})

        def main() -> None:
            try:
                result = run(on_solution=on_solution, keep=0, cancel=search.cancel,
                             progress=progress if wants_progress else None)
            except BaseException as e:  # noqa: BLE001 - the reader raises it
                search.put(_ERROR, e)
            else:
                search.put(_DONE, result)

        self._thread = threading.Thread(target=main, name="nonocp.solutions", daemon=True)
        self._thread.start()

    def _finish(self) -> None:
        self._done = True
        if self._thread is not None:
            self._thread.join()

    def close(self) -> None:
        """Stop the search (if it still runs) and wait for it to end; `result` then says how it ended."""
        if self._done:
            return
        search = self._search
        search.cancel.cancel()
        if self._thread is not None:
            # what is queued is dropped (which also frees a search waiting for room); the search stops within
            # milliseconds and its end is always queued
            while self._thread.is_alive():
                self._drain()
                self._thread.join(0.01)
            self._drain()
        self._done = True

    def _drain(self) -> None:
        """Drop what is queued, keeping the search's result."""
        while True:
            try:
                kind, value = self._search.queue.get_nowait()
            except queue.Empty:
                return
            if kind == _DONE:
                self.result = value

    def __enter__(self) -> Solutions:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        # a stream dropped unfinished: stop its search (without waiting for it here)
        search = getattr(self, "_search", None)
        if search is not None and not self._done:
            search.cancel.cancel()

    def __repr__(self) -> str:
        state = "not started" if self._thread is None else "finished" if self._done else "running"
        title = self.puzzle.title or "untitled"
        return f"<Solutions of {title!r} ({self.puzzle.width}x{self.puzzle.height}), {state}>"


__all__ = ["BUFFER", "Solutions"]
