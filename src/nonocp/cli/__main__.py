"""`python -m nonocp.cli`: the same as the `nonocp` command."""

from nonocp.cli import main

main()
