"""Ctrl-C and SIGTERM on every engine, with and without a time limit, sent to real processes.

The one signal story (nonocp.engines.forked): sat and cpsat search in a forked child that ignores Ctrl-C
in a process group of its own; the command gets KeyboardInterrupt, kills the child, says "interrupted"
and exits 130. In process, CaDiCaL aborts the whole process on SIGINT (exit 134), Glucose raises its own
error (a traceback, exit 1) and CP-SAT answers "time limit reached" (exit 3). SIGTERM ends `check` the
same way (exit 130, as `bench`: batch.signals); `solve` dies of it at once, and a command killed outright
takes its solver children with it (PR_SET_PDEATHSIG).

The puzzle is a 16x16 permutation puzzle (every clue `1`: 16! solutions) with `--all`: every engine is
still enumerating when the signal comes, whatever the machine's speed, and no corpus is needed. The
waits poll for the moment the search has started (a solver child exists); nothing sleeps for seconds.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import pytest

import procs

NONOCP = [sys.executable, "-m", "nonocp.cli"]


@pytest.fixture(scope="module")
def permutations(tmp_path_factory) -> str:
    n = 16
    path = tmp_path_factory.mktemp("sig") / "perm16.non"
    path.write_text(f"width {n}\nheight {n}\nrows\n" + "1\n" * n + "columns\n" + "1\n" * n)
    return str(path)


def _wait_until(proc: subprocess.Popen, ready) -> None:
    for _ in range(6000):  # polls, not a time limit: the engines start within a few seconds even when loaded
        if proc.poll() is not None or ready(proc.pid):
            return
        time.sleep(0.02)


def interrupt(args: list[str], ready, sig: int = signal.SIGINT,
              command: list[str] = NONOCP) -> tuple[subprocess.CompletedProcess, list[int]]:
    """Start `nonocp ARGS` (or `COMMAND ARGS`), wait until `ready(pid)`, send `sig`; the finished process and
    the solver children it had when the signal came."""
    proc = subprocess.Popen([*command, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # read as it comes: `--all` writes each solution as it is found, and a pipe nobody reads would stop it
    read: dict[str, str] = {}
    readers = [threading.Thread(target=lambda name=name, f=f: read.__setitem__(name, f.read()), daemon=True)
               for name, f in (("out", proc.stdout), ("err", proc.stderr))]
    for t in readers:
        t.start()
    try:
        _wait_until(proc, ready)
        assert proc.poll() is None, "finished before the signal"
        children = procs.children(proc.pid)
        proc.send_signal(sig)
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for t in readers:
            t.join()
    return subprocess.CompletedProcess(args, proc.returncode, read.get("out", ""), read.get("err", "")), children


def streamed_so_far(out: str) -> bool:
    """What an interrupted `solve --all -f json` leaves: the solutions it had written as it found them (its
    object's start and its solutions, unfinished: no verdict came), or nothing."""
    return out == "" or (out.startswith('{"file": ') and '"solutions": [' in out and "\n" not in out)


def searching_in_a_child(pid: int) -> bool:
    return bool(procs.children(pid))


def no_child_survives(children: list[int]) -> None:
    for _ in range(500):
        if not any(procs.alive(c) for c in children):
            return
        time.sleep(0.01)
    raise AssertionError(f"solver processes left running: {[c for c in children if procs.alive(c)]}")


@pytest.mark.parametrize("engine", [
    ["-b", "sat"],
    ["-b", "sat:glucose4"],
    ["-b", "sat", "--timeout", "600"],
    # auto's SAT stage (and its race) straight after line logic, as after the native search's slice
    ["-b", "auto", "--workers", "1", "-O", "native_first=false"],
    ["-b", "auto", "-O", "native_first=false"],
    ["-b", "cpsat"],
    ["-b", "cpsat", "--timeout", "600"],
])
def test_ctrl_c_on_engines_that_search_in_a_child(permutations, engine):
    r, children = interrupt(["solve", permutations, "--all", "-f", "json", *engine], searching_in_a_child)
    assert r.returncode == 130, r.stderr
    assert r.stderr == "nonocp: interrupted\n"  # one line: no traceback, no "fatal error", no "time limit"
    assert streamed_so_far(r.stdout)
    assert children
    no_child_survives(children)


@pytest.mark.parametrize("timeout", [[], ["--timeout", "600"]])
def test_ctrl_c_on_the_native_engine(permutations, timeout):
    """The native engine is Python in the command's own process: KeyboardInterrupt at the next bytecode."""
    r, _ = interrupt(["solve", permutations, "--all", "-f", "json", "-b", "native", *timeout],
                     lambda pid: procs.cpu_seconds(pid) > 1.0)  # past start-up, inside the search
    assert r.returncode == 130, r.stderr
    assert "Traceback" not in r.stderr and r.stderr in ("", "nonocp: interrupted\n")


def in_the_native_search(pid: int) -> bool:
    """Past start-up and line logic, in auto's native search (it runs in the command's process: no child)."""
    return procs.cpu_seconds(pid) > 1.0 and not procs.children(pid)


@pytest.mark.parametrize("timeout", [[], ["--timeout", "600"]])
def test_ctrl_c_in_the_native_search_of_the_default_engine(permutations, timeout):
    """The default auto searches natively first (a 15 s slice, in process), so Ctrl-C lands there."""
    r, children = interrupt(["solve", permutations, "--all", "-f", "json", *timeout], in_the_native_search)
    assert children == []  # still in the slice: the SAT stage had not started
    assert r.returncode == 130, r.stderr
    assert r.stderr == "nonocp: interrupted\n" and streamed_so_far(r.stdout)


def test_sigterm_in_the_native_search_of_the_default_engine(permutations):
    r, children = interrupt(["solve", permutations, "--all", "-f", "json"], in_the_native_search, signal.SIGTERM)
    assert children == [] and r.returncode == -signal.SIGTERM


def test_ctrl_c_after_the_native_search_handed_over_to_sat(permutations):
    """The default auto, its native slice shortened so the SAT stage starts at once: Ctrl-C in the SAT stage
    after the slice still ends the command (130) and the solver children with it. (`-n`, not `--all`: an
    enumeration of every solution that the native search has begun streaming stays native.)"""
    code = ("import nonocp.engines.auto as auto; auto.NATIVE_CPU = 0.1\n"
            "from nonocp.cli.app import main\n"
            f"main(['solve', {permutations!r}, '-n', '100000000', '-f', 'json'])\n")
    r, children = interrupt(["-c", code], searching_in_a_child, command=[sys.executable])
    assert r.returncode == 130 and r.stderr == "nonocp: interrupted\n" and streamed_so_far(r.stdout)
    assert children
    no_child_survives(children)


def test_ctrl_c_on_check(permutations):
    r, children = interrupt(["check", permutations, "--all", "--backends", "cpsat"], searching_in_a_child)
    assert r.returncode == 130, r.stderr
    assert r.stderr.endswith("nonocp: interrupted\n") and "Traceback" not in r.stderr
    no_child_survives(children)


@pytest.mark.parametrize("engine", [["sat"], ["cpsat"], ["auto", "-O", "native_first=false"]])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_solve_takes_the_solver_children_with_it(permutations, engine, sig):
    r, children = interrupt(["solve", permutations, "--all", "-f", "json", "-b", *engine], searching_in_a_child, sig)
    assert r.returncode == -sig
    assert children
    no_child_survives(children)


def test_sigterm_on_check_is_an_interrupt(permutations):
    r, children = interrupt(["check", permutations, "--all", "--backends", "sat"], searching_in_a_child,
                            signal.SIGTERM)
    assert r.returncode == 130 and r.stderr.endswith("nonocp: interrupted\n")
    no_child_survives(children)
