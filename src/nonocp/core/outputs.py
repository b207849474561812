"""Every file nonocp writes (reports, proofs, pictures, puzzles, exports) goes through this module: the one
output policy and the one write path.

The policy (`Outputs`, one per command run), checked when a command names its outputs, before any work,
and again when each file is written:

- never an input: an output that is the same file as something the command reads (compared by device
  and inode, so through symbolic links and hard links; files found by scanning folders count, and so
  does standard input when it is a regular file) is refused, `--force` or not;
- never two outputs on one path (`--csv X --json X`, `-o X --picture X`); a character device such as
  /dev/null may be named twice;
- never a read-only file without `force`; with `replace=False` (`convert`, `generate`) never an
  existing file without `force`;
- never a directory, a block device, a dangling symbolic link, or an empty name.

The write path (`write_file`, and `open_output` for reports written row by row), by what the target is:

- does not exist: written to a temp file beside it, then renamed into place (a reader never sees half
  a file; a failure leaves nothing behind);
- a regular file: replaced the same way, keeping its mode (and owner, when run as root);
- a symbolic link: followed; its target is written (the link stays a link);
- a file with other hard links: replaced by the rename, so the other names keep the old content;
- `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: written to that descriptor of this
  process (a file opened with `>>` is appended to, a pipe is fed);
- a character device (`/dev/null`, a terminal) or a FIFO: written through, never replaced (as root a
  rename would turn `/dev/null` into a regular file); a FIFO nobody reads is refused instead of blocking.

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
from collections.abc import Iterable
from dataclasses import dataclass

from nonocp.core.errors import NonocpError

STDIN = "-"


class OutputRefused(NonocpError):
    """The output target is one nonocp will not write (an input, a directory, a read-only file...)."""


# --- what a path is ------------------------------------------------------------------------------------

# A path naming one of this process's own descriptors: written to that descriptor, not reopened.
_OWN_FD = re.compile(r"^/(?:dev/fd|proc/self/fd|proc/(\d+)/fd)/(\d+)$")
_STD_NAMES = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


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


def _stat_of(path: str) -> os.stat_result | None:
    """What `path` is (links followed; a descriptor path: the open file itself), or None if nothing is there."""
    fd = _own_descriptor(path)
    try:
        return os.fstat(fd) if fd is not None else os.stat(path)
    except OSError:
        return None


def _keys(path: str) -> frozenset[tuple]:
    """What identifies the file `path` names: its device and inode when it exists, and where its name
    resolves to (so that two spellings of a file not written yet are one file too)."""
    keys: set[tuple] = set()
    st = _stat_of(path)
    if st is not None:
        keys.add(("inode", st.st_dev, st.st_ino))
    if _own_descriptor(path) is None:
        keys.add(("path", os.path.realpath(path)))
    return frozenset(keys)


def same_file(a: str, b: str) -> bool:
    """True when the two paths name one file (the same path, a link to it, or a hard link)."""
    return bool(_keys(a) & _keys(b))


# --- the policy ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Claim:
    path: str
    option: str


class Outputs:
    """The files one command run reads and writes, so that no output is an input, a second output, or a
    read-only file written without `force`.

        outputs = Outputs(paths, force=force)         # every file the command reads ("-": standard input)
        outputs.claim(csv_path, "--csv")              # refuse now, before any work
        outputs.write(path, data, "--output")         # checked again, then written by the write path
    """

    def __init__(self, inputs: Iterable[str] = (), *, force: bool = False) -> None:
        self.force = force
        self._inputs: dict[tuple, str] = {}
        self._claims: list[_Claim] = []
        self.protect(inputs)

    def protect(self, paths: Iterable[str]) -> None:
        """Add files the command reads: named files, files found in folders, and `-` (standard input, when
        it is a regular file: `solve - -o h.non < h.non` must not replace h.non)."""
        for path in paths:
            path = os.fspath(path)
            if path == STDIN:
                try:
                    st = os.fstat(0)
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    self._inputs[("inode", st.st_dev, st.st_ino)] = "standard input"
                continue
            st = _stat_of(path)
            if st is not None and stat.S_ISREG(st.st_mode):
                self._inputs[("inode", st.st_dev, st.st_ino)] = path

    def claim(self, path: str, option: str = "--output", *, replace: bool = True) -> str:
        """Check that `path` may be written as `option` says, and remember it: OutputRefused naming the path
        otherwise. `replace=False`: an existing file only with `force`. Claiming the same path again for
        the same option is allowed (the same proof file for the same puzzle twice)."""
        path = os.fspath(path)
        if not path:
            raise OutputRefused(f"{option} '': the file name is empty; give a file name")
        keys = _keys(path)
        self._refuse_inputs(path, keys)
        for c in self._claims:  # both looked at now: a file replaced since its claim has a new inode
            if _keys(c.path) & keys and not _is_device(path):
                if c.option == option:
                    return path
                raise OutputRefused(f"{path}: {c.option} and {option} name the same file; give each its own")
        _check_target(path, replace=replace, force=self.force)
        self._claims.append(_Claim(path, option))
        return path

    def claim_folder(self, path: str, option: str) -> str:
        """A folder the command writes files into (`--proof DIR`, `explain -o DIR`): created if missing;
        OutputRefused when something else is there."""
        path = os.fspath(path)
        if not path:
            raise OutputRefused(f"{option} '': the folder name is empty; give a folder name")
        if os.path.isdir(path):
            return path
        if os.path.lexists(path):
            raise OutputRefused(f"{option} {path}: is not a folder")
        try:
            os.makedirs(path, exist_ok=True)
        except OSError as e:
            raise _named(e, path) from None
        return path

    def write(self, path: str, data: str | bytes, option: str = "--output", *, replace: bool = True) -> None:
        """Write `data` (str as UTF-8) to `path` by the write path, after the checks of `claim`."""
        payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        self.open(path, payload, option, replace=replace).close()

    def open(self, path: str, head: bytes, option: str = "--output", *, replace: bool = True) -> OpenOutput:
        """`path` started with `head` and kept open for more (a report written row by row)."""
        self.claim(path, option, replace=replace)
        return open_output(path, head, replace=replace, force=self.force)

    def _refuse_inputs(self, path: str, keys: frozenset[tuple]) -> None:
        for key in keys:
            if key in self._inputs:
                name = self._inputs[key]
                also = "" if name == path else f" ({name})"
                raise OutputRefused(f"{path}: refusing to overwrite the input file{also}; choose another output")


def _is_device(path: str) -> bool:
    st = _stat_of(path)
    return st is not None and stat.S_ISCHR(st.st_mode)


def _check_target(path: str, *, replace: bool, force: bool) -> None:
    """OutputRefused for what the write path would refuse anyway, said before any work is done."""
    if _own_descriptor(path) is not None:
        return
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise OutputRefused(f"{path}: is a symbolic link to {os.readlink(path)}, which does not exist") from None
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise OutputRefused(f"{path}: the folder {os.path.dirname(path) or folder} does not exist") from None
        return
    except OSError as e:
        raise _named(e, path) from None
    _refuse_kind(path, st, replace=replace, force=force)


def _refuse_kind(path: str, st: os.stat_result, *, replace: bool, force: bool) -> None:
    mode = st.st_mode
    if stat.S_ISREG(mode):
        if not (replace or force):
            raise OutputRefused(f"{path}: already exists; use --force to replace it")
        if not force and (not mode & 0o222 or not os.access(os.path.realpath(path), os.W_OK)):
            raise OutputRefused(f"{path}: is read-only; use --force to replace it")
    elif stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return
    elif stat.S_ISDIR(mode):
        raise OutputRefused(f"{path}: is a directory; give a file name")
    elif stat.S_ISBLK(mode):
        raise OutputRefused(f"{path}: is a block device; nonocp does not write to disks")
    else:
        raise OutputRefused(f"{path}: is not a regular file, a FIFO or a character device; refusing to write")


# --- the write path ------------------------------------------------------------------------------------


class OpenOutput:
    """An output file being written: `fd` open for writing. `own` is True for a file of our own (a new or
    replaced regular file: written at offsets, may be truncated), False for a target written through in
    order (a pipe, a device, one of this process's descriptors)."""

    def __init__(self, path: str, fd: int, own: bool) -> None:
        self.path = path
        self.fd = fd
        self.own = own

    def close(self) -> None:
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            os.close(fd)


def write_file(path: str, data: str | bytes, *, inputs: Iterable[str] = (), replace: bool = True,
               force: bool = False) -> None:
    """Write `data` (str as UTF-8) to `path` by the rules of the module docstring (the Python API's way in;
    a command uses its `Outputs`). `inputs`: paths never to overwrite."""
    Outputs(inputs, force=force).write(path, data, replace=replace)


def open_output(path: str, head: bytes, *, replace: bool = True, force: bool = False) -> OpenOutput:
    """Start the output `path` with `head` and return it open (see OpenOutput); the target's kind decides
    how (module docstring). OutputRefused or an OSError naming `path` when it cannot be written."""
    path = os.fspath(path)
    fd = _own_descriptor(path)
    if fd is not None:
        return _to_descriptor(path, fd, head)
    try:
        st = os.stat(path)  # follows symbolic links
    except FileNotFoundError:
        if os.path.islink(path):
            raise OutputRefused(f"{path}: is a symbolic link to {os.readlink(path)}, which does not exist") from None
        return _replacing(path, path, head, None)
    except OSError as e:
        raise _named(e, path) from None
    _refuse_kind(path, st, replace=replace, force=force)
    if stat.S_ISREG(st.st_mode):
        return _replacing(path, os.path.realpath(path), head, st)
    return _through(path, st, head)


def _named(e: OSError, path: str) -> OSError:
    """The same error, naming the output path the user gave (not a temp file or a resolved link)."""
    return OSError(e.errno, e.strerror or str(e), path)


def _write_all(fd: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        view = view[os.write(fd, view):]


def _to_descriptor(path: str, fd: int, head: bytes) -> OpenOutput:
    try:
        os.fstat(fd)
    except OSError:
        raise OutputRefused(f"{path}: descriptor {fd} is not open in this process") from None
    for stream in (sys.stdout, sys.stderr):  # what was printed before comes first
        with contextlib.suppress(Exception):
            stream.flush()
    try:
        mine = os.dup(fd)  # its offset and append flag, not a new open of the same name
    except OSError as e:
        raise _named(e, path) from None
    try:
        _write_all(mine, head)
    except OSError as e:
        os.close(mine)
        raise _named(e, path) from None
    return OpenOutput(path, mine, own=False)


def _through(path: str, st: os.stat_result, head: bytes) -> OpenOutput:
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
        _write_all(fd, head)
    except BaseException as e:
        os.close(fd)
        if isinstance(e, OSError):
            raise _named(e, path) from None
        raise
    return OpenOutput(path, fd, own=False)


def _replacing(path: str, target: str, head: bytes, old: os.stat_result | None) -> OpenOutput:
    """Write `head` to a temp file beside `target`, flush it to disk, rename it over `target`; the file stays
    open for more. `old`: the file replaced (its mode and owner are kept), None for a new file."""
    import tempfile  # only commands that write files need it (start-up)

    directory = os.path.dirname(os.path.abspath(target))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(target) + ".", suffix=".tmp")
    except OSError as e:
        raise _named(e, path) from None
    try:
        _write_all(fd, head)
        os.fsync(fd)
        if old is None:
            os.fchmod(fd, 0o666 & ~_umask())
        else:
            os.fchmod(fd, stat.S_IMODE(old.st_mode))
            if os.geteuid() == 0:
                with contextlib.suppress(OSError):
                    os.fchown(fd, old.st_uid, old.st_gid)
        os.replace(tmp, target)
    except BaseException as e:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise _named(e, path) from None
        raise
    return OpenOutput(path, fd, own=True)


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


__all__ = ["OpenOutput", "OutputRefused", "Outputs", "open_output", "same_file", "write_file"]
