"""`solve --all` and `solve -n N`: solutions written as the engine finds them, none held.

An enumeration can run into millions of solutions (a 20x20 puzzle whose every clue is `1` has 20! of
them), so `solve` asks the engine to stream them (SolveOptions.on_solution, nonocp.engines.found) and
writes each one at once: memory stays flat whatever the enumeration runs into, and the time limit covers
the writing, since it happens inside the search. What needs the solutions afterwards gets them on the way:
`--backbone` keeps the union of the colours each cell took (SolutionUnion), pictures and `--format non`
keep the first.

Output, per puzzle: in text, `solution K:` and the grid for each solution as it comes, then the one-line
summary (the verdict is known only at the end); in JSON, the same object as without streaming, written as
it grows: `{"file", "index", "puzzle", "solutions": [...` first, then the other fields and `}`. With
`--output FILE` the file is written as the solutions come (its earlier content replaced when the first
solution arrives, so a long enumeration can be followed with `tail -f`).
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any

from nonocp.core.grid import Grid
from nonocp.core.outputs import OpenOutput, Outputs
from nonocp.core.puzzle import Puzzle
from nonocp.core.result import SolveResult
from nonocp.core.text import json_safe
from nonocp.render.text import Deadline

# Bytes written to an output file at a time (a solution is a few hundred bytes of text).
BUFFER = 1 << 16


class Writer:
    """Where `solve` writes: standard output, or `--output FILE` (collected and written once at the end, or,
    `streaming`, opened at the first write and written through)."""

    def __init__(self, output: str | None, outputs: Outputs, streaming: bool) -> None:
        self.output = output
        self.outputs = outputs
        self.streaming = streaming
        self.collected: list[str] = []
        self.file: OpenOutput | None = None
        self.buffer: io.BufferedWriter | None = None

    def emit(self, text: str) -> None:
        if self.output is None:
            sys.stdout.write(text)
        elif not self.streaming:
            self.collected.append(text)
        else:
            if self.buffer is None:
                self.file = self.outputs.open(self.output, b"")
                self.buffer = io.BufferedWriter(io.FileIO(self.file.fd, "wb", closefd=False), BUFFER)
            self.buffer.write(text.encode("utf-8"))

    def close(self, write_collected: bool = True) -> None:
        """Finish the output: flush what is buffered, or write what was collected (when `write_collected`)."""
        if self.output is None:
            sys.stdout.flush()
            return
        if self.buffer is not None:
            try:
                self.buffer.flush()
            finally:
                assert self.file is not None
                self.file.close()
                self.buffer = None
        elif write_collected:
            self.outputs.write(self.output, "".join(self.collected))


class SolutionUnion:
    """Per cell, the colours some solution gave it: `--backbone` of an enumeration, built as it streams."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.width = puzzle.width
        self.possible = [0] * (puzzle.width * puzzle.height)

    def add(self, grid: Grid) -> None:
        possible, w = self.possible, self.width
        for r, row in enumerate(grid.cells):
            base = r * w
            for c, k in enumerate(row):
                possible[base + c] |= 1 << k


class PuzzleStream:
    """One puzzle's solutions written as they are found (see the module docstring). `add` is the engine's
    on_solution; `finish` writes what comes after them, once the result is known."""

    def __init__(self, puzzle: Puzzle, fmt: str, writer: Writer, head: dict[str, Any] | None = None,
                 screen: Any = None, union: SolutionUnion | None = None, deadline: Deadline | None = None) -> None:
        self.puzzle = puzzle
        self.deadline = deadline  # the drawing of each solution stops at it (the time limit covers drawing)
        self.fmt = fmt
        self.writer = writer
        self.screen = screen
        self.union = union
        self.count = 0
        self.first: Grid | None = None
        if fmt == "json":
            assert head is not None
            writer.emit(json_safe(json.dumps(head, ensure_ascii=False))[:-1] + ', "solutions": [')

    def add(self, grid: Grid) -> None:
        self.count += 1
        if self.first is None:
            self.first = grid
        if self.union is not None:
            self.union.add(grid)
        if self.fmt == "json":
            rows = json.dumps(grid.to_strings(self.puzzle.palette))
            self.writer.emit(rows if self.count == 1 else ", " + rows)
        elif self.fmt == "text":
            self._text(grid)

    def _text(self, grid: Grid) -> None:
        if self.deadline is not None and self.deadline.cut:
            return  # a drawing already stopped at the time limit (and said so): the verdict follows
        if self.screen is not None:
            from nonocp.render import render_rich

            self.screen.print(f"solution {self.count}:", markup=False)
            self.screen.print(render_rich(self.puzzle, grid, deadline=self.deadline), end="")
        else:
            from nonocp.render import render_text

            self.writer.emit(f"solution {self.count}:\n" + render_text(self.puzzle, grid, deadline=self.deadline))

    def finish_json(self, rest: dict[str, Any]) -> None:
        """Close the JSON object with the fields known at the end (`rest`, its own braces dropped)."""
        body = json_safe(json.dumps(rest, default=str, ensure_ascii=False))
        self.writer.emit("], " + body[1:] + "\n" if len(rest) else "]}\n")


def with_first(result: SolveResult, stream: PuzzleStream) -> SolveResult:
    """The result holding the first solution streamed (for `--format non` and pictures), as found."""
    import dataclasses

    if stream.first is None or result.solutions:
        return result
    return dataclasses.replace(result, solutions=(stream.first,))


__all__ = ["PuzzleStream", "SolutionUnion", "Writer", "with_first"]
