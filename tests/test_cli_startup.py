"""Start-up: each command imports what it uses and nothing else. Checked by the modules a real run leaves in
sys.modules (no timing here: benchmarks/bench_startup.py measures the seconds)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import PUZZLES

HEAVY = ("pydantic", "rich", "ortools", "pysat", "PIL", "pandas", "numpy", "nonocp.analysis", "nonocp.batch",
         "nonocp.engines.sat", "nonocp.engines.cpsat", "nonocp.encode", "nonocp.formats.xml",
         "nonocp.formats.json_format", "nonocp.render.svg", "nonocp.render.png", "nonocp.render.terminal", "hashlib",
         "statistics", "importlib.metadata", "xml.sax", "urllib.request", "http", "ssl", "defusedxml")


def modules_after(*args: str) -> set[str]:
    """The modules imported by `nonocp ARGS` run in a fresh interpreter (stdout discarded)."""
    code = (
        "import io, json, sys\n"
        "from contextlib import redirect_stdout\n"
        "from nonocp.cli.app import main\n"
        "with redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({list(args)!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         stdin=subprocess.DEVNULL).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def loaded(modules: set[str], prefix: str) -> bool:
    return any(m == prefix or m.startswith(prefix + ".") for m in modules)


def test_solving_a_line_solvable_puzzle_imports_no_solver_library_and_no_pydantic():
    mods = modules_after("solve", str(PUZZLES / "heart.non"))
    assert "nonocp.engines.native" in mods and "nonocp.formats.non" in mods
    assert [h for h in HEAVY if loaded(mods, h)] == []
    # one command module: the others are imported for `nonocp --help` only
    commands = {m for m in mods if m.startswith("nonocp.cli.commands.")}
    assert commands == {"nonocp.cli.commands.solve"}


def test_json_output_and_show_stay_light_too():
    for args in (("solve", str(PUZZLES / "heart.non"), "-f", "json"), ("show", str(PUZZLES / "heart.non"))):
        mods = modules_after(*args)
        assert [h for h in HEAVY if loaded(mods, h)] == [], args


def test_a_sniffed_txt_file_stays_light(tmp_path):
    # a .txt is recognised by asking every format's sniffer, XML's among them: the sniff must not import
    # the XML reader's and writer's libraries (xml.sax.saxutils alone brings urllib, http and ssl)
    txt = tmp_path / "heart.txt"
    txt.write_text((PUZZLES / "heart.non").read_text())
    mods = modules_after("solve", str(txt), "-f", "json")
    assert "nonocp.formats.non" in mods
    sniffers = ("nonocp.formats.xml", "nonocp.formats.json_format")  # light modules: their libraries are not
    assert [h for h in HEAVY if h not in sniffers and loaded(mods, h)] == []


def test_auto_imports_sat_only_when_its_sat_stage_runs():
    mods = modules_after("solve", str(PUZZLES / "eyes.non"))  # two solutions: line logic leaves cells open,
    assert [h for h in ("nonocp.engines.sat", "pysat", "ortools") if loaded(mods, h)] == []  # native search decides
    assert "nonocp.engines.native.belief" in mods and not loaded(mods, "numpy")  # its beliefs come from C
    mods = modules_after("solve", str(PUZZLES / "counts-cat.counts"))  # count clues: SAT after line logic
    assert loaded(mods, "nonocp.engines.sat") and loaded(mods, "pysat") and not loaded(mods, "ortools")


@pytest.mark.parametrize("engine,absent", [("cpsat", ("pysat", "nonocp.engines.sat")),
                                           ("sat", ("ortools", "nonocp.engines.cpsat")),
                                           ("native", ("ortools", "pysat"))])
def test_an_engine_imports_its_own_library_only(engine, absent):
    mods = modules_after("solve", str(PUZZLES / "heart.non"), "-b", engine)
    assert [a for a in absent if loaded(mods, a)] == []
    assert not loaded(mods, "pydantic")


def test_help_imports_no_engine_analysis_or_rich():
    mods = modules_after("--help")
    assert {m for m in mods if m.startswith("nonocp.cli.commands.")} >= {
        f"nonocp.cli.commands.{c}" for c in ("solve", "show", "convert", "backends", "check", "bench", "explain",
                                            "rate")}
    assert [h for h in HEAVY if loaded(mods, h)] == []
    assert not loaded(mods, "nonocp.engines.native")


@pytest.mark.parametrize("extra", [(), ("--cell-size", "20")], ids=["quick", "typer"])
def test_the_garbage_collector_is_off_for_start_up_only(extra):
    """`nonocp` turns the collector off while it imports and parses, and back on when the command works,
    whether the quick path (nonocp.cli.quick) or typer read the command line."""
    code = (
        "import gc, sys\n"
        "import nonocp.cli as cli\n"
        "from nonocp.cli import startup\n"
        "seen = []\n"
        "work = startup.start_work\n"
        "def spy():\n"
        "    seen.append(gc.isenabled())\n"
        "    work()\n"
        "    seen.append(gc.isenabled())\n"
        "startup.start_work = spy\n"
        f"sys.argv = ['nonocp', 'solve', {str(PUZZLES / 'heart.non')!r}, *{list(extra)!r}]\n"
        "try:\n"
        "    cli.main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('seen', seen, gc.isenabled(), 'typer' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         stdin=subprocess.DEVNULL).stdout
    assert out.strip().splitlines()[-1] == f"seen [False, True] True {bool(extra)}"
