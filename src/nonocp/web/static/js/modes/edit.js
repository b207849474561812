// Edit: click a row or column clue to type it in place; the server reads every line (the same clue reader
// as nonocp's files) and the wrong ones are marked with the reason; Re-solve solves the edited puzzle.

import * as api from "../api.js";
import { clueText, isBlackAndWhite } from "../puzzle.js";

const $ = (id) => document.getElementById(id);
let app;
// lines typed but not accepted yet: {rows: {index: text}, columns: {...}}
let typed = { rows: {}, columns: {} };
let problems = [];
let editing = null; // {kind: "rows"|"columns", index}
let checking = null;

function texts() {
  const out = { rows: [], columns: [] };
  for (const kind of ["rows", "columns"]) {
    const n = kind === "rows" ? app.puzzle.height : app.puzzle.width;
    for (let i = 0; i < n; i++) out[kind].push(typed[kind][i] ?? null);
  }
  return out;
}

function redraw() {
  const marked = new Set(problems.map((p) => `${p.kind}:${p.index}`));
  app.board.show(app.puzzle, { texts: texts(), problems: marked });
  const list = $("problems");
  list.replaceChildren();
  for (const p of problems) {
    const li = document.createElement("li");
    li.textContent = p.message;
    li.dataset.kind = p.kind;
    li.dataset.index = String(p.index);
    li.addEventListener("click", () => openEditor(p.kind === "row" ? "rows" : "columns", p.index - 1));
    list.appendChild(li);
  }
  const state = $("edit-state");
  state.textContent = problems.length ? `${problems.length} clue${problems.length === 1 ? "" : "s"} to fix` : "";
}

// Ask the server to read every line (typed text where there is some, the clue otherwise).
async function validate() {
  const p = app.request();
  for (const kind of ["rows", "columns"]) {
    for (const [i, text] of Object.entries(typed[kind])) p[kind][i] = text;
  }
  if (checking) checking.abort();
  checking = new AbortController();
  try {
    const answer = await api.post("validate", { puzzle: p }, { signal: checking.signal });
    problems = answer.problems;
    if (answer.valid) {
      app.puzzle = { ...answer.puzzle, title: app.puzzle.title };
      app.isDesign = false;
      typed = { rows: {}, columns: {} };
      app.changed({ redraw: false });
      redraw();
      if (answer.mismatch) $("edit-state").textContent = `no solution by counting: ${answer.mismatch}`;
    } else {
      // every typed line stays typed until the whole puzzle reads; the wrong ones are drawn red
      app.solved = null;
      redraw();
    }
    return answer.valid;
  } catch (e) {
    if (!api.isAbort(e)) app.fail(e);
    return false;
  }
}

function openEditor(kind, index) {
  const input = $("clue-editor");
  const hdr = (kind === "rows" ? app.board.rowHeaders : app.board.colHeaders)[index];
  if (!hdr) return;
  const box = hdr.querySelector(".hdr-bg").getBoundingClientRect();
  const stage = $("board").getBoundingClientRect();
  const clue = (kind === "rows" ? app.puzzle.rows : app.puzzle.columns)[index];
  editing = { kind, index };
  input.value = typed[kind][index] ?? clueText(clue, isBlackAndWhite(app.puzzle));
  const width = Math.max(box.width, 140);
  input.style.left = `${box.right - width - stage.left + $("board").offsetLeft}px`;
  input.style.top = `${box.top - stage.top + $("board").offsetTop + (kind === "rows" ? 0 : box.height - 28)}px`;
  input.style.width = `${width}px`;
  input.style.height = `${Math.max(box.height, 24)}px`;
  input.dataset.kind = kind === "rows" ? "row" : "column";
  input.dataset.index = String(index + 1);
  input.hidden = false;
  input.focus();
  input.select();
}

function closeEditor(keep) {
  const input = $("clue-editor");
  if (!editing || input.hidden) return;
  const { kind, index } = editing;
  editing = null;
  input.hidden = true;
  if (!keep) return;
  const clue = (kind === "rows" ? app.puzzle.rows : app.puzzle.columns)[index];
  const text = input.value.trim();
  if (text === clueText(clue, isBlackAndWhite(app.puzzle)) && typed[kind][index] === undefined) return;
  typed[kind][index] = text;
  return validate();
}

export default {
  name: "edit",

  init(a) {
    app = a;
    const input = $("clue-editor");
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        closeEditor(true);
      } else if (e.key === "Escape") {
        e.preventDefault();
        closeEditor(false);
      } else if (e.key === "Tab") {
        e.preventDefault();
        const { kind, index } = editing;
        const n = kind === "rows" ? app.puzzle.height : app.puzzle.width;
        const step = e.shiftKey ? -1 : 1;
        const nextIndex = index + step;
        Promise.resolve(closeEditor(true)).then(() => {
          if (nextIndex >= 0 && nextIndex < n) openEditor(kind, nextIndex);
          else if (!e.shiftKey) openEditor(kind === "rows" ? "columns" : "rows", 0);
        });
      }
    });
    input.addEventListener("blur", () => {
      if (editing) closeEditor(true);
    });
    $("resolve").addEventListener("click", () => this.resolve());
    $("new-blank").addEventListener("click", () => {
      const w = Number($("new-width").value);
      const h = Number($("new-height").value);
      if (!(w >= 1 && h >= 1)) return app.message("width and height must be at least 1", true);
      const colors = [
        { name: "white", rgb: "#ffffff", symbol: "0" },
        { name: "black", rgb: "#000000", symbol: "1" },
      ];
      try {
        app.load({ title: "", width: w, height: h, colors, rows: Array.from({ length: h }, () => []), columns: Array.from({ length: w }, () => []) }, { mode: "edit" });
      } catch (e) {
        app.fail(e);
      }
    });
  },

  reset() {
    typed = { rows: {}, columns: {} };
    problems = [];
  },

  enter() {
    if (!app.puzzle) {
      app.message("open a puzzle first, or create a blank one here");
      return;
    }
    app.board.paint(null);
    app.board.mark({});
    redraw();
  },

  leave() {
    closeEditor(false);
    $("problems").replaceChildren();
  },

  header(kind, index) {
    if (!app.puzzle) return;
    openEditor(kind === "row" ? "rows" : "columns", index);
  },

  async resolve() {
    if (!app.puzzle) return;
    const ok = await validate();
    if (!ok) return app.message("fix the marked clues first", true);
    app.switchTo("solve");
    await app.modes.solve.run();
  },
};
