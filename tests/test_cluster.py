"""`bench --cluster` and `check --cluster` on a local Dask cluster of 2 worker processes.

One cluster serves the module (started once: a few seconds); the commands reach it by its scheduler
address, as they would a remote one. The fake engines of tests/test_bench.py make the hard cases
reproducible: a solve that never ends, a worker killed in the middle of a puzzle, a run interrupted and
resumed. Skipped where Dask is not installed (it is in the `test` extra, so CI runs these).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from nonocp.engines import BACKENDS  # noqa: E402
from oracle import brute_force  # noqa: E402
from test_bench import (  # noqa: E402
    FAKES,
    PICTURES,
    csv_rows_complete,
    descendants,
    distinct_puzzles,
    load_one,
    process_table,
    real_engines,
    run_cli,
    wait_until,
    write_puzzles,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BENCH_SCRIPT = HERE / "test_bench.py"  # `nonocp` with the fake engines registered


@pytest.fixture(scope="module")
def cluster():
    from nonocp.batch.cluster import Cluster

    with Cluster.connect("local:2") as c:
        c.client.wait_for_workers(2)
        yield c


@pytest.fixture
def address(cluster) -> str:
    cluster.client.wait_for_workers(2)  # a test that killed a worker leaves the nanny restarting it
    return cluster.local.scheduler_address


@pytest.fixture
def fakes(monkeypatch):
    for name, target in FAKES.items():
        monkeypatch.setitem(BACKENDS, name, target)


def verdict_key(row: dict[str, str]) -> tuple[str, ...]:
    return (row["file"], row["index"], row["engine"], row["verdict"], row["solutions"])


def expected_verdict(path: Path) -> str:
    found = brute_force(load_one(path), 2)
    return "multiple" if len(found) > 1 else "unique" if found else "none"


# ----------------------------------------------------------------------------------------- same answers
def test_the_cluster_gives_the_local_pools_verdicts(address, tmp_path):
    engines = real_engines()
    files = write_puzzles(tmp_path / "in", len(PICTURES))
    shipped = [ROOT / "puzzles" / n for n in ("fish.non", "cherries.non", "gen-c3-12x12.non", "gen-bundle.nonpack")]
    paths = [str(tmp_path / "in"), *(str(p) for p in shipped if p.exists())]
    reports = {}
    for where in (["--cluster", address], ["--jobs", "2"]):
        csv_path = tmp_path / f"{where[0].strip('-')}.csv"
        res = run_cli(["bench", *paths, "-b", ",".join(engines), "--timeout", "0", "--no-progress",
                       "--csv", str(csv_path), *where])
        assert res.exit_code == 0, res.output
        reports[where[0]] = csv_rows_complete(csv_path)
    on_cluster, local = reports["--cluster"], reports["--jobs"]
    assert [verdict_key(r) for r in on_cluster] == [verdict_key(r) for r in local]
    assert len(on_cluster) >= len(engines) * len(files)
    for r in on_cluster:  # and the tiny ones against the oracle
        if r["file"].startswith(str(tmp_path)):
            assert r["verdict"] == expected_verdict(Path(r["file"])), r


def test_check_on_the_cluster_agrees_with_check_here(address, tmp_path):
    engines = real_engines()
    files = [str(p) for p in write_puzzles(tmp_path, 4)] + [str(ROOT / "puzzles" / "fish.non")]
    docs = []
    for extra in ([], ["--cluster", address]):
        res = run_cli(["check", *files, "--backends", ",".join(engines), "--format", "json", *extra])
        assert res.exit_code == 0, res.output
        docs.append([json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")])  # one per puzzle
    here, there = docs
    assert all(p["agree"] for p in there)
    summary = lambda d: [  # noqa: E731
        (p["puzzle"], p["verdict"], p["deciders"], [(e["engine"], e["status"], e["solutions"]) for e in p["engines"]])
        for p in d
    ]
    assert summary(there) == summary(here)


# ----------------------------------------------------------------------------------------- nothing lost
def test_a_solve_past_its_limit_is_a_timeout_and_the_worker_keeps_serving(cluster, fakes, tmp_path):
    from nonocp.batch import BatchOptions, collect, run_batch
    from nonocp.batch.remote import worker_pid

    before = cluster.client.run(worker_pid)
    write_puzzles(tmp_path, 6, titles={1: "stuck", 4: "stuck"})
    outcome = run_batch(collect([tmp_path]), ["stuck"], BatchOptions(timeout=0.5), runner=cluster.runner())
    rows = outcome.records
    assert [r.verdict for r in rows][1::3] == ["timeout", "timeout"]
    assert all(r.stats == {"killed": True} and r.seconds >= 0.5 for r in rows if r.verdict == "timeout")
    for r in rows:
        if r.verdict != "timeout":
            assert r.verdict == expected_verdict(Path(r.file))
            assert r.stats["ppid"] in before.values()  # solved by a solver process of an original worker
    assert cluster.client.run(worker_pid) == before  # the same two workers, none lost or restarted


def test_a_worker_killed_mid_puzzle_loses_nothing(address, cluster, fakes, tmp_path):
    """SIGKILL to the worker process solving a puzzle: Dask gives the puzzle to a worker again, and the
    report has every puzzle exactly once, with the oracle's verdicts; the dead worker's solver is gone."""
    marker = tmp_path / "victim.pids"
    files = distinct_puzzles(tmp_path / "in", 16)
    victim = tmp_path / "in" / "r005.non"
    victim.write_text(_retitled(victim, f"victim:{marker}"))
    killed: list[int] = []

    def kill_the_victims_worker() -> None:
        for _ in range(2400):
            if marker.exists() and marker.read_text():
                worker, solver = map(int, marker.read_text().split())
                os.kill(worker, signal.SIGKILL)
                killed.extend([worker, solver])
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_the_victims_worker, daemon=True)
    killer.start()
    csv_path = tmp_path / "out.csv"
    res = run_cli(["bench", str(tmp_path / "in"), "-b", "victim", "--cluster", address, "--no-progress",
                   "--csv", str(csv_path)])
    killer.join(5)
    assert res.exit_code == 0, res.output
    assert killed, "the victim puzzle never started"
    rows = csv_rows_complete(csv_path)
    assert sorted(r["file"] for r in rows) == sorted(str(f) for f in files)  # each exactly once
    for r in rows:
        assert r["verdict"] == expected_verdict(Path(r["file"])), r
    (again,) = [r for r in rows if r["file"] == str(victim)]
    assert json.loads(again["stats"])["ppid"] != killed[0]  # solved by another (or a restarted) worker
    wait_until(lambda: not set(killed) & process_table().keys(), "the killed worker's solver process to end")


def _retitled(path: Path, title: str) -> str:
    lines = [ln for ln in path.read_text().splitlines() if not ln.startswith("title")]
    return "\n".join([f'title "{title}"', *lines]) + "\n"


def test_resume_after_an_interrupted_cluster_run_does_only_the_rest(address, cluster, fakes, tmp_path):
    tally = tmp_path / "tally.log"
    files = distinct_puzzles(tmp_path / "in", 30, title=f"tally:{tally}")
    csv_path = tmp_path / "out.csv"
    cmd = [sys.executable, str(BENCH_SCRIPT), "bench", str(tmp_path / "in"), "-b", "slowtally", "--cluster",
           address, "--no-progress", "--csv", str(csv_path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: csv_path.exists() and len(csv_path.read_text().splitlines()) >= 6, "five rows")
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    first = csv_rows_complete(csv_path)
    assert 5 <= len(first) < 30

    res = run_cli(["bench", str(tmp_path / "in"), "-b", "slowtally", "--cluster", address, "--no-progress",
                   "--resume", str(csv_path)])
    assert res.exit_code == 0, res.output
    # Counted, not timed: each solve writes its puzzle's fingerprint to the tally as it starts. A puzzle with a
    # row in the first report ran once in all (the resume never ran it again); one without ran on the resume,
    # and perhaps once more before it: solves in flight when the first run was interrupted start (and write)
    # whenever the workers get to them, and have no row.
    ran = Counter(tally.read_text().split())
    done = {r["fingerprint"] for r in first}
    missing = {load_one(f).fingerprint() for f in files} - done
    assert {f: ran[f] for f in done} == dict.fromkeys(done, 1)
    assert all(1 <= ran[f] <= 2 for f in missing), {f: ran[f] for f in missing}
    final = csv_rows_complete(csv_path)
    assert [r["file"] for r in final] == [str(f) for f in files]  # every puzzle once, in input order
    assert {r["fingerprint"]: r["verdict"] for r in final if r["fingerprint"] in {x["fingerprint"] for x in first}} \
        == {r["fingerprint"]: r["verdict"] for r in first}


# ----------------------------------------------------------------------------------------- local:N, signals
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_local_cluster_from_the_command_line_and_sigterm_leaves_nothing(tmp_path):
    """`--cluster local:2` starts its own workers; SIGTERM mid-run keeps the finished rows and ends every
    process the command started (scheduler, workers, their solver processes and the solvers' children)."""
    write_puzzles(tmp_path / "in", 8, titles={i: "stuck" for i in range(3, 8)})
    csv_path = tmp_path / "out.csv"
    cmd = [sys.executable, str(BENCH_SCRIPT), "bench", str(tmp_path / "in"), "-b", "stuckchild", "--cluster",
           "local:2", "--timeout", "0", "--no-progress", "--csv", str(csv_path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_until(lambda: csv_path.exists() and len(csv_path.read_text().splitlines()) >= 4, "three rows")
        # each worker's solver process is stuck on a child of its own
        wait_until(lambda: len(descendants(proc.pid)) >= 6, "workers, solver processes and their children")
        started = descendants(proc.pid)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    try:
        import bokeh  # noqa: F401

        assert "Dask dashboard: http" in err
    except ImportError:
        pass
    rows = csv_rows_complete(csv_path)
    assert [Path(r["file"]).name for r in rows] == ["p00.non", "p01.non", "p02.non"]

    def gone() -> bool:
        table = process_table()
        return not (started & table.keys()) and not any(g == proc.pid for _, g in table.values())

    wait_until(gone, f"the processes of `bench` to end: {sorted(started & process_table().keys())}")


# ----------------------------------------------------------------------------------------- usage errors
def test_bad_cluster_addresses_are_one_line_errors(fakes, tmp_path, monkeypatch):
    from nonocp.batch import cluster as cluster_module

    write_puzzles(tmp_path, 1)
    for bad in ("nowhere", "local:0", "local:two"):
        res = run_cli(["bench", str(tmp_path), "-b", "oracle", "--no-progress", "--cluster", bad])
        assert res.exit_code == 2 and bad in res.output and "local:N" in res.output, res.output
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 1)
    res = run_cli(["check", str(tmp_path / "p00.non"), "--backends", "oracle", "--cluster", "tcp://127.0.0.1:9"])
    assert res.exit_code == 2 and "cannot reach the Dask scheduler" in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1
    old = tmp_path / "old.csv"  # a scheduler out of reach costs nothing: the report there is kept
    old.write_text("file,index,engine,verdict\n")
    res = run_cli(["bench", str(tmp_path), "-b", "oracle", "--no-progress", "--cluster", "tcp://127.0.0.1:9",
                   "--csv", str(old)])
    assert res.exit_code == 2 and "cannot reach" in res.output and old.read_text() == "file,index,engine,verdict\n"


def test_without_dask_cluster_says_what_to_install(tmp_path):
    write_puzzles(tmp_path, 1)
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('dask', 'distributed'):\n"
        "            raise ImportError('no ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"sys.argv = ['nonocp', 'bench', {str(tmp_path)!r}, '-b', 'native', '--cluster', 'local:2']\n"
        "from nonocp.cli import main\n"
        "main()\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip().count("\n") == 0 and "nonocp[cluster]" in res.stderr, res.stderr


def test_quick_puzzles_travel_several_to_a_task():
    from nonocp.batch.cluster import MAX_CHUNK, TASK_SECONDS, _Chunking

    chunking = _Chunking(threads=2)
    sizes = []
    for seconds in [0.001] * 3:
        chunking.add(seconds)
        sizes.append(chunking.size())
    assert sizes == [1, 1, 1]  # one puzzle per task until 4 rows (2 per thread) are in
    chunking.add(0.001)
    assert chunking.size() == MAX_CHUNK
    slow = _Chunking(threads=1)
    for seconds in (TASK_SECONDS / 4, TASK_SECONDS / 4):
        slow.add(seconds)
    assert slow.size() == 4
    slow.add(10 * TASK_SECONDS)  # a timeout pulls the mean up: back to one per task
    assert slow.size() == 1


def test_check_on_the_cluster_stops_an_overrunning_engine(address, fakes, tmp_path):
    """`check --cluster`: an engine past its limit is stopped hard and shown as a timeout; the other
    engine's verdict stands (one engine only, not a disagreement)."""
    (path,) = write_puzzles(tmp_path, 1, titles={0: "stuck"})
    res = run_cli(["check", str(path), "--backends", "oracle,stuck", "--timeout", "0.3", "--format", "json",
                   "--cluster", address])
    assert res.exit_code == 0, res.output
    (puzzle,) = [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]
    assert [(e["engine"], e["status"]) for e in puzzle["engines"]] == [("oracle", "unique"), ("stuck", "timeout")]
    assert puzzle["verdict"] == "unique" and puzzle["deciders"] == 1
