"""`nonocp serve` as a person runs it: it prints its address, answers, stops cleanly on Ctrl-C (even with a
solve running: its worker is killed, no process is left), warns when it listens beyond loopback, refuses a
port in use with exit 2, and a client that goes away has its solve killed. The web stack is imported only
by this command."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import PUZZLES  # noqa: E402

COMMAND = [sys.executable, "-m", "nonocp.cli", "serve"]


def start(*args: str, cwd: Path | None = None, env: dict | None = None,
          command: list[str] = COMMAND) -> tuple[subprocess.Popen, str, str]:
    proc = subprocess.Popen([*command, *args], stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                            cwd=cwd, env=env)
    lines = []
    while True:
        line = proc.stderr.readline()
        if not line:
            proc.wait(10)
            pytest.fail(f"nonocp serve ended before it served: {''.join(lines)}")
        lines.append(line)
        m = re.search(r"(http://\S+/) \(Ctrl-C stops it\)", line)
        if m:
            return proc, m.group(1), "".join(lines)


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in out:
                out.add(child)
                todo.append(child)
    return out


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purpose
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) != "Z"
    except OSError:
        return False


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=60) as r:
        return json.loads(r.read())


def post(url: str, body: dict, timeout: float = 60) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def permutations(n: int) -> dict:
    """n x n, one cell per row and column: n! solutions, so counting them to 100 keeps an engine busy."""
    line = [[[1, "1"]]] * n
    return {"rows": line, "columns": line}


@pytest.fixture
def short_tmp():
    """A folder with a short path: the server's fork server puts its socket in TMPDIR, and a socket's path
    stops at 107 bytes (pytest's tmp_path under a parallel run is longer)."""
    folder = tempfile.mkdtemp(prefix="nonocp-")
    yield Path(folder)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux /proc to find the server's processes")
def test_serve_answers_and_ctrl_c_stops_it_with_a_solve_running(short_tmp):
    tmp_path = short_tmp
    # the server runs in an empty folder with its own temporary folder: afterwards, nothing the user sent
    # may be found in either
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": os.pathsep.join(sys.path)}
    proc, url, _ = start("--port", "0", "--time-limit", "600", cwd=tmp_path, env=env)
    try:
        assert get(url + "api/info")["version"]
        heart = (PUZZLES / "heart.non").read_text().replace('title "Heart"', 'title "Secret-Marker-42"')
        assert post(url + "api/solve", {"text": heart})["status"] == "unique"
        upload = urllib.request.Request(url + "api/open?name=mine.non", heart.encode(),
                                        {"Content-Type": "application/octet-stream"})
        with urllib.request.urlopen(upload, timeout=30) as r:
            assert json.loads(r.read())["puzzles"][0]["title"] == "Secret-Marker-42"
        busy = threading.Thread(target=lambda: _ignore(post, url + "api/solve", {
            "puzzle": permutations(150), "engine": "native", "max_solutions": 100, "time_limit": 600}))
        busy.start()
        # waits for a state are long enough for a loaded machine; the solve's own limit (600 s) is far
        # beyond them, so only Ctrl-C can have ended it
        deadline = time.monotonic() + 120
        while get(url + "api/info")["workers"]["running"] < 1:
            assert time.monotonic() < deadline, "the solve never started"
            time.sleep(0.05)
        below = descendants(proc.pid)
        assert below, "the worker and the fork server should be running"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(120) == 0
        rest = proc.stderr.read()
        assert "stopped" in rest and "Traceback" not in rest
        end = time.monotonic() + 60
        while any(alive(p) for p in below) and time.monotonic() < end:
            time.sleep(0.05)
        assert not [p for p in below if alive(p)], "processes left after Ctrl-C"
        busy.join(10)
        kept = [p for p in tmp_path.rglob("*") if p.is_file() and b"Secret-Marker-42" in p.read_bytes()]
        assert not kept, f"the user's puzzle was written to disk: {kept}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _ignore(fn, *args):
    try:
        fn(*args)
    except OSError:
        pass  # the server went away mid-request: expected


def test_a_client_that_goes_away_has_its_solve_killed():
    proc, url, _ = start("--port", "0", "--time-limit", "600")
    try:
        host, port = re.match(r"http://([^:/]+):(\d+)/", url).groups()
        body = json.dumps({"puzzle": permutations(150), "engine": "native", "max_solutions": 100,
                           "time_limit": 600}).encode()
        sock = socket.create_connection((host, int(port)))
        sock.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        deadline = time.monotonic() + 120
        while get(url + "api/info")["workers"]["running"] < 1:
            assert time.monotonic() < deadline, "the solve never started"
            time.sleep(0.05)
        sock.close()  # the person closed the tab
        deadline = time.monotonic() + 120  # the solve's own limit is 600 s
        while get(url + "api/info")["workers"]["running"] > 0:
            assert time.monotonic() < deadline, "the solve kept running after its client went away"
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(15)


def test_serve_warns_when_listening_beyond_loopback():
    proc, url, said = start("--host", "0.0.0.0", "--port", "0")
    try:
        assert "warning" in said and "0.0.0.0" in said
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) == 0


def test_a_port_in_use_is_a_one_line_error_exit_2():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([*COMMAND, "--port", str(port)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "in use" in done.stderr and "Traceback" not in done.stderr


def test_other_commands_do_not_import_the_web_stack():
    code = ("import sys; from nonocp.cli.app import app; "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'nonocp.web') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


def test_serve_works_with_a_temporary_folder_too_long_for_a_socket(tmp_path):
    """A TMPDIR whose path leaves no room for a Unix socket's 107 bytes: the fork server's socket goes under
    /tmp and the server solves (it failed at start-up with a traceback)."""
    tmp = tmp_path / ("t" * max(1, 110 - len(str(tmp_path))))
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": os.pathsep.join(sys.path)}
    proc, url, _ = start("--port", "0", "--time-limit", "600", cwd=tmp_path, env=env)
    try:
        assert post(url + "api/solve", {"text": (PUZZLES / "heart.non").read_text()})["status"] == "unique"
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
