"""`solve --all` and `solve -n N` through the real command line: every solution written as it is found and
none held, so memory stays flat whatever the enumeration runs into; a reader that goes away (`| head`) stops
the search."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

import nonocp
from nonocp.cli.schemas import SCHEMAS

NONOCP = [sys.executable, "-m", "nonocp.cli"]


@pytest.fixture(scope="module")
def perms(tmp_path_factory):
    """{n: path} of n x n puzzles whose every clue is `1` (n! solutions)."""
    folder = tmp_path_factory.mktemp("perms")
    out = {}
    for n in (4, 6, 20):
        path = folder / f"perm{n}.json"
        nonocp.dump(nonocp.Puzzle.from_clues([[1]] * n, [[1]] * n, title=f"perm{n}"), str(path))
        out[n] = str(path)
    return out


def run(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*NONOCP, *args], capture_output=True, text=True, **kwargs)


@pytest.mark.parametrize("backend", ["native", "sat", "auto"])
def test_all_solutions_in_text_each_once_then_the_summary(perms, backend):
    r = run("solve", perms[6], "--all", "-b", backend)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert sum(1 for line in lines if line.startswith("solution ")) == 720
    assert lines[0] == "solution 1:" and "solution 720:" in lines
    assert "exactly 720 solutions" in lines[-1]  # the verdict comes last, once it is known
    grids = r.stdout.split("solution ")[1:]
    assert len(set(g.split(":", 1)[1] for g in grids)) == 720  # distinct


def test_all_solutions_in_json_is_one_object_per_puzzle_written_as_it_grows(perms):
    r = run("solve", perms[6], "--all", "-b", "native", "-f", "json")
    assert r.returncode == 0, r.stderr
    (line,) = r.stdout.splitlines()
    doc = json.loads(line)
    assert doc["count"] == 720 and len(doc["solutions"]) == 720 and doc["exhaustive"] is True
    assert len({tuple(s) for s in doc["solutions"]}) == 720
    assert doc["status"] == "multiple" and doc["puzzle"]["title"] == "perm6"
    jsonschema.Draft202012Validator(SCHEMAS["solve"]).validate(doc)


def test_max_solutions_streams_and_stops_there(perms):
    r = run("solve", perms[6], "-n", "5", "-b", "native", "-f", "json")
    doc = json.loads(r.stdout)
    assert r.returncode == 0 and len(doc["solutions"]) == 5 and doc["stopped"] == "limit"


def test_output_file_receives_the_stream(perms, tmp_path):
    out = tmp_path / "all.txt"
    r = run("solve", perms[4], "--all", "-b", "native", "-o", str(out))
    assert r.returncode == 0 and r.stdout == ""
    text = out.read_text()
    assert text.count("solution ") == 24 and "exactly 24 solutions" in text.splitlines()[-1]


def test_backbone_of_an_enumeration_is_the_union_of_what_streamed(perms):
    r = run("solve", perms[4], "--all", "--backbone", "-b", "native", "-f", "json")
    doc = json.loads(r.stdout)
    assert doc["count"] == 24 and doc["backbone"]["exact"] is True
    assert doc["backbone"]["ambiguous_cells"] == 16 and doc["backbone"]["fixed_cells"] == 0


def test_format_non_keeps_the_first_solution_streamed(perms):
    r = run("solve", perms[4], "--all", "-b", "native", "-f", "non")
    (p,) = nonocp.loads(r.stdout, "non")
    assert p.meta.goal is not None and p.is_solution(p.meta.goal)


def test_memory_stays_flat_however_many_solutions(perms):
    """50,000 solutions of perm20 streamed through the real command: its peak memory stays far below what
    holding them took (each held grid cost about 4 kB: 200 MB for these)."""
    probe = ("import resource, subprocess, sys; "
             "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
             "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe, *NONOCP, "solve", perms[20], "-n", "50000", "-b", "native",
                          "-f", "json"], capture_output=True, text=True, check=True).stdout
    code, peak_kib = map(int, out.split())
    assert code == 0
    assert peak_kib < 120 * 1024, f"peak {peak_kib // 1024} MiB"


def test_a_reader_that_goes_away_stops_the_search(perms):
    """`solve --all | head -1` on 20! solutions with no time limit: the command ends when the pipe closes,
    with a shell's status for it (141) and nothing on stderr."""
    proc = subprocess.Popen([*NONOCP, "solve", perms[20], "--all", "-b", "native"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    try:
        code = proc.wait(timeout=120)  # a safety net: without the fix it would run for ever
    finally:
        proc.kill()
    assert first == b"solution 1:\n"
    assert code == 141 and proc.stderr.read() == b""
