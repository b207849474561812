"""One line's CNF as a reusable template (the unit both line encodings produce and the cache stores).

A template is written once per (clue, length) and instantiated for every line with that clue: rows and
columns repeat clues a lot, and building clauses in Python is the expensive part of encoding.

Template literal codes (signed ints, negative = negation):
    1 .. length*K            the cell literal "cell p has colour v", code = 1 + p*K + v (K = alphabet size)
    length*K + 1 .. size     auxiliary variables private to this line (states, order ladders, covers)
Instantiation maps each code to a global literal (see nonocp.encode.cnf).

While building, a literal may also be the constant True or False; `LineTemplateBuilder.add` simplifies
those away (a clause holding True is dropped, False literals are removed), so templates hold no constants.

Storage: the clauses as one flat array of codes, each clause followed by a 0 (DIMACS style): 4 bytes a
literal, where tuples of Python ints cost ten times that, and instantiation maps the whole array in one pass
(code 0 maps to 0, so the terminators carry over).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass

Lit = int | bool


def neg(lit: Lit) -> Lit:
    """The negation of a template literal or constant."""
    if lit is True:
        return False
    if lit is False:
        return True
    return -lit


@dataclass(frozen=True)
class LineTemplate:
    length: int
    alphabet: int  # K: cell codes cover colours 0..K-1 (0 = background)
    n_aux: int
    codes: array  # every clause's codes followed by 0 (see the module docstring)
    n_clauses: int

    @property
    def n_codes(self) -> int:
        return self.length * self.alphabet + self.n_aux

    @property
    def n_literals(self) -> int:
        return len(self.codes) - self.n_clauses

    @property
    def clauses(self) -> Iterator[tuple[int, ...]]:
        """The clauses one by one (for tests and tools; instantiation maps `codes` whole)."""
        start = 0
        codes = self.codes
        for end, code in enumerate(codes):
            if code == 0:
                yield tuple(codes[start:end])
                start = end + 1


class LineTemplateBuilder:
    def __init__(self, length: int, alphabet: int) -> None:
        self.length = length
        self.alphabet = alphabet
        self._aux_base = length * alphabet
        self.n_aux = 0
        self.codes = array("i")
        self.n_clauses = 0

    def cell(self, p: int, v: int) -> int:
        """The literal "cell p has colour v"."""
        return 1 + p * self.alphabet + v

    def new_var(self) -> int:
        self.n_aux += 1
        return self._aux_base + self.n_aux

    def add(self, *lits: Lit) -> None:
        """Add the clause OR(lits), simplifying constants. An empty result would make the line
        unsatisfiable, which the encodings never produce for a clue that fits its line."""
        out: list[int] = []
        for lit in lits:
            if lit is True:
                return
            if lit is False:
                continue
            out.append(lit)
        if not out:
            raise ValueError("line encoding produced an empty clause")
        out.append(0)
        self.codes.extend(out)
        self.n_clauses += 1

    def build(self) -> LineTemplate:
        return LineTemplate(self.length, self.alphabet, self.n_aux, self.codes, self.n_clauses)
