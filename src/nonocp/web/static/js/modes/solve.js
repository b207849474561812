// Solve: the verdict (unique / multiple with the count / none / timeout), the engine and the time; browse
// the solutions found; cells that differ between them on a checkered background.

import * as api from "../api.js";
import { cellsOfRows } from "../puzzle.js";

const $ = (id) => document.getElementById(id);
let app;
let controller = null;

function verdictClass(status) {
  return status === "solved" ? "unique" : status;
}

function show() {
  const solved = app.solved;
  const verdict = $("verdict");
  if (!solved) {
    verdict.textContent = "";
    verdict.className = "verdict";
    $("solve-meta").textContent = "";
    $("sol-pos").textContent = "";
    $("sol-prev").disabled = $("sol-next").disabled = true;
    if (app.puzzle) {
      app.board.paint(null);
      app.board.mark({});
    }
    return;
  }
  const { result, index } = solved;
  verdict.textContent = result.message;
  verdict.className = `verdict ${verdictClass(result.status)}`;
  verdict.dataset.status = result.status;
  const killed = result.killed ? " · stopped at the limit" : "";
  $("solve-meta").textContent = `${result.engine} · ${result.seconds.toFixed(3)} s in the engine · ${solved.roundTrip} ms in all${killed}`;
  const n = result.solutions.length;
  $("sol-pos").textContent = n ? `solution ${index + 1} of ${n}${result.exhausted ? "" : "+"}` : "no solution to show";
  $("sol-prev").disabled = index <= 0;
  $("sol-next").disabled = index >= n - 1;
  if (n) {
    app.board.paint(cellsOfRows(result.solutions[index], app.puzzle.colors));
    const w = app.puzzle.width;
    app.board.mark({ checkered: result.differ.map(([r, c]) => r * w + c) });
  } else {
    app.board.paint(null);
    app.board.mark({});
  }
}

async function run() {
  if (!app.puzzle) return app.message("open a puzzle first", true);
  if (controller) controller.abort();
  controller = new AbortController();
  const body = {
    puzzle: app.request(),
    engine: $("engine").value || "auto",
    max_solutions: Math.max(1, Math.min(Number($("max-solutions").value) || 20, app.info ? app.info.limits.max_solutions : 100)),
    time_limit: Math.max(0.1, Number($("time-limit").value) || 10),
    channel: `${api.PAGE_ID}/solve`,
  };
  const verdict = $("verdict");
  verdict.textContent = "solving…";
  verdict.className = "verdict";
  delete verdict.dataset.status;
  const started = performance.now();
  try {
    const result = await api.post("solve", body, { signal: controller.signal });
    const arrived = performance.now();
    app.solved = { result, index: 0, roundTrip: Math.round(performance.now() - started) };
    app.message("");
    app.remember({ solved: true });
    show();
    // the frame after the solution is drawn: what the click waited for (the benchmark reads it)
    requestAnimationFrame(() => {
      verdict.dataset.ms = String(Math.round(performance.now() - started));
      verdict.dataset.drawMs = String(Math.round(performance.now() - arrived)); // the page's own part
    });
  } catch (e) {
    if (api.isAbort(e)) return;
    verdict.textContent = "";
    app.fail(e);
  }
}

export default {
  name: "solve",

  init(a) {
    app = a;
    $("solve-run").addEventListener("click", run);
    $("sol-prev").addEventListener("click", () => this.browse(-1));
    $("sol-next").addEventListener("click", () => this.browse(1));
  },

  ready(info) {
    const engines = info ? info.engines : ["auto"];
    for (const name of engines) {
      const o = document.createElement("option");
      o.value = name;
      o.textContent = name;
      $("engine").appendChild(o);
    }
    $("engine").value = info ? info.default_engine : "auto";
    if (info) $("max-solutions").max = info.limits.max_solutions;
    if (info) $("time-limit").max = info.limits.max_time_limit;
  },

  browse(delta) {
    if (!app.solved) return;
    const n = app.solved.result.solutions.length;
    app.solved.index = Math.max(0, Math.min(n - 1, app.solved.index + delta));
    show();
  },

  key(e) {
    if (e.key === "ArrowLeft") this.browse(-1);
    else if (e.key === "ArrowRight") this.browse(1);
    else if (e.key === "Enter") run();
  },

  enter() {
    if (app.puzzle) app.board.show(app.puzzle);
    show();
    // a reload (or the back button) of a puzzle that was solved: solve it again
    if (app.puzzle && !app.solved && app.restoring && app.restoring.solved) run();
  },

  run,
};
