"""The one write path (nonocp.core.outputs) through the real command: what `-o` and `convert`
do with every kind of target. What they guard against: a rename onto a special file replaces it (as root,
`-o /dev/null` would turn /dev/null into a regular file), a rename onto a link replaces the link, a
read-only file replaced without a word, errors that name a temp file."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import PUZZLES
from nonocp.cli.app import app
from nonocp.core.outputs import OutputRefused, write_file

HEART = str(PUZZLES / "heart.non")
NONOCP = [sys.executable, "-m", "nonocp.cli"]
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def nonocp(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*NONOCP, *args], capture_output=True, text=True, timeout=120, **kw)


def solve_to(target: str | Path, *extra: str) -> subprocess.CompletedProcess:
    return nonocp("solve", HEART, "-b", "native", "-f", "json", "-o", str(target), *extra)


def test_fifo_without_a_reader_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = solve_to(fifo)
    assert r.returncode == 2
    assert r.stderr.strip() == f"nonocp: {fifo}: is a FIFO that no process is reading; refusing to wait"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO, not a regular file


def test_fifo_with_a_reader_is_written_through(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    try:
        r = solve_to(fifo)
    finally:
        if reader.is_alive():  # unblock the reader if the command never opened the FIFO
            with open(fifo, "wb"):
                pass
        reader.join()
    assert r.returncode == 0, r.stderr
    assert b'"status": "unique"' in received[0]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_symlink_target_is_written_and_the_link_stays(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target.name)
    r = solve_to(link)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and os.readlink(link) == "real.json"
    assert '"status": "unique"' in target.read_text()


def test_dangling_symlink_is_refused(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to("nowhere.json")
    r = solve_to(link)
    assert r.returncode == 2 and "is a symbolic link to nowhere.json, which does not exist" in r.stderr
    assert link.is_symlink() and not (tmp_path / "nowhere.json").exists()


def test_symlink_to_proc_self_fd_1_writes_to_stdout(tmp_path):
    link = tmp_path / "out"
    link.symlink_to("/proc/self/fd/1")
    r = solve_to(link)
    assert r.returncode == 0, r.stderr
    assert '"status": "unique"' in r.stdout
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"


def test_dev_stdout_appends_to_a_file_opened_for_appending(tmp_path):
    """`-o /dev/stdout` is this process's descriptor 1: its offset and append flag, not a new file."""
    log = tmp_path / "log.txt"
    log.write_text("before\n")
    with open(log, "a") as out:
        r = subprocess.run([*NONOCP, "solve", HEART, "-b", "native", "-f", "json", "-o", "/dev/stdout"],
                           stdout=out, stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    text = log.read_text()
    assert text.startswith("before\n") and '"status": "unique"' in text


def test_read_only_file_needs_force_and_keeps_its_mode(tmp_path):
    ro = tmp_path / "ro.json"
    ro.write_text("keep me")
    ro.chmod(0o444)
    r = solve_to(ro)
    assert r.returncode == 2
    assert r.stderr.strip() == f"nonocp: {ro}: is read-only; use --force to replace it"
    assert ro.read_text() == "keep me"
    r = solve_to(ro, "--force")
    assert r.returncode == 0, r.stderr
    assert '"status": "unique"' in ro.read_text()
    assert stat.S_IMODE(os.stat(ro).st_mode) == 0o444


def test_input_is_never_overwritten_even_through_a_link_or_with_force(tmp_path):
    src = tmp_path / "heart.non"
    src.write_text(Path(HEART).read_text())
    link = tmp_path / "alias.non"
    link.symlink_to(src)
    for args in (("-o", str(link)), ("-o", str(link), "--force")):
        r = nonocp("solve", str(src), "-b", "native", "-f", "non", *args)
        assert r.returncode == 2 and "refusing to overwrite the input file" in r.stderr
    assert src.read_text() == Path(HEART).read_text()


def test_directory_target_is_refused(tmp_path):
    r = solve_to(tmp_path)
    assert r.returncode == 2 and "is a directory" in r.stderr


def test_convert_does_not_replace_an_existing_file_without_force(tmp_path):
    out = tmp_path / "out.json"
    out.write_text("precious")
    r = nonocp("convert", HEART, str(out))
    assert r.returncode == 2
    assert r.stderr.strip() == f"nonocp: {out}: already exists; use --force to replace it"
    assert out.read_text() == "precious"
    r = nonocp("convert", HEART, str(out), "--force")
    assert r.returncode == 0, r.stderr
    assert '"title": "Heart"' in out.read_text()


def test_dev_full_reports_the_device_and_stays_a_device():
    r = solve_to("/dev/full")
    assert r.returncode == 2
    assert r.stderr.strip() == "nonocp: /dev/full: No space left on device"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.skipif(not AS_ROOT, reason="only root could replace /dev/null by a rename")
def test_dev_null_as_root_is_written_through_and_stays_a_character_device():
    before = os.stat("/dev/null")
    r = solve_to("/dev/null")
    assert r.returncode == 0, r.stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


def test_full_disk_names_the_output_keeps_the_old_file_and_leaves_no_temp_file(tmp_path, monkeypatch):
    """ENOSPC injected into the write (a full disk): the message names the file the user gave, the file
    that was there is intact, and no temp file is left beside it."""
    import nonocp.core.outputs as files

    out = tmp_path / "out.json"
    out.write_text("the old answer")

    def full(fd, payload):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files, "_write_all", full)
    r = CliRunner().invoke(app, ["solve", HEART, "-b", "native", "-f", "json", "-o", str(out)])
    assert r.exit_code == 2
    assert f"nonocp: {out}: No space left on device" in r.output
    assert out.read_text() == "the old answer"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_write_file_library_rules(tmp_path):
    """The same rules from Python (formats.dump goes through write_file too)."""
    new = tmp_path / "new.txt"
    write_file(str(new), "a")
    assert new.read_text() == "a"
    write_file(str(new), "b")  # replace=True: like `-o`
    assert new.read_text() == "b"
    with pytest.raises(OutputRefused, match="already exists"):
        write_file(str(new), "c", replace=False)
    write_file(str(new), "c", replace=False, force=True)
    assert new.read_text() == "c"
    with pytest.raises(OutputRefused, match="input file"):
        write_file(str(new), "d", inputs=[str(new)], force=True)
    assert new.read_text() == "c"
