"""core/text.py: the escaping rule for free text from files, one per kind of output."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from nonocp.core.text import ascii_line, json_safe, one_line

TERMINAL_ACTIVE = "\x1b\x07\r\n\x9b\x85\u2028\u2029\u202e\u2066"


@settings(max_examples=examples(400))
@given(st.text())
def test_one_line_is_printable_one_line_and_idempotent(s):
    out = one_line(s)
    assert "\n" not in out and "\r" not in out
    assert not any(ch in out for ch in TERMINAL_ACTIVE)
    assert all(unicodedata.category(ch) not in ("Cc", "Cs") for ch in out)
    assert one_line(out) == out  # a file written this way reads back to the same title


@settings(max_examples=examples(400))
@given(st.text())
def test_ascii_line_is_ascii(s):
    out = ascii_line(s)
    assert out.isascii() and out.isprintable() and ascii_line(out) == out


@settings(max_examples=examples(400))
@given(st.text())
def test_json_safe_is_lossless_and_quiet_on_a_terminal(s):
    text = json_safe(json.dumps({"title": s}, ensure_ascii=False))
    assert json.loads(text)["title"] == s
    assert not any(ch in text for ch in TERMINAL_ACTIVE)


def test_examples():
    assert one_line("Żółw\n  two\tthree") == "Żółw two three"
    assert one_line("\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07"
    assert one_line("a\u202eb") == "a\\u202eb"
    assert ascii_line("Żółw") == "\\u017b\\xf3\\u0142w"
    assert json_safe(json.dumps("\ud800", ensure_ascii=False)) == '"\\ud800"'  # UTF-8 cannot hold it raw
