// Share and export: the link (the address bar's, kept up to date as the puzzle changes), files in nonocp's
// formats and pictures (from the server's writers and renderers), and a print view.

import * as api from "../api.js";
import { isCounts } from "../puzzle.js";

const $ = (id) => document.getElementById(id);
let app;

async function exportAs(format) {
  if (!app.puzzle) return app.message("open a puzzle first", true);
  const body = { puzzle: app.request(true), format };
  const picture = format === "svg" || format === "png";
  if (picture && $("export-solution").checked && app.solved && app.solved.result.solutions.length) {
    body.grid = app.solved.result.solutions[app.solved.index];
  }
  try {
    const blob = await api.post("export", body, { file: true });
    const safe = (app.puzzle.title || "puzzle").replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 60) || "puzzle";
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${safe}.${format}`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    app.message(`exported ${a.download}`);
  } catch (e) {
    app.fail(e);
  }
}

export default {
  name: "share",

  init(a) {
    app = a;
    $("share-copy").addEventListener("click", async () => {
      const input = $("share-url");
      try {
        await navigator.clipboard.writeText(input.value);
        app.message("link copied");
      } catch {
        input.select();
        app.message("select the link and copy it (the browser did not allow copying)");
      }
    });
    for (const b of document.querySelectorAll("[data-export]")) b.addEventListener("click", () => exportAs(b.dataset.export));
    $("print-view").addEventListener("click", () => {
      if (!app.puzzle) return app.message("open a puzzle first", true);
      window.open(`/print${location.hash}`, "_blank", "noopener");
    });
  },

  enter() {
    $("share-url").value = app.link || "";
    // the formats that hold this puzzle's clues (.non and XML hold run clues, .counts count clues)
    const kind = isCounts(app.puzzle) ? "counts" : "runs";
    for (const b of document.querySelectorAll("[data-export][data-clues]")) b.hidden = b.dataset.clues !== kind;
    if (app.puzzle && app.solved && app.solved.result.solutions.length) {
      app.board.mark({});
    }
  },

  linkChanged(link) {
    $("share-url").value = link;
  },
};
