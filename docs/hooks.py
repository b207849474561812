"""MkDocs hooks for the documentation site (mkdocs.yml names this file; it is not a page).

- Docstring examples (`>>>` lines, as the doctests run them) are shown as Python console code, not prose.
- Pictures the pages take from the repository outside docs/ (`../puzzles/design/bicycle.png`: the design
  example's input, which the tests also read) are copied into the site, so one file serves both.
"""

from __future__ import annotations

import re
from pathlib import Path

from markdown import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
PICTURE = re.compile(r"\]\(\.\./([\w./-]+\.(?:png|svg|jpg|gif))\)")
OUTSIDE = "repository"  # where those pictures land in the site


class _DoctestAsCode(Preprocessor):
    """Fence every run of lines that starts with `>>>` (up to a blank line) as a `pycon` block."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        fenced = False
        for line in lines:
            stripped = line.lstrip()
            if not fenced and stripped.startswith(">>>"):
                out += ["", "```pycon"]
                fenced = True
            elif fenced and not stripped:
                out.append("```")
                fenced = False
            out.append(line.strip() if fenced else line)
        if fenced:
            out.append("```")
        return out


class DoctestExtension(Extension):
    def extendMarkdown(self, md):  # noqa: N802 (Markdown's name)
        # before the fenced-code preprocessor (priority 25), so that the fence is read as one
        md.preprocessors.register(_DoctestAsCode(md), "nonocp_doctest", 30)


def on_config(config, **kwargs):
    config.markdown_extensions.append(DoctestExtension())
    return config


def on_files(files, config, **kwargs):
    docs = Path(config.docs_dir)
    for page in docs.glob("*.md"):
        for target in PICTURE.findall(page.read_text(encoding="utf-8")):
            if files.get_file_from_path(f"{OUTSIDE}/{target}") is None and (ROOT / target).is_file():
                files.append(File.generated(config, f"{OUTSIDE}/{target}", abs_src_path=str(ROOT / target)))
    return files


def on_page_markdown(markdown, page, config, files, **kwargs):
    return PICTURE.sub(lambda m: f"]({OUTSIDE}/{m.group(1)})", markdown)
