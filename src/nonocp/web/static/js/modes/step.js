// Step: the step engine's deductions one at a time (POST /api/step, on nonocp's Stepper): next, back,
// play, jump to a step; each step's technique, line and reason; the cells it changed ringed; the cells of
// the guesses in force marked; undecided cells drawn as discs cut into their candidate colours (a small dot
// in black and white); a click on a row or column clue examines that
// line now; "all remaining cells" on demand. Stepping goes on past the first solution, through the
// engine's guesses and backtracks, until every solution was reached.
//
// The server keeps nothing: the page holds the stepper's state (JSON) and sends it with each action.

import * as api from "../api.js";

const $ = (id) => document.getElementById(id);
const PLAY_MS = 250;

let app;
let answer = null; // the last answer of /api/step (state, masks, current step, recent steps, ...)
let busy = false;
let playing = false;
let controller = null;
let answers = 0; // answers shown (the tests wait for the next one)

function decided(masks) {
  // the board's values: a palette index where one colour is left, -1 elsewhere
  const out = new Int16Array(masks.length);
  for (let i = 0; i < masks.length; i++) {
    const m = masks[i];
    out[i] = m && !(m & (m - 1)) ? 31 - Math.clz32(m) : -1;
  }
  return out;
}

function lineOf(step) {
  if (!step || !step.line) return null;
  return { kind: step.line[0] === "row" ? "row" : "column", index: step.line[1] };
}

function lineWords(line) {
  return line ? `${line.kind} ${line.index + 1}` : "";
}

function techniqueWords(step) {
  return step.technique.replace(/-/g, " ");
}

function show(highlight = null) {
  const info = $("step-info");
  if (!answer) {
    info.replaceChildren();
    $("step-log").replaceChildren();
    return;
  }
  const w = app.puzzle.width;
  app.board.paint(decided(answer.masks));
  const current = answer.current;
  const shown = highlight || (current ? [current] : []);
  const changed = new Set();
  for (const s of shown) for (const [r, c] of s.changes) changed.add(r * w + c);
  const focus = shown.length ? shown[shown.length - 1] : null;
  // the cells of the guesses in force: what everything after them rests on
  const guesses = (answer.state.frames || []).map((f) => f.cell[0] * w + f.cell[1]);
  app.board.mark({ candidates: answer.masks, changed, line: lineOf(focus), guesses });

  info.replaceChildren();
  const head = document.createElement("div");
  const status = [
    `step ${answer.position}`,
    `${answer.undecided} undecided`,
    `${answer.solutions} solution${answer.solutions === 1 ? "" : "s"} found`,
  ];
  if (answer.depth) status.push(`${answer.depth} guess${answer.depth === 1 ? "" : "es"} in force`);
  if (answer.finished) status.push("finished: every solution reached");
  head.className = "meta";
  head.textContent = status.join(" · ");
  info.appendChild(head);
  if (focus) {
    const t = document.createElement("div");
    t.className = "technique";
    t.textContent = techniqueWords(focus) + (lineOf(focus) ? ` · ${lineWords(lineOf(focus))}` : "");
    t.title = focus.about || "";
    const reason = document.createElement("div");
    reason.className = "reason";
    reason.textContent = focus.text;
    info.append(t, reason);
  }
  const note = answer.note && answer.note !== "finished" ? noteWords(answer.note) : "";
  if (note) {
    const n = document.createElement("div");
    n.className = "meta";
    n.textContent = note;
    info.appendChild(n);
  }
  info.dataset.position = String(answer.position);
  info.dataset.technique = focus ? focus.technique : "";

  const log = $("step-log");
  log.replaceChildren();
  for (const s of answer.recent) {
    const li = document.createElement("li");
    li.value = s.n;
    li.textContent = s.text;
    if (current && s.n === current.n) li.className = "current";
    log.appendChild(li);
  }
  if (log.lastChild) log.lastChild.scrollIntoView({ block: "nearest" });
  $("step-jump").value = answer.position;
  $("step-back").disabled = answer.position === 0;
  $("step-next").disabled = answer.finished;
}

function noteWords(note) {
  return {
    "nothing-new": "nothing new on that line",
    contradiction: "a contradiction: some line has no valid placement left",
    "gave-up-limit": "too many completions to take the remaining cells together; step on instead",
    "gave-up-time": "the engine ran out of time for this request",
    "nothing-to-undo": "nothing to take back",
  }[note] || note;
}

// One action on the server; the answer replaces the page's stepper.
async function act(action, extra = {}) {
  if (!app.puzzle) {
    app.message("open a puzzle first", true);
    return null;
  }
  if (busy) return null;
  busy = true;
  const started = performance.now();
  controller = new AbortController();
  try {
    const body = { puzzle: app.request(), action, state: answer ? answer.state : null, ...extra };
    const got = await api.post("step", body, { signal: controller.signal });
    const arrived = performance.now();
    answer = got;
    app.remember({ step: got.position });
    show(action === "back" || action === "jump" ? null : got.taken.length ? got.taken : null);
    // the frame after the answer is drawn: what a click waited for (the tests and the benchmark read these)
    requestAnimationFrame(() => {
      const panel = $("panel-step");
      panel.dataset.ms = String(Math.round(performance.now() - started));
      panel.dataset.drawMs = String(Math.round(performance.now() - arrived)); // the page's own part
      panel.dataset.answers = String(++answers);
    });
    return got;
  } catch (e) {
    stop();
    app.fail(e);
    return null;
  } finally {
    busy = false;
  }
}

async function start() {
  answer = null;
  await act("start");
}

async function play() {
  if (playing) return stop();
  playing = true;
  $("step-play").textContent = "Pause";
  while (playing) {
    const got = await act("next");
    if (!got || got.finished || got.taken_count === 0) break;
    await new Promise((resolve) => setTimeout(resolve, PLAY_MS));
  }
  stop();
}

function stop() {
  playing = false;
  $("step-play").textContent = "Play";
}

export default {
  name: "step",

  // the server's last answer (for the tests: the masks behind what the board draws)
  get answer() {
    return answer;
  },

  init(a) {
    app = a;
    $("step-next").addEventListener("click", () => {
      stop();
      act("next");
    });
    $("step-back").addEventListener("click", () => {
      stop();
      act("back");
    });
    $("step-play").addEventListener("click", play);
    $("step-go").addEventListener("click", () => {
      stop();
      act("jump", { target: Math.max(0, Number($("step-jump").value) || 0) });
    });
    $("step-remaining").addEventListener("click", () => {
      stop();
      act("remaining");
    });
    $("step-restart").addEventListener("click", () => {
      stop();
      start();
    });
  },

  ready(info) {
    const can = !!(info && info.features && info.features.step);
    $("step-controls").hidden = !can;
    $("step-unavailable").hidden = can;
    $("step-unavailable").textContent = "Stepping needs nonocp's step engine (nonocp.analysis.stepper), which this server does not have.";
    this.available = can;
  },

  reset() {
    stop();
    if (controller) controller.abort();
    answer = null;
  },

  puzzleChanged() {
    this.reset();
  },

  enter() {
    if (!app.puzzle) {
      app.message("open a puzzle first");
      return;
    }
    app.board.show(app.puzzle);
    if (!this.available) return;
    if (answer) show();
    else {
      // a reload (or the back button): back to the step it was at
      const at = app.restoring && app.restoring.step;
      start().then(() => {
        if (at && answer) act("jump", { target: at });
      });
    }
  },

  leave() {
    stop();
  },

  header(kind, index) {
    stop();
    act("examine", { line: [kind, index] });
  },

  key(e) {
    if (e.key === "ArrowRight") {
      stop();
      act("next");
    } else if (e.key === "ArrowLeft") {
      stop();
      act("back");
    } else if (e.key === " ") {
      e.preventDefault();
      play();
    }
  },
};
