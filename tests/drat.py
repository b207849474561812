"""Reading DIMACS and checking DRUP proofs, for the tests of engines that write proofs (tests/test_sat.py,
tests/test_contract.py): an independent checker, so that a proof is checked without drat-trim."""

from __future__ import annotations


def read_dimacs(text: str) -> list[list[int]]:
    clauses, current = [], []
    for line in text.splitlines():
        if not line or line[0] in "cp":
            continue
        for tok in line.split():
            v = int(tok)
            if v == 0:
                clauses.append(current)
                current = []
            else:
                current.append(v)
    return clauses


def rup_check(cnf: list[list[int]], proof_lines: list[str]) -> bool:
    """A small independent DRUP checker (forward): every added lemma must follow from the clauses so far
    by unit propagation, deletions remove clauses, and the empty clause must be derived. Deliberately
    naive (tiny formulas only); it accepts no RAT lemmas, so it is stricter than DRAT."""
    from collections import Counter

    db: Counter[tuple[int, ...]] = Counter(tuple(sorted(c)) for c in cnf)

    def propagates_to_conflict(assumed: set[int]) -> bool:
        assign = set(assumed)
        if any(-lit in assign for lit in assign):
            return True
        changed = True
        while changed:
            changed = False
            for clause in db:
                unassigned = []
                satisfied = False
                for lit in clause:
                    if lit in assign:
                        satisfied = True
                        break
                    if -lit not in assign:
                        unassigned.append(lit)
                if satisfied:
                    continue
                if not unassigned:
                    return True
                if len(unassigned) == 1:
                    assign.add(unassigned[0])
                    changed = True
        return False

    for line in proof_lines:
        toks = line.split()
        if not toks:
            continue
        if toks[0] == "d":
            key = tuple(sorted(int(t) for t in toks[1:-1]))
            if db[key] > 0:
                db[key] -= 1
                if db[key] == 0:
                    del db[key]
            continue
        lemma = [int(t) for t in toks[:-1]]
        if not propagates_to_conflict({-lit for lit in lemma}):
            return False
        if not lemma:
            return True
        db[tuple(sorted(lemma))] += 1
    return propagates_to_conflict(set())
