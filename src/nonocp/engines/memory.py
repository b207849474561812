"""The memory budget of one solve, and the engines' one way of refusing a puzzle that would not fit.

Why: the formulas and models the engines build grow with the puzzle in ways the puzzle's size hides: a
512x512 picture is millions of clauses, and CP-SAT's presolve expands the automata of a random 200x200
grid to millions of Booleans (gigabytes: benchmarks/results/memory.md). Without a budget such a
solve takes the machine's memory until the kernel kills something; with one, the engine either picks
a leaner way to solve (the sat engine's MiniSat, the auto engine's native search) or refuses up front
with a one-line message that says how much it would need and how to allow it.

The budget: `extra["memory"]` (bytes) when a caller sets it, else the NONOCP_MEMORY environment variable
(`2G`, `1.5GB`, `800M`, `800MiB` or bytes), else DEFAULT_BUDGET. It covers the whole solve: this
process's own resident memory is taken off what an engine may add (`available`). The estimates are
made before anything big is allocated (engines/sat.py, engines/cpsat.py), and a child that searches in
a forked process also gets a hard limit (`limit_this_process`), so an estimate that is wrong ends that
child (reported as out of memory), never the machine.
"""

from __future__ import annotations

import os
import re
from typing import Any

from nonocp.core.errors import BackendUnavailable, NonocpError

DEFAULT_BUDGET = 1 << 30  # bytes: the target for every engine on the corpus's largest puzzles
ENV = "NONOCP_MEMORY"
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


class OverBudget(BackendUnavailable):
    """The puzzle would need more memory than the budget allows (exit 2, one line, how to allow it). A kind
    of BackendUnavailable: this engine cannot take this puzzle here, which `check` reports as such and
    never as a disagreement between engines."""


def parse_size(text: str) -> int:
    """`2G` -> 2147483648 (binary units; a trailing `B`/`iB` is allowed); NonocpError otherwise."""
    m = _SIZE.match(text)
    if m is None:
        raise NonocpError(f"{ENV}={text!r}: not a memory size (write it like 2G, 1.5GB or 800M)")
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def budget(options: Any = None) -> int:
    """The bytes one solve may use (see the module docstring)."""
    extra = getattr(options, "extra", None) or {}
    if extra.get("memory"):
        return int(extra["memory"])
    env = os.environ.get(ENV)
    return parse_size(env) if env else DEFAULT_BUDGET


def resident() -> int:
    """This process's resident memory in bytes (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def available(options: Any = None) -> int:
    """What an engine may still add to this process: the budget less what the process holds already."""
    return max(0, budget(options) - resident())


def gib(n: float) -> str:
    return f"{n / (1 << 30):.1f} GB" if n >= 1 << 30 else f"{n / (1 << 20):.0f} MB"


def refuse(engine: str, what: str, need: int, allowed: int, options: Any = None, advice: str = "") -> OverBudget:
    """The OverBudget error: what would be built, how much it needs, what is left, how to allow it."""
    enough = -(-(need + resident()) >> 30)  # whole GiB, rounded up
    tip = f"; {advice}" if advice else ""
    return OverBudget(f"{engine}: {what} would need about {gib(need)}, more than the {gib(allowed)} left of the "
                      f"{gib(budget(options))} memory budget (set {ENV}={enough}G to allow it){tip}")


def limit_this_process(extra_bytes: int) -> None:
    """A hard cap for a forked child: its data may grow by `extra_bytes` and no more; past it allocations
    fail (MemoryError in Python; solver libraries crash, which the caller reports as out of memory).
    Linux only; elsewhere nothing happens."""
    try:
        import resource

        with open("/proc/self/status", encoding="ascii") as f:
            data = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmData:"))
        cap = data + extra_bytes
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        if soft == resource.RLIM_INFINITY or cap < soft:
            resource.setrlimit(resource.RLIMIT_DATA, (cap, hard))
    except (ImportError, OSError, ValueError, StopIteration):
        return


__all__ = ["DEFAULT_BUDGET", "OverBudget", "available", "budget", "limit_this_process", "parse_size", "refuse",
           "resident"]
