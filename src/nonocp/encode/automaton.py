"""The clue automaton: a deterministic finite automaton accepting exactly the lines that satisfy a clue.

States are laid out in one linear sequence, which makes them easy to reason about (see models/automaton.md):

    G0, (0,1) .. (0,L0), G1, (1,1) .. (1,L1), G2, ..., G_k

`G_j` = "blocks 0..j-1 are complete and we are in the background before block j" and `(j,t)` = "t cells
into block j". Transitions on colour index v (0 = background):

    G_j     --0-->   G_j                     (background loop)
    G_j     --c_j--> (j,1)                   (start block j)
    (j,t)   --c_j--> (j,t+1)   for t < L_j    (continue block j)
    (j,L_j) --0-->   G_{j+1}                 (gap after block j)
    (j,L_j) --c_{j+1}--> (j+1,1)  if c_{j+1} != c_j   (a different colour may touch directly)

Accepting: G_k, and (k-1, L_{k-1}) (the line may end right after the last block). For the empty clue
only G0 accepts. The automaton is deterministic because from any state each colour has at most one move:
the only state with two non-background moves would be (j,L_j) with c_{j+1} == c_j, which is excluded.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from nonocp.core.puzzle import Clue


@dataclass(frozen=True)
class LineAutomaton:
    n_states: int
    start: int
    accepting: frozenset[int]
    # (from_state, colour, to_state), deterministic: at most one entry per (from_state, colour)
    transitions: tuple[tuple[int, int, int], ...]
    # gap_state[j] = index of G_j (j = 0..k); block_start[j] = index of (j,1)
    gap_state: tuple[int, ...]
    block_start: tuple[int, ...]

    def accepts(self, cells: list[int] | tuple[int, ...]) -> bool:
        delta = {(s, v): t for s, v, t in self.transitions}
        s = self.start
        for v in cells:
            nxt = delta.get((s, v))
            if nxt is None:
                return False
            s = nxt
        return s in self.accepting


@lru_cache(maxsize=65536)
def clue_automaton(clue: Clue) -> LineAutomaton:
    """The automaton of `clue` (cached: clues repeat a lot across lines and puzzles)."""
    trans: list[tuple[int, int, int]] = []
    gap_state: list[int] = []
    block_start: list[int] = []
    s = 0
    for j, b in enumerate(clue):
        g = s
        gap_state.append(g)
        trans.append((g, 0, g))
        trans.append((g, b.color, g + 1))
        block_start.append(g + 1)
        for t in range(1, b.length):
            trans.append((g + t, b.color, g + t + 1))
        end = g + b.length
        nxt_gap = end + 1
        trans.append((end, 0, nxt_gap))
        if j + 1 < len(clue) and clue[j + 1].color != b.color:
            trans.append((end, clue[j + 1].color, nxt_gap + 1))
        s = nxt_gap
    gap_state.append(s)
    trans.append((s, 0, s))
    accepting = {s}
    if clue:
        accepting.add(s - 1)
    return LineAutomaton(
        n_states=s + 1,
        start=0,
        accepting=frozenset(accepting),
        transitions=tuple(trans),
        gap_state=tuple(gap_state),
        block_start=tuple(block_start),
    )


def live_states(automaton: LineAutomaton, length: int) -> list[set[int]]:
    """live[p] = states the automaton can be in after reading p cells on some accepted line of `length`.

    Forward reachability intersected with backward co-reachability; the CNF and CP encodings only create
    variables for these, which keeps them small.
    """
    fwd: list[set[int]] = [{automaton.start}]
    succ: dict[int, list[int]] = {}
    pred: dict[int, list[int]] = {}
    for a, _, b in automaton.transitions:
        succ.setdefault(a, []).append(b)
        pred.setdefault(b, []).append(a)
    for _ in range(length):
        fwd.append({t for s in fwd[-1] for t in succ.get(s, ())})
    bwd: list[set[int]] = [set() for _ in range(length + 1)]
    bwd[length] = set(automaton.accepting)
    for p in range(length - 1, -1, -1):
        bwd[p] = {s for t in bwd[p + 1] for s in pred.get(t, ())}
    return [fwd[p] & bwd[p] for p in range(length + 1)]
