"""Encodings shared by the engines: clue -> automaton, automaton -> CNF. Pure Python, no solver imports."""
