// The page: one puzzle at a time (app.puzzle), shown on one board, and seven modes that act on it. Each mode
// module has a panel (index.html, data-panel) and may handle the board's events; this file switches
// between them, keeps the share link in the address bar (a new history entry per puzzle, so that the
// back button goes back to the puzzle before; the mode in the entry's state, so that a reload keeps it),
// shows messages, and folds the tabs into a menu on a narrow screen.

import * as api from "./api.js";
import { Board } from "./board.js";
import { decode, encode } from "./share.js";
import { isCounts, plain, sizeOf } from "./puzzle.js";
import openMode from "./modes/open.js";
import playMode from "./modes/play.js";
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
  linkPush: false, // the next link is a new puzzle: a new history entry
  restoring: null, // while a link from the history opens: its entry's state ({mode, solved, step})
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
    const started = performance.now();
    for (const m of Object.values(this.modes)) if (m.reset) m.reset();
    if (this.puzzle) this.linkPush = true;
    this.puzzle = puzzle;
    this.isDesign = design;
    this.solved = null;
    this.board.show(puzzle);
    this.showTitle();
    this.message("");
    this.updateLink();
    this.switchTo(mode);
    // the frame after the board is drawn (the benchmark reads these)
    requestAnimationFrame(() => requestAnimationFrame(() => {
      document.body.dataset.drawMs = String(Math.round(performance.now() - started));
      document.body.dataset.paintedAt = String(Math.round(performance.now()));
      document.body.dataset.loads = String(Number(document.body.dataset.loads || 0) + 1);
    }));
  },

  // The puzzle's clues changed in place (Edit, Design): solutions found before no longer hold.
  changed({ redraw = true } = {}) {
    this.solved = null;
    for (const m of Object.values(this.modes)) if (m.puzzleChanged) m.puzzleChanged();
    if (redraw) this.board.show(this.puzzle, { force: true });
    this.showTitle();
    this.updateLink();
  },

  showTitle() {
    const p = this.puzzle;
    const colours = isCounts(p) ? `${p.colors.length} colours, count clues`
      : p && p.colors.length === 2 ? "black and white" : `${p ? p.colors.length - 1 : 0} colours`;
    $("title").textContent = p ? `${p.title || "untitled"} · ${sizeOf(p)} · ${colours}` : "";
    document.title = p && p.title ? `${p.title} · nonocp` : "nonocp workbench";
  },

  switchTo(name) {
    const next = this.modes[name];
    if (!next) return;
    if (this.mode !== name) this.message("");
    const before = this.mode;
    this.mode = name;
    if (before && before !== name && this.modes[before].leave) this.modes[before].leave();
    for (const b of document.querySelectorAll(".tabs button")) b.setAttribute("aria-selected", String(b.dataset.mode === name));
    for (const p of document.querySelectorAll("[data-panel]")) p.hidden = p.dataset.panel !== name;
    document.body.dataset.mode = name;
    const tab = document.querySelector(`.tabs button[data-mode="${name}"]`);
    $("menu-mode").textContent = tab ? tab.textContent : name;
    menu(false);
    if (this.puzzle && !this.linkPending) history.replaceState({ ...(history.state || {}), mode: this.keptMode() }, "");
    if (next.enter) next.enter();
  },

  // Something to find again after a reload or the back button (a verdict, a step position), kept in
  // the history entry of this puzzle.
  remember(fields) {
    if (this.puzzle && !this.linkPending) history.replaceState({ ...(history.state || {}), ...fields }, "");
  },

  // The mode a history entry keeps for its puzzle: Open is a way to another puzzle, not a view of this one.
  keptMode() {
    return this.mode === "open" ? (history.state && history.state.mode) || "solve" : this.mode;
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
    // in Play, the link carries the player's progress (a play link)
    const game = this.mode === "play" ? this.modes.play.game() : null;
    const fragment = game ? await encode(this.puzzle, false, game) : await encode(this.puzzle, this.isDesign);
    if (version !== this.linkVersion) return; // a newer puzzle is being encoded
    this.linkPending = false;
    this.link = `${location.origin}${location.pathname}${fragment}`;
    const state = { ...(this.linkPush ? {} : history.state || {}), mode: this.keptMode() };
    if (this.linkPush && location.hash.length > 3) history.pushState(state, "", fragment);
    else history.replaceState(state, "", fragment);
    this.linkPush = false;
    document.body.dataset.link = this.link;
    if (this.modes.share.linkChanged) this.modes.share.linkChanged(this.link);
  },

  // The puzzle as the API takes it (without the goal unless asked: the solver does not need it).
  request(withGoal = false) {
    const p = plain(this.puzzle);
    if (!withGoal) delete p.goal;
    return p;
  },

  // `link`: a link's text, or what decode() made of one (or the Error it threw); `mode`: the mode to show
  // (default: Play for a play link, Design for a design, else Solve); `push`: false when the link comes
  // from the history (a reload, the back button): its entry stays as it is.
  async openLink(link, mode = null, push = true) {
    if (link instanceof Error) throw link;
    const found = typeof link === "string" ? await decode(link) : link;
    if (!found) throw new Error("that link holds no puzzle (it has no #p=, #g= or #d= part)");
    if (found.design) {
      this.modes.design.adopt(found.puzzle);
      if (mode && mode !== "design") this.switchTo(mode);
    } else {
      if (found.game) this.modes.play.adoptGame(found.game);
      this.load(found.puzzle, { mode: mode || (found.game ? "play" : "solve") });
    }
    if (!push) this.linkPush = false;
  },
};

// The tabs as a menu (narrow screens: the CSS shows the toggle and hides the tabs until it is open).
function menu(open) {
  const toggle = $("menu-toggle");
  toggle.setAttribute("aria-expanded", String(open));
  document.querySelector("header.top").classList.toggle("menu-open", open);
}

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
    cancel: delegate("cancel"),
    header: delegate("header"),
    zoomed: (z) => {
      $("zoom-level").textContent = `${Math.round(z * 100)} %`;
    },
  });
  for (const mode of [openMode, playMode, solveMode, stepMode, designMode, editMode, shareMode]) {
    app.modes[mode.name] = mode;
    mode.init(app);
  }
  for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => app.switchTo(b.dataset.mode));
  $("menu-toggle").addEventListener("click", () => menu($("menu-toggle").getAttribute("aria-expanded") !== "true"));
  document.addEventListener("click", (e) => {
    if (!e.target.closest("header.top")) menu(false);
  });
  const zoomBy = (f) => app.board.setZoom(app.board.zoom * f);
  $("zoom-in").addEventListener("click", () => zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => zoomBy(0.8));
  $("zoom-fit").addEventListener("click", () => app.board.setZoom(1));
  document.addEventListener("keydown", (e) => {
    const mode = app.modes[app.mode];
    if (e.target.closest("input, textarea, select, summary")) return;
    // space and Enter on a button press the button; keys on the board (or the page) go to the mode
    if ((e.key === " " || e.key === "Enter") && e.target.closest("button, a")) return;
    if (e.key === "Escape") menu(false);
    if (mode && mode.key) mode.key(e);
  });
  // the link is read while the server answers (both come before the first drawing of the board)
  const linked = location.hash.length > 3 ? decode(location.hash).catch((e) => e) : null;
  try {
    app.info = await api.get("info");
  } catch (e) {
    app.message(`the server did not answer: ${e.message}`, true);
  }
  for (const m of Object.values(app.modes)) if (m.ready) m.ready(app.info);
  window.addEventListener("hashchange", () => {
    if (location.href === app.link) return;
    app.restoring = history.state || {};
    app.openLink(location.hash, app.restoring.mode, false)
      .catch((e) => app.fail(e))
      .finally(() => {
        app.restoring = null;
      });
  });
  if (linked) {
    try {
      app.restoring = history.state || {};
      await app.openLink(await linked, app.restoring.mode, false);
    } catch (e) {
      app.switchTo("open");
      app.fail(e);
    }
    app.restoring = null;
  } else {
    app.switchTo("open");
    app.message("Open a puzzle, or draw one in Design.");
  }
  document.body.dataset.ready = "1";
}

window.nonocp = app; // for the browser tests and the benchmark (and curious people)
start();
