"""What every subcommand shares: exit codes, error reporting, reading puzzle files, the terminal.

Free of typer: `nonocp solve`'s work also runs when nonocp.cli.quick has read its arguments without the
framework. An exit is a SystemExit carrying the code, which typer lets through unchanged."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn, TextIO

from nonocp.core.errors import NonocpError, OutOfTime
from nonocp.core.text import one_line

# Exit codes (docs/contract.md: a contract that scripts rely on)
EXIT_SOLVED = 0
EXIT_NO_SOLUTION = 1
EXIT_BAD_INPUT = 2
EXIT_TIMEOUT = 3
EXIT_DISAGREE = 4
EXIT_INTERRUPTED = 130
EXIT_PIPE_CLOSED = 141  # 128 + SIGPIPE, as a shell reports a program that wrote to a pipe its reader closed

# What each code means, said the same way in every command's help (`exit_codes(...)`, its last line).
EXIT_MEANINGS = {
    EXIT_SOLVED: "done",
    EXIT_NO_SOLUTION: "no solution (some puzzle)",
    EXIT_BAD_INPUT: "bad input or usage",
    EXIT_TIMEOUT: "time limit before an answer",
    EXIT_DISAGREE: "engines disagree",
    EXIT_INTERRUPTED: "interrupted",
    EXIT_PIPE_CLOSED: "the output's reader went away (| head)",
}


def exit_codes(*codes: int) -> str:
    """`Exit codes: 0 done, 2 bad input or usage.`: the epilog of a command's help, the codes it may exit
    with (tests/test_cli_vocabulary.py makes each happen through the real command line)."""
    return "Exit codes: " + ", ".join(f"{code} {EXIT_MEANINGS[code]}" for code in codes) + "."


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print one line to stderr and exit. Never a traceback."""
    # one printable line, whatever the message held (messages quote file names and file contents)
    first = one_line(str(message).split("\n")[0])
    print(f"nonocp: {first}", file=sys.stderr)
    raise SystemExit(code)


@contextmanager
def guarded() -> Iterator[None]:
    """Turn nonocp's errors (and the usual OS errors on user files) into a one-line message and exit 2; a time
    limit that ran out where no answer could be given is one line too, exit 3."""
    try:
        yield
    except NonocpError as e:
        fail(str(e))
    except OutOfTime as e:
        fail(str(e) or "the time limit ran out", EXIT_TIMEOUT)
    except BrokenPipeError:
        # The reader of the output went away (`nonocp solve --all | head`): the search stopped when the write
        # failed; nothing more is written, to anyone, and the exit status is a shell's for a closed pipe.
        _silence_stdout()
        raise SystemExit(EXIT_PIPE_CLOSED) from None
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
        raise SystemExit(EXIT_INTERRUPTED) from None


def _silence_stdout() -> None:
    """Standard output to /dev/null, so that flushing it at exit raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def load_puzzles(path: str, fmt: str | None = None):
    """Every puzzle in `path` (a bundle may hold many), validated. Raises NonocpError on bad input.

    Puzzles whose colour totals differ are kept: they are well-formed and their answer is `none`
    (Puzzle.count_mismatch; solve() answers without an engine).
    """
    from nonocp.formats import load

    return validated(load(path, fmt), path)


def validated(puzzles, where: str):
    """`puzzles` after validate(); InvalidPuzzleError naming `where` (and the puzzle of a bundle) otherwise."""
    from nonocp.core.errors import InvalidPuzzleError

    for i, p in enumerate(puzzles, 1):
        try:
            p.validate()
        except InvalidPuzzleError as e:
            at = f"{where} (puzzle {i})" if len(puzzles) > 1 else where
            raise InvalidPuzzleError(f"{at}: {e}") from None
    return puzzles


# --- output ---------------------------------------------------------------------------------------


def stdout_is_terminal() -> bool:
    """True when a person is reading stdout (colour pictures); False for pipes, files and tests."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def terminal_width(stream: TextIO) -> int:
    """The terminal's columns: COLUMNS when set, else what the terminal says, else 80 (a new pseudo-terminal
    says 0 columns until someone sets its size)."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def output_width() -> int:
    """The columns text output may take: the terminal's, or 80 for a pipe or a file."""
    return terminal_width(sys.stdout) if stdout_is_terminal() else 80


def wants_color(choice: str, stream: Any = None) -> bool:
    """Whether to paint for `--color choice` on `stream` (stdout by default).

    auto: only for a terminal, and not when NO_COLOR is set (to anything but empty) or TERM is `dumb`."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    stream = sys.stdout if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def console(choice: str, stderr: bool = False, width: int | None = None) -> Any:
    """A rich Console that paints exactly when `wants_color` says so (rich is imported here, on demand)."""
    from rich.console import Console

    on = wants_color(choice, sys.stderr if stderr else sys.stdout)
    return Console(stderr=stderr, force_terminal=on, color_system="auto" if on else None, highlight=False,
                   width=width, no_color=not on)


def fit_text_grids(compact: bool) -> None:
    """Text grids of this command fit the terminal's width (80 columns for a pipe or a file), or are always
    tight with --compact (render/text.py, Fit)."""
    from nonocp.render.text import fit_to

    fit_to(output_width(), compact)


def say_unkept_text(puzzles, fmt: str, target: str) -> None:
    """One line on stderr for each title (author...) the written format cannot keep as it was (line breaks
    and control characters become one line in .non and XML): a conversion must not change text silently."""
    from nonocp.formats import unkept_text

    for i, name in unkept_text(puzzles, fmt):
        which = f"puzzle {i}'s {name}" if len(puzzles) > 1 else f"the {name}"
        print(f"nonocp: {target}: {which} holds line breaks or control characters; the {fmt} format keeps it "
              "as one line", file=sys.stderr)


def numbered(path: str, index: int) -> str:
    """`out.svg` -> `out-3.svg`: one picture file per puzzle when there are several."""
    stem, ext = os.path.splitext(path)
    return f"{stem}-{index}{ext}"


def choose(value: str | None, allowed: Sequence[str], option: str) -> str | None:
    """`value` lower-cased if it is one of `allowed` (None passes), else a one-line usage error."""
    if value is None:
        return None
    v = value.lower()
    if v not in allowed:
        fail(f"{option}: {value!r} is not one of {', '.join(allowed)}")
    return v
