"""`python -m nonocp`: the same as the `nonocp` command."""

from nonocp.cli import main

main()
