"""A template for a new engine: copy this file to `engines/<name>.py` and follow the steps.

The contract every engine meets is in engines/contract.py (read its docstring first); engines/brute.py is
a small complete engine made from this template. Adding an engine touches three files:

1. `engines/<name>.py`: this file, renamed, with the steps below done.
2. `engines/__init__.py`: one line in REGISTRY,
       Entry("<name>", "nonocp.engines.<name>:<Name>Backend", "<one line for help texts>", <role>),
   where the role is INDEPENDENT_ROLE (its own search: `check` compares it with the others), HYBRID_ROLE
   (built from other engines) or ORACLE_ROLE (tiny puzzles only: capabilities.max_cells is set). From
   that line on, `nonocp backends`, the help texts, `check`, the benchmarks and the tests know it.
3. `tests/test_<name>.py`: tests of what is particular to it (its options, variants, limits). What every
   engine must do is tested without it: tests/test_contract.py checks each declaration below by doing it,
   and the conformance suite (tests/test_conformance.py and the other tests that take the `engine`
   fixture) runs it against the brute-force oracle, the other engines and the corpus. Run them alone
   with `pytest --backend <name>`, then the command-line contract: `../shared/bin/check-contract <name>`.

Then say in docs/engines.md (and the README's engines table) what it is for, and measure it in benchmarks/
(results go in benchmarks/results/<topic>.md).

Rules that keep the rest of the package working: import the engine's library inside the methods (or
lazily), never at module top, so that `nonocp --help` stays fast and an engine whose library is missing
reports itself unavailable instead of breaking every command; never print; raise NonocpError (or
BackendUnavailable) with a one-line message for anything the user can get wrong.
"""

from __future__ import annotations

import time

from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import SolveResult, status_of
from nonocp.engines.contract import Backend, Capabilities, Setting, Settings, SolveOptions, Stat, Stats


class TemplateBackend(Backend):
    # Step 1: the name users type after --backend (the same as in the registry line).
    name = "template"

    # Step 2: the words `name:variant` takes; the constructor gets one ("" for the default). The base class
    # refuses any other with a one-line error; override __init__ for variants that combine or are open.
    variants = ()

    # Step 3: the settings `nonocp solve --option KEY=VALUE` may give it. They arrive in SolveOptions.extra,
    # checked; read them with `self.settings.get(options.extra, "key", self.name)`.
    settings = Settings(
        Setting("example", bool, False, "what it switches, in a few words"),
    )

    # Step 4: what it can do, honestly: tests/test_contract.py checks each claim (a True one by doing it, a
    # False one by seeing it refused or left out). Set max_cells to refuse bigger puzzles.
    capabilities = Capabilities(colours=True, enumerate=True, fixed=True, proofs=False, on_solution=False)

    # Step 5: every key it may put in SolveResult.stats, with its type and meaning (the tests check that it
    # reports nothing else and nothing of another type); `always` lists the keys every answer has.
    stats = Stats(
        Stat("nodes", int, "search nodes"),
        always=("nodes",),
    )

    # Step 6: available() is True when its library can be imported here (find it, do not import it);
    # version() says which library version (or the engine's own).
    def available(self) -> bool:
        return True

    def version(self) -> str:
        return "0"

    # Step 7: solve. Whatever the method, the answer obeys the contract:
    # - refuse what the capabilities rule out (self.check_puzzle), before any work;
    # - keep options.fixed (cell -> mask of allowed palette indices) when capabilities.fixed;
    # - find up to options.max_solutions distinct solutions (None: all), each one a solution of the puzzle;
    # - `exhausted` only when the search proved there is nothing else;
    # - stop at options.deadline() and answer with what it has (status_of turns it into a timeout);
    # - call options.progress({"solutions": n}) now and then if it likes; never print.
    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        self.check_puzzle(puzzle, options)
        start = time.monotonic()
        limit = options.max_solutions if options.max_solutions is None else max(1, options.max_solutions)
        example = self.settings.get(options.extra, "example", self.name)
        solutions, exhausted, timed_out, nodes = self._search(puzzle, options, limit, example)
        return SolveResult(
            status=status_of(len(solutions), exhausted, limit, timed_out),
            solutions=tuple(solutions),
            exhausted=exhausted,
            backend=self.label,
            seconds=time.monotonic() - start,
            stats={"nodes": nodes},
        )

    def _search(self, puzzle: Puzzle, options: SolveOptions, limit: int | None,
                example: bool) -> tuple[list[Grid], bool, bool, int]:
        """Your search: (solutions found, search exhausted, stopped by the deadline, nodes)."""
        raise NotImplementedError("the template has no search: copy it and write yours")

    # Step 8 (only with capabilities.on_solution): search(puzzle, options, on_solution) is solve() in this
    # process, calling on_solution(grid, solutions so far) as each grid is found. The auto engine's race
    # uses it to stream solutions out of a child process.
