"""The package's layers, and that imports run one way: down the layers, never up, never in a cycle.

A module may import from its own layer and the layers below it. Above the engines, only their public
modules may be imported (the registry, the contract, and each engine package's `__init__`): nothing above
reaches into an engine's internals.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "nonocp"

# lowest first; a folder not listed here fails the test until it is given a layer
LAYERS: list[set[str]] = [
    {"core"},
    {"encode"},
    {"engines"},
    {"formats", "analysis", "design"},
    {"batch", "render", "web"},
    {"cli", "api"},
]
# what a module above the engines may import from them
ENGINE_PUBLIC = ("nonocp.engines", "nonocp.engines.contract", "nonocp.engines.solve", "nonocp.engines.native")


def _layer_of(package: str) -> int | None:
    for i, names in enumerate(LAYERS):
        if package in names:
            return i
    return None


def _modules() -> dict[str, Path]:
    out = {}
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(path: Path) -> list[str]:
    """Every nonocp module this file imports (at any depth: lazy imports inside functions count too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("nonocp")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("nonocp") and not node.level:
            found.append(node.module)
    return found


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def test_every_folder_has_a_layer():
    folders = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    unlisted = sorted(f for f in folders if _layer_of(f) is None)
    assert not unlisted, f"give these packages a layer in tests/test_layers.py: {unlisted}"


def test_imports_run_down_the_layers():
    bad = []
    for module, path in _modules().items():
        here = _package(module)
        if here is None or here.startswith("__"):
            continue  # nonocp/__init__.py and __main__ are the public facade: they may reach anything
        mine = _layer_of(here)
        if mine is None:
            continue
        for target in _imports(path):
            there = _package(target)
            if there is None or there == here:
                continue
            theirs = _layer_of(there)
            if theirs is not None and theirs > mine:
                bad.append(f"{module} ({here}) imports {target} ({there}, a higher layer)")
    assert not bad, "\n".join(bad)


def test_nothing_above_the_engines_reaches_into_them():
    engines = _layer_of("engines")
    bad = []
    for module, path in _modules().items():
        here = _package(module)
        if here is None or (_layer_of(here) or 0) <= engines:
            continue
        for target in _imports(path):
            if _package(target) == "engines" and target not in ENGINE_PUBLIC:
                bad.append(f"{module} imports {target}")
    assert not bad, "\n".join(bad)


def test_no_import_cycles_between_packages():
    graph: dict[str, set[str]] = {}
    for module, path in _modules().items():
        here = _package(module)
        if here is None or here.startswith("__"):
            continue
        for target in _imports(path):
            there = _package(target)
            if there and there != here and not there.startswith("__"):
                graph.setdefault(here, set()).add(there)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and (seen.add(nxt) or reaches(nxt, goal, seen))):
                return True
        return False

    cycles = sorted(p for p in graph if reaches(p, p, set()))
    assert not cycles, f"packages in an import cycle: {cycles}"


def test_no_import_cycles_between_modules():
    """No module imports one that imports it back, directly or around a loop (lazy imports inside functions
    count: they are the same dependency, taken later). `from package import module` is that module; a
    compiled module counts by its stub (.pyi)."""
    modules = _modules()
    for stub in SRC.rglob("*.pyi"):
        modules[".".join(stub.relative_to(SRC.parent).with_suffix("").parts)] = stub
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        if path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                         for a in node.names]
            for name in names:
                while name and name not in modules:
                    name = name.rpartition(".")[0]
                if name and name != module and name.startswith("nonocp"):
                    graph.setdefault(module, set()).add(name)

    def loop_through(start: str) -> list[str] | None:
        stack, seen = [(start, [start])], {start}
        while stack:
            here, path = stack.pop()
            for nxt in sorted(graph.get(here, ())):
                if nxt == start:
                    return path + [start]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, path + [nxt]))
        return None

    loops = [loop for m in sorted(graph) if (loop := loop_through(m))]
    assert not loops, "import cycles:\n" + "\n".join(" -> ".join(loop) for loop in loops[:10])
