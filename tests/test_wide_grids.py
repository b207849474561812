"""Grids with lines of thousands of cells: the time limit holds in every phase of a solve.

Lines over the compiled core's 127 cells run on the reference core (Python big-int bitsets). Its line
solver reversed the right-to-left pass's sets as one packed integer, which costs the square of the line's
length times its blocks (1.7 CPU s for one 10,000-cell line of 2,000 blocks), and the core read the clock
once per 128 line solves; the CNF sizing of auto's SAT stage built every cell's options without a look at
the clock and every line's template before asking whether the formula could fit."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest

from nonocp.core.errors import OutOfTime
from nonocp.core.puzzle import Puzzle, line_clue
from nonocp.engines.native import core, line


def random_grid(height: int, width: int, density: float, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [[1 if rng.random() < density else 0 for _ in range(width)] for _ in range(height)]


def clues(grid: list[list[int]]) -> tuple[list, list]:
    return [line_clue(r) for r in grid], [line_clue([r[c] for r in grid]) for c in range(len(grid[0]))]


def puzzle_of(grid: list[list[int]]) -> Puzzle:
    return Puzzle(*clues(grid))


def test_long_lines_are_mirrored_set_by_set_with_the_same_answer(monkeypatch):
    """Both ways of mirroring the backward pass (one packed integer; each set alone) give the same line
    solve, on long lines of many blocks with cells already decided, and the set-by-set way keeps a
    10,000-cell line of 2,000 blocks to a fraction of a CPU second (1.7 s packed)."""
    rng = random.Random(36)
    for n in (300, 1000, 4000):
        cells = [1 if rng.random() < 0.6 else 0 for _ in range(n)]
        clue = tuple((b.length, b.color) for b in line_clue(cells))
        full = (1 << n) - 1
        black = sum(1 << i for i, v in enumerate(cells) if v)
        known = sum(1 << i for i in rng.sample(range(n), n // 10))  # a tenth of the cells decided
        masks = (full & ~(black & known), full & ~(known & ~black))
        monkeypatch.setattr(line, "PACKED_BITS", 1 << 40)
        packed = line.solve_line(clue, n, masks)
        monkeypatch.setattr(line, "PACKED_BITS", 0)
        alone = line.solve_line(clue, n, masks)
        assert packed == alone
        assert packed is not None and packed[1] & black == black and packed[0] & ~black & full == ~black & full
    monkeypatch.undo()
    cells = [1 if rng.random() < 0.7 else 0 for _ in range(10_000)]
    clue = tuple((b.length, b.color) for b in line_clue(cells))
    assert len(clue) > 1500
    full = (1 << 10_000) - 1
    start = time.process_time()
    assert line.solve_line(clue, 10_000, (full, full)) is not None
    assert time.process_time() - start < 0.5  # CPU: 0.02-0.03 s; 1.7 s packed


def test_the_reference_core_checks_its_deadline_before_each_fresh_line_solve():
    """A deadline already past stops propagation at its first line solve (before: after 128 of them, which
    on 10,000-cell lines of 2,000 blocks was minutes)."""
    p = puzzle_of(random_grid(20, 300, 0.6, 1))
    c = core.core_for(p)
    assert c.implementation == "python"  # 300-cell rows: past the compiled core's word
    c.deadline = time.monotonic() - 1
    with pytest.raises(OutOfTime):
        c.propagate()
    assert c.counters()["line_solves"] == 1


def test_cell_options_and_sizing_stop_at_the_deadline_and_the_bound():
    """The CNF encoder's per-cell work looks at the clock a row at a time, and cnf_size hears the size so
    far after each line's templates, so a formula too big for memory is refused after one line, not after
    gigabytes of templates."""
    from nonocp.encode.cnf import CnfSize, cell_options, cnf_size

    p = puzzle_of(random_grid(40, 300, 0.6, 2))
    with pytest.raises(OutOfTime):
        cell_options(p, deadline=time.monotonic() - 1)
    heard: list[CnfSize] = []

    class TooBig(Exception):
        pass

    def bound(size: CnfSize) -> None:
        heard.append(size)
        if len(heard) == 3:
            raise TooBig

    with pytest.raises(TooBig):
        cnf_size(p, bound=bound)
    assert [s.clauses for s in heard] == sorted(s.clauses for s in heard)
    assert heard[0].clauses < heard[2].clauses
    # unbounded, the last size heard is the formula's
    heard.clear()
    assert cnf_size(p, bound=heard.append) == heard[-1]
    assert len(heard) == p.height + p.width


def test_a_sat_formula_too_big_for_the_budget_is_refused_before_it_is_built(monkeypatch):
    """The sat engine's plan on a puzzle whose formula cannot fit: OverBudget, "at least" so many clauses,
    after sizing a part of it."""
    from nonocp.engines import get_backend
    from nonocp.engines.contract import SolveOptions
    from nonocp.engines.memory import OverBudget

    p = puzzle_of(random_grid(60, 600, 0.6, 3))
    sat = get_backend("sat")
    with pytest.raises(OverBudget, match="at least"):
        sat.plan(p, SolveOptions(extra={"memory": 1}))


@pytest.mark.parametrize("engine", ["native", "auto"])
def test_solve_of_a_random_5000_wide_grid_ends_at_its_time_limit(tmp_path, engine):
    """`solve -t 2` on a random 200x5000 grid: 25 CPU s before (the clock read once per 128 solves of
    5000-cell lines, each 0.2 s), about 3 now. Bounded in CPU seconds of the command, not the clock."""
    grid = random_grid(200, 5000, 0.7, 5)
    rows, cols = clues(grid)
    text = lambda clue: ",".join(str(b.length) for b in clue) or "0"  # noqa: E731
    path = tmp_path / "wide.non"
    path.write_text("width 5000\nheight 200\nrows\n" + "".join(text(c) + "\n" for c in rows)
                    + "columns\n" + "".join(text(c) + "\n" for c in cols))
    code = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
            "u = resource.getrusage(resource.RUSAGE_CHILDREN); print(r.returncode, u.ru_utime + u.ru_stime); "
            "print(r.stdout[:300], r.stderr[-300:])")
    out = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "nonocp.cli", "solve", str(path),
                          "-b", engine, "-t", "2"], capture_output=True, text=True, timeout=900)
    first, rest = out.stdout.split("\n", 1)
    exit_code, cpu = int(first.split()[0]), float(first.split()[1])
    assert exit_code == 3 and "time limit reached" in rest, out.stdout
    assert cpu < 10.0, f"{cpu:.1f} CPU s"


def test_blocks_of_many_colours_still_solve_on_long_lines():
    """The set-by-set mirroring on a three-colour line (colours may touch): the line itself survives, and
    on a line of mostly decided cells the answer is exactly the line."""
    rng = random.Random(7)
    n = 800
    cells = [rng.choice((0, 1, 1, 2, 2)) for _ in range(n)]
    blocks = tuple((b.length, b.color) for b in line_clue(cells))
    full = (1 << n) - 1
    res = line.solve_line(blocks, n, (full, full, full))
    assert res is not None
    for i, v in enumerate(cells):
        assert res[v] >> i & 1
    exact = tuple(sum(1 << i for i, v in enumerate(cells) if v == k) for k in range(3))
    assert line.solve_line(blocks, n, exact) == exact
