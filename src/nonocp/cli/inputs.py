"""Many inputs for one command: files, folders and `-` (standard input), read one file at a time.

    for item in read_inputs(paths, fmt):       # an InputFile per file, in order
        if item.error: ...                      # one line for the user; the other files still run
        for i, puzzle in enumerate(item.puzzles, 1): ...

Files named on the command line are read whatever their name; folders are searched recursively for files
with a puzzle extension (as `bench` and `rate` do: nonocp.batch.collect); `-` reads standard input once,
in the `--from` format or the one its content shows. With several puzzles the exit code is the most
serious one met (most_serious): 2 some input could not be read, 3 a time limit ran out, 1 some puzzle has
no solution, 0 otherwise.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from nonocp.cli.common import EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_SOLVED, EXIT_TIMEOUT, fail
from nonocp.core.errors import NonocpError
from nonocp.core.puzzle import Puzzle

STDIN = "-"
STDIN_NAME = "<stdin>"
SEVERITY = (EXIT_BAD_INPUT, EXIT_TIMEOUT, EXIT_NO_SOLUTION, EXIT_SOLVED)


@dataclass
class InputFile:
    """One file (or standard input): its puzzles, or why it could not be read."""

    path: str
    puzzles: list[Puzzle] = field(default_factory=list)
    error: str | None = None

    @property
    def name(self) -> str:
        return STDIN_NAME if self.path == STDIN else self.path


def expand(paths: Sequence[str]) -> list[str]:
    """The files to read: named files and `-` as given, folders replaced by the puzzle files under them.

    A usage error (exit 2) for `-` given twice or a folder holding no puzzle file; a missing file stays in
    the list and is reported when read, so that the others still run."""
    if list(paths).count(STDIN) > 1:
        fail("- (standard input) can be given once")
    out: list[str] = []
    for p in paths:
        if p != STDIN and os.path.isdir(p):
            from nonocp.batch.collect import walk_folder

            found = [str(f) for f in walk_folder(p)]  # type: ignore[arg-type]
            if not found:
                fail(f"{p}: no puzzle files in this folder")
            out.extend(found)
        else:
            out.append(p)
    return list(dict.fromkeys(out))


def read_inputs(paths: Iterable[str], fmt: str | None) -> Iterator[InputFile]:
    """Each file's validated puzzles (or the one-line reason it cannot be used), read when reached."""
    from nonocp.cli.common import load_puzzles

    for path in paths:
        try:
            puzzles = read_stdin(fmt) if path == STDIN else load_puzzles(path, fmt)
        except NonocpError as e:
            yield InputFile(path, error=str(e))
        except (OSError, UnicodeError) as e:
            reason = getattr(e, "strerror", None) or str(e)
            yield InputFile(path, error=f"{path}: {reason}")
        else:
            yield InputFile(path, puzzles)


def read_stdin(fmt: str | None) -> list[Puzzle]:
    """The puzzles on standard input, in format `fmt` or the one the content shows."""
    from nonocp.cli.common import validated
    from nonocp.core.errors import ParseError
    from nonocp.formats import detect, loads
    from nonocp.formats._common import MAX_FILE_BYTES, decode

    data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ParseError(STDIN_NAME, None, f"more than {MAX_FILE_BYTES} bytes; too big for a puzzle")
    text = decode(data, STDIN_NAME)
    return validated(loads(text, fmt or detect(STDIN_NAME, text), STDIN_NAME), STDIN_NAME)


def report_error(item: InputFile) -> int:
    """Say on stderr (one line) why `item` could not be read; the exit code it stands for."""
    first = " ".join(str(item.error).split("\n")[0].split())
    print(f"nonocp: {first}", file=sys.stderr)
    return EXIT_BAD_INPUT


def most_serious(codes: Iterable[int]) -> int:
    """The exit code of a run over several puzzles: the first of 2, 3, 1 that occurs, else 0."""
    seen = set(codes)
    for code in SEVERITY:
        if code in seen:
            return code
    return EXIT_SOLVED


def label(item: InputFile, index: int, several_files: bool) -> str:
    """How a report names one puzzle: the file when there are several, `puzzle i of n` in a bundle."""
    parts = []
    if several_files:
        parts.append(item.name)
    if len(item.puzzles) > 1:
        parts.append(f"puzzle {index} of {len(item.puzzles)}")
    return ", ".join(parts)
