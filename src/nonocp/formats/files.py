"""Reading the user's files safely: the one read path (writing is nonocp.core.outputs).

Only regular files are read. A FIFO, a terminal or another device is refused by name before it is
opened, and the open itself is non-blocking and checked again on the descriptor, so a file swapped for a
FIFO in between cannot hang the command. Sizes are capped (MAX_FILE_BYTES).
"""

from __future__ import annotations

import os
import stat

from nonocp.core.errors import ParseError

# Generous for real puzzles (the largest corpus puzzle file is a few MB), small enough that a hostile
# file cannot make us allocate gigabytes.
MAX_FILE_BYTES = 64 * 1024 * 1024


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


__all__ = ["MAX_FILE_BYTES", "read_bytes"]
