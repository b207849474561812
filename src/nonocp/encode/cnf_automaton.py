"""Encoding (a): the clue automaton unrolled over the cells of one line.

Variables: s(p, q) = "after reading p cells the automaton is in state q", only for the live states at p
(`live_states`: reachable from the start and co-reachable to acceptance). A position with a single live
state needs no variable (it is the constant True).

Clauses, for each cell p (read between positions p and p+1), with x(p, v) = "cell p has colour v":
  transition       s(p,q) & x(p,v) -> s(p+1, delta(q,v))          (or -> False when that move is dead)
  value support    x(p,v) -> OR{ s(p,q)   : delta(q,v) live at p+1 }
                   x(p,v) -> OR{ s(p+1,t) : t = delta(q,v), q live at p }
  state support    s(p+1,t) -> OR{ s(p,q) : q -> t }  and  s(p,q) -> OR{ s(p+1,t) : q -> t }
  move value       s(p,q) & s(p+1,t) -> x(p,v)   (deterministic automaton: one v per move q -> t)
  at least one     OR{ s(p,q) : q live at p }
The value-support clauses matter a lot for propagation (../shared/FIELD-NOTES.md, "SAT encodings": without
them CaDiCaL takes far longer even on a puzzle that line logic alone solves). At-most-one state per position
is implied: the start is fixed and the automaton is deterministic, so once the cells are set only one state
chain survives.
"""

from __future__ import annotations

from functools import lru_cache

from nonocp.core.puzzle import Clue
from nonocp.encode.automaton import clue_automaton, live_states
from nonocp.encode.cnf_line import LineTemplate, LineTemplateBuilder, Lit, neg


@lru_cache(maxsize=8192)
def automaton_template(clue: Clue, length: int) -> LineTemplate:
    auto = clue_automaton(clue)
    live = live_states(auto, length)
    alphabet = 1 + max((b.color for b in clue), default=0)
    colours = sorted({0} | {b.color for b in clue})
    delta = {(a, v): b for a, v, b in auto.transitions}
    b = LineTemplateBuilder(length, alphabet)

    state: list[dict[int, Lit]] = []
    for p in range(length + 1):
        qs = sorted(live[p])
        if len(qs) == 1:
            state.append({qs[0]: True})
        else:
            state.append({q: b.new_var() for q in qs})
            b.add(*state[p].values())

    for p in range(length):
        here, there = state[p], state[p + 1]
        into: dict[int, list[Lit]] = {t: [] for t in there}  # t -> states at p with a move into t
        for v in colours:
            x = b.cell(p, v)
            sources: list[Lit] = []
            targets: list[Lit] = []
            for q, sq in here.items():
                t = delta.get((q, v))
                if t is None or t not in there:
                    b.add(neg(sq), -x)
                    continue
                st = there[t]
                b.add(neg(sq), -x, st)
                b.add(neg(sq), neg(st), x)
                sources.append(sq)
                targets.append(st)
                into[t].append(sq)
            b.add(-x, *sources)
            b.add(-x, *dict.fromkeys(targets))
        for t, preds in into.items():
            b.add(neg(there[t]), *preds)
        for q, sq in here.items():
            succ = [there[t] for v in colours if (t := delta.get((q, v))) is not None and t in there]
            b.add(neg(sq), *succ)
    return b.build()
