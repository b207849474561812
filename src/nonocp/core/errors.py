"""The error tree. Everything nonocp raises on purpose is a NonocpError; the CLI maps them to exit codes."""

from __future__ import annotations


class NonocpError(Exception):
    """Base of every error nonocp raises deliberately (the CLI turns these into exit code 2)."""


class ParseError(NonocpError):
    """A file could not be read as a puzzle. `str()` is the one-line message `file:line: reason`."""

    def __init__(self, path: str, line: int | None, message: str, column: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.column = column
        self.message = message
        where = self.path
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


class InvalidPuzzleError(NonocpError, ValueError):
    """The puzzle is well-formed text but not a puzzle (a clue too long for its line, unknown colour, ...).
    Also a ValueError: what Python code passing bad clues expects to catch."""


class BackendUnavailable(NonocpError):
    """The requested engine is unknown or its library is not installed."""


class OutOfTime(Exception):  # noqa: N818 - what it says; not a NonocpError: it never reaches the user as one
    """The one "time is up" of nonocp: raised inside an engine or an analysis when its deadline (a wall-clock
    time limit) or its work budget passes, and turned by whoever set the limit into a `timeout` answer."""


class UnknownBackend(BackendUnavailable, ValueError):
    """No engine has that name (the message lists the engines): a ValueError for Python callers."""
