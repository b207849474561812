"""The documented Python API: the worked example of docs/python-api.md and every docstring example run here, plain data
clues are accepted, and `import nonocp` stays cheap."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import nonocp
from nonocp.core.errors import InvalidPuzzleError
from nonocp.core.puzzle import Block, Puzzle

ROOT = Path(__file__).resolve().parent.parent


def test_the_python_api_page_runs_as_a_doctest(monkeypatch):
    """Every `>>>` example of docs/python-api.md prints what the page says (it loads puzzles/heart.non)."""
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / "python-api.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 30 and result.failed == 0


def _modules_with_examples() -> list[str]:
    """Every module of src/nonocp whose docstrings hold a `>>>` example."""
    src = ROOT / "src"
    found = []
    for path in sorted((src / "nonocp").rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(src).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


@pytest.mark.parametrize("module", _modules_with_examples())
def test_docstring_examples(module):
    import importlib

    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_examples_of_the_public_api_are_found():
    assert {"nonocp", "nonocp.core.puzzle"} <= set(_modules_with_examples())


def test_every_public_name_is_documented_and_importable():
    import types

    for name in nonocp.__all__:
        value = getattr(nonocp, name)
        if isinstance(value, types.FunctionType) and value.__module__ == "nonocp":
            assert value.__doc__ and (">>>" in value.__doc__ or name in ("load", "dump")), name
    assert nonocp.solve.__annotations__ and nonocp.Puzzle.from_clues.__doc__


def test_import_nonocp_is_cheap():
    """`import nonocp` imports no engine, format, analysis or third-party library: those come on first use."""
    code = ("import sys, nonocp; heavy = [m for m in sys.modules if m.startswith(('nonocp.', 'ortools', 'pysat', "
            "'rich', 'typer', 'PIL', 'pydantic'))]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_plain_int_clues_are_blocks():
    p = Puzzle(rows=[[1], [1, 1]], cols=[[1], [0], [2]])
    assert p.rows == ((Block(1, 1),), (Block(1, 1), Block(1, 1))) and p.cols[1] == ()
    assert p == Puzzle(((Block(1),), (Block(1), Block(1))), ((Block(1),), (), (Block(2),)))
    assert str(nonocp.solve(p, "native").status) in ("unique", "multiple", "none")


def test_from_clues_colours_by_name_symbol_and_value():
    p = Puzzle.from_clues(rows=[[(1, "red"), (1, "g")]], cols=[[(1, "red")], [(1, "green")]],
                          colors={"red": "#E6194B", "green": "#3cb44b"})
    assert [(c.name, c.rgb, c.symbol) for c in p.palette.colors[1:]] == [("red", "#e6194b", "r"),
                                                                         ("green", "#3cb44b", "g")]
    assert p.rows == ((Block(1, 1), Block(1, 2)),)
    # two colours starting with the same letter get different symbols
    q = Puzzle.from_clues(rows=[[(1, "gold"), (1, "green")]], cols=[[(1, "gold")], [(1, "green")]],
                          colors=["gold", "green"])
    assert len({c.symbol for c in q.palette.colors}) == 3
    (solution,) = nonocp.solve(q, "native").solutions
    assert solution.to_strings(q.palette) == [q.palette[1].symbol + q.palette[2].symbol]


@pytest.mark.parametrize("rows,cols,colors,needle", [
    ([[1]], [[1]], ["red", "blue"], "no colour"),
    ([[(1, "pink")]], [[(1, "pink")]], ["red"], "pink"),
    ([[1]], [[1]], ["no-such-colour"], "no-such-colour"),
    ([["x"]], [[1]], None, "not a block"),
    ([[2]], [[1]], None, "row 1"),
])
def test_from_clues_errors_name_the_problem(rows, cols, colors, needle):
    with pytest.raises(InvalidPuzzleError, match=re.escape(needle)):
        Puzzle.from_clues(rows, cols, colors)


def test_loads_guesses_the_format_and_dumps_round_trips():
    (p,) = nonocp.loads("#.#\n###\n.#.\n")
    assert p.meta.goal is not None and p.width == 3
    text = nonocp.dumps(p)
    (back,) = nonocp.loads(text, "non")
    assert back.rows == p.rows and back.cols == p.cols


def test_api_matches_the_cli_on_a_shipped_puzzle(tmp_path):
    (heart,) = nonocp.load(str(ROOT / "puzzles" / "heart.non"))
    r = nonocp.solve(heart, "native")
    assert r.solutions == (heart.meta.goal,)
    path = tmp_path / "copy.xml"
    nonocp.dump(heart, str(path))
    assert nonocp.load(str(path))[0].rows == heart.rows
    assert os.path.getsize(path) > 0


def test_the_default_engines_are_the_registrys(monkeypatch):
    """solve(), solutions() and backbone() without an engine use the one the registry names as the default
    (nonocp.engines.DEFAULT_BACKEND, QUERY_BACKEND): change it there and they follow."""
    import nonocp.analysis.backbone as backbone_module
    import nonocp.engines as engines

    p = Puzzle(rows=[[1], [1, 1]], cols=[[1], [0], [2]])
    assert nonocp.solve(p).backend == engines.DEFAULT_BACKEND == "auto"
    monkeypatch.setattr(engines, "DEFAULT_BACKEND", "cpsat")
    assert nonocp.solve(p).backend == "cpsat"
    with nonocp.solutions(p) as stream:
        next(stream)
    assert stream.result.backend == "cpsat"
    asked = []
    monkeypatch.setattr(engines, "QUERY_BACKEND", "sat")
    monkeypatch.setattr(backbone_module, "find_backbone", lambda puzzle, backend, **kw: asked.append(backend))
    nonocp.backbone(p)
    assert asked == ["sat"]
