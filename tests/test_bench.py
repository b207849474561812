"""`nonocp bench` and nonocp.batch: collecting puzzles, the worker pool, reports, summaries.

Fake engines (defined here, registered in nonocp.engines.BACKENDS for the test; the registry reaches
the worker processes) make the pool's hard cases reproducible: an exact brute-force engine, a slow
one, one that ignores its time limit on a marked puzzle, one whose process dies. Real engines are
used where available (skipped when BackendUnavailable) to check that bench agrees with `solve`.

Run as a script (`python tests/test_bench.py bench ...`) this file is `nonocp` with the fakes
registered: the Ctrl-C test drives it in a subprocess.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from nonocp.core.puzzle import Puzzle  # noqa: E402
from nonocp.core.result import SolveResult, status_of  # noqa: E402
from nonocp.engines import BACKENDS, INDEPENDENT, Backend, SolveOptions, get_backend  # noqa: E402
from oracle import brute_force  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SURVEY_FREE = ROOT.parent / "shared" / "corpus" / "webpbn-survey" / "free"
MODULE = "test_bench"  # how workers import this file (tests/ is on their sys.path)


# ----------------------------------------------------------------------------------------- fake engines
class OracleBackend(Backend):
    """Exact answers from the brute-force oracle (tiny puzzles only); its pid in the stats."""

    name = "oracle"
    delay = 0.0

    def available(self) -> bool:
        return True

    def version(self) -> str:
        return "test"

    def before(self, puzzle: Puzzle, options: SolveOptions) -> None:
        if self.delay:
            time.sleep(self.delay)

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        start = time.perf_counter()
        self.before(puzzle, options)
        limit = options.max_solutions
        found = brute_force(puzzle, limit)
        exhausted = limit is None or len(found) < limit
        return SolveResult(
            status_of(len(found), exhausted, limit), tuple(found), exhausted, self.name,
            time.perf_counter() - start, {"pid": os.getpid(), "ppid": os.getppid(), "found": len(found)},
        )


class SleepyBackend(OracleBackend):
    """The oracle after a pause: slow enough to interrupt, to overlap workers."""

    name = "sleepy"
    delay = 0.25


class StuckBackend(OracleBackend):
    """Ignores its time limit and sleeps for ten minutes on puzzles titled "stuck"."""

    name = "stuck"

    def before(self, puzzle: Puzzle, options: SolveOptions) -> None:
        if puzzle.title == "stuck":
            time.sleep(600)


class CrashBackend(OracleBackend):
    """Kills its own process (as a C library abort would) on puzzles titled "crash"."""

    name = "crash"

    def before(self, puzzle: Puzzle, options: SolveOptions) -> None:
        if puzzle.title == "crash":
            os._exit(7)


class StuckChildBackend(OracleBackend):
    """On puzzles titled "stuck", waits for ever on a forked child (as engines that race solvers in
    children do): what a signal to `bench` must not leave behind."""

    name = "stuckchild"

    def before(self, puzzle: Puzzle, options: SolveOptions) -> None:
        if puzzle.title == "stuck":
            from nonocp.engines.forked import call_in_child

            call_in_child(lambda send: time.sleep(600), None)


class TallyBackend(OracleBackend):
    """Appends the puzzle's fingerprint to the file named by its title ("tally:PATH"): what ran, and where."""

    name = "tally"

    def before(self, puzzle: Puzzle, options: SolveOptions) -> None:
        if puzzle.title.startswith("tally:"):
            with open(puzzle.title[len("tally:"):], "a", encoding="utf-8") as fh:
                fh.write(puzzle.fingerprint() + "\n")
        time.sleep(self.delay)


class SlowTallyBackend(TallyBackend):
    name = "slowtally"
    delay = 0.2


class VictimBackend(OracleBackend):
    """On a puzzle titled "victim:PATH", the first attempt writes its worker's pid to PATH and hangs (the
    test kills that worker); a retry, finding PATH, solves normally."""

    name = "victim"

    def before(self, puzzle: Puzzle, options: SolveOptions) -> None:
        if puzzle.title.startswith("victim:"):
            marker = Path(puzzle.title[len("victim:"):])
            if not marker.exists():
                marker.write_text(f"{os.getppid()} {os.getpid()}")
                time.sleep(600)


FAKES = {
    "oracle": f"{MODULE}:OracleBackend",
    "sleepy": f"{MODULE}:SleepyBackend",
    "stuck": f"{MODULE}:StuckBackend",
    "crash": f"{MODULE}:CrashBackend",
    "stuckchild": f"{MODULE}:StuckChildBackend",
    "tally": f"{MODULE}:TallyBackend",
    "slowtally": f"{MODULE}:SlowTallyBackend",
    "victim": f"{MODULE}:VictimBackend",
}


@pytest.fixture
def fakes(monkeypatch):
    for name, target in FAKES.items():
        monkeypatch.setitem(BACKENDS, name, target)


def real_engines() -> list[str]:
    """The independent engines (the registry's). Each is installed with nonocp: one that is not here fails the
    test (BackendUnavailable), never shrinks it."""
    for name in INDEPENDENT:
        get_backend(name)
    return list(INDEPENDENT)


# ----------------------------------------------------------------------------------------- puzzle files
def non_text(rows: list[str], title: str = "") -> str:
    """A .non file for the black-and-white picture `rows` ('#' black, '.' white)."""

    def clue(line: str) -> str:
        runs = [len(r) for r in line.split(".") if r]
        return ",".join(map(str, runs)) or "0"

    cols = ["".join(r[c] for r in rows) for c in range(len(rows[0]))]
    head = [f'title "{title}"'] if title else []
    return "\n".join(
        head + [f"width {len(cols)}", f"height {len(rows)}", "rows"] + [clue(r) for r in rows]
        + ["columns"] + [clue(c) for c in cols] + [""]
    )


PICTURES = {
    "cross": [".#.", "###", ".#."],
    "diag": ["#.", ".#"],  # two solutions
    "corner": ["##.", "#..", "..."],
    "bar": ["####", "....", "####"],
    "dot": ["#"],
    "ring": ["###", "#.#", "###"],
}


def write_puzzles(folder: Path, count: int = 6, prefix: str = "p", titles: dict[int, str] | None = None) -> list[Path]:
    """`count` small puzzles (cycling through PICTURES) as p00.non, p01.non, ..."""
    folder.mkdir(parents=True, exist_ok=True)
    names = list(PICTURES)
    out = []
    for i in range(count):
        p = folder / f"{prefix}{i:02d}.non"
        p.write_text(non_text(PICTURES[names[i % len(names)]], (titles or {}).get(i, f"{prefix}{i}")))
        out.append(p)
    return out


def distinct_puzzles(folder: Path, count: int, title: str = "", seed: int = 1) -> list[Path]:
    """`count` random 4x4 puzzles with distinct clues (so distinct fingerprints), one .non file each."""
    import random

    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    seen: set[str] = set()
    out = []
    while len(out) < count:
        rows = ["".join(rng.choice("#.") for _ in range(4)) for _ in range(4)]
        text = non_text(rows, title)
        if "#" not in "".join(rows) or text in seen:
            continue
        seen.add(text)
        p = folder / f"r{len(out):03d}.non"
        p.write_text(text)
        out.append(p)
    return out


def load_one(path: Path) -> Puzzle:
    from nonocp.formats import load

    return load(str(path))[0]


# ----------------------------------------------------------------------------------------- collecting
def test_collect_walks_folders_and_skips_non_puzzles(tmp_path):
    from nonocp.batch import collect

    write_puzzles(tmp_path / "a", 2)
    write_puzzles(tmp_path / "a" / "deeper", 1, prefix="q")
    (tmp_path / "a" / "README.md").write_text("# not a puzzle\n")
    (tmp_path / "a" / "LICENSE").write_text("MIT\n")
    (tmp_path / "a" / "README.txt").write_text("not a puzzle either\n")
    (tmp_path / "a" / "counts.csv").write_text("a,b\n")
    write_puzzles(tmp_path / "a" / ".hidden", 1, prefix="h")
    (tmp_path / "bundle.nonpack").write_text(
        non_text(PICTURES["cross"], "one") + "====\n" + non_text(PICTURES["diag"], "two")
    )
    (tmp_path / "broken.non").write_text("width 3\nheight 2\nrows\n1\n")
    entries = collect([tmp_path / "a", tmp_path / "bundle.nonpack", tmp_path / "broken.non"])
    names = [(Path(e.file).name, e.index) for e in entries]
    assert names == [("p00.non", 1), ("p01.non", 1), ("q00.non", 1), ("bundle.nonpack", 1), ("bundle.nonpack", 2),
                     ("broken.non", 0)]
    assert [e.puzzle.title for e in entries[3:5]] == ["one", "two"]
    bad = entries[-1]
    assert bad.puzzle is None and "broken.non" in bad.error


def test_collect_reports_invalid_puzzle_in_bundle_and_missing_path(tmp_path):
    from nonocp.batch import collect
    from nonocp.core.puzzle import Block

    good = Puzzle(((Block(1),),), ((Block(1),),))
    too_long = Puzzle(((Block(3),),), ((Block(1),),))  # a clue longer than its line: invalid

    def loader(path, fmt):
        return [good, too_long]

    (tmp_path / "b.nonpack").write_text("whatever the loader says\n")
    entries = collect([tmp_path / "b.nonpack"], load=loader)
    assert [e.ok for e in entries] == [True, False]
    assert "puzzle 2" in entries[1].error and entries[1].index == 2
    with pytest.raises(FileNotFoundError):
        collect([tmp_path / "nope"])


# ----------------------------------------------------------------------------------------- batch core
def test_records_match_oracle_and_summary_counts(fakes, tmp_path):
    from nonocp.batch import BatchOptions, collect, run_batch

    files = write_puzzles(tmp_path, 6)
    entries = collect([tmp_path])
    seen = []
    outcome = run_batch(entries, ["oracle", "sleepy"], BatchOptions(jobs=2, timeout=30), on_record=seen.append)
    assert not outcome.interrupted
    assert len(outcome.records) == len(seen) == 12 == outcome.planned
    # input order, puzzle by puzzle, engines in the order given
    assert [(Path(r.file).name, r.engine) for r in outcome.records] == [
        (f.name, e) for f in files for e in ("oracle", "sleepy")
    ]
    for r in outcome.records:
        expected = brute_force(load_one(Path(r.file)), 2)
        assert r.verdict == ("multiple" if len(expected) > 1 else "unique"), r
        assert r.solutions == len(expected)
        assert r.seconds is not None and r.seconds >= 0
    s = outcome.summary()
    for e in s.engines:
        assert (e.runs, e.solved, e.unique, e.multiple, e.none, e.timeouts, e.errors) == (6, 6, 5, 1, 0, 0, 0)
    assert s.compared == s.agreed == 6 and not s.disagreements
    assert s.ratios[0].engine == "sleepy" and s.ratios[0].compared == 6
    assert all(r.ratio is not None for r in outcome.records if r.engine == "sleepy")


def test_jobs_2_uses_two_worker_processes_and_agrees_with_jobs_1(fakes, tmp_path):
    from nonocp.batch import BatchOptions, collect, run_batch

    write_puzzles(tmp_path, 8)
    entries = collect([tmp_path])
    one = run_batch(entries, ["sleepy"], BatchOptions(jobs=1, timeout=30))
    two = run_batch(entries, ["sleepy"], BatchOptions(jobs=2, timeout=30))
    assert [(r.file, r.verdict, r.solutions) for r in one.records] == [
        (r.file, r.verdict, r.solutions) for r in two.records
    ]
    assert len({r.stats["pid"] for r in one.records}) == 1
    assert len({r.stats["pid"] for r in two.records}) == 2
    assert os.getpid() not in {r.stats["pid"] for r in one.records}  # --jobs 1 still uses a worker


def test_stuck_puzzle_is_killed_and_the_batch_goes_on(fakes, tmp_path):
    from nonocp.batch import BatchOptions, collect, run_batch

    write_puzzles(tmp_path, 5, titles={1: "stuck", 3: "stuck"})
    outcome = run_batch(collect([tmp_path]), ["stuck"], BatchOptions(jobs=1, timeout=0.5))
    verdicts = [r.verdict for r in outcome.records]
    assert verdicts == ["unique", "timeout", "unique", "timeout", "unique"]
    killed = [r for r in outcome.records if r.verdict == "timeout"]
    assert all(r.stats == {"killed": True} for r in killed)
    assert all(r.seconds >= 0.5 for r in killed)
    # the replacement workers went on solving (three different processes answered)
    assert len({r.stats["pid"] for r in outcome.records if r.verdict == "unique"}) == 3
    assert outcome.summary().engine("stuck").timeouts == 2


def test_a_dying_worker_costs_one_error_row(fakes, tmp_path):
    from nonocp.batch import BatchOptions, collect, run_batch

    write_puzzles(tmp_path, 3, titles={0: "crash"})
    outcome = run_batch(collect([tmp_path]), ["crash"], BatchOptions(jobs=2, timeout=30))
    assert [r.verdict for r in outcome.records] == ["error", "multiple", "unique"]
    assert "exit code 7" in outcome.records[0].error


def test_wrong_solutions_are_caught(monkeypatch, tmp_path):
    from nonocp.batch import BatchOptions, collect, run_batch

    monkeypatch.setitem(BACKENDS, "liar", f"{MODULE}:LiarBackend")
    write_puzzles(tmp_path, 1)
    outcome = run_batch(collect([tmp_path]), ["liar"], BatchOptions(jobs=1, timeout=30))
    (r,) = outcome.records
    assert r.verdict == "error" and "break the clues" in r.error


class LiarBackend(OracleBackend):
    """Answers "unique" with an all-white grid."""

    name = "liar"

    def solve(self, puzzle: Puzzle, options: SolveOptions) -> SolveResult:
        from nonocp.core.grid import Grid

        blank = Grid(tuple((0,) * puzzle.width for _ in range(puzzle.height)))
        return SolveResult(status_of(1, True, 2), (blank,), True, self.name)


def test_summary_disagreement_and_ratios():
    from nonocp.batch import Record, summarize, with_ratios

    rows = [
        Record("a.non", 1, "x", "unique", seconds=1.0, order=0),
        Record("a.non", 1, "y", "unique", seconds=0.5, order=1),
        Record("b.non", 1, "x", "multiple", seconds=2.0, order=2),
        Record("b.non", 1, "y", "unique", seconds=8.0, order=3),
        Record("c.non", 1, "x", "timeout", seconds=9.0, order=4),
        Record("c.non", 1, "y", "none", seconds=1.0, order=5),
        Record("d.non", 0, "", "error", error="d.non: bad", order=6),
    ]
    s = summarize(rows, ["x", "y"])
    assert (s.compared, s.agreed) == (2, 1)
    assert [(d.file, d.verdicts) for d in s.disagreements] == [("b.non", {"x": "multiple", "y": "unique"})]
    (ratio,) = s.ratios
    assert (ratio.compared, ratio.faster, ratio.median) == (2, 1, pytest.approx(2.25))
    assert ratio.geometric_mean == pytest.approx(2 ** 0.5)  # sqrt(0.5 * 4)
    x = s.engine("x")
    assert (x.runs, x.solved, x.timeouts, x.total_seconds, x.median_seconds) == (3, 2, 1, 12.0, 2.0)
    assert s.input_errors == 1 and s.puzzles == 3
    assert [r.ratio for r in with_ratios(rows, ["x", "y"])] == [1.0, 0.5, 1.0, 4.0, None, None, None]


# ----------------------------------------------------------------------------------------- the command
def run_cli(args: list[str]):
    from typer.testing import CliRunner

    from nonocp.cli.app import app

    return CliRunner().invoke(app, args)


def test_cli_csv_has_one_row_per_puzzle_and_engine_and_summary_matches(fakes, tmp_path):
    from nonocp.batch import read_csv

    write_puzzles(tmp_path / "in", 6)
    (tmp_path / "in" / "junk.non").write_text("this is not a puzzle\n")
    csv_path, json_path = tmp_path / "out.csv", tmp_path / "out.json"
    res = run_cli(["bench", str(tmp_path / "in"), "-b", "oracle,sleepy", "--jobs", "2", "--no-progress",
                   "--csv", str(csv_path), "--json", str(json_path)])
    assert res.exit_code == 0, res.output
    rows = read_csv(str(csv_path))
    engine_rows = [r for r in rows if r["engine"]]
    assert len(engine_rows) == 12
    assert sorted((r["file"], r["engine"]) for r in engine_rows) == sorted(
        (str(p), e) for p in (tmp_path / "in").glob("p*.non") for e in ("oracle", "sleepy")
    )
    (bad,) = [r for r in rows if not r["engine"]]
    assert bad["verdict"] == "error" and "junk.non" in bad["error"] and bad["index"] == "0"
    assert all(json.loads(r["stats"])["found"] == int(r["solutions"]) for r in engine_rows)
    assert {r["width"] + "x" + r["height"] for r in engine_rows} >= {"3x3", "2x2", "1x1", "4x3"}
    doc = json.loads(json_path.read_text())
    assert doc["interrupted"] is False and len(doc["runs"]) == len(rows) == 13
    for e in doc["summary"]["engines"]:
        mine = [r for r in engine_rows if r["engine"] == e["engine"]]
        assert e["runs"] == len(mine)
        for verdict in ("unique", "multiple", "none"):
            assert e[verdict] == sum(r["verdict"] == verdict for r in mine)
        assert e["timeouts"] == sum(r["verdict"] == "timeout" for r in mine)
        assert e["total_seconds"] == pytest.approx(sum(float(r["seconds"]) for r in mine), abs=1e-3)
    assert doc["summary"]["input_errors"] == 1
    assert doc["summary"]["agreed"] == doc["summary"]["compared"] == 6
    assert len(doc["comparisons"]) == 6 and all(c["agree"] for c in doc["comparisons"])
    for name in ("oracle", "sleepy", "agreement: 6 of 6"):
        assert name in res.output


def test_cli_usage_errors(fakes, tmp_path):
    write_puzzles(tmp_path, 1)
    res = run_cli(["bench", str(tmp_path), "-b", "nosuchengine"])
    assert res.exit_code == 2 and "nosuchengine" in res.output
    res = run_cli(["bench", str(tmp_path / "missing")])
    assert res.exit_code == 2 and "missing" in res.output
    (tmp_path / "empty").mkdir()
    res = run_cli(["bench", str(tmp_path / "empty"), "-b", "oracle"])
    assert res.exit_code == 2 and "no puzzle files" in res.output


def test_ctrl_c_keeps_every_finished_row(tmp_path):
    write_puzzles(tmp_path / "in", 40)
    csv_path, json_path = tmp_path / "out.csv", tmp_path / "out.json"
    cmd = [sys.executable, str(Path(__file__)), "bench", str(tmp_path / "in"), "-b", "sleepy", "--jobs", "2",
           "--no-progress", "--csv", str(csv_path), "--json", str(json_path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # wait (without a wall-clock assertion) until a few rows are streamed to the CSV, then Ctrl-C
        while proc.poll() is None and (not csv_path.exists() or len(csv_path.read_text().splitlines()) < 4):
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted" in err
    from nonocp.batch import read_csv

    rows = read_csv(str(csv_path))
    doc = json.loads(json_path.read_text())
    assert doc["interrupted"] is True
    assert 3 <= len(rows) < 40 and len(doc["runs"]) == len(rows)
    assert all(r["verdict"] in ("unique", "multiple") for r in rows)
    # the rows are the first puzzles, in input order (puzzle-by-puzzle dispatch), none twice
    names = [Path(r["file"]).name for r in rows]
    assert len(set(names)) == len(names)


# ----------------------------------------------------------------------------------------- signals, disks
def process_table() -> dict[int, tuple[int, int]]:
    """{pid: (parent pid, process group)} of every process now (from /proc; Linux)."""
    out = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":  # zombies are dead already (waiting for a parent to read their status)
                out[int(d.name)] = (int(fields[1]), int(fields[2]))
    return out


def descendants(root: int) -> set[int]:
    table = process_table()
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, (ppid, _) in table.items() if ppid in frontier} - found
        found |= frontier
    return found


def wait_until(condition, what: str, rounds: int = 1200) -> None:
    """Poll `condition` every 0.05 s; fail naming `what` if it never holds (a bound, not a timing test)."""
    for _ in range(rounds):
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"still waiting for: {what}")


def csv_rows_complete(path: Path) -> list[dict[str, str]]:
    """The CSV's rows, checking that each is whole (every column present, a known verdict)."""
    from nonocp.batch import CSV_FIELDS, read_csv

    rows = read_csv(str(path))
    for r in rows:
        assert None not in r.values() and None not in r and tuple(r) == CSV_FIELDS, r
        assert r["verdict"] in ("unique", "multiple", "none", "solved", "timeout", "error"), r
    return rows


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_bench_leaves_no_process_behind(tmp_path, sig):
    """Workers stuck in solves without a time limit (one waiting on a forked child): after the signal,
    `bench` exits 130 with a valid partial report, and no process it started is left."""
    write_puzzles(tmp_path / "in", 6, titles={i: "stuck" for i in range(2, 6)})
    csv_path = tmp_path / "out.csv"
    cmd = [sys.executable, str(Path(__file__)), "bench", str(tmp_path / "in"), "-b", "stuckchild", "--jobs", "2",
           "--timeout", "0", "--no-progress", "--csv", str(csv_path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        # both workers busy on "stuck" puzzles, one of them through a child of its own
        wait_until(lambda: csv_path.exists() and len(csv_path.read_text().splitlines()) >= 3, "two rows")
        wait_until(lambda: len(descendants(proc.pid)) >= 5, "forkserver, workers and a solver child")
        started = descendants(proc.pid)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    rows = csv_rows_complete(csv_path)
    assert [Path(r["file"]).name for r in rows] == ["p00.non", "p01.non"]

    def gone() -> bool:
        table = process_table()
        return not (started & table.keys()) and not any(g == proc.pid for _, g in table.values())

    wait_until(gone, f"the processes of `bench` to end: {sorted(started & process_table().keys())}")


def full_disk_after(monkeypatch, budget: int) -> None:
    """A disk with room for `budget` bytes per file: a write past that is cut short, the next one fails
    with ENOSPC (rewriting bytes already there still works, as on a real file system)."""
    import errno

    from nonocp.batch import reports
    from nonocp.core import outputs

    def pwrite(fd, data, offset):
        room = budget - offset
        if room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return os.pwrite(fd, bytes(data)[:room], offset)

    def write_all(fd, payload):  # a file's first bytes (the header), written by the one write path
        if len(payload) > budget:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        os.write(fd, payload)

    monkeypatch.setattr(reports, "_pwrite", pwrite)
    monkeypatch.setattr(outputs, "_write_all", write_all)


@pytest.mark.parametrize("budget", [0, 700, 1500])
def test_a_full_disk_leaves_only_complete_rows_and_names_the_report(fakes, tmp_path, monkeypatch, budget):
    write_puzzles(tmp_path / "in", 12)
    csv_path = tmp_path / "out.csv"
    csv_path.write_text("what the user had\n")
    full_disk_after(monkeypatch, budget)
    res = run_cli(["bench", str(tmp_path / "in"), "-b", "oracle", "--no-progress", "--csv", str(csv_path)])
    assert res.exit_code == 2, res.output
    assert f"{csv_path}: No space left on device" in res.output
    assert "Traceback" not in res.output
    if budget == 0:  # not even the header fits: the file that was there is untouched
        assert csv_path.read_text() == "what the user had\n"
        return
    rows = csv_rows_complete(csv_path)
    assert 0 < len(rows) < 12
    assert all(r["verdict"] in ("unique", "multiple") for r in rows)
    assert f"{len(rows)} complete rows" in res.output
    assert not list(tmp_path.glob(".out.csv.*"))  # no temporary file left beside it


def test_a_full_disk_keeps_the_json_stream_valid(fakes, tmp_path, monkeypatch):
    write_puzzles(tmp_path / "in", 12)
    json_path = tmp_path / "out.json"
    full_disk_after(monkeypatch, 1800)
    res = run_cli(["bench", str(tmp_path / "in"), "-b", "oracle", "--no-progress", "--json", str(json_path)])
    assert res.exit_code == 2 and f"{json_path}: No space left on device" in res.output, res.output
    doc = json.loads(json_path.read_text())  # a valid document: the rows that fit, not complete
    assert doc["complete"] is False and 0 < len(doc["runs"]) < 12
    assert all(r["verdict"] in ("unique", "multiple") for r in doc["runs"])


def test_bench_exits_2_when_no_file_can_be_read(fakes, tmp_path):
    (tmp_path / "in").mkdir()
    for name in ("a.non", "b.non"):
        (tmp_path / "in" / name).write_text("not a puzzle at all\n")
    csv_path = tmp_path / "out.csv"
    res = run_cli(["bench", str(tmp_path / "in"), "-b", "oracle", "--no-progress", "--csv", str(csv_path)])
    assert res.exit_code == 2, res.output
    assert "no puzzle could be read" in res.output
    rows = csv_rows_complete(csv_path)
    assert [r["verdict"] for r in rows] == ["error", "error"]


# ----------------------------------------------------------------------------------------- resuming
def test_resume_runs_only_what_the_report_lacks(fakes, tmp_path):
    """A report cut after 4 of 10 rows (as a killed run leaves it, its last row half-written): --resume runs
    the other 6 and the report ends with each puzzle once, in input order."""
    from nonocp.batch import read_csv

    tally = tmp_path / "tally.log"
    distinct_puzzles(tmp_path / "in", 10, title=f"tally:{tally}")
    (tmp_path / "in" / "junk.non").write_text("not a puzzle\n")
    csv_path = tmp_path / "out.csv"
    res = run_cli(["bench", str(tmp_path / "in"), "-b", "tally", "--no-progress", "--csv", str(csv_path)])
    assert res.exit_code == 0, res.output
    full = read_csv(str(csv_path))
    assert len(full) == 11 and len(tally.read_text().split()) == 10
    lines = csv_path.read_text(encoding="utf-8").splitlines(keepends=True)
    csv_path.write_text("".join(lines[:6]) + lines[6][:25], encoding="utf-8")  # header, 5 rows, a cut one
    tally.unlink()

    res = run_cli(["bench", str(tmp_path / "in"), "-b", "tally", "--no-progress", "--resume", str(csv_path)])
    assert res.exit_code == 0, res.output
    assert "5 of 11 rows already there, 6 runs to do" in res.output  # the junk row is one of the 5
    ran = tally.read_text().split()
    done_before = {r["fingerprint"] for r in full[:5] if r["engine"]}
    assert len(ran) == 6 and not set(ran) & done_before
    after = read_csv(str(csv_path))
    key = lambda r: (r["file"], r["index"], r["engine"], r["verdict"], r["solutions"], r["fingerprint"])  # noqa: E731
    assert sorted(map(key, after)) == sorted(map(key, full))  # every puzzle exactly once, same verdicts

    # resuming a complete report runs nothing, and writing the result elsewhere keeps every row
    tally.unlink()
    other = tmp_path / "other.json"
    res = run_cli(["bench", str(tmp_path / "in"), "-b", "tally", "--no-progress", "--resume", str(csv_path),
                   "--json", str(other)])
    assert res.exit_code == 0 and not tally.exists(), res.output
    doc = json.loads(other.read_text())
    assert doc["complete"] is True and doc["resumed_rows"] == 11
    assert sorted((r["file"], r["engine"], r["fingerprint"]) for r in doc["runs"]) == sorted(
        (r["file"], r["engine"], r["fingerprint"]) for r in full
    )


def test_resume_refuses_a_file_that_is_not_a_report(fakes, tmp_path):
    write_puzzles(tmp_path / "in", 2)
    bogus = tmp_path / "notes.csv"
    bogus.write_text("name,score\nx,1\n")
    res = run_cli(["bench", str(tmp_path / "in"), "-b", "oracle", "--no-progress", "--resume", str(bogus)])
    assert res.exit_code == 2 and "notes.csv: not a bench report" in res.output, res.output
    assert bogus.read_text() == "name,score\nx,1\n"
    res = run_cli(["bench", str(tmp_path / "in"), "-b", "oracle", "--no-progress", "--resume", str(tmp_path / "no")])
    assert res.exit_code == 2 and "cannot read the report" in res.output, res.output


def test_pool_imports_no_dask(tmp_path):
    """The default (local pool) path never imports Dask, even where it is installed."""
    write_puzzles(tmp_path / "in", 2)
    code = (
        f"import sys; sys.argv = ['nonocp', 'bench', {str(tmp_path / 'in')!r}, '-b', 'native', '--no-progress']\n"
        "from nonocp.cli import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    assert e.code in (0, None), e.code\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed'))\n"
        "assert not bad, bad\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr


# ----------------------------------------------------------------------------------------- real engines
def test_bench_matches_in_process_solve_on_tiny_puzzles(tmp_path):
    from nonocp.batch import BatchOptions, collect, run_batch
    from nonocp.engines.solve import solve

    engines = real_engines()
    write_puzzles(tmp_path, len(PICTURES))
    entries = collect([tmp_path])
    outcome = run_batch(entries, engines, BatchOptions(jobs=2, timeout=None))  # no clock: load must not matter
    for r in outcome.records:
        direct = solve(load_one(Path(r.file)), r.engine, max_solutions=2)
        assert (r.verdict, r.solutions) == (str(direct.status), len(direct.solutions)), r


@pytest.mark.slow
def test_bench_matches_solve_on_the_free_survey_set(tmp_path):
    """The free survey set with every available engine: one row per puzzle and engine, same verdicts as solve.

    faase and knotty are left out (minutes per engine); timeouts are compared only when both answered.
    """
    from nonocp.batch import read_csv
    from nonocp.engines.solve import solve

    if not SURVEY_FREE.exists():
        pytest.skip(f"corpus not available: {SURVEY_FREE}")
    engines = real_engines()
    files = sorted(p for p in SURVEY_FREE.glob("webpbn-0*.txt"))
    csv_path = tmp_path / "survey.csv"
    res = run_cli(["bench", *map(str, files), "-b", ",".join(engines), "--jobs", "2", "--timeout", "20",
                   "--no-progress", "--csv", str(csv_path)])
    assert res.exit_code == 0, res.output
    rows = read_csv(str(csv_path))
    assert sorted((r["file"], r["engine"]) for r in rows) == sorted((str(f), e) for f in files for e in engines)
    for r in rows:
        if r["verdict"] == "timeout":
            continue
        direct = solve(load_one(Path(r["file"])), r["engine"], max_solutions=2, time_limit=20)
        if str(direct.status) != "timeout":
            assert r["verdict"] == str(direct.status), r


if __name__ == "__main__":  # `nonocp` with the fake engines registered (the Ctrl-C test runs this)
    BACKENDS.update(FAKES)
    from nonocp.cli import main

    main()
