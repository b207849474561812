"""The engine registry: the one list of engines. A new engine is one module, one line in REGISTRY and its
tests (engines/TEMPLATE.py says how).

Everything that names engines derives from REGISTRY: `nonocp backends`, the help texts (`engine_help`),
`check`'s default set (INDEPENDENT), the tests' engine list (tests/engines.py) and the benchmarks.
Modules are imported lazily, on first use, so that `nonocp show` never pays for importing ortools: what
the command line needs before that (names, summaries, roles) is in the registry line itself.
A name may carry a variant after a colon (`sat:glucose4`); the backend class receives it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from nonocp.core.errors import BackendUnavailable, UnknownBackend
from nonocp.engines.contract import Backend, Capabilities, SolveOptions

# What an engine is for, which decides where it runs by default:
INDEPENDENT_ROLE = "independent"  # its own search: compared by `check`, run by every conformance test
HYBRID_ROLE = "hybrid"  # built from other engines: run by the tests, not a second opinion for `check`
ORACLE_ROLE = "oracle"  # tiny puzzles only (capabilities.max_cells): the tests' reference, not for real use


@dataclass(frozen=True)
class Entry:
    """One registered engine: its name, where its Backend class is ("module:Class"), a one-line summary
    for help texts, and its role (above)."""

    name: str
    target: str
    summary: str
    role: str = INDEPENDENT_ROLE


# The order is the order `nonocp backends`, `check` and the help texts use.
REGISTRY: tuple[Entry, ...] = (
    Entry("native", "nonocp.engines.native:NativeBackend", "line logic, probing and conflict-driven search (ours)"),
    Entry("cpsat", "nonocp.engines.cpsat:CpsatBackend", "OR-Tools CP-SAT, one automaton constraint per line"),
    Entry("sat", "nonocp.engines.sat:SatBackend", "python-sat (CaDiCaL by default), each line's clue in CNF"),
    Entry("auto", "nonocp.engines.auto:AutoBackend", "native line propagation and search, then SAT", HYBRID_ROLE),
    Entry("brute", "nonocp.engines.brute:BruteBackend", "brute force, for tiny puzzles only", ORACLE_ROLE),
)

# name -> "module:Class", what get_backend looks up (tests register fakes here for the length of a test)
BACKENDS: dict[str, str] = {e.name: e.target for e in REGISTRY}
# The engines that `check` compares by default: the independent ones (no hybrid, no size-bound oracle).
INDEPENDENT: tuple[str, ...] = tuple(e.name for e in REGISTRY if e.role == INDEPENDENT_ROLE)
# Every engine that takes a puzzle of any size: what the tests and the benchmarks run.
GENERAL: tuple[str, ...] = tuple(e.name for e in REGISTRY if e.role != ORACLE_ROLE)
# The default engine of `solve` and `bench`: the hybrid, faster overall than either of its parts on the
# survey set (benchmarks/results/survey.md, "Why auto is the default").
DEFAULT_BACKEND = "auto"
# The engine of many small queries with cells fixed (backbones, a player's hint, the designer's search): it
# answers in this process, with no child per query, and the same puzzle always takes the same path.
QUERY_BACKEND = "native"
# Two independent engines (a search of our own and a SAT solver) that must both prove a design unique.
PROOF_BACKENDS: tuple[str, ...] = ("native", "sat")


def names() -> list[str]:
    """Every registered engine's name, in registry order."""
    return list(BACKENDS)


def entry(name: str) -> Entry | None:
    """The registry line of `name` (a variant after a colon is ignored), or None if it has none."""
    base = name.partition(":")[0]
    return next((e for e in REGISTRY if e.name == base), None)


def engine_help(default: str | None = DEFAULT_BACKEND) -> str:
    """One sentence naming the engines, for the help of an engine option: "Engine: native, cpsat, sat, auto
    (the default) or brute (tiny puzzles only), or NAME:VARIANT as sat:glucose4; `nonocp backends` lists them"."""
    words = []
    for e in REGISTRY:
        word = e.name
        if e.name == default:
            word += " (the default)"
        elif e.role == ORACLE_ROLE:
            word += " (tiny puzzles only)"
        words.append(word)
    listed = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)
    return f"Engine: {listed}; a variant after a colon, as sat:glucose4. `nonocp backends` lists them."


def backend_class(name: str) -> type[Backend]:
    """The Backend class registered as `name` (variant ignored); BackendUnavailable if unknown or not
    importable here."""
    base = name.partition(":")[0]
    target = BACKENDS.get(base)
    if target is None:
        raise UnknownBackend(unknown_engine_message(name))
    module_name, _, cls_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise BackendUnavailable(f"backend {base!r} is not installed here ({e})") from None
    cls = getattr(module, cls_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        # a half-written engine must not crash the command with a traceback
        raise BackendUnavailable(f"backend {base!r} is incomplete here ({module_name}.{cls_name} is not a Backend)")
    return cls


def unknown_engine_message(name: str) -> str:
    """`no engine 'glucose' (a SAT solver is named as the sat engine's variant: sat:glucose4); choose from
    native, cpsat, ...`: what to say about a name no engine has."""
    import difflib

    base = name.partition(":")[0]
    solver = None if ":" in name else _sat_solver_named(name)
    close = difflib.get_close_matches(base, list(BACKENDS), 1)
    hint = ""
    if solver is not None:
        hint = f" (a SAT solver is named as the sat engine's variant: sat:{solver})"
    elif close:
        hint = f" (did you mean {close[0]}?)"
    return f"no engine {name!r}{hint}; choose from {', '.join(BACKENDS)}, or NAME:VARIANT as sat:glucose4"


def _sat_solver_named(name: str) -> str | None:
    """The pysat solver `name` stands for (`g4` -> glucose4, `glucose` -> glucose4: the sat engine's usual
    solver of that family), or None (also when pysat is missing)."""
    try:
        from pysat.solvers import SolverNames

        from nonocp.engines.sat import SatBackend
    except ImportError:
        return None
    wanted = name.lower()
    for canonical, aliases in vars(SolverNames).items():
        if canonical.startswith("_") or not isinstance(aliases, tuple):
            continue
        if wanted == canonical or wanted in aliases:
            return str(canonical)
    usual = [v for v in SatBackend.variants if v.startswith(wanted)] if len(wanted) >= 3 else []
    return usual[0] if usual else None


def get_backend(name: str) -> Backend:
    """The backend called `name` (or `name:variant`); BackendUnavailable if unknown or not installed."""
    _, _, variant = name.partition(":")
    cls = backend_class(name)
    missing = sorted(getattr(cls, "__abstractmethods__", ()))
    if missing:  # a method of the contract left out
        raise BackendUnavailable(f"backend {name!r} is incomplete here (no {', '.join(missing)})")
    backend: Backend = cls(variant) if variant else cls()
    if not backend.available():
        raise BackendUnavailable(f"backend {name!r} is not available here")
    return backend


__all__ = [
    "BACKENDS", "DEFAULT_BACKEND", "GENERAL", "INDEPENDENT", "PROOF_BACKENDS", "QUERY_BACKEND", "REGISTRY", "Backend",
    "Capabilities", "Entry", "SolveOptions", "backend_class", "engine_help", "entry", "get_backend", "names",
    "unknown_engine_message",
]
