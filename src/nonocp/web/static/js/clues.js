// Clue kinds: what the board writes beside a line, and how a person's cells on that line read against its
// clue (Play greys out what is done). Two kinds: run clues (blocks of one colour, in order) and count
// clues (per colour a count and whether it is all in a row: docs/count-clues.md); clueKind() chooses.
// Each gives the same members. Nothing here deduces anything: it compares what the person marked with the
// clue.
//
// A line of values: -1 unmarked, else a palette colour; with run clues 0 is the background (a cross in
// Play), with count clues 0 is a colour like the others.

import { blockToken, countToken, isCounts, lineClue, symbolIndex } from "./puzzle.js";

export const runs = {
  name: "runs",
  background: true, // palette index 0 is the background: Play marks it as a cross
  dots: false, // Step draws an undecided cell's colours as one disc cut into them

  // The clue's items as drawn, in order: {text, symbol, token} (symbol: the colour, null for an empty
  // line's "0"; token: the item as typed in the Edit mode). Count clues add `color` (a palette index),
  // `bar` (all in a row) and `zero`.
  items(clue, bw) {
    if (!clue.length) return [{ text: "0", symbol: null, token: "0" }];
    return clue.map((block) => ({ text: String(block[0]), symbol: block[1], token: blockToken(block, bw) }));
  },

  // {done: one flag per item, complete}: complete when the line's marked runs are exactly the clue (unmarked
  // cells read as background); otherwise an item is done when a run the person closed on both sides
  // (by crosses, other colours or the edge) is that block, counting from an edge with no unmarked cell
  // on the way: its place is then fixed by what is marked.
  status(clue, values, colors) {
    const symbols = symbolIndex(colors);
    const blocks = clue.map(([length, symbol]) => [length, symbols.get(symbol)]);
    const filled = values.map((v) => (v > 0 ? v : 0));
    const complete = sameRuns(lineClue(filled, colors), clue);
    const done = new Array(Math.max(1, blocks.length)).fill(complete);
    if (complete || !blocks.length) return { done, complete };
    const fromLeft = closedRuns(values, 1);
    for (let k = 0; k < fromLeft.length && k < blocks.length; k++) {
      if (!sameBlock(fromLeft[k], blocks[k])) break;
      done[k] = true;
    }
    const fromRight = closedRuns(values, -1);
    for (let k = 0; k < fromRight.length && k < blocks.length; k++) {
      const b = blocks.length - 1 - k;
      if (!sameBlock(fromRight[k], blocks[b])) break;
      done[b] = true;
    }
    return { done, complete };
  },
};

function sameBlock(run, block) {
  return run[0] === block[0] && run[1] === block[1];
}

function sameRuns(a, b) {
  return a.length === b.length && a.every((x, k) => x[0] === b[k][0] && x[1] === b[k][1]);
}

// The runs [length, colour] met walking from one edge (dir 1: from the start; -1: from the end) while every
// cell passed is marked; a run counts once the cell after it is marked with something else (or the edge).
function closedRuns(values, dir) {
  const n = values.length;
  const out = [];
  let i = dir > 0 ? 0 : n - 1;
  const inside = (j) => j >= 0 && j < n;
  while (inside(i)) {
    const v = values[i];
    if (v < 0) break;
    if (v === 0) {
      i += dir;
      continue;
    }
    let j = i;
    while (inside(j) && values[j] === v) j += dir;
    if (inside(j) && values[j] < 0) break; // the run may go on into the unmarked cell
    out.push([Math.abs(j - i), v]);
    i = j;
  }
  return out;
}

export const counts = {
  name: "counts",
  background: false, // every palette index is a colour: Play fills, it does not cross
  dots: true, // Step draws one small circle per colour still possible, as the game does

  // One item per colour, in palette order: its count, a bar under it when all in a row, pale when 0.
  items(clue) {
    return clue.map((entry, k) => ({
      text: String(entry.count), color: k, token: countToken(entry), bar: !!entry.allInARow && entry.count >= 2, zero: !entry.count,
    }));
  },

  // A colour is done when the line holds exactly its count of it, all in a row or not as the clue says
  // (the count reached, no further cell can take that colour, so the runs are settled); the line is
  // complete when every cell is marked and every colour done.
  status(clue, values) {
    const n = clue.length;
    const have = new Array(n).fill(0);
    const runs = new Array(n).fill(0);
    let prev = -1;
    let unmarked = 0;
    for (const v of values) {
      if (v < 0) unmarked += 1;
      else {
        have[v] += 1;
        if (v !== prev) runs[v] += 1;
      }
      prev = v;
    }
    const done = clue.map((e, k) => have[k] === e.count && (e.count < 2 || (runs[k] === 1) === !!e.allInARow));
    return { done, complete: !unmarked && done.every(Boolean) };
  },
};

// The clue kind of a puzzle (one kind per puzzle).
export function clueKind(puzzle) {
  return isCounts(puzzle) ? counts : runs;
}
