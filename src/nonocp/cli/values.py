"""How option values are read, without typer: the callbacks of nonocp/cli/options.py and the quick path
(nonocp/cli/quick.py) both call these, so an option means the same whichever of them read the command line.
A ValueError says in one line what is wrong; typer shows it as the usage error."""

from __future__ import annotations

from collections.abc import Sequence

COLOR_CHOICES = ("auto", "always", "never")  # --color WHEN


def input_format(value: str | None) -> str | None:
    """`--from FORMAT`: the format's name in lower case; None (guess from the file) for none or blank."""
    return None if value is None else value.strip().lower() or None


def time_limit(value: float | None) -> float | None:
    """`--timeout SECONDS`: None for no limit, which 0 also means."""
    if value is None:
        return None
    if value < 0:
        raise ValueError(f"{value:g} is negative; give seconds, or 0 for no limit")
    return value or None


def solutions_wanted(value: int | None, least: int = 1) -> int | None:
    """`-n N`: N as given (0 = every solution, read by `options.solutions_limit`)."""
    if value is not None and value < 0:
        raise ValueError(f"{value} is negative; give a number of solutions, or 0 for every one")
    if value is not None and 0 < value < least:
        raise ValueError(f"{value} is less than {least}")
    return value


def one_of(value: str | None, allowed: Sequence[str]) -> str:
    """A choice (`--format`, `--color`) in lower case, when it is one of `allowed`."""
    v = (value or "").strip().lower()
    if v not in allowed:
        raise ValueError(f"{value!r} is not one of {', '.join(allowed)}")
    return v
