"""Solve and step latency of count-clue puzzles in the workbench (`nonocp serve`): through its HTTP API, and
in the page itself in Chromium, on 15x15 puzzles in four colours.

Each puzzle is opened (POST /api/open, as an upload), solved (POST /api/solve, uniqueness: two solutions
asked) `--runs` times, and stepped as the game's own solver page is used: start, then a click on each
column in turn (POST /api/step, action examine) until every cell is decided or three sweeps went by, then
the all-remaining-cells step if cells are left. Every request is timed from the client (wall clock: what a
person waits, the load on the machine included), and checked (the solution fits the clues).

Baseline in the same run: 15x15 black-and-white run-clue puzzles through the same requests, and the count
puzzles solved in-process by nonocp.solve() (the engine alone). CPU: the server and its workers, from /proc.

In the browser (`--what browser`; Playwright driving Debian's Chromium at 1400x900, as the tests launch it):
each puzzle pasted into the Open mode, solved `--runs` times with the Solve button, then stepped in the Step
mode by clicking each column's clue in turn until every cell is decided (three sweeps at most). The page
times each click itself, from the click to the frame after the answer is drawn (Solve: the verdict and
the solution; Step: the cells, the colour circles, the step's words): `data-ms` on the verdict and on the
Step panel. The same 15x15 black-and-white run-clue puzzles are the baseline, in the same page.

    python benchmarks/bench_web_counts.py [--what api,browser] [--puzzles 8] [--runs 3] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from datetime import date
from pathlib import Path

from bench_web import tree_cpu
from machine import CpuSplit

from nonocp import solve
from nonocp.core.puzzle import Puzzle
from nonocp.formats import dumps

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "puzzles" / "tools"))


def count_puzzles(n: int) -> list[Puzzle]:
    """puzzles/counts-gen-c4-15x15.json's recipe and the next seeds: smoothed random pictures in four colours."""
    from make_count_puzzles import Recipe

    return [Recipe(f"counts-bench-{seed}", seed=seed, width=15, height=15, ncolors=4).puzzle()
            for seed in range(6, 6 + n)]


def run_puzzles(n: int) -> list[Puzzle]:
    """15x15 black-and-white run-clue puzzles of the same generator family (puzzles/tools/make_puzzles.py)."""
    from make_puzzles import Recipe

    return [Recipe(f"bw-bench-{seed}", seed=seed, width=15, height=15, ncolors=2).puzzle() for seed in range(1, 1 + n)]


class Client:
    def __init__(self, url: str) -> None:
        self.url = url

    def post(self, path: str, body: bytes, kind: str = "application/json") -> tuple[dict, float]:
        req = urllib.request.Request(self.url + path, body, {"Content-Type": kind})
        t = time.perf_counter()
        with urllib.request.urlopen(req, timeout=120) as resp:
            data = json.loads(resp.read())
        return data, (time.perf_counter() - t) * 1000

    def json(self, path: str, obj: dict) -> tuple[dict, float]:
        return self.post(path, json.dumps(obj).encode())


def measure(client: Client, puzzle: Puzzle, runs: int, times: dict[str, list[float]]) -> dict[str, int]:
    """Open, solve `runs` times and step one puzzle; the latencies go into `times`; returns what stepping did."""
    opened, ms = client.post("api/open?name=p.json", dumps(puzzle, "json").encode(), "application/octet-stream")
    times["open"].append(ms)
    (obj,) = opened["puzzles"]
    for _ in range(runs):
        answer, ms = client.json("api/solve", {"puzzle": obj, "max_solutions": 2, "time_limit": 30})
        if answer["status"] not in ("unique", "multiple") or not all(
                puzzle.is_solution(_grid(rows, puzzle)) for rows in answer["solutions"]):
            raise SystemExit(f"{puzzle.title}: bad answer {answer.get('status')}")
        times["solve"].append(ms)
    state, ms = client.json("api/step", {"puzzle": obj, "action": "start"})
    times["step start"].append(ms)
    clicks = 0
    while state["undecided"] and clicks < 3 * puzzle.width:
        state, ms = client.json("api/step", {"puzzle": obj, "action": "examine",
                                             "line": ["column", clicks % puzzle.width], "state": state["state"]})
        times["step: click a column"].append(ms)
        clicks += 1
    left = state["undecided"]
    if left:
        state, ms = client.json("api/step", {"puzzle": obj, "action": "remaining", "state": state["state"]})
        times["step: all remaining cells"].append(ms)
    return {"clicks": clicks, "left_after_clicks": left, "undecided_at_end": state["undecided"]}


def _grid(rows: list[str], puzzle: Puzzle):
    from nonocp.core.grid import Grid

    return Grid.from_strings(rows, puzzle.palette)


def table_rows(label: str, times: dict[str, list[float]]) -> list[str]:
    out = []
    for what, values in times.items():
        if not values:
            continue
        q = statistics.quantiles(values, n=20, method="inclusive") if len(values) > 1 else values * 19
        out.append(f"| {label} | {what} | {len(values)} | {statistics.median(values):.0f} | {q[18]:.0f} | "
                   f"{max(values):.0f} |")
    return out


def page_open(page, puzzle: Puzzle) -> None:
    """Paste the puzzle's file text into the Open mode, as a person would, and wait for its board."""
    loads = page.evaluate("+(document.body.dataset.loads || 0)")
    page.click("button[data-mode=open]")
    page.fill("#paste", dumps(puzzle, "counts" if puzzle.has_counts else "non"))
    page.click("#paste-open")
    page.wait_for_function(f"() => +(document.body.dataset.loads || 0) > {loads}", timeout=60000)


def page_measure(page, puzzle: Puzzle, runs: int, times: dict[str, list[float]]) -> int:
    """Solve `runs` times and step by columns in the page; the page's own ms go into `times`; returns the
    cells left undecided after the clicks."""
    page_open(page, puzzle)
    page.click("button[data-mode=solve]")
    for _ in range(runs):
        page.evaluate("() => { const v = document.getElementById('verdict'); delete v.dataset.ms; }")
        page.click("#solve-run")
        page.wait_for_selector("#verdict[data-ms]", timeout=60000)
        if page.get_attribute("#verdict", "data-status") not in ("unique", "multiple"):
            raise SystemExit(f"{puzzle.title}: the page said {page.inner_text('#verdict')!r}")
        times["solve"].append(float(page.get_attribute("#verdict", "data-ms")))
        times["solve: the page's drawing"].append(float(page.get_attribute("#verdict", "data-draw-ms")))
    answers = "+(document.getElementById('panel-step').dataset.answers || 0)"
    before = page.evaluate(answers)
    page.click("button[data-mode=step]")
    page.wait_for_function(f"() => {answers} > {before}", timeout=60000)  # the start
    clicks = 0
    while page.evaluate("window.nonocp.modes.step.answer.undecided") and clicks < 3 * puzzle.width:
        before = page.evaluate(answers)
        page.click(f'svg.board .hdr[data-kind="column"][data-index="{clicks % puzzle.width + 1}"] .hdr-bg')
        page.wait_for_function(f"() => {answers} > {before}", timeout=60000)
        times["step: click a column"].append(float(page.get_attribute("#panel-step", "data-ms")))
        times["step: the page's drawing"].append(float(page.get_attribute("#panel-step", "data-draw-ms")))
        clicks += 1
    return page.evaluate("window.nonocp.modes.step.answer.undecided")


def browser_section(url: str, counts: list[Puzzle], runs: list[Puzzle], args) -> list[str]:
    import shutil

    from bench_web import ARGS
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("bench_web_counts: --what browser needs Debian's chromium (apt-get install -y chromium)")
    keys = ("solve", "solve: the page's drawing", "step: click a column", "step: the page's drawing")
    count_times: dict[str, list[float]] = {k: [] for k in keys}
    run_times: dict[str, list[float]] = {k: [] for k in keys}
    left: list[int] = []
    load_before = os.getloadavg()
    split = CpuSplit()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(url)
        page.wait_for_selector("body[data-ready]")
        page_measure(page, counts[0], 1, {k: [] for k in keys})  # warm: the workers' first imports
        for count_puzzle, run_puzzle in zip(counts, runs, strict=True):  # in turn, so a busy spell hits both
            left.append(page_measure(page, count_puzzle, args.runs, count_times))
            page_measure(page, run_puzzle, args.runs, run_times)
        browser.close()
    load_after = os.getloadavg()
    return [
        "In Chromium (the page's own time from the click to the frame after the answer is drawn; \"the page's "
        "drawing\": from the answer's arrival to that frame):",
        "",
        f"Load average {load_before[0]:.1f} before and {load_after[0]:.1f} after; {split.report()}.",
        "",
        "| puzzles | in the page | clicks | median ms | 95th percentile ms | max ms |",
        "|---|---|---:|---:|---:|---:|",
        *table_rows("counts 15x15, 4 colours", count_times),
        *table_rows("baseline: runs 15x15, b/w", run_times),
        "",
        f"Cells left undecided after the clicks on columns: {', '.join(str(n) for n in left)}.",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--what", default="api,browser", help="comma-separated: api (HTTP requests), browser (the page)")
    ap.add_argument("--puzzles", type=int, default=8)
    ap.add_argument("--runs", type=int, default=3, help="solves timed per puzzle")
    ap.add_argument("--out", default=None, help="write the Markdown table here")
    args = ap.parse_args()
    wanted = {w.strip() for w in args.what.split(",") if w.strip()}
    if wanted - {"api", "browser"}:
        sys.exit(f"bench_web_counts: unknown --what {', '.join(sorted(wanted - {'api', 'browser'}))}")

    counts, runs = count_puzzles(args.puzzles), run_puzzles(args.puzzles)
    server = subprocess.Popen([sys.executable, "-m", "nonocp.cli", "serve", "--port", "0"],
                              stderr=subprocess.PIPE, text=True)
    url = None
    while url is None:
        line = server.stderr.readline()
        if not line:
            sys.exit("bench_web_counts: the server did not start")
        m = re.search(r"(http://\S+/) \(Ctrl-C", line)
        url = m.group(1) if m else None
    if "api" not in wanted:
        try:
            lines = browser_section(url, counts, runs, args)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(30)
        text = "\n".join([f"Command: `python benchmarks/bench_web_counts.py --what browser --puzzles {args.puzzles} "
                          f"--runs {args.runs}` ({date.today().isoformat()})", "", *lines]) + "\n"
        print(text)
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
        return
    client = Client(url)
    keys = ("open", "solve", "step start", "step: click a column", "step: all remaining cells")
    count_times: dict[str, list[float]] = {k: [] for k in keys}
    run_times: dict[str, list[float]] = {k: [] for k in keys}
    engine_ms: list[float] = []
    stepping: list[dict[str, int]] = []
    load_before = os.getloadavg()
    split = CpuSplit()
    try:
        measure(client, counts[0], 1, {k: [] for k in keys})  # warm: the workers' first imports
        cpu_start, wall_start = tree_cpu(server.pid), time.monotonic()
        for count_puzzle, run_puzzle in zip(counts, runs, strict=True):  # in turn, so a busy spell hits both
            stepping.append(measure(client, count_puzzle, args.runs, count_times))
            measure(client, run_puzzle, args.runs, run_times)
        cpu, wall = tree_cpu(server.pid) - cpu_start, time.monotonic() - wall_start
        in_page = browser_section(url, counts, runs, args) if "browser" in wanted else []
        for p in counts:
            for _ in range(args.runs):
                t = time.perf_counter()
                solve(p, max_solutions=2)
                engine_ms.append((time.perf_counter() - t) * 1000)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
    load_after = os.getloadavg()
    requests = sum(len(v) for v in count_times.values()) + sum(len(v) for v in run_times.values())
    solved_by_clicks = sum(1 for s in stepping if not s["left_after_clicks"])
    lines = [
        f"Measured {date.today().isoformat()} on {platform.machine()}, {os.cpu_count()} cores, load average "
        f"{load_before[0]:.1f} before and {load_after[0]:.1f} after; {split.report()}.",
        f"{len(counts)} count puzzles 15x15 in four colours (make_count_puzzles.py's generator, seeds 6-"
        f"{5 + len(counts)}) and {len(runs)} black-and-white 15x15 run-clue puzzles (make_puzzles.py's, seeds "
        f"1-{len(runs)}), {args.runs} solves each.",
        "",
        f"Command: `python benchmarks/bench_web_counts.py --puzzles {args.puzzles} --runs {args.runs}`",
        "",
        "| puzzles | request | runs | median ms | 95th percentile ms | max ms |",
        "|---|---|---:|---:|---:|---:|",
        *table_rows("counts 15x15, 4 colours", count_times),
        *table_rows("baseline: runs 15x15, b/w", run_times),
        *table_rows("baseline: counts in-process", {"nonocp.solve()": engine_ms}),
        "",
        f"Stepping by columns alone decided every cell of {solved_by_clicks} of the {len(counts)} count puzzles "
        f"(clicks: {', '.join(str(s['clicks']) for s in stepping)}); cells left to the all-remaining-cells step: "
        f"{', '.join(str(s['left_after_clicks']) for s in stepping)}.",
        f"CPU of the server and its workers: {cpu:.2f} s over {wall:.1f} s wall for {requests} requests.",
        *([""] + in_page if in_page else []),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
