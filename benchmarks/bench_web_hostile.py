"""`nonocp serve` under hostile load: /api/info latency while 50 hostile clients keep sending.

The question: does one request stall the others? A server that parsed bodies on its one event loop would
let a 2 MB body of a million clues hold every other request for seconds. Here 50 clients run at
once, each sending one kind of hostile request over and over for `--seconds`:

- 10 send a 2 MB `.non` body whose one row has a million clues to /api/open;
- 20 send a 61 KB JSON solve of a random 200x200 grid to /api/solve (most are refused 429: the workers
  are full, which is the point: a refusal must cost nothing);
- 10 send a text/plain solve as a page on another site would (`fetch(..., {mode: "no-cors"})`);
- 5 send a body one byte every 50 ms (a slow client);
- 5 upload a 30 KB PNG of 7000x7000 1-bit pixels to /api/design/import.

The flood runs in a process of its own (its threads must not take the probe's interpreter lock), at nice
10 (its Python HTTP clients cost far more CPU than a browser tab sending the same requests); the probe, in
this process, asks GET /api/info on a new connection every 50 ms and times the answer. Reported:
the probe's latency quantiles, the answers the flood got by status, the server's CPU (its process and
its workers, from /proc; and the server process alone, its event loop, per request), and the load
average. `--server-src DIR` runs the server from another source tree too (a baseline:
`git archive <commit> src | tar -x -C DIR`); `--plain-io` runs this tree once more on asyncio's event loop
and h11's parser (uvloop and httptools hidden, as where they are not installed), and the baseline on them
too (as it was installed before they were dependencies). `--background N` keeps N processes spinning in a
session of their own beside each run (other people's work on the machine, scheduled apart from the server:
a load of N more, the same for every server compared).

    python benchmarks/bench_web_hostile.py [--seconds 30] [--server-src DIR] [--plain-io] [--background N]
                                           [--out FILE]
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
import urllib.error
import urllib.request
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
from procs import tree  # noqa: E402

FLOOD = r'''
import collections, json, random, socket, sys, threading, time, urllib.error, urllib.request
url, seconds, png_path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
host, port = url.split("//", 1)[1].rstrip("/").rsplit(":", 1)
png = open(png_path, "rb").read()
wide = ("width 5\nheight 1\n\nrows\n" + ",".join(["1"] * 999_000) + "\n\ncolumns\n1\n1\n1\n1\n1\n").encode()
rng = random.Random(7)
cells = [[rng.randint(0, 1) for _ in range(200)] for _ in range(200)]
def runs(line):
    out, n = [], 0
    for v in line + [0]:
        if v: n += 1
        elif n: out.append(n); n = 0
    return [[k, "1"] for k in out]
big = json.dumps({"puzzle": {"rows": [runs(r) for r in cells], "columns": [runs([r[c] for r in cells])
                  for c in range(200)]}, "engine": "auto", "time_limit": 10}).encode()
statuses = collections.Counter()
end = time.monotonic() + seconds
def post(path, body, ctype, extra=None):
    req = urllib.request.Request(url + path, body, {"Content-Type": ctype, **(extra or {})})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            r.read(); return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError as e:
        return type(getattr(e, "reason", e)).__name__
def slow():
    try:
        s = socket.create_connection((host, int(port)), timeout=120)
        body = big[:2000]
        s.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode())
        for i in range(0, len(body), 1):
            if time.monotonic() > end: break
            s.sendall(body[i:i + 1]); time.sleep(0.05)
        s.close(); return "slow"
    except OSError:
        return "error"
kinds = ([("2 MB open", lambda: post("api/open?name=wide.non", wide, "application/octet-stream"))] * 10
         + [("61 KB solve", lambda: post("api/solve", big, "application/json"))] * 20
         + [("foreign", lambda: post("api/solve", big, "text/plain;charset=UTF-8",
                                     {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}))] * 10
         + [("slow body", slow)] * 5
         + [("picture", lambda: post("api/design/import?name=big.png", png, "application/octet-stream"))] * 5)
lock = threading.Lock()
def client(name, kind):
    while time.monotonic() < end:
        got = kind()
        with lock:
            statuses[f"{name} {got}"] += 1
threads = [threading.Thread(target=client, args=k) for k in kinds]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps(dict(statuses)))
'''


def big_png(path: Path) -> None:
    from PIL import Image, ImageDraw

    img = Image.new("1", (7000, 7000), 1)
    ImageDraw.Draw(img).ellipse((1000, 1000, 6000, 6000), fill=0)
    img.save(path, optimize=True)


# a sitecustomize.py that hides uvloop and httptools from the server (uvicorn then takes asyncio and h11)
PLAIN_IO = "import sys\nsys.modules['uvloop'] = sys.modules['httptools'] = None\n"


def start_server(src: str | None, plain_io: str | None = None) -> tuple[subprocess.Popen, str]:
    """The server from `src` (else this tree), with `plain_io` (a folder holding PLAIN_IO) first on its path."""
    env = dict(os.environ)
    path = [p for p in (plain_io, src) if p]
    if path:
        env["PYTHONPATH"] = os.pathsep.join(path)
    proc = subprocess.Popen([sys.executable, "-m", "nonocp.cli", "serve", "--port", "0"], env=env,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    while True:
        line = proc.stderr.readline()
        if not line:
            raise SystemExit("nonocp serve ended before it served")
        m = re.search(r"(http://\S+/) \(Ctrl-C stops it\)", line)
        if m:
            threading.Thread(target=proc.stderr.read, daemon=True).start()  # keep its log flowing
            return proc, m.group(1)


def tree_cpu(pid: int) -> float:
    """CPU seconds of `pid` and its live descendants, with what each has collected from children that
    ended (the workers, collected by the fork server)."""
    total = 0
    for p in tree(pid):
        try:
            with open(f"/proc/{p}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15])
        except (OSError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def own_cpu(pid: int) -> float:
    """CPU seconds of the server process itself (its event loop and its threads), without its workers."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def probe(url: str, seconds: float, every: float = 0.05) -> list[float]:
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.perf_counter()
        try:
            with urllib.request.urlopen(url + "api/info", timeout=60) as r:
                r.read()
            times.append((time.perf_counter() - t) * 1000)
        except OSError:
            times.append(float("inf"))
        time.sleep(max(0.0, every - (time.perf_counter() - t)))
    return times


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(src: str | None, seconds: float, png: Path, plain_io: str | None = None, background: int = 0) -> dict:
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
                for _ in range(background)]
    proc, url = start_server(src, plain_io)
    try:
        time.sleep(1.0)
        quiet = probe(url, 3.0)
        cpu0, own0 = tree_cpu(proc.pid), own_cpu(proc.pid)
        load0 = os.getloadavg()[0]
        flood = subprocess.Popen([sys.executable, "-c", FLOOD, url, str(seconds), str(png)],
                                 stdout=subprocess.PIPE, text=True, preexec_fn=lambda: os.nice(10))
        time.sleep(1.0)  # the flood under way
        loaded = probe(url, seconds - 1.0)
        out, _ = flood.communicate(timeout=600)
        cpu, own = tree_cpu(proc.pid) - cpu0, own_cpu(proc.pid) - own0
        return {"quiet": quiet, "loaded": loaded, "statuses": json.loads(out.strip().splitlines()[-1]),
                "cpu": cpu, "own": own, "load": (load0, os.getloadavg()[0]), "alive": proc.poll() is None}
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


def row(name: str, times: list[float]) -> str:
    finite = [t for t in times if t != float("inf")]
    lost = len(times) - len(finite)
    return (f"| {name} | {len(times)} | {statistics.median(finite):.1f} | {quantile(finite, 0.9):.1f} | "
            f"{quantile(finite, 0.99):.1f} | {max(finite):.1f} | {lost} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--server-src", default=None, help="run the server from this source tree (a baseline)")
    ap.add_argument("--plain-io", action="store_true",
                    help="also run this tree, and run the baseline, on asyncio and h11 (uvloop, httptools hidden)")
    ap.add_argument("--background", type=int, default=0, metavar="N",
                    help="N processes spinning in a session of their own beside each run")
    ap.add_argument("--out", default=None, help="append the Markdown section here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        png = Path(tmp) / "big.png"
        big_png(png)
        plain = Path(tmp) / "plain-io"
        plain.mkdir()
        (plain / "sitecustomize.py").write_text(PLAIN_IO)
        plain_io = str(plain) if args.plain_io else None
        n = args.background
        results = {"this tree": run(None, args.seconds, png, None, n)}
        if args.plain_io:
            results["this tree, asyncio + h11"] = run(None, args.seconds, png, plain_io, n)
        if args.server_src:
            io = ", asyncio + h11" if args.plain_io else ""
            results[f"baseline ({args.server_src}){io}"] = run(args.server_src, args.seconds, png, plain_io, n)
    lines = [f"Measured {date.today()} on {os.cpu_count()} cores; `python benchmarks/bench_web_hostile.py "
             f"--seconds {args.seconds:g}{' --server-src ' + args.server_src if args.server_src else ''}"
             f"{' --plain-io' if args.plain_io else ''}{f' --background {n}' if n else ''}`.", "",
             "| server, probe | probes | median ms | 90th pct ms | 99th pct ms | max ms | no answer |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, r in results.items():
        lines.append(row(f"{name}: quiet", r["quiet"]))
        lines.append(row(f"{name}: 50 hostile clients", r["loaded"]))
    lines.append("")
    for name, r in results.items():
        answered = ", ".join(f"{k}: {v}" for k, v in sorted(r["statuses"].items()))
        requests = sum(r["statuses"].values()) + len(r["loaded"])
        lines.append(f"- {name}: the flood's answers by status {answered}; server and workers "
                     f"{r['cpu']:.1f} CPU s, the server process alone {r['own']:.1f} "
                     f"({r['own'] / requests * 1e6:.0f} µs a request); "
                     f"load average {r['load'][0]:.1f} before, {r['load'][1]:.1f} after; "
                     f"server {'still serving' if r['alive'] else 'DIED'}.")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write("\n" + text)


if __name__ == "__main__":
    main()
