// Play: a person solves the puzzle by hand. Mouse: the left button fills (with the chosen colour), the
// right button crosses, a click on a cell that already holds that mark clears it, and a drag paints a
// straight run along the row or column it starts in. Touch: a tap cycles (empty, filled, crossed), a long
// press crosses, a drag paints like the mouse; two fingers zoom and pan. Keyboard: arrows move, space
// fills, x crosses, Delete clears, Ctrl+Z / Ctrl+Y undo and redo. With count clues every cell takes a
// colour and there is nothing to cross: the right button, a long press and x clear instead, a tap cycles
// (empty, filled), and the colours are keys 1-9 from the first.
//
// Clue numbers grey out as the marks satisfy them (clues.js), a line whose clue is complete can be crossed
// out by itself (auto-cross), the timer runs while the mode is on screen, and the grid is complete when
// every line's runs are its clue (any solution counts). Check and Hint ask the server (POST /api/play: the
// project's engines and stepper, in a worker); nothing here deduces. Progress is kept per puzzle in the
// browser (progress.js) and in the address bar as a play link (#g=), so a reload or the back button
// finds it again.

import * as api from "../api.js";
import * as progress from "../progress.js";
import { contrast, isBlackAndWhite, isCounts } from "../puzzle.js";

const $ = (id) => document.getElementById(id);
const LONG_PRESS_MS = 450;
const SAVE_MS = 400;

let app;
const st = {
  puzzle: null, // the puzzle these cells belong to
  cells: null, // Int8Array: -1 unmarked, 0 crossed, k the palette colour k
  undo: [], // actions, each a list of [cell, before, after]
  redo: [],
  colour: 1, // what the left button and space fill with
  crosses: true, // the puzzle has a background to cross (run clues); with count clues 0 is a colour
  first: 1, // the first colour to fill with: 1 (0 is the cross), or 0 with count clues
  autoCross: false,
  elapsed: 0, // ms played before `since`
  since: null, // performance.now() when the clock last started (null: stopped)
  complete: false,
  lineDone: null, // per line (rows then columns): its clue is complete
  cursor: -1,
  stroke: null,
  hint: null, // the last hint's answer (for the tests: the cells it decides)
  marks: {},
  saveTimer: 0,
  tick: 0,
  controller: null,
  pendingGame: null, // progress from a play link, for the next puzzle that starts
  answers: 0, // answers of the server shown so far (the tests wait for the next one)
};

// --- the grid ----------------------------------------------------------------------------------------

function lineValues(kind, index) {
  const { width: w, height: h } = st.puzzle;
  const out = [];
  if (kind === "rows") for (let c = 0; c < w; c++) out.push(st.cells[index * w + c]);
  else for (let r = 0; r < h; r++) out.push(st.cells[r * w + index]);
  return out;
}

function lineCells(kind, index) {
  const { width: w, height: h } = st.puzzle;
  const out = [];
  if (kind === "rows") for (let c = 0; c < w; c++) out.push(index * w + c);
  else for (let r = 0; r < h; r++) out.push(r * w + index);
  return out;
}

// Re-read one line against its clue: grey out what is done; remember whether it is complete.
function review(kind, index) {
  const clue = (kind === "rows" ? st.puzzle.rows : st.puzzle.columns)[index];
  const { done, complete } = app.board.kind.status(clue, lineValues(kind, index), st.puzzle.colors);
  app.board.setClueStatus(kind, index, done, complete);
  st.lineDone[(kind === "rows" ? 0 : st.puzzle.height) + index] = complete;
  return complete;
}

function reviewAll() {
  for (let r = 0; r < st.puzzle.height; r++) review("rows", r);
  for (let c = 0; c < st.puzzle.width; c++) review("columns", c);
}

// Set cells (without recording): the board, the clues of the lines they are on.
function setCells(changes, field = 2) {
  const w = st.puzzle.width;
  const rows = new Set();
  const cols = new Set();
  for (const ch of changes) {
    const [i] = ch;
    st.cells[i] = ch[field];
    app.board.setCell(i, ch[field]);
    rows.add(Math.floor(i / w));
    cols.add(i % w);
  }
  for (const r of rows) review("rows", r);
  for (const c of cols) review("columns", c);
  return { rows, cols };
}

// A finished action: recorded for undo (with the crosses auto-cross adds), saved, and checked for the end.
function commit(changes) {
  if (!changes.length) return;
  const { rows, cols } = setCells(changes);
  if (st.autoCross) {
    const extra = [];
    const crossLine = (kind, index) => {
      if (!st.lineDone[(kind === "rows" ? 0 : st.puzzle.height) + index]) return;
      for (const i of lineCells(kind, index)) if (st.cells[i] < 0) extra.push([i, -1, 0]);
    };
    for (const r of rows) crossLine("rows", r);
    for (const c of cols) crossLine("columns", c);
    if (extra.length) {
      setCells(extra);
      changes = changes.concat(extra);
    }
  }
  st.undo.push(changes);
  st.redo = [];
  changed();
}

function changed() {
  clearMarks();
  startClock();
  const was = st.complete;
  st.complete = st.lineDone.every(Boolean);
  if (st.complete && !was) finish();
  else if (!st.complete && was) app.board.container.classList.remove("solved");
  showState();
  scheduleSave();
}

function undo() {
  const action = st.undo.pop();
  if (!action) return;
  setCells([...action].reverse(), 1);
  st.redo.push(action);
  changed();
}

function redo() {
  const action = st.redo.pop();
  if (!action) return;
  setCells(action);
  st.undo.push(action);
  changed();
}

function clearMarks() {
  if (Object.keys(st.marks).length) {
    st.marks = {};
    app.board.mark({});
  }
}

// --- strokes: mouse, touch ----------------------------------------------------------------------------

// What a stroke starting on cell i puts in the cells it crosses: a value, or -1 to clear.
function strokeValue(i, target) {
  return st.cells[i] === target ? -1 : target;
}

function startStroke(i, value) {
  st.stroke = { start: i, value, clearing: value < 0 ? st.cells[i] : null, axis: null, before: new Map(), end: i, touch: null };
  paintRun(i);
}

// Paint the straight run from the stroke's start to the cell nearest `i` on its row or column.
function paintRun(i) {
  const s = st.stroke;
  const w = st.puzzle.width;
  const [r0, c0] = [Math.floor(s.start / w), s.start % w];
  const [r1, c1] = [Math.floor(i / w), i % w];
  if (s.axis === null && i !== s.start) s.axis = Math.abs(c1 - c0) >= Math.abs(r1 - r0) ? "row" : "column";
  const run = [];
  if (s.axis === "column") for (let r = Math.min(r0, r1); r <= Math.max(r0, r1); r++) run.push(r * w + c0);
  else for (let c = Math.min(c0, c1); c <= Math.max(c0, c1); c++) run.push(r0 * w + c);
  const wanted = new Set(run);
  const changes = [];
  for (const [cell, before] of s.before) {
    if (!wanted.has(cell)) {
      changes.push([cell, st.cells[cell], before]);
      s.before.delete(cell);
    }
  }
  for (const cell of run) {
    if (s.before.has(cell)) continue;
    const before = st.cells[cell];
    // filling or crossing takes unmarked cells (and the first); clearing takes what the first cell held
    const takes = s.value < 0 ? before === s.clearing : cell === s.start || before < 0;
    if (!takes || before === s.value) continue;
    s.before.set(cell, before);
    changes.push([cell, before, s.value]);
  }
  if (changes.length) setCells(changes);
}

function endStroke() {
  const s = st.stroke;
  st.stroke = null;
  if (!s) return;
  const changes = [...s.before].map(([cell, before]) => [cell, before, st.cells[cell]]);
  if (!changes.length) return;
  // commit() sets the cells again (no change) and records the action
  commit(changes);
}

function cancelStroke() {
  const s = st.stroke;
  st.stroke = null;
  if (!s) return;
  setCells([...s.before].map(([cell, before]) => [cell, st.cells[cell], before]));
}

// --- the clock ---------------------------------------------------------------------------------------

function elapsedMs() {
  return st.elapsed + (st.since === null ? 0 : performance.now() - st.since);
}

function startClock() {
  if (st.since !== null || st.complete || app.mode !== "play" || document.hidden) return;
  st.since = performance.now();
  clearInterval(st.tick);
  st.tick = setInterval(showClock, 1000);
}

function stopClock() {
  if (st.since !== null) st.elapsed = elapsedMs();
  st.since = null;
  clearInterval(st.tick);
  showClock();
}

function clockText(ms) {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function showClock() {
  $("play-timer").textContent = clockText(elapsedMs());
}

// --- what the panel shows ----------------------------------------------------------------------------

function showState() {
  showClock();
  const n = st.cells.length;
  let marked = 0;
  for (const v of st.cells) if (v >= 0) marked++;
  $("play-count").textContent = `${marked} of ${n} cells marked`;
  $("play-undo").disabled = !st.undo.length;
  $("play-redo").disabled = !st.redo.length;
  const panel = $("panel-play");
  panel.dataset.complete = String(st.complete);
  panel.dataset.actions = String(st.undo.length);
}

function say(text, kind = "") {
  const box = $("play-info");
  box.textContent = text;
  box.className = `play-info ${kind}`;
}

function finish() {
  stopClock();
  app.board.container.classList.add("solved");
  say(`Solved in ${clockText(st.elapsed)}: every row and column matches its clue.`, "good");
  $("play-info").dataset.solved = "1";
}

function drawColours() {
  const box = $("play-colours");
  const colors = st.puzzle.colors;
  box.replaceChildren();
  box.hidden = isBlackAndWhite(st.puzzle);
  if (box.hidden) return;
  colors.forEach((c, k) => {
    if (k < st.first) return;
    const key = k - st.first + 1;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "swatch";
    b.style.background = c.rgb;
    b.title = `fill with ${c.name}${key <= 9 ? ` (key ${key})` : ""}`;
    b.setAttribute("aria-pressed", String(k === st.colour));
    b.dataset.colour = String(k);
    const sym = document.createElement("span");
    sym.className = "sym";
    sym.style.color = contrast(c.rgb);
    sym.textContent = key <= 9 ? String(key) : c.symbol;
    b.setAttribute("aria-label", `${sym.textContent}: fill with ${c.name}`); // the name holds what it shows
    b.appendChild(sym);
    b.addEventListener("click", () => chooseColour(k));
    box.appendChild(b);
  });
}

function chooseColour(k) {
  if (k < st.first || k >= st.puzzle.colors.length) return;
  st.colour = k;
  for (const b of $("play-colours").children) b.setAttribute("aria-pressed", String(b.dataset.colour === String(k)));
}

// --- saving: the browser's storage and the address bar -------------------------------------------------

function snapshot() {
  return { cells: progress.cellsToText(st.cells), elapsed: elapsedMs() / 1000, complete: st.complete };
}

function scheduleSave() {
  clearTimeout(st.saveTimer);
  st.saveTimer = setTimeout(saveNow, SAVE_MS);
  app.updateLink();
}

function saveNow() {
  clearTimeout(st.saveTimer);
  if (st.puzzle && st.cells) progress.save(st.puzzle, snapshot());
}

// Start (or go on with) the page's puzzle: progress from a play link, else from the browser, else empty.
function begin() {
  const p = app.puzzle;
  if (st.puzzle === p && st.cells) return;
  stopClock();
  st.puzzle = p;
  const n = p.width * p.height;
  const game = st.pendingGame || progress.load(p);
  st.pendingGame = null;
  st.cells = (game && progress.cellsFromText(game.cells, n, p.colors.length)) || new Int8Array(n).fill(-1);
  st.elapsed = game ? Math.max(0, Number(game.elapsed) || 0) * 1000 : 0;
  st.since = null;
  st.undo = [];
  st.redo = [];
  st.complete = false;
  st.hint = null;
  st.marks = {};
  st.cursor = -1;
  st.crosses = !isCounts(p);
  st.first = st.crosses ? 1 : 0;
  st.colour = st.first; // the first colour to fill with
  st.lineDone = new Array(p.width + p.height).fill(false);
  say(game ? "Welcome back: your progress on this puzzle is restored." : "");
  delete $("play-info").dataset.solved;
}

function draw() {
  const board = app.board;
  board.show(st.puzzle);
  board.setCrosses(st.crosses);
  $("play-autocross-row").hidden = !st.crosses; // a finished count line has no unmarked cell to cross
  $("play-help-runs").hidden = !st.crosses;
  $("play-help-counts").hidden = st.crosses;
  board.paint(st.cells);
  reviewAll();
  st.complete = st.lineDone.every(Boolean);
  board.container.classList.toggle("solved", st.complete);
  if (st.complete) {
    say(`Solved in ${clockText(st.elapsed)}: every row and column matches its clue.`, "good");
    $("play-info").dataset.solved = "1";
  }
  board.mark(st.marks);
  drawColours();
  showState();
}

// --- Check and Hint: the server's engines --------------------------------------------------------------

async function ask(action) {
  if (!st.puzzle) return null;
  if (st.controller) st.controller.abort();
  st.controller = new AbortController();
  const busy = action === "check" ? $("play-check") : $("play-hint");
  busy.setAttribute("aria-busy", "true");
  // the first request on a puzzle also finds its solutions: on a hard one that takes seconds
  const slow = setTimeout(() => say(`${action === "check" ? "Checking" : "Looking for a hint"}… (the first time on a big puzzle, the server solves it too)`), 600);
  const started = performance.now();
  const most = app.info ? app.info.limits.max_time_limit : 30;
  try {
    const got = await api.post(
      "play",
      { puzzle: app.request(), cells: Array.from(st.cells), action, channel: `${api.PAGE_ID}/play`, time_limit: Math.min(30, most) },
      { signal: st.controller.signal },
    );
    got.ms = Math.round(performance.now() - started);
    return got;
  } catch (e) {
    if (!api.isAbort(e)) say(e.message, "bad");
    return null;
  } finally {
    clearTimeout(slow);
    busy.removeAttribute("aria-busy");
  }
}

// An answer is on the page (the tests and the benchmark wait for this): `started` is when the button was
// pressed; the time to the next frame is kept as data-ms.
function answered(started) {
  requestAnimationFrame(() => {
    const info = $("play-info");
    info.dataset.ms = String(Math.round(performance.now() - started));
    st.answers += 1;
    info.dataset.answers = String(st.answers);
  });
}

function cellName(r, c) {
  return `row ${r + 1}, column ${c + 1}`;
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

// What the hint asks the player to do: "Fill r6c8, r6c9 (black); cross r6c1."
function todo(cells) {
  const colors = st.puzzle.colors;
  const names = (list) => list.map(([r, c]) => `r${r + 1}c${c + 1}`).join(", ");
  const parts = [];
  for (let k = st.first; k < colors.length; k++) {
    const fill = cells.filter((x) => x[2] === k);
    if (fill.length) parts.push(`fill ${names(fill)}${colors.length > 2 || !st.crosses ? ` with ${colors[k].name}` : ""}`);
  }
  const cross = st.crosses ? cells.filter((x) => x[2] === 0) : [];
  if (cross.length) parts.push(`cross ${names(cross)}`);
  const text = parts.join("; ");
  return text ? `So: ${text}.` : "";
}

function mistakeWords(check) {
  const n = check.mistakes.length;
  const some = check.exact ? "" : " (a change of these cells leads to a solution; there may be a smaller one)";
  return `${plural(n, "cell is", "cells are")} wrong, marked in red${some}.`;
}

async function check() {
  const started = performance.now();
  const cellsAsked = progress.cellsToText(st.cells);
  const got = await ask("check");
  if (!got) return;
  if (progress.cellsToText(st.cells) !== cellsAsked) return say("The grid changed while the server looked: ask again.");
  const c = got.check;
  const w = st.puzzle.width;
  $("play-info").dataset.check = c.status;
  if (c.status === "mistakes") {
    st.marks = { mistakes: c.mistakes.map(([r, col]) => r * w + col) };
    app.board.mark(st.marks);
    say(mistakeWords(c), "bad");
  } else if (c.status === "ok") {
    say(c.complete ? "No mistakes: the grid is a solution." : "No mistakes so far: every marked cell fits a solution.", "good");
  } else if (c.status === "no-solution") {
    say("This puzzle has no solution, so no grid can be checked against one.", "bad");
  } else {
    say("The check ran out of time; try again.", "bad");
  }
  answered(started);
}

async function hint() {
  const started = performance.now();
  const cellsAsked = progress.cellsToText(st.cells);
  const got = await ask("hint");
  if (!got) return;
  if (progress.cellsToText(st.cells) !== cellsAsked) return say("The grid changed while the server looked: ask again.");
  const h = got.hint;
  const w = st.puzzle.width;
  st.hint = h;
  const info = $("play-info");
  info.dataset.hint = h.kind;
  info.dataset.kept = String(!!got.kept);
  if (h.kind === "mistake") {
    const [r, c] = h.mistake;
    const n = got.check.mistakes.length;
    st.marks = { mistakes: [r * w + c] };
    app.board.mark(st.marks);
    app.board.scrollToCell(r * w + c);
    say(`First a mistake: ${n > 1 ? `${n} cells are wrong; one is` : "the cell at"} ${cellName(r, c)}, marked in red. Clear or change it, then ask again.`, "bad");
  } else if (h.kind === "deduction") {
    const line = h.line ? { kind: h.line[0] === "row" ? "row" : "column", index: h.line[1] } : null;
    st.marks = { line, hint: h.cells.map(([r, c]) => r * w + c) };
    app.board.mark(st.marks);
    app.board.scrollToCell(h.cells[0][0] * w + h.cells[0][1]);
    const technique = h.technique.replace(/-/g, " ");
    say(`${technique[0].toUpperCase()}${technique.slice(1)}. ${h.text} ${todo(h.cells)}`, "tip");
    info.title = h.about || "";
    if (h.before.length) {
      // in colour, steps that only narrowed the colours a cell can take come first (no cell to mark)
      const more = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = `It follows ${plural(h.before.length, "step", "steps")} that narrow colours without deciding a cell`;
      const list = document.createElement("ol");
      for (const text of h.before) {
        const li = document.createElement("li");
        li.textContent = text;
        list.appendChild(li);
      }
      more.append(summary, list);
      info.appendChild(more);
    }
  } else if (h.kind === "guess") {
    say("Only a guess remains: no further cell follows from your grid by logic. Choose a cell, try a colour, and see where it leads.", "");
  } else if (h.kind === "solved") {
    say("Nothing left to find: your grid is complete and right.", "good");
  } else if (h.kind === "no-solution") {
    say("This puzzle has no solution.", "bad");
  } else {
    say("The hint ran out of time; try again.", "bad");
  }
  answered(started);
}

function restart() {
  if (!st.puzzle) return;
  const changes = [];
  st.cells.forEach((v, i) => {
    if (v >= 0) changes.push([i, v, -1]);
  });
  if (changes.length) commit(changes);
  stopClock();
  st.elapsed = 0;
  st.complete = false;
  delete $("play-info").dataset.solved;
  say("Started over (Undo brings the marks back).");
  app.board.container.classList.remove("solved");
  showState();
  saveNow();
}

// --- keyboard -------------------------------------------------------------------------------------------

function moveCursor(dr, dc) {
  const { width: w, height: h } = st.puzzle;
  const i = st.cursor < 0 ? 0 : st.cursor;
  const r = Math.max(0, Math.min(h - 1, Math.floor(i / w) + dr));
  const c = Math.max(0, Math.min(w - 1, (i % w) + dc));
  st.cursor = st.cursor < 0 ? 0 : r * w + c;
  app.board.setCursor(st.cursor);
}

function keyAt(target) {
  if (st.cursor < 0) {
    st.cursor = 0;
    app.board.setCursor(0);
  }
  const i = st.cursor;
  const value = target < 0 ? -1 : strokeValue(i, target);
  if (value !== st.cells[i]) commit([[i, st.cells[i], value]]);
}

export default {
  name: "play",

  init(a) {
    app = a;
    $("play-undo").addEventListener("click", undo);
    $("play-redo").addEventListener("click", redo);
    $("play-check").addEventListener("click", check);
    $("play-hint").addEventListener("click", hint);
    $("play-restart").addEventListener("click", restart);
    const auto = $("play-autocross");
    try {
      st.autoCross = localStorage.getItem("nonocp-play-autocross") === "1";
    } catch {
      st.autoCross = false;
    }
    auto.checked = st.autoCross;
    auto.addEventListener("change", () => {
      st.autoCross = auto.checked;
      try {
        localStorage.setItem("nonocp-play-autocross", auto.checked ? "1" : "0");
      } catch {
        /* not kept */
      }
    });
    document.addEventListener("visibilitychange", () => {
      if (document.hidden) {
        stopClock();
        saveNow();
      } else if (app.mode === "play" && st.cells && !st.complete && st.undo.length) startClock();
    });
    window.addEventListener("pagehide", saveNow);
  },

  reset() {
    stopClock();
    saveNow();
    if (st.controller) st.controller.abort();
    st.puzzle = null;
    st.cells = null;
    st.stroke = null;
  },

  puzzleChanged() {
    this.reset();
  },

  // A play link's progress, for the puzzle about to be loaded.
  adoptGame(game) {
    st.pendingGame = game;
  },

  enter() {
    if (!app.puzzle) {
      app.message("open a puzzle first");
      return;
    }
    begin();
    draw();
    if (st.undo.length || st.elapsed) startClock();
    app.updateLink();
  },

  leave() {
    cancelStroke();
    stopClock();
    saveNow();
    app.board.setCrosses(false);
    app.board.setCursor(-1);
    app.board.container.classList.remove("solved");
    app.updateLink();
  },

  // Mark cells as the player would, as one action ([[row, col, value], ...]; for the benchmark).
  mark(list) {
    if (!st.cells) return;
    const w = st.puzzle.width;
    commit(list.map(([r, c, v]) => [r * w + c, st.cells[r * w + c], v]).filter(([, before, v]) => before !== v));
  },

  // the address bar holds a play link while this mode is on
  game() {
    return st.cells ? snapshot() : null;
  },

  cellDown(i, event) {
    if (!st.cells) return;
    st.cursor = -1;
    app.board.setCursor(-1);
    if (event.pointerType === "touch") {
      // a tap cycles, a long press crosses; a drag paints what the tap would have put
      const touch = { timer: 0, long: false };
      startStroke(i, cycle(st.cells[i]));
      st.stroke.touch = touch;
      touch.timer = setTimeout(() => {
        const s = st.stroke;
        if (!s || s.touch !== touch || s.axis !== null) return;
        touch.long = true;
        cancelStroke();
        startStroke(i, strokeValue(i, crossOrClear()));
        st.stroke.touch = touch;
        if (navigator.vibrate) navigator.vibrate(15);
      }, LONG_PRESS_MS);
      return;
    }
    const target = event.button === 2 || event.shiftKey ? crossOrClear() : st.colour;
    startStroke(i, strokeValue(i, target));
  },

  cellEnter(i) {
    if (st.stroke) paintRun(i);
  },

  pointerUp() {
    if (st.stroke && st.stroke.touch) clearTimeout(st.stroke.touch.timer);
    endStroke();
  },

  cancel() {
    if (st.stroke && st.stroke.touch) clearTimeout(st.stroke.touch.timer);
    cancelStroke();
  },

  key(e) {
    if (!st.cells) return;
    const k = e.key;
    const ctrl = e.ctrlKey || e.metaKey;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (ctrl && (k === "z" || k === "Z")) {
      e.preventDefault();
      if (e.shiftKey) redo();
      else undo();
    } else if (ctrl && (k === "y" || k === "Y")) {
      e.preventDefault();
      redo();
    } else if (ctrl) {
      return;
    } else if (moves[k]) {
      e.preventDefault();
      moveCursor(...moves[k]);
    } else if (k === " " || k === "Enter") {
      e.preventDefault();
      keyAt(st.colour);
    } else if (k === "x" || k === "X") {
      keyAt(crossOrClear());
    } else if (k === "Delete" || k === "Backspace" || k === ".") {
      if (st.cursor >= 0 && st.cells[st.cursor] >= 0) commit([[st.cursor, st.cells[st.cursor], -1]]);
    } else if (/^[1-9]$/.test(k)) {
      chooseColour(Number(k) - 1 + st.first);
    } else if (k === "h" || k === "H") {
      hint();
    }
  },

  state: st,
};

// The touch cycle: unmarked, filled (the chosen colour), crossed (with count clues: unmarked, filled).
function cycle(v) {
  if (!st.crosses) return v < 0 ? st.colour : -1;
  return v < 0 ? st.colour : v === 0 ? -1 : 0;
}

// What the right button, a long press and x put: a cross, or with count clues nothing (they clear).
function crossOrClear() {
  return st.crosses ? 0 : -1;
}
