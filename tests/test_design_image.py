"""nonocp.design.from_image: pictures (scaled up, JPEG-noisy, colour, transparent, inverted) give back the
grid they were drawn from; puzzle files with goals are pictures too; bad files are one-line errors."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image  # noqa: E402

from conftest import examples
from nonocp.core.errors import NonocpError, ParseError
from nonocp.core.grid import Grid
from nonocp.core.puzzle import clues_of
from nonocp.design import Design, from_image
from nonocp.design.colours import kmeans
from nonocp.design.image import otsu, pixel_size

COLOURS = [(255, 255, 255), (200, 30, 30), (30, 60, 200), (20, 150, 40), (240, 200, 0)]


def draw(cells, factor: int, colours=COLOURS, mode: str = "RGB") -> Image.Image:
    """The grid painted `factor` pixels a cell."""
    h, w = len(cells), len(cells[0])
    img = Image.new(mode, (w * factor, h * factor))
    for r in range(h):
        for c in range(w):
            img.paste(colours[cells[r][c]], (c * factor, r * factor, (c + 1) * factor, (r + 1) * factor))
    return img


def encoded(img: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, fmt, **kw)
    return buf.getvalue()


def random_cells(rng: random.Random, w: int, h: int, k: int, density: float = 0.5) -> list[list[int]]:
    return [[rng.randint(1, k) if rng.random() < density else 0 for _ in range(w)] for _ in range(h)]


def with_white_border(cells: list[list[int]]) -> list[list[int]]:
    """Background all round, so that the automatic background is unambiguous."""
    w = len(cells[0])
    return [[0] * (w + 2)] + [[0, *row, 0] for row in cells] + [[0] * (w + 2)]


@settings(max_examples=examples(24), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), w=st.integers(2, 14), h=st.integers(2, 14), factor=st.integers(3, 12),
       quality=st.integers(40, 90))
def test_scaled_jpeg_of_a_grid_gives_back_its_clues(seed, w, h, factor, quality):
    rng = random.Random(seed)
    cells = with_white_border(random_cells(rng, w, h, 1))
    data = encoded(draw(cells, factor), "JPEG", quality=quality)
    expected = clues_of(Grid.from_rows(cells))
    asked = from_image(data, width=w + 2)
    assert clues_of(asked.grid) == expected
    assert asked.palette.is_black_and_white
    # The size found by itself: pixel art, `factor` pixels a cell, unless the picture is as well read
    # with bigger cells (say, all of it drawn in 2x2 blocks); either way every pixel reads back.
    found = from_image(data)
    image_width = (w + 2) * factor
    assert image_width % found.width == 0, found.source
    p = image_width // found.width
    for y in range((h + 2) * factor):
        for x in range(image_width):
            assert cells[y // factor][x // factor] == found.grid.cells[y // p][x // p]
    if p == factor:
        assert clues_of(found.grid) == expected


@settings(max_examples=examples(16), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), k=st.integers(2, 4), factor=st.integers(4, 10))
def test_colour_quantisation_keeps_k_colours_and_the_background(seed, k, factor):
    rng = random.Random(seed)
    cells = with_white_border(random_cells(rng, 9, 7, k, 0.7))
    for colour in range(1, k + 1):  # every colour present
        cells[1 + colour // 3][1 + colour] = colour
    data = encoded(draw(cells, factor), "JPEG", quality=85)
    design = from_image(data, colors=k)
    assert len(design.palette) == k + 1
    background = design.palette[0].rgb
    assert _close(background, COLOURS[0]), background
    # same picture up to the names of the colours: a one-to-one map from the drawn colours to the palette
    mapping: dict[int, int] = {}
    for row_in, row_out in zip(cells, design.grid.cells, strict=True):
        for a, b in zip(row_in, row_out, strict=True):
            assert mapping.setdefault(a, b) == b
    assert mapping[0] == 0
    assert len(set(mapping.values())) == k + 1
    for a, b in mapping.items():
        assert _close(design.palette[b].rgb, COLOURS[a], 40), (a, design.palette[b].rgb)


def _close(rgb: str, want: tuple[int, int, int], tolerance: int = 16) -> bool:
    got = tuple(int(rgb[i:i + 2], 16) for i in (1, 3, 5))
    return all(abs(g - w) <= tolerance for g, w in zip(got, want, strict=True))


def test_png_gif_bmp_read_the_same():
    cells = with_white_border(random_cells(random.Random(4), 6, 5, 1))
    img = draw(cells, 5)
    want = Grid.from_rows(cells)
    for fmt in ("PNG", "GIF", "BMP", "WEBP", "TIFF"):
        assert from_image(encoded(img, fmt, **({"lossless": True} if fmt == "WEBP" else {}))).grid == want, fmt


def test_aspect_ratio_is_kept_and_explicit_sizes_win():
    img = Image.new("L", (400, 100), 255)
    d = from_image(encoded(img, "PNG"), width=20)
    assert (d.width, d.height) == (20, 5)
    d = from_image(encoded(img, "PNG"), height=10)
    assert (d.width, d.height) == (40, 10)
    d = from_image(encoded(img, "PNG"), width=7, height=9)
    assert (d.width, d.height) == (7, 9)
    d = from_image(encoded(img, "PNG"))  # big and not pixel art: fitted to 30 cells across
    assert (d.width, d.height) == (30, 8)


def test_background_named_or_found_on_the_border():
    cells = with_white_border(random_cells(random.Random(1), 6, 6, 1))
    inverted = draw(cells, 4, colours=[(0, 0, 0), (255, 255, 255)])  # white shapes on black
    data = encoded(inverted, "PNG")
    auto = from_image(data)  # the border is black: black is the background, the shapes are filled
    assert auto.grid == Grid.from_rows(cells)
    assert auto.source["background"] == "dark"
    named = from_image(data, background="white")  # white is the background: the black is filled
    assert named.grid == Grid.from_rows([[1 - v for v in row] for row in cells])


def test_transparent_cells_are_background():
    cells = with_white_border(random_cells(random.Random(2), 5, 5, 1))
    img = draw(cells, 3, colours=[(0, 0, 0, 0), (10, 10, 10, 255)], mode="RGBA")
    assert from_image(encoded(img, "PNG")).grid == Grid.from_rows(cells)


def test_threshold_decides_grey():
    img = Image.new("L", (4, 1))
    img.putdata([0, 100, 160, 255])
    assert from_image(encoded(img, "PNG"), threshold=128, background="white").grid.cells == ((1, 1, 0, 0),)
    assert from_image(encoded(img, "PNG"), threshold=200, background="white").grid.cells == ((1, 1, 1, 0),)


def test_margins_are_small_near_the_threshold():
    img = Image.new("L", (3, 1))
    img.putdata([0, 120, 255])
    d = from_image(encoded(img, "PNG"), threshold=128, background="white")
    assert d.margin is not None and d.margin[1] < d.margin[0] and d.margin[1] < d.margin[2]


def test_text_picture_pbm_and_goal_files(tmp_path):
    text = tmp_path / "p.txt"
    text.write_text("#..#\n.##.\n#..#\n")
    d = from_image(str(text))
    assert d.grid.cells == ((1, 0, 0, 1), (0, 1, 1, 0), (1, 0, 0, 1))
    pbm = tmp_path / "p.pbm"
    pbm.write_bytes(b"P1\n3 2\n1 0 1\n0 1 0\n")
    assert from_image(str(pbm)).grid.cells == ((1, 0, 1), (0, 1, 0))
    scaled = from_image(str(text), width=8)
    assert (scaled.width, scaled.height) == (8, 6)
    from conftest import PUZZLES

    fish = from_image(str(PUZZLES / "fish.non"))
    assert fish.colors > 1 and fish.puzzle().rows == from_image(str(PUZZLES / "fish.non")).puzzle().rows


def test_design_from_puzzle_needs_a_goal(tmp_path):
    from conftest import PUZZLES

    with pytest.raises(ParseError, match="without a goal"):
        from_image(str(PUZZLES / "smiley.non"))


@pytest.mark.parametrize("data, message", [
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 30, "cannot read the image"),
    (b"hello, not a picture", "cannot tell the puzzle format"),
    (b"", "cannot tell"),
])
def test_bad_files_are_one_line_errors(tmp_path, data, message):
    path = tmp_path / "bad.bin"
    path.write_bytes(data)
    with pytest.raises(ParseError) as e:
        from_image(str(path))
    assert message in str(e.value) and str(path) in str(e.value) and "\n" not in str(e.value)


def test_truncated_and_huge_images_are_refused(tmp_path):
    data = encoded(Image.new("RGB", (60, 60), (0, 0, 0)), "PNG")
    path = tmp_path / "cut.png"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ParseError):
        from_image(str(path))
    # a header claiming 100000 x 100000 pixels is refused before any decoding
    header = bytearray(encoded(Image.new("1", (1, 1)), "PNG"))
    header[16:24] = (100000).to_bytes(4, "big") * 2
    with pytest.raises(ParseError, match="refused|cannot read"):
        from_image(bytes(header))
    with pytest.raises(ParseError, match="no such file"):
        from_image(str(tmp_path / "missing.png"))


def test_bad_options():
    data = encoded(Image.new("L", (4, 4), 255), "PNG")
    for kw in ({"width": 0}, {"colors": 0}, {"colors": 99}, {"threshold": 300}, {"colors": 3, "threshold": 100},
               {"background": "plaid"}):
        with pytest.raises(NonocpError):
            from_image(data, **kw)


def test_pixel_size_and_helpers():
    cells = with_white_border(random_cells(random.Random(3), 5, 5, 1))
    assert pixel_size(draw(cells, 7)) == 7
    noise = Image.effect_noise((64, 64), 80).convert("RGB")
    assert pixel_size(noise) is None
    hist = [0] * 256
    hist[10], hist[240] = 500, 500
    assert 100 <= otsu(hist) <= 160
    centres = sorted(kmeans([(100, (250, 250, 250)), (80, (200, 20, 20)), (3, (120, 120, 120))], 2))
    assert len(centres) == 2 and centres[1] == (250, 250, 250)  # the rare grey joins the nearer cluster
    assert all(abs(a - b) < 10 for a, b in zip(centres[0], (200, 20, 20), strict=True))
    assert kmeans([(5, (1, 2, 3))], 4) == [(1, 2, 3)]  # fewer colours than asked: fewer centres


def test_a_blank_picture_is_a_design():
    d = from_image(encoded(Image.new("RGB", (5, 5), (255, 255, 255)), "PNG"), colors=2)
    assert isinstance(d, Design) and all(v == 0 for row in d.grid.cells for v in row)
    assert d.puzzle().validate()
