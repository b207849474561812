"""The computer-tournament batch format (TAAI / TCGA / ICGA nonogram contests).

Question files: `$N`, then the COLUMN clues (one line each, numbers separated by tabs), then the ROW
clues; many puzzles per file. Contest puzzles are 25x25, so a block holds 50 clue lines; other square
sizes are read when a block has 2n lines. An empty clue is an empty line.

Solution files: `$N`, then the rows of the grid, cells `0`/`1` separated by tabs.

Solutions as goals: reading a question file also reads its solution file when one sits beside it,
and each puzzle gets its solution (matched by `$N`) as `meta.goal`. "Beside" means, for
`.../question/NAME.txt`, the file `.../solution/NAME.txt`; or, in the same folder, `STEM.solution.txt`,
`STEM-solution.txt` or `STEM_solution.txt`. A broken solution file is an error naming that file.
A solution file read on its own (format `tournament-solution`) gives each grid as a puzzle: its clues
plus the grid as goal. Contest solutions are only the generating boards; most puzzles have others.
"""

from __future__ import annotations

import os
import re

from nonocp.core.errors import ParseError
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.core.puzzle import Meta, Puzzle, clues_of
from nonocp.formats._common import (
    MAX_SIDE,
    check_size,
    clue_cache,
    number_clue_need,
    read_text,
)

_HEADER = re.compile(r"^\$(\d+)\s*$")
_SOLUTION_ROW = re.compile(r"^[01](?:[\t ,]*[01])*\s*$")
CONTEST_SIZE = 25
_NO_SEPARATORS = str.maketrans("", "", "\t ,\r")


def sniff(text: str) -> bool:
    first = next((ln for ln in text.splitlines()[:20] if ln.strip()), "")
    if not _HEADER.match(first.strip()):
        return False
    return not sniff_solution(text)


def sniff_solution(text: str) -> bool:
    """A `$N` block whose lines are all 0/1 rows, as many rows as cells per row: a solution file."""
    lines = text.splitlines()
    body: list[str] = []
    for ln in lines[1:200]:
        if _HEADER.match(ln.strip()):
            break
        if ln.strip():
            body.append(ln)
    if not lines or not _HEADER.match(lines[0].strip()) or not body:
        return False
    if not all(_SOLUTION_ROW.match(ln.strip()) for ln in body):
        return False
    widths = {len(re.findall(r"[01]", ln)) for ln in body}
    return len(widths) == 1 and widths.pop() == len(body)


_SPLIT = re.compile(r"^\$", re.MULTILINE)
_NUMBER = re.compile(r"(\d+)\s*")


def _blocks(text: str, path: str) -> list[tuple[int, int, list[str]]]:
    """[(number, header line, body lines)]; text before the first `$` line must be blank.

    Split with one regex and C-level splitlines: these files are 51,000 lines each."""
    parts = _SPLIT.split(text)
    before = parts[0]
    if before.strip():
        k = next(i for i, ln in enumerate(before.splitlines()) if ln.strip())
        raise ParseError(path, k + 1, "text before the first `$N` header")
    line = before.count("\n") + 1
    out: list[tuple[int, int, list[str]]] = []
    for part in parts[1:]:
        lines = part.splitlines()
        head = lines[0] if lines else ""
        m = _NUMBER.fullmatch(head)
        if not m:
            raise ParseError(path, line, f"bad puzzle header {('$' + head).strip()[:40]!r} (expected `$N`)")
        number = int(m.group(1)) if len(m.group(1)) <= 9 else -1
        del lines[0]
        out.append((number, line, lines))
        line += part.count("\n")
    if not out:
        raise ParseError(path, 1, "no `$N` puzzle header")
    return out


def _side(body: list[str], path: str, header: int) -> int:
    """The puzzle side n for a block of clue lines (2n lines; trailing blank lines may be padding)."""
    n = len(body)
    if n >= 2 * CONTEST_SIZE and not any(s.strip() for s in body[2 * CONTEST_SIZE:]):
        return CONTEST_SIZE
    while n % 2 and n and not body[n - 1].strip():
        n -= 1
    if n == 0 or n % 2:
        raise ParseError(path, header + len(body), f"puzzle block has {len(body)} lines; expected an even "
                         f"number (columns then rows), {2 * CONTEST_SIZE} for a contest puzzle (truncated?)")
    return n // 2


def read_tournament(text: str, path: str = "<string>") -> list[Puzzle]:
    goals = _goals_beside(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    bw = Palette.black_and_white()
    cache = clue_cache()
    puzzles = []
    for number, header, body in _blocks(text, path):
        n = _side(body, path, header)
        check_size(n, n, path, header)
        clues = []
        for k in range(2 * n):
            hit = cache.get(body[k])
            clue, need = hit if hit is not None else number_clue_need(body[k], path, header + 1 + k)
            if need > n:
                kind, index = ("column", k + 1) if k < n else ("row", k - n + 1)
                msg = f"{kind} {index}: the clue needs {need} cells but the line has {n}"
                raise ParseError(path, header + 1 + k, msg)
            clues.append(clue)
        cols, rows = clues[:n], clues[n:]
        goal = goals.get(number) if goals else None
        if goal is not None and (goal.width != n or goal.height != n):
            raise ParseError(solution_path_for(path) or path, None,
                             f"solution ${number} is {goal.width}x{goal.height} but the puzzle is {n}x{n}")
        meta = Meta(title=f"{stem} ${number}", source=path, goal=goal)
        puzzles.append(_puzzle(rows, cols, bw, meta))
    return puzzles


def _puzzle(rows, cols, palette, meta) -> Puzzle:  # noqa: ANN001 - hot path, checks done by the caller
    return Puzzle(tuple(rows), tuple(cols), palette, meta)


def read_solutions(text: str, path: str = "<string>") -> dict[int, Grid]:
    grids: dict[int, Grid] = {}
    for number, header, body in _blocks(text, path):
        rows = [ln for ln in body if ln.strip()]
        if not rows:
            raise ParseError(path, header, f"${number}: no grid rows")
        if len(rows) > MAX_SIDE:
            raise ParseError(path, header, f"${number}: over {MAX_SIDE} rows")
        cells = []
        width = None
        for k, ln in enumerate(rows):
            digits = ln.translate(_NO_SEPARATORS)
            if digits.strip("01"):
                raise ParseError(path, header + 1 + k, f"${number}: solution cells must be 0 or 1")
            if width is None:
                width = len(digits)
                check_size(width, len(rows), path, header)
            elif len(digits) != width:
                raise ParseError(path, header + 1 + k, f"${number}: row has {len(digits)} cells, expected {width}")
            cells.append(tuple(map(int, digits)))
        if number in grids:
            raise ParseError(path, header, f"${number} appears twice")
        grids[number] = Grid(tuple(cells))
    return grids


def read_solution_file(text: str, path: str = "<string>") -> list[Puzzle]:
    """Each solution grid as a puzzle: its clues, with the grid as goal."""
    stem = os.path.splitext(os.path.basename(path))[0]
    out = []
    for number, grid in read_solutions(text, path).items():
        rows, cols = clues_of(grid)
        meta = Meta(title=f"{stem} ${number}", source=path, goal=grid)
        out.append(Puzzle(rows, cols, Palette.black_and_white(), meta))
    return out


def solution_path_for(path: str) -> str | None:
    """The solution file that sits beside question file `path`, if any."""
    if not path or path.startswith("<"):
        return None
    folder, name = os.path.split(os.path.abspath(path))
    stem, ext = os.path.splitext(name)
    candidates = []
    if os.path.basename(folder) == "question":
        candidates.append(os.path.join(os.path.dirname(folder), "solution", name))
    candidates += [os.path.join(folder, f"{stem}{sep}solution{ext}") for sep in (".", "-", "_")]
    for c in candidates:
        if os.path.isfile(c):
            return c
    return None


def _goals_beside(path: str) -> dict[int, Grid] | None:
    sol = solution_path_for(path)
    if sol is None:
        return None
    return read_solutions(read_text(sol), sol)
