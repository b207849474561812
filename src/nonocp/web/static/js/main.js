// The page: one puzzle at a time (app.puzzle), shown on one board, and six modes that act on it. Each mode
// module has a panel (index.html, data-panel) and may handle the board's events; this file switches
// between them, keeps the share link in the address bar, and shows messages.

import * as api from "./api.js";
import { Board } from "./board.js";
import { decode, encode } from "./share.js";
import { plain, sizeOf } from "./puzzle.js";
import openMode from "./modes/open.js";
import solveMode from "./modes/solve.js";
import stepMode from "./modes/step.js";
import designMode from "./modes/design.js";
import editMode from "./modes/edit.js";
import shareMode from "./modes/share.js";

const $ = (id) => document.getElementById(id);

export const app = {
  info: null, // GET /api/info: engines, formats, limits, features
  puzzle: null, // the current puzzle (nonocp JSON puzzle object)
  isDesign: false, // the puzzle is the Design mode's drawing (its link is a #d= link)
  solved: null, // the last solve of this puzzle: {result, index}
  mode: null,
  modes: {},
  board: null,
  linkTimer: 0,
  linkVersion: 0,
  linkPending: false, // a change not yet in the address bar (for the tests)
  link: "",

  message(text, error = false) {
    const box = $("message");
    box.textContent = text || "";
    box.classList.toggle("error", !!error);
  },

  fail(error) {
    if (!api.isAbort(error)) this.message(error.message || String(error), true);
  },

  // A new puzzle for the whole page (opened, decoded from a link, created): every mode starts over on it.
  load(puzzle, { mode = "solve", design = false } = {}) {
    const limits = this.info ? this.info.limits : { max_side: 200, max_cells: 40000 };
    if (puzzle.width > limits.max_side || puzzle.height > limits.max_side || puzzle.width * puzzle.height > limits.max_cells) {
      throw new Error(`the puzzle is ${sizeOf(puzzle)}; this server takes at most ${limits.max_side} per side and ${limits.max_cells} cells`);
    }
    this.puzzle = puzzle;
    this.isDesign = design;
    this.solved = null;
    for (const m of Object.values(this.modes)) if (m.reset) m.reset();
    this.board.show(puzzle);
    this.showTitle();
    this.message("");
    this.updateLink();
    this.switchTo(mode);
  },

  // The puzzle's clues changed in place (Edit, Design): solutions found before no longer hold.
  changed({ redraw = true } = {}) {
    this.solved = null;
    for (const m of Object.values(this.modes)) if (m.puzzleChanged) m.puzzleChanged();
    if (redraw) this.board.show(this.puzzle);
    this.showTitle();
    this.updateLink();
  },

  showTitle() {
    const p = this.puzzle;
    $("title").textContent = p ? `${p.title || "untitled"} · ${sizeOf(p)} · ${p.colors.length === 2 ? "black and white" : `${p.colors.length - 1} colours`}` : "";
    document.title = p && p.title ? `${p.title} · nonocp` : "nonocp workbench";
  },

  switchTo(name) {
    const next = this.modes[name];
    if (!next) return;
    if (this.mode !== name) this.message("");
    if (this.mode && this.mode !== name && this.modes[this.mode].leave) this.modes[this.mode].leave();
    this.mode = name;
    for (const b of document.querySelectorAll(".tabs button")) b.setAttribute("aria-selected", String(b.dataset.mode === name));
    for (const p of document.querySelectorAll("[data-panel]")) p.hidden = p.dataset.panel !== name;
    document.body.dataset.mode = name;
    if (next.enter) next.enter();
  },

  // The address bar's fragment follows the puzzle (debounced: compressing is asynchronous).
  updateLink() {
    clearTimeout(this.linkTimer);
    this.linkPending = true;
    this.linkTimer = setTimeout(() => this.writeLink(), 120);
  },

  async writeLink() {
    if (!this.puzzle) return;
    const version = ++this.linkVersion;
    const fragment = await encode(this.puzzle, this.isDesign);
    if (version !== this.linkVersion) return; // a newer puzzle is being encoded
    this.linkPending = false;
    this.link = `${location.origin}${location.pathname}${fragment}`;
    history.replaceState(null, "", fragment);
    document.body.dataset.link = this.link;
    if (this.modes.share.linkChanged) this.modes.share.linkChanged(this.link);
  },

  // The puzzle as the API takes it (without the goal unless asked: the solver does not need it).
  request(withGoal = false) {
    const p = plain(this.puzzle);
    if (!withGoal) delete p.goal;
    return p;
  },

  async openLink(link) {
    const found = await decode(link);
    if (!found) throw new Error("that link holds no puzzle (it has no #p= or #d= part)");
    if (found.design) {
      this.modes.design.adopt(found.puzzle);
    } else {
      this.load(found.puzzle, { mode: "solve" });
    }
  },
};

function delegate(event) {
  return (...args) => {
    const mode = app.modes[app.mode];
    if (mode && mode[event]) mode[event](...args);
  };
}

async function start() {
  app.board = new Board($("board"), {
    cellDown: delegate("cellDown"),
    cellEnter: delegate("cellEnter"),
    pointerUp: delegate("pointerUp"),
    header: delegate("header"),
  });
  for (const mode of [openMode, solveMode, stepMode, designMode, editMode, shareMode]) {
    app.modes[mode.name] = mode;
    mode.init(app);
  }
  for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => app.switchTo(b.dataset.mode));
  document.addEventListener("keydown", (e) => {
    const mode = app.modes[app.mode];
    if (e.target.closest("input, textarea, select")) return;
    if (mode && mode.key) mode.key(e);
  });
  try {
    app.info = await api.get("info");
  } catch (e) {
    app.message(`the server did not answer: ${e.message}`, true);
  }
  for (const m of Object.values(app.modes)) if (m.ready) m.ready(app.info);
  window.addEventListener("hashchange", () => {
    if (location.href !== app.link) app.openLink(location.hash).catch((e) => app.fail(e));
  });
  if (location.hash.length > 3) {
    try {
      await app.openLink(location.hash);
    } catch (e) {
      app.switchTo("open");
      app.fail(e);
    }
  } else {
    app.switchTo("open");
    app.message("Open a puzzle, or draw one in Design.");
  }
  document.body.dataset.ready = "1";
}

window.nonocp = app; // for the browser tests and the benchmark (and curious people)
start();
