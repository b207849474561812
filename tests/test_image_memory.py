"""Pictures are read within a budget of decoded bytes, not of file bytes: a 30 KB PNG of 7000x7000 pixels
(1 bit each) is designed by the real command in well under 256 MiB (it took 1.1 GiB: the whole picture was
converted to RGBA and copied several times), and a picture that would take more than the budget decoded
is refused by name before it is decoded. Peak memory is the command's own maximum resident size, read by
a parent process that runs nothing else."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw

MIB = 1024 * 1024
# Runs the command given as arguments and prints its peak resident size (the only child it waits for).
PEAK = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
        "print(r.returncode); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024); "
        "print(r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ''); print(r.stderr.strip())")


def run_with_peak(*args: str) -> tuple[int, int, str, str]:
    """(exit code, peak resident bytes, last stdout line, stderr) of `nonocp ARGS`."""
    out = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "nonocp.cli", *args],
                         capture_output=True, text=True, timeout=600)
    code, peak, last, err = (out.stdout.split("\n", 3) + ["", "", ""])[:4]
    return int(code), int(peak), last, err


def big_one_bit_png(path: Path, size: tuple[int, int] = (7000, 7000)) -> Path:
    img = Image.new("1", size, 1)
    draw = ImageDraw.Draw(img)
    w, h = size
    draw.ellipse((w // 7, h // 7, 6 * w // 7, 6 * h // 7), fill=0)
    draw.rectangle((3 * w // 7, h // 35, 4 * w // 7, 34 * h // 35), fill=1)
    img.save(path, optimize=True)
    return path


def test_design_of_a_7000_by_7000_one_bit_png_stays_under_256_mib(tmp_path):
    png = big_one_bit_png(tmp_path / "big.png")
    assert png.stat().st_size < 100_000
    code, peak, last, err = run_with_peak("design", str(png), "-f", "json")
    assert code == 0, err
    design = json.loads(last)["design"]
    assert (design["width"], design["height"]) == (30, 30)
    goal = json.loads(last)["goal"]
    assert goal[15][5] == "1" and goal[0][0] == "0"  # the disc is ink, the corner background
    assert peak < 256 * MIB, f"peak {peak / MIB:.0f} MiB"


def test_a_picture_over_the_decoded_budget_is_refused_by_name(tmp_path):
    png = tmp_path / "huge.png"
    Image.new("RGBA", (6000, 6000), (255, 255, 255, 0)).save(png, optimize=True)  # 137 MiB decoded (128 allowed)
    code, peak, _, err = run_with_peak("design", str(png))
    assert code == 2 and err.startswith(f"nonocp: {png}: the image is 6000x6000 pixels in mode RGBA"), err
    assert "MiB decoded" in err and "Traceback" not in err
    assert peak < 128 * MIB, f"peak {peak / MIB:.0f} MiB: the picture was decoded before it was refused"
