"""The engines the engine-parametrised tests run by default (the `engine_name` / `engine` fixtures of
tests/conftest.py; `pytest --backend NAME[,NAME...]` runs others). Derived from the registry: every engine
that takes puzzles of any size (nonocp.engines.GENERAL), and the variants worth a second opinion. A new
engine joins the suite by its registry line. .ci/run reads ENGINES (the engines whose contract check must pass).
"""

from nonocp.engines import GENERAL

# native:dfs is the probing depth-first search without learning: a second native search to compare against
ENGINES = [*GENERAL, "native:dfs"]
