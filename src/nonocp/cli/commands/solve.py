"""`nonocp solve PUZZLE...`: solve every puzzle in the files (folders, `-` for standard input) and show the answer.

Output formats (`--format`): `text` (the verdict and the grid with its clues; in colour on a terminal),
`json` (one object per puzzle per line; schema `solve` in nonocp/cli/schemas.py), `non` (the puzzles
with the solution as their `goal`), `svg` and `png` (pictures). Exit code: 0 when every puzzle got a
solution, 1 when some puzzle has none (proven), 3 when the time ran out on some puzzle (this wins over 1),
2 on bad input (this wins over everything: the other files are still solved). "The time ran out" includes
a search the time limit cut short of what was asked: `--all --timeout 5` that found 7,000 solutions of
many more is `multiple` (proven) but not complete, so it exits 3 and its JSON says `"exhaustive": false,
"stopped": "timeout"`. Ctrl-C: "interrupted", exit 130, the solver children killed; SIGTERM ends the
process at once and its solver children with it (engines/forked.py).

The work is nonocp.cli.solving.solve_puzzles (also run without typer, by nonocp.cli.quick).

`--backbone` also finds which cells are the same in every solution (nonocp.analysis.backbone): text and
pictures show those cells and mark the others (`?` in text, checkered in pictures); JSON gets a
`"backbone"` object beside the usual fields. A backbone not decided in time counts as a timeout (exit 3).
"""

from __future__ import annotations

from typing import Annotated

import typer

from nonocp.cli.common import exit_codes
from nonocp.cli.options import (
    AllOpt,
    BackendOpt,
    CellSizeOpt,
    ColorOpt,
    CompactOpt,
    ForceOpt,
    FromOpt,
    OutputOpt,
    ProgressOpt,
    PuzzlesArg,
    TimeoutOpt,
    format_option,
    max_solutions_option,
)
from nonocp.cli.solving import FORMATS, solve_puzzles
from nonocp.engines import DEFAULT_BACKEND

# The options only solve has (the shared ones are in nonocp/cli/options.py).
FormatOpt = Annotated[str, format_option(FORMATS, "non: the puzzle with its solution as goal", from_output=True)]
MaxOpt = Annotated[int | None, max_solutions_option()]
SeedOpt = Annotated[int | None, typer.Option("--seed", metavar="N", help="Random seed for engines that use one.")]
WorkersOpt = Annotated[
    int | None, typer.Option("--workers", "-w", metavar="N", min=1, help="Threads for engines that use them.")
]
ProofOpt = Annotated[
    str | None,
    typer.Option("--proof", metavar="DIR", help="Write UNSAT certificates (CNF + DRAT) into DIR and say where."),
]
EngineOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-O", metavar="KEY=VALUE",
        help="An engine setting, repeatable: sat/auto encoding=blocks|automaton|both, phase=solver|background; "
        "native probe|guide|minimize=true|false; cpsat uniqueness=enumerate|block, cell_model=int|bool, "
        "cut_domains=true|false.",
    ),
]
BackboneOpt = Annotated[
    bool,
    typer.Option("--backbone", help="Also show which cells are the same in every solution; mark the others."),
]


def solve_command(
    puzzles: PuzzlesArg,
    backend: BackendOpt = DEFAULT_BACKEND,
    max_solutions: MaxOpt = None,
    all_solutions: AllOpt = False,
    timeout: TimeoutOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = None,
    proof: ProofOpt = None,
    fmt: FormatOpt = "text",
    output: OutputOpt = None,
    from_fmt: FromOpt = None,
    backbone: BackboneOpt = False,
    engine_options: EngineOpt = None,
    color: ColorOpt = "auto",
    cell_size: CellSizeOpt = 20,
    compact: CompactOpt = False,
    force: ForceOpt = False,
    progress: ProgressOpt = True,
) -> None:
    """Solve every puzzle in the files."""
    raise typer.Exit(solve_puzzles(
        puzzles, backend=backend, max_solutions=max_solutions, all_solutions=all_solutions, timeout=timeout,
        seed=seed, workers=workers, proof=proof, fmt=fmt, output=output, from_fmt=from_fmt, backbone=backbone,
        engine_options=engine_options, color=color, cell_size=cell_size, compact=compact, force=force,
        progress=progress,
    ))


def register(app: typer.Typer) -> None:
    app.command("solve", epilog=exit_codes(0, 1, 2, 3, 130, 141))(solve_command)
