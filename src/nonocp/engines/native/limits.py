"""The native engine's time limit: the exception both cores raise when their deadline passes."""

from __future__ import annotations


class Timeout(Exception):
    """Raised inside the engine when the deadline passes; the backend turns it into status `timeout`."""


__all__ = ["Timeout"]
