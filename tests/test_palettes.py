"""Palettes that cannot run out of symbols: big palettes through every reader and writer, and through the
CLI (a reader that ran out of symbols would raise StopIteration: a traceback, exit 1, and a whole `bench`
folder run lost)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from nonocp.core.grid import Grid
from nonocp.core.palette import WHITE, Color, Palette
from nonocp.core.puzzle import Meta, Puzzle, clues_of
from nonocp.formats import dumps, loads
from nonocp.formats._common import free_symbols

NONOCP = [sys.executable, "-m", "nonocp.cli"]


def stripes(n_colours: int, symbols: list[str] | None = None) -> Puzzle:
    """A puzzle with one row per colour (`n_colours` ink colours), each row a single block of its colour:
    every colour is used, and the puzzle has exactly one solution."""
    symbols = symbols or [f"c{k}"[:1] for k in range(n_colours)]
    colours = [WHITE] + [Color(f"colour {k}", f"#{(k * 2654435761) & 0xFFFFFF:06x}", symbols[k])
                         for k in range(n_colours)]
    grid = Grid(tuple((k + 1, k + 1, 0) for k in range(n_colours)))
    rows, cols = clues_of(grid)
    return Puzzle(rows, cols, Palette(tuple(colours)), Meta(title=f"{n_colours} colours", goal=grid))


def nonny_text(n: int) -> str:
    """A Nonny-dialect .non with `n` named colours and no display symbols."""
    lines = ["title \"many\"", "width 2", f"height {n}"]
    lines += [f"color col{k} {(k * 40503) & 0xFFFFFF:06X}" for k in range(n)]
    lines.append("rows")
    lines += [f"col{k} 1" for k in range(n)]
    lines.append("columns")
    lines.append(" ".join(f"col{k} 1" for k in range(n)))
    lines.append("0")
    return "\n".join(lines) + "\n"


def xml_text(n: int) -> str:
    """webpbn XML with `n` colours declared without `char`."""
    colours = "".join(f'<color name="k{k}">{(k * 40503) & 0xFFFFFF:06x}</color>' for k in range(n))
    rows = "".join(f'<line><count color="k{k}">1</count></line>' for k in range(n))
    col = "".join(f'<count color="k{k}">1</count>' for k in range(n))
    return (f'<?xml version="1.0"?><puzzleset><puzzle type="grid" defaultcolor="k0">{colours}'
            f'<clues type="columns"><line>{col}</line><line></line></clues>'
            f'<clues type="rows">{rows}</clues></puzzle></puzzleset>')


def test_free_symbols_never_run_out_and_skip_what_is_taken():
    taken = {"a", "b"}
    supply = free_symbols(taken, lambda ch: ch != "c")
    got = [next(supply) for _ in range(300)]
    assert got[:3] == ["d", "e", "f"]
    assert len(set(got)) == 300 and not {"a", "b", "c"} & set(got)
    assert all(len(ch) == 1 and ch.isprintable() and not ch.isspace() for ch in got)


@pytest.mark.parametrize("n", [52, 53, 60, 200])
def test_nonny_non_with_many_named_colours_reads(n):
    (p,) = loads(nonny_text(n), "non")
    assert len(p.palette) == n + 1
    assert len({c.symbol for c in p.palette.colors}) == n + 1
    assert p.rows[-1][0].color == n  # the last colour is its own palette entry


@pytest.mark.parametrize("n", [60, 61, 100, 255])
def test_xml_with_many_colours_without_char_reads(n):
    (p,) = loads(xml_text(n), "xml")
    assert len(p.palette) == n + 1  # the background (white, undeclared) and the n colours


@pytest.mark.parametrize("fmt", ["non", "xml", "json"])
@pytest.mark.parametrize("symbols", ["greek", "digits-and-quotes", "brackets"])
def test_big_palettes_round_trip_through_every_writer(fmt, symbols):
    """60 colours whose symbols no format can take as they are (digits, quotes, brackets, non-ASCII): the
    writers pick others, and the file reads back to the same puzzle (clues, goal, colours)."""
    n = 60
    pool = {
        "greek": [chr(0x3B1 + k) for k in range(25)] + [chr(0x410 + k) for k in range(35)],
        "digits-and-quotes": list("23456789,\"") + [chr(0x4E00 + k) for k in range(50)],
        "brackets": list("[]|") + [chr(0xC0 + k) for k in range(60) if chr(0xC0 + k) not in "×÷"][:57],
    }[symbols]
    assert len(set(pool)) == n
    p = stripes(n, pool)
    (q,) = loads(dumps(p, fmt), fmt)
    assert (q.rows, q.cols, q.meta.goal) == (p.rows, p.cols, p.meta.goal)
    assert [c.rgb for c in q.palette.colors] == [c.rgb for c in p.palette.colors]


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(2, 120), st.randoms(use_true_random=False))
def test_random_palettes_round_trip(n, rng: random.Random):
    chars = [chr(c) for c in range(0x21, 0x3000) if chr(c).isprintable() and not chr(c).isspace() and chr(c) != "0"]
    symbols = rng.sample(chars, n)
    p = stripes(n, symbols)
    for fmt in ("non", "xml", "json"):
        (q,) = loads(dumps(p, fmt), fmt)
        assert (q.rows, q.cols, q.meta.goal) == (p.rows, p.cols, p.meta.goal), fmt


@pytest.mark.parametrize("name, text", [("many.non", nonny_text(60)), ("many.xml", xml_text(70))])
def test_cli_solves_and_converts_big_palettes(tmp_path, name, text):
    """Through the real command: solved (exit 0, unique), converted to .non and read back."""
    src = tmp_path / name
    src.write_text(text, encoding="utf-8")
    r = subprocess.run([*NONOCP, "solve", str(src), "-b", "native", "-f", "json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert '"status": "unique"' in r.stdout
    out = tmp_path / "back.non"
    r = subprocess.run([*NONOCP, "convert", str(src), str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([*NONOCP, "show", str(out)], capture_output=True, text=True)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
