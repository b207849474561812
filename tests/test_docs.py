"""The README and docs/ say what the program does: their examples run here, their links lead somewhere, and the
documentation site builds without a warning.

The conventions (docs/development.md, "Examples in the docs"):
- `$ nonocp ARGS` in a fenced block runs (from a scratch folder that sees the project's `puzzles/`); the lines
  up to the next `$ ` line or the end of the block are what it prints (stdout, then stderr). Timings are
  normalised, trailing spaces ignored; a line starting with `...` stands for any number of lines (the rest of
  it is a comment for the reader), a line ending with `...` for any line that starts with what comes before.
  `# exit N` at the end of the `$` line: the exit code must be N (else it is not checked).
- `nonocp ARGS` in a ```sh block (a command to type, without its output) is parsed by the real command line:
  every option and value must be accepted, nothing runs.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^([ \t]*)```(\w*)\n(.*?)^\1```", re.S | re.M)
# a timing as the commands print it: "0.005 s", "0.39 s", "seconds": 0.0003, a table's 0.016
EXIT = re.compile(r"#\s*exit\s+(\d+)\s*$")
TIMING = re.compile(r"\b\d+\.\d+(?= s\b)|(?<=\"seconds\": )\d+(\.\d+)?|(?<=│)\s+\d+\.\d{3}(?= │)")


@dataclass
class Example:
    page: str
    line: int
    args: list[str]
    expected: list[str]
    exit: int | None

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


def _blocks(page: Path):
    text = page.read_text(encoding="utf-8")
    for m in FENCE.finditer(text):
        indent, lang, body = m.groups()
        first = text.count("\n", 0, m.start(3)) + 1
        lines = [line[len(indent):] if line.startswith(indent) else line for line in body.splitlines()]
        yield lang, first, lines


def run_examples() -> list[Example]:
    out = []
    for page in PAGES:
        name = str(page.relative_to(ROOT))
        for _, first, lines in _blocks(page):
            current: Example | None = None
            for i, line in enumerate(lines):
                if line.startswith("$ "):
                    current = None
                    if line.startswith("$ nonocp "):
                        code = EXIT.search(line)
                        current = Example(name, first + i, shlex.split(line[2:], comments=True)[1:], [],
                                          int(code.group(1)) if code else None)
                        out.append(current)
                elif current is not None:
                    current.expected.append(line)
    return out


def typed_commands() -> list[tuple[str, list[str]]]:
    """Each `nonocp ...` command of a ```sh block, as its arguments (pipes, redirections and comments cut)."""
    out = []
    for page in PAGES:
        name = str(page.relative_to(ROOT))
        for lang, first, lines in _blocks(page):
            if lang != "sh":
                continue
            for i, line in enumerate(lines):
                if "nonocp" not in line.split("#", 1)[0]:
                    continue
                lex = shlex.shlex(line, posix=True, punctuation_chars=True)
                lex.whitespace_split, lex.commentors = True, "#"
                words = list(lex)
                for start, word in enumerate(words):
                    if word == "nonocp" and (start == 0 or words[start - 1] in ("|", ";", "&&")):
                        args = []
                        for w in words[start + 1:]:
                            if w in ("|", ";", "&&", ">", ">>", "<"):
                                break
                            args.append(w)
                        out.append((f"{name}:{first + i}", args))
    return out


def normalise(text: str) -> str:
    return TIMING.sub("T", text)


def matches(expected: list[str], printed: list[str]) -> bool:
    """The expected lines (with `...` wildcards) against what was printed, both normalised."""
    want = [normalise(line.rstrip()) for line in expected]
    got = [normalise(line.rstrip()) for line in printed]
    while want and not want[-1]:
        want.pop()
    while got and not got[-1]:
        got.pop()

    def match(i: int, j: int) -> bool:
        if i == len(want):
            return j == len(got)
        if want[i].startswith("..."):
            return any(match(i + 1, k) for k in range(j, len(got) + 1))
        if j == len(got):
            return False
        line = want[i]
        ok = got[j].startswith(line[:-3]) if line.endswith("...") else got[j] == line
        return ok and match(i + 1, j + 1)

    return match(0, 0)


EXAMPLES = run_examples()


def test_the_docs_have_examples_of_every_kind():
    assert len(EXAMPLES) >= 8 and len(typed_commands()) >= 20
    assert any(e.exit for e in EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_an_example_prints_what_the_docs_say(example: Example, tmp_path):
    # a scratch folder that sees the project's puzzles: examples that write files write them here
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    p = subprocess.run([sys.executable, "-m", "nonocp.cli", *example.args], capture_output=True, text=True,
                       cwd=tmp_path, env=env, stdin=subprocess.DEVNULL)
    printed = (p.stdout + p.stderr).splitlines()
    assert "Traceback" not in p.stderr
    if example.exit is not None:
        assert p.returncode == example.exit, f"{example}: exit {p.returncode}, the docs say {example.exit}"
    assert matches(example.expected, printed), (
        f"{example} says:\n" + "\n".join(example.expected) + "\n\nit printed:\n" + "\n".join(printed))


@pytest.mark.parametrize("where,args", typed_commands(), ids=[w for w, _ in typed_commands()])
def test_a_command_to_type_is_accepted_by_the_command_line(where, args):
    import click
    import typer

    from nonocp.cli.app import build_app

    group = typer.main.get_command(build_app(args))
    assert args and args[0] in group.commands, f"{where}: no command {args[:1]}"
    command = group.commands[args[0]]
    try:
        command.make_context(f"nonocp {args[0]}", list(args[1:]))
    except click.UsageError as e:
        pytest.fail(f"{where}: nonocp {shlex.join(args)}: {e.format_message()}")


def test_matching_skips_lines_and_normalises_timings():
    assert matches(["a [x, 0.000 s]", "...", "z"], ["a [x, 1.25 s]", "b", "c", "z  "])
    assert matches(["head...", "..."], ["heading", "more"])
    assert not matches(["a", "b"], ["a", "c"])
    assert not matches(["a"], ["a", "extra"])


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_every_relative_link_leads_to_a_file_of_the_repository():
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = target.split("#", 1)[0]
            if not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []


def test_the_readme_stays_a_front_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    # the two commands of a fresh machine open it, as the first two code blocks
    blocks = re.findall(r"```sh\n(.*?)```", readme, re.S)
    assert blocks[0].strip().startswith("python3 -m venv .venv && .venv/bin/pip install")
    assert blocks[1].strip() == ".venv/bin/python -m pytest"


def test_the_documentation_site_builds_without_a_warning(tmp_path):
    p = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                       capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr[-3000:]
    reference = (tmp_path / "site" / "reference" / "index.html").read_text(encoding="utf-8")
    assert "nonocp.solve" in reference and "max_solutions" in reference  # generated from the docstrings
