"""The `nonocp` command. Thin: each subcommand lives in its own module under nonocp/cli/commands/
(discovered automatically, each exposing `register(app)`), and all of them report errors the same way
through nonocp.cli.common.
"""

from __future__ import annotations

import importlib
import pkgutil

import typer

from nonocp.cli import commands

app = typer.Typer(
    name="nonocp",
    help="Solve, verify and explain nonograms (black-and-white and colour) with three independent engines.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register_commands() -> None:
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"nonocp.cli.commands.{info.name}")
        module.register(app)


_register_commands()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
