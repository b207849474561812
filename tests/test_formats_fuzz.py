"""Hypothesis mutations of real puzzle files (our fixtures and, when present, a few corpus files):
byte flips, truncations, inserted huge or negative numbers, deleted and duplicated lines, random bytes.
Whatever the damage, reading raises nothing but NonocpError, and parse errors name the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CORPUS, examples
from nonocp.core.errors import NonocpError, ParseError
from nonocp.formats import FORMATS, loads, sniff
from nonocp.formats._common import decode
from nonocp.formats.picture import read_pbm

FIX = Path(__file__).parent / "fixtures" / "formats"

# (file, format) pairs: every fixture, and small corpus files of each format when the corpus is here.
SAMPLES: list[tuple[Path, str]] = [
    (FIX / "dancer.non", "non"), (FIX / "colour.non", "non"), (FIX / "pair.nonpack", "nonpack"),
    (FIX / "small.nin", "nin"), (FIX / "small.mk", "mk"), (FIX / "colour.g", "g"),
    (FIX / "tiny-question.txt", "tournament"), (FIX / "tiny-question.solution.txt", "tournament-solution"),
    (FIX / "letters.txt", "letters"), (FIX / "grids.txt", "grid"), (FIX / "tiny.sgriddler", "sgriddler"),
]
CORPUS_SAMPLES = [
    ("nonogram-db/db/webpbn/1.non", "non"),
    ("webpbn-survey/xml-free/webpbn-color-00047.xml", "xml"),
    ("number-loom/puzzles/take_two.xml", "xml"),
    ("jwilk-nonogram/data/data001.nin", "nin"),
    ("pbnsolve-examples/examples/bird2.g", "g"),
    ("pbnsolve-examples/examples/c++.mk", "mk"),
    ("nonny/data/puzzles/color/rainbow.non", "non"),
    ("liorsinai-nonogramsolvercpp/collections/rosetta_code_puzzles.txt", "letters"),
    ("picross-solver/inputs/test_pattern_01.txt", "grid"),
    ("liorsinai-nonogramsolvercpp/puzzles/bear.txt", "non"),
]
SAMPLES += [(CORPUS / rel, fmt) for rel, fmt in CORPUS_SAMPLES if (CORPUS / rel).is_file()]
DATA = [(p.read_bytes(), fmt, p.name) for p, fmt in SAMPLES]

HUGE = [b"99999999999999999999", b"1000000000000000000", b"-1", b"-99999", b"10001", b"0", b"4294967296",
        b"1e400", b"\xff\xfe", b"<!ENTITY x 'y'>", b"====", b"$", b"color a #zz", b'"', b"\x00"]


@st.composite
def mutated(draw):
    data, fmt, name = draw(st.sampled_from(DATA))
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "truncate", "insert", "delete_line", "dup_line", "random"]))
        if not data:
            break
        if op == "flip":
            i = draw(st.integers(0, len(data) - 1))
            data[i] = draw(st.integers(0, 255))
        elif op == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
        elif op == "insert":
            i = draw(st.integers(0, len(data)))
            data[i:i] = draw(st.sampled_from(HUGE))
        elif op in ("delete_line", "dup_line"):
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            if op == "delete_line":
                del lines[i]
            else:
                lines.insert(i, lines[i])
            data = bytearray(b"\n".join(lines))
        else:
            i = draw(st.integers(0, len(data)))
            data[i:i] = draw(st.binary(min_size=1, max_size=8))
    return bytes(data), fmt, name


def read_bytes_as(data: bytes, fmt: str, name: str) -> None:
    """What load() does after reading the file: decode, then parse as `fmt` and as whatever the
    content sniffs as."""
    text = decode(data, name)
    loads(text, fmt, name)
    guessed = sniff(text)
    if guessed is not None and guessed != fmt:
        loads(text, guessed, name)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_files_raise_only_nonocp_errors(case):
    data, fmt, name = case
    try:
        read_bytes_as(data, fmt, name)
    except ParseError as e:
        assert str(e).startswith(name), str(e)
    except NonocpError:
        pass


@settings(max_examples=examples(150), deadline=None)
@given(st.binary(max_size=300), st.sampled_from(sorted(n for n, f in FORMATS.items() if f.reader)))
def test_random_bytes_raise_only_nonocp_errors(data, fmt):
    try:
        loads(decode(data, "r"), fmt, "r")
    except NonocpError:
        pass


@settings(max_examples=examples(150), deadline=None)
@given(st.binary(max_size=200))
def test_pbm_garbage_raises_only_nonocp_errors(body):
    for head in (b"P4\n3 2\n", b"P1\n3 2\n", b"P4\n", b"P1 99999999 2\n", b"P4 #c\n2"):
        try:
            read_pbm(head + body, "x.pbm")
        except NonocpError:
            pass


@pytest.mark.parametrize(("data", "fmt", "name"), DATA, ids=[d[2] for d in DATA])
def test_unmutated_samples_read(data, fmt, name):
    assert loads(decode(data, name), fmt, name)
