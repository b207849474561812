// A player's progress, kept per puzzle in the browser (localStorage) and carried by play links: the cells as
// one string (one character per cell, row after row: "." unmarked, "-" crossed, a colour's code) and the
// seconds played. Puzzles are told apart by their clues and colours (not their title).

const PREFIX = "nonocp-play/";
const KEEP = 60; // puzzles whose progress is kept; the least recently played go first
const CODES = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"; // colour k is CODES[k - 1]

export function cellsToText(cells) {
  let s = "";
  for (const v of cells) s += v < 0 ? "." : v === 0 ? "-" : CODES[v - 1];
  return s;
}

// Int8Array of values from the text; null when it does not fit `n` cells of `ncolors` colours.
export function cellsFromText(text, n, ncolors) {
  if (typeof text !== "string" || text.length !== n) return null;
  const out = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    const ch = text[i];
    const v = ch === "." ? -1 : ch === "-" ? 0 : CODES.indexOf(ch) + 1;
    if (v === 0 && ch !== "-") return null;
    if (v >= ncolors) return null;
    out[i] = v;
  }
  return out;
}

// A short stable name for a puzzle (FNV-1a over its size, clues and colours): works without a secure context.
export function puzzleId(puzzle) {
  const text = JSON.stringify([puzzle.width, puzzle.height, puzzle.rows, puzzle.columns, puzzle.colors.map((c) => c.rgb)]);
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 16777619);
    h2 = Math.imul(h2 ^ ch, 2246822519);
  }
  return (h1 >>> 0).toString(36) + (h2 >>> 0).toString(36);
}

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage switched off: progress lives in the link only
  }
}

// {cells: string, elapsed: seconds, complete} saved for this puzzle, or null.
export function load(puzzle) {
  const store = storage();
  if (!store) return null;
  try {
    const saved = JSON.parse(store.getItem(PREFIX + puzzleId(puzzle)) || "null");
    return saved && typeof saved.cells === "string" ? saved : null;
  } catch {
    return null;
  }
}

export function save(puzzle, progress) {
  const store = storage();
  if (!store) return;
  try {
    store.setItem(PREFIX + puzzleId(puzzle), JSON.stringify({ ...progress, at: Date.now() }));
    prune(store);
  } catch {
    /* full or switched off: the link still has it */
  }
}

export function forget(puzzle) {
  const store = storage();
  if (store) store.removeItem(PREFIX + puzzleId(puzzle));
}

function prune(store) {
  const mine = [];
  for (let k = 0; k < store.length; k++) {
    const key = store.key(k);
    if (key && key.startsWith(PREFIX)) {
      let at = 0;
      try {
        at = JSON.parse(store.getItem(key)).at || 0;
      } catch {
        /* unreadable: oldest */
      }
      mine.push([at, key]);
    }
  }
  if (mine.length <= KEEP) return;
  mine.sort((a, b) => a[0] - b[0]);
  for (const [, key] of mine.slice(0, mine.length - KEEP)) store.removeItem(key);
}
