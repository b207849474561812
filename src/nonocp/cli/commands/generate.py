"""`nonocp generate --size WxH -o DIR`: random puzzles with exactly one solution (proven by two engines)
at the difficulty asked (LINE, PROBE or BRANCH, as `nonocp rate` counts them), reproducible from the seed.

Each puzzle is written to DIR as `random-WxH-sSEED-N.EXT` (format from `--format`, default `.non`) with
its picture as goal; one line per puzzle says its difficulty and how many random pictures were tried.
Existing files are not overwritten unless `--force`. Exit codes: 0 done; 2 bad usage, or no puzzle of
that difficulty found in the attempts allowed; 3 the time limit ran out first.
"""

from __future__ import annotations

import json
import os
import re
from typing import Annotated

import typer

from nonocp.cli.common import EXIT_BAD_INPUT, EXIT_SOLVED, EXIT_TIMEOUT, choose, fail, guarded, write_output

FORMATS = {"non": ".non", "xml": ".xml", "json": ".json"}
LEVELS = ("line", "probe", "branch")


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d{1,4})\s*[xX]\s*(\d{1,4})\s*", text)
    if not m:
        fail(f"--size {text!r}: write it as WIDTHxHEIGHT, e.g. 20x20")
    return int(m.group(1)), int(m.group(2))


def generate_command(
    output: Annotated[str, typer.Option("--output", "-o", help="Folder to write the puzzles into (created if "
                                        "needed).", show_default=False)],
    size: Annotated[str, typer.Option("--size", "-s", help="WIDTHxHEIGHT in cells.")] = "20x20",
    colors: Annotated[int, typer.Option("--colors", "-c", help="Colours besides the background (1: black and "
                                        "white).")] = 1,
    density: Annotated[float, typer.Option("--density", "-d", help="Share of filled cells, 0 to 1.")] = 0.5,
    difficulty: Annotated[str | None, typer.Option("--difficulty", help="LINE, PROBE or BRANCH (default: any "
                                                   "unique puzzle).")] = None,
    count: Annotated[int, typer.Option("--count", "-n", help="How many puzzles.")] = 1,
    seed: Annotated[int | None, typer.Option("--seed", help="Random seed (default: a new one, printed).")] = None,
    attempts: Annotated[int, typer.Option("--attempts", help="Random pictures to try per puzzle before giving "
                                          "up.")] = 200,
    fmt: Annotated[str, typer.Option("--format", "-f", help="non, xml or json.")] = "non",
    force: Annotated[bool, typer.Option("--force", help="Overwrite puzzle files that exist.")] = False,
    timeout: Annotated[float | None, typer.Option("--timeout", "-t", help="Time limit for the whole run, "
                                                  "seconds.")] = None,
    json_report: Annotated[bool, typer.Option("--json", help="Report one JSON object per puzzle.")] = False,
) -> None:
    """Generate random puzzles with exactly one solution, at a difficulty, from a seed."""
    from nonocp.design import DesignTimeout, generate
    from nonocp.formats import dumps

    fmt = choose(fmt, tuple(FORMATS), "--format")
    level = choose(difficulty, LEVELS, "--difficulty")
    width, height = _size(size)
    if count < 1 or count > 10000:
        fail(f"--count {count}: choose 1 to 10000")
    if attempts < 1:
        fail(f"--attempts {attempts}: must be at least 1")
    if timeout is not None and timeout <= 0:
        fail(f"--timeout: {timeout:g} must be more than 0 seconds")
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big") % 1_000_000
    stem = f"random-{width}x{height}" + (f"-c{colors}" if colors > 1 else "") + f"-s{seed}"
    with guarded():
        if os.path.exists(output) and not os.path.isdir(output):
            fail(f"{output}: exists and is not a folder")
        names = [os.path.join(output, f"{stem}-{i}{FORMATS[fmt]}") for i in range(1, count + 1)]
        existing = [n for n in names if os.path.exists(n)]
        if existing and not force:
            fail(f"{existing[0]}: exists; choose another folder or seed, or give --force")
        os.makedirs(output, exist_ok=True)
        if not json_report:
            typer.echo(f"seed {seed}: {count} puzzle{'s' if count > 1 else ''} of {width}x{height}, "
                       f"{'black and white' if colors == 1 else f'{colors} colours'}, density {density:g}, "
                       f"{level.upper() if level else 'any difficulty'}")
        written = 0

        def save(found) -> None:
            nonlocal written
            path = names[written]
            write_output(path, dumps(found.puzzle, fmt))
            written += 1
            if json_report:
                typer.echo(json.dumps({"file": path, **found.as_dict()}, ensure_ascii=False))
            else:
                tried = f", {found.attempts} pictures tried" if found.attempts > 1 else ""
                typer.echo(f"{path}: {found.difficulty}, {found.changes} cells changed{tried}, "
                           f"{found.seconds:.2f} s")

        try:
            generate(width, height, colors=colors, density=density, difficulty=level.upper() if level else None,
                     count=count, seed=seed, max_attempts=attempts, time_limit=timeout, progress=save)
        except DesignTimeout as e:
            typer.echo(f"nonocp: {e}", err=True)
            raise typer.Exit(EXIT_TIMEOUT) from None
    raise typer.Exit(EXIT_SOLVED if written == count else EXIT_BAD_INPUT)


def register(app: typer.Typer) -> None:
    app.command("generate")(generate_command)
