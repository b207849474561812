"""Figures over a batch: per engine counts and times, and, with several engines, how they compare."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from nonocp.batch.records import ERROR, TIMEOUT, Record


@dataclass(frozen=True)
class EngineSummary:
    """`solved` counts runs that reached a verdict (unique + multiple + none + solved-without-uniqueness).

    Times are over every run of the engine, timeouts included at the time they used, so that
    `total_seconds` is what the engine cost; `median_seconds` is None when it has no runs.
    """

    engine: str
    runs: int = 0
    solved: int = 0
    unique: int = 0
    multiple: int = 0
    none: int = 0
    found: int = 0  # "solved" status: one solution found, uniqueness not asked for (--max-solutions 1)
    timeouts: int = 0
    errors: int = 0
    total_seconds: float = 0.0
    median_seconds: float | None = None


@dataclass(frozen=True)
class RatioSummary:
    """Time of `engine` over the baseline engine's, per puzzle where both reached a verdict."""

    engine: str
    baseline: str
    compared: int
    median: float | None
    geometric_mean: float | None
    faster: int  # puzzles where `engine` took less time than the baseline


@dataclass(frozen=True)
class Disagreement:
    file: str
    index: int
    verdicts: dict[str, str]


@dataclass(frozen=True)
class Summary:
    engines: tuple[EngineSummary, ...]
    puzzles: int  # distinct puzzles that reached an engine
    input_errors: int  # unreadable files and invalid puzzles (rows with engine "")
    ratios: tuple[RatioSummary, ...] = ()
    compared: int = 0  # puzzles on which at least two engines reached a verdict
    agreed: int = 0
    disagreements: tuple[Disagreement, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def engine(self, name: str) -> EngineSummary:
        return next(e for e in self.engines if e.engine == name)


def engine_summary(engine: str, records: Sequence[Record]) -> EngineSummary:
    mine = [r for r in records if r.engine == engine]
    times = [r.seconds for r in mine if r.seconds is not None]

    def count(v: str) -> int:
        return sum(1 for r in mine if r.verdict == v)

    return EngineSummary(
        engine=engine,
        runs=len(mine),
        solved=sum(1 for r in mine if r.answered),
        unique=count("unique"),
        multiple=count("multiple"),
        none=count("none"),
        found=count("solved"),
        timeouts=count(TIMEOUT),
        errors=count(ERROR),
        total_seconds=sum(times),
        median_seconds=statistics.median(times) if times else None,
    )


def by_puzzle(records: Sequence[Record]) -> dict[tuple[str, int], dict[str, Record]]:
    """{(file, index): {engine: record}} over engine rows, in input order."""
    out: dict[tuple[str, int], dict[str, Record]] = defaultdict(dict)
    for r in sorted(records, key=lambda r: r.order):
        if r.engine:
            out[r.puzzle_key][r.engine] = r
    return out


def ratio_of(record: Record, base: Record | None) -> float | None:
    """record.seconds / base.seconds when both answered and the baseline took measurable time."""
    if base is None or not (record.answered and base.answered):
        return None
    if record.seconds is None or base.seconds is None or base.seconds <= 0:
        return None
    return record.seconds / base.seconds


def with_ratios(records: Sequence[Record], engines: Sequence[str]) -> list[Record]:
    """The records in input order with `ratio` set against the first engine (only with several engines)."""
    ordered = sorted(records, key=lambda r: r.order)
    if len(engines) < 2:
        return ordered
    groups = by_puzzle(ordered)
    base = engines[0]
    return [r.with_ratio(ratio_of(r, groups[r.puzzle_key].get(base))) if r.engine else r for r in ordered]


def _ratio_summary(engine: str, baseline: str, groups: dict[tuple[str, int], dict[str, Record]]) -> RatioSummary:
    ratios, faster = [], 0
    for runs in groups.values():
        if engine in runs:
            q = ratio_of(runs[engine], runs.get(baseline))
            if q is not None:
                ratios.append(q)
                faster += q < 1
    positive = [q for q in ratios if q > 0]
    return RatioSummary(
        engine=engine,
        baseline=baseline,
        compared=len(ratios),
        median=statistics.median(ratios) if ratios else None,
        geometric_mean=math.exp(statistics.fmean(math.log(q) for q in positive)) if positive else None,
        faster=faster,
    )


def summarize(records: Sequence[Record], engines: Sequence[str]) -> Summary:
    """Per-engine figures; with several engines, time ratios against the first and verdict agreement.

    Agreement compares only engines that reached a verdict on a puzzle (a timeout is not a verdict).
    """
    groups = by_puzzle(records)
    ratios: list[RatioSummary] = []
    compared = agreed = 0
    disagreements: list[Disagreement] = []
    if len(engines) >= 2:
        ratios = [_ratio_summary(e, engines[0], groups) for e in engines[1:]]
        for (file, index), runs in groups.items():
            verdicts = {e: r.verdict for e, r in runs.items() if r.answered}
            if len(verdicts) < 2:
                continue
            compared += 1
            if len(set(verdicts.values())) == 1:
                agreed += 1
            else:
                disagreements.append(Disagreement(file, index, verdicts))
    return Summary(
        engines=tuple(engine_summary(e, records) for e in engines),
        puzzles=len(groups),
        input_errors=sum(1 for r in records if not r.engine),
        ratios=tuple(ratios),
        compared=compared,
        agreed=agreed,
        disagreements=tuple(disagreements),
    )
