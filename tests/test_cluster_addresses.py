"""`--cluster` against what a user may type or point it at, through the real command: a malformed address,
a TCP endpoint that is not a Dask scheduler (silent, or answering something else), more local workers than
the machine has cores. Each is one line and exit 2, never a traceback or a hang; the cap on local workers
has an explicit override, and `local:2` under it still solves. Also CP-SAT's seed: any integer works, as
with the other engines."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading

import pytest

from conftest import PUZZLES

HEART = str(PUZZLES / "heart.non")
NONOCP = [sys.executable, "-m", "nonocp.cli"]


def nonocp(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*NONOCP, *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


def one_line_exit_2(r: subprocess.CompletedProcess, words: str) -> bool:
    return (r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and words in r.stderr
            and "Traceback" not in r.stderr)


@pytest.mark.parametrize("address", ["tcp://[::1", "local:2:3", "local:", "local:x", "tcp://host:99999",
                                     "http://host:1", "tcp://[zz]:1", "tcp://a b:1", "tcp://host:1/path", ":80"])
@pytest.mark.parametrize("command", ["bench", "check"])
def test_a_malformed_address_is_one_line(address, command):
    r = nonocp(command, HEART, "--cluster", address)
    assert one_line_exit_2(r, f"--cluster {address}:"), r.stderr


def endpoint(reply: bytes | None) -> int:
    """A TCP server on a free port that accepts and sends `reply` (None: nothing), then keeps the line open."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            conn, _ = server.accept()
            if reply:
                conn.sendall(reply)
            held.append(conn)

    threading.Thread(target=accept, daemon=True).start()
    return server.getsockname()[1]


def test_an_endpoint_that_answers_something_else_is_not_a_scheduler():
    port = endpoint(b"SSH-2.0-OpenSSH_9.6\r\n" + b"\xff" * 64)
    r = nonocp("bench", HEART, "--no-progress", "--cluster", f"tcp://127.0.0.1:{port}")
    assert one_line_exit_2(r, "did not answer as a Dask scheduler"), r.stderr
    assert "too large to hold in memory" not in r.stderr


def test_an_endpoint_that_stays_silent_is_given_up_on():
    # the command with its wait for a scheduler cut from 20 s to a fraction of a second (the constant
    # set in the process before it runs): given up on all the same, in one line
    port = endpoint(None)
    code = ("import sys; import nonocp.batch.cluster as cluster; cluster.CONNECT_SECONDS = 0.2\n"
            "from nonocp.cli import main\n"
            f"sys.argv = ['nonocp', 'check', {HEART!r}, '--cluster', 'tcp://127.0.0.1:{port}']\n"
            "main()\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert one_line_exit_2(r, "nothing there answered as a Dask scheduler within 0.2 s"), r.stderr


@pytest.mark.slow
def test_an_endpoint_that_stays_silent_is_given_up_on_within_the_shipped_wait():
    port = endpoint(None)
    r = nonocp("check", HEART, "--cluster", f"tcp://127.0.0.1:{port}")
    assert one_line_exit_2(r, "nothing there answered as a Dask scheduler within 20 s"), r.stderr


def test_local_workers_are_capped_with_an_explicit_override(tmp_path):
    r = nonocp("bench", HEART, "--no-progress", "--cluster", "local:2", env={"NONOCP_LOCAL_WORKERS": "1"})
    assert one_line_exit_2(r, "at most 1 local workers here"), r.stderr
    assert "NONOCP_LOCAL_WORKERS=2" in r.stderr
    cores = len(os.sched_getaffinity(0))
    r = nonocp("check", HEART, "--cluster", f"local:{max(2, cores) + 1}")
    assert one_line_exit_2(r, f"at most {max(2, cores)} local workers here"), r.stderr
    report = tmp_path / "r.json"
    r = nonocp("bench", HEART, "-b", "native", "--no-progress", "--cluster", "local:2", "--json", str(report),
               env={"NONOCP_LOCAL_WORKERS": "2"})
    assert r.returncode == 0, r.stderr
    assert [run["verdict"] for run in json.loads(report.read_text())["runs"]] == ["unique"]


def test_any_seed_works_with_cpsat_as_with_the_others():
    answers = set()
    for seed in ("0", "2147483648", str(2**64 + 5), "-7"):
        r = nonocp("solve", HEART, "-b", "cpsat", "--seed", seed, "-f", "json")
        assert r.returncode == 0 and "Traceback" not in r.stderr, (seed, r.stderr)
        doc = json.loads(r.stdout)
        answers.add((doc["status"], tuple(doc["solutions"][0])))
    assert len(answers) == 1 and next(iter(answers))[0] == "unique"
