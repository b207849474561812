"""The hardest survey puzzles (Knotty, Faase, Meow): the everyday command before against after in one run, and
the first solution of one SAT formula variant.

    git worktree add --detach /tmp/nonocp-before main      # the baseline (its C extension built or copied in)
    nice -n 10 python benchmarks/bench_hard.py --before /tmp/nonocp-before
    nice -n 10 python benchmarks/bench_hard.py --before /tmp/nonocp-before --runs 2 --only knotty -- -t 400
    python benchmarks/bench_hard.py --before /tmp/nonocp-before --burners 2 -- -t 120   # a busy machine
    nice -n 10 python benchmarks/bench_hard.py --first kissat404 --only knotty --fixed logic --cap 150
    nice -n 10 python benchmarks/bench_hard.py --first kissat404 --only knotty --add cardinality

`--first SOLVER`: the puzzle's CNF (`--encoding`, default blocks) with the cells line logic (`--fixed logic`)
or line logic and probing (`--fixed probe`) fixed, or none; `--add` extra clauses, all implied by the clues:
`cardinality` (per line, the number of ink cells equals the clue's sum: a totalizer), `learned` (the native
CDCL search's learned clauses after `--native` seconds from the probed root; none after a solution);
`--order reversed` numbers the variables backwards; `--phases beliefs` gives the solver each open cell's most
likely colour after root probing (engines/native/belief.py) as its phases (pysat `set_phases`: CaDiCaL keeps
them at every decision). One pysat solve for the first solution in a child killed
at `--cap` seconds; then CaDiCaL seeded with that solution's phases and its blocking clause for the second
(sat.FOLLOW_UP_SOLVER's hand-off). CaDiCaL options with `--first cadical195:stabilizeonly=1,...`.

Each run is `nonocp solve FILE -f json` with the default options (engine `auto`, uniqueness asked, the race
on when two cores are free) in a child process with the checkout's `src/` first on PYTHONPATH, so the same
interpreter and the same driver measure both. Figures: wall seconds of the whole command and CPU seconds of
it and its forked children (getrusage), the verdict, and which stage decided (`decided_by`). The checkouts
alternate per puzzle and run; every solution printed is checked against the clues here. Arguments after `--`
go to `nonocp solve` (e.g. a time limit). `--burners N` keeps N CPU-bound processes (`while 1: pass`) running
beside the runs, as a busy machine does: budgets inside the engines must not depend on the wall clock.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
AFTER = os.path.dirname(HERE)
CORPUS = os.environ.get("NONOCP_CORPUS", os.path.join(HERE, "..", "..", "shared", "corpus"))
HARD = {"knotty": "free/webpbn-knotty.txt", "faase": "free/webpbn-faase.txt", "meow": "restricted/webpbn-meow.txt"}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def solve_once(tree: str, path: str, extra: list[str]) -> dict:
    """`nonocp solve path -f json` by the checkout `tree`: wall, CPU, verdict, the deciding stage."""
    env = {**os.environ, "PYTHONPATH": os.path.join(tree, "src"), "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [sys.executable, "-m", "nonocp", "solve", path, "-f", "json", *extra]
    t, c = time.perf_counter(), children_cpu()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t, children_cpu() - c
    try:
        record = json.loads(proc.stdout)
        record = record[0] if isinstance(record, list) else record
    except ValueError:
        return {"wall": wall, "cpu": cpu, "status": f"exit {proc.returncode}: {proc.stderr.strip()[-200:]}"}
    return {"wall": wall, "cpu": cpu, "status": record.get("status"), "decided_by": record.get("decided_by"),
            "winner": record.get("stats", {}).get("race_winner"), "verified": verified(path, record)}


def verified(path: str, record: dict) -> bool:
    """Every grid in the output is a solution of the puzzle (checked by this checkout's code)."""
    from nonocp.core.grid import Grid
    from nonocp.formats import load

    puzzle = load(path)[0]
    index = {key: i for i, key in enumerate(record["puzzle"]["colors"])}  # a cell's character -> its colour
    grids = [Grid.from_rows([[index[ch] for ch in row] for row in rows]) for rows in record.get("solutions") or []]
    return all(puzzle.is_solution(g) for g in grids)


def formula(puzzle, args: argparse.Namespace) -> tuple:
    """(the PuzzleCnf, the extra clauses, a line saying what was built) for `--first`."""
    from nonocp.encode.cnf import TRUE, encode_puzzle
    from nonocp.engines.native import propagate_and_probe

    said = []
    fixed = None
    ncol = len(puzzle.palette)
    if args.fixed != "none":
        masks, _, _ = propagate_and_probe(puzzle, probe=args.fixed == "probe")
        fixed = {divmod(i, puzzle.width): m for i, m in enumerate(masks) if m != (1 << ncol) - 1}
        said.append(f"{sum(1 for m in masks if m & (m - 1) == 0)} of {len(masks)} cells decided by {args.fixed}")
    cnf = encode_puzzle(puzzle, args.encoding, fixed=fixed)
    extra: list[list[int]] = []
    if args.add == "cardinality":
        from pysat.card import CardEnc, EncType

        top, W, H = cnf.n_vars, puzzle.width, puzzle.height
        for k in range(H + W):
            cells = [k * W + c for c in range(W)] if k < H else [r * W + k - H for r in range(H)]
            lits = [cnf.cell_literals[i][1] for i in cells]
            total = sum(b.length for b in (puzzle.rows[k] if k < H else puzzle.cols[k - H])) - lits.count(TRUE)
            lits = [x for x in lits if abs(x) != TRUE]
            if lits:
                card = CardEnc.equals(lits=lits, bound=total, top_id=top, encoding=EncType.totalizer)
                top = max(top, card.nv)
                extra.extend(card.clauses)
    elif args.add == "learned":
        extra = learned_clauses(puzzle, cnf, args.native)
    said.append(f"{cnf.n_vars} variables, {len(cnf.clauses)} clauses + {len(extra)} {args.add}")
    return cnf, extra, "; ".join(said)


def learned_clauses(puzzle, cnf, seconds: float) -> list[list[int]]:
    """The native CDCL search's learned clauses (disjunctions of "cell has colour") after `seconds` from the
    probed root, as clauses over `cnf`'s cell literals. Implied by the clues: collected before any solution
    (after one, the search's clauses may rest on that solution's blocking clause)."""
    from nonocp.core.errors import OutOfTime
    from nonocp.encode.cnf import TRUE
    from nonocp.engines.native import core
    from nonocp.engines.native.cdcl import cdcl_enumerate
    from nonocp.engines.native.reference_cdcl import AUDIT_LEARN

    ncol = len(puzzle.palette)
    c = core.core_for(puzzle)
    if c.propagate() < 0 or not c.probe()[0]:
        return []
    learned: list[tuple[int, ...]] = []
    found: list = []
    c.deadline = time.monotonic() + seconds
    with contextlib.suppress(OutOfTime):
        cdcl_enumerate(c, 1, found, audit=lambda kind, *a: learned.append(a[0]) if kind == AUDIT_LEARN and not found
                       else None)
    out = []
    for clause in learned:
        lits = [cnf.cell_literals[v // ncol][v % ncol] for v in clause]
        if TRUE not in lits:
            out.append([x for x in lits if x != -TRUE])
    return out


def first_solutions(args: argparse.Namespace) -> int:
    """`--first`: per puzzle, the first solution of one formula variant, then the guided second."""
    import itertools
    import multiprocessing

    from pysat.solvers import Solver

    from nonocp.encode.cnf import TRUE
    from nonocp.formats import load

    name, _, opts = args.first.partition(":")
    config = {k: int(v) for k, v in (kv.split("=") for kv in opts.split(",") if kv)}
    for tag in args.only.split(","):
        puzzle = load(os.path.join(CORPUS, "webpbn-survey", HARD[tag]))[0]
        cnf, extra, said = formula(puzzle, args)
        n = cnf.n_vars

        def rename(x: int, n: int = n) -> int:  # reversed: the formula's variables 1..n backwards (extra ones stay)
            if args.order == "natural" or abs(x) > n:
                return x
            return (n + 1 - abs(x)) * (1 if x > 0 else -1)

        clauses = [[rename(x) for x in c] for c in itertools.chain(cnf.clauses, extra)]

        phases = belief_phases(puzzle, cnf, rename) if args.phases == "beliefs" else []

        def first(send, clauses=clauses, phases=phases):
            solver = Solver(name=name, bootstrap_with=clauses)
            if config:
                solver.configure(config)
            if phases:
                solver.set_phases(phases)
            send.send(solver.get_model() if solver.solve() else None)

        print(f"{tag}: {said}; {args.first}, order {args.order}, phases {args.phases}"
              f" (load {os.getloadavg()[0]:.2f})", flush=True)
        receive, send = multiprocessing.Pipe(duplex=False)
        child = multiprocessing.get_context("fork").Process(target=first, args=(send,))
        t, c = time.perf_counter(), children_cpu()
        child.start()
        model = receive.recv() if receive.poll(args.cap) else "cap"
        child.kill()
        child.join()
        wall, cpu = time.perf_counter() - t, children_cpu() - c
        if model == "cap":
            print(f"  first: none within {args.cap:g} s (CPU {cpu:.1f} s)", flush=True)
            continue
        if model is None:
            print(f"  first: no solution, {wall:.1f} s", flush=True)
            continue
        value = {abs(x): x > 0 for x in model}
        grid = cnf.decode([v if value.get(rename(v), False) else -v for v in range(1, n + 1)])
        assert puzzle.is_solution(grid), "a model that is not a solution"
        print(f"  first: {wall:.1f} s wall, {cpu:.1f} s CPU (verified)", flush=True)
        t = time.perf_counter()
        follow = Solver(name="cadical195", bootstrap_with=itertools.chain(cnf.clauses, [cnf.blocking_clause(grid)]))
        follow.set_phases([x if k == v else -x for lits, v in zip(cnf.cell_literals, (c for row in grid.cells
                           for c in row), strict=True) for k, x in enumerate(lits) if abs(x) != TRUE])
        again = follow.solve()
        conflicts = follow.accum_stats().get("conflicts")
        print(f"  second (CaDiCaL, guided): {'found' if again else 'none: unique'} in {time.perf_counter() - t:.2f} s,"
              f" {conflicts} conflicts", flush=True)
    return 0


def belief_phases(puzzle, cnf, rename) -> list[int]:
    """Per open cell, the literal of its most likely colour (root line logic and probing, then beliefs)."""
    from nonocp.encode.cnf import TRUE
    from nonocp.engines.native import propagate_and_probe
    from nonocp.engines.native.belief import likely_colours

    masks, _, _ = propagate_and_probe(puzzle, probe=True)
    likely = likely_colours(puzzle.rows, puzzle.cols, len(puzzle.palette), masks)
    return [rename(lits[k]) for lits, k in zip(cnf.cell_literals, likely, strict=True)
            if k >= 0 and abs(lits[k]) != TRUE]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first", metavar="SOLVER", help="the first-solution experiment with this pysat solver")
    ap.add_argument("--fixed", choices=("none", "logic", "probe"), default="none")
    ap.add_argument("--encoding", default="blocks")
    ap.add_argument("--add", choices=("none", "cardinality", "learned"), default="none")
    ap.add_argument("--native", type=float, default=15.0, help="seconds of native CDCL for --add learned")
    ap.add_argument("--order", choices=("natural", "reversed"), default="natural")
    ap.add_argument("--phases", choices=("solver", "beliefs"), default="solver")
    ap.add_argument("--cap", type=float, default=150.0)
    ap.add_argument("--before", help="the baseline checkout (its src/ is imported)")
    ap.add_argument("--after", default=AFTER, help="the checkout measured (default: this one)")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--only", default=",".join(HARD), help="comma-separated: knotty,faase,meow")
    ap.add_argument("--burners", type=int, default=0, help="CPU-bound processes running beside the runs")
    args, extra = ap.parse_known_args(argv)
    if args.first:
        return first_solutions(args)
    if not args.before:
        ap.error("--before is needed (or --first)")
    extra = [x for x in extra if x != "--"]
    trees = {"before": args.before, "after": args.after}
    print(f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; nonocp solve FILE -f json {' '.join(extra)}; "
          f"{args.burners} CPU-bound processes beside", flush=True)
    burners = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.burners)]
    try:
        return compare(args, trees, extra)
    finally:
        for b in burners:
            b.kill()
            b.wait()


def compare(args: argparse.Namespace, trees: dict[str, str], extra: list[str]) -> int:
    rows: dict[tuple[str, str], list[dict]] = {}
    for r in range(args.runs):
        for name in args.only.split(","):
            path = os.path.join(CORPUS, "webpbn-survey", HARD[name])
            for which in (("before", "after") if r % 2 == 0 else ("after", "before")):
                row = solve_once(trees[which], path, extra)
                rows.setdefault((name, which), []).append(row)
                print(f"  {name} {which}: {row['status']} wall {row['wall']:.1f} s, CPU {row['cpu']:.1f} s, "
                      f"{row.get('decided_by')} (load {os.getloadavg()[0]:.2f})", flush=True)
    print("\n| puzzle | checkout | verdicts | wall s (runs) | CPU s (runs) | decided by |")
    print("|---|---|---|---|---|---|")
    for (name, which), each in rows.items():
        walls = ", ".join(f"{x['wall']:.1f}" for x in each)
        cpus = ", ".join(f"{x['cpu']:.1f}" for x in each)
        median = f" (median {statistics.median(x['wall'] for x in each):.1f})" if len(each) > 1 else ""
        ok = "" if all(x.get("verified") for x in each) else " GRIDS NOT VERIFIED"
        print(f"| {name} | {which} | {', '.join(str(x['status']) for x in each)}{ok} | {walls}{median} | {cpus} | "
              f"{'; '.join(sorted({str(x.get('decided_by')) for x in each}))} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
