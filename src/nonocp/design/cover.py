"""The cheapest set of candidate changes that stops every known move: a weighted set cover.

Elements are the moves to stop; each candidate change stops some of them at some cost. The search is
exact (branch and bound: branch on the element with the fewest candidates, bound by the cheapest
candidate times how many are still needed at the best coverage) within a node budget; past the budget it
returns the best cover found, which is at worst the greedy one it starts from, and says it is not proven.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Cover:
    chosen: tuple[Hashable, ...]
    cost: float
    exact: bool  # True when no cheaper cover exists among the candidates


def _reduce(sets: Mapping[Hashable, tuple[float, frozenset]]) -> dict[Hashable, tuple[float, frozenset]]:
    """Drop empty candidates and those another candidate beats (covers at least as much for no more)."""
    items = sorted(((k, v) for k, v in sets.items() if v[1]), key=lambda kv: (-len(kv[1][1]), kv[1][0]))
    kept: list[tuple[Hashable, tuple[float, frozenset]]] = []
    for k, (cost, elems) in items:
        if any(elems <= e2 and c2 <= cost for _, (c2, e2) in kept):
            continue
        kept.append((k, (cost, elems)))
    return dict(kept)


def _candidates_by_element(elements: frozenset, sets: Mapping[Hashable, tuple[float, frozenset]]) -> dict:
    """For each element, the candidates covering it: cheapest first, then widest (good covers come early)."""
    by_element: dict = {e: [] for e in elements}
    for k, (_, elems) in sets.items():
        for e in elems:
            by_element[e].append(k)
    for e in by_element:
        by_element[e].sort(key=lambda k: (sets[k][0], -len(sets[k][1])))
    return by_element


def greedy_cover(elements: frozenset, sets: Mapping[Hashable, tuple[float, frozenset]]) -> Cover:
    left = set(elements)
    chosen: list[Hashable] = []
    total = 0.0
    while left:
        best = max(sets, key=lambda k: (len(sets[k][1] & left) / sets[k][0], -sets[k][0]), default=None)
        if best is None or not sets[best][1] & left:
            raise ValueError("some element is covered by no candidate")
        chosen.append(best)
        total += sets[best][0]
        left -= sets[best][1]
    return Cover(tuple(chosen), total, False)


def min_cover(elements, sets: Mapping[Hashable, tuple[float, frozenset]], node_limit: int = 20000) -> Cover:
    """The cheapest subfamily of `sets` (key -> (cost > 0, elements it covers)) covering `elements`."""
    elements = frozenset(elements)
    if not elements:
        return Cover((), 0.0, True)
    sets = _reduce({k: (c, e & elements) for k, (c, e) in sets.items()})
    best = greedy_cover(elements, sets)
    best_cost, best_chosen = best.cost, list(best.chosen)
    by_element = _candidates_by_element(elements, sets)
    cheapest = min(c for c, _ in sets.values())
    widest = max(len(e) for _, e in sets.values())
    nodes = 0
    exhausted = True

    def search(left: frozenset, chosen: list, cost: float) -> None:
        nonlocal best_cost, best_chosen, nodes, exhausted
        if not left:
            if cost < best_cost - 1e-9:
                best_cost, best_chosen = cost, list(chosen)
            return
        if cost + cheapest * math.ceil(len(left) / widest) >= best_cost - 1e-9:
            return
        nodes += 1
        if nodes > node_limit:
            exhausted = False
            return
        pivot = min(left, key=lambda e: len(by_element[e]))
        for k in by_element[pivot]:
            c, elems = sets[k]
            chosen.append(k)
            search(left - elems, chosen, cost + c)
            chosen.pop()

    search(elements, [], 0.0)
    return Cover(tuple(best_chosen), best_cost, exhausted)


def near_covers(elements, sets: Mapping[Hashable, tuple[float, frozenset]], slack: float, limit: int,
                node_limit: int = 20000) -> list[Cover]:
    """Up to `limit` distinct covers costing at most `slack` more than the cheapest found, cheapest first
    (the cheapest included): several equally short fixes, for the caller to try one by one."""
    elements = frozenset(elements)
    if not elements:
        return [Cover((), 0.0, True)]
    first = min_cover(elements, sets, node_limit)
    bound = first.cost + slack
    # no dominance reduction here: a candidate that covers the same as another is another fix to try
    sets = {k: (c, e & elements) for k, (c, e) in sets.items() if e & elements}
    by_element = _candidates_by_element(elements, sets)
    found: dict[frozenset, float] = {frozenset(first.chosen): first.cost}
    nodes = 0

    def search(left: frozenset, chosen: list, cost: float) -> None:
        nonlocal nodes
        if cost > bound + 1e-9 or len(found) >= limit or nodes > node_limit:
            return
        if not left:
            found.setdefault(frozenset(chosen), cost)
            return
        nodes += 1
        pivot = min(left, key=lambda e: len(by_element[e]))
        for k in by_element[pivot]:
            c, elems = sets[k]
            chosen.append(k)
            search(left - elems, chosen, cost + c)
            chosen.pop()

    search(elements, [], 0.0)
    ranked = sorted(found.items(), key=lambda kv: (kv[1], sorted(map(repr, kv[0]))))
    return [Cover(tuple(sorted(keys, key=repr)), cost, False) for keys, cost in ranked]
