"""The workbench's answer times in a real browser (Debian's Chromium driven by Playwright).

`--what design`: on a 30x30 design, the time from the last edit to the verdict shown on the page.
`--what hint`: in Play, on line-solvable 30x30 puzzles, the time from pressing Hint to the hint shown (the
page measures from the click handler to the frame after it drew the answer), following every hint to the
end of the puzzle; the first hint of a puzzle also finds its solutions, the others use the ones the
server kept. `--what paint`: the first paint of big puzzles opened from a link in a new page: the time
from the navigation's start to the frame after the board was drawn, in Solve (#p= link) and Play (#g=).

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

    python benchmarks/bench_web.py [--what design,hint,paint] [--designs 12] [--runs 3] [--size 30]
        [--hint-puzzles 8] [--paint-runs 7] [--out FILE]
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


def chromium_cpu() -> float:
    """CPU seconds of every Chromium process of this machine that is ours (with their ended children):
    how much work opening a page took, whatever the machine's load."""
    total = 0.0
    me = os.getuid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != me or "chrom" not in (entry / "comm").read_text():
                continue
            total += cpu_seconds(int(entry.name))
        except OSError:
            continue
    return total


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


def quantiles(values: list[float]) -> tuple[float, float, float, float]:
    """(median, 90th, 95th percentile, max)."""
    q = statistics.quantiles(values, n=20, method="inclusive") if len(values) > 1 else values * 19
    return statistics.median(values), q[17], q[18], max(values)


def open_link(page, puzzle: Puzzle, mode: str) -> None:
    """Open `puzzle` in the page (as a share link would) and wait for its board."""
    loads = page.evaluate("+(document.body.dataset.loads || 0)")
    page.evaluate("""async ([obj, mode]) => {
        const { encode } = await import('/static/js/share.js');
        await window.nonocp.openLink(await encode(obj), mode);
    }""", [to_obj(puzzle), mode])
    page.wait_for_function(f"() => +(document.body.dataset.loads || 0) > {loads}")


def bench_hints(page, puzzles: list[Puzzle], max_hints: int) -> tuple[list[float], list[float], int]:
    """(ms of each puzzle's first hint, ms of every later hint, puzzles finished)."""
    first: list[float] = []
    later: list[float] = []
    finished = 0
    for puzzle in puzzles:
        open_link(page, puzzle, "play")
        page.wait_for_selector("#panel-play:not([hidden])")
        for k in range(max_hints):
            before = page.evaluate("+(document.getElementById('play-info').dataset.answers || 0)")
            page.click("#play-hint")
            page.wait_for_function(f"() => +(document.getElementById('play-info').dataset.answers || 0) > {before}",
                                   timeout=60000)
            info = page.evaluate("""() => { const d = document.getElementById('play-info').dataset;
                return { ms: +d.ms, kind: d.hint, kept: d.kept === 'true' }; }""")
            if info["kind"] == "solved":
                finished += 1
                break
            if info["kind"] != "deduction":
                raise SystemExit(f"hint {k}: {info['kind']} on a line-solvable puzzle")
            (later if info["kept"] else first).append(info["ms"])
            page.evaluate("window.nonocp.modes.play.mark(window.nonocp.modes.play.state.hint.cells)")
    return first, later, finished


def bench_paint(browser, url: str, puzzles: list[tuple[str, Puzzle]], runs: int) -> list[tuple]:
    """Per puzzle and mode: (name, mode, ms from navigation start to the frame after the board, ms of the
    page's own drawing, Chromium's CPU ms for the whole page), each over `runs` new pages."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    out = []
    for name, puzzle in puzzles:
        links = page.evaluate("""async obj => {
            const { encode } = await import('/static/js/share.js');
            const { cellsToText } = await import('/static/js/progress.js');
            const empty = cellsToText(new Int8Array(obj.width * obj.height).fill(-1));
            return [await encode(obj), await encode(obj, false, { cells: empty, elapsed: 0 })];
        }""", to_obj(puzzle))
        for mode, fragment in zip(("solve", "play"), links, strict=True):
            painted, drawn, cpu = [], [], []
            for _ in range(runs):
                before = chromium_cpu()
                fresh = browser.new_page(viewport={"width": 1400, "height": 900})
                fresh.goto(url + fragment)
                fresh.wait_for_selector("body[data-loads]", timeout=60000)
                painted.append(float(fresh.get_attribute("body", "data-painted-at")))
                drawn.append(float(fresh.get_attribute("body", "data-draw-ms")))
                fresh.close()
                time.sleep(0.3)  # the page's renderer process ends and is reaped (its CPU time counted)
                cpu.append(1000 * (chromium_cpu() - before))
            out.append((name, mode, painted, drawn, cpu))
    page.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--what", default="design,hint,paint", help="comma-separated: design, hint, paint")
    ap.add_argument("--hint-puzzles", type=int, default=8, help="30x30 puzzles played with hints")
    ap.add_argument("--max-hints", type=int, default=400, help="hints per puzzle at most")
    ap.add_argument("--paint-runs", type=int, default=7, help="new pages per puzzle and mode")
    ap.add_argument("--designs", type=int, default=12)
    ap.add_argument("--runs", type=int, default=3, help="edits timed per design")
    ap.add_argument("--size", type=int, default=30)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=None, help="write the Markdown table here")
    args = ap.parse_args()
    wanted = {w.strip() for w in args.what.split(",") if w.strip()}
    unknown = wanted - {"design", "hint", "paint"}
    if unknown:
        sys.exit(f"bench_web: unknown --what {', '.join(sorted(unknown))}")

    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("bench_web: needs Debian's chromium (apt-get install -y chromium)")
    server = subprocess.Popen([sys.executable, "-m", "nonocp.cli", "serve", "--port", "0"],
                              stderr=subprocess.PIPE, text=True)
    url = None
    while url is None:
        line = server.stderr.readline()
        if not line:
            sys.exit("bench_web: the server did not start")
        m = re.search(r"(http://\S+/) \(Ctrl-C", line)
        url = m.group(1) if m else None
    sections: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            if "design" in wanted:
                sections.append(design_section(browser, url, server, args))
            if "hint" in wanted:
                sections.append(hint_section(browser, url, server, args))
            if "paint" in wanted:
                sections.append(paint_section(browser, url, args))
            browser.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
    text = "\n\n".join(sections)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


def measured(what: str) -> str:
    load = os.getloadavg()
    return (f"Measured {date.today().isoformat()} on {platform.machine()}, {os.cpu_count()} cores, load average "
            f"{load[0]:.1f} at the end (other work on the machine); {what}.")


def design_section(browser, url: str, server, args) -> str:
    designs = line_solvable_designs(args.designs, args.size, args.seed)
    print(f"{len(designs)} line-solvable {args.size}x{args.size} designs", file=sys.stderr)
    page_ms: list[float] = []
    api_ms: list[float] = []
    engine_ms: list[float] = []
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
    page.close()
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

    def row(name: str, values: list[float]) -> str:
        q = statistics.quantiles(values, n=10, method="inclusive") if len(values) > 1 else values * 9
        return (f"| {name} | {len(values)} | {statistics.median(values):.0f} | {q[8]:.0f} | {max(values):.0f} |")

    return "\n".join([
        measured(f"{len(designs)} line-solvable {args.size}x{args.size} designs (seed {args.seed}), "
                 f"{args.runs} edits each"),
        "",
        f"Command: `python benchmarks/bench_web.py --what design --designs {args.designs} --runs {args.runs} "
        f"--size {args.size}`",
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
    ])


def hint_section(browser, url: str, server, args) -> str:
    designs = line_solvable_designs(args.hint_puzzles, args.size, args.seed + 1)
    puzzles = [Puzzle(*clues_of(Grid.from_rows(pic))) for pic in designs]
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    cpu_start = tree_cpu(server.pid)
    wall_start = time.monotonic()
    first, later, finished = bench_hints(page, puzzles, args.max_hints)
    wall = time.monotonic() - wall_start
    cpu = tree_cpu(server.pid) - cpu_start
    page.close()
    n = len(first) + len(later)

    def row(name: str, values: list[float]) -> str:
        med, p90, p95, most = quantiles(values)
        return f"| {name} | {len(values)} | {med:.0f} | {p90:.0f} | {p95:.0f} | {most:.0f} |"

    return "\n".join([
        measured(f"{len(puzzles)} line-solvable {args.size}x{args.size} puzzles (seed {args.seed + 1}), "
                 f"every hint followed to the end ({finished} of them finished)"),
        "",
        f"Command: `python benchmarks/bench_web.py --what hint --hint-puzzles {args.hint_puzzles} --size {args.size}`",
        "",
        "| Hint pressed to hint shown | hints | median ms | 90th percentile ms | 95th percentile ms | max ms |",
        "|---|---:|---:|---:|---:|---:|",
        row("every hint", first + later),
        row("a puzzle's first hint (the worker also finds its solutions)", first),
        row("the later hints (solutions kept by the server)", later),
        "",
        f"CPU of the server and its workers during the {n} hints: {cpu:.2f} s over {wall:.1f} s wall "
        f"({1000 * cpu / max(1, n):.0f} ms per hint).",
    ])


def paint_section(browser, url: str, args) -> str:
    from nonocp import load

    corpus = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "webpbn-survey"
    puzzles = []
    for name, path in (("99x59 (webpbn #22336)", corpus / "restricted" / "webpbn-22336-November 19, 1863.txt"),
                       ("80x95 (Faase)", corpus / "free" / "webpbn-faase.txt")):
        if path.exists():
            puzzles.append((name, load(str(path))[0]))
        else:
            print(f"bench_web: {path} is absent: skipped", file=sys.stderr)
    rng = random.Random(args.seed)
    grid = Grid.from_rows([[1 if rng.random() < 0.5 else 0 for _ in range(99)] for _ in range(59)])
    puzzles.append(("99x59 random noise (long clues)", Puzzle(*clues_of(grid))))
    results = bench_paint(browser, url, puzzles, args.paint_runs)
    lines = [
        measured(f"each puzzle opened {args.paint_runs} times from its link in a new page (1400x900)"),
        "",
        f"Command: `python benchmarks/bench_web.py --what paint --paint-runs {args.paint_runs}`",
        "",
        "| puzzle | mode | first paint: median ms | max ms | the page's drawing: median ms | "
        "Chromium CPU for the page: median ms |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name, mode, painted, drawn, cpu in results:
        lines.append(f"| {name} | {mode} | {statistics.median(painted):.0f} | {max(painted):.0f} | "
                     f"{statistics.median(drawn):.0f} | {statistics.median(cpu):.0f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
