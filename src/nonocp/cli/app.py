"""The `nonocp` command: a typer app whose subcommands live one per module under nonocp/cli/commands/.

Adding a command (the whole protocol): create `nonocp/cli/commands/<name>.py` with

    def register(app: typer.Typer) -> None:
        app.command("<name>")(my_command)

and declare its options with the shared ones in nonocp/cli/options.py. Name the module after its command:
`nonocp <name> ...` then imports that module only, which keeps start-up short (a module registering
other names still works; it is found by importing every module, as `nonocp --help` does). Import heavy
things (engines, rich, analyses) inside the command function, never at the top of the module: every
command module is imported for `nonocp --help`.

Errors are reported through nonocp.cli.common (one line, exit codes of docs/contract.md); parsing, help and
usage errors are set up in nonocp.cli.parsing.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from nonocp.cli.parsing import NonocpCommand, NonocpGroup

HELP = (
    "Solve, verify and explain nonograms (black-and-white and colour) with three independent engines.\n\n"
    "Exit codes: 0 solved, 1 proven to have no solution, 2 bad input or usage, 3 time limit before an answer, "
    "4 engines disagree, 130 interrupted."
)
COMMANDS_DIR = os.path.join(os.path.dirname(__file__), "commands")
GLOBAL_FLAGS = ("-h", "--help", "--version")  # the group's own options (they take no value)


class NonocpTyper(typer.Typer):
    """typer.Typer whose commands are NonocpCommands unless a module asks for another class."""

    def command(self, name: str | None = None, *, cls: type | None = None, **kwargs: Any):  # type: ignore[override]
        return super().command(name, cls=cls or NonocpCommand, **kwargs)


def _version(value: bool) -> None:
    if value:
        from nonocp import __version__

        print(f"nonocp {__version__}")
        raise typer.Exit(0)


def _callback(
    version: Annotated[
        bool, typer.Option("--version", help="Show the version and exit.", is_eager=True, callback=_version)
    ] = False,
) -> None:
    """Solve, verify and explain nonograms."""


def command_modules() -> list[str]:
    """The command modules' names (every nonocp/cli/commands/*.py not starting with `_`), sorted."""
    names = []
    for entry in os.listdir(COMMANDS_DIR):
        stem, ext = os.path.splitext(entry)
        if ext == ".py" and not stem.startswith("_"):
            names.append(stem)
    return sorted(names)


def new_app() -> NonocpTyper:
    app = NonocpTyper(
        name="nonocp",
        help=HELP,
        cls=NonocpGroup,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    )
    app.callback()(_callback)
    return app


def register(app: typer.Typer, modules: Sequence[str]) -> None:
    for name in modules:
        importlib.import_module(f"nonocp.cli.commands.{name}").register(app)


def build_app(argv: Sequence[str] | None = None) -> NonocpTyper:
    """The app with the command `argv` names registered (only its module imported), or every command when
    argv names none, names an unknown one, or asks for the general help."""
    app = new_app()
    wanted = _command_word(argv) if argv is not None else None
    modules = command_modules()
    if wanted in modules:
        register(app, [wanted])
        if any(_names(c) == wanted for c in app.registered_commands):
            return app
        app = new_app()
    register(app, modules)
    return app


def _names(info: Any) -> str | None:
    if info.name:
        return info.name
    return info.callback.__name__.lower().replace("_", "-") if info.callback else None


def _command_word(argv: Sequence[str]) -> str | None:
    """The subcommand in argv: the first word that is not one of the group's own flags; None when the
    group's own help (or version) comes first, which lists every command."""
    for word in argv:
        if word in GLOBAL_FLAGS:
            return None
        return None if word.startswith("-") else word
    return None


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    build_app(args)(args, prog_name="nonocp")


def __getattr__(name: str) -> Any:
    # `from nonocp.cli.app import app` (tests, embedding): every command registered
    if name == "app":
        app = build_app()
        globals()["app"] = app
        return app
    raise AttributeError(name)


if __name__ == "__main__":
    main()
