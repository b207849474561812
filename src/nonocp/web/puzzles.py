"""The puzzles shipped with nonocp (the project's `puzzles/` folder), for the Open mode's list.

The folder is found the way an installed package can find it: the package's own `nonocp/web/puzzles`
(a link to the project's `puzzles/` in a checkout, whose files the wheel carries as package data), else
`puzzles/` beside `src/` (a checkout whose link is missing), else none (the list is empty).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from nonocp.core.errors import NonocpError
from nonocp.core.puzzle import Puzzle

HERE = Path(__file__).resolve().parent


def find_folder(explicit: str | None = None) -> Path | None:
    candidates = [Path(explicit)] if explicit else [HERE / "puzzles", HERE.parents[2] / "puzzles"]
    for folder in candidates:
        if folder.is_dir():
            return folder
    return None


@dataclass(frozen=True)
class Entry:
    name: str  # the file name
    puzzles: tuple[Puzzle, ...]

    def summary(self) -> dict:
        first = self.puzzles[0]
        return {
            "name": self.name,
            "title": first.title or self.name,
            "width": first.width,
            "height": first.height,
            "colors": len(first.palette) - (not first.has_counts),  # count clues have no background
            "clue_kind": first.clue_kind,
            "count": len(self.puzzles),
        }


class Catalogue:
    """The readable puzzle files of one folder, read once on first use."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._entries: dict[str, Entry] | None = None

    def entries(self) -> dict[str, Entry]:
        if self._entries is None:
            self._entries = self._scan()
        return self._entries

    def _scan(self) -> dict[str, Entry]:
        from nonocp.formats import FORMATS, format_for_extension, load

        out: dict[str, Entry] = {}
        if self.folder is None:
            return out
        for path in sorted(self.folder.iterdir()):
            fmt = format_for_extension(path.name)
            if not path.is_file() or fmt is None or not FORMATS[fmt].readable:
                continue
            try:
                puzzles = tuple(p.validate() for p in load(os.fspath(path)))
            except NonocpError:
                continue  # a broken file in the folder must not take the list down
            out[path.name] = Entry(path.name, puzzles)
        return out

    def get(self, name: str) -> Entry | None:
        return self.entries().get(name)
