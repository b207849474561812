"""`nonocp solve FILE...` with plain options, read without typer.

Importing typer and building the command is a quarter to a third of a short `nonocp solve` (measured in
benchmarks/results/startup.md), and scripts and benchmark harnesses start one process per puzzle. When the
command line is `solve`, puzzle files and only the options below, with values in forms read the same by
both, it is read here and nonocp.cli.solving runs at once. Anything else goes to typer, which reads it and
says what is wrong: help, other commands, other options, `-bVALUE`, `--`, numbers in other forms (`1e3`,
`+2`), values typer refuses. tests/test_cli_quick.py checks that both readings agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from nonocp.cli import values


def _format(text: str) -> str:
    from nonocp.cli.solving import FORMATS  # imported when the option is given: it is run next anyway

    return values.one_of(text, FORMATS)


def _whole(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,9}", text):  # what int() reads alike everywhere (not "+2", " 2", "2_0")
        raise ValueError(text)
    return int(text)


def _count(text: str) -> int | None:
    return values.solutions_wanted(_whole(text))


def _seconds(text: str) -> float | None:
    if not re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,9})?", text):  # not "1e3", "inf", "nan"
        raise ValueError(text)
    return values.time_limit(float(text))


# option -> (solve_puzzles' parameter, the reader of its value: ValueError when typer must read it instead)
VALUED: dict[str, tuple[str, Callable[[str], Any]]] = {
    "-b": ("backend", str), "--backend": ("backend", str),
    "-f": ("fmt", _format), "--format": ("fmt", _format),
    "-n": ("max_solutions", _count), "--max-solutions": ("max_solutions", _count),
    "-t": ("timeout", _seconds), "--timeout": ("timeout", _seconds),
    "--from": ("from_fmt", values.input_format),
    "--seed": ("seed", _whole),
    "--color": ("color", lambda text: values.one_of(text, values.COLOR_CHOICES)),
}
FLAGS: dict[str, tuple[str, bool]] = {
    "--all": ("all_solutions", True), "--progress": ("progress", True), "--no-progress": ("progress", False),
    "--compact": ("compact", True), "--backbone": ("backbone", True),
}


def plain_solve(argv: Sequence[str]) -> dict[str, Any] | None:
    """solve_puzzles' arguments for `solve ...` with plain options only; None when typer must read argv."""
    if not argv or argv[0] != "solve":
        return None
    kwargs: dict[str, Any] = {}
    puzzles: list[str] = []
    words = list(argv[1:])
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word == "-" or not word.startswith("-"):
            puzzles.append(word)
            continue
        name, eq, given = word.partition("=")
        if name in FLAGS and not eq:
            param, value = FLAGS[name]
        elif name in VALUED and (not eq or name.startswith("--")):
            if not eq:
                if i == len(words):
                    return None
                given = words[i]
                i += 1
            if given.startswith("-") or not given:
                return None
            param, read = VALUED[name]
            try:
                value = read(given)
            except ValueError:
                return None
        else:
            return None
        kwargs[param] = value  # given twice, the last one counts, as with typer
    if not puzzles:
        return None
    return {"puzzles": puzzles, **kwargs}


def run(argv: Sequence[str]) -> int | None:
    """Run `nonocp ARGV` here when it is a plain solve: its exit code; None when typer must run it."""
    kwargs = plain_solve(argv)
    if kwargs is None:
        return None
    from nonocp.cli import startup
    from nonocp.cli.solving import solve_puzzles

    startup.start_work()
    return solve_puzzles(**kwargs)
