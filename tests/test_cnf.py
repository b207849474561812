"""The CNF encodings and the DIMACS writer: the written file, read back by an outside solver with only
its `c cell` header to decode models, has exactly the puzzle's solutions."""

from __future__ import annotations

import pysat.solvers as pysat_solvers
import pytest
from hypothesis import HealthCheck, given, settings

from conftest import examples
from nonocp.core.grid import Domains, Grid
from nonocp.core.puzzle import Block, Puzzle
from nonocp.encode.cnf import ENCODINGS, TRUE, encode_puzzle
from nonocp.encode.cnf_blocks import start_ranges
from oracle import brute_force
from strategies import puzzles_with_grid


def parse_dimacs(text: str):
    """(n_vars, clauses, cells) where cells maps (row, col, colour) -> literal, from the header."""
    clauses, current, cells, n_vars = [], [], {}, None
    for line in text.splitlines():
        if line.startswith("c cell ") and line.split()[2].isdigit():
            r, c, v, lit = map(int, line.split()[2:])
            cells[(r, c, v)] = lit
        elif line.startswith("p cnf"):
            n_vars = int(line.split()[2])
        elif line and not line.startswith("c"):
            for tok in line.split():
                if tok == "0":
                    clauses.append(current)
                    current = []
                else:
                    current.append(int(tok))
    return n_vars, clauses, cells


def models_as_grids(text: str, width: int, height: int) -> set[Grid]:
    _, clauses, cells = parse_dimacs(text)
    out = set()
    with pysat_solvers.Solver(name="m22", bootstrap_with=clauses) as s:
        while s.solve():
            model = set(s.get_model())
            grid = []
            for r in range(height):
                row = []
                for c in range(width):
                    on = [v for (rr, cc, v), lit in cells.items() if (rr, cc) == (r, c) and lit in model]
                    assert len(on) == 1, "exactly one colour per cell"
                    row.append(on[0])
                grid.append(row)
            out.add(Grid.from_rows(grid))
            s.add_clause([-lit for (rr, cc, v), lit in cells.items() if lit in model and abs(lit) != TRUE])
    return out


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=puzzles_with_grid(max_size=4, ncolors_choices=(2, 3)))
def test_written_cnf_has_exactly_the_puzzle_solutions(data):
    from nonocp.formats.cnf import puzzle_to_dimacs

    puzzle, _ = data
    text = puzzle_to_dimacs(puzzle)
    n_vars, clauses, _ = parse_dimacs(text)
    assert all(0 < abs(lit) <= n_vars for c in clauses for lit in c)
    assert models_as_grids(text, puzzle.width, puzzle.height) == set(brute_force(puzzle))


def test_dimacs_header_counts_match():
    from nonocp.formats.cnf import puzzle_to_dimacs

    puzzle = Puzzle(((Block(2),), (Block(1),)), ((Block(2),), (Block(1),)))
    text = puzzle_to_dimacs(puzzle)
    header = next(line for line in text.splitlines() if line.startswith("p cnf"))
    n_vars, n_clauses = map(int, header.split()[2:])
    _, clauses, _ = parse_dimacs(text)
    assert n_clauses == len(clauses) and n_vars == encode_puzzle(puzzle).n_vars


def test_start_ranges_pack_left_and_right():
    clue = (Block(2, 1), Block(1, 1), Block(3, 2))
    # same colour needs a gap, different colours may touch: 2 + 1 + 1 + 3 = 7 cells minimum
    assert start_ranges(clue, 10) == [(0, 3), (3, 6), (4, 7)]


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_domains_restrict_cells(encoding):
    puzzle = Puzzle(((Block(1),),) * 3, ((Block(1),),) * 3)  # 3x3 permutations: 6 solutions
    d = Domains(3, 3, 2)
    d.masks[0] = 0b10  # cell (0, 0) black
    cnf = encode_puzzle(puzzle, encoding, domains=d)
    sols = set()
    with pysat_solvers.Solver(name="g4", bootstrap_with=cnf.clauses) as s:
        while s.solve():
            g = cnf.decode(s.get_model())
            sols.add(g)
            s.add_clause(cnf.blocking_clause(g))
    assert len(sols) == 2 and all(g.cells[0][0] == 1 for g in sols)


def test_fully_decided_wrong_line_makes_the_formula_unsat():
    puzzle = Puzzle(((Block(1),),), ((Block(1),),))
    cnf = encode_puzzle(puzzle, fixed={(0, 0): 0b01})  # forced white, but the clue wants black
    with pysat_solvers.Solver(name="g4", bootstrap_with=cnf.clauses) as s:
        assert not s.solve()
