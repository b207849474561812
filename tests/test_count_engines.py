"""Every engine on count-and-contiguity puzzles: the same solutions as the brute-force oracle on random small
puzzles (unique, several, none), a random grid among the solutions of its own clues, fixed cells honoured,
and the engines agreeing with each other on bigger puzzles."""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import examples
from nonocp.core.counts import Count
from nonocp.core.grid import Grid
from nonocp.engines import SolveOptions
from oracle import brute_force
from strategies import count_puzzle_from_grid, count_puzzles_with_grid


def random_puzzle(rnd: random.Random, max_side: int, colours: tuple[int, ...]):
    """A count puzzle made from a random grid (cells at random, or runs so that flags vary), sometimes changed so
    that its grid no longer fits: a flag flipped (such a puzzle may still have other solutions, or none)."""
    ncolors = rnd.choice(colours)
    w, h = rnd.randint(2, max_side), rnd.randint(2, max_side)
    cells = []
    longest = rnd.choice([1, 3])  # runs of up to 1 (salt and pepper: often several solutions) or 3 cells
    for _ in range(h):
        row = []
        while len(row) < w:
            row += [rnd.randrange(ncolors)] * rnd.randint(1, longest)
        cells.append(row[:w])
    p = count_puzzle_from_grid(Grid.from_rows(cells), ncolors)
    if rnd.random() < 0.4:
        rows = list(p.rows)
        r = rnd.randrange(h)
        clue = list(rows[r])
        big = [k for k, e in enumerate(clue) if e.count >= 2]
        if big:
            k = rnd.choice(big)
            clue[k] = Count(clue[k].count, not clue[k].together)
            rows[r] = tuple(clue)
            p = dataclasses.replace(p, rows=tuple(rows))
    return p


@functools.cache
def oracle_cases() -> list:
    """Random small puzzles with their every solution by brute force (computed once per run)."""
    rnd = random.Random(2024)
    out = []
    for _ in range(50):
        p = random_puzzle(rnd, 6, (2, 2, 3, 4))
        out.append((p, set(brute_force(p))))
    return out


def test_the_oracle_cases_cover_every_verdict():
    counts = [len(s) for _, s in oracle_cases()]
    assert 0 in counts and 1 in counts and any(n >= 2 for n in counts)


def test_every_solution_as_the_oracle(engine_name, engine):
    for p, solutions in oracle_cases():
        result = engine.solve(p, SolveOptions(max_solutions=None, time_limit=60))
        assert result.exhausted, (engine_name, p.rows, p.cols)
        assert len(result.solutions) == len(set(result.solutions))
        assert set(result.solutions) == solutions, (engine_name, p.rows, p.cols)
        assert str(result.status) == {0: "none", 1: "unique"}.get(len(solutions), "multiple")


def test_uniqueness_with_the_usual_limit(engine_name, engine):
    """max_solutions=2 (what `solve` asks): unique, multiple or none as the oracle counts."""
    for p, solutions in oracle_cases()[:20]:
        result = engine.solve(p, SolveOptions(max_solutions=2, time_limit=60))
        want = {0: "none", 1: "unique"}.get(len(solutions), "multiple")
        assert str(result.status) == want, engine_name
        assert set(result.solutions) <= solutions


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=count_puzzles_with_grid(max_size=4, ncolors_choices=(2, 3, 4)))
def test_a_random_grid_is_among_the_solutions_of_its_clues(engine, data):
    puzzle, grid = data
    result = engine.solve(puzzle.validate(), SolveOptions(max_solutions=None, time_limit=60))
    assert result.exhausted and grid in result.solutions
    assert all(puzzle.is_solution(g) for g in result.solutions)


def test_fixed_cells(engine_name, engine):
    if not engine.capabilities.fixed:
        pytest.skip(f"{engine_name} does not take fixed cells")
    rnd = random.Random(9)
    checked = 0
    for p, solutions in oracle_cases():
        if len(solutions) < 2:
            continue
        a, b = sorted(solutions, key=lambda g: g.cells)[:2]
        cell = next((r, c) for r in range(p.height) for c in range(p.width) if a.cells[r][c] != b.cells[r][c])
        colour = a.cells[cell[0]][cell[1]]
        mask = 1 << colour if rnd.random() < 0.5 else ((1 << len(p.palette)) - 1) & ~(1 << colour)
        result = engine.solve(p, SolveOptions(max_solutions=None, fixed={cell: mask}, time_limit=60))
        want = {g for g in solutions if mask >> g.cells[cell[0]][cell[1]] & 1}
        assert result.exhausted and set(result.solutions) == want, engine_name
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("seed", range(4))
def test_the_engines_agree_on_bigger_puzzles(engine_name, engine, seed):
    """8x8 to 10x10 with 3 to 5 colours: the first two solutions of each engine are solutions and the verdicts
    agree with cpsat's enumeration (the reference here: too big for brute force)."""
    from nonocp.engines import get_backend

    rnd = random.Random(300 + seed)
    p = random_puzzle(rnd, 10, (3, 4, 5))
    reference = get_backend("sat").solve(p, SolveOptions(max_solutions=3, time_limit=120))
    result = engine.solve(p, SolveOptions(max_solutions=3, time_limit=120))
    assert all(p.is_solution(g) for g in result.solutions)
    assert result.status == reference.status, engine_name
    assert len(result.solutions) == len(reference.solutions)


def test_cpsat_automaton_run_model_as_the_oracle():
    """cpsat's other model of runs (`--option count_runs=automaton`) finds the same solutions."""
    from conftest import backend_or_skip

    engine = backend_or_skip("cpsat")
    for p, solutions in oracle_cases():
        r = engine.solve(p, SolveOptions(max_solutions=None, extra={"count_runs": "automaton"}))
        assert r.exhausted and set(r.solutions) == solutions


@pytest.mark.parametrize("backend", ["cpsat", "sat", "native"])
def test_backbone_of_count_puzzles(backend):
    """Backbones by queries with fixed cells: per cell, exactly the colours its solutions show."""
    from conftest import backend_or_skip
    from nonocp.analysis.backbone import compute_backbone

    backend_or_skip(backend)
    for p, solutions in [case for case in oracle_cases() if len(case[1]) != 1][:6]:
        bb = compute_backbone(p, backend)
        want = [0] * (p.width * p.height)
        for g in solutions:
            for r, row in enumerate(g.cells):
                for c, v in enumerate(row):
                    want[r * p.width + c] |= 1 << v
        assert bb.exact and list(bb.possible) == want


def test_sat_proof_of_no_other_solution_checks(tmp_path):
    """--proof: the count encoding's CNF with the blocking clauses, and a DRAT refutation that checks."""
    from conftest import backend_or_skip
    from drat import read_dimacs, rup_check

    sat = backend_or_skip("sat")
    for p, solutions in [case for case in oracle_cases() if len(case[1]) <= 2][:4]:
        r = sat.solve(p, SolveOptions(max_solutions=None, extra={"proof_dir": str(tmp_path)}))
        assert r.exhausted and set(r.solutions) == solutions and r.proof is not None
        cnf = open(r.proof.cnf_path).read()
        assert rup_check(read_dimacs(cnf), open(r.proof.proof_path).read().splitlines())
