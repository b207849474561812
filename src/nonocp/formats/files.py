"""Reading and writing the user's files safely: the one read path and the one write path.

Reading (`read_bytes`): only regular files. A FIFO, a terminal or another device is refused by name
before it is opened, and the open itself is non-blocking and checked again on the descriptor, so a
file swapped for a FIFO in between cannot hang the command. Sizes are capped (MAX_FILE_BYTES).

Writing (`write_file`), what a target can be and what happens:

- does not exist: written to a temp file beside it, then renamed into place (a reader never sees half
  a file; a failure leaves nothing behind);
- a regular file: replaced the same way, keeping its mode (and owner, when run as root), when the
  caller allows replacing (`replace=True`: `-o FILE`, like `cp` or `>`; `convert` only with `--force`);
  a read-only file (no write bit) only with `force=True`; an input of the command never, force or not;
- a symbolic link: followed; its target is written (the link stays a link); a dangling link is refused;
- a file with other hard links: replaced by the rename, so the other names keep the old content;
- `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: written to that descriptor of this
  process (a file opened with `>>` is appended to, a pipe is fed);
- a character device (`/dev/null`, a terminal) or a FIFO: written through, never replaced (as root a
  rename would turn `/dev/null` into a regular file); a FIFO nobody reads is refused instead of
  blocking; block devices, sockets and directories are refused.

Errors name the output path the user gave, never the temp file: a refusal is an OutputRefused
(NonocpError, exit 2), a failed write (ENOSPC, EACCES...) an OSError whose filename is that path.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys

from nonocp.core.errors import NonocpError, ParseError

# Generous for real puzzles (the largest corpus puzzle file is a few MB), small enough that a hostile
# file cannot make us allocate gigabytes.
MAX_FILE_BYTES = 64 * 1024 * 1024


class OutputRefused(NonocpError):
    """The output target is one nonocp will not write (an input, a directory, a read-only file...)."""


# --- reading ----------------------------------------------------------------------------------------


def _kind(mode: int) -> str | None:
    """Why a file of this mode is not a puzzle file, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory, not a puzzle file"
    if stat.S_ISFIFO(mode):
        return "is a FIFO (named pipe), not a puzzle file; nonocp reads regular files (use - for stdin)"
    if stat.S_ISCHR(mode):
        return "is a character device, not a puzzle file"
    if stat.S_ISBLK(mode):
        return "is a block device, not a puzzle file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a puzzle file"
    return "is not a regular file"


def read_bytes(path: str) -> bytes:
    """The bytes of the regular file `path`, or ParseError naming the path (missing, a directory, a FIFO or
    device, unreadable, too big). Never blocks on a special file."""
    path = os.fspath(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ParseError(path, None, "no such file") from None
    except OSError as e:
        raise ParseError(path, None, f"cannot read: {e.strerror or e}") from None
    why = _kind(st.st_mode)
    if why:
        raise ParseError(path, None, why)
    if st.st_size > MAX_FILE_BYTES:
        raise ParseError(path, None, f"file is {st.st_size} bytes; files over {MAX_FILE_BYTES} bytes are refused")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise ParseError(path, None, f"cannot read: {e.strerror or e}") from None
    try:
        why = _kind(os.fstat(fd).st_mode)  # what was opened, not what was there a moment ago
        if why:
            raise ParseError(path, None, why)
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise ParseError(path, None, f"cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise ParseError(path, None, f"file is over {MAX_FILE_BYTES} bytes; refused")
    return data


# --- writing ----------------------------------------------------------------------------------------

# A path naming one of this process's own descriptors: written to that descriptor, not reopened.
_OWN_FD = re.compile(r"^/(?:dev/fd|proc/self/fd|proc/(\d+)/fd)/(\d+)$")
_STD_NAMES = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def same_file(a: str, b: str) -> bool:
    """True when the two paths name one file (the same path, a link to it, or a hard link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): compare where they would point
        return os.path.realpath(a) == os.path.realpath(b)


def _own_descriptor(path: str) -> int | None:
    """The descriptor of this process that `path` names (/dev/stdout, /dev/fd/3, /proc/self/fd/1, ...),
    directly or through a chain of symbolic links; None for any other path."""
    p = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit on a chain of links
        if p in _STD_NAMES:
            return _STD_NAMES[p]
        m = _OWN_FD.match(p)
        if m and (m.group(1) is None or int(m.group(1)) == os.getpid()):
            return int(m.group(2))
        try:
            link = os.readlink(p)
        except OSError:  # not a link (or gone): the chain ends here
            return None
        p = os.path.normpath(os.path.join(os.path.dirname(p), link))
    return None


def write_file(path: str, data: str | bytes, *, inputs=(), replace: bool = True, force: bool = False) -> None:
    """Write `data` (str as UTF-8) to `path` by the rules of the module docstring.

    `inputs`: paths the command read (never overwritten). `replace`: an existing regular file may be
    replaced (False: refused unless `force`). `force`: also replace existing and read-only files.
    """
    path = os.fspath(path)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    for src in inputs:
        if same_file(path, src):
            raise OutputRefused(f"{path}: refusing to overwrite the input file; choose another output")
    fd = _own_descriptor(path)
    if fd is not None:
        _write_to_descriptor(path, fd, payload)
        return
    try:
        st = os.stat(path)  # follows symbolic links
    except FileNotFoundError:
        if os.path.islink(path):
            raise OutputRefused(f"{path}: is a symbolic link to {os.readlink(path)}, which does not exist") from None
        _replace_atomically(path, path, payload, None)
        return
    except OSError as e:
        raise _named(e, path) from None
    mode = st.st_mode
    if stat.S_ISREG(mode):
        if not (replace or force):
            raise OutputRefused(f"{path}: already exists; use --force to replace it")
        target = os.path.realpath(path)
        if not force and (not mode & 0o222 or not os.access(target, os.W_OK)):
            raise OutputRefused(f"{path}: is read-only; use --force to replace it")
        _replace_atomically(path, target, payload, st)
    elif stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        _write_through(path, st, payload)
    elif stat.S_ISDIR(mode):
        raise OutputRefused(f"{path}: is a directory; give a file name")
    elif stat.S_ISBLK(mode):
        raise OutputRefused(f"{path}: is a block device; nonocp does not write to disks")
    else:
        raise OutputRefused(f"{path}: is not a regular file, a FIFO or a character device; refusing to write")


def _named(e: OSError, path: str) -> OSError:
    """The same error, naming the output path the user gave (not a temp file or a resolved link)."""
    return OSError(e.errno, e.strerror or str(e), path)


def _write_all(fd: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        view = view[os.write(fd, view):]


def _write_to_descriptor(path: str, fd: int, payload: bytes) -> None:
    try:
        os.fstat(fd)
    except OSError:
        raise OutputRefused(f"{path}: descriptor {fd} is not open in this process") from None
    for stream in (sys.stdout, sys.stderr):  # what was printed before comes first
        with contextlib.suppress(Exception):
            stream.flush()
    try:
        _write_all(fd, payload)
    except OSError as e:
        raise _named(e, path) from None


def _write_through(path: str, st: os.stat_result, payload: bytes) -> None:
    """A character device or FIFO: opened for writing as it is (no create, no truncate, no rename)."""
    flags = os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ENXIO and stat.S_ISFIFO(st.st_mode):
            raise OutputRefused(f"{path}: is a FIFO that no process is reading; refusing to wait") from None
        raise _named(e, path) from None
    try:
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):  # swapped since the first look
            raise OutputRefused(f"{path}: changed while it was being opened; refusing to write")
        os.set_blocking(fd, True)
        _write_all(fd, payload)
    except OSError as e:
        raise _named(e, path) from None
    finally:
        os.close(fd)


def _replace_atomically(path: str, target: str, payload: bytes, old: os.stat_result | None) -> None:
    """Write a temp file beside `target`, flush it to disk, rename it over `target`. `old`: the file
    replaced (its mode and owner are kept), None for a new file."""
    import tempfile  # only commands that write files need it (start-up)

    directory = os.path.dirname(os.path.abspath(target))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(target) + ".", suffix=".tmp")
    except OSError as e:
        raise _named(e, path) from None
    try:
        try:
            _write_all(fd, payload)
            os.fsync(fd)
            if old is None:
                os.fchmod(fd, 0o666 & ~_umask())
            else:
                os.fchmod(fd, stat.S_IMODE(old.st_mode))
                if os.geteuid() == 0:
                    with contextlib.suppress(OSError):
                        os.fchown(fd, old.st_uid, old.st_gid)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise _named(e, path) from None
        raise


def _umask() -> int:
    """The process umask, read without changing it where /proc allows (os.umask would race with threads)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


__all__ = ["MAX_FILE_BYTES", "OutputRefused", "read_bytes", "same_file", "write_file"]
