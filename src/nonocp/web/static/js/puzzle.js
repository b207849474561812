// The puzzle model of the page: nonocp's JSON puzzle object, as the API sends and takes it
// ({title, width, height, colors: [{name, rgb, symbol}], rows, columns: per line [[length, symbol], ...],
// goal?: rows of symbols}). Helpers here read it; nothing here talks to the server.

export const BW_COLORS = [
  { name: "white", rgb: "#ffffff", symbol: "0" },
  { name: "black", rgb: "#000000", symbol: "1" },
];

export function isBlackAndWhite(puzzle) {
  return puzzle.colors.length === 2;
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
// drawing as its goal.
export function puzzleOfDrawing(cells, width, height, colors, title = "") {
  const rows = [];
  const columns = [];
  for (let r = 0; r < height; r++) rows.push(lineClue(rowValues(cells, width, r), colors));
  for (let c = 0; c < width; c++) columns.push(lineClue(columnValues(cells, width, height, c), colors));
  return { title, width, height, colors: colors.map((c) => ({ ...c })), rows, columns, goal: goalRows(cells, width, height, colors) };
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
  for (const key of ["author", "copyright", "license", "source"]) if (puzzle[key]) out[key] = puzzle[key];
  if (puzzle.goal) out.goal = puzzle.goal;
  return out;
}
