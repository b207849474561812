"""The Design mode's answer time in a real browser: on a 30x30 design, the time from the last edit to the
verdict shown on the page.

For each design (random smooth pictures that line logic alone solves, rated LINE by nonocp.analysis.rate),
the page opens the design with one cell flipped, then the benchmark clicks that cell (the last edit,
which makes it the line-solvable design) and waits for the verdict of that version of the drawing. The
page itself measures from the click's pointerdown (its `editedAt`) to the moment it writes the verdict
(`#check-verdict[data-ms]`); the wait includes the debounce (the page waits 250 ms after the last edit
before it asks), the request, the worker process, the solve and the answer.

Baselines in the same run, on the same puzzles: the API's /api/solve round trip from Python (the same
request the page makes, without the browser and the debounce) and nonocp.solve() in-process (the engine
alone). CPU time: the server process and its workers (their time is collected by the fork server when
each worker ends), from /proc.

    python benchmarks/bench_web.py [--designs 12] [--runs 3] [--size 30] [--out benchmarks/results/web.md]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from datetime import date
from pathlib import Path

from nonocp import solve
from nonocp.analysis.rate import rate
from nonocp.core.grid import Grid
from nonocp.core.puzzle import Puzzle, clues_of
from nonocp.formats.json_format import to_obj

ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"]


def smooth_picture(size: int, rng: random.Random) -> list[list[int]]:
    """A blob-like picture: random noise, box-blurred twice, thresholded near its median."""
    noise = [[rng.random() for _ in range(size)] for _ in range(size)]
    for _ in range(2):
        blurred = [[0.0] * size for _ in range(size)]
        for r in range(size):
            for c in range(size):
                cells = [noise[rr][cc] for rr in range(max(0, r - 2), min(size, r + 3))
                         for cc in range(max(0, c - 2), min(size, c + 3))]
                blurred[r][c] = sum(cells) / len(cells)
        noise = blurred
    flat = sorted(v for row in noise for v in row)
    cut = flat[int(len(flat) * rng.uniform(0.4, 0.6))]
    return [[1 if v > cut else 0 for v in row] for row in noise]


def line_solvable_designs(count: int, size: int, seed: int) -> list[list[list[int]]]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pic = smooth_picture(size, rng)
        puzzle = Puzzle(*clues_of(Grid.from_rows(pic)))
        if rate(puzzle, time_limit=10).verdict == "LINE":
            out.append(pic)
    return out


def cpu_seconds(pid: int) -> float:
    """utime + stime of `pid` and of its children that have ended (reaped), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    total = cpu_seconds(pid)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                total += cpu_seconds(int(entry.name))
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--designs", type=int, default=12)
    ap.add_argument("--runs", type=int, default=3, help="edits timed per design")
    ap.add_argument("--size", type=int, default=30)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=None, help="write the Markdown table here")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("bench_web: needs Debian's chromium (apt-get install -y chromium)")
    designs = line_solvable_designs(args.designs, args.size, args.seed)
    print(f"{len(designs)} line-solvable {args.size}x{args.size} designs", file=sys.stderr)

    server = subprocess.Popen([sys.executable, "-m", "nonocp.cli", "serve", "--port", "0"],
                              stderr=subprocess.PIPE, text=True)
    url = None
    while url is None:
        line = server.stderr.readline()
        if not line:
            sys.exit("bench_web: the server did not start")
        m = re.search(r"(http://\S+/) \(Ctrl-C", line)
        url = m.group(1) if m else None
    page_ms: list[float] = []
    api_ms: list[float] = []
    engine_ms: list[float] = []
    load_before = os.getloadavg()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            page.wait_for_selector("body[data-ready]")
            cpu_start = tree_cpu(server.pid)
            wall_start = time.monotonic()
            for k, pic in enumerate(designs):
                rng = random.Random(args.seed + k)
                for _ in range(args.runs):
                    r, c = rng.randrange(args.size), rng.randrange(args.size)
                    before = [row[:] for row in pic]
                    before[r][c] ^= 1
                    page.evaluate("""async rows => {
                        const { puzzleOfDrawing, cellsOfRows, BW_COLORS } = await import('/static/js/puzzle.js');
                        const { encode } = await import('/static/js/share.js');
                        const cells = cellsOfRows(rows, BW_COLORS);
                        const p = puzzleOfDrawing(cells, rows[0].length, rows.length, BW_COLORS, 'bench');
                        await window.nonocp.openLink(await encode(p, true));
                    }""", ["".join(map(str, row)) for row in before])
                    page.wait_for_function("() => document.getElementById('check-state').textContent"
                                           ".startsWith('checked in')", timeout=60000)
                    box = page.locator(f'svg.board .cells rect[data-r="{r}"][data-c="{c}"]').bounding_box()
                    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                    page.wait_for_function("""() => {
                        const v = document.getElementById('check-verdict');
                        return v.dataset.seq === String(window.nonocp.modes.design.state.seq);
                    }""", timeout=60000)
                    status = page.get_attribute("#check-verdict", "data-status")
                    if status != "unique":
                        raise SystemExit(f"design {k}: verdict {status}, expected unique")
                    page_ms.append(float(page.get_attribute("#check-verdict", "data-ms")))
            wall = time.monotonic() - wall_start
            cpu = tree_cpu(server.pid) - cpu_start
            browser.close()
        # baselines: the same puzzles through the API (no browser, no debounce) and in-process (after one
        # solve that imports the engines, as the server's fork server did before the first request)
        solve(Puzzle(*clues_of(Grid.from_rows(designs[0]))), max_solutions=20)
        for pic in designs:
            puzzle = Puzzle(*clues_of(Grid.from_rows(pic)))
            body = json.dumps({"puzzle": to_obj(puzzle), "max_solutions": 20, "time_limit": 10}).encode()
            for _ in range(args.runs):
                req = urllib.request.Request(url + "api/solve", body, {"Content-Type": "application/json"})
                t = time.perf_counter()
                with urllib.request.urlopen(req, timeout=60) as resp:
                    assert json.loads(resp.read())["status"] == "unique"
                api_ms.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                assert solve(puzzle, max_solutions=20, time_limit=10).status.value == "unique"
                engine_ms.append((time.perf_counter() - t) * 1000)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
    load_after = os.getloadavg()

    def row(name: str, values: list[float]) -> str:
        q = statistics.quantiles(values, n=10, method="inclusive") if len(values) > 1 else values * 9
        return (f"| {name} | {len(values)} | {statistics.median(values):.0f} | {q[8]:.0f} | {max(values):.0f} |")

    table = [
        f"Measured {date.today().isoformat()} on {platform.machine()}, {os.cpu_count()} cores, "
        f"load average {load_before[0]:.1f} before and {load_after[0]:.1f} after (other work on the machine); "
        f"{len(designs)} line-solvable {args.size}x{args.size} designs (seed {args.seed}), {args.runs} edits each.",
        "",
        f"Command: `python benchmarks/bench_web.py --designs {args.designs} --runs {args.runs} --size {args.size}`",
        "",
        "| what | runs | median ms | 90th percentile ms | max ms |",
        "|---|---:|---:|---:|---:|",
        row("page: last edit to verdict shown (includes the 250 ms debounce)", page_ms),
        row("baseline: POST /api/solve round trip from Python", api_ms),
        row("baseline: nonocp.solve() in-process", engine_ms),
        "",
        f"CPU of the server and its workers during the {len(page_ms)} browser edits: {cpu:.2f} s over "
        f"{wall:.1f} s wall ({1000 * cpu / len(page_ms):.0f} ms per edit: the check's solve, rating and "
        "the worker processes' start and end).",
    ]
    text = "\n".join(table)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
