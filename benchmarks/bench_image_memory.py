"""Peak memory of reading pictures: `nonocp design` on small files that are big decoded, and two of them
imported at once through `nonocp serve`.

    python benchmarks/bench_image_memory.py [--runs 3] [--baseline-src DIR] [--out FILE]

The pictures: a 7000x7000 1-bit PNG (a disc and a bar: 30 KB on disk, 49 million pixels) and a 20000x2000
1-bit PNG (8 KB). `design` runs in a process of its own; its peak resident size is read by a parent that
runs nothing else (RUSAGE_CHILDREN), with its CPU seconds; median of `--runs`. The server: two uploads of
the 7000x7000 PNG to /api/design/import at once, the server's process tree (server, fork server, the two
workers) sampled every 5 ms while they run: the peak of its summed PSS (shared pages split between the
processes that share them) and of its summed private memory. `--baseline-src DIR` runs everything again
from another source tree (`git archive <commit> src | tar -x -C DIR`), in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
from procs import tree  # noqa: E402

MIB = 1024 * 1024
PEAK = ("import resource, subprocess, sys, time; t = time.monotonic(); "
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
        "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(r.returncode, u.ru_maxrss * 1024, u.ru_utime + u.ru_stime, time.monotonic() - t)")


def pictures(folder: Path) -> dict[str, Path]:
    from PIL import Image, ImageDraw

    big = Image.new("1", (7000, 7000), 1)
    draw = ImageDraw.Draw(big)
    draw.ellipse((1000, 1000, 6000, 6000), fill=0)
    draw.rectangle((3000, 200, 4000, 6800), fill=1)
    big.save(folder / "7000x7000.png", optimize=True)
    wide = Image.new("1", (20000, 2000), 1)
    ImageDraw.Draw(wide).rectangle((5000, 500, 15000, 1500), fill=0)
    wide.save(folder / "20000x2000.png", optimize=True)
    return {"7000x7000 1-bit PNG": folder / "7000x7000.png", "20000x2000 1-bit PNG": folder / "20000x2000.png"}


def env_for(src: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    return env


def design(path: Path, src: str | None) -> tuple[int, int, float, float]:
    out = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "nonocp.cli", "design", str(path),
                          "-f", "json"], capture_output=True, text=True, timeout=900, env=env_for(src))
    code, peak, cpu, wall = out.stdout.split()
    return int(code), int(peak), float(cpu), float(wall)


def smaps(pid: int) -> tuple[int, int]:
    pss = private = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                key, value = line.split(":", 1)
                if key == "Pss":
                    pss += int(value.split()[0]) * 1024
                elif key in ("Private_Clean", "Private_Dirty"):
                    private += int(value.split()[0]) * 1024
    except OSError:
        pass
    return pss, private


def two_imports(path: Path, src: str | None) -> tuple[int, int, list[str]]:
    proc = subprocess.Popen([sys.executable, "-m", "nonocp.cli", "serve", "--port", "0"], env=env_for(src),
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        while True:
            line = proc.stderr.readline()
            m = re.search(r"(http://\S+/) \(Ctrl-C stops it\)", line)
            if m:
                url = m.group(1)
                break
            if not line:
                raise SystemExit("nonocp serve ended before it served")
        time.sleep(1.0)
        data = path.read_bytes()
        answers: list[str] = []

        def upload() -> None:
            req = urllib.request.Request(url + "api/design/import?name=big.png&width=30", data,
                                         {"Content-Type": "application/octet-stream"})
            try:
                with urllib.request.urlopen(req, timeout=600) as r:
                    answers.append(json.loads(r.read())["report"])
            except OSError as e:
                answers.append(f"error {e}")

        threads = [threading.Thread(target=upload) for _ in range(2)]
        for t in threads:
            t.start()
        peak_pss = peak_private = 0
        while any(t.is_alive() for t in threads):
            sizes = [smaps(p) for p in tree(proc.pid)]
            peak_pss = max(peak_pss, sum(s[0] for s in sizes))
            peak_private = max(peak_private, sum(s[1] for s in sizes))
            time.sleep(0.005)
        return peak_pss, peak_private, answers
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--baseline-src", default=None)
    ap.add_argument("--out", default=None, help="append the Markdown section here")
    args = ap.parse_args()
    trees: dict[str, str | None] = {"this tree": None}
    if args.baseline_src:
        trees[f"baseline ({args.baseline_src})"] = args.baseline_src
    load = os.getloadavg()[0]
    lines = ["| tree | picture | command | peak MiB (median) | CPU s (median) | wall s (median) | exit |",
             "|---|---|---|---:|---:|---:|---:|"]
    serve_lines = []
    with tempfile.TemporaryDirectory() as tmp:
        pics = pictures(Path(tmp))
        for name, src in trees.items():
            for what, path in pics.items():
                runs = [design(path, src) for _ in range(args.runs)]
                peak, cpu, wall = (statistics.median(r[i] for r in runs) for i in (1, 2, 3))
                lines.append(f"| {name} | {what} ({path.stat().st_size // 1024} KB) | `design` | {peak / MIB:.0f} | "
                             f"{cpu:.2f} | {wall:.1f} | {sorted({r[0] for r in runs})} |")
            pss, private, answers = two_imports(pics["7000x7000 1-bit PNG"], src)
            serve_lines.append(f"- {name}: two imports of the 7000x7000 PNG at once: server tree peak "
                               f"{pss / MIB:.0f} MiB PSS, {private / MIB:.0f} MiB private; answers: {answers}")
    text = (f"Measured {date.today()} on {os.cpu_count()} cores, load average {load:.1f} at the start and "
            f"{os.getloadavg()[0]:.1f} at the end; `python benchmarks/bench_image_memory.py --runs {args.runs}"
            f"{' --baseline-src ' + args.baseline_src if args.baseline_src else ''}`.\n\n"
            + "\n".join(lines) + "\n\n" + "\n".join(serve_lines) + "\n")
    print(text)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write("\n" + text)


if __name__ == "__main__":
    main()
