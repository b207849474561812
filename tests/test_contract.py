"""Every registered engine against its own declarations (nonocp.engines.contract): what its class says it
can do (capabilities), takes (variants, options) and reports (stats) is checked by doing it, so a claim
that is not true fails here. Runs every engine in the registry, or those named by `--backend`.

The answers themselves are checked against the brute-force oracle (tests/oracle.py) on tiny puzzles; the
conformance suite (tests/test_conformance.py) checks them at length.
"""

from __future__ import annotations

import pytest

from drat import read_dimacs, rup_check
from nonocp.core.errors import BackendUnavailable, NonocpError
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Block, Puzzle
from nonocp.core.result import Status
from nonocp.engines import ORACLE_ROLE, Capabilities, SolveOptions, backend_class, entry, get_backend
from nonocp.engines.contract import Settings, Stats
from oracle import brute_force
from strategies import palette_of, puzzle_from_grid


def B(*lengths: int, color: int = 1):
    return tuple(Block(n, color) for n in lengths)


PERMUTATIONS = Puzzle((B(1),) * 3, (B(1),) * 3)  # 6 solutions, nothing for line logic to decide
PERMUTATIONS_4 = Puzzle((B(1),) * 4, (B(1),) * 4)  # 24
NONE = Puzzle((B(2), B(1), ()), (B(1, 1), B(1), ()))  # totals agree, no solution
UNIQUE = Puzzle((B(1), B(3), B(1)), (B(1), B(3), B(1)))  # a plus sign
COLOURS = puzzle_from_grid(Grid.from_rows([[0, 0, 0], [0, 0, 1], [2, 1, 0]]), palette_of(3))  # two inks: 2
TINY = [PERMUTATIONS, NONE, UNIQUE, COLOURS]


@pytest.fixture(scope="module")
def backend(registered_engine):
    return get_backend(registered_engine)


def same(found, expected) -> bool:
    """The same grids, each once."""
    return len(found) == len(set(found)) == len(expected) and set(found) == set(expected)


def solutions(backend, puzzle, **kw):
    return backend.solve(puzzle, SolveOptions(max_solutions=None, **kw))


# ---- what the class declares -----------------------------------------------------------------------


def test_the_declarations_are_well_formed_and_agree_with_the_registry(registered_engine):
    cls = backend_class(registered_engine)
    assert cls.name == registered_engine
    assert isinstance(cls.capabilities, Capabilities)
    assert isinstance(cls.settings, Settings) and isinstance(cls.stats, Stats)
    assert all(isinstance(v, str) and v for v in cls.variants)
    known = entry(registered_engine)
    assert known is not None and known.summary
    # the size-bound engines, and only they, are the registry's oracles (left out of check and the benchmarks)
    assert (cls.capabilities.max_cells is not None) == (known.role == ORACLE_ROLE)


def test_declared_variants_construct_and_unknown_ones_are_refused(registered_engine, backend):
    for variant in backend.variants:
        assert get_backend(f"{registered_engine}:{variant}").available()
    with pytest.raises(BackendUnavailable):
        get_backend(f"{registered_engine}:no-such-variant")


def test_options_parse_check_and_change_how_not_what(registered_engine, backend):
    expected = {p: set(brute_force(p)) for p in (PERMUTATIONS, NONE)}
    for option in backend.settings:
        words = ["true", "false"] if option.values is bool else list(option.values)
        for word in words:
            extra = backend.settings.parse([f"{option.name}={word}"], registered_engine)
            assert extra == {option.name: word == "true" if option.values is bool else word}
            for puzzle, want in expected.items():
                got = backend.solve(puzzle, SolveOptions(max_solutions=None, extra=extra))
                assert got.exhausted and set(got.solutions) == want, (option.name, word)
        with pytest.raises(NonocpError, match=option.name):
            backend.settings.parse([f"{option.name}=no-such-value"], registered_engine)
        with pytest.raises(NonocpError, match=registered_engine):
            backend.solve(PERMUTATIONS, SolveOptions(extra={option.name: "no-such-value"}))
    with pytest.raises(NonocpError, match="no such option"):
        backend.settings.parse(["no_such_option=1"], registered_engine)


# ---- each capability, claimed or not, is what the engine does --------------------------------------


def test_colours(backend):
    if backend.capabilities.colours:
        result = solutions(backend, COLOURS)
        assert result.exhausted and same(result.solutions, brute_force(COLOURS))
    else:
        with pytest.raises(BackendUnavailable):
            backend.solve(COLOURS, SolveOptions())


def test_enumerate(backend):
    if not backend.capabilities.enumerate:
        pytest.skip("claims no enumeration: what it does with max_solutions=None is not specified")
    result = solutions(backend, PERMUTATIONS_4)
    assert result.exhausted and same(result.solutions, brute_force(PERMUTATIONS_4))


def test_fixed_cells(backend):
    cases = [
        (PERMUTATIONS, {(0, 0): 0b10}),  # ink at the corner: 2 of the 6
        (PERMUTATIONS, {(0, 0): 0b01, (1, 1): 0b01, (2, 2): 0b01}),  # the diagonal empty: 2
        (PERMUTATIONS, {(0, 0): 0}),  # no colour allowed: no solution
        (COLOURS, {(2, 1): 0b001}),  # background where one solution has ink: 1
        (UNIQUE, {(1, 1): 0b11}),  # no restriction at all
    ]
    for puzzle, fixed in cases:
        if not backend.capabilities.fixed:
            with pytest.raises(BackendUnavailable):
                solutions(backend, puzzle, fixed=fixed)
            continue
        want = {g for g in brute_force(puzzle) if all(m >> g.cells[r][c] & 1 for (r, c), m in fixed.items())}
        result = solutions(backend, puzzle, fixed=fixed)
        assert result.exhausted and set(result.solutions) == want, fixed


def test_proofs(backend, tmp_path):
    for i, (puzzle, status) in enumerate([(NONE, Status.NONE), (UNIQUE, Status.UNIQUE)]):
        folder = tmp_path / str(i)
        result = backend.solve(puzzle, SolveOptions(max_solutions=2, extra={"proof_dir": str(folder)}))
        assert result.status is status
        if not backend.capabilities.proofs:
            assert result.proof is None
            continue
        # the certificate: the puzzle's formula (with a clause blocking each solution found) and its refutation
        assert result.proof is not None and result.proof.proof_path is not None
        clauses = read_dimacs(open(result.proof.cnf_path).read())
        assert rup_check(clauses, open(result.proof.proof_path).read().splitlines())


def test_solution_callback(backend):
    seen = []
    if not backend.capabilities.on_solution:
        with pytest.raises(NonocpError, match="no solution callback"):
            backend.search(PERMUTATIONS, SolveOptions(), lambda grid, n: seen.append((grid, n)))
        return
    result = backend.search(PERMUTATIONS, SolveOptions(max_solutions=None), lambda grid, n: seen.append((grid, n)))
    assert result.exhausted and len(result.solutions) == 6
    assert seen == [(g, n) for n, g in enumerate(result.solutions, 1)]  # each one as found, in order


def test_budget(backend):
    """An engine that claims budgets stops when its CPU seconds or conflicts are spent, answering as at a time
    limit (what it found, never a verdict it did not reach), and a budget that is not spent changes nothing."""
    from nonocp.engines.contract import Budget

    expected = set(brute_force(PERMUTATIONS_4))
    for budget in (Budget(conflicts=0), Budget(cpu_seconds=0.0)):
        result = backend.solve(PERMUTATIONS_4, SolveOptions(max_solutions=None, budget=budget))
        assert set(result.solutions) <= expected
        if backend.capabilities.budget:
            assert not result.complete and not result.exhausted and result.status is not Status.UNIQUE, budget
    result = backend.solve(PERMUTATIONS_4, SolveOptions(max_solutions=None, budget=Budget(cpu_seconds=600,
                                                                                           conflicts=10**9)))
    assert result.exhausted and same(result.solutions, expected)


def test_narrowing(backend):
    if not backend.capabilities.narrows:
        with pytest.raises(NonocpError, match="no narrowing"):
            backend.narrow(UNIQUE, SolveOptions())
        return
    for puzzle in TINY:
        for fixed in (None, {(0, 0): 0b10}):
            narrowed = backend.narrow(puzzle, SolveOptions(fixed=fixed))
            want = [g for g in brute_force(puzzle)
                    if all(m >> g.cells[r][c] & 1 for (r, c), m in (fixed or {}).items())]
            if narrowed.contradiction:
                assert want == [], (puzzle, fixed)
                continue
            # sound: every solution keeps each cell's colour; the fixed cells are restricted
            for g in want:
                assert all(narrowed.masks[r * puzzle.width + c] >> k & 1 for r, row in enumerate(g.cells)
                           for c, k in enumerate(row))
            for (r, c), m in (fixed or {}).items():
                assert narrowed.masks[r * puzzle.width + c] & ~m == 0
    # line logic alone decides the plus sign: each cell narrowed to the one colour of its solution
    (plus,) = brute_force(UNIQUE)
    narrowed = backend.narrow(UNIQUE, SolveOptions())
    assert narrowed.masks == [1 << k for row in plus.cells for k in row]


def test_size_bound(backend):
    bound = backend.capabilities.max_cells
    side = 12 if bound is None else bound // 10 + 1
    too_big_for_a_bound = Puzzle((B(10),) * side, (B(side),) * 10)  # every cell inked: one solution
    if bound is None:
        assert backend.solve(too_big_for_a_bound, SolveOptions()).status is Status.UNIQUE
    else:
        with pytest.raises(BackendUnavailable, match="too big"):
            backend.solve(too_big_for_a_bound, SolveOptions())


# ---- what it reports -----------------------------------------------------------------------------------


def test_stats_follow_the_declared_schema(backend, tmp_path):
    runs = [SolveOptions(max_solutions=m) for m in (None, 1, 2)]
    runs += [SolveOptions(fixed={(0, 0): 0b10}), SolveOptions(time_limit=60, progress=lambda d: None)]
    if backend.capabilities.proofs:
        runs.append(SolveOptions(extra={"proof_dir": str(tmp_path)}))
    for puzzle in TINY:
        for options in runs:
            result = backend.solve(puzzle, options)
            assert backend.stats.problems(result.stats) == [], (puzzle, options)


def test_the_template_is_a_complete_backend_without_a_search():
    from nonocp.engines.TEMPLATE import TemplateBackend

    template = TemplateBackend()  # every method of the contract is there (the base class is abstract)
    assert template.available() and template.settings.names() == ["example"]
    with pytest.raises(NotImplementedError, match="copy it"):
        template.solve(PERMUTATIONS, SolveOptions())
    with pytest.raises(BackendUnavailable):
        TemplateBackend("no-such-variant")


def test_the_help_text_names_every_registered_engine_and_the_default():
    from nonocp.engines import DEFAULT_BACKEND, engine_help, names

    text = engine_help()
    assert all(name in text for name in names())
    assert f"{DEFAULT_BACKEND} (the default)" in text and "brute (tiny puzzles only)" in text


def test_a_puzzle_that_counting_refutes_reports_the_counting_stats():
    from nonocp.engines.contract import COUNTING_STATS
    from nonocp.engines.solve import solve

    totals_differ = Puzzle((B(2), B(1)), (B(1), B(1)))  # 3 ink cells by rows, 2 by columns
    result = solve(totals_differ, "brute")
    assert result.status is Status.NONE and result.stats["proof"] == "counting"
    assert COUNTING_STATS.problems(result.stats) == []
