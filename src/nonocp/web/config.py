"""What the server allows: sizes, time limits, concurrency. One place, so that the API, its documentation
and the tests agree. Every limit is there so that the server can be left running safely: a request can
neither make it allocate without bound nor keep a core busy for ever."""

from __future__ import annotations

from dataclasses import dataclass, field

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class Limits:
    # request bodies: puzzle text and JSON; images for the designer's import may be larger
    max_body: int = 2 * 1024 * 1024
    max_image: int = 8 * 1024 * 1024
    # grids the page can draw as SVG and a worker can solve in seconds
    max_side: int = 200
    max_cells: int = 40_000
    max_colors: int = 32
    # solutions returned by one solve (enough to browse and to count small ambiguity)
    max_solutions: int = 100
    # seconds: the default and the most a request may ask for; a worker still running `kill_grace`
    # seconds after its limit is killed (engines stop themselves; the kill is for the ones that cannot)
    default_time_limit: float = 10.0
    max_time_limit: float = 30.0
    kill_grace: float = 1.0
    # worker processes running at once (the machine's cores), and requests allowed to wait for one
    max_running: int = 2
    max_waiting: int = 8
    # requests being read (parsed, checked, sized: in workers too, never on the event loop) at once, how
    # many may wait for that, and the CPU seconds reading one may take (a 2 MB body takes one or two)
    max_reading: int = 2
    max_reading_waiting: int = 16
    read_cpu_seconds: int = 10
    # address space of one worker (RLIMIT_AS): a solve that would need more fails alone, the machine stays up
    worker_memory: int | None = 4 * 1024**3


@dataclass(frozen=True)
class Settings:
    limits: Limits = field(default_factory=Limits)
    # Host headers accepted (DNS rebinding: a page elsewhere must not reach a loopback server through a
    # name that resolves to 127.0.0.1); None accepts any (a server bound to a public address).
    allowed_hosts: tuple[str, ...] | None = LOOPBACK_HOSTS
    # folder of shipped puzzles; None finds it (nonocp.web.puzzles)
    puzzles_dir: str | None = None
    # the functions workers run, by job name (tests swap one for a function that hangs)
    jobs: dict[str, object] = field(default_factory=dict)
    # start the worker processes' fork server when the app starts (the test client leaves it lazy)
    warm_workers: bool = True
