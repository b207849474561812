"""The size limits every way into the model shares: the file readers (nonocp.formats) and
`Puzzle.from_clues`. Generous for real puzzles (the largest corpus puzzle is 512x512), small enough that a
hostile file or call cannot make nonocp allocate gigabytes."""

MAX_SIDE = 10_000
MAX_CELLS = 4_000_000
MAX_COLORS = 256
