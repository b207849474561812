"""A test that needs something nonocp requires fails when it is missing, never skips: a skip would hide a broken
install. Only what the project does not install may be skipped for (the corpus beside the project, MiniZinc, a
browser on a developer's machine)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def required_modules() -> set[str]:
    """The import names of nonocp's dependencies and its test extra (pyproject.toml), and nonocp itself."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = set()
    for spec in [*project["dependencies"], *project["optional-dependencies"]["test"]]:
        names.add(re.split(r"[<>=!\[ ;]", spec, maxsplit=1)[0].lower())
    known_as = {"python-sat": "pysat", "pillow": "PIL", "dask": "dask", "ortools": "ortools"}
    return {known_as.get(n, n.replace("-", "_")) for n in names} | {"distributed", "nonocp"}


def test_no_test_skips_for_what_nonocp_requires():
    required = required_modules()
    found = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = re.search(r"importorskip\(\s*[\"']([\w.]+)", line)
            if m and m.group(1).split(".")[0] in required:
                found.append(f"{path.name}:{n}: {m.group(1)}")
    assert found == [], "import these (a missing one must fail the run): " + ", ".join(found)


def test_the_list_knows_the_usual_suspects():
    usual = {"pysat", "PIL", "starlette", "uvicorn", "httpx2", "jsonschema", "playwright", "nonocp"}
    assert usual <= required_modules()
