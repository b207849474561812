"""The event loop and HTTP parser `nonocp serve` runs on: uvloop and httptools (C, dependencies) when they can be
imported, and a clean fallback to asyncio and h11 when they cannot. Under uvloop a worker's answer of
megabytes comes back whole (uvloop leaves the pipe it watched non-blocking, and reading it in pieces then
failed: 500), through real HTTP to the running command. And the loop never waits for a worker process to
end (at nice 10 on a busy machine that can take long): checked by order, not by the clock."""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from test_web_api import client_for
from test_web_serve import start  # noqa: E402

# put first on PYTHONPATH: a Python where uvloop and httptools cannot be imported (as where they are not installed)
WITHOUT_C_IO = "import sys\nsys.modules['uvloop'] = sys.modules['httptools'] = None\n"


def mapped(pid: int) -> set[str]:
    """The top-level packages whose compiled modules the process has loaded."""
    with open(f"/proc/{pid}/maps", encoding="utf-8", errors="replace") as f:
        paths = {line.split()[-1] for line in f if "site-packages/" in line}
    return {p.split("site-packages/", 1)[1].split("/", 1)[0] for p in paths}


def random_puzzle(n: int, seed: int) -> dict:
    rng = random.Random(seed)
    cells = [[rng.randint(0, 1) for _ in range(n)] for _ in range(n)]

    def runs(line: list[int]) -> list[list]:
        out, k = [], 0
        for v in [*line, 0]:
            if v:
                k += 1
            elif k:
                out.append([k, "1"])
                k = 0
        return out

    return {"rows": [runs(r) for r in cells], "columns": [runs([r[c] for r in cells]) for c in range(n)]}


def export_svg(url: str, puzzle: dict) -> tuple[int, bytes]:
    body = json.dumps({"puzzle": puzzle, "format": "svg"}).encode()
    req = urllib.request.Request(url + "api/export", body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def stop(proc) -> None:
    proc.terminate()
    proc.wait(15)


def test_serve_runs_on_uvloop_and_httptools_and_answers_megabytes_through_the_worker_pipe():
    proc, url, _ = start("--port", "0")
    try:
        assert {"uvloop", "httptools"} <= mapped(proc.pid)
        puzzle = random_puzzle(150, 3)
        answers = [export_svg(url, puzzle) for _ in range(3)]  # each about 3 MB, read from a 64 KB pipe
    finally:
        stop(proc)
    for status, svg in answers:
        assert status == 200, svg[:200]
        assert len(svg) > 1_000_000 and svg.rstrip().endswith(b"</svg>")
    assert len({svg for _, svg in answers}) == 1


def test_serve_falls_back_to_asyncio_and_h11_when_they_cannot_be_imported(tmp_path):
    (tmp_path / "sitecustomize.py").write_text(WITHOUT_C_IO)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    proc, url, _ = start("--port", "0", env=env)
    try:
        assert not {"uvloop", "httptools"} & mapped(proc.pid)
        status, svg = export_svg(url, random_puzzle(150, 3))
        with urllib.request.urlopen(url + "api/info", timeout=30) as r:
            info = json.loads(r.read())
    finally:
        stop(proc)
    assert status == 200 and svg.rstrip().endswith(b"</svg>")
    assert info["version"]



def state(pid: int) -> str:
    """The process's state letter (T: stopped)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def answer_and_stop_the_fork_server(puzzle, *args):
    """A solve job (it runs in a worker) that answers at once but whose end cannot be reported: it stops the
    fork server (its parent, which reaps it) after writing its pid to the file named by the puzzle's title."""
    Path(puzzle.title).write_text(str(os.getppid()))
    os.kill(os.getppid(), signal.SIGSTOP)
    return b'{"status":"unique"}'


def test_the_loop_does_not_wait_for_a_worker_to_end_after_its_answer(tmp_path):
    marker = tmp_path / "fork-server"
    text = f'title "{marker}"\nwidth 1\nheight 1\n\nrows\n1\n\ncolumns\n1\n'
    box = {}
    fork_server = None
    with client_for(jobs={"solve": answer_and_stop_the_fork_server}) as c:
        t = threading.Thread(target=lambda: box.update(answer=c.post("/api/solve", json={"text": text})))
        t.start()
        try:
            while fork_server is None or state(fork_server) != "T":
                time.sleep(0.02)
                fork_server = int(marker.read_text()) if marker.exists() and marker.read_text() else None
            time.sleep(0.3)  # the answer is on its way meanwhile (not a limit: the order below is the check)
            # the worker has answered and its end is not reported yet: /api/info is served meanwhile and counts
            # it running (when the loop waited for the end, /api/info came 5 s later, with no worker left)
            info = c.get("/api/info").json()
        finally:
            if fork_server is not None:
                os.kill(fork_server, signal.SIGCONT)
        t.join(30)
    assert info["workers"]["running"] == 1
    assert box["answer"].json() == {"status": "unique"}


def slice_of(tid: int) -> int:
    """The thread's time slice in nanoseconds (sched_getattr's sched_runtime), x86_64 Linux."""
    import ctypes
    import struct

    buf = ctypes.create_string_buffer(56)
    if ctypes.CDLL(None, use_errno=True).syscall(315, tid, buf, 56, 0) != 0:
        pytest.skip("no sched_getattr here")
    return struct.unpack("IIQiIQQQ", buf.raw[:48])[5]


def test_the_event_loop_thread_asks_for_a_short_time_slice_and_nothing_else_does():
    import platform

    release = tuple(int(x) for x in platform.release().split(".")[:2] if x.isdigit())
    if platform.machine() != "x86_64" or release < (6, 12):
        pytest.skip("custom time slices are Linux 6.12+ (checked here on x86_64)")
    from nonocp.web.server import SHORT_SLICE_NS

    proc, url, _ = start("--port", "0")
    try:
        urllib.request.urlopen(url + "api/info", timeout=30).read()
        loop_slice = slice_of(proc.pid)  # the main thread runs the loop
        others = [slice_of(int(t)) for t in os.listdir(f"/proc/{proc.pid}/task") if int(t) != proc.pid]
    finally:
        stop(proc)
    assert loop_slice == SHORT_SLICE_NS
    assert others and SHORT_SLICE_NS not in others
