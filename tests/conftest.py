"""Shared fixtures: where the corpus is, which engines the tests run (`--backend`), how deep the random tests go,
and a clock for the tests of the hard time limit."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # tests/oracle.py, tests/strategies.py

from engines import ENGINES  # noqa: E402
from nonocp.core.errors import BackendUnavailable  # noqa: E402
from nonocp.engines import BACKENDS, get_backend, names  # noqa: E402

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


# ---- the engines: `pytest --backend cpsat` runs the engine-parametrised tests with cpsat alone -----------


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend", action="append", default=[], metavar="NAME[,NAME...]",
        help="engines for the engine-parametrised tests (repeatable; default: tests/engines.py ENGINES)",
    )


def pytest_configure(config: pytest.Config) -> None:
    selected_engines(config)  # an unknown --backend is a usage error before any test runs
    # A run started as a background job ignores Ctrl-C (the shell's rule for jobs without job control), and
    # every command a test starts would inherit that: the tests that send Ctrl-C to a command would wait for
    # an answer that never comes. The commands get Python's usual Ctrl-C, as from a terminal.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def selected_engines(config: pytest.Config) -> list[str]:
    """The engines named by --backend (in order, each once), else tests/engines.py ENGINES."""
    given = [n.strip() for spec in config.getoption("backend") for n in spec.split(",") if n.strip()]
    unknown = [n for n in given if n.partition(":")[0] not in BACKENDS]
    if unknown:
        raise pytest.UsageError(f"--backend: unknown engine {unknown[0]!r}; choose from {', '.join(BACKENDS)}")
    return list(dict.fromkeys(given)) or list(ENGINES)


def unavailable(name: str) -> str | None:
    """Why engine `name` cannot run here, or None when it can."""
    try:
        get_backend(name)
    except BackendUnavailable as e:
        return str(e)
    return None


def _params(engines: list[str]) -> list:
    out = []
    for name in engines:
        why = unavailable(name)
        marks = [pytest.mark.skip(reason=f"engine {name} not available: {why}")] if why else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # A test that takes `engine_name` (or the `engine` fixture, which takes it) runs once per selected
    # engine, skipped where the engine is not available. Session scope: `engine` is made once per engine,
    # and hypothesis tests may take it (it is not a function-scoped fixture).
    if "engine_name" in metafunc.fixturenames:
        metafunc.parametrize("engine_name", _params(selected_engines(metafunc.config)), scope="session")
    # tests/test_contract.py: every registered engine, oracles included (or those named by --backend)
    if "registered_engine" in metafunc.fixturenames:
        chosen = selected_engines(metafunc.config) if metafunc.config.getoption("backend") else names()
        metafunc.parametrize("registered_engine", _params(chosen), scope="session")


@pytest.fixture(scope="session")
def engine(engine_name: str):
    """The backend called `engine_name` (one of the selected engines; see pytest_generate_tests)."""
    return get_backend(engine_name)


def backend_or_skip(name: str):
    """The backend called `name`, or skip the test saying why it is not available (for tests of one engine's
    variants; engine-parametrised tests take the `engine` fixture instead)."""
    why = unavailable(name)
    if why:
        pytest.skip(f"engine {name} not available: {why}")
    return get_backend(name)


# ---- a clock for the hard time limit (nonocp.engines.forked) --------------------------------------------


class StuckClock:
    """Stands in for the clock of nonocp.engines.forked in the caller: it runs as the real one until every
    child that is to get stuck has said so (`stuck()`, called in the child just before it stops answering)
    and the caller has read everything those children sent before; then it jumps past every deadline.

    So a test of "killed at the deadline, keeping what was sent" needs no real deadline of seconds (a
    loaded machine can stall a child for seconds before its first message), and cannot pass by accident:
    the deadline comes exactly when the child is stuck, never before it has sent what it had.
    """

    JUMP = 1e6  # seconds: past any deadline a test sets

    def __init__(self, folder: Path, children: int) -> None:
        self.folder = folder
        self.children = children
        self.jumped = False
        self._select = None

    def stuck(self) -> None:
        """Called in a child: it is about to stop answering (and never checks the clock)."""
        (self.folder / f"stuck-{os.getpid()}").touch()

    def monotonic(self) -> float:
        return time.monotonic() + (self.JUMP if self.jumped else 0.0)

    def select(self, rlist, wlist, xlist, timeout=None):
        # wait in short slices, so that the jump is seen soon after the children are stuck
        slice_ = 0.02 if timeout is None else min(timeout, 0.02)
        ready = self._select(rlist, wlist, xlist, slice_)
        # nothing left to read and every child stuck: what they sent before is in, so the deadline may pass
        if not ready[0] and len(list(self.folder.glob("stuck-*"))) >= self.children:
            self.jumped = True
        return ready


@pytest.fixture
def stuck_clock(monkeypatch, tmp_path):
    """A factory: `stuck_clock(children=1)` puts a StuckClock in place of forked's clock and select."""
    import select
    import types

    import nonocp.engines.forked as forked

    def install(children: int = 1) -> StuckClock:
        folder = tmp_path / "stuck-clock"
        folder.mkdir(exist_ok=True)
        clock = StuckClock(folder, children)
        clock._select = select.select
        monkeypatch.setattr(forked, "time", types.SimpleNamespace(monotonic=clock.monotonic))
        monkeypatch.setattr(forked, "select", types.SimpleNamespace(select=clock.select))
        return clock

    return install
