"""Found: the solutions a search finds, counted and passed on as they come, only the first few held.

Every engine collects its solutions in one (`Found.of(options)`), so that streaming works the same way in
all of them: `options.on_solution(grid)` hears each solution once, as it is found, in the caller's process
(engines that search in a child send grids back as they come and the parent's Found passes them on); the
result holds the first `options.keep` (None: all) and `SolveResult.found` says how many there were. An
enumeration that keeps none holds nothing per solution, so its memory stays flat (`solve --all` writes each
solution as it comes; `nonocp.solutions()` yields it).

`distinct=True` drops a grid seen before (engines whose search can report one twice, and the race of two
searches on the same puzzle): it remembers a 16-byte digest per solution, not the grid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from nonocp.core.grid import Grid

if TYPE_CHECKING:
    from nonocp.engines.contract import SolveOptions


class Sink(Protocol):
    """Where a search appends what it finds: a Found, or a plain list (tests, searches that keep states)."""

    def append(self, item: Any, /) -> None: ...

    def __len__(self) -> int: ...


class Found:
    """See the module docstring. `convert` turns what the search appends (a solved state) into a Grid."""

    def __init__(self, keep: int | None = None, on_solution: Callable[[Grid], None] | None = None,
                 convert: Callable[[Any], Grid] | None = None, distinct: bool = False) -> None:
        self.keep = keep
        self.on_solution = on_solution
        self.convert = convert
        self.count = 0
        self.kept: list[Grid] = []
        self.latest: Grid | None = None  # the solution found last (searches restart next to it)
        self._seen: set[bytes] | None = set() if distinct else None

    @classmethod
    def of(cls, options: SolveOptions, convert: Callable[[Any], Grid] | None = None, distinct: bool = False) -> Found:
        return cls(options.keep, options.on_solution, convert, distinct)

    def append(self, item: Any) -> None:
        self.add(item)

    def add(self, item: Any) -> bool:
        """Count, hold (while fewer than `keep` are held) and pass on one solution; False (and nothing done)
        for a grid seen before when `distinct`."""
        grid = item if self.convert is None else self.convert(item)
        if self._seen is not None:
            key = digest(grid)
            if key in self._seen:
                return False
            self._seen.add(key)
        self.count += 1
        self.latest = grid
        if self.keep is None or len(self.kept) < self.keep:
            self.kept.append(grid)
        if self.on_solution is not None:
            self.on_solution(grid)
        return True

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0

    def __iter__(self) -> Iterator[Grid]:
        return iter(self.kept)

    def grids(self) -> tuple[Grid, ...]:
        """The solutions held (the first `keep`)."""
        return tuple(self.kept)


def digest(grid: Grid) -> bytes:
    """16 bytes that tell grids apart (for `distinct`)."""
    import hashlib  # here: OpenSSL's start-up is a visible part of `nonocp solve`'s, which rarely needs this

    h = hashlib.blake2b(digest_size=16)
    for row in grid.cells:
        h.update(bytes(v & 0xFF for v in row) if max(row, default=0) < 256 else repr(row).encode())
        h.update(b"\n")
    return h.digest()


__all__ = ["Found", "Sink", "digest"]
