"""`nonocp generate --size WxH -o DIR`: random puzzles with exactly one solution (proven by two engines)
at the difficulty asked (LINE, PROBE or BRANCH, as `nonocp rate` counts them), reproducible from the seed.

Each puzzle is written to DIR as `random-WxH-sSEED-N.EXT` (format from `--to`, default `.non`) with its
picture as goal; one line per puzzle says its difficulty and how many random pictures were tried
(`--format json`: one object per puzzle).
Existing files are not overwritten unless `--force`. Exit codes: 0 done; 2 bad usage, or no puzzle of
that difficulty found in the attempts allowed; 3 a puzzle was not found within `--timeout` seconds.
"""

from __future__ import annotations

import json
import os
import re
from typing import Annotated

import typer

from nonocp.cli.common import EXIT_BAD_INPUT, EXIT_SOLVED, EXIT_TIMEOUT, exit_codes, fail, guarded
from nonocp.cli.options import ProgressOpt, difficulty_level, timeout_option
from nonocp.cli.parsing import MOVED
from nonocp.cli.progress import Progress

# the puzzle files' formats (--to), by extension
FORMATS = {"non": ".non", "xml": ".xml", "json": ".json"}
REPORTS = ("text", "json")
MOVED[("generate", "-n")] = "the number of puzzles is --count N (-n is --max-solutions in every command)"
MOVED[("generate", "--json")] = "give --format json (-f json) for one JSON object per puzzle"


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d{1,4})\s*[xX]\s*(\d{1,4})\s*", text)
    if not m:
        fail(f"--size {text!r}: write it as WIDTHxHEIGHT, e.g. 20x20")
    return int(m.group(1)), int(m.group(2))


OutputDirOpt = Annotated[str, typer.Option("--output", "-o", metavar="DIR", show_default=False,
                                           help="Folder to write the puzzles into (made if needed).")]
SizeOpt = Annotated[str, typer.Option("--size", "-s", metavar="WxH", help="Width x height in cells.")]
ColorsOpt = Annotated[int, typer.Option("--colors", "-c", metavar="K", min=1,
                                        help="Colours besides the background; 1 is black and white.")]
DensityOpt = Annotated[float, typer.Option("--density", "-d", metavar="SHARE", min=0.0, max=1.0,
                                           help="Share of the cells filled in the random picture, 0 to 1.")]
DifficultyOpt = Annotated[str | None, typer.Option("--difficulty", metavar="LEVEL", callback=difficulty_level,
                                                   help="LINE, PROBE or BRANCH, as `nonocp rate` says (default: "
                                                        "any unique puzzle).")]
CountOpt = Annotated[int, typer.Option("--count", metavar="N", min=1, max=10000, help="How many puzzles.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", metavar="N", min=0,
                                             help="Random seed (default: a new one, printed).")]
AttemptsOpt = Annotated[int, typer.Option("--attempts", metavar="N", min=1,
                                          help="Random pictures to try per puzzle before giving up.")]
def _puzzle_format(value: str) -> str:
    v = (value or "").strip().lower().lstrip(".")
    if v not in FORMATS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(FORMATS)}")
    return v


def _report_format(value: str) -> str:
    v = (value or "").strip().lower()
    if v in FORMATS and v not in REPORTS:
        raise typer.BadParameter(f"{value!r} is a puzzle format: give it as --to {v} (--format chooses the report: "
                                 f"{', '.join(REPORTS)})")
    if v not in REPORTS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(REPORTS)}")
    return v


ToOpt = Annotated[str, typer.Option("--to", metavar="FORMAT", callback=_puzzle_format,
                                    help=f"The puzzle files' format: {', '.join(FORMATS)}.")]
FormatOpt = Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", callback=_report_format,
                                        show_default=False,
                                        help="Output: text, json (default: text); json: one object per puzzle.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite puzzle files that exist.")]
TimeoutOpt = Annotated[float | None, timeout_option()]


def generate_command(
    output: OutputDirOpt,
    size: SizeOpt = "20x20",
    colors: ColorsOpt = 1,
    density: DensityOpt = 0.5,
    difficulty: DifficultyOpt = None,
    count: CountOpt = 1,
    seed: SeedOpt = None,
    attempts: AttemptsOpt = 200,
    to_fmt: ToOpt = "non",
    force: ForceOpt = False,
    timeout: TimeoutOpt = None,
    fmt: FormatOpt = "text",
    progress: ProgressOpt = True,
) -> None:
    """Generate random puzzles with exactly one solution, at a difficulty, from a seed."""
    from nonocp.core.errors import OutOfTime
    from nonocp.design import generate
    from nonocp.formats import dumps

    level = difficulty
    width, height = _size(size)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big") % 1_000_000
    stem = f"random-{width}x{height}" + (f"-c{colors}" if colors > 1 else "") + f"-s{seed}"
    json_report = fmt == "json"
    with guarded():
        if output == "-":
            fail("--output -: generate writes one file per puzzle into a folder; name the folder (-o DIR)")
        if os.path.exists(output) and not os.path.isdir(output):
            fail(f"{output}: exists and is not a folder")
        names = [os.path.join(output, f"{stem}-{i}{FORMATS[to_fmt]}") for i in range(1, count + 1)]
        existing = [n for n in names if os.path.exists(n)]
        if existing and not force:
            fail(f"{existing[0]}: exists; choose another folder or seed, or give --force")
        from nonocp.core.outputs import Outputs

        outputs = Outputs(force=force)
        outputs.claim_folder(output, "--output")
        for name in names:
            outputs.claim(name, replace=False)
        if not json_report:
            typer.echo(f"seed {seed}: {count} puzzle{'s' if count > 1 else ''} of {width}x{height}, "
                       f"{'black and white' if colors == 1 else f'{colors} colours'}, density {density:g}, "
                       f"{level or 'any difficulty'}")
        written = 0

        def save(found) -> None:
            nonlocal written
            path = names[written]
            outputs.write(path, dumps(found.puzzle, to_fmt), replace=False)
            written += 1
            if json_report:
                typer.echo(json.dumps({"file": path, **found.as_dict()}, ensure_ascii=False))
            else:
                tried = f", {found.attempts} pictures tried" if found.attempts > 1 else ""
                cells = "1 cell" if found.changes == 1 else f"{found.changes} cells"
                typer.echo(f"{path}: {found.difficulty}, {cells} changed{tried}, {found.seconds:.2f} s")

        working = Progress(progress)

        def attempting(i: int, attempt: int) -> None:
            if attempt == 1:
                working.say(f"looking for puzzle {i} of {count} ({width}x{height}, {level or 'unique'})")
            working.detail(f"picture {attempt} of at most {attempts}")

        try:
            with working:
                generate(width, height, colors=colors, density=density, difficulty=level, count=count, seed=seed,
                         max_attempts=attempts, time_limit=timeout, progress=save, attempting=attempting)
        except OutOfTime as e:
            typer.echo(f"nonocp: {e}", err=True)
            raise typer.Exit(EXIT_TIMEOUT) from None
    raise typer.Exit(EXIT_SOLVED if written == count else EXIT_BAD_INPUT)


def register(app: typer.Typer) -> None:
    app.command("generate", epilog=exit_codes(0, 2, 3, 130))(generate_command)
