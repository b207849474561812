"""The CSV and JSON report files: streamed row by row while a batch runs, rewritten whole at its end.

Nothing is lost and nothing is half-written:
- every row goes out in one write as soon as it is final (a killed `bench` keeps its rows);
- a write that fails (a full disk) is rolled back to the last complete row (the file is truncated there)
  and raises ReportError naming the report, so the file always parses;
- the JSON stream is a valid document after every row: its closing brackets are rewritten behind each
  new row (`"complete": false` until the final document, with the summary, replaces it);
- the final files (input order, ratios filled in) go through a temporary file and a rename, so a failure
  there leaves the streamed file as it was.
Which files may be written at all (never an input, never both reports on one file, a read-only one only
with --force) and how (a pipe or /dev/stdout written through, never renamed over) is the output policy
of nonocp.core.outputs: the command's `Outputs` is handed in.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from nonocp.batch.records import CSV_FIELDS, Record
from nonocp.core.errors import NonocpError
from nonocp.core.outputs import Outputs

# Every byte of a streamed row goes through this name, so that tests can make the disk "full".
_pwrite = os.pwrite


class ReportError(NonocpError):
    """A report file cannot be written (or read back for --resume); the message names the file."""


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def _write_fully(fd: int, data: bytes, offset: int | None = None) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view) if offset is None else _pwrite(fd, view, offset)
        if offset is not None:
            offset += n
        view = view[n:]


def write_atomically(path: str, data: bytes, outputs: Outputs | None = None, option: str = "report") -> None:
    """Replace `path` with `data` by the write path (ReportError naming `path` when it fails)."""
    try:
        (outputs or Outputs()).write(path, data, option)
    except OSError as e:
        raise ReportError(f"{path}: {_reason(e)}") from None


class _StreamFile:
    """A report file written row by row; each row lands whole or not at all.

    `tail` is written after the last row and rewritten behind each new one (the JSON closing brackets).
    """

    def __init__(self, path: str, head: bytes, tail: bytes = b"", rows: int = 0, *,
                 outputs: Outputs | None = None, option: str = "report") -> None:
        """Start the file with `head` (which holds `rows` rows already): through a temporary file and a
        rename for a regular file, so that a failure here leaves what was at `path` untouched."""
        self.path = path
        self.tail = tail
        self.rows = rows
        self.broken = False  # a write failed: further rows are dropped (the batch is stopping)
        self.size = len(head)  # bytes of the head and the complete rows (the tail not counted)
        try:
            self.file = (outputs or Outputs()).open(path, head + tail, option)
        except OSError as e:
            raise ReportError(f"{path}: {_reason(e)}") from None
        self.regular = self.file.own  # a file of our own: rows at offsets, the tail rewritten behind them
        self.fd = self.file.fd

    def _append(self, data: bytes) -> None:
        """Write `data` (and the tail behind it) at the end of the complete rows; roll back on failure."""
        if self.broken:
            return
        try:
            if self.regular:
                _write_fully(self.fd, data + self.tail, self.size)
            else:
                _write_fully(self.fd, data)
        except OSError as e:
            self.broken = True
            self._roll_back()
            rows = f"{self.rows} complete rows" if self.rows != 1 else "1 complete row"
            raise ReportError(f"{self.path}: {_reason(e)}; the report keeps its {rows}") from None
        self.size += len(data)

    def _roll_back(self) -> None:
        if not self.regular:
            return
        try:
            # Cut the partial row, keeping the length the tail had: its blocks are still allocated, so
            # writing the tail back over them needs no free space.
            os.ftruncate(self.fd, self.size + len(self.tail))
            _write_fully(self.fd, self.tail, self.size)
        except OSError:
            pass

    def add_row(self, data: bytes) -> None:
        self._append(data)
        self.rows += 1

    def close(self) -> None:
        if self.fd >= 0:
            if self.regular and not self.broken:
                try:
                    os.ftruncate(self.fd, self.size + len(self.tail))
                except OSError:
                    pass
            self.file.close()
            self.fd = -1


def _csv_bytes(rows: Iterable[dict[str, str]], header: bool = False) -> bytes:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS)
    if header:
        w.writeheader()
    for row in rows:
        w.writerow(row)
    return out.getvalue().encode("utf-8")


class CsvReport:
    """The CSV report: rows appended as they finish, then `finish(records)` rewrites it in input order.

    `initial` rows (those carried over by --resume) are written right after the header.
    """

    def __init__(self, path: str, initial: Sequence[Record] = (), outputs: Outputs | None = None) -> None:
        self.path = path
        self.outputs = outputs or Outputs()
        head = _csv_bytes([r.to_csv_row() for r in initial], header=True)
        self._file = _StreamFile(path, head, rows=len(initial), outputs=self.outputs, option="--csv")

    def add(self, record: Record) -> None:
        self._file.add_row(_csv_bytes([record.to_csv_row()]))

    def finish(self, records: Iterable[Record]) -> None:
        """Replace the streamed file with the final rows (atomically; on failure the stream stays)."""
        self._file.close()
        if self._file.regular:
            write_csv(self.path, records, self.outputs)

    def close(self) -> None:
        self._file.close()


class JsonReport:
    """The JSON report: `head` (everything but the runs) with `"complete": false` and the runs streamed
    into its "runs" list; `finish(document)` replaces it with the final document."""

    def __init__(self, path: str, head: dict[str, Any], initial: Sequence[Record] = (),
                 outputs: Outputs | None = None) -> None:
        self.path = path
        self.outputs = outputs or Outputs()
        # A pipe cannot have its closing brackets rewritten: it gets the final document only.
        self._file: _StreamFile | None = None
        if _streams(path):
            opening = json.dumps({**head, "complete": False}, default=str)[:-1] + ', "runs": ['
            rows = "".join(_json_row(r, i) for i, r in enumerate(initial))
            self._file = _StreamFile(path, (opening + rows).encode("utf-8"), b"\n]}\n", rows=len(initial),
                                     outputs=self.outputs, option="--json")
        else:
            self.outputs.claim(path, "--json")

    def add(self, record: Record) -> None:
        if self._file is not None:
            self._file.add_row(_json_row(record, self._file.rows).encode("utf-8"))

    def finish(self, document: dict[str, Any]) -> None:
        self.close()
        write_json(self.path, document, self.outputs)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def _streams(path: str) -> bool:
    """True when `path` is (or will be) a regular file: a stream rewritten behind each row fits it."""
    import stat

    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _json_row(record: Record, position: int) -> str:
    return ("\n" if position == 0 else ",\n") + json.dumps(record.to_json(), default=str)


def write_csv(path: str, records: Iterable[Record], outputs: Outputs | None = None) -> None:
    write_atomically(path, _csv_bytes([r.to_csv_row() for r in records], header=True), outputs, "--csv")


def write_json(path: str, document: dict[str, Any], outputs: Outputs | None = None) -> None:
    data = (json.dumps({**document, "complete": True}, indent=1, default=str) + "\n").encode()
    write_atomically(path, data, outputs, "--json")


def read_csv(path: str) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def read_report(path: str, warn: Callable[[str], None] | None = None) -> list[Record]:
    """The rows of a report written by `bench` (CSV or JSON, final or cut short), for --resume.

    A last CSV row that is incomplete (a report from a run killed mid-write) is left out and `warn` is
    told (one line naming the file and line: that run is done again); anything else that is not a report
    raises ReportError naming the file (and the line).
    """
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            text = fh.read()
    except (OSError, UnicodeError) as e:
        reason = _reason(e) if isinstance(e, OSError) else "not UTF-8 text"
        raise ReportError(f"{path}: cannot read the report: {reason}") from None
    if text.lstrip().startswith("{"):
        return _read_json_report(path, text)
    return _read_csv_report(path, text, warn)


def _read_json_report(path: str, text: str) -> list[Record]:
    try:
        doc = json.loads(text)
        runs = doc["runs"]
        return [Record.from_json(r) for r in runs]
    except json.JSONDecodeError as e:
        raise ReportError(f"{path}: line {e.lineno}: not a complete JSON report ({e.msg})") from None
    except (KeyError, TypeError, ValueError) as e:
        raise ReportError(f"{path}: not a bench report ({e})") from None


def _read_csv_report(path: str, text: str, warn: Callable[[str], None] | None) -> list[Record]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if not reader.fieldnames or not {"file", "index", "engine", "verdict"} <= set(reader.fieldnames):
        raise ReportError(f"{path}: not a bench report (no file, index, engine and verdict columns)")
    rows: list[tuple[int, dict[str, Any]]] = [(reader.line_num, row) for row in reader]
    out = []
    for i, (line, row) in enumerate(rows):
        try:
            if None in row.values() or None in row:
                raise ValueError("the wrong number of fields")
            if i == len(rows) - 1 and not text.endswith("\n"):  # every row is written with its line end
                raise ValueError("no line end")
            out.append(Record.from_csv_row(row))
        except (ValueError, TypeError) as e:
            if i == len(rows) - 1:  # the row a killed run was writing
                if warn is not None:
                    warn(f"{path}: line {line}: the last row is incomplete ({e}); left out, its run is done again")
                break
            raise ReportError(f"{path}: line {line}: not a bench report row ({e})") from None
    return out
