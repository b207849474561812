"""Turning the paths a user gives into a list of puzzles to run (one entry per puzzle in each file).

Files named on the command line are read whatever their name; folders are walked recursively and only
files with a known puzzle extension are taken, so README, LICENSE, CSV and images beside the puzzles are
skipped. A file that cannot be read, or a puzzle that is not valid, becomes an entry carrying the reason
(one "error" row in the report) instead of stopping the batch.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from nonocp.core.errors import NonocpError
from nonocp.core.puzzle import Puzzle

# .txt is how most collections in the wild store puzzles (tournament batches, letter-coded collections,
# Simpson files), read by content sniffing, so folders always include it beside the registered extensions.
SNIFFED_EXTENSIONS = frozenset({".txt"})
# Files that sit beside puzzles and are never puzzles, whatever their extension (README.txt, LICENSE.txt).
NOT_PUZZLES = ("readme", "license", "licence", "copying", "changelog", "notice", "authors")


def puzzle_extensions() -> frozenset[str]:
    """Extensions taken when walking folders: those of every format nonocp can read, plus .txt."""
    from nonocp.formats import FORMATS

    return frozenset(e for f in FORMATS.values() if f.reader is not None for e in f.extensions) | SNIFFED_EXTENSIONS


Loader = Callable[[str, "str | None"], list[Puzzle]]


@dataclass(frozen=True)
class PuzzleEntry:
    """One puzzle of one file, or (puzzle None, error set) when the file or that puzzle was unusable.

    `index` is 1-based within the file; an unreadable file gives one entry with index 0.
    """

    file: str
    index: int
    puzzle: Puzzle | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.puzzle is not None


def is_puzzle_file(path: Path, extensions: frozenset[str] | None = None) -> bool:
    name = path.name.lower()
    if name.startswith(".") or name.startswith(NOT_PUZZLES):
        return False
    exts = puzzle_extensions() if extensions is None else extensions
    return any(name.endswith(e) for e in exts)


def walk_folder(folder: Path) -> Iterator[Path]:
    """Puzzle files under `folder`, recursively, in a stable (sorted) order; hidden folders skipped."""
    exts = puzzle_extensions()
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            p = Path(root, name)
            if is_puzzle_file(p, exts):
                yield p


def puzzle_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The files to read: named files as given, folders walked; duplicates dropped, order kept.

    A path that does not exist raises FileNotFoundError (a usage error, not a row in the report).
    """
    out: list[Path] = []
    seen: set[Path] = set()
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found: Iterable[Path] = walk_folder(p)
        elif p.exists():
            found = [p]
        else:
            raise FileNotFoundError(2, "no such file or folder", str(p))
        for f in found:
            try:
                key = f.resolve()
            except (OSError, RuntimeError):  # a symbolic link loop: kept, its reading fails by name
                key = f.absolute()
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def _default_loader(path: str, fmt: str | None) -> list[Puzzle]:
    from nonocp.formats import load  # imported late: the readers are only needed once there is work

    return load(path, fmt)


def read_entries(path: Path, fmt: str | None = None, load: Loader | None = None) -> list[PuzzleEntry]:
    """The entries of one file: one per puzzle (invalid ones carry their reason), or one error entry."""
    name = str(path)
    try:
        puzzles = (load or _default_loader)(name, fmt)
    except NonocpError as e:
        return [PuzzleEntry(name, 0, error=str(e))]
    except (OSError, UnicodeError, ValueError, RecursionError, MemoryError) as e:
        # Readers should raise ParseError; anything else still must not end the batch.
        return [PuzzleEntry(name, 0, error=f"{name}: {type(e).__name__}: {e}")]
    if not puzzles:
        return [PuzzleEntry(name, 0, error=f"{name}: no puzzle in this file")]
    out = []
    for i, p in enumerate(puzzles, 1):
        try:
            p.validate()
        except NonocpError as e:
            where = f"{name} (puzzle {i})" if len(puzzles) > 1 else name
            out.append(PuzzleEntry(name, i, error=f"{where}: {e}"))
        else:
            out.append(PuzzleEntry(name, i, puzzle=p))
    return out


def collect(
    paths: Iterable[str | os.PathLike[str]],
    fmt: str | None = None,
    load: Loader | None = None,
    limit: int | None = None,
) -> list[PuzzleEntry]:
    """Every puzzle (or unreadable file) under `paths`, in order; only the first `limit` when given.

    `load(path, fmt)` defaults to nonocp.formats.load.
    """
    entries: list[PuzzleEntry] = []
    for f in puzzle_files(paths):
        if limit is not None and len(entries) >= limit:
            break
        entries.extend(read_entries(f, fmt, load))
    return entries if limit is None else entries[:limit]
