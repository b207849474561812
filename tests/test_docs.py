"""The README and docs/ say what the program does: their examples run here, their links lead somewhere, and the
documentation site builds without a warning.

The conventions (docs/development.md, "Examples in the docs"):
- `$ nonocp ARGS` in a fenced block runs (from a scratch folder that sees the project's `puzzles/`); the lines
  up to the next `$ ` line or the end of the block are what it prints (stdout, then stderr). Timings are
  normalised, trailing spaces ignored; a line starting with `...` stands for any number of lines (the rest of
  it is a comment for the reader), a line ending with `...` for any line that starts with what comes before.
  `# exit N` at the end of the `$` line: the exit code must be N (else it is not checked).
- `nonocp ARGS` in a ```sh block (a command to type, without its output) is parsed by the real command line:
  every option and value must be accepted; and each line of a ```sh block runs through the shell, from the
  same scratch folder, and must succeed (exit 0, or as its `# exit N` says; a line ending in `echo $?` must
  print the code its comment starts with), unless NOT_RUN says why it cannot run here.
- `<!-- output of: nonocp ARGS -->` just before a plain fenced block: the block is what that command prints
  (matched as a `$` example is), for output shown apart from its command (the README's first one).
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


def _sh_blocks():
    """(page name, first line, lines) of every ```sh block of the pages."""
    for page in PAGES:
        for lang, first, lines in _blocks(page):
            if lang == "sh":
                yield str(page.relative_to(ROOT)), first, lines


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
    for name, first, lines in _sh_blocks():
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


OUTPUT_OF = re.compile(r"<!-- output of: (nonocp [^\n]*?) -->\n```\n(.*?)^```", re.S | re.M)


def shown_outputs() -> list[Example]:
    """Each `<!-- output of: nonocp ARGS -->` block, as an Example of that command."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in OUTPUT_OF.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append(Example(str(page.relative_to(ROOT)), line, shlex.split(m.group(1))[1:],
                               m.group(2).splitlines(), None))
    return out


# Lines of ```sh blocks that are not run here, by what they start with, and why.
NOT_RUN = {
    "python3 -m venv": "sets up a machine: .ci/run does it on a fresh one",
    ".venv/bin/python -m pytest": "the test suite itself",
    ".venv/bin/dask": "starts a Dask scheduler or worker (tests/test_cluster.py starts its own)",
    "nonocp bench archive/": "archive/ stands for the reader's folder of puzzles (tests/test_bench.py resumes)",
    "nonocp check new-puzzles/": "new-puzzles/ and the cluster stand for the reader's (tests/test_cluster.py)",
    "nonocp serve": "starts a server that runs until stopped (tests/test_web_*.py)",
    "curl ": "asks a running server (tests/test_web_api.py asks the same)",
    "http://127.0.0.1": "the rest of a curl command",
    "'http://127.0.0.1": "the rest of a curl command",
}
NOT_RUN_WITH = {"--interactive": "needs a person at a terminal (tests/test_explain_interactive.py)"}


def shell_lines() -> list[tuple[str, str]]:
    """(where, line) for each line of a ```sh block that runs here (continuation lines joined)."""
    out = []
    for name, first, lines in _sh_blocks():
        joined: list[tuple[int, str]] = []
        for i, line in enumerate(lines):
            if joined and joined[-1][1].endswith("\\"):
                joined[-1] = (joined[-1][0], joined[-1][1][:-1] + " " + line.strip())
            else:
                joined.append((first + i, line))
        for number, line in joined:
            command = line.strip()
            if not command or any(command.startswith(s) for s in NOT_RUN) or \
                    any(word in command.split("#", 1)[0] for word in NOT_RUN_WITH):
                continue
            out.append((f"{name}:{number}", command))
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


@pytest.mark.parametrize("example", shown_outputs(), ids=str)
def test_an_output_shown_apart_from_its_command_is_what_it_prints(example: Example, tmp_path):
    test_an_example_prints_what_the_docs_say(example, tmp_path)


@pytest.mark.parametrize("where,line", shell_lines(), ids=[w for w, _ in shell_lines()])
def test_a_shell_example_runs(where, line, tmp_path):
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    bin_dir = str(Path(sys.executable).parent)  # `nonocp` is this environment's
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb",
           "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    p = subprocess.run(["bash", "-o", "pipefail", "-c", line], capture_output=True, text=True, cwd=tmp_path,
                       env=env, stdin=subprocess.DEVNULL)
    assert "Traceback" not in p.stderr, f"{where}: {line}\n{p.stderr}"
    code = EXIT.search(line)
    assert p.returncode == (int(code.group(1)) if code else 0), f"{where}: {line}: exit {p.returncode}\n{p.stderr}"
    if "echo $?" in line:  # `...; echo $?      # 1: no solution`: the code printed is the comment's
        said = re.search(r"#\s*(\d+)", line.split("echo $?", 1)[1])
        assert said and p.stdout.splitlines()[-1] == said.group(1), f"{where}: printed {p.stdout[-200:]!r}"


def test_every_shell_line_runs_or_says_why_not():
    run = {line for _, line in shell_lines()}
    for page in PAGES:
        for lang, first, lines in _blocks(page):
            for i, line in enumerate(lines):
                command = line.strip()
                if lang != "sh" or not command or command in run or lines[i - 1].rstrip().endswith("\\"):
                    continue
                assert any(command.startswith(s) for s in NOT_RUN) or any(w in command for w in NOT_RUN_WITH), \
                    f"{page.name}:{first + i}: {command}"
    assert len(run) >= 15 and len(shown_outputs()) >= 1


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
