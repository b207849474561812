"""The worker processes behind `nonocp serve`'s API (nonocp.web.workers), through the test client with jobs
swapped for ones that misbehave: a hung job killed at its limit while the server keeps answering, the
concurrency limit, a newer request on a channel replacing the older one, a crash answered 500, a job over
its memory limit failing alone.
"""

from __future__ import annotations

import threading
import time

import nonocp.web.api as web_api  # noqa: E402
import procs  # noqa: E402
from conftest import PUZZLES  # noqa: E402
from nonocp.web import Limits  # noqa: E402
from test_web_api import client_for, error_of  # noqa: E402


# Jobs the tests put in place of the real ones. They run in the worker processes, which import them from
# this module by name (the tests folder is on sys.path when the fork server starts).
def hang(*args):
    time.sleep(3600)


def boom(*args):
    raise ZeroDivisionError("a bug in a job")


def spin(*args):
    while True:
        pass


def _in_thread(fn):
    box = {}

    def run():
        box["value"] = fn()

    t = threading.Thread(target=run)
    t.start()
    return t, box


def _joined(thread: threading.Thread) -> None:
    """Wait for a request's thread as long as a loaded machine may need; a hang still fails, in minutes."""
    thread.join(300)
    assert not thread.is_alive(), "the request never got an answer"


def _wait_for(predicate, seconds=120.0):
    """Wait for a state, as long as a loaded machine may need (it returns as soon as the state is there)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def test_a_hung_solve_is_killed_and_the_server_answers_meanwhile():
    heart = (PUZZLES / "heart.non").read_text()
    with client_for(jobs={"backbone": hang}) as c:
        workers = c.app.state.workers
        t, box = _in_thread(lambda: c.post("/api/backbone", json={"text": heart, "time_limit": 1.0}))
        assert _wait_for(lambda: workers.running == 1)
        pids = [p.pid for p in workers._procs]
        # while the hung job runs: other requests are answered, a real solve included
        assert c.get("/api/info").json()["workers"]["running"] == 1
        assert c.post("/api/solve", json={"text": heart}).json()["status"] == "unique"
        _joined(t)
        answer = box["value"].json()
        assert answer["killed"] and answer["status"] == "timeout"
        assert workers.running == 0
        for pid in pids:
            assert _wait_for(lambda pid=pid: not procs.alive(pid), 5), f"worker {pid} still alive"


def test_past_the_concurrency_limit_requests_are_refused_not_queued_for_ever():
    limits = Limits(max_running=1, max_waiting=1, max_time_limit=5.0, default_time_limit=5.0, kill_grace=0.1)
    with client_for(jobs={"solve": hang}, limits=limits) as c:
        body = {"text": (PUZZLES / "dot.non").read_text(), "time_limit": 1.0}
        first, _ = _in_thread(lambda: c.post("/api/solve", json=body))
        second, _ = _in_thread(lambda: c.post("/api/solve", json=body))
        assert _wait_for(lambda: c.app.state.workers._pending == 2)
        assert "busy" in error_of(c.post("/api/solve", json=body), 429)
        _joined(first)
        _joined(second)


def test_a_newer_request_on_a_channel_replaces_the_older():
    # the first request's limit is far away: only the newer request can end it (a 409, where its own
    # limit would have answered 200 with "killed")
    with client_for(jobs={"solve": hang}) as c:
        body = {"text": (PUZZLES / "dot.non").read_text(), "time_limit": 600.0, "channel": "tab/design"}
        t, box = _in_thread(lambda: c.post("/api/solve", json=body))
        assert _wait_for(lambda: c.app.state.workers.running == 1)
        t2, box2 = _in_thread(lambda: c.post("/api/solve", json=dict(body, time_limit=0.2)))
        _joined(t)
        assert "newer request" in error_of(box["value"], 409)
        _joined(t2)
        assert box2["value"].json()["killed"]


def test_a_job_that_crashes_is_a_500_with_a_message_not_a_traceback():
    with client_for(jobs={"rate": boom}) as c:
        message = error_of(c.post("/api/rate", json={"text": (PUZZLES / "dot.non").read_text()}), 500)
        assert "ZeroDivisionError" in message




def grab_memory(*args):
    blocks = []
    while True:
        blocks.append(bytearray(64 * 1024 * 1024))


def test_a_job_that_needs_too_much_memory_fails_alone_with_a_message():
    limits = Limits(max_time_limit=600.0, default_time_limit=600.0, kill_grace=0.3, worker_memory=512 * 1024**2)
    with client_for(jobs={"rate": grab_memory}, limits=limits) as c:
        message = error_of(c.post("/api/rate", json={"text": (PUZZLES / "dot.non").read_text()}), 422)
        assert "memory" in message and "0.5 GiB" in message
        assert c.post("/api/solve", json={"text": (PUZZLES / "heart.non").read_text()}).json()["status"] == "unique"


def test_reading_a_request_is_bounded_by_cpu_seconds_not_by_the_clock(monkeypatch):
    """A body whose reading never ends is refused after read_cpu_seconds of CPU (work done, whatever the
    machine's load), and the server answers meanwhile."""
    limits = Limits(max_time_limit=5.0, default_time_limit=5.0, kill_grace=0.3, read_cpu_seconds=1)
    # the wall-clock net behind the CPU budget (READ_WALL_FACTOR x the budget) moved far away: a niced
    # worker beside busy cores may take more than 10 s to use 1 s of CPU, and only the budget may end it
    monkeypatch.setattr(web_api, "READ_WALL_FACTOR", 600)
    with client_for(jobs={"read": spin}, limits=limits) as c:
        t, box = _in_thread(lambda: c.post("/api/solve", json={"text": (PUZZLES / "dot.non").read_text()}))
        assert _wait_for(lambda: c.app.state.workers.running == 1)
        assert c.get("/api/info").status_code == 200
        _joined(t)
        assert "more than its 1 s of CPU time" in error_of(box["value"], 413)
        assert c.app.state.workers.running == 0
