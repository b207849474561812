// The share link: the URL fragment carries the whole puzzle (never sent to the server: a fragment stays in
// the browser), so a link opens the same puzzle on any nonocp server, offline too.
//
//   #p=<data>   a puzzle (its clues; its goal too when it has one)
//   #d=<data>   a design (the drawing; its clues follow from it)
//   #g=<data>   a game in Play: the puzzle and the player's progress ("s" and "e" below)
//
// <data> is base64url of deflate-raw of a small JSON object, version 1:
//   {"v":1, "t": title, "c": [[name, "rrggbb", symbol], ...] (absent: black and white),
//    "r": rows, "k": columns (each line a list of lengths in black and white, else of length, colour index
//    pairs), "w": width, "h": height, "g": the goal's symbols row after row as one string (optional),
//    "m": {author, copyright, license, source, notes} (those the puzzle has),
//    "q": "counts" for count-and-contiguity clues: then every line is one number per colour, the count
//    times 2, plus 1 when its cells are all in a row, and the colours' symbols are a, b, c, ...
//    "s": the player's cells row after row as one string (progress.js: "." unmarked, "-" crossed, a colour's
//    code), "e": seconds played}

import { BW_COLORS, COUNT_SYMBOLS, cellsOfRows, isCounts, puzzleOfDrawing, symbolIndex } from "./puzzle.js";

const META = ["author", "copyright", "license", "source", "notes"];
const MAX_DECODED = 4 * 1024 * 1024; // a hostile link must not inflate into gigabytes

function toBase64Url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pump(stream, limit) {
  const reader = stream.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      reader.cancel();
      throw new Error("the link holds more than a puzzle");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

async function deflate(text) {
  const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return pump(stream, Infinity);
}

async function inflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new TextDecoder().decode(await pump(stream, MAX_DECODED));
}

function isBW(colors) {
  return (
    colors.length === 2 &&
    colors.every((c, i) => c.name === BW_COLORS[i].name && c.rgb === BW_COLORS[i].rgb && c.symbol === BW_COLORS[i].symbol)
  );
}

function packLines(lines, index, bw) {
  return lines.map((clue) => (bw ? clue.map((b) => b[0]) : clue.flatMap((b) => [b[0], index.get(b[1])])));
}

function unpackLines(lines, colors, bw) {
  if (!Array.isArray(lines)) throw new Error("the link's clues are damaged");
  return lines.map((line) => {
    if (!Array.isArray(line)) throw new Error("the link's clues are damaged");
    const out = [];
    const step = bw ? 1 : 2;
    for (let i = 0; i < line.length; i += step) {
      const length = line[i];
      const color = bw ? 1 : line[i + 1];
      if (!Number.isInteger(length) || !Number.isInteger(color) || !colors[color]) throw new Error("the link's clues are damaged");
      out.push([length, colors[color].symbol]);
    }
    return out;
  });
}

function packCounts(lines) {
  return lines.map((clue) => clue.map((e) => 2 * e.count + (e.allInARow && e.count >= 2 ? 1 : 0)));
}

function unpackCounts(lines, ncolors) {
  if (!Array.isArray(lines)) throw new Error("the link's clues are damaged");
  return lines.map((line) => {
    if (!Array.isArray(line) || line.length !== ncolors || !line.every((v) => Number.isInteger(v) && v >= 0)) {
      throw new Error("the link's clues are damaged");
    }
    return line.map((v) => (v >= 4 ? { count: v >> 1, allInARow: !!(v & 1) } : { count: v >> 1 }));
  });
}

// The fragment ("#p=...", "#d=..." or "#g=...") for a puzzle; `design` drops the clues (the goal holds
// them); `game` ({cells: string, elapsed: seconds}) makes it a play link.
export async function encode(puzzle, design = false, game = null) {
  const counts = isCounts(puzzle);
  const bw = !counts && isBW(puzzle.colors);
  const index = symbolIndex(puzzle.colors);
  const data = { v: 1, w: puzzle.width, h: puzzle.height };
  if (puzzle.title) data.t = puzzle.title;
  if (!bw) data.c = puzzle.colors.map((c) => [c.name, c.rgb.slice(1), c.symbol]);
  if (counts) data.q = "counts";
  if (!design) {
    data.r = counts ? packCounts(puzzle.rows) : packLines(puzzle.rows, index, bw);
    data.k = counts ? packCounts(puzzle.columns) : packLines(puzzle.columns, index, bw);
  }
  if (puzzle.goal) data.g = puzzle.goal.join("");
  const meta = Object.fromEntries(META.filter((k) => puzzle[k]).map((k) => [k, puzzle[k]]));
  if (Object.keys(meta).length) data.m = meta;
  if (design && !puzzle.goal) throw new Error("a design needs its drawing");
  if (game) {
    data.s = game.cells;
    data.e = Math.round(game.elapsed);
  }
  const kind = design ? "d" : game ? "g" : "p";
  return `#${kind}=${toBase64Url(await deflate(JSON.stringify(data)))}`;
}

// {puzzle, design, cells, game} from a fragment or a whole link (game: {cells: string, elapsed} of a play
// link, else null); null when it holds no puzzle; Error when damaged.
export async function decode(link) {
  const at = link.indexOf("#");
  const fragment = at >= 0 ? link.slice(at + 1) : link;
  const m = /^([pdg])=([A-Za-z0-9_-]+)$/.exec(fragment.trim());
  if (!m) return null;
  let data;
  try {
    data = JSON.parse(await inflate(fromBase64Url(m[2])));
  } catch (e) {
    throw new Error(`the link is damaged (${e.message})`);
  }
  if (!data || data.v !== 1) throw new Error("the link was made by a newer nonocp");
  const { w, h } = data;
  if (!Number.isInteger(w) || !Number.isInteger(h) || w < 1 || h < 1) throw new Error("the link's size is damaged");
  const counts = data.q === "counts";
  if (!Array.isArray(data.c || [])) throw new Error("the link's colours are damaged");
  let colors = data.c
    ? data.c.map(([name, rgb, symbol]) => ({ name: String(name), rgb: `#${String(rgb).toLowerCase()}`, symbol: String(symbol) }))
    : BW_COLORS.map((c) => ({ ...c }));
  if (counts) colors = colors.map((c, k) => ({ ...c, symbol: COUNT_SYMBOLS[k] }));
  const bw = !data.c;
  let goal = null;
  if (typeof data.g === "string") {
    if (data.g.length !== w * h) throw new Error("the link's drawing is damaged");
    goal = [];
    for (let r = 0; r < h; r++) goal.push(data.g.slice(r * w, (r + 1) * w));
  }
  const design = m[1] === "d";
  if (design) {
    if (!goal) throw new Error("the link's drawing is missing");
    const cells = cellsOfRows(goal, colors);
    const puzzle = puzzleOfDrawing(cells, w, h, colors, data.t || "", counts);
    for (const key of META) if (data.m && typeof data.m[key] === "string" && data.m[key]) puzzle[key] = data.m[key];
    return { puzzle, design, cells, game: null };
  }
  const puzzle = {
    title: data.t || "",
    width: w,
    height: h,
    colors,
    rows: counts ? unpackCounts(data.r, colors.length) : unpackLines(data.r, colors, bw),
    columns: counts ? unpackCounts(data.k, colors.length) : unpackLines(data.k, colors, bw),
  };
  if (counts) puzzle.clue_kind = "counts";
  if (puzzle.rows.length !== h || puzzle.columns.length !== w) throw new Error("the link's clues are damaged");
  if (goal) puzzle.goal = goal;
  for (const key of META) if (data.m && typeof data.m[key] === "string" && data.m[key]) puzzle[key] = data.m[key];
  let game = null;
  if (m[1] === "g") {
    if (typeof data.s !== "string" || data.s.length !== w * h) throw new Error("the link's progress is damaged");
    game = { cells: data.s, elapsed: Number.isFinite(data.e) && data.e >= 0 ? data.e : 0 };
  }
  return { puzzle, design, cells: null, game };
}
