"""The options the commands share, declared once: the same names, short forms, metavars, defaults and
validation in every command. A command uses them as parameter types:

    def solve_command(puzzles: PuzzlesArg, timeout: TimeoutOpt = None, fmt: FormatOpt = "text", ...):

and a command-specific choice (the formats it writes) goes through the small factories below
(`format_option(...)`). Values are checked while arguments are parsed, so a bad one is a one-line usage
error (exit 2) before any file is read.

Engine names in help texts come from the engine registry (nonocp.engines), never from a list here.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from nonocp.cli import values
from nonocp.cli.parsing import HIDDEN_ALIASES


def _checked(read: Any, *args: Any) -> Any:
    """A value read by nonocp.cli.values, its ValueError as typer's usage error."""
    try:
        return read(*args)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None


def engine_names() -> list[str]:
    """Every registered engine, in the registry's order."""
    from nonocp.engines import names

    return names()


# --- inputs -----------------------------------------------------------------------------------------

PuzzlesArg = Annotated[
    list[str],
    typer.Argument(
        metavar="PUZZLE...", show_default=False,
        help="Puzzle files, folders (searched recursively for puzzle files) or - for standard input.",
    ),
]


def _from_format(value: str | None) -> str | None:
    return values.input_format(value)


FromOpt = Annotated[
    str | None,
    typer.Option(
        "--from", metavar="FORMAT", callback=_from_format,
        help="Input format (non, xml, json, g, nin, picture, pbm, ...); default: from the file name, else "
        "from the content.",
    ),
]


# --- engines ----------------------------------------------------------------------------------------

def _engine_help() -> str:
    from nonocp.engines import engine_help  # the registry's own sentence, naming the default

    return engine_help()


BackendOpt = Annotated[
    str, typer.Option("--backend", "-b", metavar="ENGINE", show_default=False, help=_engine_help())
]


def split_engines(specs: Sequence[str] | None, default: Sequence[str]) -> tuple[str, ...]:
    """`["native,sat", "cpsat"]` -> ("native", "sat", "cpsat"): comma-separated, repeatable, duplicates
    dropped, order kept; `default` when none is given."""
    if not specs:
        return tuple(default)
    names = [n.strip() for spec in specs for n in spec.split(",")]
    return tuple(dict.fromkeys(n for n in names if n))


def _engines(value: list[str] | None) -> list[str] | None:
    if value is not None and not split_engines(value, ()):
        raise typer.BadParameter("give at least one engine name")
    return value


HIDDEN_ALIASES.add("--backends")  # check's old spelling, kept working for scripts


def backends_option(default: str) -> Any:
    """`--backend` for commands that run several engines: comma-separated or repeated."""
    return typer.Option(
        "--backend", "-b", "--backends", metavar="ENGINE,...", callback=_engines, show_default=False,
        help=f"Engines to run, comma-separated or repeated: {', '.join(engine_names())}, or variants such as "
        f"sat:glucose4 (default: {default}).",
    )


# --- limits -----------------------------------------------------------------------------------------


def _timeout(value: float | None) -> float | None:
    return _checked(values.time_limit, value)


def timeout_option(default: float | None = None) -> Any:
    """`--timeout/-t SECONDS`; 0 means no limit. `default` is only for the help text (the parameter's own
    default is what applies)."""
    shown = "no limit" if default is None else f"{default:g}"
    return typer.Option("--timeout", "-t", metavar="SECONDS", callback=_timeout, show_default=False,
                        help=f"Time limit per puzzle, in seconds; 0 = no limit (default: {shown}).")


TimeoutOpt = Annotated[float | None, timeout_option()]


HIDDEN_ALIASES.add("--solutions")  # rate's, explain's and design's old spelling, kept working for scripts


def max_solutions_option(least: int = 1, default: str = "2, enough to tell unique from multiple",
                         what: str = "Stop after N solutions") -> Any:
    """`-n/--max-solutions N` in every command that finds solutions; 0 means every one (as `-t 0` means no
    limit), which the command reads as `no_limit(value)`."""
    def check(value: int | None) -> int | None:
        return _checked(values.solutions_wanted, value, least)

    at_least = f"; at least {least}" if least > 1 else ""
    return typer.Option(
        "--max-solutions", "-n", "--solutions", metavar="N", callback=check, show_default=False,
        help=f"{what}; 0 = every one{at_least} (default: {default}).",
    )


def solutions_limit(value: int | None) -> int | None:
    """The limit `-n value` asks for: None (every solution) for 0, else the value itself."""
    return None if value == 0 else value


AllOpt = Annotated[bool, typer.Option("--all", help="Enumerate every solution (as -n 0).")]


# --- outputs ----------------------------------------------------------------------------------------

ProgressOpt = Annotated[
    bool,
    typer.Option("--progress/--no-progress",
                 help="A progress line on standard error during long work (on a terminal only)."),
]


def format_option(choices: Sequence[str], what: str = "", from_output: bool = False) -> Any:
    """`--format/-f` with this command's choices (the first is the default). With `from_output`, where
    --output is what the command draws, a format left out is taken from the output's extension
    (`-o pic.svg` draws SVG rather than writing text into a file named .svg)."""
    allowed = tuple(choices)

    def check(ctx: typer.Context, param: Any, value: str) -> str:
        v = _checked(values.one_of, value, allowed)
        source = ctx.get_parameter_source(param.name)
        if from_output and source is not None and source.name == "DEFAULT":  # typer may carry its own click
            # options given on the command line are processed before defaults, so --output is known here
            suffix = os.path.splitext(str(ctx.params.get("output") or ""))[1].lower().lstrip(".")
            if suffix in allowed:
                return suffix
        return v

    extension = "; without it, --output's extension when it names one" if from_output else ""
    text = f"Output: {', '.join(allowed)} (default: {allowed[0]}{extension})" + (f"; {what}" if what else "") + "."
    return typer.Option("--format", "-f", metavar="FORMAT", callback=check, help=text, show_default=False)


OutputOpt = Annotated[
    str | None,
    typer.Option("--output", "-o", metavar="FILE", help="Write to FILE instead of standard output."),
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Let --output replace a read-only file (never an input).")]

COLOR_CHOICES = values.COLOR_CHOICES


def _color(value: str) -> str:
    return _checked(values.one_of, value, COLOR_CHOICES)


HIDDEN_ALIASES.add("--colour")

ColorOpt = Annotated[
    str,
    typer.Option(
        "--color", "--colour", metavar="WHEN", callback=_color,
        help="Colour in terminal output: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always, "
        "never.",
    ),
]


def _cell_size(value: int) -> int:
    if not 4 <= value <= 200:
        raise typer.BadParameter(f"{value} is not between 4 and 200 pixels")
    return value


CompactOpt = Annotated[bool, typer.Option(
    "--compact", help="Text grids with cells touching: one column a cell where the column clues are single "
                      "digits, two for two-digit clues. Without it, a grid wider than the terminal (80 "
                      "columns in a pipe or file) is drawn so.")]


CellSizeOpt = Annotated[
    int,
    typer.Option("--cell-size", metavar="PIXELS", callback=_cell_size, help="Side of a cell in SVG and PNG pictures."),
]


CLUE_KIND_CHOICES = ("runs", "counts")  # core/puzzle.py CLUE_KINDS


def _clue_kind(value: str | None) -> str | None:
    if value is None:
        return None
    v = value.strip().lower()
    if v not in CLUE_KIND_CHOICES:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(CLUE_KIND_CHOICES)}")
    return v


def clues_option(help_text: str) -> Any:
    """`--clues KIND`: run clues (blocks in order) or count-and-contiguity clues (docs/count-clues.md)."""
    return typer.Option("--clues", metavar="KIND", callback=_clue_kind, help=help_text)


DIFFICULTY_LEVELS = ("line", "probe", "branch")


def difficulty_level(value: str | None) -> str | None:
    """A difficulty as `rate` names it (LINE, PROBE, BRANCH), in any case; None stays None."""
    if value is None:
        return None
    v = value.strip().lower()
    if v not in DIFFICULTY_LEVELS:
        raise typer.BadParameter(f"{value!r} is not one of LINE, PROBE, BRANCH")
    return v.upper()
