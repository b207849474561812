"""Shared fixtures: where the corpus is, and which engines exist here."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # tests/oracle.py, tests/strategies.py

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
PUZZLES = ROOT / "puzzles"


def corpus_path(*parts: str) -> Path:
    """A corpus path, or skip the test with the reason when the corpus is not beside the project."""
    p = CORPUS.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"corpus not available: {p} is absent (../shared/corpus beside the project)")
    return p


# How deep the randomised tests go. CI machines here are slow (a Python loop runs 5-10x slower than on a
# laptop), so the default run uses a quarter of each property test's examples; `NONOCP_TEST_DEPTH=full`
# runs them all (and `-m slow` adds the corpus-wide tests), as before a release.
FULL_DEPTH = os.environ.get("NONOCP_TEST_DEPTH", "quick") == "full"


def examples(n: int) -> int:
    """The number of hypothesis examples for a test written for `n` (scaled down in quick runs)."""
    return n if FULL_DEPTH else max(5, n // 4)
