// The puzzle model of the page: nonocp's JSON puzzle object, as the API sends and takes it
// ({title, width, height, colors: [{name, rgb, symbol}], rows, columns: per line [[length, symbol], ...],
// goal?: rows of symbols}). Helpers here read it; nothing here talks to the server.
//
// A count-and-contiguity puzzle (docs/count-clues.md) has `clue_kind: "counts"`, per line one entry per
// colour ({count, allInARow?}: the flag on counts of 2 or more), and `notes`; every palette index is a
// colour (no background) and the colours' symbols are a, b, c, ... in order, as the server names them.
// The server sends its colours as written in the file, with `palette` for drawing: fromServer() makes that
// the page's `colors`, and the server reads them back (web/codec.py).

export const BW_COLORS = [
  { name: "white", rgb: "#ffffff", symbol: "0" },
  { name: "black", rgb: "#000000", symbol: "1" },
];

export const COUNT_SYMBOLS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

export function isCounts(puzzle) {
  return !!puzzle && puzzle.clue_kind === "counts";
}

// Two colours and run clues: drawn without colour boxes, undecided cells as dots (count clues always have
// colour boxes: each colour, the first too, has its own count).
export function isBlackAndWhite(puzzle) {
  return puzzle.colors.length === 2 && !isCounts(puzzle);
}

// A puzzle object as the server sends it, in the page's model.
export function fromServer(obj) {
  if (obj.clue_kind !== "counts" || !Array.isArray(obj.palette)) return obj;
  const out = { ...obj, colors: obj.palette.map((c) => ({ ...c })) };
  delete out.palette;
  return out;
}

// The count clue of one line of colour indices (every index a colour): per colour its count, and for 2
// or more whether those cells are one run.
export function countClue(values, ncolors) {
  const counts = new Array(ncolors).fill(0);
  const runs = new Array(ncolors).fill(0);
  let prev = -1;
  for (const v of values) {
    counts[v] += 1;
    if (v !== prev) runs[v] += 1;
    prev = v;
  }
  return counts.map((n, k) => (n >= 2 ? { count: n, allInARow: runs[k] === 1 } : { count: n }));
}

// `3*` (all in a row), `3`, `0`: a count as the .counts text form writes it.
export function countToken(entry) {
  return `${entry.count}${entry.allInARow && entry.count >= 2 ? "*" : ""}`;
}

// The colours of a count puzzle drawn with `colors`: the same, lettered a, b, c, ... as the server letters them.
export function countColors(colors) {
  return colors.map((c, k) => ({ ...c, symbol: COUNT_SYMBOLS[k] }));
}

export function symbolIndex(colors) {
  const index = new Map();
  colors.forEach((c, i) => index.set(c.symbol, i));
  return index;
}

// How one block is written: "3" in black and white, "3a" in colour ("3:2" when the symbol is a digit,
// which would read as part of the number). The server's clue reader (codec.parse_clue) reads all three.
export function blockToken(block, bw) {
  const [length, symbol] = block;
  if (bw) return String(length);
  return /\d/.test(symbol) ? `${length}:${symbol}` : `${length}${symbol}`;
}

export function clueText(clue, bw) {
  return clue.length ? clue.map((b) => blockToken(b, bw)).join(" ") : "0";
}

// The clue of one line of colour indices (0 = background): runs of one colour, as [length, symbol].
export function lineClue(values, colors) {
  const out = [];
  let run = 0;
  let prev = 0;
  for (const v of values) {
    if (v === prev) {
      run += 1;
      continue;
    }
    if (prev) out.push([run, colors[prev].symbol]);
    run = 1;
    prev = v;
  }
  if (prev) out.push([run, colors[prev].symbol]);
  return out;
}

export function rowValues(cells, width, r) {
  return Array.from(cells.subarray(r * width, (r + 1) * width));
}

export function columnValues(cells, width, height, c) {
  const out = new Array(height);
  for (let r = 0; r < height; r++) out[r] = cells[r * width + c];
  return out;
}

// A puzzle object whose clues are those of a drawn grid (cells: Uint8Array of colour indices), with the
// drawing as its goal; `counts`: count clues (every colour, the first too, counted).
export function puzzleOfDrawing(cells, width, height, colors, title = "", counts = false) {
  const rows = [];
  const columns = [];
  const palette = counts ? countColors(colors) : colors.map((c) => ({ ...c }));
  const clue = counts ? (values) => countClue(values, palette.length) : (values) => lineClue(values, palette);
  for (let r = 0; r < height; r++) rows.push(clue(rowValues(cells, width, r)));
  for (let c = 0; c < width; c++) columns.push(clue(columnValues(cells, width, height, c)));
  const out = { title, width, height, colors: palette, rows, columns, goal: goalRows(cells, width, height, palette) };
  if (counts) out.clue_kind = "counts";
  return out;
}

export function goalRows(cells, width, height, colors) {
  const rows = [];
  for (let r = 0; r < height; r++) {
    let s = "";
    for (let c = 0; c < width; c++) s += colors[cells[r * width + c]].symbol;
    rows.push(s);
  }
  return rows;
}

// Colour indices of a grid given as rows of symbols (a solution, a goal).
export function cellsOfRows(rows, colors) {
  const index = symbolIndex(colors);
  const width = rows[0] ? rows[0].length : 0;
  const cells = new Uint8Array(rows.length * width);
  rows.forEach((row, r) => {
    for (let c = 0; c < width; c++) cells[r * width + c] = index.get(row[c]) ?? 0;
  });
  return cells;
}

// Black or white, whichever reads better on `rgb` (the same rule as nonocp.core.palette.contrast_color).
export function contrast(rgb) {
  const r = parseInt(rgb.slice(1, 3), 16);
  const g = parseInt(rgb.slice(3, 5), 16);
  const b = parseInt(rgb.slice(5, 7), 16);
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000000" : "#ffffff";
}

// `rgb` mixed with white (tint 0: unchanged, 1: white): a count of 0's box (render/count_clues.pale).
export function pale(rgb, tint = 0.8) {
  const mix = (i) => Math.round(parseInt(rgb.slice(i, i + 2), 16) * (1 - tint) + 255 * tint).toString(16).padStart(2, "0");
  return `#${mix(1)}${mix(3)}${mix(5)}`;
}

export function sizeOf(puzzle) {
  return `${puzzle.width}x${puzzle.height}`;
}

// A copy without the fields the page adds or the server fills in.
export function plain(puzzle) {
  const out = {
    title: puzzle.title || "",
    width: puzzle.width,
    height: puzzle.height,
    colors: puzzle.colors,
    rows: [...puzzle.rows],
    columns: [...puzzle.columns],
  };
  for (const key of ["author", "copyright", "license", "source", "notes"]) if (puzzle[key]) out[key] = puzzle[key];
  if (isCounts(puzzle)) out.clue_kind = "counts";
  if (puzzle.goal) out.goal = puzzle.goal;
  return out;
}
