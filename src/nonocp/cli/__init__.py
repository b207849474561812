"""The `nonocp` command line: the typer app (app.py), its subcommands (commands/), the options they share
(options.py), how inputs are found (inputs.py) and the error reporting every command uses (common.py).
The only layer that prints."""


def main() -> None:
    from nonocp.cli.app import main as run

    run()
