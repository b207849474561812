// Edit: click a row or column clue to change it in place; the server reads every line (the same clue
// reader as nonocp's files) and the wrong ones are marked with the reason; Re-solve solves the edited
// puzzle. Run clues are typed as text (`3 1 2`, `3a 2b`) and read when Enter keeps them; a count clue
// (count-and-contiguity puzzles) is a small form, per colour a count and an "all in a row" toggle, read by
// the server as it is typed.

import * as api from "../api.js";
import { clueText, countToken, fromServer, isBlackAndWhite, isCounts } from "../puzzle.js";

const $ = (id) => document.getElementById(id);
const CHECK_MS = 150; // a count form is read this long after the last keystroke
let app;
// lines changed but not accepted yet: {rows: {index: text or count entries}, columns: {...}}
let typed = { rows: {}, columns: {} };
let problems = [];
let editing = null; // {kind: "rows"|"columns", index, original?: the count line when its form opened}
let checking = null;
let timer = 0;
let pending = false; // a count form changed since the server last read it

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
  if (editing) app.board.mark({ line: { kind: editing.kind === "rows" ? "row" : "column", index: editing.index } });
  const list = $("problems");
  list.replaceChildren();
  for (const p of problems) {
    const li = document.createElement("li");
    li.textContent = p.message;
    li.dataset.kind = p.kind;
    li.dataset.index = String(p.index);
    if (p.kind === "row" || p.kind === "column") li.addEventListener("click", () => openEditor(p.kind === "row" ? "rows" : "columns", p.index - 1));
    list.appendChild(li);
  }
  const state = $("edit-state");
  state.textContent = problems.length ? `${problems.length} problem${problems.length === 1 ? "" : "s"} to fix` : "";
  state.dataset.problems = String(problems.length);
  if (editing && editing.original) showCountProblem();
}

// Ask the server to read every line (typed text or entries where there are some, the clue otherwise).
async function validate() {
  clearTimeout(timer);
  pending = false;
  const p = app.request();
  for (const kind of ["rows", "columns"]) {
    for (const [i, text] of Object.entries(typed[kind])) p[kind][i] = text;
  }
  if (checking) checking.abort();
  checking = new AbortController();
  const { signal } = checking;
  try {
    const answer = await api.post("validate", { puzzle: p }, { signal });
    problems = answer.problems;
    if (answer.valid) {
      app.puzzle = { ...fromServer(answer.puzzle), title: app.puzzle.title };
      app.isDesign = false;
      typed = { rows: {}, columns: {} };
      app.changed({ redraw: false });
      redraw();
      if (answer.mismatch) $("edit-state").textContent = `no solution by counting: ${answer.mismatch}`;
    } else {
      // every changed line stays changed until the whole puzzle reads; the wrong ones are drawn red
      app.solved = null;
      redraw();
    }
    $("panel-edit").dataset.checked = String(Number($("panel-edit").dataset.checked || 0) + 1);
    return answer.valid;
  } catch (e) {
    if (!api.isAbort(e)) app.fail(e);
    return false;
  } finally {
    if (checking && checking.signal === signal) checking = null;
  }
}

function clueOf(kind, index) {
  return (kind === "rows" ? app.puzzle.rows : app.puzzle.columns)[index];
}

// Where an editor goes: over the line's clue box, inside the board's area.
function placeNear(node, kind, index, width) {
  const hdr = (kind === "rows" ? app.board.rowHeaders : app.board.colHeaders)[index];
  if (!hdr) return null;
  const box = hdr.querySelector(".hdr-bg").getBoundingClientRect();
  const stage = $("board").getBoundingClientRect();
  const left = Math.max(0, Math.min(box.right - width - stage.left, stage.width - width));
  node.style.left = `${left + $("board").offsetLeft}px`;
  return { box, stage };
}

function openEditor(kind, index) {
  if (isCounts(app.puzzle)) return openCountEditor(kind, index);
  const input = $("clue-editor");
  const hdr = (kind === "rows" ? app.board.rowHeaders : app.board.colHeaders)[index];
  if (!hdr) return;
  const box = hdr.querySelector(".hdr-bg").getBoundingClientRect();
  const stage = $("board").getBoundingClientRect();
  const clue = clueOf(kind, index);
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
  if (editing && editing.original) return closeCountEditor(keep);
  const input = $("clue-editor");
  if (!editing || input.hidden) return;
  const { kind, index } = editing;
  editing = null;
  input.hidden = true;
  if (!keep) return;
  const clue = clueOf(kind, index);
  const text = input.value.trim();
  if (text === clueText(clue, isBlackAndWhite(app.puzzle)) && typed[kind][index] === undefined) return;
  typed[kind][index] = text;
  return validate();
}

// --- count clues: a form per line -------------------------------------------------------------------

function copyLine(line) {
  return line.map((e) => ({ ...e }));
}

function sameLine(a, b) {
  return a.length === b.length && a.every((e, k) => e.count === b[k].count && !!e.allInARow === !!b[k].allInARow);
}

function lineLength(kind) {
  return kind === "rows" ? app.puzzle.width : app.puzzle.height;
}

function openCountEditor(kind, index) {
  if (editing && editing.original) closeCountEditor(true);
  const form = $("count-editor");
  const line = copyLine(typed[kind][index] ?? clueOf(kind, index));
  editing = { kind, index, original: copyLine(line) };
  const what = kind === "rows" ? "Row" : "Column";
  $("count-editor-line").textContent = `${what} ${index + 1}`;
  form.dataset.kind = kind === "rows" ? "row" : "column";
  form.dataset.index = String(index + 1);
  const fields = $("count-editor-fields");
  fields.replaceChildren();
  const length = lineLength(kind);
  app.puzzle.colors.forEach((c, k) => {
    const e = line[k] || { count: 0 };
    const row = document.createElement("div");
    row.className = "count-field";
    row.dataset.colour = String(k);
    const chip = document.createElement("span");
    chip.className = "chip";
    chip.style.background = c.rgb;
    chip.setAttribute("aria-hidden", "true");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = c.name;
    name.id = `count-name-${k}`;
    const count = document.createElement("input");
    count.type = "number";
    count.min = "0";
    count.max = String(length);
    count.value = String(e.count);
    count.className = "count";
    count.setAttribute("aria-label", `${c.name}: count`);
    const together = document.createElement("label");
    const flag = document.createElement("input");
    flag.type = "checkbox";
    flag.className = "together";
    flag.checked = !!e.allInARow && e.count >= 2;
    flag.disabled = e.count < 2;
    flag.setAttribute("aria-label", `${c.name}: all in a row`);
    together.append(flag, " in a row");
    together.title = "those cells are all in one run";
    row.append(chip, name, count, together);
    fields.appendChild(row);
  });
  form.hidden = false;
  const at = placeNear(form, kind, index, form.offsetWidth);
  if (at) form.style.top = `${at.box.bottom - at.stage.top + $("board").offsetTop + 4}px`;
  showCountProblem();
  app.board.mark({ line: { kind: kind === "rows" ? "row" : "column", index } });
  fields.querySelector("input.count").focus();
  fields.querySelector("input.count").select();
}

// The form's entries, as the count JSON form writes them (the flag on counts of 2 or more).
function formLine() {
  return [...$("count-editor-fields").children].map((row) => {
    const raw = row.querySelector("input.count").value.trim();
    const n = /^\d{1,6}$/.test(raw) ? Number(raw) : raw === "" ? 0 : NaN;
    const flag = row.querySelector("input.together");
    flag.disabled = !(n >= 2);
    if (flag.disabled) flag.checked = false;
    if (Number.isNaN(n)) return { count: -1 };
    return n >= 2 ? { count: n, allInARow: flag.checked } : { count: n };
  });
}

function countInput() {
  if (!editing || !editing.original) return;
  const { kind, index } = editing;
  const line = formLine();
  if (line.some((e) => e.count < 0)) {
    $("count-editor-problem").textContent = "a count is a whole number of cells, 0 or more";
    return;
  }
  if (sameLine(line, clueOf(kind, index))) delete typed[kind][index];
  else typed[kind][index] = line;
  redraw();
  clearTimeout(timer);
  pending = true;
  timer = setTimeout(validate, CHECK_MS);
}

// The form's sum against the line, and the server's word on this line (or on the colour totals).
function showCountProblem() {
  const { kind, index } = editing;
  const line = typed[kind][index] ?? clueOf(kind, index);
  const sum = line.reduce((a, e) => a + Math.max(0, e.count), 0);
  $("count-editor-sum").textContent = `${sum} of ${lineLength(kind)} cells · ${line.map(countToken).join(" ")}`;
  const name = kind === "rows" ? "row" : "column";
  const mine = problems.filter((p) => (p.kind === name && p.index === index + 1) || p.kind === "colour");
  const box = $("count-editor-problem");
  box.textContent = mine.map((p) => p.message).join("; ");
  $("count-editor").classList.toggle("bad", mine.some((p) => p.kind === name));
}

function closeCountEditor(keep) {
  const form = $("count-editor");
  if (!editing || !editing.original) return;
  const { kind, index, original } = editing;
  editing = null;
  form.hidden = true;
  app.board.mark({});
  if (keep) {
    if (pending) return validate();
    return;
  }
  // take the line back to what it was when the form opened
  const now = typed[kind][index] ?? clueOf(kind, index);
  if (sameLine(now, original)) {
    redraw();
    return;
  }
  if (sameLine(original, clueOf(kind, index))) delete typed[kind][index];
  else typed[kind][index] = original;
  return validate();
}

function showHelp() {
  const counts = isCounts(app.puzzle);
  $("edit-help-runs").hidden = counts;
  $("edit-help-counts").hidden = !counts;
  $("new-kind").value = counts ? "counts" : "runs"; // a new blank puzzle of the kind on show
}

export default {
  name: "edit",

  // a count form changed and the server has not read it yet (for the tests)
  get pending() {
    return pending || !!checking;
  },

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
    const form = $("count-editor");
    form.addEventListener("input", countInput);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      closeCountEditor(true);
    });
    form.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        closeCountEditor(false);
      }
    });
    $("count-editor-cancel").addEventListener("click", () => closeCountEditor(false));
    // a press outside the form closes it (a press on another clue then opens that line's)
    document.addEventListener("pointerdown", (e) => {
      if (editing && editing.original && !e.target.closest("#count-editor")) closeCountEditor(true);
    });
    $("resolve").addEventListener("click", () => this.resolve());
    $("new-blank").addEventListener("click", () => {
      const w = Number($("new-width").value);
      const h = Number($("new-height").value);
      if (!(w >= 1 && h >= 1)) return app.message("width and height must be at least 1", true);
      try {
        app.load(blank(w, h, $("new-kind").value === "counts"), { mode: "edit" });
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
    showHelp();
    app.board.paint(null);
    app.board.mark({});
    redraw();
  },

  leave() {
    // a typed run clue not kept yet is dropped; a count form's changes are already read: they stay
    if (editing && editing.original) closeCountEditor(true);
    else closeEditor(false);
    $("problems").replaceChildren();
  },

  header(kind, index) {
    if (!app.puzzle) return;
    openEditor(kind === "row" ? "rows" : "columns", index);
  },

  async resolve() {
    if (!app.puzzle) return;
    if (editing) await closeEditor(true);
    const ok = await validate();
    if (!ok) return app.message("fix the marked clues first", true);
    app.switchTo("solve");
    await app.modes.solve.run();
  },
};

// A blank puzzle to fill in: run clues with every line empty, or count clues in two colours with every
// cell the first (the counts of each line add up to its length).
function blank(w, h, counts) {
  const colors = [
    { name: "white", rgb: "#ffffff", symbol: counts ? "a" : "0" },
    { name: "black", rgb: "#000000", symbol: counts ? "b" : "1" },
  ];
  if (!counts) {
    return { title: "", width: w, height: h, colors, rows: Array.from({ length: h }, () => []), columns: Array.from({ length: w }, () => []) };
  }
  const line = (n) => [n >= 2 ? { count: n, allInARow: true } : { count: n }, { count: 0 }];
  return {
    title: "", width: w, height: h, colors, clue_kind: "counts",
    rows: Array.from({ length: h }, () => line(w)), columns: Array.from({ length: w }, () => line(h)),
  };
}
