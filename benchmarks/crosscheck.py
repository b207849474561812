#!/usr/bin/env python3
"""Cross-check the engines over the reference corpora and write an agreement report.

    nice -n 10 python benchmarks/crosscheck.py                         # every set (long: the tournament set)
    python benchmarks/crosscheck.py --sets survey,db,picross           # the quick sets
    python benchmarks/crosscheck.py --sets tournament --tournament-range 1-200
    python benchmarks/crosscheck.py --report-only                      # rebuild the report from the records
    python benchmarks/crosscheck.py --sets tournament --only-undecided --engines cpsat --tournament-timeout 30
                                        # add an engine where fewer than two engines gave a verdict

Sets: `survey` (webpbn-survey/free + xml-free), `db` (nonogram-db), `picross` (picross-solver test grids;
their outputs/validation.csv solution counts are reproduced exactly up to --count-limit by enumerating),
`tournament` (one 1000-puzzle set of nonogram-record, taai2011 by default: its solutions give goals).

Each puzzle runs through nonocp.analysis.crosscheck (every engine, the same limits, every solution checked by
nonocp.core.verify). On top of the engines' mutual agreement the script checks each file's `goal` (it must
satisfy the clues; for a unique puzzle it must be *the* solution) and the picross-solver counts; on the
picross multi-solution grids it also compares backbones computed two ways (fixed-cell queries to each
engine vs. the native engine's all-remaining-cells step).

Records go to benchmarks/out/crosscheck.jsonl, one JSON object per puzzle, appended as they finish, so
an interrupted run resumes where it stopped (same engines and limits); --fresh starts over. The report
(benchmarks/out/crosscheck-report.md) is rebuilt from all records at the end, merging a puzzle's records
(every engine's latest run counts), and says how many puzzles two or more engines decided: a puzzle only
one engine decided cannot disagree, so it is not counted as cross-checked. With --publish it is also copied
into benchmarks/crosscheck-report.md, between the markers that follow that file's own account of the runs.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = ROOT.parent / "shared" / "corpus"
OUT = HERE / "out"
RECORDS = OUT / "crosscheck.jsonl"
REPORT = OUT / "crosscheck-report.md"
# The committed report: its own account of the runs, then the generated report between these markers.
PUBLISHED = HERE / "crosscheck-report.md"
MARKERS = ("<!-- generated:start (benchmarks/crosscheck.py --publish) -->", "<!-- generated:end -->")

sys.path.insert(0, str(ROOT / "src"))

from nonocp.analysis.backbone import compare_backbones, compute_backbone, native_backbone, native_upper_bound  # noqa: E402
from nonocp.analysis.crosscheck import crosscheck  # noqa: E402
from nonocp.core.verify import verify  # noqa: E402
from nonocp.engines import INDEPENDENT, get_backend  # noqa: E402
from nonocp.formats import load, loads  # noqa: E402

PICROSS = CORPUS / "picross-solver"


# ---- the puzzle sets ------------------------------------------------------------------------------


def survey_items():
    for folder in ("free", "xml-free"):
        for path in sorted((CORPUS / "webpbn-survey" / folder).glob("*")):
            if path.suffix in (".txt", ".xml"):
                yield from _file_items("survey", path)


def db_items():
    for path in sorted((CORPUS / "nonogram-db" / "db").rglob("*.non")):
        yield from _file_items("db", path)


def picross_items():
    counts = picross_counts()
    files = sorted((PICROSS / "inputs").glob("test_pattern_*.txt")) + [
        PICROSS / "inputs" / "domino_logic.txt",
        PICROSS / "inputs" / "example_input.txt",
        PICROSS / "inputs" / "note.nin",
        PICROSS / "inputs" / "webpbn" / "webpbn-35105-wild.non",
        PICROSS / "inputs" / "webpbn" / "webpbn-36459-moss.non",
    ]
    for path in files:
        for item in _file_items("picross", path):
            item["expected"] = counts.get((path.name, item["title"]))
            yield item
    # invalid_input.txt: only the two well-formed but contradictory grids (the rest are meant to fail reading)
    text = (PICROSS / "inputs" / "invalid_input.txt").read_text()
    for title in ("Impossible", "Zero"):
        start = text.index(f"GRID {title}\n")
        nxt = [text.find(w, start + 1) for w in ("\nGRID ", "\nGRILL")]
        end = min([n for n in nxt if n > 0] or [len(text)])
        [puzzle] = loads(text[start:end], "grid", str(PICROSS / "inputs" / "invalid_input.txt"))
        yield {
            "set": "picross",
            "file": "picross-solver/inputs/invalid_input.txt",
            "index": 1,
            "title": title,
            "puzzle": puzzle,
            "expected": counts.get(("invalid_input.txt", title)),
        }


def picross_counts() -> dict[tuple[str, str], int]:
    out = {}
    with open(PICROSS / "outputs" / "validation.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["Grid"] and row["Valid"] in ("OK", "MULT", "ZERO"):
                out[(row["File"], row["Grid"])] = int(row["Solutions"])
    return out


def tournament_items(name: str, first: int, last: int):
    path = CORPUS / "nonogram-record" / "question" / f"{name}.txt"
    puzzles = load(str(path))
    for i in range(first, min(last, len(puzzles)) + 1):
        yield _item("tournament", path, i, puzzles[i - 1])


def _file_items(set_name: str, path: Path):
    puzzles = load(str(path))
    for i, p in enumerate(puzzles, 1):
        yield _item(set_name, path, i, p)


def _item(set_name: str, path: Path, index: int, puzzle) -> dict:
    return {
        "set": set_name,
        "file": str(path.relative_to(CORPUS)),
        "index": index,
        "title": puzzle.title,
        "puzzle": puzzle,
        "expected": None,
    }


# ---- running ------------------------------------------------------------------------------------


def run_item(item: dict, engines: tuple[str, ...], timeout: float, count_limit: int, backbones: bool) -> dict:
    puzzle = item["puzzle"]
    # picross grids are enumerated to count their solutions exactly; elsewhere the usual verdict (limit 2)
    limit = count_limit + 1 if item["set"] == "picross" else 2
    check = crosscheck(puzzle, engines, name=f"{item['file']}#{item['index']}", timeout=timeout, max_solutions=limit)
    problems = [str(d) for d in check.disagreements]

    goal = puzzle.meta.goal
    goal_status = None
    if goal is not None:
        if not verify(puzzle, goal).ok:
            goal_status = "goal breaks the clues"
        elif check.verdict == "unique":
            solution = next(r.solutions[0] for r in check.runs if r.status == "unique")
            goal_status = "ok" if solution == goal else "unique solution differs from goal"
        elif check.verdict == "none":
            goal_status = "engines say none but the goal is a solution"
        else:
            goal_status = "ok"
        if goal_status != "ok":
            problems.append(f"goal: {goal_status}")

    count = check.solution_count
    expected = item.get("expected")
    count_status = None
    if expected is not None:
        if expected <= count_limit:
            count_status = "ok" if count == expected else f"expected {expected}, engines give {count}"
            if count_status != "ok":
                problems.append(f"count: {count_status}")
        else:
            count_status = f"above limit ({expected})"

    record = {
        "set": item["set"],
        "file": item["file"],
        "index": item["index"],
        "title": item["title"],
        "size": f"{puzzle.width}x{puzzle.height}",
        "colours": len(puzzle.palette) - 1,
        "engines": list(engines),
        "timeout": timeout,
        "verdict": check.verdict,
        "solutions": count,
        "agree": check.agree and not problems,
        "runs": {
            r.engine: {"status": r.status, "seconds": round(r.seconds, 3), "n": len(r.solutions)} for r in check.runs
        },
        "problems": problems,
        "goal": goal_status,
        "expected": expected,
        "count": count_status,
    }
    if backbones and check.verdict == "multiple":
        record["backbone"] = backbone_check(puzzle, engines, timeout)
        if record["backbone"].get("problems"):
            record["problems"] += record["backbone"]["problems"]
            record["agree"] = False
    return record


def backbone_check(puzzle, engines: tuple[str, ...], timeout: float) -> dict:
    """Backbones by fixed-cell queries to each engine vs. the native all-remaining-cells step.

    Only the native engine's queries are pruned by the native fixpoint; the other engines answer every
    query themselves, so their backbones owe nothing to native code.
    """
    out: dict = {"engines": {}, "problems": []}
    reference = native_backbone(puzzle, time.monotonic() + timeout)
    if reference is not None:
        out["native_arc"] = {"ambiguous": len(reference.ambiguous), "seconds": round(reference.seconds, 3)}
    upper = native_upper_bound(puzzle, time.monotonic() + timeout)
    for name in engines:
        try:
            engine = get_backend(name)
        except Exception:  # noqa: BLE001 - not installed: nothing to compare
            continue
        try:
            bb = compute_backbone(puzzle, engine, time_limit=timeout, upper=upper if name == "native" else None)
        except Exception as e:  # noqa: BLE001 - an engine failing a backbone query is a finding
            out["problems"].append(f"backbone {name}: {type(e).__name__}: {e}")
            continue
        entry = {
            "exact": bb.exact, "ambiguous": len(bb.ambiguous), "queries": bb.queries, "seconds": round(bb.seconds, 3)
        }
        out["engines"][name] = entry
        if bb.exact and reference is not None:
            diff = compare_backbones(bb, reference)
            entry["matches_native_arc"] = not diff
            if diff:
                out["problems"].append(f"backbone {name} vs native all-remaining-cells differ at {len(diff)} cells")
    return out


def key(record: dict) -> tuple:
    return (record["file"], record["index"], tuple(record["engines"]), record["timeout"])


def load_records() -> list[dict]:
    if not RECORDS.exists():
        return []
    with open(RECORDS) as f:
        return [json.loads(line) for line in f if line.strip()]


# ---- the report ---------------------------------------------------------------------------------


VERDICTS = ("unique", "multiple", "none")


def _deciders(record: dict) -> int:
    """How many engines gave a verdict on this puzzle: a puzzle only one engine decided is not cross-checked
    (its verdict is still checked against the goal and the clues)."""
    return sum(run["status"] in VERDICTS for run in record["runs"].values())


def _proven_multiple(record: dict) -> bool:
    """Decided by one engine only, as `multiple` with two or more solutions, and nothing wrong found: the
    crosscheck rejects invalid and repeated grids (they would be problems), so these are two distinct
    grids that the independent checker accepted, which proves several solutions without trusting it."""
    if _deciders(record) != 1 or not record["agree"]:
        return False
    return any(run["status"] == "multiple" and run.get("n", 0) >= 2 for run in record["runs"].values())


def merge_records(records: list[dict]) -> dict[tuple, dict]:
    """One record per puzzle, from all its records: the latest record's fields, with every engine's latest
    run from any record (so a later run with other engines, e.g. --only-undecided with cpsat, adds to the
    cross-check instead of replacing it), and a disagreement when engines' verdicts differ across records.
    """
    merged: dict[tuple, dict] = {}
    for r in records:
        k = (r["file"], r["index"], r["title"])
        old = merged.get(k)
        new = dict(r, runs=dict(r["runs"]), problems=list(r["problems"]), engines=list(r["engines"]))
        if old is not None:
            new["runs"] = {**old["runs"], **r["runs"]}
            new["engines"] = sorted(set(old["engines"]) | set(r["engines"]))
            new["agree"] = old["agree"] and r["agree"]
            new["problems"] = old["problems"] + [p for p in r["problems"] if p not in old["problems"]]
        verdicts = {e: run["status"] for e, run in new["runs"].items() if run["status"] in VERDICTS}
        if len(set(verdicts.values())) > 1:
            problem = "verdicts differ across runs: " + ", ".join(f"{e} {v}" for e, v in sorted(verdicts.items()))
            if problem not in new["problems"]:
                new["problems"].append(problem)
            new["agree"] = False
        elif verdicts:
            new["verdict"] = next(iter(verdicts.values()))
        merged[k] = new
    return merged


def write_report(records: list[dict], path: Path = REPORT) -> str:
    latest = merge_records(records)
    by_set: dict[str, list[dict]] = defaultdict(list)
    for r in latest.values():
        by_set[r["set"]].append(r)

    lines = ["# Engine cross-check report", "", f"Generated {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} "
             "by `benchmarks/crosscheck.py` (records in benchmarks/out/crosscheck.jsonl).", ""]
    lines += ["| set | puzzles | agree | disagree | decided by 2+ engines | one engine: multiple, proven | "
              "one engine: unchecked | unique | multiple | none | "
              "timeout (no verdict) | engine timeouts | goals ok | counts ok |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for name in ("survey", "db", "picross", "tournament"):
        rs = by_set.get(name, [])
        if not rs:
            continue
        verdicts = Counter(r["verdict"] for r in rs)
        timeouts = Counter(e for r in rs for e, run in r["runs"].items() if run["status"] == "timeout")
        engines = sorted({e for r in rs for e in r["engines"]})
        goals = [r for r in rs if r["goal"] is not None]
        counted = [r for r in rs if r["count"] is not None and not r["count"].startswith("above")]
        lines.append(
            f"| {name} | {len(rs)} | {sum(r['agree'] for r in rs)} | {sum(not r['agree'] for r in rs)} | "
            f"{sum(_deciders(r) >= 2 for r in rs)} | {sum(_proven_multiple(r) for r in rs)} | "
            f"{sum(_deciders(r) == 1 and not _proven_multiple(r) for r in rs)} | "
            f"{verdicts['unique']} | {verdicts['multiple']} | "
            f"{verdicts['none']} | {verdicts['timeout']} | "
            f"{', '.join(f'{e} {timeouts[e]}' for e in engines) or '-'} | "
            f"{sum(r['goal'] == 'ok' for r in goals)}/{len(goals)} | "
            f"{sum(r['count'] == 'ok' for r in counted)}/{len(counted)} |"
        )
    lines.append("")
    lines.append("A puzzle decided by one engine only is proven anyway when that engine's verdict is `multiple`: it "
                 "reported two distinct grids and nonocp.core.verify (which shares no code with the engines) accepted "
                 "both, and two solutions prove several. A `unique` or `none` from one engine is unchecked.")
    lines.append("")

    ran = Counter()
    total_seconds: dict[str, float] = defaultdict(float)
    for r in latest.values():
        for e, run in r["runs"].items():
            if run["status"] not in ("unavailable", "error"):
                ran[e] += 1
                total_seconds[e] += run["seconds"]
    lines.append("Engines that ran: " + ", ".join(f"{e} on {n} puzzles ({total_seconds[e]:.0f} s in all)"
                                                  for e, n in sorted(ran.items())))
    lines.append("")

    bad = [r for r in latest.values() if not r["agree"]]  # engine disagreements, goal/count/backbone problems
    lines.append(f"## Disagreements ({len(bad)})")
    lines.append("")
    for r in sorted(bad, key=lambda r: (r["set"], r["file"], r["index"])):
        lines.append(f"- {r['file']} #{r['index']} ({r['title']}): " + "; ".join(r["problems"]))
    if not bad:
        lines.append("None.")
    lines.append("")

    pic = sorted(by_set.get("picross", []), key=lambda r: (r["file"], r["index"]))
    if pic:
        lines += ["## picross-solver counts", "", "| file | grid | validation.csv | engines | |",
                  "|---|---|---:|---:|---|"]
        for r in pic:
            if r["expected"] is None:
                continue
            name = r["file"].split("/")[-1]
            lines.append(f"| {name} | {r['title']} | {r['expected']} | {r['solutions']} | {r['count']} |")
        lines.append("")
        bbs = [r for r in pic if "backbone" in r]
        if bbs:
            lines += ["## Backbones (multi-solution picross grids)", "",
                      "| grid | ambiguous cells | native all-remaining-cells | fixed-cell queries per engine |",
                      "|---|---:|---|---|"]
            for r in bbs:
                b = r["backbone"]
                arc = b.get("native_arc")
                amb = arc["ambiguous"] if arc else next((e["ambiguous"] for e in b["engines"].values()), "?")
                per = ", ".join(
                    f"{e}: {v['queries']} queries {v['seconds']} s"
                    + ("" if v.get("matches_native_arc", True) else " DIFFERS")
                    + ("" if v["exact"] else " (inexact)")
                    for e, v in b["engines"].items()
                )
                lines.append(f"| {r['title']} | {amb} | {arc['seconds'] if arc else '-'} s | {per} |")
            lines.append("")
    text = "\n".join(lines)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return text


def publish(report: str, path: Path = PUBLISHED) -> None:
    """Put `report` between the markers of the committed report, keeping the text around them."""
    start, end = MARKERS
    text = path.read_text()
    if start not in text or end not in text:
        raise SystemExit(f"{path}: no {start} ... {end} markers to publish between")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    path.write_text(f"{head}{start}\n{report.rstrip()}\n{end}{tail}")


# ---- main ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default="survey,db,picross,tournament")
    ap.add_argument("--engines", default=",".join(INDEPENDENT))
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per engine per puzzle")
    ap.add_argument("--tournament", default="taai2011", help="which nonogram-record set")
    ap.add_argument("--tournament-range", default="1-1000", help="puzzle numbers, e.g. 1-200")
    ap.add_argument("--tournament-timeout", type=float, default=10.0)
    ap.add_argument("--count-limit", type=int, default=200, help="enumerate picross grids up to this many solutions")
    ap.add_argument("--no-backbones", action="store_true")
    ap.add_argument("--fresh", action="store_true", help="delete earlier records first")
    ap.add_argument("--rerun", action="store_true", help="run puzzles again even if recorded (latest record wins)")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--publish", action="store_true",
                    help=f"also copy the report into {PUBLISHED.name} (between its markers)")
    ap.add_argument("--only-undecided", action="store_true",
                    help="run only puzzles that fewer than two engines have decided so far (to add an engine)")
    ap.add_argument("--only-without-verdict", action="store_true",
                    help="run only puzzles that no engine has decided so far (to retry them with a longer limit)")
    args = ap.parse_args(argv)
    if hasattr(os, "nice"):
        os.nice(10)

    OUT.mkdir(parents=True, exist_ok=True)
    if args.fresh and RECORDS.exists():
        RECORDS.unlink()
    if args.report_only:
        report = write_report(load_records())
        if args.publish:
            publish(report)
        print(report)
        return 0

    engines = tuple(e for e in args.engines.split(",") if e)
    usable = []
    for e in engines:
        try:
            get_backend(e)
            usable.append(e)
        except Exception as exc:  # noqa: BLE001
            print(f"skipping engine {e}: {exc}", file=sys.stderr)
    engines = tuple(usable)
    done = set() if args.rerun else {key(r) for r in load_records()}
    merged = merge_records(load_records()).values()
    # --only-undecided skips what two engines decided; --only-without-verdict skips what any engine decided
    need = 1 if args.only_without_verdict else 2
    decided = {(r["file"], r["index"]) for r in merged if _deciders(r) >= need}
    skip_decided = args.only_undecided or args.only_without_verdict
    first, _, last = args.tournament_range.partition("-")
    sources = {
        "survey": lambda: survey_items(),
        "db": lambda: db_items(),
        "picross": lambda: picross_items(),
        "tournament": lambda: tournament_items(args.tournament, int(first), int(last or first)),
    }
    disagreements = 0
    with open(RECORDS, "a") as out:
        for name in args.sets.split(","):
            timeout = args.tournament_timeout if name == "tournament" else args.timeout
            for item in sources[name]():
                k = (item["file"], item["index"], engines, timeout)
                if k in done or (skip_decided and (item["file"], item["index"]) in decided):
                    continue
                t = time.perf_counter()
                record = run_item(item, engines, timeout, args.count_limit, name == "picross" and not args.no_backbones)
                out.write(json.dumps(record) + "\n")
                out.flush()
                disagreements += not record["agree"]
                runs = " ".join(f"{e}={v['status']}/{v['seconds']}" for e, v in record["runs"].items())
                flag = "" if record["agree"] else "  DISAGREE: " + "; ".join(record["problems"])
                where = f"{item['file']}#{item['index']}"
                print(f"{time.perf_counter() - t:7.1f}s {where} {record['verdict']} {runs}{flag}", flush=True)
    report = write_report(load_records())
    if args.publish:
        publish(report)
    print(f"report: {REPORT} ({disagreements} disagreements in this run)")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
