"""Shared fixtures: where the corpus is, and which engines exist here."""

from __future__ import annotations

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
