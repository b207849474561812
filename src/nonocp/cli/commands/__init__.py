"""One module per `nonocp` subcommand; each defines `register(app)`. cli.py finds them by itself."""
