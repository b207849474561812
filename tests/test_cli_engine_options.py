"""`nonocp solve --option KEY=VALUE`: engine settings from the command line, checked against what each engine
declares (backends' OPTIONS), usage errors as one line with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nonocp.cli.app import app

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
runner = CliRunner()


def solve_json(*args):
    r = runner.invoke(app, ["solve", *map(str, args), "--format", "json"])
    return r, [json.loads(line) for line in r.stdout.splitlines()]


@pytest.mark.parametrize("encoding", ["automaton", "both"])
def test_sat_encoding_and_phase_reach_the_engine(encoding):
    r, docs = solve_json(PUZZLES / "eyes.non", "-b", "sat", "-O", f"encoding={encoding}",
                         "--option", "phase=background", "--all")
    assert r.exit_code == 0, r.stderr
    assert docs[0]["stats"]["encoding"] == encoding
    assert docs[0]["stats"]["phase"] == "background"
    assert len(docs[0]["solutions"]) == 12  # puzzles/expected.tsv: eyes.non has 12 solutions


def test_auto_passes_sat_options_on():
    r, docs = solve_json(PUZZLES / "eyes.non", "-b", "auto", "-O", "encoding=automaton", "-O", "probe=yes")
    assert r.exit_code == 0, r.stderr
    assert docs[0]["status"] == "multiple"


def test_native_switches_still_give_the_right_answer():
    r, docs = solve_json(PUZZLES / "fish.non", "-b", "native", "-O", "probe=false", "-O", "guide=off",
                         "-O", "minimize=0")
    assert r.exit_code == 0, r.stderr
    assert docs[0]["status"] == "unique"
    assert docs[0]["stats"]["probes"] == 0  # root probing really was off


@pytest.mark.parametrize(
    "args, message",
    [
        (["-b", "sat", "-O", "encodin=automaton"],
         "engine sat has no such option (its options: encoding, phase, symmetric)"),
        (["-b", "sat", "-O", "encoding=cnf"], "--option encoding=cnf: choose from automaton, blocks, both"),
        (["-b", "native", "-O", "probe=maybe"], "--option probe=maybe: expected true or false"),
        (["-b", "native", "-O", "probe"], "--option 'probe': write it as KEY=VALUE"),
        (["-b", "native", "-O", "phase=background"], "engine native has no such option"),
        (["-b", "cpsat", "-O", "probing=none"], "--option probing=none: choose from light, full"),
    ],
)
def test_a_bad_option_is_a_one_line_usage_error(args, message):
    r = runner.invoke(app, ["solve", str(PUZZLES / "eyes.non"), *args])
    assert r.exit_code == 2
    assert message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stdout == ""  # refused before any work
