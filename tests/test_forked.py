"""nonocp.engines.forked: a function run in a forked child answers, streams messages, raises, or is killed at its
deadline and reaped.

A broken kill would make these tests wait for ever, so each one runs under an alarm that fails it after
two minutes instead (a guard against hanging CI, not a speed limit: a working kill takes milliseconds).
"""

from __future__ import annotations

import faulthandler
import os
import signal
import time

import pytest

from nonocp.core.errors import NonocpError, ParseError
from nonocp.engines.forked import ChildCrashed, ChildFailed, call_in_child, fork_available, race_in_children

pytestmark = pytest.mark.skipif(not fork_available(), reason="no os.fork on this platform")


@pytest.fixture(autouse=True)
def hang_guard():
    def fail(signum, frame):
        raise AssertionError("call_in_child did not return: the child was not killed")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_returns_the_value_and_delivers_messages_in_order():
    got = []

    def fn(send):
        for i in range(500):
            send(("n", i, "x" * i))  # frames of many sizes, several per pipe read
        return {"pid": os.getpid(), "big": b"y" * 3_000_000}  # larger than one read of the pipe

    finished, value = call_in_child(fn, None, got.append)
    assert finished
    assert got == [("n", i, "x" * i) for i in range(500)]
    assert value["big"] == b"y" * 3_000_000
    assert value["pid"] != os.getpid() and _gone(value["pid"])


def test_a_child_still_running_at_the_deadline_is_killed_keeping_earlier_messages(stuck_clock):
    got = []
    clock = stuck_clock()  # the deadline passes once the child is stuck and its messages are read

    def fn(send):
        send(os.getpid())
        send("before the loop")
        clock.stuck()
        while True:  # a solver that never checks the clock (asleep: spinning would take a CI core)
            time.sleep(1)

    finished, value = call_in_child(fn, time.monotonic() + 10, got.append)
    assert clock.jumped
    assert (finished, value) == (False, None)
    assert got[1:] == ["before the loop"]
    assert _gone(got[0])  # killed and reaped: no zombie left behind


def test_exceptions_come_back_as_themselves_or_with_their_message():
    def raises(exc):
        def fn(send):
            raise exc

        return fn

    with pytest.raises(ValueError, match="bad value"):
        call_in_child(raises(ValueError("bad value")), None)
    # ParseError's constructor takes three arguments, so it does not survive pickling: the message does
    with pytest.raises(NonocpError, match=r"p\.non:3: no clue"):
        call_in_child(raises(ParseError("p.non", 3, "no clue")), None)

    class Local(Exception):  # not picklable: defined inside a function
        pass

    with pytest.raises(ChildFailed, match="Local: from the child"):
        call_in_child(raises(Local("from the child")), None)


def test_a_child_that_dies_is_an_error_not_a_hang():
    def fn(send):
        faulthandler.disable()  # pytest's would print the child's stack on the abort
        os.kill(os.getpid(), signal.SIGABRT)  # what Kissat does on a clause added after a solve

    with pytest.raises(ChildCrashed, match="SIGABRT"):
        call_in_child(fn, None)

    with pytest.raises(ChildCrashed, match="exit code 7"):
        call_in_child(lambda send: os._exit(7), None)


def test_ctrl_c_in_the_caller_kills_the_child():
    got = []

    def fn(send):
        send(os.getpid())
        while True:
            pass

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGUSR1, interrupt)
    try:
        # a message arrives first, then Ctrl-C (SIGUSR1 standing in for SIGINT, which pytest handles itself)
        def on_message(pid):
            got.append(pid)
            os.kill(os.getpid(), signal.SIGUSR1)

        with pytest.raises(KeyboardInterrupt):
            call_in_child(fn, None, on_message)
    finally:
        signal.signal(signal.SIGUSR1, old)
    assert _gone(got[0])


def test_a_terminal_ctrl_c_reaches_the_caller_only():
    """Ctrl-C in a terminal signals the whole foreground process group; the child is outside it (pysat's solve
    would catch the signal and CaDiCaL abort with a message of its own)."""
    finished, (pid, group) = call_in_child(lambda send: (os.getpid(), os.getpgrp()), None)
    assert finished and group == pid and group != os.getpgrp()


def test_the_child_dies_with_its_caller():
    """A caller killed from outside (a bench worker past its hard limit) must not leave a solver running."""
    import sys

    if not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux only")
    read_fd, write_fd = os.pipe()
    middle = os.fork()
    if middle == 0:  # the caller: starts a child that loops for ever, reports its pid, then waits
        os.close(read_fd)

        def fn(send):
            os.write(write_fd, f"{os.getpid()}\n".encode())
            while True:
                pass

        try:
            call_in_child(fn, None)
        finally:
            os._exit(0)
    os.close(write_fd)
    line = b""
    while not line.endswith(b"\n"):
        line += os.read(read_fd, 64)
    os.close(read_fd)
    grandchild = int(line)
    os.kill(middle, signal.SIGKILL)
    os.waitpid(middle, 0)
    while not _gone(grandchild):  # the hang guard fails the test if it never goes
        time.sleep(0.01)


# race_in_children: the members of a portfolio (the auto engine's race) run at once, the first answer wins.


def _sleeper(send):
    send(os.getpid())
    while True:  # a member that never answers
        time.sleep(1)


def test_the_first_member_to_answer_wins_and_the_others_are_killed():
    got = []

    def quick(send):
        send("quick started")
        return "quick's answer"

    winner, value = race_in_children([_sleeper, quick, _sleeper], None, lambda i, m: got.append((i, m)))
    assert (winner, value) == (1, "quick's answer")
    assert (1, "quick started") in got
    sleepers = [m for i, m in got if i != 1]
    # a sleeper may not have been scheduled before it was killed; those that were are gone now
    assert all(_gone(pid) for pid in sleepers)


def test_a_member_that_fails_leaves_the_race_to_the_others():
    def broken(send):
        raise ValueError("bad")

    def dies(send):
        os._exit(9)

    def slow_but_right(send):
        time.sleep(0.5)  # after the others have failed
        return 42

    assert race_in_children([broken, dies, slow_but_right], None) == (2, 42)


def test_when_every_member_fails_the_first_members_error_is_raised():
    def broken(send):
        time.sleep(0.3)  # fails last: the error raised is still member 0's
        raise ValueError("bad")

    def dies(send):
        os._exit(9)

    with pytest.raises(ValueError, match="bad"):
        race_in_children([broken, dies], None)
    with pytest.raises(ChildCrashed, match="exit code 9"):
        race_in_children([dies, broken], None)


def test_the_caller_stops_the_race_from_a_message_and_at_the_deadline(stuck_clock):
    pids = []

    def found(send):
        send(os.getpid())
        send("enough")
        while True:
            time.sleep(1)

    def stop_at_enough(i, m):
        if isinstance(m, int):
            pids.append(m)
        return m == "enough"

    assert race_in_children([found, _sleeper], None, stop_at_enough) == (None, None)
    assert pids and _gone(pids[0])

    pids.clear()
    clock = stuck_clock(children=2)  # the deadline passes once both members are stuck, their pids read

    def stuck_sleeper(send):
        send(os.getpid())
        clock.stuck()
        while True:
            time.sleep(1)

    deadline = time.monotonic() + 10
    assert race_in_children([stuck_sleeper, stuck_sleeper], deadline, lambda i, m: pids.append(m)) == (None, None)
    assert clock.jumped
    assert len(pids) == 2 and all(_gone(pid) for pid in pids)
