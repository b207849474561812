"""The `nonocp` command line: the typer app (app.py), its subcommands (commands/), the options they share
(options.py, their values read in values.py), how inputs are found (inputs.py) and the error reporting every
command uses (common.py). A plain `nonocp solve` is read by quick.py instead of typer and runs solving.py,
the work typer's `solve` runs too. The only layer that prints."""


def main() -> None:
    import sys

    from nonocp.cli import startup

    startup.pause_collector()
    from nonocp.cli import quick

    code = quick.run(sys.argv[1:])  # a plain `nonocp solve FILE...` runs without typer
    if code is not None:
        sys.exit(code)
    from nonocp.cli.app import main as run

    run()
