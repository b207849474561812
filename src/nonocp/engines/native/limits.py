"""The native engine's time limit: the exception both cores raise when their deadline passes."""

from __future__ import annotations

from nonocp.core.errors import OutOfTime

# raised inside the engine when the deadline or the budget passes; the backend turns it into status `timeout`
Timeout = OutOfTime

__all__ = ["Timeout"]
