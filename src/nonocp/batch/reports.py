"""The CSV and JSON report files: streamed row by row while a batch runs, rewritten whole at its end.

Nothing is lost and nothing is half-written:
- every row goes out in one write as soon as it is final (a killed `bench` keeps its rows);
- a write that fails (a full disk) is rolled back to the last complete row (the file is truncated there)
  and raises ReportError naming the report, so the file always parses;
- the JSON stream is a valid document after every row: its closing brackets are rewritten behind each
  new row (`"complete": false` until the final document, with the summary, replaces it);
- the final files (input order, ratios filled in) go through a temporary file and a rename, so a failure
  there leaves the streamed file as it was.
A target that is not a regular file (a pipe, /dev/stdout) is written through, never renamed over.
"""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from collections.abc import Iterable, Sequence
from typing import Any

from nonocp.batch.records import CSV_FIELDS, Record
from nonocp.core.errors import NonocpError

# Every byte of a report goes through these two names, so that tests can make the disk "full".
_write = os.write
_pwrite = os.pwrite


class ReportError(NonocpError):
    """A report file cannot be written (or read back for --resume); the message names the file."""


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def _is_regular(path: str) -> bool:
    """True when `path` is a regular file or does not exist yet (a symlink counts as what it points to)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True


def _write_fully(fd: int, data: bytes, offset: int | None = None) -> None:
    view = memoryview(data)
    while view:
        n = _write(fd, view) if offset is None else _pwrite(fd, view, offset)
        if offset is not None:
            offset += n
        view = view[n:]


def write_atomically(path: str, data: bytes) -> None:
    """Replace `path` with `data` through a temporary file beside it and a rename (ReportError naming `path`)."""
    if not _is_regular(path):
        try:
            fd = os.open(path, os.O_WRONLY)
            try:
                _write_fully(fd, data)
            finally:
                os.close(fd)
        except OSError as e:
            raise ReportError(f"{path}: {_reason(e)}") from None
        return
    tmp = _temp_name(path)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        try:
            _write_fully(fd, data, 0)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as e:
        _unlink(tmp)
        raise ReportError(f"{path}: {_reason(e)}") from None


def _temp_name(path: str) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(path)), f".{os.path.basename(path)}.{os.getpid()}.tmp")


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class _StreamFile:
    """A report file written row by row; each row lands whole or not at all.

    `tail` is written after the last row and rewritten behind each new one (the JSON closing brackets).
    """

    def __init__(self, path: str, head: bytes, tail: bytes = b"", rows: int = 0) -> None:
        """Start the file with `head` (which holds `rows` rows already): through a temporary file and a
        rename for a regular file, so that a failure here leaves what was at `path` untouched."""
        self.path = path
        self.tail = tail
        self.rows = rows
        self.broken = False  # a write failed: further rows are dropped (the batch is stopping)
        self.regular = _is_regular(path)
        self.size = len(head)  # bytes of the head and the complete rows (the tail not counted)
        try:
            if not self.regular:
                self.fd = os.open(path, os.O_WRONLY)
                _write_fully(self.fd, head)
                return
            tmp = _temp_name(path)
            self.fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
            try:
                _write_fully(self.fd, head + tail, 0)
                os.replace(tmp, path)
            except OSError:
                os.close(self.fd)
                _unlink(tmp)
                raise
        except OSError as e:
            raise ReportError(f"{path}: {_reason(e)}") from None

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
            os.close(self.fd)
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

    def __init__(self, path: str, initial: Sequence[Record] = ()) -> None:
        self.path = path
        head = _csv_bytes([r.to_csv_row() for r in initial], header=True)
        self._file = _StreamFile(path, head, rows=len(initial))

    def add(self, record: Record) -> None:
        self._file.add_row(_csv_bytes([record.to_csv_row()]))

    def finish(self, records: Iterable[Record]) -> None:
        """Replace the streamed file with the final rows (atomically; on failure the stream stays)."""
        self._file.close()
        if self._file.regular:
            write_csv(self.path, records)

    def close(self) -> None:
        self._file.close()


class JsonReport:
    """The JSON report: `head` (everything but the runs) with `"complete": false` and the runs streamed
    into its "runs" list; `finish(document)` replaces it with the final document."""

    def __init__(self, path: str, head: dict[str, Any], initial: Sequence[Record] = ()) -> None:
        self.path = path
        # A pipe cannot have its closing brackets rewritten: it gets the final document only.
        self._file: _StreamFile | None = None
        if _is_regular(path):
            opening = json.dumps({**head, "complete": False}, default=str)[:-1] + ', "runs": ['
            rows = "".join(_json_row(r, i) for i, r in enumerate(initial))
            self._file = _StreamFile(path, (opening + rows).encode("utf-8"), b"\n]}\n", rows=len(initial))

    def add(self, record: Record) -> None:
        if self._file is not None:
            self._file.add_row(_json_row(record, self._file.rows).encode("utf-8"))

    def finish(self, document: dict[str, Any]) -> None:
        self.close()
        write_json(self.path, document)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def _json_row(record: Record, position: int) -> str:
    return ("\n" if position == 0 else ",\n") + json.dumps(record.to_json(), default=str)


def write_csv(path: str, records: Iterable[Record]) -> None:
    write_atomically(path, _csv_bytes([r.to_csv_row() for r in records], header=True))


def write_json(path: str, document: dict[str, Any]) -> None:
    write_atomically(path, (json.dumps({**document, "complete": True}, indent=1, default=str) + "\n").encode())


def read_csv(path: str) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def read_report(path: str) -> list[Record]:
    """The rows of a report written by `bench` (CSV or JSON, final or cut short), for --resume.

    A last CSV row that is incomplete (a report from a run killed mid-write) is left out; anything else
    that is not a report raises ReportError naming the file (and the line).
    """
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            text = fh.read()
    except (OSError, UnicodeError) as e:
        reason = _reason(e) if isinstance(e, OSError) else "not UTF-8 text"
        raise ReportError(f"{path}: cannot read the report: {reason}") from None
    if text.lstrip().startswith("{"):
        return _read_json_report(path, text)
    return _read_csv_report(path, text)


def _read_json_report(path: str, text: str) -> list[Record]:
    try:
        doc = json.loads(text)
        runs = doc["runs"]
        return [Record.from_json(r) for r in runs]
    except json.JSONDecodeError as e:
        raise ReportError(f"{path}: line {e.lineno}: not a complete JSON report ({e.msg})") from None
    except (KeyError, TypeError, ValueError) as e:
        raise ReportError(f"{path}: not a bench report ({e})") from None


def _read_csv_report(path: str, text: str) -> list[Record]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if not reader.fieldnames or not {"file", "index", "engine", "verdict"} <= set(reader.fieldnames):
        raise ReportError(f"{path}: not a bench report (no file, index, engine and verdict columns)")
    rows: list[tuple[int, dict[str, Any]]] = [(reader.line_num, row) for row in reader]
    out = []
    for i, (line, row) in enumerate(rows):
        try:
            if None in row.values() or None in row:
                raise ValueError("the wrong number of fields")
            out.append(Record.from_csv_row(row))
        except (ValueError, TypeError) as e:
            if i == len(rows) - 1:
                break  # the row a killed run was writing
            raise ReportError(f"{path}: line {line}: not a bench report row ({e})") from None
    return out
