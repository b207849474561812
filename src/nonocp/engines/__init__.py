"""The engine registry. A backend is one module plus one line in BACKENDS.

Modules are imported lazily so that `nonocp show` never pays for importing ortools.
A name may carry a variant after a colon (`sat:glucose4`); the backend class receives it.
"""

from __future__ import annotations

import importlib

from nonocp.core.errors import BackendUnavailable
from nonocp.engines.contract import Backend, SolveOptions

# name -> "module:Class". Order is the order `nonocp backends` and `nonocp check` use.
BACKENDS: dict[str, str] = {
    "native": "nonocp.engines.native:NativeBackend",
    "cpsat": "nonocp.engines.cpsat:CpsatBackend",
    "sat": "nonocp.engines.sat:SatBackend",
    "auto": "nonocp.engines.auto:AutoBackend",  # hybrid: native line propagation, then SAT
}

# The engines that `check` compares by default: the independent ones (not hybrids).
INDEPENDENT = ("native", "cpsat", "sat")
# The default engine of `solve` and `bench`: the hybrid, faster overall than either of its parts on the
# survey set (benchmarks/README.md, "auto engine").
DEFAULT_BACKEND = "auto"


def get_backend(name: str) -> Backend:
    """The backend called `name` (or `name:variant`); BackendUnavailable if unknown or not installed."""
    base, _, variant = name.partition(":")
    target = BACKENDS.get(base)
    if target is None:
        raise BackendUnavailable(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
    module_name, _, cls_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise BackendUnavailable(f"backend {base!r} is not installed here ({e})") from None
    cls = getattr(module, cls_name, None)
    if cls is None:  # a half-written engine must not crash the command with a traceback
        raise BackendUnavailable(f"backend {base!r} is incomplete here (no {cls_name} in {module_name})")
    backend: Backend = cls(variant) if variant else cls()
    if not backend.available():
        raise BackendUnavailable(f"backend {name!r} is not available here")
    return backend


__all__ = ["BACKENDS", "DEFAULT_BACKEND", "INDEPENDENT", "Backend", "SolveOptions", "get_backend"]
