"""One row per puzzle and engine, and the CSV/JSON files they go to."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import IO, Any

# Verdicts a row can carry: the engines' statuses plus "error" (the file, the puzzle or the engine failed).
ANSWERED = ("unique", "multiple", "none", "solved")  # the engine reached a verdict
TIMEOUT = "timeout"
ERROR = "error"

CSV_FIELDS = (
    "file", "index", "title", "width", "height", "colors", "engine", "verdict",
    "solutions", "seconds", "ratio", "stats", "error",
)


@dataclass(frozen=True)
class Record:
    """The outcome of one engine on one puzzle (or of reading a file: engine "" and verdict "error").

    `colors` counts the ink colours (the palette without its background: 1 for black and white).
    `seconds` is wall time measured around the engine's solve() in the worker (loading excluded), or
    the time until the worker was killed for a hard timeout. `ratio` is seconds relative to the first
    engine on the same puzzle (filled in by the summary; None when either did not answer).
    `order` is the position of the task in the batch, so that reports list rows in input order.
    """

    file: str
    index: int
    engine: str
    verdict: str
    title: str = ""
    width: int | None = None
    height: int | None = None
    colors: int | None = None
    solutions: int = 0
    seconds: float | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    ratio: float | None = None
    order: int = 0

    @property
    def answered(self) -> bool:
        return self.verdict in ANSWERED

    @property
    def puzzle_key(self) -> tuple[str, int]:
        return (self.file, self.index)

    def with_ratio(self, ratio: float | None) -> Record:
        return replace(self, ratio=ratio)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("order")
        return d

    def to_csv_row(self) -> dict[str, str]:
        def num(x: float | None, fmt: str) -> str:
            return "" if x is None else format(x, fmt)

        return {
            "file": self.file,
            "index": str(self.index),
            "title": self.title,
            "width": "" if self.width is None else str(self.width),
            "height": "" if self.height is None else str(self.height),
            "colors": "" if self.colors is None else str(self.colors),
            "engine": self.engine,
            "verdict": self.verdict,
            "solutions": str(self.solutions),
            "seconds": num(self.seconds, ".4f"),
            "ratio": num(self.ratio, ".4g"),
            "stats": json.dumps(self.stats, sort_keys=True, default=str) if self.stats else "",
            "error": self.error,
        }


def jsonable(stats: Any) -> dict[str, Any]:
    """Engine statistics made safe for JSON (numbers and strings kept, anything else as its str)."""
    if not isinstance(stats, dict):
        return {}
    return json.loads(json.dumps(stats, default=str))


class CsvStream:
    """Appends rows as they finish and flushes each, so that even a killed `bench` leaves its rows.

    `finish(records)` rewrites the file with the final rows (input order, ratios filled in) through a
    temporary file and an atomic rename.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._fh: IO[str] | None = open(path, "w", newline="", encoding="utf-8")  # noqa: SIM115 (closed in finish)
        self._writer = csv.DictWriter(self._fh, fieldnames=CSV_FIELDS)
        self._writer.writeheader()
        self._fh.flush()

    def add(self, record: Record) -> None:
        if self._fh is not None:
            self._writer.writerow(record.to_csv_row())
            self._fh.flush()

    def finish(self, records: Iterable[Record]) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        write_csv(self.path, records)


def write_csv(path: str, records: Iterable[Record]) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in records:
            w.writerow(r.to_csv_row())
    os.replace(tmp, path)


def read_csv(path: str) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def write_json(path: str, document: dict[str, Any]) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(document, fh, indent=1, default=str)
        fh.write("\n")
    os.replace(tmp, path)
