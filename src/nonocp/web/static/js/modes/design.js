// Design: draw with a palette on a grid of any size (within the server's limits); the clues follow the
// drawing as it changes; a background check (debounced, and cancelled when the drawing changes again)
// shows the solution count, the cells on which solutions differ (checkered), the rating and the guesses.
// The page never waits for the check: every request is asynchronous and a newer one aborts the older.
// Every change (a stroke, clear, invert, resize, a colour added, the kind of clues, make unique) can be
// undone and redone; a stroke never moves the grid under the pointer (clues that outgrow their margin are
// laid out again when the button is released). The drawing makes run clues, or count clues (per line and
// colour a count and whether it is all in a row; every colour, the first too, is counted).

import * as api from "../api.js";
import {
  BW_COLORS, cellsOfRows, columnValues, contrast, countClue, goalRows, isCounts, lineClue, puzzleOfDrawing, rowValues,
} from "../puzzle.js";

const $ = (id) => document.getElementById(id);
const DEBOUNCE_MS = 250;
const SYMBOLS = "abcdefghijklmnopqrstuvwxyz";
const HISTORY = 200; // changes that can be undone

let app;
const d = {
  width: 10,
  height: 10,
  colors: BW_COLORS.map((c) => ({ ...c })),
  cells: new Uint8Array(100),
  counts: false, // count clues rather than run clues
  selected: 1,
  brush: 1, // what the current stroke paints
  seq: 0, // drawing version: a check's answer counts only for the version it checked
  editedAt: 0, // performance.now() of the last change
  timer: 0,
  controller: null,
  marks: {},
  started: false,
  title: "Design",
  author: "",
  undo: [], // snapshots before each change
  redo: [],
  relayout: false, // a clue outgrew its margin during the stroke
};

function snapshot() {
  return { width: d.width, height: d.height, colors: d.colors.map((c) => ({ ...c })), cells: Uint8Array.from(d.cells), counts: d.counts };
}

// Call before a change: what undo goes back to.
function remember() {
  d.undo.push(snapshot());
  if (d.undo.length > HISTORY) d.undo.shift();
  d.redo = [];
  showHistory();
}

function restore(snap) {
  d.width = snap.width;
  d.height = snap.height;
  d.colors = snap.colors;
  d.cells = snap.cells;
  d.counts = snap.counts;
  d.selected = Math.min(d.selected, d.colors.length - 1);
  publish();
  edited();
}

function undo() {
  const snap = d.undo.pop();
  if (!snap) return;
  d.redo.push(snapshot());
  restore(snap);
  showHistory();
}

function redo() {
  const snap = d.redo.pop();
  if (!snap) return;
  d.undo.push(snapshot());
  restore(snap);
  showHistory();
}

function showHistory() {
  $("design-undo").disabled = !d.undo.length;
  $("design-redo").disabled = !d.redo.length;
  $("panel-design").dataset.undo = String(d.undo.length);
}

function limits() {
  return app.info ? app.info.limits : { max_side: 200, max_cells: 40000, max_colors: 32 };
}

// The drawing becomes the page's puzzle (a #d= link), clues and goal from the cells.
function publish(redraw = true) {
  app.puzzle = puzzleOfDrawing(d.cells, d.width, d.height, d.colors, d.title, d.counts);
  if (d.author) app.puzzle.author = d.author;
  app.isDesign = true;
  app.changed({ redraw: false });
  if (redraw) {
    app.board.show(app.puzzle);
    app.board.paint(d.cells);
    app.board.mark(d.marks);
  }
  $("design-width").value = d.width;
  $("design-height").value = d.height;
  $("design-clues").value = d.counts ? "counts" : "runs";
  // with count clues the first colour is a colour like the others: the right button paints it
  $("design-buttons").textContent = d.counts
    ? `(left button paints, right button paints ${d.colors[0].name})`
    : "(left button paints, right button erases)";
  drawPalette();
}

function paintCell(i, v) {
  if (d.cells[i] === v) return;
  d.cells[i] = v;
  const w = d.width;
  const r = Math.floor(i / w);
  const c = i % w;
  const p = app.puzzle;
  const clue = d.counts ? (values) => countClue(values, p.colors.length) : (values) => lineClue(values, p.colors);
  p.rows[r] = clue(rowValues(d.cells, w, r));
  p.columns[c] = clue(columnValues(d.cells, w, d.height, c));
  p.goal[r] = goalRows(d.cells.subarray(r * w, (r + 1) * w), w, 1, p.colors)[0];
  app.board.setCell(i, v);
  // during a stroke the grid must stay where it is: a clue that outgrows its margin is drawn past it for
  // now, and laid out again when the stroke ends
  const stroke = app.board.dragging;
  const fits = [app.board.updateClue("rows", r, stroke), app.board.updateClue("columns", c, stroke)].every(Boolean);
  if (!fits) {
    if (stroke) d.relayout = true;
    else {
      app.board.show(p, { force: true });
      app.board.paint(d.cells);
    }
  }
  edited();
}

// Something changed: stale marks go, the link follows, the check is scheduled anew.
function edited() {
  d.seq += 1;
  d.editedAt = performance.now();
  d.marks = {};
  app.board.mark({});
  app.solved = null;
  app.updateLink();
  $("check-state").textContent = "drawing changed…";
  clearTimeout(d.timer);
  if (d.controller) d.controller.abort();
  d.timer = setTimeout(check, DEBOUNCE_MS);
}

async function check() {
  const seq = d.seq;
  if (d.controller) d.controller.abort();
  const controller = new AbortController();
  d.controller = controller;
  const signal = controller.signal;
  const channel = `${api.PAGE_ID}/design`;
  const puzzle = app.request();
  const verdict = $("check-verdict");
  const rating = $("check-rating");
  $("check-state").textContent = "checking…";
  try {
    const solved = await api.post("solve", { puzzle, max_solutions: 20, time_limit: 10, channel }, { signal });
    if (seq !== d.seq) return;
    const n = solved.solutions.length;
    verdict.textContent = solved.status === "multiple" ? solved.message.replace(/^multiple: /, "several solutions: ") : solved.message;
    verdict.className = `verdict ${solved.status === "solved" ? "unique" : solved.status}`;
    verdict.dataset.status = solved.status;
    verdict.dataset.seq = String(seq);
    verdict.dataset.ms = String(Math.round(performance.now() - d.editedAt));
    app.solved = { result: solved, index: 0, roundTrip: 0 };
    rating.textContent = "";
    delete rating.dataset.verdict;
    delete verdict.dataset.ambiguous;
    if (solved.status === "multiple") {
      // the cells the solutions found disagree on, at once; every ambiguous cell when the backbone comes
      d.marks = { checkered: solved.differ.map(([r, c]) => r * d.width + c) };
      app.board.mark(d.marks);
    }
    if (n === 0) {
      $("check-state").textContent = "";
      return;
    }
    $("check-state").textContent = "rating…";
    const rated = await api.post("rate", { puzzle, time_limit: 10, max_solutions: 20, channel }, { signal });
    if (seq !== d.seq) return;
    rating.textContent = ratingWords(rated);
    rating.dataset.verdict = rated.verdict;
    if (solved.status === "multiple") {
      $("check-state").textContent = "finding every ambiguous cell…";
      const bb = await api.post("backbone", { puzzle, time_limit: 5, channel }, { signal });
      if (seq !== d.seq) return;
      if (bb.ambiguous) {
        d.marks = { checkered: bb.ambiguous.map(([r, c]) => r * d.width + c) };
        app.board.mark(d.marks);
        verdict.dataset.ambiguous = String(bb.ambiguous.length);
        verdict.textContent += ` · ${bb.ambiguous.length}${bb.exact ? "" : " or more"} ambiguous cells`;
      }
    }
    $("check-state").textContent = `checked in ${Math.round(performance.now() - d.editedAt)} ms after the last change`;
  } catch (e) {
    if (api.isAbort(e) || seq !== d.seq) return;
    $("check-state").textContent = "";
    app.fail(e);
  }
}

function ratingWords(r) {
  // the summary names the verdict and the guesses on the way to the first solution; the step engine's
  // walk over the solutions adds the guesses each solution rests on
  const per = r.guesses_per_solution && r.guesses_per_solution.length && !/guesses per solution/i.test(r.summary)
    ? ` Guesses per solution: ${r.guesses_per_solution.join(", ")}.`
    : "";
  return `${r.summary}${per}`;
}

function drawPalette() {
  const box = $("palette");
  box.replaceChildren();
  d.colors.forEach((c, k) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "swatch";
    b.style.background = c.rgb;
    b.title = k === 0 && !d.counts ? `${c.name} (background: erases)` : c.name;
    b.setAttribute("aria-pressed", String(k === d.selected));
    b.dataset.index = String(k);
    const sym = document.createElement("span");
    sym.className = "sym";
    sym.style.color = contrast(c.rgb);
    sym.textContent = k === 0 && !d.counts ? "bg" : app.puzzle && app.puzzle.colors[k] ? app.puzzle.colors[k].symbol : c.symbol;
    b.setAttribute("aria-label", `${sym.textContent}: paint with ${c.name}`); // the name holds what it shows
    b.appendChild(sym);
    b.addEventListener("click", () => {
      d.selected = k;
      drawPalette();
    });
    box.appendChild(b);
  });
}

function resize(width, height) {
  const lim = limits();
  if (!(width >= 1 && height >= 1)) return app.message("width and height must be at least 1", true);
  if (width > lim.max_side || height > lim.max_side || width * height > lim.max_cells) {
    return app.message(`this server takes at most ${lim.max_side} per side and ${lim.max_cells} cells`, true);
  }
  const cells = new Uint8Array(width * height);
  for (let r = 0; r < Math.min(height, d.height); r++) {
    for (let c = 0; c < Math.min(width, d.width); c++) cells[r * width + c] = d.cells[r * d.width + c];
  }
  remember();
  d.width = width;
  d.height = height;
  d.cells = cells;
  publish();
  edited();
}

function addColor(rgb) {
  if (d.colors.length >= limits().max_colors) return app.message(`at most ${limits().max_colors} colours`, true);
  if (d.colors.some((c) => c.rgb === rgb)) return app.message("that colour is in the palette already", true);
  const used = new Set(d.colors.map((c) => c.symbol));
  const symbol = [...SYMBOLS].find((s) => !used.has(s));
  remember();
  d.colors = [...d.colors, { name: rgb.slice(1), rgb, symbol }];
  d.selected = d.colors.length - 1;
  publish();
  edited();
}

export default {
  name: "design",

  init(a) {
    app = a;
    $("design-resize").addEventListener("click", () => resize(Number($("design-width").value), Number($("design-height").value)));
    $("design-clear").addEventListener("click", () => {
      remember();
      d.cells = new Uint8Array(d.cells.length);
      publish();
      edited();
    });
    $("design-invert").addEventListener("click", () => {
      const target = d.selected || 1;
      remember();
      d.cells = d.cells.map((v) => (v === 0 ? target : v === target ? 0 : v));
      publish();
      edited();
    });
    $("design-undo").addEventListener("click", undo);
    $("design-redo").addEventListener("click", redo);
    $("design-unique").addEventListener("click", () => this.makeUnique());
    for (const [id, key] of [["design-title", "title"], ["design-author", "author"]]) {
      $(id).addEventListener("input", () => {
        d[key] = $(id).value.trim();
        app.puzzle.title = d.title;
        if (d.author) app.puzzle.author = d.author;
        else delete app.puzzle.author;
        app.showTitle();
        app.updateLink();
      });
    }
    $("design-use").addEventListener("click", () => {
      app.switchTo("solve");
      app.modes.solve.run();
    });
    $("add-color").addEventListener("click", () => addColor($("new-color").value.toLowerCase()));
    $("design-clues").addEventListener("change", () => {
      const counts = $("design-clues").value === "counts";
      if (counts === d.counts) return;
      remember();
      d.counts = counts;
      publish();
      edited();
    });
    $("image-import").addEventListener("click", () => this.importImage());
  },

  ready(info) {
    const can = !!(info && info.features && info.features.import_image);
    $("import-controls").hidden = !can;
    $("import-unavailable").hidden = can;
    $("import-unavailable").textContent = "Importing images needs nonocp's designer library (nonocp.design), which this server does not have yet.";
    $("design-unique").hidden = !can;
  },

  reset() {
    d.started = false;
    d.marks = {};
    d.undo = [];
    d.redo = [];
    $("check-verdict").textContent = "";
    $("check-rating").textContent = "";
    $("check-state").textContent = "";
  },

  // A drawing from elsewhere (a #d= link, an imported image): it becomes the design.
  adopt(puzzle) {
    app.load(puzzle, { mode: "design", design: true }); // enter() starts the drawing from the goal
  },

  async enter() {
    if (!d.started || !app.isDesign) {
      // start from the page's puzzle: its goal, else a solution (the one on show, or one found now),
      // else blank in its size
      const p = app.puzzle;
      d.started = true;
      d.title = (p && p.title) || "Design";
      d.author = (p && p.author) || "";
      if (p) {
        let rows = p.goal || (app.solved && app.solved.result.solutions[app.solved.index]);
        if (!rows) {
          $("check-state").textContent = "solving the puzzle to start from its picture…";
          try {
            const found = await api.post("solve", { puzzle: app.request(), max_solutions: 1, time_limit: 5 });
            rows = found.solutions[0];
          } catch (e) {
            app.fail(e);
          }
          if (app.mode !== "design" || app.puzzle !== p) return;
        }
        d.width = p.width;
        d.height = p.height;
        d.counts = isCounts(p);
        d.colors = p.colors.map((c) => ({ ...c }));
        d.cells = rows ? cellsOfRows(rows, d.colors) : new Uint8Array(p.width * p.height);
      }
      d.selected = Math.min(Math.max(d.selected, 1), d.colors.length - 1);
      $("design-title").value = d.title;
      $("design-author").value = d.author;
      showHistory();
      publish();
      edited();
      return;
    }
    $("design-title").value = d.title;
    $("design-author").value = d.author;
    showHistory();
    app.board.show(app.puzzle);
    app.board.paint(d.cells);
    app.board.mark(d.marks);
    drawPalette();
    $("design-width").value = d.width;
    $("design-height").value = d.height;
  },

  leave() {
    // a check still running keeps going: its answer is shown when the mode comes back
  },

  cellDown(i, event) {
    d.brush = event.button === 2 || d.selected === 0 ? 0 : d.cells[i] === d.selected ? 0 : d.selected;
    d.strokeStart = snapshot();
    d.strokeChanged = false;
    if (d.cells[i] !== d.brush) d.strokeChanged = true;
    paintCell(i, d.brush);
  },

  cellEnter(i) {
    if (d.cells[i] !== d.brush) d.strokeChanged = true;
    paintCell(i, d.brush);
  },

  pointerUp() {
    this.endStroke();
  },

  cancel() {
    this.endStroke();
  },

  endStroke() {
    if (d.strokeStart && d.strokeChanged) {
      d.undo.push(d.strokeStart);
      if (d.undo.length > HISTORY) d.undo.shift();
      d.redo = [];
      showHistory();
    }
    d.strokeStart = null;
    if (d.relayout) {
      d.relayout = false;
      app.board.show(app.puzzle, { force: true });
      app.board.paint(d.cells);
      app.board.mark(d.marks);
    }
  },

  key(e) {
    const ctrl = e.ctrlKey || e.metaKey;
    if (ctrl && (e.key === "z" || e.key === "Z")) {
      e.preventDefault();
      if (e.shiftKey) redo();
      else undo();
    } else if (ctrl && (e.key === "y" || e.key === "Y")) {
      e.preventDefault();
      redo();
    }
  },

  // The designer library's fewest repainted cells for one solution: applied as one change (undo takes it
  // back), the repainted cells ringed.
  async makeUnique() {
    const button = $("design-unique");
    const seq = d.seq;
    button.disabled = true;
    $("check-state").textContent = "looking for the fewest cells to repaint…";
    try {
      const most = app.info ? app.info.limits.max_time_limit : 20;
      const got = await api.post("design/unique", { puzzle: app.request(true), time_limit: Math.min(20, most) });
      if (seq !== d.seq) return app.message("the drawing changed meanwhile: make unique again", true);
      if (got.status === "already-unique") {
        app.message("already unique: nothing to repaint");
        return;
      }
      remember();
      d.cells = cellsOfRows(got.goal, app.puzzle.colors); // the server's symbols: the puzzle's, not the palette's
      publish();
      edited();
      const w = d.width;
      d.marks = { changed: got.changes.map(([r, c]) => r * w + c) };
      app.board.mark(d.marks);
      const where = got.changes.slice(0, 8).map(([r, c]) => `r${r + 1}c${c + 1}`).join(", ");
      const more = got.changes.length > 8 ? ` and ${got.changes.length - 8} more` : "";
      const unique = got.status === "unique" ? "unique now" : "not unique yet (time ran out)";
      app.message(`${got.changes.length} cell${got.changes.length === 1 ? "" : "s"} repainted (ringed: ${where}${more}); ${unique}. Undo takes it back.`);
      $("panel-design").dataset.repainted = String(got.changes.length);
    } catch (e) {
      $("check-state").textContent = "";
      app.fail(e);
    } finally {
      button.disabled = false;
    }
  },

  async importImage() {
    const file = $("image-file").files[0];
    if (!file) return app.message("choose an image first", true);
    try {
      const params = { name: file.name, width: $("image-width").value, colors: $("image-colors").value };
      if ($("image-threshold").value !== "") params.threshold = $("image-threshold").value;
      const data = await api.upload("design/import", file, params);
      let puzzle = data.puzzle;
      if (d.counts) {
        // the picture's colours, its background one of them, make count clues as they are drawn
        puzzle = { ...puzzleOfDrawing(cellsOfRows(puzzle.goal, puzzle.colors), puzzle.width, puzzle.height, puzzle.colors, puzzle.title, true) };
      }
      this.adopt(puzzle);
      app.message(data.report || "");
    } catch (e) {
      app.fail(e);
    }
  },

  state: d,
};
