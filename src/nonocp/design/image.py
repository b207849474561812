"""from_image: a picture file (PNG, JPEG, GIF, BMP, WebP, TIFF via Pillow; or any puzzle file with a goal,
such as the text picture and PBM formats) to a `Design`.

The steps, in order:

1. Size. `width` and/or `height` asked: the other follows the aspect ratio (both: exactly that). Neither:
   an image that is pixel art scaled up by an integer factor (edges only every k pixels, in both
   directions) gives back its own grid; a small image (up to `NATIVE_SIDE` pixels a side) keeps one cell
   per pixel; a bigger one is fitted to `DEFAULT_SIDE` cells on its longer side.
2. Colours. Black and white (`colors=1`): each cell's mean grey level against a threshold (given, or
   Otsu's: the level that best separates the image's dark and light pixels). `colors=K` (2 or more):
   the image's colours are clustered into K + 1 (deterministic k-means over a colour histogram, started
   from the most frequent colours far from those already chosen), and each cell takes the cluster most
   of its area shows, so no blend of two neighbouring colours appears.
3. Background. `auto`: the colour (or, in black and white, the tone) most of the border cells have;
   `white`, `black`, or `#rrggbb`: the closest one. Transparent cells are background.

Every cell also gets a margin (how clearly it won: distance from the threshold, or the lead of its
cluster over the runner-up), which make_unique uses to break ties between equally short fixes.

Memory is bounded by what a picture takes decoded, not by its file: a 6 KB PNG can hold 7000x7000 pixels.
Its size and mode are checked before it is decoded (MAX_DECODED_BYTES), a JPEG is decoded reduced (its
decoder's draft mode) when it is bigger than the work needs, and a picture over WORK_PIXELS is read in
strips of rows: each strip converted, composited over white and box-averaged by an integer factor, so
that the whole picture is never held in more than its decoded form.
"""

from __future__ import annotations

import io
import os
from typing import Any

from nonocp.core.errors import NonocpError, ParseError
from nonocp.core.grid import Grid
from nonocp.core.palette import Palette
from nonocp.design.colours import border, clustered, parse_background, pixel_values
from nonocp.design.model import Design

# Formats Pillow reads for us; PBM (P1/P4) goes to nonocp's own reader, which keeps every pixel exact.
IMAGE_FORMATS = ("PNG", "JPEG", "GIF", "BMP", "WEBP", "TIFF", "PPM")
# How those files begin: a file that begins so and that Pillow cannot read is a broken image, not text.
MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"BM", b"RIFF", b"II*\x00", b"MM\x00*")
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_IMAGE_PIXELS = 50_000_000  # a decompression bomb is refused before it is decoded
MAX_DECODED_BYTES = 128 * 1024 * 1024  # what a picture may take decoded, as Pillow holds it
WORK_PIXELS = 4_000_000  # a bigger picture is worked on box-averaged to at most this many pixels
STRIP_BYTES = 2 * 1024 * 1024  # one strip of a picture, converted to RGBA (a few copies of it are held at once)
MAX_SIDE = 1000  # cells per side of a design
MAX_COLORS = 16
NATIVE_SIDE = 50
DEFAULT_SIDE = 30
EDGE_NOISE = 0.35  # in pixel art, what shows between cell edges is noise: under this share of the strongest

Source = str | os.PathLike | bytes | Any  # a path, the file's bytes, or a PIL.Image.Image


def from_image(
    source: Source,
    *,
    width: int | None = None,
    height: int | None = None,
    colors: int = 1,
    threshold: int | None = None,
    background: str = "auto",
    title: str | None = None,
    name: str | None = None,
    fmt: str | None = None,
) -> Design:
    """The design a picture makes (see the module docstring). `source` is a file path, the file's
    bytes, or a Pillow image; `name` is what error messages call it when it is not a path. `fmt` names
    the puzzle format of a puzzle file (else it is told from the name and the content).
    Raises ParseError (naming the file) for unreadable input and NonocpError for bad options."""
    _check_options(width, height, colors, threshold)
    label = name or (os.fspath(source) if isinstance(source, str | os.PathLike) else "<image>")
    image = None if fmt is not None else _as_image(source, label)
    if image is None:  # not an image: a puzzle file whose goal is the picture
        data = source if isinstance(source, bytes) else _read_bytes(label)
        return _from_puzzle_file(data, label, width, height, title, fmt)
    w, h = image.size
    size = _target(w, h, width, height, image)
    opaque, alpha = _prepared(image)
    image = None  # the decoded picture: the work goes on with its box-averaged form
    design = _from_pil(opaque, alpha, (w, h), size, label, colors, threshold, background)
    return design if title is None else Design(design.grid, design.palette, title, design.margin, design.source)


# --- reading ---------------------------------------------------------------------------------------


def _check_options(width, height, colors, threshold) -> None:
    for opt, v in (("width", width), ("height", height)):
        if v is not None and not 1 <= v <= MAX_SIDE:
            raise NonocpError(f"--{opt} {v}: choose 1 to {MAX_SIDE} cells")
    if not 1 <= colors <= MAX_COLORS:
        raise NonocpError(f"--colors {colors}: choose 1 (black and white) to {MAX_COLORS}")
    if threshold is not None:
        if colors != 1:
            raise NonocpError("--threshold applies to black and white (--colors 1); colours are found by clustering")
        if not 0 <= threshold <= 255:
            raise NonocpError(f"--threshold {threshold}: choose a grey level from 0 to 255")


def _read_bytes(path: str) -> bytes:
    try:
        size = os.stat(path).st_size
        if os.path.isdir(path):
            raise ParseError(path, None, "is a directory, not a picture")
        if size > MAX_FILE_BYTES:
            raise ParseError(path, None, f"file is {size} bytes; files over {MAX_FILE_BYTES} bytes are refused")
        with open(path, "rb") as f:
            return f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ParseError(path, None, "no such file") from None
    except OSError as e:
        raise ParseError(path, None, f"cannot read: {e.strerror or e}") from None


def _is_pbm(data: bytes) -> bool:
    return data[:2] in (b"P1", b"P4") and data[2:3].isspace()


def _as_image(source: Source, label: str):
    """A Pillow image (RGBA, first frame) when `source` is a picture Pillow reads; None for other files."""
    from PIL import Image, UnidentifiedImageError

    if isinstance(source, Image.Image):
        return _loaded(source, label)
    data = source if isinstance(source, bytes) else _read_bytes(label)
    if _is_pbm(data):
        return None
    try:
        img = Image.open(io.BytesIO(data))
    except UnidentifiedImageError:
        if data.startswith(MAGIC):
            raise ParseError(label, None, "cannot read the image: it is broken or not what it claims") from None
        return None
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as e:
        raise ParseError(label, None, f"cannot read the image: {e}") from None
    if img.format not in IMAGE_FORMATS:
        return None
    return _loaded(img, label)


def _loaded(img, label: str):
    """`img` decoded (its first frame), in its own mode, after checking what that will take."""
    from PIL import Image

    w, h = img.size
    if w < 1 or h < 1:
        raise ParseError(label, None, "the image is empty")
    if w * h > MAX_IMAGE_PIXELS:
        raise ParseError(label, None, f"the image is {w}x{h} pixels; over {MAX_IMAGE_PIXELS} pixels are refused")
    try:
        img.seek(0)  # the first frame of an animation
        if img.format == "JPEG" and w * h > WORK_PIXELS:
            f = _reduction(w, h)
            img.draft("RGB", (-(-w // f), -(-h // f)))  # the decoder scales by 1/2, 1/4 or 1/8 as it reads
        decoded = img.size[0] * img.size[1] * _bytes_per_pixel(img.mode)
        if decoded > MAX_DECODED_BYTES:
            raise ParseError(label, None, f"the image is {w}x{h} pixels in mode {img.mode}: {decoded >> 20} MiB "
                                          f"decoded; over {MAX_DECODED_BYTES >> 20} MiB are refused")
        img.load()
        return img
    except (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError) as e:
        raise ParseError(label, None, f"cannot read the image: {e}") from None


def _bytes_per_pixel(mode: str) -> int:
    """What Pillow holds per pixel of a decoded image in `mode` (RGB is padded to 4 bytes)."""
    if mode in ("1", "L", "P"):
        return 1
    if mode.startswith("I;16"):
        return 2
    return 4


def _reduction(w: int, h: int) -> int:
    """The smallest whole factor that box-averages a w x h picture to at most WORK_PIXELS pixels."""
    f = 1
    while -(-w // f) * -(-h // f) > WORK_PIXELS:
        f += 1
    return f


def _strips(img, rows: int):
    """(top, the rows from `top`, as RGB composited over white, and alpha), `rows` at a time."""
    from PIL import Image

    w, h = img.size
    for top in range(0, h, rows):
        strip = img.crop((0, top, w, min(h, top + rows))).convert("RGBA")
        white = Image.new("RGBA", strip.size, (255, 255, 255, 255))
        yield top, Image.alpha_composite(white, strip).convert("RGB"), strip.getchannel("A")


def _prepared(img):
    """(opaque: RGB composited over white, alpha) of a decoded picture, box-averaged by the factor that
    brings it to at most WORK_PIXELS pixels, read in strips (module docstring)."""
    from PIL import Image

    w, h = img.size
    f = _reduction(w, h)
    out_w, out_h = -(-w // f), -(-h // f)
    opaque, alpha = Image.new("RGB", (out_w, out_h)), Image.new("L", (out_w, out_h))
    rows = max(f, STRIP_BYTES // (4 * w) // f * f)  # a whole number of f-pixel blocks
    for top, rgb, a in _strips(img, rows):
        opaque.paste(rgb.reduce(f) if f > 1 else rgb, (0, top // f))
        alpha.paste(a.reduce(f) if f > 1 else a, (0, top // f))
    return opaque, alpha


def _from_puzzle_file(data: bytes, label: str, width, height, title, fmt: str | None) -> Design:
    from nonocp import formats

    name = formats.detect(label, None, fmt) if fmt else None
    if name == "pbm" or (name is None and _is_pbm(data)):
        puzzles = formats.FORMATS["pbm"].binary_reader(data, label)
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        puzzles = formats.loads(text, name or formats.detect(label, text), label)
    if len(puzzles) != 1:
        raise ParseError(label, None, f"holds {len(puzzles)} puzzles; design takes one picture")
    puzzle = puzzles[0]
    if puzzle.meta.goal is None:
        raise ParseError(label, None, "is a puzzle without a goal picture; nothing to design from")
    grid, palette = puzzle.meta.goal, puzzle.palette
    size = _target(grid.width, grid.height, width, height, None)
    if size[:2] != (grid.width, grid.height):
        grid = _resize_grid(grid, palette, size[0], size[1])
    source = {"file": label, "kind": "picture", "image_size": [puzzle.width, puzzle.height], "size_from": size[2],
              "colors": len(palette) - 1}
    return Design(grid, palette, title if title is not None else puzzle.title, None, source, puzzle.clue_kind)


def _resize_grid(grid: Grid, palette: Palette, width: int, height: int) -> Grid:
    """A goal picture at another size: black and white by mean tone, colours by nearest cell."""
    from PIL import Image

    if palette.is_black_and_white:
        img = Image.new("L", (grid.width, grid.height))
        img.putdata([0 if v else 255 for row in grid.cells for v in row])
        small = img.resize((width, height), Image.Resampling.BOX)
        values = pixel_values(small)
        return Grid(tuple(tuple(1 if values[r * width + c] < 128 else 0 for c in range(width)) for r in range(height)))
    img = Image.new("L", (grid.width, grid.height))
    img.putdata([v for row in grid.cells for v in row])
    values = pixel_values(img.resize((width, height), Image.Resampling.NEAREST))
    return Grid(tuple(tuple(values[r * width + c] for c in range(width)) for r in range(height)))


# --- size ------------------------------------------------------------------------------------------


def _target(w: int, h: int, width, height, img) -> tuple[int, int, str]:
    """(cells across, cells down, how the size was chosen); `img` (None: not a picture) is looked at for
    pixel art only when neither side is asked."""
    if width and height:
        return width, height, "asked"
    if width:
        return width, max(1, round(width * h / w)), "asked width, aspect kept"
    if height:
        return max(1, round(height * w / h)), height, "asked height, aspect kept"
    if img is not None:
        k = pixel_size(img)
        if k and w // k <= MAX_SIDE and h // k <= MAX_SIDE:
            return w // k, h // k, f"pixel art, {k} pixels a cell"
    if max(w, h) <= NATIVE_SIDE:
        return w, h, "one cell per pixel"
    if w >= h:
        return DEFAULT_SIDE, max(1, round(DEFAULT_SIDE * h / w)), f"fitted to {DEFAULT_SIDE} cells"
    return max(1, round(DEFAULT_SIDE * w / h)), DEFAULT_SIDE, f"fitted to {DEFAULT_SIDE} cells"


def _edge_profiles(img) -> tuple[list[float], list[float]]:
    """The mean colour difference across each pixel column boundary and each pixel row boundary (the
    picture composited over white), summed over R, G and B; read in strips, so a big picture costs one
    strip at a time."""
    import numpy as np

    w, h = img.size
    cols = np.zeros(max(0, w - 1))
    rows: list[float] = []
    last = None  # the row above the strip, for the boundary between two strips
    for _, rgb, _ in _strips(img, max(1, STRIP_BYTES // (4 * w))):
        a = np.asarray(rgb, dtype=np.int16)
        if w > 1:
            cols += np.abs(np.diff(a, axis=1)).sum(axis=(0, 2))
        if last is not None:
            a = np.concatenate([last, a])
        rows.extend(np.abs(np.diff(a, axis=0)).sum(axis=(1, 2)) / w)
        last = a[-1:]
    return list(cols / h), rows


def pixel_size(img) -> int | None:
    """The k > 1 for which `img` is pixel art scaled up k times, the largest such; None when there is
    none. Every colour edge must fall on a multiple of k, in both directions: between those lines only
    noise (JPEG ringing) may show, well below the strongest edge."""
    w, h = img.size
    cols, rows = _edge_profiles(img)
    strongest = max(cols + rows, default=0)
    if strongest < 8:  # no edge at all: nothing tells the scale
        return None
    for k in range(min(w, h) // 2, 1, -1):
        if w % k or h % k:
            continue
        if all(v <= EDGE_NOISE * strongest for i, v in enumerate(cols) if (i + 1) % k) and \
                all(v <= EDGE_NOISE * strongest for i, v in enumerate(rows) if (i + 1) % k):
            return k
    return None


# --- tones and colours -----------------------------------------------------------------------------


def _from_pil(opaque, alpha, image_size: tuple[int, int], size: tuple[int, int, str], label: str, colors: int,
              threshold, background: str) -> Design:
    """The design of a picture given as (opaque RGB, alpha), `image_size` its size in pixels and `size`
    the cells it is cut into (_target)."""
    from PIL import Image

    (w, h), (cols, rows, how) = image_size, size
    cell_alpha = pixel_values(alpha.resize((cols, rows), Image.Resampling.BOX))
    clear = [a < 128 for a in cell_alpha]
    source: dict[str, Any] = {"file": label, "kind": "image", "image_size": [w, h], "size_from": how,
                              "colors_requested": colors}
    if colors == 1:
        cells, palette, margin = _black_and_white(opaque, cols, rows, clear, threshold, background, source)
    else:
        cells, palette, margin = clustered(opaque, cols, rows, clear, colors, background, source)
    grid = Grid(tuple(tuple(cells[r * cols + c] for c in range(cols)) for r in range(rows)))
    source["colors"] = len(palette) - 1
    return Design(grid, palette, _title(label), tuple(margin), source)


def _title(label: str) -> str:
    base = os.path.basename(label)
    stem = base.rsplit(".", 1)[0] if "." in base else base
    return stem if stem and not stem.startswith("<") else ""


def otsu(histogram: list[int]) -> int:
    """The grey level that best splits a 256-bin histogram into dark (< level) and light: Otsu's split,
    then moved to halfway between the two sides' mean levels (with two sharp peaks every split between
    them scores the same, and halfway is the one noise disturbs least)."""
    total = sum(histogram)
    if total == 0:
        return 128
    sum_all = sum(i * n for i, n in enumerate(histogram))
    best, best_level = -1.0, 128
    w0 = 0
    s0 = 0.0
    for level in range(1, 256):
        w0 += histogram[level - 1]
        s0 += (level - 1) * histogram[level - 1]
        w1 = total - w0
        if w0 == 0 or w1 == 0:
            continue
        m0, m1 = s0 / w0, (sum_all - s0) / w1
        between = w0 * w1 * (m0 - m1) ** 2
        if between > best:
            best, best_level = between, level
    dark = sum(histogram[:best_level])
    light = total - dark
    if not dark or not light:
        return best_level
    m0 = sum(i * histogram[i] for i in range(best_level)) / dark
    m1 = sum(i * histogram[i] for i in range(best_level, 256)) / light
    return max(1, min(255, round((m0 + m1) / 2)))


def _black_and_white(opaque, cols, rows, clear, threshold, background, source):
    from PIL import Image

    grey = opaque.convert("L")
    level = threshold if threshold is not None else otsu(grey.histogram())
    means = pixel_values(grey.resize((cols, rows), Image.Resampling.BOX))
    dark = [m < level for m in means]
    wanted = parse_background(background)
    if wanted is None:
        edge = [i for i in border(cols, rows) if not clear[i]]
        dark_background = 2 * sum(dark[i] for i in edge) > len(edge)
    else:
        luma = 0.299 * wanted[0] + 0.587 * wanted[1] + 0.114 * wanted[2]
        dark_background = luma < level
    values = [0 if clear[i] or dark[i] == dark_background else 1 for i in range(len(means))]
    margin = [1.0 if clear[i] else min(1.0, abs(means[i] - level) / 128) for i in range(len(means))]
    source.update({"threshold": level, "threshold_from": "asked" if threshold is not None else "otsu",
                   "background": "dark" if dark_background else "light"})
    return values, Palette.black_and_white(), margin


