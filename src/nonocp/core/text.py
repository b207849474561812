"""Free text from files (titles, authors, colour names, paths) made safe for each kind of output.

Puzzle files are hostile: a title may hold terminal control codes (`ESC ]0;...BEL` retitles the window,
`\\r` overwrites the line), line breaks, bidirectional overrides or lone surrogates. The rule, one per
kind of output:

- `one_line(s)`, for a person (terminal, text reports, error messages) and for text formats (`.non`
  strings, XML, SVG): line breaks and tabs become spaces, runs of spaces collapse, every other
  character that a terminal or an XML parser would not show as itself (C0/C1 controls, DEL, bidi
  embeddings and overrides, line/paragraph separators, surrogates, non-characters) becomes the visible
  escape `\\xNN` / `\\uNNNN`. The result is printable, one line, valid in XML 1.0, and applying the rule
  again changes nothing, so a file written this way reads back to the same title.
- `ascii_line(s)`, for DIMACS comments (ASCII-only tools): `one_line`, then every non-ASCII character as
  `\\xNN` / `\\uNNNN` (Żółw -> `\\u017b\\xf3\\u0142w`).
- `json_safe(text)`, for JSON already produced by `json.dumps(..., ensure_ascii=False)`: lossless; the
  characters above that JSON leaves raw (lone surrogates included, which UTF-8 cannot even encode) become
  `\\uNNNN` escapes, so the JSON still decodes to the exact string and prints safely on a terminal.
"""

from __future__ import annotations

import re
import unicodedata

# Bidirectional embeddings, overrides and isolates, and the zero-width marks that reorder or hide text.
_BIDI = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c"


def _unsafe(ch: str) -> bool:
    """True for a character a terminal or an XML parser would not show as itself."""
    if ch in _BIDI:
        return True
    cat = unicodedata.category(ch)
    if cat in ("Cc", "Cs", "Zl", "Zp"):
        return True
    if cat == "Cn":  # unassigned: includes the non-characters U+FFFE/U+FFFF that XML forbids
        code = ord(ch)
        return code & 0xFFFE == 0xFFFE or 0xFDD0 <= code <= 0xFDEF
    return False


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def one_line(s: str) -> str:
    """`s` as one printable line (see the module docstring); idempotent."""
    s = " ".join(s.split())
    if s.isascii() and s.isprintable():
        return s
    return "".join(_escape(ch) if _unsafe(ch) else ch for ch in s)


def ascii_line(s: str) -> str:
    """`one_line(s)` with every non-ASCII character escaped: for formats whose tools expect ASCII."""
    return "".join(ch if ch.isascii() else _escape(ch) for ch in one_line(s))


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029" + _BIDI + "\ud800-\udfff]")


def json_safe(text: str) -> str:
    """JSON text (from json.dumps(..., ensure_ascii=False)) with the characters JSON leaves raw but a
    terminal would act on escaped as `\\uNNNN`: lossless, the document decodes to the same values."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


__all__ = ["ascii_line", "json_safe", "one_line"]
