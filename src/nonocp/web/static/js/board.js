// The grid as SVG: column clues on top, row clues on the left, cells, and marks over the cells (the
// checkered cells that differ between solutions, the candidate colours of undecided cells, the cells a
// step changed, the line being examined). Built once per puzzle; painting and marking change attributes
// only, so that drawing on a 30x30 design stays instant.
//
// Cells are numbered row-major (i = r * width + c). A cell's value is a palette index, or -1 (unknown).

import { blockToken, contrast, isBlackAndWhite } from "./puzzle.js";

const NS = "http://www.w3.org/2000/svg";
const THIN = "#b0b0b0";
const THICK = "#404040";
const BORDER = "#000000";

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function typedTokens(text) {
  const tokens = text.split(/[\s,]+/).filter(Boolean);
  return tokens.length ? tokens : ["·"];
}

export class Board {
  // handlers: {cellDown(i, event), cellEnter(i, event), pointerUp(), header(kind, index, rect)}
  constructor(container, handlers = {}) {
    this.container = container;
    this.handlers = handlers;
    this.svg = el("svg", { class: "board", role: "img" });
    container.appendChild(this.svg);
    this.puzzle = null;
    this.dragging = false;
    this.lastCell = -1;
    this.svg.addEventListener("pointerdown", (e) => this.onDown(e));
    this.svg.addEventListener("pointermove", (e) => this.onMove(e));
    window.addEventListener("pointerup", () => this.onUp());
    this.svg.addEventListener("contextmenu", (e) => {
      if (this.cellAt(e) >= 0) e.preventDefault();
    });
  }

  // Lay out and draw `puzzle`. texts: {rows: [string|null], columns: [...]} replaces a line's blocks with
  // typed text (the Edit mode's lines being fixed); problems: Set of "row:3"/"column:2" (1-based) drawn red.
  show(puzzle, { texts = null, problems = null } = {}) {
    this.puzzle = puzzle;
    this.texts = texts;
    this.problems = problems || new Set();
    this.bw = isBlackAndWhite(puzzle);
    const { width: w, height: h } = puzzle;
    const tokens = (kind, i) => {
      const text = texts && texts[kind] && texts[kind][i];
      if (text != null) return [text];
      const clue = (kind === "rows" ? puzzle.rows : puzzle.columns)[i];
      return clue;
    };
    this.rowSlots = Math.max(1, ...puzzle.rows.map((_, i) => this.slots(tokens("rows", i))));
    this.colSlots = Math.max(1, ...puzzle.columns.map((_, i) => this.slots(tokens("columns", i))));
    const room = this.container.getBoundingClientRect();
    const fitW = (Math.max(room.width, 320) - 16) / (w + this.rowSlots);
    const fitH = (Math.max(window.innerHeight - room.top, 320) - 24) / (h + this.colSlots);
    const s = Math.max(8, Math.min(30, Math.floor(Math.min(fitW, fitH))));
    this.s = s;
    this.ox = this.rowSlots * s + 2;
    this.oy = this.colSlots * s + 2;
    const W = this.ox + w * s + 2;
    const H = this.oy + h * s + 2;
    const svg = this.svg;
    svg.replaceChildren();
    svg.setAttribute("width", W);
    svg.setAttribute("height", H);
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("aria-label", `${puzzle.title || "puzzle"}, ${w} by ${h}`);
    const defs = el("defs", {}, svg);
    const q = Math.max(2, Math.round(s / 4));
    const pattern = el("pattern", { id: "checker", width: 2 * q, height: 2 * q, patternUnits: "userSpaceOnUse" }, defs);
    el("rect", { width: 2 * q, height: 2 * q, fill: "#ffffff" }, pattern);
    el("rect", { width: q, height: q, fill: "#9a9a9a" }, pattern);
    el("rect", { x: q, y: q, width: q, height: q, fill: "#9a9a9a" }, pattern);

    this.rowHeaders = [];
    this.colHeaders = [];
    const clues = el("g", { class: "clues" }, svg);
    for (let r = 0; r < h; r++) this.rowHeaders.push(this.header(clues, "rows", r));
    for (let c = 0; c < w; c++) this.colHeaders.push(this.header(clues, "columns", c));

    const cells = el("g", { class: "cells" }, svg);
    this.cellRects = new Array(w * h);
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        this.cellRects[r * w + c] = el(
          "rect",
          { x: this.ox + c * s, y: this.oy + r * s, width: s, height: s, fill: "#ffffff", "data-r": r, "data-c": c },
          cells,
        );
      }
    }
    this.marks = el("g", { class: "marks", "pointer-events": "none" }, svg);
    this.rules(el("g", { class: "rules", "pointer-events": "none" }, svg));
    this.values = new Int16Array(w * h).fill(-1);
    this.markState = {};
  }

  slots(tokens) {
    if (!tokens.length) return 1;
    if (typeof tokens[0] === "string") return typedTokens(tokens[0]).length;
    return tokens.length;
  }

  // One line's clue box (kind "rows" or "columns"): a background that takes clicks, and the blocks.
  header(parent, kind, i) {
    const { s, ox, oy, puzzle } = this;
    const isRow = kind === "rows";
    const g = el("g", { class: "hdr", "data-kind": isRow ? "row" : "column", "data-index": i + 1 }, parent);
    const x = isRow ? 0 : ox + i * s;
    const y = isRow ? oy + i * s : 0;
    const bg = el("rect", { class: "hdr-bg", x, y, width: isRow ? ox - 2 : s, height: isRow ? s : oy - 2 }, g);
    const problem = this.problems.has(`${isRow ? "row" : "column"}:${i + 1}`);
    if (problem) g.classList.add("problem");
    g.addEventListener("click", () => this.handlers.header && this.handlers.header(isRow ? "row" : "column", i, bg));
    this.drawClue(g, kind, i);
    return g;
  }

  drawClue(g, kind, i) {
    const { s, ox, oy, puzzle } = this;
    const isRow = kind === "rows";
    for (const node of [...g.querySelectorAll(".blk")]) node.remove();
    const text = this.texts && this.texts[kind] && this.texts[kind][i];
    const clue = (isRow ? puzzle.rows : puzzle.columns)[i];
    const font = Math.max(7, Math.round(s * 0.55));
    if (text != null) {
      // a line being fixed: its typed tokens, one per slot like blocks (the server said what is wrong)
      const tokens = typedTokens(text);
      tokens.forEach((token, k) => {
        const x = isRow ? ox - 2 - (tokens.length - k) * s : ox + i * s;
        const y = isRow ? oy + i * s : oy - 2 - (tokens.length - k) * s;
        const t = el("text", { class: "blk typed", x: x + s / 2, y: y + s / 2, "font-size": Math.min(font, (s * 1.6) / Math.max(token.length, 1)) }, g);
        t.textContent = token;
      });
      return;
    }
    const blocks = clue.length ? clue : [[0, null]];
    const n = blocks.length;
    blocks.forEach((block, k) => {
      // right-aligned in rows, bottom-aligned in columns, one cell-sized box per block
      const x = isRow ? ox - 2 - (n - k) * s : ox + i * s;
      const y = isRow ? oy + i * s : oy - 2 - (n - k) * s;
      const color = block[1] == null ? null : this.colorOf(block[1]);
      let ink = "#000000";
      if (color && !this.bw) {
        el("rect", { class: "blk", x: x + 1, y: y + 1, width: s - 2, height: s - 2, rx: 2, fill: color }, g);
        ink = contrast(color);
      }
      const t = el("text", { class: "blk", x: x + s / 2, y: y + s / 2, "font-size": font, fill: block[1] == null ? "#888" : ink }, g);
      t.textContent = block[1] == null ? "0" : String(block[0]);
      t.setAttribute("data-token", block[1] == null ? "0" : blockToken(block, this.bw));
    });
  }

  colorOf(symbol) {
    const c = this.puzzle.colors.find((col) => col.symbol === symbol);
    return c ? c.rgb : "#ff00ff";
  }

  // Re-draw one line's clue after an edit; false when the margins must grow (call show() again).
  updateClue(kind, i) {
    const clue = (kind === "rows" ? this.puzzle.rows : this.puzzle.columns)[i];
    const need = this.slots(clue);
    if (need > (kind === "rows" ? this.rowSlots : this.colSlots)) return false;
    const g = (kind === "rows" ? this.rowHeaders : this.colHeaders)[i];
    this.drawClue(g, kind, i);
    return true;
  }

  rules(g) {
    const { s, ox, oy, puzzle } = this;
    const { width: w, height: h } = puzzle;
    const line = (x1, y1, x2, y2, color, width) =>
      el("line", { x1, y1, x2, y2, stroke: color, "stroke-width": width }, g);
    for (let c = 1; c < w; c++) {
      const x = ox + c * s;
      line(x, oy, x, oy + h * s, c % 5 === 0 ? THICK : THIN, c % 5 === 0 ? 1.6 : 0.6);
    }
    for (let r = 1; r < h; r++) {
      const y = oy + r * s;
      line(ox, y, ox + w * s, y, r % 5 === 0 ? THICK : THIN, r % 5 === 0 ? 1.6 : 0.6);
    }
    el("rect", { x: ox, y: oy, width: w * s, height: h * s, fill: "none", stroke: BORDER, "stroke-width": 2 }, g);
  }

  // Paint every cell: values[i] is a palette index or -1 (unknown: left blank); null clears the grid.
  paint(values) {
    const n = this.cellRects.length;
    for (let i = 0; i < n; i++) this.setCell(i, values ? values[i] : -1);
  }

  setCell(i, v) {
    if (this.values[i] === v) return;
    this.values[i] = v;
    const rect = this.cellRects[i];
    rect.setAttribute("fill", v >= 0 ? this.puzzle.colors[v].rgb : "#ffffff");
    rect.classList.toggle("known", v >= 0);
  }

  // Marks over the cells, all optional: checkered (cells that differ between solutions: a checkerboard
  // with the cell's colour as a small square on it), candidates (per cell a bit mask of the colours still
  // possible: undecided cells get a disc cut into one segment per colour), changed (cells to ring), line
  // ({kind: "row"|"column", index}: a band over the line being examined).
  mark({ checkered = null, candidates = null, changed = null, line = null } = {}) {
    const { s, ox, oy, puzzle } = this;
    const w = puzzle.width;
    const g = this.marks;
    g.replaceChildren();
    this.markState = { checkered, candidates, changed, line };
    for (const hdr of [...this.rowHeaders, ...this.colHeaders]) hdr.classList.remove("examined");
    if (line) {
      const isRow = line.kind === "row";
      const band = isRow
        ? { x: ox, y: oy + line.index * s, width: w * s, height: s }
        : { x: ox + line.index * s, y: oy, width: s, height: puzzle.height * s };
      el("rect", { ...band, class: "line-band" }, g);
      (isRow ? this.rowHeaders : this.colHeaders)[line.index].classList.add("examined");
    }
    if (checkered) {
      for (const i of checkered) {
        const r = Math.floor(i / w);
        const c = i % w;
        const x = ox + c * s;
        const y = oy + r * s;
        el("rect", { class: "checker", x, y, width: s, height: s, fill: "url(#checker)" }, g);
        const v = this.values[i];
        if (v >= 0) {
          const inset = s * 0.28;
          el("rect", { x: x + inset, y: y + inset, width: s - 2 * inset, height: s - 2 * inset, fill: puzzle.colors[v].rgb, stroke: "#666", "stroke-width": 0.5 }, g);
        }
      }
    }
    if (candidates) {
      const n = puzzle.colors.length;
      for (let i = 0; i < candidates.length; i++) {
        const m = candidates[i];
        if (!(m & (m - 1))) continue; // decided (one colour) or contradiction
        const r = Math.floor(i / w);
        const c = i % w;
        this.disc(g, ox + c * s + s / 2, oy + r * s + s / 2, s * 0.36, m, n);
      }
    }
    if (changed) {
      for (const i of changed) {
        const r = Math.floor(i / w);
        const c = i % w;
        el("rect", { class: "changed", x: ox + c * s + 1, y: oy + r * s + 1, width: s - 2, height: s - 2 }, g);
      }
    }
  }

  // A disc of radius rad at (cx, cy) cut into equal segments, one per colour in mask.
  disc(g, cx, cy, rad, mask, n) {
    const colors = [];
    for (let k = 0; k < n; k++) if (mask & (1 << k)) colors.push(this.puzzle.colors[k].rgb);
    const group = el("g", { class: "cand" }, g);
    const step = (2 * Math.PI) / colors.length;
    colors.forEach((rgb, k) => {
      const a0 = -Math.PI / 2 + k * step;
      const a1 = a0 + step;
      const x0 = cx + rad * Math.cos(a0);
      const y0 = cy + rad * Math.sin(a0);
      const x1 = cx + rad * Math.cos(a1);
      const y1 = cy + rad * Math.sin(a1);
      const large = step > Math.PI ? 1 : 0;
      el("path", { d: `M${cx} ${cy}L${x0} ${y0}A${rad} ${rad} 0 ${large} 1 ${x1} ${y1}Z`, fill: rgb }, group);
    });
    el("circle", { cx, cy, r: rad, fill: "none", stroke: "#777", "stroke-width": 0.6 }, group);
  }

  // --- pointer: cells report down/enter while a button is held (the designer paints with them) -------

  cellAt(event) {
    if (!this.puzzle) return -1;
    const pt = this.svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return -1;
    const p = pt.matrixTransform(ctm.inverse());
    const c = Math.floor((p.x - this.ox) / this.s);
    const r = Math.floor((p.y - this.oy) / this.s);
    if (c < 0 || r < 0 || c >= this.puzzle.width || r >= this.puzzle.height) return -1;
    return r * this.puzzle.width + c;
  }

  onDown(event) {
    const i = this.cellAt(event);
    if (i < 0 || !this.handlers.cellDown) return;
    event.preventDefault();
    this.dragging = true;
    this.lastCell = i;
    this.handlers.cellDown(i, event);
  }

  onMove(event) {
    if (!this.dragging) return;
    const i = this.cellAt(event);
    if (i < 0 || i === this.lastCell) return;
    this.lastCell = i;
    if (this.handlers.cellEnter) this.handlers.cellEnter(i, event);
  }

  onUp() {
    if (!this.dragging) return;
    this.dragging = false;
    this.lastCell = -1;
    if (this.handlers.pointerUp) this.handlers.pointerUp();
  }
}
