"""The JSON every command prints with `--format json`, as JSON Schemas (draft 2020-12): one object per line,
one schema per command. docs/contract.md ("JSON output") describes the same fields for people; the tests validate
every command's real output against these.

    >>> from nonocp.cli.schemas import SCHEMAS
    >>> sorted(SCHEMAS)
    ['backends', 'bench', 'check', 'convert', 'explain', 'rate', 'show', 'solve']

Fields may be added in later versions (objects allow extra properties); a field is never removed or
changed in meaning without a new `format` version.
"""

from __future__ import annotations

from typing import Any

_STR = {"type": "string"}
_INT = {"type": "integer", "minimum": 0}
_NUM = {"type": "number", "minimum": 0}
_BOOL = {"type": "boolean"}
_NULL = {"type": "null"}


def _obj(required: dict[str, Any], optional: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "required": list(required), "properties": {**required, **(optional or {})}, **extra}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, _NULL]}


_WHERE = {
    "file": {**_STR, "description": "the file the puzzle came from (`<stdin>` for standard input)"},
    "index": {"type": "integer", "minimum": 1, "description": "the puzzle's position in its file (bundles)"},
}
# A file that could not be read, in the commands that go on with the others (solve).
_INPUT_ERROR = _obj({"file": _STR, "index": {"const": 0}, "error": _STR}, additionalProperties=False)

_COLORS = {
    "type": "object",
    "description": "symbol -> #rrggbb for every colour, the background (`0` or `.`) included",
    "additionalProperties": {"type": "string", "pattern": "^#[0-9a-f]{6}$"},
}
_GRID = {"type": "array", "items": _STR, "description": "rows of the grid, one symbol per cell (keys of colors)"}
_PUZZLE = _obj({"title": _STR, "width": {"type": "integer", "minimum": 1},
                "height": {"type": "integer", "minimum": 1}, "colors": _COLORS})
_STATUS = {"enum": ["unique", "multiple", "none", "solved", "timeout"]}

_BACKBONE = _obj({
    "status": {"enum": ["unique", "multiple", "none", "timeout"]},
    "exact": {**_BOOL, "description": "false when the time ran out: undecided cells are marked too"},
    "fixed_cells": _INT,
    "ambiguous_cells": _INT,
    "rows": _nullable({"type": "array", "items": _STR, "description": "`?` for cells that differ"}),
    "ambiguous": {"type": "array", "items": _obj({"row": _INT, "col": _INT,
                                                  "colors": {"type": "array", "items": _STR}})},
    "queries": _INT,
    "seconds": _NUM,
})

SOLVE = {
    "oneOf": [
        _obj(
            {
                **_WHERE,
                "puzzle": _PUZZLE,
                "backend": {**_STR, "description": "the engine asked (`auto`, `sat:glucose4`, ...)"},
                "decided_by": {**_STR, "description": "the engine or stage that reached the verdict"},
                "status": _STATUS,
                "exhaustive": {**_BOOL, "description": "the search finished: `solutions` lists every solution"},
                "stopped": {"enum": ["exhausted", "limit", "timeout"],
                            "description": "why the search ended: exhausted; limit (the solutions asked for were "
                            "found, others may exist); timeout (the time limit cut it short: exit 3, even when "
                            "the status is multiple)"},
                "count": {**_nullable(_INT), "description": "the exact number of solutions when exhaustive"},
                "solutions": {"type": "array", "items": _GRID},
                "seconds": _NUM,
                "stats": {"type": "object", "description": "engine statistics (engine-specific)"},
            },
            {"backbone": _BACKBONE,
             "proof": _obj({"cnf": _STR, "proof": _nullable(_STR), "format": _STR})},
        ),
        _INPUT_ERROR,
    ]
}

SHOW = _obj({
    **_WHERE,
    "title": _STR, "author": _STR, "copyright": _STR, "license": _STR, "source": _STR,
    "notes": {**_STR, "description": "free text from the file (the game's `hint`), empty when none"},
    "width": {"type": "integer", "minimum": 1},
    "height": {"type": "integer", "minimum": 1},
    "colors": _COLORS,
    "color_names": {"type": "object", "additionalProperties": _STR},
    "rows": {"type": "array", "items": {"type": "array", "items": _STR}, "description": "clue tokens: 3, 2r"},
    "cols": {"type": "array", "items": {"type": "array", "items": _STR}},
    "goal": {**_nullable(_GRID), "description": "null without a goal, or with --no-goal"},
    "has_goal": _BOOL,
    "no_solution": {**_nullable(_STR), "description": "why counting alone proves there is no solution"},
})

CONVERT = _obj({"source": _STR, "target": _STR, "format": _STR, "puzzles": {"type": "integer", "minimum": 1}})

BACKENDS = _obj({"name": _STR, "available": _BOOL, "version": _STR, "note": _STR})

_ENGINE_RUN = _obj({
    "engine": _STR,
    "status": {"enum": ["unique", "multiple", "none", "solved", "timeout", "unavailable", "error"]},
    "seconds": _NUM,
    "solutions": _INT,
    "exhausted": _BOOL,
    "solutions_ok": _BOOL,
    "message": _STR,
})
CHECK = _obj({
    **_WHERE,
    "puzzle": {**_STR, "description": "file (puzzle n) [title]"},
    "agree": _BOOL,
    "deciders": {**_INT, "description": "engines that reached a verdict"},
    "proven_multiple": _BOOL,
    "verdict": {"enum": ["unique", "multiple", "none", "timeout", "disagree"]},
    "solutions": {**_nullable(_INT), "description": "the exact count, when an engine enumerated them all"},
    "engines": {"type": "array", "items": _ENGINE_RUN},
    "disagreements": {"type": "array", "items": _obj({"kind": _STR, "engines": {"type": "array", "items": _STR},
                                                      "detail": _STR})},
})

BENCH = _obj({
    "file": _STR,
    "index": _INT,
    "engine": {**_STR, "description": "empty for a file that could not be read"},
    "verdict": {"enum": ["unique", "multiple", "none", "solved", "timeout", "error"]},
    "title": _STR,
    "width": _nullable(_INT),
    "height": _nullable(_INT),
    "colors": _nullable(_INT),
    "solutions": _INT,
    "seconds": _nullable(_NUM),
    "stats": {"type": "object"},
    "error": _STR,
    "ratio": {**_nullable(_NUM), "description": "seconds / the first engine's seconds on the same puzzle"},
})

EXPLAIN = _obj({
    **_WHERE,
    "format": _STR,
    "puzzle": _PUZZLE,
    "outcome": {"enum": ["solved", "no-solution", "truncated", "timeout"]},
    "status": _nullable({"enum": ["unique", "multiple", "none"]}),
    "solution": _nullable(_GRID),
    "seconds": _NUM,
    "counts": _obj({"steps": _INT}),
    "steps": {"type": "array", "items": _obj({"n": {"type": "integer", "minimum": 1}, "kind": _STR, "text": _STR}),
              "description": "one object per step; fields in nonocp.analysis.explain"},
})

RATE = {
    "oneOf": [
        _obj({
            "file": _STR, "index": {"type": "integer", "minimum": 1}, "title": _STR, "error": _NULL, "size": _STR,
            "verdict": {"enum": ["LINE", "PROBE", "BRANCH", "MULTIPLE", "NONE", "UNKNOWN"]},
            "status": _nullable(_STR), "steps": _INT, "line_steps": _INT, "probes": _INT, "probe_trials": _INT,
            "guesses": _INT, "backtracks": _INT, "depth": _INT, "stalled_unknown": _nullable(_INT),
            "seconds": _NUM, "summary": _STR,
        }),
        _obj({"file": _STR, "index": _INT, "title": _NULL, "error": _STR}),
    ]
}

SCHEMAS: dict[str, dict[str, Any]] = {
    "solve": SOLVE, "show": SHOW, "convert": CONVERT, "backends": BACKENDS, "check": CHECK, "bench": BENCH,
    "explain": EXPLAIN, "rate": RATE,
}
for _name, _schema in SCHEMAS.items():
    _schema.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
    _schema.setdefault("title", f"nonocp {_name} --format json (one object per line)")
