"""What the machine was doing during a benchmark: the split of all CPU time from /proc/stat.

Why: on the shared 2-core VM where these figures are taken, the hypervisor takes a large and varying
share of the CPU ("steal": 26% of all CPU time in one 10 s sample on 2026-11-26, with the same pure-Python
loop timing 1.5 us or 12 us depending on the moment). Even process CPU time is inflated then, so each
benchmark prints the split next to its figures, and a reader can tell a quiet run from a stolen one.
"""

from __future__ import annotations

_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def _read() -> list[int] | None:
    try:
        with open("/proc/stat", encoding="ascii") as f:
            parts = f.readline().split()
    except OSError:
        return None
    if not parts or parts[0] != "cpu" or len(parts) < 9:
        return None
    return [int(x) for x in parts[1:9]]


class CpuSplit:
    """Start on construction; `report()` gives the split of all cores' time since then, in percent."""

    def __init__(self) -> None:
        self.start = _read()

    def report(self) -> str:
        end = _read()
        if self.start is None or end is None:
            return "CPU split: /proc/stat not available"
        delta = [b - a for a, b in zip(self.start, end, strict=True)]
        total = sum(delta) or 1
        busy = delta[0] + delta[1] + delta[2] + delta[5] + delta[6]
        return (f"CPU split over the run (all cores): busy {100 * busy / total:.0f}%, "
                f"idle {100 * (delta[3] + delta[4]) / total:.0f}%, stolen by the hypervisor "
                f"{100 * delta[7] / total:.0f}%")


def cpu_seconds() -> float:
    """CPU time of this process plus its finished children: the sat engine runs a solve with a time limit
    in a forked child (nonocp.engines.forked), whose CPU time.process_time() alone would miss."""
    import resource
    import time

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime
