"""Help, version and usage errors, and the shared options: the same names, metavars and checks in every command."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import typer.main
from typer.testing import CliRunner

import nonocp
from conftest import PUZZLES, ROOT
from nonocp.cli.app import app, command_modules

runner = CliRunner()
COMMANDS = sorted(typer.main.get_command(app).commands)


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_every_command_module_registers_its_command():
    assert set(command_modules()) <= set(COMMANDS)
    assert {"solve", "show", "convert", "backends", "check", "bench", "explain", "rate"} <= set(COMMANDS)


@pytest.mark.parametrize("command", [[], *[[c] for c in COMMANDS]])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_is_plain_and_complete(command, flag):
    r = run(*command, flag)
    assert r.exit_code == 0 and r.stdout.startswith("Usage: nonocp")
    # no type placeholders, no boxes, no markup
    assert not re.search(r"<(bool|str|int|float|list\[str\])>|\{\w+\}|[╭│╰]", r.stdout), r.stdout
    if command:
        group = typer.main.get_command(app).commands[command[0]]
        for param in group.params:
            if param.param_type_name == "option" and not param.hidden:
                shown = [o for o in param.opts if o != "--backends" and o != "--colour"]
                assert any(o in r.stdout for o in shown), (command, param.opts)
                if not param.is_flag:
                    assert param.metavar, f"{command[0]} {param.opts}: give it a metavar"


def test_version():
    r = run("--version")
    assert r.exit_code == 0 and r.stdout.strip() == f"nonocp {nonocp.__version__}"


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unknown_option_is_one_line_naming_the_help(command):
    r = run(command, "--no-such-option")
    assert r.exit_code == 2 and r.stdout == ""
    (line,) = r.stderr.splitlines()
    assert line.startswith("nonocp: no such option: --no-such-option")  # click may add a suggestion
    assert line.endswith(f"(see 'nonocp {command} --help')")


def test_unknown_command_and_missing_argument_are_one_line():
    r = run("solv")
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1 and "solve" in r.stderr
    r = run("solve")
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1 and "PUZZLE" in r.stderr


def test_usage_errors_in_a_real_process_are_one_line():
    p = subprocess.run([sys.executable, "-m", "nonocp.cli", "solve", str(PUZZLES / "heart.non"), "-t", "x"],
                       capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.splitlines() == [
        "nonocp: invalid value for '--timeout' / '-t': 'x' is not a number (see 'nonocp solve --help')"]


def _options_by_name():
    """long option name -> {command: (opts, metavar, help)} over every command."""
    seen: dict[str, dict[str, tuple]] = {}
    for name, command in typer.main.get_command(app).commands.items():
        for p in command.params:
            if p.param_type_name != "option":
                continue
            long = next(o for o in p.opts if o.startswith("--"))
            seen.setdefault(long, {})[name] = (tuple(sorted(p.opts)), p.metavar, p.help)
    return seen


@pytest.mark.parametrize("option", ["--timeout", "--from", "--color", "--cell-size", "--output", "--backend"])
def test_shared_options_are_declared_the_same_everywhere(option):
    by_command = _options_by_name().get(option, {})
    assert len(by_command) >= 2, f"{option} is shared by several commands"
    names = {v[0] for v in by_command.values()}
    metavars = {v[1] for v in by_command.values()}
    if option == "--backend":  # one engine (solve) or several (check, bench): two declarations
        assert len(metavars) == 2 and {"ENGINE", "ENGINE,..."} == metavars
    elif option == "--output":  # explain's is a file or a folder: same names, its own metavar
        assert len(names) == 1
    else:
        assert len(names) == 1 and len(metavars) == 1, by_command
    if option == "--timeout":
        helps = {v[2].split(" (default")[0] for v in by_command.values()}
        assert len(helps) == 1  # the same rule; only the default differs (bench: 60)


# Commands that print no report (a server): nothing for -f json to format.
NO_REPORT = {"serve"}


def test_format_is_f_and_json_is_offered_everywhere():
    for name, command in typer.main.get_command(app).commands.items():
        if name in NO_REPORT:
            continue
        fmt = [p for p in command.params if "--format" in p.opts]
        assert fmt and "-f" in fmt[0].opts, f"{name}: -f/--format"
        assert "json" in fmt[0].help, f"{name}: -f json"


@pytest.mark.parametrize("value,ok", [("0", True), ("2.5", True), ("-1", False), ("never", False)])
@pytest.mark.parametrize("command", ["solve", "explain", "rate", "check"])
def test_timeout_rule_is_the_same_in_every_command(command, value, ok, monkeypatch):
    r = run(command, PUZZLES / "dot.non", "--timeout", value)
    if ok:
        assert r.exit_code == 0, r.output
    else:
        assert r.exit_code == 2 and "--timeout" in r.stderr and len(r.stderr.splitlines()) == 1


def test_engine_names_in_help_come_from_the_registry():
    from nonocp.engines import BACKENDS, DEFAULT_BACKEND

    for command in ("solve", "check", "bench"):
        text = " ".join(run(command, "-h").stdout.split())
        assert all(name in text for name in BACKENDS), command
    bench = " ".join(run("bench", "-h").stdout.split())
    assert f"(default: {DEFAULT_BACKEND})" in bench and "default: native" not in bench


def test_check_backends_old_spelling_still_works_but_is_not_shown():
    r = run("check", PUZZLES / "dot.non", "--backends", "native,sat", "-f", "json")
    assert r.exit_code == 0, r.output
    assert "--backends" not in run("check", "-h").stdout
    r2 = run("check", PUZZLES / "dot.non", "-b", "native", "-b", "sat", "-f", "json")
    assert r2.exit_code == 0 and r2.stdout.count('"engine"') == r.stdout.count('"engine"') == 2


def test_show_no_goal_says_the_goal_is_not_shown():
    r = run("show", PUZZLES / "heart.non", "--no-goal")
    assert r.exit_code == 0
    assert "goal: in the file, not shown (--no-goal)" in r.stdout and "shown below" not in r.stdout
    assert "goal: shown below" in run("show", PUZZLES / "heart.non").stdout


def test_proof_says_where_it_wrote(tmp_path):
    proofs = tmp_path / "proofs"
    r = run("solve", PUZZLES / "gen-none-10x10.non", "-b", "sat", "--proof", proofs)
    assert r.exit_code == 1
    (line,) = [ln for ln in r.stdout.splitlines() if ln.startswith("proof:")]
    written = re.findall(r"(\S+\.(?:cnf|drat))", line)
    assert len(written) == 2 and all(p.startswith(str(proofs)) for p in written)
    assert sorted(f.name for f in proofs.iterdir()) == sorted(p.rsplit("/", 1)[-1] for p in written)
    r = run("solve", PUZZLES / "gen-none-10x10.non", "-b", "native", "--proof", tmp_path / "none")
    assert r.exit_code == 1 and "proof: none written" in r.stdout and "native, which writes no certificate" in r.stdout
    r = run("solve", PUZZLES / "gen-none-10x10.non", "--proof", tmp_path / "auto")  # auto: its SAT step alone
    assert r.exit_code == 1 and "alone, for the proof" in r.stdout and "proof: wrote" in r.stdout


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_cell_size_scales_the_pictures(tmp_path, fmt):
    from nonocp.render.geometry import picture

    (heart,) = nonocp.load(str(PUZZLES / "heart.non"))
    for size in (10, 33):
        out = tmp_path / f"h{size}.{fmt}"
        assert run("solve", PUZZLES / "heart.non", "-b", "native", "-f", fmt, "-o", out, "--cell-size", size
                   ).exit_code == 0
        want = picture(heart, cell=size)
        if fmt == "svg":
            text = out.read_text()
            assert f'width="{want.width}" height="{want.height}"' in text and f'width="{size}"' in text
        else:
            from PIL import Image

            with Image.open(out) as img:
                assert img.size == (want.width, want.height)


@pytest.mark.parametrize("args", [["--help"], ["-h", "solve"], []])
def test_the_group_help_of_a_real_process_lists_every_command(args):
    """`nonocp solve` imports only the solve module; the group's own help must still list them all."""
    p = subprocess.run([sys.executable, "-m", "nonocp.cli", *args], capture_output=True, text=True, cwd=ROOT,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == (2 if not args else 0)  # no arguments: the help, with click's usage code
    listed = p.stdout.split("Commands:", 1)[1].split()
    assert all(c in listed for c in COMMANDS)


def test_the_docs_document_every_input_format_and_the_picture_readers():
    from nonocp.formats import readable_formats

    cli = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    (row,) = [line for line in cli.splitlines() if line.startswith("| `--from FORMAT` |")]
    assert [f for f in readable_formats() if f"`{f}`" not in row] == []
    formats = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    assert "`picture`" in formats and "`pbm`" in formats
    # the examples name shipped puzzles only
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for name in re.findall(r"puzzles/([\w.-]+\.\w+)", page.read_text(encoding="utf-8")):
            assert (PUZZLES / name).exists(), (page.name, name)
