"""Puzzle file formats: one module per format, and this registry that picks one.

    load(path, fmt=None) -> list[Puzzle]      every puzzle in the file (bundles hold many)
    loads(text, fmt, path="<string>")          the same from text
    dump(puzzle_or_list, path, fmt=None)       write (format from `fmt`, else the extension)
    dumps(puzzle_or_list, fmt) -> str
    detect(path, text=None, fmt=None) -> str   explicit name > extension > content sniffing

Adding a format is one registration: its module of nonocp.formats (imported when first used) and the
functions in it by name, e.g.

    register("nin", module="nin", extensions=(".nin",), reader="read_nin", sniff="sniff")

or functions themselves (a writer-only DIMACS export: `register("cnf", extensions=(".cnf",), writer=...)`).

A reader is `(text, path) -> list[Puzzle]` and raises only ParseError. A writer is
`Puzzle -> str`; a `bundle_writer` (`Sequence[Puzzle] -> str`) lets `dumps` take a list.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from nonocp.core.errors import NonocpError, ParseError
from nonocp.core.outputs import write_file
from nonocp.core.puzzle import COUNTS, KIND_NAMES, RUNS, Puzzle
from nonocp.formats._common import check_text, decode
from nonocp.formats.files import read_bytes


def _deferred(module: str, function: str) -> Callable[..., Any]:
    """`function` of nonocp.formats.`module`, imported when first called: a command reading one .non file
    imports one reader."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(f"nonocp.formats.{module}"), function)(*args, **kwargs)

    call.__name__ = call.__qualname__ = function
    return call


Reader = Callable[[str, str], list[Puzzle]]
Writer = Callable[[Puzzle], str]
BundleWriter = Callable[[Sequence[Puzzle]], str]
BinaryReader = Callable[[bytes, str], list[Puzzle]]
Sniffer = Callable[[str], bool]
TEXT = "text/plain; charset=utf-8"  # the media type of a format that registers none


@dataclass(frozen=True)
class Format:
    name: str
    extensions: tuple[str, ...] = ()
    reader: Reader | None = None
    writer: Writer | None = None
    bundle_writer: BundleWriter | None = None
    sniff: Sniffer | None = None
    description: str = ""
    binary_reader: BinaryReader | None = None  # formats that are bytes, not text (PBM images)
    sniff_bytes: Callable[[bytes], bool] | None = None
    clue_kinds: tuple[str, ...] = (RUNS,)  # the clue kinds its writer can hold (core/puzzle.py CLUE_KINDS)
    media_type: str = TEXT  # what a file of it is sent as (the web page's exports)

    @property
    def readable(self) -> bool:
        return self.reader is not None or self.binary_reader is not None

    @property
    def round_trips(self) -> bool:
        """A puzzle written to a file of it (named by its extension) reads back: a file to hand out."""
        return self.readable and self.writer is not None and bool(self.extensions)


FORMATS: dict[str, Format] = {}


def register(
    name: str,
    *,
    module: str | None = None,
    extensions: Sequence[str] = (),
    reader: Reader | str | None = None,
    writer: Writer | str | None = None,
    bundle_writer: BundleWriter | str | None = None,
    sniff: Sniffer | str | None = None,
    description: str = "",
    binary_reader: BinaryReader | str | None = None,
    sniff_bytes: Callable[[bytes], bool] | str | None = None,
    clue_kinds: Sequence[str] = (RUNS,),
    media_type: str = TEXT,
) -> Format:
    """Add (or replace) a format. Sniffers are tried in registration order, so register specific ones first.
    With `module` (a module of nonocp.formats) its functions are given by name, imported on first use.
    `clue_kinds`: what its writer can hold; writing a puzzle of another kind is refused in one line."""

    def fn(f: Any) -> Any:
        if isinstance(f, str):
            if module is None:
                raise ValueError(f"format {name}: {f!r} names a function, but no module was given")
            return _deferred(module, f)
        return f

    exts = tuple(e.lower() if e.startswith(".") else "." + e.lower() for e in extensions)
    f = Format(name, exts, fn(reader), fn(writer), fn(bundle_writer), fn(sniff), description, fn(binary_reader),
               fn(sniff_bytes), tuple(clue_kinds), media_type)
    FORMATS[name] = f
    return f


# Order matters for content sniffing: unmistakable formats first, the lenient .non reader last.
register("xml", module="xml", extensions=(".xml", ".pbn"), reader="read_xml", writer="dumps_xml",
         bundle_writer="dumps_xml_many", sniff="sniff", media_type="application/xml",
         description="webpbn XML (multi-colour, <solution> as goal)")
register("json", module="json_format", extensions=(".json",), reader="read_json", writer="dumps_json",
         bundle_writer="dumps_json_many", sniff="sniff", clue_kinds=(RUNS, COUNTS), media_type="application/json",
         description="nonocp JSON (schema 1); count clues in their own JSON form (formats/counts.py)")
register("counts", module="counts", extensions=(".counts",), reader="read_counts_text",
         writer="dumps_counts_text", sniff="sniff_text", clue_kinds=(COUNTS,),
         description="count-and-contiguity clues as text (`colors` line, `rows`/`columns` of counts like 5 3* 2 0)")
register("tournament-solution", module="tournament", reader="read_solution_file", sniff="sniff_solution",
         description="tournament solution grids ($N, rows of tab-separated 0/1), read as puzzles with goals")
register("tournament", module="tournament", reader="read_tournament", sniff="sniff",
         description="computer-tournament batch ($N, 25 column clues, 25 row clues; tab-separated)")
register("sgriddler", module="sgriddler", extensions=(".sgriddler",), reader="read_sgriddler", sniff="sniff",
         description="Griddlers Solver 'MK Version 3.0' (reversed clues, solution grid)")
register("letters", module="letters", reader="read_letters", sniff="sniff",
         description="letter-coded collections (A=1, B=2, ...; one `--title` block per puzzle)")
register("grid", module="simple_grid", reader="read_grid", sniff="sniff",
         description="picross-solver text (GRID name / ROWS / COLUMNS, clues in [ ])")
register("g", module="gformat", extensions=(".g",), reader="read_g", sniff="sniff",
         description="Olšák .g (with colours)")
register("mk", module="gformat", extensions=(".mk",), reader="read_mk", sniff="sniff_mk",
         description="Olšák .mk (H W, rows, #, columns)")
register("nin", module="nin", extensions=(".nin",), reader="read_nin", sniff="sniff",
         description="Jakub Wilk's .nin (W H, rows, columns)")
register("picture", module="picture", reader="read_picture", sniff="sniff",
         description="a solution picture as text (#/. or 1/0 rows); clues computed from it")
register("pbm", module="picture", extensions=(".pbm",), binary_reader="read_pbm", sniff_bytes="sniff_bytes",
         description="a netpbm P1/P4 bitmap as the solution picture; clues computed from it")
register("nonny", module="non", reader="read_non",
         description="Nonny's .non dialect (`color red FF0000 #`, `red 1 yellow 4`); the non reader reads it too")
register("nonpack", module="non", extensions=(".nonpack",), reader="read_nonpack", writer="dumps_non",
         bundle_writer="dumps_nonpack", description="bundle of .non puzzles separated by ====")
register("non", module="non", extensions=(".non",), reader="read_non", writer="dumps_non",
         bundle_writer="dumps_nonpack", sniff="sniff",
         description="Simpson .non (colour extension `color a #rrggbb`; Nonny's dialect)")


def lazy_writer(module: str, function: str) -> Writer:
    """A writer imported on first use (keeps heavy encoders out of every `import nonocp`)."""

    def write(puzzle: Puzzle) -> str:
        try:
            fn = getattr(importlib.import_module(module), function)
        except (ImportError, AttributeError) as e:
            raise NonocpError(f"writer {module}.{function} is not available: {e}") from None
        return fn(puzzle)

    return write


# DIMACS CNF, the sat engine's encoding (writer only; nonocp/formats/cnf.py belongs to the sat engine).
register("cnf", extensions=(".cnf",), writer=lazy_writer("nonocp.formats.cnf", "puzzle_to_dimacs"),
         description="DIMACS CNF of the sat engine's encoding (write only)")


def _get(fmt: str, path: str | None = None) -> Format:
    f = FORMATS.get(fmt.lower())
    if f is None:
        known = ", ".join(sorted(FORMATS))
        if path is not None:
            raise ParseError(path, None, f"unknown format {fmt!r} (known: {known})")
        raise NonocpError(f"unknown format {fmt!r} (known: {known})")
    return f


def format_for_extension(path: str) -> str | None:
    """The format whose extension `path` has (longest match wins), or None."""
    name = os.path.basename(os.fspath(path)).lower()
    best: tuple[int, str] | None = None
    for f in FORMATS.values():
        for e in f.extensions:
            if name.endswith(e) and (best is None or len(e) > best[0]):
                best = (len(e), f.name)
    return best[1] if best else None


def sniff(text: str) -> str | None:
    """The format the content looks like, or None."""
    for f in FORMATS.values():
        if f.sniff is not None and f.reader is not None:
            try:
                if f.sniff(text):
                    return f.name
            except Exception:  # a sniffer is a guess; a buggy guess must not break loading
                continue
    return None


# Files that are documents, not puzzles: read as puzzles only when a format is named (`--from`), so that
# `nonocp solve README.md` says what is wrong instead of an error at some line of a format it resembles.
DOCUMENTS = {".md": "Markdown", ".markdown": "Markdown", ".rst": "reStructuredText", ".html": "HTML",
             ".htm": "HTML", ".pdf": "PDF", ".py": "Python", ".toml": "TOML", ".yaml": "YAML", ".yml": "YAML",
             ".cfg": "a configuration file", ".ini": "a configuration file", ".sh": "a shell script",
             ".doc": "a Word document", ".docx": "a Word document", ".odt": "an OpenDocument text"}


def not_a_puzzle(path: str) -> ParseError | None:
    """The error for a document's name (`README.md`), or None when the name may be a puzzle's."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    kind = DOCUMENTS.get(ext)
    if kind is None or format_for_extension(path) is not None:
        return None
    return ParseError(path, None, f"not a puzzle file ({kind}); give --from FORMAT to read it as one")


def detect(path: str, text: str | None = None, fmt: str | None = None) -> str:
    """Explicit `fmt` > the file extension > the content. ParseError naming the path when none applies."""
    if fmt:
        return _get(fmt, path).name
    by_ext = format_for_extension(path)
    if by_ext is not None and FORMATS[by_ext].readable:
        return by_ext
    document = not_a_puzzle(path)
    if document is not None:
        raise document
    if text is not None:
        found = sniff(text)
        if found is not None:
            return found
    raise ParseError(path, None, "not a puzzle file: cannot tell the puzzle format (give it with --from)")


def _guard(f: Format, call: Callable[[], list[Puzzle]], path: str) -> list[Puzzle]:
    try:
        puzzles = call()
    except NonocpError:
        raise
    except RecursionError:
        raise ParseError(path, None, "input is nested too deeply") from None
    except MemoryError:
        raise ParseError(path, None, "input is too large") from None
    if not puzzles:
        raise ParseError(path, None, "no puzzle in the file")
    return puzzles


def _read(f: Format, text: str, path: str) -> list[Puzzle]:
    reader = f.reader
    if reader is None:
        if f.binary_reader is not None:
            raise ParseError(path, None, f"format {f.name!r} is binary; load it from a file")
        raise ParseError(path, None, f"format {f.name!r} can be written but not read")
    check_text(text, path)
    return _guard(f, lambda: reader(text, path), path)


def load(path: str, fmt: str | None = None) -> list[Puzzle]:
    """Every puzzle in the file at `path`. Raises ParseError (never anything else) on bad input."""
    path = os.fspath(path)
    f = _get(fmt, path) if fmt else None
    data = read_bytes(path)
    if f is None:
        by_ext = format_for_extension(path)
        if by_ext is not None and FORMATS[by_ext].readable:
            f = FORMATS[by_ext]
        else:
            for candidate in FORMATS.values():
                if candidate.binary_reader is not None and candidate.sniff_bytes is not None \
                        and candidate.sniff_bytes(data):
                    f = candidate
                    break
    binary_reader = f.binary_reader if f is not None else None
    if binary_reader is not None:
        return _guard(f, lambda: binary_reader(data, path), path)
    text = decode(data, path)
    if f is not None:
        return _read(f, text, path)
    f = FORMATS[detect(path, text)]
    try:
        return _read(f, text, path)
    except ParseError as e:  # the format was a guess from the content: say so beside what failed
        where = f"line {e.line}: " if e.line is not None else ""
        raise ParseError(path, None, f"not a puzzle file nonocp can read (it looked like {f.name}, but {where}"
                                     f"{e.message}); give --from FORMAT if it is one") from None


def loads(text: str, fmt: str, path: str = "<string>") -> list[Puzzle]:
    """Every puzzle in `text`, read as format `fmt` (a name from FORMATS)."""
    return _read(_get(fmt, path), text, path)


def dumps(puzzle: Puzzle | Sequence[Puzzle], fmt: str) -> str:
    """The text of `puzzle` (or of a list of puzzles, for formats that bundle) in format `fmt`."""
    f = _get(fmt)
    for p in [puzzle] if isinstance(puzzle, Puzzle) else puzzle:
        if p.clue_kind not in f.clue_kinds:
            takes = " or ".join(n for n, g in FORMATS.items() if p.clue_kind in g.clue_kinds and g.writer)
            raise NonocpError(f"format {f.name!r} cannot hold {KIND_NAMES[p.clue_kind]} clues (other tools would "
                              f"read them as something else); write {takes} instead")
    if isinstance(puzzle, Puzzle):
        if f.writer is None:
            if f.bundle_writer is None:
                raise NonocpError(f"format {f.name!r} cannot be written")
            return f.bundle_writer([puzzle])
        return f.writer(puzzle)
    puzzles = list(puzzle)
    if f.bundle_writer is not None:
        return f.bundle_writer(puzzles)
    if len(puzzles) == 1 and f.writer is not None:
        return f.writer(puzzles[0])
    raise NonocpError(f"format {f.name!r} holds one puzzle per file; got {len(puzzles)}")


def dump(puzzle: Puzzle | Sequence[Puzzle], path: str, fmt: str | None = None, *, force: bool = False) -> None:
    """Write to `path`; the format is `fmt`, else the one the extension names. Written by the rules of
    nonocp.core.outputs.write_file (atomic, never through a special file by rename; a read-only file
    only with `force`)."""
    path = os.fspath(path)
    name = fmt or format_for_extension(path)
    if name is None:
        raise NonocpError(f"{path}: cannot tell the output format from the extension (give --to)")
    write_file(path, dumps(puzzle, name), force=force)


def unkept_text(puzzles: Sequence[Puzzle], fmt: str) -> list[tuple[int, str]]:
    """(1-based puzzle, field) for each title, author... holding line breaks or control characters that
    format `fmt` writes as one printable line (the .non and XML writers do): what a conversion changes,
    so that the command can say so. Found by writing the puzzle and reading it back."""
    from nonocp.core.text import one_line

    out = []
    for i, p in enumerate(puzzles, 1):
        odd = [n for n in _TEXT_FIELDS if getattr(p.meta, n) and one_line(getattr(p.meta, n)) != getattr(p.meta, n)]
        if not odd:
            continue
        try:
            (back,) = loads(dumps(p, fmt), fmt)
        except (NonocpError, ValueError):
            back = None
        out += [(i, n) for n in odd if back is None or getattr(back.meta, n) != getattr(p.meta, n)]
    return out


_TEXT_FIELDS = ("title", "author", "copyright", "license", "source", "notes")


def writable_formats() -> list[str]:
    return sorted(n for n, f in FORMATS.items() if f.writer or f.bundle_writer)


def readable_formats() -> list[str]:
    return sorted(n for n, f in FORMATS.items() if f.readable)


def file_formats() -> list[str]:
    """The formats a puzzle can be handed out in, as a file that reads back (Format.round_trips)."""
    return sorted(n for n, f in FORMATS.items() if f.round_trips)


__all__ = [
    "FORMATS", "TEXT", "Format", "detect", "dump", "dumps", "file_formats", "format_for_extension", "load", "loads",
    "readable_formats", "register", "sniff", "writable_formats",
]
