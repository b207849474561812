"""The output policy (nonocp.core.outputs.Outputs) through the real commands, each a separate process: no
command writes over a file it reads (named, found in a folder, through a link or a hard link, or read as
standard input), two outputs never share a path, a read-only file is replaced only with --force and keeps
its mode. `bench` reports used to replace the puzzle they were reading, even a read-only one."""

from __future__ import annotations

import csv
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PUZZLES

HEART = PUZZLES / "heart.non"
NONOCP = [sys.executable, "-m", "nonocp.cli"]


def nonocp(*args: str | Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*NONOCP, *map(str, args)], capture_output=True, text=True, timeout=300, **kw)


def puzzle(folder: Path, name: str = "x.non", mode: int | None = None) -> Path:
    path = folder / name
    path.write_text(HEART.read_text())
    if mode is not None:
        path.chmod(mode)
    return path


def unchanged(path: Path, mode: int | None = None) -> bool:
    return path.read_text() == HEART.read_text() and (mode is None or stat.S_IMODE(path.stat().st_mode) == mode)


def refused(r: subprocess.CompletedProcess, words: str) -> bool:
    """Exit 2 with one line on stderr that says `words`, and no traceback."""
    lines = r.stderr.strip().splitlines()
    return r.returncode == 2 and len(lines) == 1 and words in lines[0] and "Traceback" not in r.stderr


@pytest.mark.parametrize("option", ["--csv", "--json"])
def test_bench_report_never_replaces_the_read_only_puzzle_it_reads(tmp_path, option):
    x = puzzle(tmp_path, mode=0o444)
    for force in ((), ("--force",)):
        r = nonocp("bench", x, "-b", "native", "--no-progress", option, x, *force)
        assert refused(r, "refusing to overwrite the input file"), r.stderr
        assert unchanged(x, 0o444)


def test_bench_report_never_replaces_a_puzzle_found_in_a_scanned_folder(tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    a = puzzle(folder, "a.non")
    puzzle(folder, "b.non")
    link = tmp_path / "alias.csv"
    link.symlink_to(a)
    hard = tmp_path / "hard.json"
    os.link(a, hard)
    for option, target in (("--csv", a), ("--json", a), ("--csv", link), ("--json", hard)):
        r = nonocp("bench", folder, "-b", "native", "--no-progress", option, target)
        assert refused(r, "refusing to overwrite the input file"), (option, target, r.stderr)
        assert unchanged(a)
    assert link.is_symlink()


def test_bench_csv_and_json_on_one_path_is_refused_before_any_work(tmp_path):
    x = puzzle(tmp_path)
    report = tmp_path / "report"
    r = nonocp("bench", x, "-b", "native", "--no-progress", "--csv", report, "--json", report)
    assert refused(r, "--csv and --json name the same file"), r.stderr
    assert not report.exists()
    link = tmp_path / "other-name"
    report.write_text("kept")
    link.symlink_to(report)
    r = nonocp("bench", x, "-b", "native", "--no-progress", "--csv", report, "--json", link)
    assert refused(r, "--csv and --json name the same file"), r.stderr
    assert report.read_text() == "kept"


def test_bench_read_only_report_needs_force_and_keeps_its_mode(tmp_path):
    x = puzzle(tmp_path)
    report = tmp_path / "r.csv"
    report.write_text("an old report\n")
    report.chmod(0o444)
    r = nonocp("bench", x, "-b", "native", "--no-progress", "--csv", report)
    assert refused(r, f"{report}: is read-only; use --force to replace it"), r.stderr
    assert report.read_text() == "an old report\n"
    r = nonocp("bench", x, "-b", "native", "--no-progress", "--csv", report, "--force")
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(report.open()))
    assert [row["verdict"] for row in rows] == ["unique"]
    assert stat.S_IMODE(report.stat().st_mode) == 0o444


def test_standard_input_read_from_a_file_is_an_input(tmp_path):
    x = puzzle(tmp_path)
    with x.open() as stdin:
        r = nonocp("solve", "-", "-b", "native", "-f", "non", "-o", x, "--force", stdin=stdin)
    assert refused(r, f"{x}: refusing to overwrite the input file (standard input)"), r.stderr
    assert unchanged(x)
    with x.open() as stdin:  # another output is fine
        r = nonocp("solve", "-", "-b", "native", "-f", "non", "-o", tmp_path / "y.non", stdin=stdin)
    assert r.returncode == 0, r.stderr


def test_two_outputs_of_design_on_one_path_are_refused(tmp_path):
    x = puzzle(tmp_path)
    out = tmp_path / "out.svg"
    r = nonocp("design", x, "-o", out, "--to", "non", "--picture", out)
    assert refused(r, "--output and --picture name the same file"), r.stderr
    assert not out.exists()


def test_a_proof_file_that_is_the_output_is_refused(tmp_path):
    """`-o` naming the certificate `--proof` will write: one of them would be lost."""
    from nonocp.formats import load

    x = puzzle(tmp_path)
    proofs = tmp_path / "proofs"
    cnf = proofs / f"puzzle-{load(str(x))[0].fingerprint()}.cnf"
    r = nonocp("solve", x, "-b", "sat", "--proof", proofs, "-f", "json", "-o", cnf)
    assert refused(r, "--output and --proof name the same file"), r.stderr
    assert not cnf.exists()


def test_read_only_proof_file_needs_force(tmp_path):
    from nonocp.formats import load

    x = puzzle(tmp_path)
    proofs = tmp_path / "proofs"
    proofs.mkdir()
    cnf = proofs / f"puzzle-{load(str(x))[0].fingerprint()}.cnf"
    cnf.write_text("c old\n")
    cnf.chmod(0o444)
    r = nonocp("solve", x, "-b", "sat", "--proof", proofs)
    assert refused(r, f"{cnf}: is read-only; use --force to replace it"), r.stderr
    assert cnf.read_text() == "c old\n"
    r = nonocp("solve", x, "-b", "sat", "--proof", proofs, "--force")
    assert r.returncode == 0, r.stderr
    assert cnf.read_text().startswith("c ") and "p cnf" in cnf.read_text()


def test_proof_folder_that_is_a_file_or_device_is_named(tmp_path):
    r = nonocp("solve", HEART, "-b", "sat", "--proof", "/dev/null")
    assert refused(r, "--proof /dev/null: is not a folder"), r.stderr


def test_empty_output_name_is_said_with_the_option(tmp_path):
    r = nonocp("solve", HEART, "-b", "native", "-o", "")
    assert refused(r, "--output '': the file name is empty"), r.stderr


def test_explain_folder_and_read_only_file_follow_the_policy(tmp_path):
    x = puzzle(tmp_path)
    r = nonocp("explain", x, "-o", x)
    assert refused(r, "refusing to overwrite the input file"), r.stderr
    ro = tmp_path / "steps.txt"
    ro.write_text("old")
    ro.chmod(0o444)
    r = nonocp("explain", x, "-o", ro)
    assert refused(r, "is read-only; use --force"), r.stderr
    r = nonocp("explain", x, "-o", ro, "--force")
    assert r.returncode == 0, r.stderr
    assert "Step 1" in ro.read_text() or "step 1" in ro.read_text().lower()


# --- smaller items of the same path -------------------------------------------------------------------


def test_a_formula_title_is_text_in_the_bench_csv_and_resumes_exactly(tmp_path):
    title = '=HYPERLINK("http://example.invalid","x")'
    x = tmp_path / "f.non"
    x.write_text(HEART.read_text().replace('title "Heart"', f'title "{title}"'))
    report = tmp_path / "r.csv"
    r = nonocp("bench", x, "-b", "native", "--no-progress", "--csv", report)
    assert r.returncode == 0, r.stderr
    (row,) = list(csv.DictReader(report.open()))
    assert row["title"] == "'" + title  # a spreadsheet shows it as text, never runs it
    r = nonocp("bench", x, "-b", "native", "--no-progress", "--resume", report, "-f", "json")
    assert r.returncode == 0, r.stderr
    (row,) = list(csv.DictReader(report.open()))
    assert row["title"] == "'" + title and "1 of 1 rows already there" in r.stderr


def test_a_torn_last_row_is_said_on_resume(tmp_path):
    x = puzzle(tmp_path)
    y = puzzle(tmp_path, "y.non")
    report = tmp_path / "r.csv"
    r = nonocp("bench", x, y, "-b", "native", "--no-progress", "--csv", report)
    assert r.returncode == 0, r.stderr
    text = report.read_text()
    report.write_text(text[: text.rindex(",")])  # the last row cut inside its last field, as a kill leaves it
    r = nonocp("bench", x, y, "-b", "native", "--no-progress", "--resume", report)
    assert r.returncode == 0, r.stderr
    assert f"{report}: line 3: the last row is incomplete" in r.stderr
    assert [row["verdict"] for row in csv.DictReader(report.open())] == ["unique", "unique"]


def test_a_title_a_format_cannot_keep_is_said(tmp_path):
    src = tmp_path / "t.json"
    src.write_text('{"title": "two\\nlines", "rows": [[1]], "columns": [[1]]}')
    for out in ("t.non", "t.xml"):
        r = nonocp("convert", src, tmp_path / out)
        assert r.returncode == 0, r.stderr
        assert f"{tmp_path / out}: the title holds line breaks or control characters" in r.stderr
    r = nonocp("convert", src, tmp_path / "copy.json")  # JSON keeps it: nothing to say
    assert r.returncode == 0 and r.stderr == "", r.stderr
