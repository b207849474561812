"""The quick path (nonocp/cli/quick.py): a plain `nonocp solve` read without typer must mean exactly what
typer reads, and must leave everything else to typer.

Checked three ways: the arguments it reads against typer's own parse of the same command line (hypothesis,
in-process); whole runs through both readers (output, messages, exit codes); and which one ran (typer
imported or not)."""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import PUZZLES, examples
from nonocp.cli.quick import plain_solve

HEART = str(PUZZLES / "heart.non")
EYES = str(PUZZLES / "eyes.non")


def typer_params(argv: list[str]) -> dict | None:
    """What typer hands to the work (solve_puzzles) for `nonocp ARGV`; None when it refuses the command line."""
    from typer.main import get_command

    from nonocp.cli.app import build_app
    from nonocp.cli.commands import solve

    group = get_command(build_app(argv))
    command = group.commands["solve"]
    try:
        ctx = command.make_context("solve", list(argv[1:]))
    except Exception:  # noqa: BLE001 - any usage error: typer refuses it
        return None
    seen: dict = {}

    def spy(puzzles, **kwargs):
        seen.update(puzzles=puzzles, **kwargs)
        return 0

    work, solve.solve_puzzles = solve.solve_puzzles, spy
    try:
        command.invoke(ctx)
    except Exception as e:  # noqa: BLE001 - typer's exit after the work
        assert getattr(e, "exit_code", None) == 0, e
    finally:
        solve.solve_puzzles = work
    return seen


def solve_defaults() -> dict:
    from nonocp.cli.solving import solve_puzzles

    return {name: p.default for name, p in inspect.signature(solve_puzzles).parameters.items()
            if p.default is not inspect.Parameter.empty}


def test_the_typer_command_and_the_work_have_the_same_parameters_and_defaults():
    from nonocp.cli.commands.solve import solve_command
    from nonocp.cli.solving import solve_puzzles

    def shape(f):
        return [(name, p.default) for name, p in inspect.signature(f).parameters.items()]

    assert shape(solve_command) == shape(solve_puzzles)


# Values an option may be given, typer's odd readings among them ("+2", "1e3", "nan", " text").
VALUES = {
    "-b": ["native", "auto", "sat:minisat22", "no-such"], "--backend": ["cpsat"],
    "-f": ["json", "JSON", " text", "non", "svg", "png", "csv", ""], "--format": ["text", "json"],
    "-n": ["0", "1", "2", "+2", "007", "1_0", "-1", "x"], "--max-solutions": ["3"], "--solutions": ["2"],
    "-t": ["0", "0.5", "5.", ".5", "1e3", "inf", "nan", "-1"], "--timeout": ["0", "3"],
    "--from": ["non", "NON", " xml", ""], "--seed": ["0", "42", "+1"], "--color": ["never", "ALWAYS", "sometimes"],
    "--colour": ["never"], "--cell-size": ["20"], "-o": ["out.txt"], "-w": ["2"], "--workers": ["1"],
}
FLAG_WORDS = ["--all", "--progress", "--no-progress", "--compact", "--backbone", "--force", "--all=1", "--",
              "--help", "-h", "-bnative", "--backend=native", "--format=json", "--timeout=0", "-n=2", "solve"]


@st.composite
def command_lines(draw) -> list[str]:
    """`solve`, puzzle files and options in any order, mostly well-formed, sometimes not."""
    words = [[w] for w in draw(st.lists(st.sampled_from([HEART, EYES, "-", ""]), min_size=0, max_size=2))]
    for option in draw(st.lists(st.sampled_from(sorted(VALUES)), max_size=4)):
        value = draw(st.sampled_from(VALUES[option]))
        together = option.startswith("--") and draw(st.booleans())
        words.append([f"{option}={value}"] if together else [option, value])
    words += [[w] for w in draw(st.lists(st.sampled_from(FLAG_WORDS), max_size=2))]
    order = draw(st.permutations(range(len(words))))
    return ["solve", *(w for i in order for w in words[i])]


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(command_lines())
def test_what_the_quick_path_reads_is_what_typer_reads(argv):
    quick = plain_solve(argv)
    if quick is None:
        return  # typer reads it (and its errors are typer's)
    parsed = typer_params(argv)
    assert parsed is not None, f"the quick path took a command line typer refuses: {argv}"
    assert parsed == {**solve_defaults(), **quick}, argv


@pytest.mark.parametrize("argv", [
    ["solve", HEART, "--cell-size", "20"], ["solve", HEART, "-bnative"], ["solve", HEART, "--", EYES],
    ["solve", HEART, "-n", "+2"], ["solve", HEART, "-t", "1e3"],
    ["solve"], ["solve", "-b", HEART], ["solve", "--help"], ["show", HEART], ["--version"], [],
    ["solve", HEART, "-t", "-1"], ["solve", HEART, "--format", "csv"],
])
def test_anything_not_plain_is_left_to_typer(argv):
    assert plain_solve(argv) is None


def test_plain_options_are_read_here():
    assert plain_solve(["solve", HEART, "-b", "native", "-f", "JSON", "-n", "0", "--timeout=0", "--no-progress",
                        EYES]) == {"puzzles": [HEART, EYES], "backend": "native", "fmt": "json",
                                   "max_solutions": 0, "timeout": None, "progress": False}


# --- whole runs: both readers give the same output, messages and exit code ---------------------------------

def run(reader: str, argv: list[str], cwd) -> tuple[int, str, str, bool]:
    code = ("import atexit, sys\n"
            "atexit.register(lambda: sys.stderr.write('\\nTYPER %s\\n' % ('typer' in sys.modules)))\n"
            f"from {reader} import main\n"
            "main()\n")
    p = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, cwd=cwd, stdin=subprocess.DEVNULL)
    err = p.stderr.decode()
    err, _, typer_seen = err.rpartition("\nTYPER ")
    return p.returncode, p.stdout.decode(errors="replace"), err, typer_seen.strip() == "True"


def same_but_times(text: str) -> str:
    """The output with its measured times taken out (they differ from run to run)."""
    text = re.sub(r"\d+\.\d{3} s\]", "T s]", text)
    lines = []
    for line in text.splitlines():
        if line.startswith("{"):
            doc = json.loads(line)
            doc.pop("seconds", None)
            doc.pop("stats", None)
            line = json.dumps(doc, sort_keys=True)
        lines.append(line)
    return "\n".join(lines)


def test_both_readers_run_the_same_solve(tmp_path):
    bad = tmp_path / "bad.non"
    bad.write_text("width 3\nheight 2\nrows\n1\n9\ncolumns\n1\n1\n1\n")
    txt = tmp_path / "heart.txt"
    txt.write_text((PUZZLES / "heart.non").read_text())
    cases = [
        ["solve", HEART],
        ["solve", EYES, "-f", "json", "-n", "3"],
        ["solve", str(PUZZLES / "no-way.non"), "-f", "json"],
        ["solve", str(PUZZLES / "gen-c3-12x12.non"), "-b", "native", "--no-progress"],
        ["solve", HEART, EYES, "-f", "non"],
        ["solve", str(bad), HEART, "-f", "json"],
        ["solve", str(tmp_path / "missing.non")],
        ["solve", str(txt), "--from", "non", "-t", "0"],
        ["solve", EYES, "--all", "-n", "2"],
        ["solve", HEART, "-b", "no-such-engine"],
        ["solve", EYES, "--backbone"],
        ["solve", HEART, "-f", "svg"],
    ]
    for argv in cases:
        assert plain_solve(argv) is not None, argv
        quick, typer_run = run("nonocp.cli", argv, tmp_path), run("nonocp.cli.app", argv, tmp_path)
        assert quick[3] is False and typer_run[3] is True, argv  # which reader ran
        assert quick[0] == typer_run[0], argv
        assert same_but_times(quick[1]) == same_but_times(typer_run[1]), argv
        assert quick[2] == typer_run[2], argv
    assert run("nonocp.cli", ["solve", str(PUZZLES / "no-way.non")], tmp_path)[0] == 1  # the codes are real
    assert run("nonocp.cli", ["solve", str(tmp_path / "missing.non")], tmp_path)[0] == 2


def test_a_png_on_standard_output_is_the_same_bytes(tmp_path):
    argv = ["solve", HEART, "-f", "png"]
    a = subprocess.run([sys.executable, "-c", "from nonocp.cli import main; main()", *argv], capture_output=True,
                       stdin=subprocess.DEVNULL).stdout
    b = subprocess.run([sys.executable, "-c", "from nonocp.cli.app import main; main()", *argv],
                       capture_output=True, stdin=subprocess.DEVNULL).stdout
    assert a.startswith(b"\x89PNG") and a == b
