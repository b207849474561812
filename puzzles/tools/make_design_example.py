#!/usr/bin/env python3
"""Draw the worked example for `nonocp design`: a photo-like picture (a bicycle against a
sunset: shaded shapes, gradients, soft edges, film grain, a vignette) from a recorded seed, and run the
designer on it.

    python puzzles/tools/make_design_example.py

Writes, in puzzles/design/: bicycle.png (the picture, 480x360 pixels), and bicycle-design.png and
bicycle-colour-design.png (the designer's before/after pictures, 36 cells across, black and white and
3 colours; the puzzles themselves are what `nonocp design ... -o FILE` writes). The same seed gives the
same picture (tests/test_design_example.py checks, and that the designer still finds what docs/design.md says).
"""

from __future__ import annotations

import argparse
import math
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "puzzles" / "design"
SEED = 2024
W, H = 480, 360
WIDTH = 36  # cells across, as in docs/design.md


def lerp(a, b, t):
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def picture(seed: int) -> Image.Image:
    """A bicycle on a hill against a sunset, drawn with gradients, blur, film grain and a vignette."""
    rng = random.Random(seed)
    img = Image.new("RGB", (W, H))
    px = img.load()
    for y in range(H):  # sky: pale blue above, orange at the horizon
        colour = lerp((250, 175, 95), (150, 165, 215), max(0, 320 - y) / 320)
        for x in range(W):
            px[x, y] = colour
    sun = Image.new("L", (W, H), 0)  # a soft sun low in the sky
    ImageDraw.Draw(sun).ellipse((300, 150, 400, 250), fill=255)
    img.paste((255, 220, 120), (0, 0), sun.filter(ImageFilter.GaussianBlur(8)))
    draw = ImageDraw.Draw(img)
    hill = [(x, 318 + 14 * math.sin(x / 70)) for x in range(0, W + 1, 8)] + [(W, H), (0, H)]
    draw.polygon(hill, fill=(45, 35, 50))
    ink, width = (30, 25, 35), 13
    back, front, r = (135, 250), (335, 250), 55  # the wheels: centres and radius
    for cx, cy in (back, front):
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=width)
        for k in range(6):  # spokes
            a = k * math.pi / 6 + rng.random() * 0.2
            draw.line((cx - r * math.cos(a), cy - r * math.sin(a), cx + r * math.cos(a), cy + r * math.sin(a)),
                      fill=ink, width=3)
    crank, seat, head = (225, 250), (200, 160), (315, 165)
    for a, b in ((back, crank), (crank, seat), (seat, back), (crank, head), (seat, (305, 160)), (head, front)):
        draw.line((*a, *b), fill=ink, width=width)
    draw.line((178, 150, 224, 150), fill=ink, width=15)  # saddle
    draw.line((315, 165, 310, 138, 332, 132), fill=ink, width=width, joint="curve")  # handlebar
    img = img.filter(ImageFilter.GaussianBlur(1.5))  # soft edges, as a lens draws them
    px = img.load()
    for y in range(H):  # film grain and a faint vignette
        for x in range(W):
            d = math.hypot((x - W / 2) / (W / 2), (y - H / 2) / (H / 2))
            shade = 1 - 0.35 * max(0.0, d - 0.6)
            g = rng.gauss(0, 8)
            px[x, y] = tuple(max(0, min(255, round(v * shade + g + rng.gauss(0, 3)))) for v in px[x, y])
    return img


def design_files(png: Path) -> None:
    """Run the designer on the picture as docs/design.md does, and keep what it makes."""
    from nonocp.design import analyse, from_image, make_unique
    from nonocp.render.design import Panel, panels_png

    for stem, colours in (("bicycle", 1), ("bicycle-colour", 3)):
        design = from_image(str(png), width=WIDTH, colors=colours)
        report = analyse(design)
        result = make_unique(design)
        verdict = f"{len(report.ambiguous)} ambiguous cells" if report.ambiguous else f"unique, {report.difficulty}"
        panels = [Panel(design.puzzle(), design.grid, f"as drawn: {verdict}", marked=report.ambiguous)]
        if result.changes:
            panels.append(Panel(result.design.puzzle(), result.design.grid,
                                f"{len(result.changes)} cells changed: unique, {result.difficulty}",
                                outlined=[(c.row, c.col) for c in result.changes]))
        (OUT / f"{stem}-design.png").write_bytes(panels_png(panels))
        print(f"{stem}: {report.verdict}, {len(report.ambiguous)} ambiguous cells -> {len(result.changes)} changes, "
              f"{result.status}, {result.difficulty}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=SEED, help="another picture (the docs' is the default)")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    png = OUT / "bicycle.png"
    picture(args.seed).save(png, optimize=True)
    print(f"wrote {png}")
    if args.seed == SEED:
        design_files(png)


if __name__ == "__main__":
    main()
