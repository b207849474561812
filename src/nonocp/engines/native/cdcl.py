"""The CDCL search's driver, the same for both cores: restarts, solutions, limits and progress.

The search itself (propagation with clause watches and line solves, conflict analysis with shrunk line
explanations, learning, forgetting, decisions) runs inside the core: reference_cdcl.py says what it does,
and csrc/cdcl.c does exactly that in C. The core hands control back here at each solution, at each restart
point and (with a progress callback) about twice a second; this loop decides what happens next.

* Restarts follow the Luby sequence, RESTART_UNIT conflicts a unit.
* Beliefs: with `prefer`, the driver asks it for each cell's most likely colour (belief.py, from the state the
  search started from) at each of `prefer_stages`, a stage being (conflicts, how): at the start or the first
  restart once the search has gone that many conflicts without a solution, `prefer(start, how)`; the search's
  decisions keep those colours until the next stage (`cdcl_prefer`), every other period of REPHASE_EVERY
  restarts from the look (the core's own phases in between: reference_cdcl.py, preferences_in_force). A short
  look from the start takes the tournament puzzles to a solution in fewer than half the conflicts; a thorough
  one late turns minutes into seconds on the big pictures (benchmarks/results/native-core.md, "Beliefs from the
  start", "The hardest three", "Tails").
* Budget: with a `budget` (a contract BudgetMeter: CPU seconds of this process, or conflicts), the core hands
  control back every BUDGET_POLL seconds too, and the search stops (OutOfTime, as at the deadline) once the
  budget is spent: how the `auto` engine gives the search a slice a busy machine cannot shorten.
* Counting solutions: each solution found is blocked by the clause "not all of this path's decisions"
  (the decisions and sound propagation determine that one solution, so it forbids exactly it) and the
  search goes on. A contradiction at decision level 0 proves that no solution is left: the count is
  exhausted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from nonocp.core.errors import OutOfTime
from nonocp.engines.contract import BudgetMeter
from nonocp.engines.found import Sink
from nonocp.engines.native.core import Core
from nonocp.engines.native.reference_cdcl import PAUSE, RESTART, SOLUTION

State = list[int]

# Conflicts per Luby unit. Longer runs between restarts let the target phases carry a search to a solution; on
# the tournament samples and the hardest survey pictures fewer conflicts in all (benchmarks/results/native-core.md,
# "Restart unit").
RESTART_UNIT = 512
PROGRESS_EVERY = 0.5  # seconds between progress reports
# Seconds between two looks at the budget: how often the search hands control back while a budget runs (the
# budget itself is counted in CPU seconds or conflicts; this is only how often it is read).
BUDGET_POLL = 0.1


def luby(i: int) -> int:
    """Term i (from 0) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ... (as MiniSat computes it)."""
    size, seq = 1, 0
    while size < i + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != i:
        size = (size - 1) >> 1
        seq -= 1
        i = i % size
    return 1 << seq


def cdcl_enumerate(
    core: Core,
    limit: int | None,
    found: Sink,
    progress: Callable[[dict[str, Any]], None] | None = None,
    minimize: bool = True,
    guide: bool = True,
    audit: Callable[..., None] | None = None,
    prefer: Callable[[list[int], Any], list[int]] | None = None,
    prefer_stages: Sequence[tuple[int, Any]] = ((0, None),),
    budget: BudgetMeter | None = None,
) -> bool:
    """Solutions of the core's current (propagated) state into `found` (as states), up to `limit`.

    Returns True when every solution below the start is in `found`. Raises OutOfTime at the core's deadline
    (`found` keeps what was found). `minimize` False keeps whole-line explanations; `guide` False ignores
    the last probe's branch scores for the first decisions; `audit` hears every explanation and learned
    clause (tests); `prefer` maps the start's cell masks and a stage's `how` to preferred colours (see above);
    `budget` stops the search (OutOfTime) once it is spent."""
    start = core.masks() if prefer is not None else None
    stages = list(prefer_stages) if prefer is not None else []
    core.cdcl_begin(minimize, guide, audit)

    def maybe_prefer() -> None:  # at the start and at restarts (level 0): the last stage due, each once
        due = None
        while stages and not found and core.counters()["conflicts"] >= stages[0][0]:
            due = stages.pop(0)
        if due is not None and prefer is not None and start is not None:
            core.cdcl_prefer(prefer(start, due[1]))

    maybe_prefer()
    restarts = 0
    restart_at = RESTART_UNIT * luby(0)
    # progress: a report every PROGRESS_EVERY seconds, whether the search pauses for it or returns anyway
    # (an enumeration returns at every solution, often more than twice a second); a budget is looked at
    # every BUDGET_POLL seconds
    next_report = time.monotonic() + PROGRESS_EVERY

    def report() -> None:
        nonlocal next_report
        assert progress is not None
        counters = core.counters()
        progress({"nodes": counters["decisions"], "depth": counters["max_level"],
                  "conflicts": counters["conflicts"], "solutions": len(found)})
        next_report = time.monotonic() + PROGRESS_EVERY

    while True:
        if budget is not None and budget.spent(core.counters()["conflicts"]):
            raise OutOfTime
        pause = None if progress is None else max(0.0, next_report - time.monotonic())
        if budget is not None:
            pause = BUDGET_POLL if pause is None else min(pause, BUDGET_POLL)
        code = core.cdcl_search(restart_at, pause)
        if code == SOLUTION:
            found.append(core.cdcl_solution())
            if limit is not None and len(found) >= limit:
                return False
            if not core.cdcl_block():
                return True
            if progress is not None and time.monotonic() >= next_report:
                report()
        elif code == RESTART:
            restarts += 1
            core.cdcl_restart()
            restart_at = RESTART_UNIT * luby(restarts)
            maybe_prefer()
        elif code == PAUSE:
            if progress is not None and time.monotonic() >= next_report:
                report()  # else a look at the budget only
        else:
            return True
