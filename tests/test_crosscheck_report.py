"""benchmarks/crosscheck.py's report: records of one puzzle from several runs are merged, not replaced."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "crosscheck.py"
_spec = importlib.util.spec_from_file_location("bench_crosscheck", _PATH)
crosscheck_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(crosscheck_bench)


def record(runs: dict[str, str], verdict: str, agree: bool = True) -> dict:
    return {
        "set": "tournament", "file": "t.txt", "index": 7, "title": "x", "engines": sorted(runs), "timeout": 10,
        "verdict": verdict, "agree": agree, "problems": [] if agree else ["some problem"],
        "runs": {e: {"status": s, "seconds": 1.0, "n": 2} for e, s in runs.items()},
        "goal": "ok", "expected": None, "count": None, "solutions": 2,
    }


def test_a_later_engine_adds_to_the_cross_check():
    first = record({"native": "timeout", "sat": "multiple"}, "multiple")
    later = record({"cpsat": "multiple"}, "multiple")
    (merged,) = crosscheck_bench.merge_records([first, later]).values()
    assert crosscheck_bench._deciders(first) == 1
    assert crosscheck_bench._deciders(merged) == 2
    assert set(merged["runs"]) == {"native", "sat", "cpsat"}
    assert merged["agree"] and merged["verdict"] == "multiple"


def test_verdicts_differing_across_runs_are_a_disagreement():
    first = record({"native": "timeout", "sat": "unique"}, "unique")
    later = record({"cpsat": "multiple"}, "multiple")
    (merged,) = crosscheck_bench.merge_records([first, later]).values()
    assert not merged["agree"]
    assert any("verdicts differ" in p and "cpsat multiple" in p and "sat unique" in p for p in merged["problems"])


def test_an_earlier_problem_is_not_forgotten():
    first = record({"sat": "multiple"}, "multiple", agree=False)
    later = record({"cpsat": "multiple"}, "multiple")
    (merged,) = crosscheck_bench.merge_records([first, later]).values()
    assert not merged["agree"] and "some problem" in merged["problems"]


def test_a_verdict_from_a_later_run_replaces_no_verdict():
    first = record({"native": "timeout", "sat": "timeout"}, "timeout")
    later = record({"cpsat": "unique"}, "unique")
    (merged,) = crosscheck_bench.merge_records([first, later]).values()
    assert merged["verdict"] == "unique" and crosscheck_bench._deciders(merged) == 1


def test_a_single_multiple_verdict_with_two_verified_grids_counts_as_proven(tmp_path):
    proven = record({"native": "timeout", "sat": "multiple"}, "multiple")
    one_grid = record({"native": "timeout", "sat": "multiple"}, "multiple")
    one_grid["runs"]["sat"]["n"] = 1
    unique = record({"native": "timeout", "sat": "unique"}, "unique")
    broken = record({"native": "timeout", "sat": "multiple"}, "multiple", agree=False)
    both = record({"native": "multiple", "sat": "multiple"}, "multiple")
    assert crosscheck_bench._proven_multiple(proven)
    assert not crosscheck_bench._proven_multiple(one_grid)
    assert not crosscheck_bench._proven_multiple(unique)
    assert not crosscheck_bench._proven_multiple(broken)
    assert not crosscheck_bench._proven_multiple(both)  # cross-checked, counted in its own column
    for i, r in enumerate([proven, unique, both]):
        r["index"] = i
    text = crosscheck_bench.write_report([proven, unique, both], tmp_path / "report.md")
    row = next(line for line in text.splitlines() if line.startswith("| tournament "))
    cells = [c.strip() for c in row.strip("|").split("|")]
    # set, puzzles, agree, disagree, decided by 2+, one engine proven multiple, one engine unchecked, ...
    assert cells[1:7] == ["3", "3", "0", "1", "1", "1"]


def test_publish_replaces_only_the_generated_part(tmp_path):
    start, end = crosscheck_bench.MARKERS
    doc = tmp_path / "report.md"
    doc.write_text(f"# Account of the runs\n\nkept\n\n{start}\nold report\n{end}\ntail kept\n")
    crosscheck_bench.publish("# New report\n\nfigures\n", doc)
    assert doc.read_text() == f"# Account of the runs\n\nkept\n\n{start}\n# New report\n\nfigures\n{end}\ntail kept\n"


def test_the_committed_report_has_its_markers():
    start, end = crosscheck_bench.MARKERS
    text = crosscheck_bench.PUBLISHED.read_text()
    assert text.index(start) < text.index(end)
