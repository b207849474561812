"""The work that runs in a worker process (nonocp.web.workers): solving, backbones, ratings.

Each job takes picklable arguments (a Puzzle and plain values) and returns plain JSON-ready data, so
nothing but small pickles crosses the process boundary. Engines are imported here, never in the server
process: the server stays small and responsive, and a worker that overruns can be killed.
"""

from __future__ import annotations

from typing import Any

from nonocp.core.puzzle import Puzzle


def solve(puzzle: Puzzle, engine: str, max_solutions: int, time_limit: float) -> dict[str, Any]:
    from nonocp.engines.solve import solve as run

    result = run(puzzle, engine, max_solutions=max_solutions, time_limit=time_limit)
    return {
        "status": result.status.value,
        "exhausted": result.exhausted,
        "engine": result.backend,
        "seconds": round(result.seconds, 4),
        "solutions": [g.to_strings(puzzle.palette) for g in result.solutions],
        "stats": {k: v for k, v in result.stats.items() if isinstance(v, str | int | float | bool)},
    }


def backbone(puzzle: Puzzle, time_limit: float) -> dict[str, Any]:
    from nonocp.analysis.backbone import find_backbone

    bb = find_backbone(puzzle, "native", time_limit=time_limit)
    return {
        "status": bb.status,
        "exact": bb.exact,
        "possible": list(bb.possible),
        "ambiguous": [[r, c] for r, c in bb.ambiguous],
        "queries": bb.queries,
        "seconds": round(bb.seconds, 4),
    }


def rate(puzzle: Puzzle, time_limit: float) -> dict[str, Any]:
    from nonocp.analysis.rate import rate as run

    return run(puzzle, time_limit=time_limit).as_dict()


def warm() -> bool:
    """Nothing: starting it starts the fork server, which imports the engines once for every worker."""
    return True


# job name -> function; the server runs jobs by name (nonocp.web.config.Settings.jobs may replace one)
JOBS = {"solve": solve, "backbone": backbone, "rate": rate, "warm": warm}


def preload() -> list[str]:
    """What the fork server imports once, so that each worker starts with the engines loaded: this module,
    the analyses, and every engine's module as the registry names it."""
    from nonocp.engines import BACKENDS

    engines = sorted({target.partition(":")[0] for target in BACKENDS.values()})
    return [__name__, "nonocp.engines.solve", "nonocp.analysis.backbone", "nonocp.analysis.rate", *engines]
