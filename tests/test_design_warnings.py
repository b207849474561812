"""`nonocp design` says when a black-and-white threshold threw the picture away and which colour count keeps
it, and `--trim` leaves out the empty border, through the real command line."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

from PIL import Image, ImageDraw

from conftest import PUZZLES, ROOT


def nonocp(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonocp.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"})


def night_photo(path, seed=4):
    """A photo-like JPEG (grain, soft hills, a bright moon) whose Otsu threshold keeps only the moon."""
    rng = random.Random(seed)
    w, h = 240, 160
    img = Image.new("L", (w, h), 30)
    d = ImageDraw.Draw(img)
    d.polygon([(0, h), (0, h - 30), (60, h - 45), (130, h - 25), (200, h - 40), (w, h - 30), (w, h)], fill=80)
    d.ellipse((150, 25, 194, 69), fill=240)
    px = img.load()
    for y in range(h):
        for x in range(w):
            px[x, y] = max(0, min(255, px[x, y] + rng.randint(-8, 8)))
    img.convert("RGB").save(path, quality=85)


def filled_share(goal: list[str]) -> float:
    cells = "".join(goal)
    return sum(c not in ".0" for c in cells) / len(cells)


def test_a_threshold_that_throws_the_picture_away_is_said_with_a_colour_count_that_keeps_it(tmp_path):
    photo = tmp_path / "night.jpg"
    night_photo(photo)
    p = nonocp("design", photo, "-f", "json", "--no-progress")
    assert p.returncode == 0
    record = json.loads(p.stdout)
    assert filled_share(record["goal"]) < 0.05  # the moon alone: the hills are gone
    (line,) = p.stderr.splitlines()
    m = re.fullmatch(rf"nonocp: warning: {re.escape(str(photo))}: black and white at threshold \d+ \(Otsu's\) "
                     r"fills (\d+)% of the cells: most of the picture is lost; --colors (\d) keeps it "
                     r"\((\d+)% of the cells filled\)", line)
    assert m, line
    k, kept = int(m.group(2)), int(m.group(3))
    # the colour count suggested does keep it: its design fills what the warning says
    q = nonocp("design", photo, "--colors", k, "-f", "json", "--no-progress")
    assert q.returncode == 0 and q.stderr == ""
    share = filled_share(json.loads(q.stdout)["goal"])
    assert 0.12 <= share <= 0.88 and round(100 * share) == kept


def test_no_warning_where_the_threshold_keeps_the_picture():
    p = nonocp("design", PUZZLES / "design" / "bicycle.png", "--width", "20", "--no-progress")
    assert p.returncode == 0 and p.stderr == ""


def test_trim_leaves_out_the_empty_border(tmp_path):
    picture = tmp_path / "frame.txt"
    picture.write_text("......\n......\n..##..\n..#...\n......\n")
    out = tmp_path / "out.non"
    p = nonocp("design", picture, "--from", "picture", "--trim", "-o", out, "--no-progress")
    assert p.returncode == 0, p.stderr
    assert "-> 2x2 cells (one cell per pixel, trimmed: 2 top, 1 bottom, 2 left, 2 right empty rows/columns left out)" \
        in p.stdout
    text = out.read_text()
    assert "width 2" in text and "height 2" in text and 'goal "1110"' in text
    untrimmed = nonocp("design", picture, "--from", "picture", "-f", "json", "--no-progress")
    assert json.loads(untrimmed.stdout)["goal"][0] == "000000"  # without --trim the border stays


def test_trim_on_a_picture_with_nothing_in_it_is_a_one_line_error(tmp_path):
    picture = tmp_path / "empty.txt"
    picture.write_text("....\n....\n")
    p = nonocp("design", picture, "--from", "picture", "--trim", "--no-progress")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == f"nonocp: {picture}: the design is empty: every cell is background, nothing is left to trim to\n"
