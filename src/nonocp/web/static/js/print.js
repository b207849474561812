// The print view: the blank grid with its clues (the server's SVG renderer), big, on a page of its own.
import * as api from "./api.js";
import { decode } from "./share.js";

const $ = (id) => document.getElementById(id);

async function start() {
  $("print").addEventListener("click", () => window.print());
  try {
    const found = await decode(location.hash);
    if (!found) throw new Error("no puzzle in this link");
    const { puzzle } = found;
    const body = { puzzle: { ...puzzle }, format: "svg" };
    delete body.puzzle.goal;
    const blob = await api.post("export", body, { file: true });
    const svg = new DOMParser().parseFromString(await blob.text(), "image/svg+xml").documentElement;
    $("sheet").replaceChildren(document.importNode(svg, true));
    $("print-title").textContent = puzzle.title || "Nonogram";
    $("print-size").textContent = `${puzzle.width} x ${puzzle.height}`;
    document.title = `${puzzle.title || "Nonogram"} · print`;
    document.body.dataset.ready = "1";
  } catch (e) {
    $("print-message").textContent = e.message;
    document.body.dataset.ready = "error";
  }
}

start();
