"""`bench --cluster local:2` against the local pool with `--jobs 2`, same puzzles, same run; and what one
puzzle costs the Dask scheduler, the client and a worker, for a projection to many machines.

    nice -n 10 .venv/bin/python benchmarks/bench_cluster.py                       # 1000 tournament puzzles
    nice -n 10 .venv/bin/python benchmarks/bench_cluster.py --puzzles 150 --rounds 2   # a quick look

Part 1 runs the real command (`nonocp bench SET --limit N --json ...`) in a subprocess for each
configuration, alternating them (A B, then B A, ...) so that a change of load hits both. For each run:
the command's wall time (start-up included), the batch's wall time (the JSON's `wall_seconds`), and the
CPU time of its whole process tree: this script makes itself the "child subreaper" (Linux), so that the
forkserver's workers and the Dask workers' solver processes, which are not the command's own children,
are reaped here and counted.

Part 2 starts a scheduler (`dask scheduler`) and two workers (`dask worker`) as separate processes, as on
several machines, and sends them tiny puzzles (1x1, answered in microseconds) through the same client
code as `bench --cluster`: the CPU each process spends per puzzle is then the cost of scheduling one
puzzle, which is what limits a large cluster. The projection for a large run uses those costs and the
solve time per puzzle measured in part 1.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SETS = ROOT.parent / "shared" / "corpus" / "nonogram-record" / "question"
sys.path.insert(0, str(HERE))

from machine import CpuSplit  # noqa: E402


def become_subreaper() -> bool:
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def reap_orphans(rounds: int = 600) -> None:
    """Wait for every process left to this subreaper (exiting forkservers and their workers)."""
    for _ in range(rounds):
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.05)


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def uptime() -> str:
    try:
        return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()
    except OSError:
        return "?"


def nonocp_command() -> list[str]:
    exe = Path(sys.executable).with_name("nonocp")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "nonocp"]


def run_bench(name: str, extra: list[str], set_file: Path, puzzles: int, engine: str, out: Path) -> dict:
    json_path = out / f"{name}.json"
    cmd = [*nonocp_command(), "bench", str(set_file), "--limit", str(puzzles), "-b", engine, "--no-progress",
           "--json", str(json_path), *extra]
    cpu0, load0 = children_cpu(), os.getloadavg()
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    reap_orphans()
    cpu = children_cpu() - cpu0
    if proc.returncode != 0:
        raise SystemExit(f"{name}: exit {proc.returncode}: {proc.stderr.strip()[-500:]}")
    doc = json.loads(json_path.read_text())
    runs = doc["runs"]
    return {
        "name": name, "command": " ".join(cmd[1:]), "wall": wall, "batch_wall": doc["wall_seconds"], "cpu": cpu,
        "solve_seconds": sum(r["seconds"] or 0 for r in runs), "rows": len(runs),
        "timeouts": sum(r["verdict"] == "timeout" for r in runs), "errors": sum(r["verdict"] == "error" for r in runs),
        "verdicts": {(r["file"], r["index"]): r["verdict"] for r in runs},
        "load": (load0, os.getloadavg()),
    }


def part1(args: argparse.Namespace, out: Path) -> list[dict]:
    set_file = SETS / f"{args.set}.txt"
    configs = [("cluster", ["--cluster", "local:2"]), ("pool", ["--jobs", "2"])]
    results = []
    for r in range(args.rounds):
        order = configs if r % 2 == 0 else configs[::-1]
        for name, extra in order:
            res = run_bench(f"{name}-{r}", extra, set_file, args.puzzles, args.engine, out)
            res["config"] = name
            results.append(res)
            print(f"{res['name']}: wall {res['wall']:.1f} s, batch {res['batch_wall']:.1f} s, tree CPU "
                  f"{res['cpu']:.1f} s, solves {res['solve_seconds']:.1f} s, timeouts {res['timeouts']}, "
                  f"load {res['load'][0][0]:.2f} -> {res['load'][1][0]:.2f}", flush=True)
    return results


def tiny_puzzle_text() -> str:
    from nonocp.batch.remote import puzzle_text
    from nonocp.core.puzzle import Block, Puzzle

    return puzzle_text(Puzzle(((Block(1),),), ((Block(1),),)))


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of process `pid`, its reaped children and its live descendants."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = sum(int(x) for x in _stat(pid)[11:15]) / ticks
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if int(_stat(int(d.name))[1]) == pid:
                    total += proc_cpu(int(d.name))
            except (OSError, IndexError):
                continue
    return total


def part2(tasks: int, out: Path) -> dict:
    """Per-puzzle scheduling costs on a scheduler and two workers started as separate processes."""
    from nonocp.batch import BatchOptions, plan_batch, run_batch
    from nonocp.batch import cluster as cluster_module
    from nonocp.batch.cluster import Cluster
    from nonocp.batch.collect import PuzzleEntry
    from nonocp.formats import loads

    dask = shutil.which("dask", path=str(Path(sys.executable).parent)) or "dask"
    sched_file = out / "scheduler.json"
    scheduler = subprocess.Popen([dask, "scheduler", "--port", "0", "--no-dashboard", "--scheduler-file",
                                  str(sched_file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = None
    try:
        for _ in range(600):
            if sched_file.exists() and sched_file.read_text().strip():
                break
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        workers = subprocess.Popen([dask, "worker", address, "--nworkers", "2", "--nthreads", "1",
                                    "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        puzzle = loads(tiny_puzzle_text(), "json")[0]
        entries = [PuzzleEntry(f"tiny-{i}", 1, puzzle) for i in range(tasks)]
        options = BatchOptions(timeout=10)
        measured = {}
        with Cluster.connect(address) as cluster:
            cluster.client.wait_for_workers(2)
            warm = run_batch(entries[:50], ["native"], options, runner=cluster.runner())  # engines imported
            assert all(r.verdict == "unique" for r in warm.records)
            worker_pids = list(cluster.client.run(os.getpid).values())

            def snapshot() -> tuple[float, float, float]:
                self_cpu = time.process_time()
                return self_cpu, proc_cpu(scheduler.pid), sum(proc_cpu(p) for p in worker_pids)

            # one puzzle per Dask task (what each task costs), then as `bench --cluster` sends them
            for name, chunk in (("per task", 1), ("chunked", cluster_module.MAX_CHUNK)):
                cluster_module.MAX_CHUNK = chunk
                plan = plan_batch(entries, ["native"], options)
                before, start = snapshot(), time.monotonic()
                outcome = run_batch(entries, ["native"], options, runner=cluster.runner(), plan=plan)
                wall = time.monotonic() - start
                after = snapshot()
                assert all(r.verdict == "unique" for r in outcome.records), "a tiny puzzle was not solved"
                client, sched, work = (b - a for a, b in zip(before, after, strict=True))
                measured[name] = {"wall": wall, "client": client, "scheduler": sched, "workers": work}
    finally:
        for p in (workers, scheduler):
            if p is not None:
                p.send_signal(signal.SIGINT)
        for p in (workers, scheduler):
            if p is not None:
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
    pool_start = time.monotonic()
    run_batch(entries, ["native"], BatchOptions(jobs=2, timeout=10))
    pool_wall = time.monotonic() - pool_start
    return {"tasks": tasks, "pool_wall": pool_wall, **measured}


def median(xs: list[float]) -> float:
    import statistics

    return statistics.median(xs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--puzzles", type=int, default=1000)
    ap.add_argument("--set", default="icga2016", help="tournament set (a file name in nonogram-record/question)")
    ap.add_argument("--engine", default="auto")
    ap.add_argument("--rounds", type=int, default=1, help="runs of each configuration, alternating")
    ap.add_argument("--tiny", type=int, default=2000, help="tiny puzzles for the scheduling cost (0: skip)")
    ap.add_argument("--skip-part1", action="store_true")
    args = ap.parse_args()
    if not (SETS / f"{args.set}.txt").exists():
        raise SystemExit(f"corpus not available: {SETS / args.set}.txt")
    if not become_subreaper():
        print("warning: not a child subreaper (not Linux?): CPU of grandchildren is not counted")
    out = Path(tempfile.mkdtemp(prefix="nonocp-bench-cluster-"))
    print(f"load average {uptime()}; reports in {out}", flush=True)
    split = CpuSplit()
    results = [] if args.skip_part1 else part1(args, out)
    if results:
        by = {c: [r for r in results if r["config"] == c] for c in ("cluster", "pool")}
        base = by["pool"][0]["verdicts"]
        differ = sum(1 for r in by["cluster"] for k, v in r["verdicts"].items() if base.get(k) != v)
        print(f"\nverdicts differing between configurations: {differ} (timeouts under load can)")
        print("\n| configuration | runs | command wall s (median) | batch wall s | process-tree CPU s | "
              "sum of solve s | timeouts |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for c, rs in by.items():
            print(f"| {c} | {len(rs)} | {median([r['wall'] for r in rs]):.1f} | "
                  f"{median([r['batch_wall'] for r in rs]):.1f} | {median([r['cpu'] for r in rs]):.1f} | "
                  f"{median([r['solve_seconds'] for r in rs]):.1f} | {sum(r['timeouts'] for r in rs)} |")
        cw, pw = median([r["wall"] for r in by["cluster"]]), median([r["wall"] for r in by["pool"]])
        cb, pb = median([r["batch_wall"] for r in by["cluster"]]), median([r["batch_wall"] for r in by["pool"]])
        print(f"\noverhead of the cluster: command wall {100 * (cw - pw) / pw:+.1f} %, batch wall "
              f"{100 * (cb - pb) / pb:+.1f} %")
        print("commands:", *sorted({r["command"] for r in results}), sep="\n  ")
    if args.tiny:
        t = part2(args.tiny, out)
        n = t["tasks"]
        print(f"\n{n} tiny puzzles (1x1) on a separate scheduler + 2 workers; the local pool with 2 jobs: "
              f"{1000 * t['pool_wall'] / n:.2f} ms per puzzle")
        for name in ("per task", "chunked"):
            m = t[name]
            print(f"  {name}: {1000 * m['wall'] / n:.2f} ms wall per puzzle; CPU per puzzle: scheduler "
                  f"{1000 * m['scheduler'] / n:.2f} ms, client {1000 * m['client'] / n:.2f} ms, workers "
                  f"{1000 * m['workers'] / n:.2f} ms")
        # A dedicated core's time per puzzle: the local pool's CPU per puzzle (its solve wall times are
        # inflated by whatever else runs on this shared machine), and a quick archive's 10 ms.
        solves = [median([r["cpu"] / r["rows"] for r in by["pool"]])] if results else []
        for solve in [*solves, 0.01]:
            for name in ("per task", "chunked"):
                project(100_000, 20 * 8, solve, t, name)
    print(f"\n{split.report()}; load average at the end {uptime()}")
    print(f"reports: {out}")


def project(puzzles: int, threads: int, solve: float, t: dict, name: str) -> None:
    """Wall time of `puzzles` on `threads` worker threads: the slowest of the three pipelines (workers,
    scheduler, client). Chunked, a task holds as many puzzles as take about TASK_SECONDS to solve
    (nonocp.batch.cluster); a task's cost is then shared by them, but never taken below what full chunks
    of tiny puzzles cost per puzzle (a bigger task carries more)."""
    from nonocp.batch.cluster import MAX_CHUNK, TASK_SECONDS

    n = t["tasks"]
    one, full = t["per task"], t["chunked"]
    size = 1 if name == "per task" else max(1, min(MAX_CHUNK, int(TASK_SECONDS / solve)))

    def per_puzzle(part: str) -> float:
        if size == 1:
            return one[part] / n
        return max(one[part] / n / size, full[part] / n)

    compute = puzzles * (solve + per_puzzle("workers")) / threads
    scheduler = puzzles * per_puzzle("scheduler")
    client = puzzles * per_puzzle("client")
    bound = "compute" if compute >= max(scheduler, client) else "scheduler" if scheduler >= client else "client"
    print(f"\nprojection ({name}, {size} per task), {puzzles:,} puzzles on {threads} worker threads "
          f"(20 machines x 8 cores), {solve:.3f} s of solving per puzzle:")
    print(f"  workers {compute:.0f} s ({compute / 60:.1f} min); scheduler busy {scheduler:.0f} s; "
          f"client busy {client:.0f} s -> about {max(compute, scheduler, client) / 60:.1f} min, {bound}-bound")


if __name__ == "__main__":
    main()
