"""Letter-coded collections (Lior Sinai's compact format; Rosetta Code's nonogram task).

    <free description line(s)>
    --<title>                   a line starting with `--` opens a puzzle (`----title` too)
    HGEG EDCC CCBC ...          row clues: one token per row, top to bottom
    A A B D G I BH ...          column clues: one token per column, left to right

Each letter is one block: `A`=1, `B`=2, ... `Z`=26, and runs longer than 26 continue with the next
code points after `Z`. `@` (the code point before `A`) is an empty line. A titled block with no clue
lines is skipped (files end with a bare `----`).
"""

from __future__ import annotations

import re

from nonocp.core.errors import ParseError
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Block, Clue, Meta, Puzzle
from nonocp.formats._common import MAX_SIDE, build_puzzle, check_clues, check_size

_TOKENS = re.compile(r"^[@A-Z\[-\uffff ]+$")


def sniff(text: str) -> bool:
    lines = [ln.strip() for ln in text.splitlines()[:40] if ln.strip()]
    for k, ln in enumerate(lines[:-1]):
        if ln.startswith("--"):
            nxt = lines[k + 1]
            return bool(re.fullmatch(r"[@A-Z][@A-Z ]*", nxt))
    return False


def _clue(token: str, path: str, line: int, what: str) -> Clue:
    if token == "@":
        return ()
    out = []
    for ch in token:
        n = ord(ch) - 64
        if n < 1 or n > MAX_SIDE:
            raise ParseError(path, line, f"{what}: {ch!r} is not a block letter (A=1, B=2, ...; @ = empty)")
        out.append(Block(n, 1))
    return tuple(out)


def read_letters(text: str, path: str = "<string>") -> list[Puzzle]:
    lines = text.splitlines()
    blocks: list[tuple[int, str, list[tuple[int, str]]]] = []
    for k, ln in enumerate(lines):
        s = ln.strip()
        if s.startswith("--"):
            blocks.append((k + 1, s.lstrip("-").strip(), []))
        elif s and blocks:
            blocks[-1][2].append((k + 1, s))
        # lines before the first title: free description, ignored
    puzzles = []
    for header, title, body in blocks:
        if not body:
            continue
        if len(body) != 2:
            ln = body[2][0] if len(body) > 2 else body[-1][0]
            raise ParseError(path, ln, f"puzzle {title[:40]!r} needs exactly a row line and a column line, "
                             f"found {len(body)} lines")
        (rl, rtext), (cl, ctext) = body
        row_tokens, col_tokens = rtext.split(), ctext.split()
        check_size(len(col_tokens), len(row_tokens), path, header)
        rows = [_clue(t, path, rl, f"row {k}") for k, t in enumerate(row_tokens, 1)]
        cols = [_clue(t, path, cl, f"column {k}") for k, t in enumerate(col_tokens, 1)]
        check_clues(rows, len(cols), path, [rl] * len(rows), "row")
        check_clues(cols, len(rows), path, [cl] * len(cols), "column")
        puzzles.append(build_puzzle(rows, cols, Palette.black_and_white(), Meta(title=title), path, header))
    if not puzzles:
        raise ParseError(path, len(lines) or 1, "no `--title` block with clues")
    return puzzles
