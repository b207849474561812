// Open: a shipped puzzle, a file of any readable format, pasted text, or a share link.

import * as api from "../api.js";
import { fromServer } from "../puzzle.js";

const $ = (id) => document.getElementById(id);
let app;

function choose(found, label) {
  const puzzles = found.map(fromServer);
  const box = $("bundle");
  if (puzzles.length === 1) {
    box.hidden = true;
    app.load(puzzles[0], { mode: "solve" });
    return;
  }
  // a bundle: list its puzzles and open the first
  const list = $("bundle-list");
  list.replaceChildren();
  puzzles.forEach((p, k) => {
    const li = document.createElement("li");
    li.textContent = `${p.title || `puzzle ${k + 1}`} (${p.width}x${p.height})${p.notes ? `: ${p.notes}` : ""}`;
    li.addEventListener("click", () => app.load(p, { mode: "solve" }));
    list.appendChild(li);
  });
  box.hidden = false;
  app.load(puzzles[0], { mode: "open" });
  app.message(`${label}: ${puzzles.length} puzzles; the first is shown`);
}

async function openShipped(name) {
  try {
    const data = await api.get(`puzzles/${encodeURIComponent(name)}`);
    choose(data.puzzles, name);
  } catch (e) {
    app.fail(e);
  }
}

async function openBytes(body, params, label) {
  try {
    const data = await api.upload("open", body, params);
    choose(data.puzzles, label);
  } catch (e) {
    app.fail(e);
  }
}

export default {
  name: "open",

  init(a) {
    app = a;
    $("shipped").addEventListener("change", (e) => openShipped(e.target.value));
    $("shipped").addEventListener("dblclick", (e) => e.target.value && openShipped(e.target.value));
    $("file").addEventListener("change", (e) => {
      const file = e.target.files[0];
      if (file) openBytes(file, { name: file.name }, file.name);
      e.target.value = "";
    });
    $("paste-open").addEventListener("click", () => {
      const text = $("paste").value;
      if (!text.trim()) return app.message("paste a puzzle's text first", true);
      const fmt = $("paste-format").value;
      openBytes(new Blob([text]), fmt ? { format: fmt } : {}, "the pasted text");
    });
    $("link-open").addEventListener("click", () => app.openLink($("link").value).catch((e) => app.fail(e)));
  },

  async ready(info) {
    if (info) {
      for (const name of info.formats.read) {
        const o = document.createElement("option");
        o.value = name;
        o.textContent = name;
        $("paste-format").appendChild(o);
      }
    }
    try {
      const { puzzles } = await api.get("puzzles");
      for (const p of puzzles) {
        const o = document.createElement("option");
        o.value = p.name;
        const colours = p.colors > 1 ? `, ${p.colors} colours` : "";
        const kind = p.clue_kind === "counts" ? ", count clues" : "";
        o.textContent = `${p.title} (${p.width}x${p.height}${colours}${kind}${p.count > 1 ? `, ${p.count} puzzles` : ""})`;
        $("shipped").appendChild(o);
      }
    } catch (e) {
      app.fail(e);
    }
  },
};
