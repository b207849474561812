"""What every subcommand shares: exit codes, error reporting, reading puzzle files."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NoReturn, TypeVar

import typer

from nonocp.errors import NonocpError

# Exit codes (DESIGN.md: a contract that scripts rely on)
EXIT_SOLVED = 0
EXIT_NO_SOLUTION = 1
EXIT_BAD_INPUT = 2
EXIT_TIMEOUT = 3
EXIT_DISAGREE = 4
EXIT_INTERRUPTED = 130

T = TypeVar("T")


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print one line to stderr and exit. Never a traceback."""
    first = " ".join(str(message).split("\n")[0].split())  # one line, whatever the message held
    print(f"nonocp: {first}", file=sys.stderr)
    raise typer.Exit(code)


@contextmanager
def guarded() -> Iterator[None]:
    """Turn nonocp's errors (and the usual OS errors on user files) into a one-line message and exit 2."""
    try:
        yield
    except typer.Exit:
        raise
    except NonocpError as e:
        fail(str(e))
    except (OSError, UnicodeError) as e:
        name = getattr(e, "filename", None)
        reason = getattr(e, "strerror", None) or str(e)
        fail(f"{name}: {reason}" if name else reason)
    except RecursionError:
        fail("input is nested too deeply")
    except MemoryError:
        fail("input is too large to hold in memory")
    except KeyboardInterrupt:
        print("nonocp: interrupted", file=sys.stderr)
        raise typer.Exit(EXIT_INTERRUPTED) from None


def load_puzzles(path: str, fmt: str | None = None):
    """Every puzzle in `path` (a bundle may hold many), validated. Raises NonocpError on bad input."""
    from nonocp.errors import InvalidPuzzleError
    from nonocp.formats import load

    puzzles = load(path, fmt)
    for i, p in enumerate(puzzles, 1):
        try:
            p.validate()
        except InvalidPuzzleError as e:
            where = f"{path} (puzzle {i})" if len(puzzles) > 1 else path
            raise InvalidPuzzleError(f"{where}: {e}") from None
    return puzzles


def call_guarded(fn: Callable[[], T]) -> T:
    with guarded():
        return fn()
