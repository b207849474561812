"""The `nonocp` command line: the typer app (app.py), its subcommands (commands/), the options they share
(options.py), how inputs are found (inputs.py) and the error reporting every command uses (common.py).
The only layer that prints."""


def main() -> None:
    import gc

    # Start-up: importing typer and the command and parsing the arguments make many objects and no garbage
    # worth a collection; the collector is turned back on (and what exists by then frozen) when the command
    # starts its work (nonocp.cli.parsing.NonocpCommand.invoke).
    gc.disable()
    from nonocp.cli.app import main as run

    run()
