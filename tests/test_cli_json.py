"""`-f json` on every command: one JSON object per line, each valid against the command's schema
(nonocp/cli/schemas.py), through real processes; and what the fields say is true."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema

from conftest import PUZZLES, ROOT
from nonocp.cli.schemas import SCHEMAS


def json_lines(*args: str, code: int | None = 0, stdin: bytes | None = None) -> list[dict]:
    p = subprocess.run([sys.executable, "-m", "nonocp.cli", *map(str, args)], capture_output=True, cwd=ROOT,
                       input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL)
    if code is not None:
        assert p.returncode == code, p.stderr.decode()
    lines = p.stdout.decode().splitlines()
    assert lines, "no output"
    return [json.loads(line) for line in lines]  # every line is one whole object


def validate(command: str, objects: list[dict]) -> None:
    validator = jsonschema.Draft202012Validator(SCHEMAS[command])
    for obj in objects:
        errors = sorted(validator.iter_errors(obj), key=str)
        assert not errors, f"{command}: {errors[0].message} at {list(errors[0].absolute_path)}"


def test_the_schemas_are_valid_schemas():
    for name, schema in SCHEMAS.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["title"].startswith(f"nonocp {name}")


def test_solve(tmp_path):
    files = [PUZZLES / n for n in ("heart.non", "eyes.non", "no-way.non", "rainbow.non", "gen-bundle.nonpack")]
    out = json_lines("solve", *files, "-f", "json", code=1)
    validate("solve", out)
    assert len(out) == 4 + 4  # the bundle holds four puzzles
    by_title = {o["puzzle"]["title"]: o for o in out}
    assert by_title["Heart"]["decided_by"] == "native line logic" and by_title["Heart"]["count"] == 1
    eyes = by_title["Eyes (several solutions)"]
    assert (eyes["status"], eyes["exhaustive"], eyes["count"]) == ("multiple", False, None)


def test_solve_exhaustive_count_tells_exactly_from_at_least():
    [every] = json_lines("solve", PUZZLES / "eyes.non", "-f", "json", "--all", "-b", "native")
    [some] = json_lines("solve", PUZZLES / "eyes.non", "-f", "json", "-n", "5", "-b", "native")
    validate("solve", [every, some])
    assert (every["exhaustive"], every["count"], len(every["solutions"])) == (True, 12, 12)
    assert (some["exhaustive"], some["count"], len(some["solutions"])) == (False, None, 5)
    assert every["status"] == some["status"] == "multiple"


def test_solve_backbone_proof_and_input_errors(tmp_path):
    [bb] = json_lines("solve", PUZZLES / "smiley.non", "--backbone", "-f", "json")
    validate("solve", [bb])
    assert bb["backbone"]["ambiguous_cells"] > 0
    proofs = tmp_path / "proofs"
    [none] = json_lines("solve", PUZZLES / "no-way.non", "-b", "sat", "--proof", proofs, "-f", "json", code=1)
    validate("solve", [none])
    if "proof" in none:
        assert (proofs / none["proof"]["cnf"].rsplit("/", 1)[-1]).exists()
    out = json_lines("solve", PUZZLES / "dot.non", tmp_path / "missing.non", "-f", "json", code=2)
    validate("solve", out)
    assert out[1]["index"] == 0 and "missing.non" in out[1]["error"]


def test_show():
    out = json_lines("show", PUZZLES / "rainbow.non", PUZZLES / "gen-bundle.nonpack", "-f", "json")
    validate("show", out)
    assert out[0]["rows"][0] == ["6r"] and out[0]["goal"][0] == "000rrrrrr000"
    [hidden] = json_lines("show", PUZZLES / "rainbow.non", "-f", "json", "--no-goal")
    assert hidden["goal"] is None and hidden["has_goal"] is True


def test_convert(tmp_path):
    [report] = json_lines("convert", PUZZLES / "gen-bundle.nonpack", tmp_path / "b.xml", "-f", "json")
    validate("convert", [report])
    assert report["format"] == "xml" and report["puzzles"] == 4


def test_backends():
    out = json_lines("backends", "-f", "json")
    validate("backends", out)
    from nonocp.engines import BACKENDS

    assert [o["name"] for o in out] == list(BACKENDS)


def test_check():
    out = json_lines("check", PUZZLES / "heart.non", PUZZLES / "eyes.non", "-b", "native,sat", "-f", "json")
    validate("check", out)
    assert [o["verdict"] for o in out] == ["unique", "multiple"] and all(o["agree"] for o in out)


def test_bench():
    out = json_lines("bench", PUZZLES / "heart.non", PUZZLES / "no-way.non", "-b", "native,sat", "--no-progress",
                     "-f", "json")
    validate("bench", out)
    assert [(o["file"].rsplit("/", 1)[-1], o["engine"], o["verdict"]) for o in out] == [
        ("heart.non", "native", "unique"), ("heart.non", "sat", "unique"),
        ("no-way.non", "native", "none"), ("no-way.non", "sat", "none")]


def test_explain():
    out = json_lines("explain", PUZZLES / "heart.non", "-f", "json")
    validate("explain", out)
    assert out[0]["outcome"] == "solved" and out[0]["steps"]


def test_rate(tmp_path):
    bad = tmp_path / "bad.non"
    bad.write_text("width 2\n")
    out = json_lines("rate", PUZZLES / "heart.non", bad, "-f", "json", code=2)
    validate("rate", out)
    assert out[0]["verdict"] == "LINE" and out[1]["error"]
