"""Colours of a picture: its pixels clustered into K + 1 colours (deterministic k-means over a colour
histogram), each cell taking the colour most of its area shows, the background found or named, and the
colours named after the nearest of a small table (for the palette, as people read it)."""

from __future__ import annotations

from nonocp.core.errors import NonocpError
from nonocp.core.palette import Color, Palette

SUPERSAMPLE = 4  # samples per cell side when voting for a cell's colour

# Names for the colours found in a picture: the nearest of these.
NAMED = {
    "black": (0, 0, 0), "white": (255, 255, 255), "grey": (128, 128, 128), "silver": (192, 192, 192),
    "red": (220, 30, 30), "maroon": (128, 0, 0), "orange": (255, 140, 0), "yellow": (255, 220, 0),
    "olive": (128, 128, 0), "green": (30, 160, 50), "lime": (50, 230, 50), "teal": (0, 128, 128),
    "cyan": (0, 220, 220), "blue": (30, 60, 220), "navy": (0, 0, 128), "purple": (128, 0, 128),
    "magenta": (230, 0, 230), "pink": (255, 160, 190), "brown": (140, 80, 30), "beige": (225, 205, 160),
}


def pixel_values(img) -> list:
    """The pixel values, row by row (Pillow 12.1 renamed getdata)."""
    flat = getattr(img, "get_flattened_data", None)
    return list(flat() if flat is not None else img.getdata())


def dist2(a, b) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def parse_background(background: str) -> tuple[int, int, int] | None:
    """None for auto; else the RGB the background should be closest to."""
    b = background.strip().lower()
    if b == "auto":
        return None
    if b in ("white", "light"):
        return (255, 255, 255)
    if b in ("black", "dark"):
        return (0, 0, 0)
    if b in NAMED:
        return NAMED[b]
    if len(b) == 7 and b.startswith("#"):
        try:
            return (int(b[1:3], 16), int(b[3:5], 16), int(b[5:7], 16))
        except ValueError:
            pass
    raise NonocpError(f"--background {background!r}: give auto, white, black, a colour name or #rrggbb")


def border(cols: int, rows: int) -> list[int]:
    """The cells (row-major indices) on the edge of a cols x rows grid."""
    return sorted({r * cols + c for r in range(rows) for c in range(cols) if r in (0, rows - 1) or c in (0, cols - 1)})


def clustered(opaque, cols: int, rows: int, clear: list[bool], k: int, background: str, source: dict):
    """(cell colours row-major, palette, margins) for an RGB image cut into cols x rows cells: `k` colours
    and a background; cells in `clear` (transparent) are background. Notes what it found in `source`."""
    from PIL import Image, ImageOps

    s = max(1, min(SUPERSAMPLE, opaque.size[0] // cols, opaque.size[1] // rows))
    work = opaque.resize((cols * s, rows * s), Image.Resampling.BOX)
    binned = ImageOps.posterize(work, 5)  # 32 levels a channel: JPEG noise folds into few bins
    counts = binned.getcolors(maxcolors=work.size[0] * work.size[1]) or []
    centres = kmeans([(n, rgb) for n, rgb in counts], k + 1)
    pixels = pixel_values(work)
    label_of: dict[tuple[int, int, int], int] = {}

    def nearest(rgb) -> int:
        j = label_of.get(rgb)
        if j is None:
            j = min(range(len(centres)), key=lambda i: dist2(rgb, centres[i]))
            label_of[rgb] = j
        return j

    wide = cols * s
    votes: list[list[int]] = []
    for r in range(rows):
        for c in range(cols):
            tally = [0] * len(centres)
            for dy in range(s):
                base = (r * s + dy) * wide + c * s
                for dx in range(s):
                    tally[nearest(pixels[base + dx])] += 1
            votes.append(tally)
    winner = [max(range(len(t)), key=lambda i: (t[i], -i)) for t in votes]
    centres = cell_colours(pixels, winner, centres, cols, rows, s)
    used = sorted({winner[i] for i in range(len(winner)) if not clear[i]})
    wanted = parse_background(background)
    if wanted is None:
        edge = [winner[i] for i in border(cols, rows) if not clear[i]] or [winner[i] for i in range(len(winner))]
        bg = max(sorted(set(edge)), key=edge.count)
    else:
        bg = min(range(len(centres)), key=lambda i: dist2(wanted, centres[i]))
    by_count = sorted((j for j in used if j != bg), key=lambda j: (-winner.count(j), j))
    order = [bg, *by_count]
    index = {j: i for i, j in enumerate(order)}
    values = [0 if clear[i] else index.get(winner[i], 0) for i in range(len(winner))]
    total = s * s
    margin = []
    for i, t in enumerate(votes):
        top = sorted(t, reverse=True)
        margin.append(1.0 if clear[i] else (top[0] - (top[1] if len(top) > 1 else 0)) / total)
    rgbs = [centres[j] for j in order]
    if len(rgbs) == 1:  # nothing but background: a palette still needs a colour, even unused
        rgbs.append((0, 0, 0) if sum(rgbs[0]) > 382 else (255, 255, 255))
    palette = palette_of(rgbs)
    source.update({"background": palette[0].rgb, "clusters": len(centres)})
    return values, palette, margin


def cell_colours(pixels, winner, centres, cols: int, rows: int, s: int):
    """Each colour as drawn: the per-channel median of the middle samples of the cells it won (JPEG
    blurs colour along every edge, and the middle of a cell and a median both keep clear of the blur)."""
    inner = range(1, s - 1) if s >= 3 else range(s)
    wide = cols * s
    members: list[list[tuple[int, int, int]]] = [[] for _ in centres]
    for r in range(rows):
        for c in range(cols):
            group = members[winner[r * cols + c]]
            for dy in inner:
                base = (r * s + dy) * wide + c * s
                group.extend(pixels[base + dx] for dx in inner)
    out = []
    for group, centre in zip(members, centres, strict=True):
        if not group:
            out.append(centre)
            continue
        mid = len(group) // 2
        out.append(tuple(sorted(p[i] for p in group)[mid] for i in range(3)))
    return out


def kmeans(counts: list[tuple[int, tuple[int, int, int]]], k: int, rounds: int = 20) -> list[tuple[int, int, int]]:
    """`k` colour centres (fewer when the image has fewer colours) for a weighted colour list, the same
    every time: start from the most frequent colour, add the colour with the largest count x squared
    distance to the centres so far (frequent and different), then Lloyd's iterations."""
    counts = sorted(((n, tuple(rgb[:3])) for n, rgb in counts if n > 0), key=lambda t: (-t[0], t[1]))
    if not counts:
        return [(255, 255, 255)]
    centres: list[tuple[float, float, float]] = [counts[0][1]]
    while len(centres) < k:
        score, pick = max(((n * min(dist2(rgb, c) for c in centres), rgb) for n, rgb in counts))
        if score <= 0:
            break
        centres.append(pick)
    for _ in range(rounds):
        sums = [[0.0, 0.0, 0.0, 0] for _ in centres]
        for n, rgb in counts:
            j = min(range(len(centres)), key=lambda i: dist2(rgb, centres[i]))
            acc = sums[j]
            acc[0] += n * rgb[0]
            acc[1] += n * rgb[1]
            acc[2] += n * rgb[2]
            acc[3] += n
        moved = [(a[0] / a[3], a[1] / a[3], a[2] / a[3]) if a[3] else c for a, c in zip(sums, centres, strict=True)]
        if moved == centres:
            break
        centres = moved
    return [tuple(min(255, max(0, round(v))) for v in c) for c in centres]  # type: ignore[misc]


def palette_of(rgbs: list[tuple[int, int, int]]) -> Palette:
    """Background first (symbol 0), then colours a, b, c... named after the nearest named colour."""
    colors: list[Color] = []
    seen: dict[str, int] = {}
    for i, rgb in enumerate(rgbs):
        name = min(NAMED, key=lambda n: dist2(rgb, NAMED[n]))
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name}-{seen[name]}"
        symbol = "0" if i == 0 else "abcdefghijklmnopqrstuvwxyz"[i - 1]
        colors.append(Color(name, "#{:02x}{:02x}{:02x}".format(*rgb), symbol))
    return Palette(tuple(colors))
