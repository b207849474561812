"""The engine contract: what every engine declares and what it must do. engines/TEMPLATE.py walks through it.

An engine is a subclass of `Backend` registered by one line in `nonocp.engines.REGISTRY`. It declares, as
class attributes that the registry, the command line and the tests read without running it:

- `name` and `variants`: `get_backend("name:variant")` calls `cls(variant)` ("" for the default). An
  unknown variant raises BackendUnavailable naming the ones it knows (one line, no traceback).
- `settings`: a `Settings` schema of what `nonocp solve --option KEY=VALUE` may set (one `Setting` each; the
  word `options` is kept for `SolveOptions`, what one solve is asked); the values reach the engine in
  `SolveOptions.extra`, already checked (`Settings.parse`), and the engine reads them with `Settings.get`,
  which also checks values passed from Python.
- `capabilities`: what it can do, each independent of the others (`Capabilities`); tests/test_contract.py
  checks every claim on every registered engine.
- `stats`: the schema of `SolveResult.stats` (`Stats`): each key it may report, its type and meaning.
  The stats stay a plain dict so that the JSON output is what it always was; the tests check that an
  engine reports nothing undeclared and nothing of the wrong type.

What `solve(puzzle, options)` must do, whatever the engine:
- answer with `SolveResult`, its status from `nonocp.core.result.status_of` (the one verdict rule);
- every grid in `solutions` is a solution of the puzzle, distinct, at most `options.max_solutions`;
  `exhausted` only when the search proved there is nothing more to find;
- honour `options.time_limit` (answer `timeout` with the solutions found so far) and `options.fixed`
  (restrict those cells first) when its capabilities say so, and refuse clearly (BackendUnavailable, see
  `Backend.check_puzzle`) what they say it cannot take: colours, a puzzle above `max_cells`, fixed cells;
- honour `options.budget` when `capabilities.budget` says so: stop when the work it may do is spent and answer
  as at a time limit (what was found, not complete);
- collect solutions in a `nonocp.engines.found.Found` made from the options (`Found.of(options)`): it calls
  `options.on_solution` once per solution as it is found and holds only `options.keep` of them, and
  `SolveResult.found` is its count; stop soon after `options.cancel` is cancelled (as at a time limit);
- never print (core code never does); report progress through `options.progress` if at all.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from nonocp.core.errors import BackendUnavailable, NonocpError

if TYPE_CHECKING:
    from nonocp.core.cancel import Cancel
    from nonocp.core.grid import Grid
    from nonocp.core.puzzle import Puzzle
    from nonocp.core.result import SolveResult


@dataclass(frozen=True)
class SolveOptions:
    """max_solutions=None means enumerate all. time_limit in seconds (None = no limit).

    `progress`, when set, is called by engines with a short dict now and then (never printed by core code).
    `fixed` restricts cells before solving: {(row, col): bit mask of allowed palette indices}. An engine
    whose `capabilities.fixed` is True honours it (backbone queries and the auto hybrid rely on it); a cell
    whose mask is 0 makes the puzzle unsolvable.
    `extra` carries engine-specific settings (the engine's `options`, and programmatic ones such as
    "proof_dir") without widening this type.
    `budget`: how much work the search may do (a stage of a hybrid: see Budget), beside the time limit.

    Streaming (nonocp.engines.found.Found): `on_solution(grid)` hears every solution as it is found, in this
    process, once each; `keep` is how many of them the result holds (None: all). With `keep` small, an
    enumeration's memory stays flat however many solutions it runs into: `solve --all` writes each one as
    it comes, `nonocp.solutions()` yields it.
    `cancel` (a nonocp.Cancel) stops the search from another thread: it answers as at a time limit, soon.
    """

    max_solutions: int | None = 2
    time_limit: float | None = None
    seed: int | None = None
    workers: int | None = None
    progress: Callable[[dict[str, Any]], None] | None = None
    fixed: dict[tuple[int, int], int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    budget: Budget | None = None
    on_solution: Callable[[Grid], None] | None = None
    keep: int | None = None
    cancel: Cancel | None = None

    def deadline(self, start: float | None = None) -> float | None:
        """Absolute time.monotonic() by which the engine must answer."""
        if self.time_limit is None:
            return None
        return (time.monotonic() if start is None else start) + self.time_limit


@dataclass(frozen=True)
class Budget:
    """How much work a search may do before it stops and hands over (a stage of the `auto` hybrid): CPU seconds
    of the process that does the work, and/or the engine's own conflicts, whichever is spent first.

    Never wall-clock seconds: on a busy machine a wall-clock slice is a few CPU seconds of work, so a puzzle
    that a stage decides alone on a quiet machine would be handed to a stage that cannot decide it. A user's
    time limit (`SolveOptions.time_limit`) stays wall clock, as users mean it."""

    cpu_seconds: float | None = None
    conflicts: int | None = None
    # held only until the search finds a solution, then it goes on to the time limit (the auto engine's native
    # stage of a streamed enumeration: a SAT stage after it would start over and stream the same solutions)
    until_solution: bool = False

    def meter(self) -> BudgetMeter:
        """Start counting now, in this process."""
        return BudgetMeter(self)


class BudgetMeter:
    """A Budget being spent by this process: `spent(conflicts)` says whether it is used up."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.cpu_start = time.process_time()

    def cpu_seconds(self) -> float:
        return time.process_time() - self.cpu_start

    def spent(self, conflicts: int = 0) -> bool:
        b = self.budget
        return ((b.conflicts is not None and conflicts >= b.conflicts)
                or (b.cpu_seconds is not None and self.cpu_seconds() >= b.cpu_seconds))


@dataclass(frozen=True)
class Narrowing:
    """What an engine's sound deductions alone (no search) leave of each cell (Backend.narrow).

    `masks`: per cell, row-major, a bit mask of the colours still possible (bit k = palette index k), as
    `nonocp.core.grid.Domains.masks`; every solution of the puzzle is inside them. `contradiction`: the
    deductions proved there is no solution (the masks then mean nothing). `stats`: the engine's counters."""

    masks: list[int]
    contradiction: bool
    stats: dict[str, Any] = field(default_factory=dict)


# ---- capabilities ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Capabilities:
    """What an engine can do. Each flag is independent of the others and checked by tests/test_contract.py."""

    colours: bool = True  # puzzles with more than one ink colour (False: black and white only, others refused)
    enumerate: bool = True  # max_solutions=None finds every solution and proves there is no other
    fixed: bool = True  # honours SolveOptions.fixed
    proofs: bool = False  # extra["proof_dir"]: a checkable certificate (CNF + DRAT) of every "no other solution"
    on_solution: bool = False  # search(puzzle, options, on_solution) in this process, each grid reported as found
    budget: bool = False  # honours SolveOptions.budget (stops when its CPU seconds or conflicts are spent)
    narrows: bool = False  # narrow(puzzle, options): the cells' colours after sound deductions, without search
    max_cells: int | None = None  # refuses bigger puzzles (BackendUnavailable); None: any size

    def as_dict(self) -> dict[str, Any]:
        return {"colours": self.colours, "enumerate": self.enumerate, "fixed": self.fixed, "proofs": self.proofs,
                "on_solution": self.on_solution, "budget": self.budget, "narrows": self.narrows,
                "max_cells": self.max_cells}


# ---- options -------------------------------------------------------------------------------------

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


@dataclass(frozen=True)
class Setting:
    """One engine setting: `values` is the words it takes, or `bool` (true/false, yes/no, on/off, 1/0)."""

    name: str
    values: tuple[str, ...] | type[bool]
    default: Any
    help: str

    def parse(self, text: str) -> Any:
        """The value of `--option NAME=text`; NonocpError (one line, what it takes) for anything else."""
        if self.values is bool:
            if text.lower() not in _TRUE + _FALSE:
                raise NonocpError(f"--option {self.name}={text}: expected true or false")
            return text.lower() in _TRUE
        if text not in self.values:
            raise NonocpError(f"--option {self.name}={text}: choose from {', '.join(self.values)}")
        return text

    def check(self, value: Any, engine: str) -> Any:
        """`value` itself if this option takes it (a value passed from Python in SolveOptions.extra);
        NonocpError naming the engine and the option otherwise."""
        if self.values is bool:
            if not isinstance(value, bool):
                raise NonocpError(f"{engine}: {self.name} must be true or false, not {value!r}")
        elif value not in self.values:
            raise NonocpError(f"{engine}: unknown {self.name} {value!r}; choose from {', '.join(self.values)}")
        return value

    def describe(self) -> str:
        words = "true|false" if self.values is bool else "|".join(self.values)
        return f"{self.name}={words}"


class Settings:
    """An engine's settings schema: the keys `nonocp solve --option KEY=VALUE` may set in SolveOptions.extra."""

    def __init__(self, *options: Setting) -> None:
        self._by_name = {o.name: o for o in options}

    def __iter__(self) -> Iterator[Setting]:
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __or__(self, other: Settings) -> Settings:
        """Both schemas (for an engine that passes another's options on, as auto does sat's)."""
        return Settings(*self, *(o for o in other if o.name not in self._by_name))

    def names(self) -> list[str]:
        return list(self._by_name)

    def parse(self, specs: Iterable[str], engine: str) -> dict[str, Any]:
        """`["encoding=automaton", "phase=background"]` -> {"encoding": "automaton", ...}; NonocpError (one
        line, naming the option and what it takes) for anything this schema does not declare."""
        out: dict[str, Any] = {}
        for spec in specs:
            key, sep, value = spec.partition("=")
            key, value = key.strip().replace("-", "_"), value.strip()
            if not sep or not key:
                raise NonocpError(f"--option {spec!r}: write it as KEY=VALUE")
            option = self._by_name.get(key)
            if option is None:
                known = ", ".join(sorted(self._by_name)) or "none"
                raise NonocpError(f"--option {key}: engine {engine} has no such option (its options: {known})")
            out[key] = option.parse(value)
        return out

    def get(self, extra: Mapping[str, Any], name: str, engine: str, default: Any = None) -> Any:
        """The value of option `name` in `extra` (SolveOptions.extra), checked; `default`, else the declared
        default, when absent."""
        option = self._by_name[name]
        if name not in extra:
            return option.default if default is None else default
        return option.check(extra[name], engine)

    def check(self, extra: Mapping[str, Any], engine: str) -> None:
        """NonocpError, naming `engine`, for a declared option in `extra` with a value it does not take."""
        for name, option in self._by_name.items():
            if name in extra:
                option.check(extra[name], engine)

    def describe(self) -> str:
        """`probe=true|false, guide=true|false`: for help texts and `nonocp backends`."""
        return ", ".join(o.describe() for o in self) or "none"


# ---- statistics ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stat:
    """One key an engine may report in SolveResult.stats: its type (a Python type, or a tuple of them) and
    what it means."""

    name: str
    type: type | tuple[type, ...]
    meaning: str


class Stats:
    """The schema of an engine's SolveResult.stats. A key is optional unless listed as `always`."""

    def __init__(self, *stats: Stat, prefix: str = "", include: Iterable[Stats] = (),
                 always: Iterable[str] = ()) -> None:
        self._by_name: dict[str, Stat] = {}
        for s in stats:
            self._by_name[prefix + s.name] = Stat(prefix + s.name, s.type, s.meaning)
        for other in include:
            for s in other:
                self._by_name.setdefault(s.name, s)
        self.always = tuple(always)

    def __iter__(self) -> Iterator[Stat]:
        return iter(self._by_name.values())

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def prefixed(self, prefix: str) -> Stats:
        """The same keys with `prefix` (auto reports native's stats as native_line_solves, ...)."""
        return Stats(*self, prefix=prefix)

    def problems(self, stats: Mapping[str, Any]) -> list[str]:
        """What in `stats` breaks this schema (undeclared keys, wrong types, missing `always` keys)."""
        out = [f"missing {k!r}" for k in self.always if k not in stats]
        for key, value in stats.items():
            stat = self._by_name.get(key)
            if stat is None:
                out.append(f"undeclared {key!r}")
            elif value is not None and not isinstance(value, stat.type):
                out.append(f"{key!r} is {type(value).__name__}, declared {stat.type}")
        return out


# What solve() reports for a puzzle that counting alone proves unsolvable (no engine runs).
COUNTING_STATS = Stats(
    Stat("proof", str, '"counting": ink totals of rows and columns differ, so there is no solution'),
    Stat("reason", str, "which totals differ, in words"),
)


# ---- the base class ----------------------------------------------------------------------------------


class Backend(ABC):
    """The base of every engine. See the module docstring for the duties, engines/TEMPLATE.py for an example."""

    name: ClassVar[str]
    # the words `name:variant` takes (the first is the default, when there is a choice); an engine that takes
    # an open set (sat: any pysat solver) lists its usual ones and checks the rest in its constructor
    variants: ClassVar[tuple[str, ...]] = ()
    settings: ClassVar[Settings] = Settings()
    capabilities: ClassVar[Capabilities] = Capabilities()
    stats: ClassVar[Stats] = Stats()

    def __init__(self, variant: str = "") -> None:
        if variant and variant not in self.variants:
            known = f"choose from {', '.join(self.variants)}" if self.variants else "it has none"
            raise BackendUnavailable(f"{self.name}: unknown variant {variant!r} ({known})")
        self.variant = variant

    @property
    def label(self) -> str:
        """`name` or `name:variant`: what SolveResult.backend says."""
        return f"{self.name}:{self.variant}" if self.variant else self.name

    @abstractmethod
    def available(self) -> bool:
        """True when the engine's library is importable here."""

    @abstractmethod
    def version(self) -> str:
        """The engine's own version (library version for wrapped solvers)."""

    @abstractmethod
    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        """Solve `puzzle` as the module docstring says."""

    def search(self, puzzle: Puzzle, options: SolveOptions,
               on_solution: Callable[[Grid, int], None] | None = None) -> SolveResult:
        """`solve` in this process (no child of its own), calling `on_solution(grid, solutions so far)` as each
        grid is found: for callers that run it in a child of their own (the auto engine's race). Only engines
        whose `capabilities.on_solution` is True have it."""
        raise NonocpError(f"{self.name}: no solution callback (capabilities.on_solution is False)")

    def narrow(self, puzzle: Puzzle, options: SolveOptions) -> Narrowing:
        """Each cell narrowed to the colours the engine's sound deductions allow (no search, no guess), from
        `options.fixed`, within `options.time_limit` (OutOfTime past it). Only engines whose
        `capabilities.narrows` is True have it: a hybrid's first stage (auto)."""
        raise NonocpError(f"{self.name}: no narrowing (capabilities.narrows is False)")

    def memory_need(self, puzzle: Puzzle, options: SolveOptions) -> int | None:
        """The bytes `solve(puzzle, options)` would hold, estimated without solving (None: the engine does not
        size its work); memory.OverBudget when it would not fit `options`' memory budget, OutOfTime when the
        time limit passes while sizing. A hybrid reads it before it runs two engines side by side."""
        return None

    def check_puzzle(self, puzzle: Puzzle, options: SolveOptions) -> None:
        """BackendUnavailable (one line) when `capabilities` say this engine does not take this puzzle with
        these options: colours, more than `max_cells` cells, fixed cells. For engines that lack one of them."""
        caps = self.capabilities
        if not caps.colours and not puzzle.palette.is_black_and_white:
            raise BackendUnavailable(f"{self.name}: black-and-white puzzles only ({len(puzzle.palette) - 1} colours)")
        cells = puzzle.width * puzzle.height
        if caps.max_cells is not None and cells > caps.max_cells:
            raise BackendUnavailable(
                f"{self.name}: {puzzle.width}x{puzzle.height} = {cells} cells is too big for it "
                f"(at most {caps.max_cells} cells); use another engine"
            )
        if not caps.fixed and options.fixed:
            raise BackendUnavailable(f"{self.name}: cannot restrict cells (SolveOptions.fixed)")


def parse_engine_options(specs: list[str], backend: Backend) -> dict[str, Any]:
    """`--option KEY=VALUE` specs checked against the engine's declared options (see Settings.parse)."""
    return backend.settings.parse(specs, backend.name)
