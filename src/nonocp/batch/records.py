"""One row per puzzle and engine, as the CSV and JSON reports hold it (the files are nonocp.batch.reports)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

# Verdicts a row can carry: the engines' statuses plus "error" (the file, the puzzle or the engine failed).
ANSWERED = ("unique", "multiple", "none", "solved")  # the engine reached a verdict
TIMEOUT = "timeout"
ERROR = "error"

CSV_FIELDS = (
    "file", "index", "title", "width", "height", "colors", "engine", "verdict",
    "solutions", "seconds", "ratio", "stats", "error", "fingerprint",
)


# A spreadsheet reads a cell that starts with one of these as a formula (`=HYPERLINK(...)` in a puzzle's
# title would be live): such text cells are written behind a `'`, which spreadsheets show as text. A cell
# that starts with `'` itself gets one more, so that reading a report back (--resume) is exact.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")


def csv_text(value: str) -> str:
    """`value` as a CSV cell that no spreadsheet runs as a formula (undone by `from_csv_text`)."""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def from_csv_text(cell: str) -> str:
    return cell[1:] if cell.startswith("'") else cell


@dataclass(frozen=True)
class Record:
    """The outcome of one engine on one puzzle (or of reading a file: engine "" and verdict "error").

    `colors` counts the ink colours (the palette without its background: 1 for black and white).
    `seconds` is wall time measured around the engine's solve() in the worker (loading excluded), or
    the time until the worker was killed for a hard timeout. `ratio` is seconds relative to the first
    engine on the same puzzle (filled in by the summary; None when either did not answer).
    `order` is the position of the task in the batch, so that reports list rows in input order.
    `fingerprint` is the puzzle's (Puzzle.fingerprint()): `--resume` matches finished rows by it and the
    engine, so a report stays valid when files are moved or renamed.
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
    fingerprint: str = ""

    @property
    def answered(self) -> bool:
        return self.verdict in ANSWERED

    @property
    def puzzle_key(self) -> tuple[str, int]:
        return (self.file, self.index)

    def with_ratio(self, ratio: float | None) -> Record:
        return replace(self, ratio=ratio)

    def with_order(self, order: int) -> Record:
        return replace(self, order=order)

    @property
    def resume_key(self) -> tuple[str, ...]:
        """What `--resume` matches a finished row by: the puzzle's fingerprint and the engine; rows of
        unreadable files (and reports written before fingerprints) by file, index and engine."""
        if self.fingerprint and self.engine:
            return ("run", self.fingerprint, self.engine)
        return ("file", self.file, str(self.index), self.engine)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("order")
        return d

    def to_csv_row(self) -> dict[str, str]:
        def num(x: float | None, fmt: str) -> str:
            return "" if x is None else format(x, fmt)

        return {
            "file": csv_text(self.file),
            "index": str(self.index),
            "title": csv_text(self.title),
            "width": "" if self.width is None else str(self.width),
            "height": "" if self.height is None else str(self.height),
            "colors": "" if self.colors is None else str(self.colors),
            "engine": self.engine,
            "verdict": self.verdict,
            "solutions": str(self.solutions),
            "seconds": num(self.seconds, ".4f"),
            "ratio": num(self.ratio, ".4g"),
            "stats": json.dumps(self.stats, sort_keys=True, default=str) if self.stats else "",
            "error": csv_text(self.error),
            "fingerprint": self.fingerprint,
        }

    @classmethod
    def from_csv_row(cls, row: dict[str, str | None]) -> Record:
        """The record a CSV row was written from (the ratio is recomputed when reports are written).

        Raises ValueError on a row that is not one of ours (a missing column, a number that is not one).
        """

        def text(name: str) -> str:
            value = row.get(name)
            if value is None:
                raise ValueError(f"no {name!r} column")
            return value

        def optional(name: str, kind: type) -> Any:
            value = row.get(name) or ""
            return kind(value) if value != "" else None

        stats = row.get("stats") or ""
        return cls(
            file=from_csv_text(text("file")),
            index=int(text("index")),
            engine=text("engine"),
            verdict=text("verdict"),
            title=from_csv_text(row.get("title") or ""),
            width=optional("width", int),
            height=optional("height", int),
            colors=optional("colors", int),
            solutions=int(row.get("solutions") or 0),
            seconds=optional("seconds", float),
            stats=json.loads(stats) if stats else {},
            error=from_csv_text(row.get("error") or ""),
            fingerprint=row.get("fingerprint") or "",
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        """The record a JSON report's run was written from; raises ValueError/TypeError if it is not one."""
        known = {f.name for f in fields(cls)} - {"order", "ratio"}
        missing = {"file", "index", "engine", "verdict"} - data.keys()
        if missing:
            raise ValueError(f"no {', '.join(sorted(missing))}")
        record = cls(**{k: v for k, v in data.items() if k in known})
        if not isinstance(record.index, int) or not isinstance(record.file, str):
            raise ValueError("file and index of the wrong type")
        return record


def jsonable(stats: Any) -> dict[str, Any]:
    """Engine statistics made safe for JSON (numbers and strings kept, anything else as its str)."""
    if not isinstance(stats, dict):
        return {}
    return json.loads(json.dumps(stats, default=str))
