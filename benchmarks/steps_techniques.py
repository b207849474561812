"""Which named techniques `explain` uses on the survey's line-solvable puzzles (benchmarks/results/steps.md).

    python benchmarks/steps_techniques.py [FOLDER ...]    # default: the webpbn survey, free and restricted

A puzzle counts as line-solvable when line propagation alone (no probing, no guess) decides every cell.
For each: its line steps, the share of each technique among them (per cent), and the largest share; then
the totals. Prints a Markdown table.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

from nonocp.analysis.explain import explain
from nonocp.analysis.techniques import LINE_TECHNIQUES
from nonocp.engines.native import propagate_and_probe
from nonocp.formats import load

ROOT = Path(__file__).resolve().parent.parent
SURVEY = ROOT.parent / "shared" / "corpus" / "webpbn-survey"
SHORT = {"missing-colour": "miss", "overlap": "ovl", "out-of-reach": "reach", "gap-too-small": "gap",
         "split": "split", "join": "join", "pin": "pin", "crossing-check": "cross", "enumeration": "enum"}


def main() -> None:
    folders = [Path(a) for a in sys.argv[1:]] or [SURVEY / "free", SURVEY / "restricted"]
    files = sorted(f for folder in folders if folder.exists() for f in folder.iterdir() if f.suffix == ".txt")
    total: Counter[str] = Counter()
    cols = [t for t in LINE_TECHNIQUES if t != "crossing-check"]
    print("| puzzle | size | line steps | " + " | ".join(SHORT[t] for t in cols) + " | largest | seconds |")
    print("|---|---|---|" + "---|" * len(cols) + "---|---|")
    skipped = []
    for f in files:
        puzzle = load(str(f))[0]
        masks, contradiction, _ = propagate_and_probe(puzzle, probe=False)
        if contradiction or any(m & (m - 1) for m in masks):
            skipped.append(f.stem)
            continue
        t = time.process_time()
        ex = explain(puzzle)
        seconds = time.process_time() - t
        counts = Counter(s.technique for s in ex.steps if s.kind == "line")
        n = sum(counts.values())
        total += counts
        top, most = counts.most_common(1)[0]
        shares = " | ".join(f"{100 * counts[c] / n:.0f}" if counts[c] else "" for c in cols)
        print(f"| {f.stem[:34]} | {puzzle.width}x{puzzle.height} | {n} | {shares} | {SHORT[top]} "
              f"{100 * most / n:.0f}% | {seconds:.2f} |")
    n = sum(total.values())
    top, most = total.most_common(1)[0]
    shares = " | ".join(f"{100 * total[c] / n:.0f}" if total[c] else "" for c in cols)
    print(f"| **all** | | {n} | {shares} | {SHORT[top]} {100 * most / n:.0f}% | |")
    print(f"\nNot line-solvable (left out): {len(skipped)}: {', '.join(skipped)}")


if __name__ == "__main__":
    main()
