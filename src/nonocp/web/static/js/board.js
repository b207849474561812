// The grid as SVG: column clues on top, row clues on the left, cells, and marks over the cells (the
// checkered cells that differ between solutions, the candidates of undecided cells, the cells a step
// changed, the line being examined, guesses in force, a player's crosses, mistakes and hints, the
// keyboard cursor). Built once per puzzle; painting and marking change attributes only, so that drawing
// on a 30x30 design stays instant. What a clue looks like comes from its clue kind (clues.js).
//
// Cells are numbered row-major (i = r * width + c). A cell's value is a palette index, or -1 (unknown).
//
// Zoom scales the drawing (the SVG's size; its viewBox stays), and the scrolling container pans it: the
// buttons, Ctrl + wheel, and on a touch screen two fingers (pinch to zoom, move to pan).

import { clueKind } from "./clues.js";
import { contrast, isBlackAndWhite, pale } from "./puzzle.js";

const NS = "http://www.w3.org/2000/svg";
const THIN = "#b0b0b0";
const THICK = "#404040";
const BORDER = "#000000";
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 6;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function esc(text) {
  return String(text).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
}

function typedTokens(text) {
  const tokens = text.split(/[\s,]+/).filter(Boolean);
  return tokens.length ? tokens : ["·"];
}

export class Board {
  // handlers: {cellDown(i, event), cellEnter(i, event), pointerUp(event), cancel(), header(kind, index, rect),
  // zoomed(zoom)}
  constructor(container, handlers = {}) {
    this.container = container;
    this.handlers = handlers;
    this.svg = el("svg", { class: "board", role: "img" });
    container.appendChild(this.svg);
    this.puzzle = null;
    this.dragging = false;
    this.lastCell = -1;
    this.zoom = 1;
    this.crosses = false; // value 0 drawn as a cross (Play) rather than as the background colour
    this.pointers = new Map(); // touch pointers down: id -> {x, y}
    this.gesture = null;
    this.room = [0, 0]; // the container's width and the window's height when the board was laid out
    this.svg.addEventListener("pointerdown", (e) => this.onDown(e));
    this.svg.addEventListener("pointermove", (e) => this.onMove(e));
    window.addEventListener("pointerup", (e) => this.onUp(e));
    window.addEventListener("pointercancel", (e) => this.onUp(e, true));
    this.svg.addEventListener("click", (e) => {
      const hdr = e.target.closest && e.target.closest(".hdr");
      if (!hdr || !this.handlers.header) return;
      const kind = hdr.dataset.kind;
      this.handlers.header(kind, Number(hdr.dataset.index) - 1, hdr.querySelector(".hdr-bg"));
    });
    this.svg.addEventListener("contextmenu", (e) => {
      if (this.cellAt(e) >= 0) e.preventDefault();
    });
    container.addEventListener("scroll", () => this.stick(), { passive: true });
    container.addEventListener(
      "wheel",
      (e) => {
        if (!e.ctrlKey || !this.puzzle) return;
        e.preventDefault();
        this.setZoom(this.zoom * Math.exp(-e.deltaY / 300), { x: e.clientX, y: e.clientY });
      },
      { passive: false },
    );
  }

  // Lay out and draw `puzzle`. texts: {rows: [string|null], columns: [...]} replaces a line's blocks with
  // typed text (the Edit mode's lines being fixed); problems: Set of "row:3"/"column:2" (1-based) drawn red.
  // The same puzzle object drawn again in the same room is only cleared (a big board takes a while to
  // build); `force` builds it anew (its clues changed in place).
  show(puzzle, { texts = null, problems = null, force = false } = {}) {
    const room = this.container.getBoundingClientRect();
    const plain = !texts && !this.texts && !(problems && problems.size) && !(this.problems && this.problems.size);
    if (!force && plain && puzzle === this.puzzle && room.width === this.room[0] && window.innerHeight === this.room[1]) {
      this.clear();
      return;
    }
    this.room = [room.width, window.innerHeight];
    const same = this.puzzle && puzzle.width === this.puzzle.width && puzzle.height === this.puzzle.height;
    this.puzzle = puzzle;
    this.kind = clueKind(puzzle);
    this.texts = texts;
    this.problems = problems || new Set();
    this.bw = isBlackAndWhite(puzzle);
    if (!same) this.zoom = 1;
    const { width: w, height: h } = puzzle;
    this.rowSlots = Math.max(1, ...puzzle.rows.map((_, i) => this.slotsOf("rows", i)));
    this.colSlots = Math.max(1, ...puzzle.columns.map((_, i) => this.slotsOf("columns", i)));
    const fitW = (Math.max(room.width, 280) - 8) / (w + this.rowSlots);
    // beside the panel the board fits the window's height below its top; under the panel (a narrow
    // screen, where the page scrolls) three quarters of the window's height
    const narrow = window.innerWidth <= 800;
    const tall = narrow ? window.innerHeight * 0.75 : Math.max(window.innerHeight - Math.max(room.top, 0), 320);
    const fitH = (tall - 24) / (h + this.colSlots);
    const s = Math.max(8, Math.min(30, Math.floor(Math.min(fitW, fitH))));
    this.s = s;
    this.ox = this.rowSlots * s + 2;
    this.oy = this.colSlots * s + 2;
    const W = this.ox + w * s + 2;
    const H = this.oy + h * s + 2;
    this.W = W;
    this.H = H;
    const svg = this.svg;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("aria-label", `${puzzle.title || "puzzle"}, ${w} by ${h}`);
    this.applyZoom();
    // built as one piece of markup: on a 99x59 puzzle (10,000 elements) several times faster than one
    // element at a time
    const q = Math.max(2, Math.round(s / 4));
    const parts = [
      `<defs><pattern id="checker" width="${2 * q}" height="${2 * q}" patternUnits="userSpaceOnUse">`,
      `<rect width="${2 * q}" height="${2 * q}" fill="#ffffff"/><rect width="${q}" height="${q}" fill="#9a9a9a"/>`,
      `<rect x="${q}" y="${q}" width="${q}" height="${q}" fill="#9a9a9a"/></pattern></defs><g class="cells">`,
    ];
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        parts.push(`<rect x="${this.ox + c * s}" y="${this.oy + r * s}" width="${s}" height="${s}" fill="#ffffff" data-r="${r}" data-c="${c}"/>`);
      }
    }
    parts.push('</g><g class="crosses" pointer-events="none"></g><g class="dots" pointer-events="none" visibility="hidden"></g>');
    parts.push('<g class="marks" pointer-events="none"></g>');
    parts.push(`<g class="rules" pointer-events="none">${this.rulesMarkup()}</g>`);
    parts.push('<g class="overlay" pointer-events="none"></g>'); // cursor, hints: above the rules
    // the clues come last, above the grid: when the board is zoomed and scrolled they follow the view
    // (stick()), covering the cells under them, so that every line's clue stays in sight
    parts.push('<g class="clues row-clues">');
    for (let r = 0; r < h; r++) parts.push(this.headerMarkup("rows", r));
    parts.push('</g><g class="clues col-clues">');
    for (let c = 0; c < w; c++) parts.push(this.headerMarkup("columns", c));
    parts.push(`</g><rect class="corner" x="0" y="0" width="${this.ox - 1}" height="${this.oy - 1}"/>`);
    svg.innerHTML = parts.join("");
    this.rowHeaders = Array.from(svg.querySelector(".row-clues").children);
    this.colHeaders = Array.from(svg.querySelector(".col-clues").children);
    this.stuck = [0, 0];
    this.stick();
    const items = (g) => Array.from(g.querySelectorAll(".blk"));
    this.clueItems = { rows: this.rowHeaders.map(items), columns: this.colHeaders.map(items) };
    this.cellRects = Array.from(svg.querySelector(".cells").children);
    this.crossLayer = svg.querySelector(".crosses");
    this.crossMarks = new Map();
    this.marks = svg.querySelector(".marks");
    this.dotLayer = svg.querySelector(".dots");
    this.dotMasks = null;
    this.overlay = svg.querySelector(".overlay");
    this.cursorRect = null;
    this.values = new Int16Array(w * h).fill(-1);
    this.markState = {};
  }

  // Back to a blank board: no values, no marks, no clue greyed out.
  clear() {
    this.paint(null);
    this.mark({});
    this.setCursor(-1);
    for (const kind of ["rows", "columns"]) {
      this.clueItems[kind].forEach((nodes, i) => this.setClueStatus(kind, i, [], false));
    }
  }

  // A line's typed text (a string: run clues being typed), its entries being edited (an array: count
  // clues), or null.
  typed(kind, i) {
    const t = this.texts && this.texts[kind] && this.texts[kind][i];
    return t == null ? null : t;
  }

  slotsOf(kind, i) {
    const text = this.typed(kind, i);
    if (typeof text === "string") return typedTokens(text).length;
    const clue = text || (kind === "rows" ? this.puzzle.rows : this.puzzle.columns)[i];
    return this.kind.items(clue, this.bw).length;
  }

  // One line's clue box (kind "rows" or "columns"): a background that takes clicks, and the items.
  headerMarkup(kind, i) {
    const { s, ox, oy } = this;
    const isRow = kind === "rows";
    const x = isRow ? 0 : ox + i * s;
    const y = isRow ? oy + i * s : 0;
    const problem = this.problems.has(`${isRow ? "row" : "column"}:${i + 1}`) ? " problem" : "";
    return `<g class="hdr${problem}" data-kind="${isRow ? "row" : "column"}" data-index="${i + 1}">` +
      `<rect class="hdr-bg" x="${x}" y="${y}" width="${isRow ? ox - 2 : s}" height="${isRow ? s : oy - 2}"/>` +
      `${this.clueMarkup(kind, i)}</g>`;
  }

  fontSize() {
    return Math.max(7, Math.round(this.s * 0.55));
  }

  // The size clue numbers are drawn at on the screen, in CSS pixels.
  clueFontPx() {
    const shown = this.svg.getBoundingClientRect().width;
    return (this.fontSize() * shown) / this.W;
  }

  // The items of one line's clue, as markup: right-aligned in rows, bottom-aligned in columns, one
  // cell-sized box per item (in colour a box of the block's colour behind the number; in black and white
  // the number alone: a big puzzle has thousands, and fewer elements draw faster).
  clueMarkup(kind, i) {
    const { s, ox, oy, puzzle } = this;
    const isRow = kind === "rows";
    const font = this.fontSize();
    const place = (k, n) => ({
      x: isRow ? ox - 2 - (n - k) * s : ox + i * s,
      y: isRow ? oy + i * s : oy - 2 - (n - k) * s,
    });
    const text = this.typed(kind, i);
    const out = [];
    if (typeof text === "string") {
      // a line being fixed: its typed tokens, one per slot like blocks (the server said what is wrong)
      const tokens = typedTokens(text);
      tokens.forEach((token, k) => {
        const { x, y } = place(k, tokens.length);
        const size = Math.min(font, (s * 1.6) / Math.max(token.length, 1));
        out.push(`<text class="typed" x="${x + s / 2}" y="${y + s / 2}" font-size="${size}">${esc(token)}</text>`);
      });
      return out.join("");
    }
    const clue = text || (isRow ? puzzle.rows : puzzle.columns)[i];
    const items = this.kind.items(clue, this.bw);
    items.forEach((item, k) => {
      const { x, y } = place(k, items.length);
      const color = item.color != null ? puzzle.colors[item.color].rgb : item.symbol == null ? null : this.colorOf(item.symbol);
      const token = `data-token="${esc(item.token)}"`;
      const mid = `x="${x + s / 2}" y="${y + s / 2}" font-size="${font}"`;
      const box = (fill) => `<rect x="${x + 1}" y="${y + 1}" width="${s - 2}" height="${s - 2}" rx="2" fill="${esc(fill)}"/>`;
      if (color && item.zero) {
        // a count of 0: a pale box of the colour and a grey number (as nonocp's pictures draw it)
        out.push(`<g class="blk zero">${box(pale(color))}<text ${mid} fill="#595959" ${token}>${esc(item.text)}</text></g>`);
      } else if (color && !this.bw) {
        const ink = contrast(color);
        // all in a row (count clues): a bar under the number
        const bar = item.bar
          ? `<line x1="${x + s * 0.28}" y1="${y + s * 0.84}" x2="${x + s * 0.72}" y2="${y + s * 0.84}" stroke="${ink}" stroke-width="${Math.max(1.2, s * 0.07).toFixed(2)}"/>`
          : "";
        out.push(`<g class="blk${item.bar ? " together" : ""}">${box(color)}<text ${mid} fill="${ink}" ${token}>${esc(item.text)}</text>${bar}</g>`);
      } else {
        const ink = item.symbol == null ? "#595959" : "#000000";
        out.push(`<text class="blk" ${mid} fill="${ink}" ${token}>${esc(item.text)}</text>`);
      }
    });
    return out.join("");
  }

  // Draw one line's clue again (after an edit of the clue).
  drawClue(g, kind, i) {
    for (const node of [...g.querySelectorAll(".blk, .typed")]) node.remove();
    g.insertAdjacentHTML("beforeend", this.clueMarkup(kind, i));
    this.clueItems[kind][i] = Array.from(g.querySelectorAll(".blk"));
  }

  // Grey out the clue items that are done (flags in item order); `complete` marks the whole line.
  setClueStatus(kind, i, done, complete) {
    const nodes = this.clueItems[kind][i] || [];
    nodes.forEach((node, k) => node.classList.toggle("done", !!done[k]));
    const hdr = (kind === "rows" ? this.rowHeaders : this.colHeaders)[i];
    if (hdr) hdr.classList.toggle("complete", !!complete);
  }

  colorOf(symbol) {
    const c = this.puzzle.colors.find((col) => col.symbol === symbol);
    return c ? c.rgb : "#ff00ff";
  }

  // Re-draw one line's clue after an edit; false when the margins must grow (call show() again). With
  // `anyway`, the clue is drawn even then (spilling past the margin until the caller lays out again).
  updateClue(kind, i, anyway = false) {
    const need = this.slotsOf(kind, i);
    const fits = need <= (kind === "rows" ? this.rowSlots : this.colSlots);
    if (!fits && !anyway) return false;
    const g = (kind === "rows" ? this.rowHeaders : this.colHeaders)[i];
    this.drawClue(g, kind, i);
    return fits;
  }

  rulesMarkup() {
    const { s, ox, oy, puzzle } = this;
    const { width: w, height: h } = puzzle;
    const out = [];
    const line = (x1, y1, x2, y2, thick) =>
      out.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${thick ? THICK : THIN}" stroke-width="${thick ? 1.6 : 0.6}"/>`);
    for (let c = 1; c < w; c++) line(ox + c * s, oy, ox + c * s, oy + h * s, c % 5 === 0);
    for (let r = 1; r < h; r++) line(ox, oy + r * s, ox + w * s, oy + r * s, r % 5 === 0);
    out.push(`<rect x="${ox}" y="${oy}" width="${w * s}" height="${h * s}" fill="none" stroke="${BORDER}" stroke-width="2"/>`);
    return out.join("");
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
    const crossed = this.crosses && v === 0;
    rect.setAttribute("fill", v >= 0 && !crossed ? this.puzzle.colors[v].rgb : "#ffffff");
    rect.classList.toggle("known", v >= 0);
    const mark = this.crossMarks.get(i);
    if (crossed && !mark) {
      const { s, ox, oy } = this;
      const w = this.puzzle.width;
      const x = ox + (i % w) * s;
      const y = oy + Math.floor(i / w) * s;
      const k = s * 0.3;
      const path = el("path", { class: "x", d: `M${x + k} ${y + k}L${x + s - k} ${y + s - k}M${x + s - k} ${y + k}L${x + k} ${y + s - k}` }, this.crossLayer);
      this.crossMarks.set(i, path);
    } else if (!crossed && mark) {
      mark.remove();
      this.crossMarks.delete(i);
    }
  }

  // Value 0 drawn as a cross (true: Play) or as the background colour; repaints what is on the board.
  setCrosses(on) {
    if (this.crosses === on || !this.puzzle) {
      this.crosses = on;
      return;
    }
    const values = Int16Array.from(this.values);
    this.crosses = on;
    this.values.fill(-2);
    this.paint(values);
  }

  // Marks over the cells, all optional: checkered (cells that differ between solutions: a checkerboard
  // with the cell's colour as a small square on it), candidates (per cell a bit mask of the colours still
  // possible: in colour, undecided cells get a disc cut into one segment per colour; in black and white a
  // small dot), changed (cells to ring), line ({kind: "row"|"column", index}: a band over the line),
  // guesses (cells of the guesses in force), mistakes (cells to strike in red), hint (cells to ring).
  mark({ checkered = null, candidates = null, changed = null, line = null, guesses = null, mistakes = null, hint = null } = {}) {
    const { s, ox, oy, puzzle } = this;
    const w = puzzle.width;
    const g = this.marks;
    g.replaceChildren();
    for (const node of [...this.overlay.querySelectorAll(".hint-cell, .mistake")]) node.remove();
    this.markState = { checkered, candidates, changed, line, guesses, mistakes, hint };
    const at = (i) => ({ x: ox + (i % w) * s, y: oy + Math.floor(i / w) * s });
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
        const { x, y } = at(i);
        el("rect", { class: "checker", x, y, width: s, height: s, fill: "url(#checker)" }, g);
        const v = this.values[i];
        if (v >= 0) {
          const inset = s * 0.28;
          el("rect", { x: x + inset, y: y + inset, width: s - 2 * inset, height: s - 2 * inset, fill: puzzle.colors[v].rgb, stroke: "#666", "stroke-width": 0.5 }, g);
        }
      }
    }
    if (this.kind.dots) this.showDots(candidates);
    else if (candidates) {
      const n = puzzle.colors.length;
      for (let i = 0; i < candidates.length; i++) {
        const m = candidates[i];
        if (!(m & (m - 1))) continue; // decided (one colour) or contradiction
        const { x, y } = at(i);
        if (this.bw) el("circle", { class: "cand", cx: x + s / 2, cy: y + s / 2, r: Math.max(1, s * 0.08) }, g);
        else this.disc(g, x + s / 2, y + s / 2, s * 0.36, m, n);
      }
    }
    if (changed) {
      for (const i of changed) {
        const { x, y } = at(i);
        el("rect", { class: "changed", x: x + 1, y: y + 1, width: s - 2, height: s - 2 }, g);
      }
    }
    if (guesses) {
      for (const i of guesses) {
        const { x, y } = at(i);
        el("rect", { class: "guess", x: x + 1.5, y: y + 1.5, width: s - 3, height: s - 3, rx: s * 0.25 }, g);
        const t = el("text", { class: "guess-mark", x: x + s - s * 0.2, y: y + s * 0.22, "font-size": Math.max(6, s * 0.4) }, g);
        t.textContent = "?";
      }
    }
    if (mistakes) {
      for (const i of mistakes) {
        const { x, y } = at(i);
        el("rect", { class: "mistake", x: x + 1, y: y + 1, width: s - 2, height: s - 2, "data-r": Math.floor(i / w), "data-c": i % w }, this.overlay);
      }
    }
    if (hint) {
      for (const i of hint) {
        const { x, y } = at(i);
        el("rect", { class: "hint-cell", x: x + 1.5, y: y + 1.5, width: s - 3, height: s - 3, "data-r": Math.floor(i / w), "data-c": i % w }, this.overlay);
      }
    }
  }

  // Count clues: an undecided cell holds one small circle per colour, each in its own place in the cell;
  // a colour ruled out shrinks its circle away (a CSS transition), and a decided cell's circles all go as
  // its colour fills it. The circles are built once per layout, then only their class changes, so that a
  // step on a 20x20 six-colour puzzle touches only the cells it changed. null hides them all at once.
  showDots(candidates) {
    const layer = this.dotLayer;
    if (!candidates) {
      layer.setAttribute("visibility", "hidden");
      return;
    }
    if (!layer.firstChild) {
      layer.innerHTML = this.dotsMarkup(candidates); // drawn as they are, not shrinking
    } else {
      const n = this.puzzle.colors.length;
      const circles = layer.children;
      const before = this.dotMasks;
      for (let i = 0; i < candidates.length; i++) {
        const m = candidates[i];
        if (before[i] === m) continue;
        const shown = m & (m - 1) ? m : 0; // one colour left (decided) or none: no circle
        for (let k = 0; k < n; k++) circles[i * n + k].classList.toggle("gone", !((shown >> k) & 1));
      }
    }
    this.dotMasks = Array.from(candidates);
    layer.removeAttribute("visibility");
  }

  // Every cell's circles, row-major, colour after colour (n per cell): on a grid of ceil(sqrt(n)) columns
  // in the cell, a short last row centred.
  dotsMarkup(candidates) {
    const { s, ox, oy, puzzle } = this;
    const n = puzzle.colors.length;
    const cols = Math.ceil(Math.sqrt(n));
    const rows = Math.ceil(n / cols);
    const pitch = (s * 0.84) / Math.max(cols, rows);
    const rad = pitch * 0.4;
    const slots = [];
    for (let k = 0; k < n; k++) {
      const row = Math.floor(k / cols);
      const inRow = row === rows - 1 ? n - row * cols : cols;
      slots.push([(k % cols - (inRow - 1) / 2) * pitch, (row - (rows - 1) / 2) * pitch]);
    }
    const out = [];
    for (let r = 0; r < puzzle.height; r++) {
      for (let c = 0; c < puzzle.width; c++) {
        const cx = ox + c * s + s / 2;
        const cy = oy + r * s + s / 2;
        const m = candidates[r * puzzle.width + c];
        const shown = m & (m - 1) ? m : 0;
        slots.forEach(([dx, dy], k) => {
          out.push(`<circle class="dot${(shown >> k) & 1 ? "" : " gone"}" cx="${(cx + dx).toFixed(1)}" cy="${(cy + dy).toFixed(1)}" r="${rad.toFixed(2)}" fill="${puzzle.colors[k].rgb}"/>`);
        });
      }
    }
    return out.join("");
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

  // The keyboard cursor on cell i (-1: none), kept in view.
  setCursor(i) {
    if (i < 0) {
      if (this.cursorRect) this.cursorRect.remove();
      this.cursorRect = null;
      return;
    }
    const { s, ox, oy } = this;
    const w = this.puzzle.width;
    const x = ox + (i % w) * s;
    const y = oy + Math.floor(i / w) * s;
    if (!this.cursorRect) this.cursorRect = el("rect", { class: "cursor" }, this.overlay);
    for (const [k, v] of Object.entries({ x: x + 1, y: y + 1, width: s - 2, height: s - 2 })) this.cursorRect.setAttribute(k, v);
    this.scrollToCell(i);
  }

  scrollToCell(i) {
    const rect = this.cellRects[i];
    if (!rect) return;
    const box = rect.getBoundingClientRect();
    const view = this.container.getBoundingClientRect();
    if (box.left < view.left) this.container.scrollLeft -= view.left - box.left + 4;
    else if (box.right > view.right) this.container.scrollLeft += box.right - view.right + 4;
    if (box.top < view.top) this.container.scrollTop -= view.top - box.top + 4;
    else if (box.bottom > view.bottom) this.container.scrollTop += box.bottom - view.bottom + 4;
  }

  // --- zoom and pan ---------------------------------------------------------------------------------

  // Keep the clues in sight of a scrolled board: the row clues move right and the column clues down by
  // as much as the grid is scrolled past them, unless their margin would cover most of the view (long
  // clues zoomed on a phone: then they scroll with the grid).
  stick() {
    if (!this.puzzle || !this.rowHeaders) return;
    const view = this.container.getBoundingClientRect();
    const drawn = this.svg.getBoundingClientRect();
    const room = (margin, size) => margin * this.zoom <= 0.5 * size;
    const x = room(this.ox, view.width)
      ? Math.max(0, Math.min(this.puzzle.width * this.s, (view.left - drawn.left) / this.zoom)) : 0;
    const y = room(this.oy, view.height)
      ? Math.max(0, Math.min(this.puzzle.height * this.s, (view.top - drawn.top) / this.zoom)) : 0;
    if (x === this.stuck[0] && y === this.stuck[1]) return;
    this.stuck = [x, y];
    const rows = this.svg.querySelector(".row-clues");
    const cols = this.svg.querySelector(".col-clues");
    const corner = this.svg.querySelector(".corner");
    rows.setAttribute("transform", x ? `translate(${x} 0)` : "");
    cols.setAttribute("transform", y ? `translate(0 ${y})` : "");
    corner.setAttribute("transform", x || y ? `translate(${x} ${y})` : "");
    this.svg.classList.toggle("scrolled", !!(x || y));
  }

  applyZoom() {
    this.svg.setAttribute("width", (this.W * this.zoom).toFixed(1));
    this.svg.setAttribute("height", (this.H * this.zoom).toFixed(1));
  }

  // Zoom to z, keeping the point `anchor` (client coordinates; default: the middle of the view) still.
  setZoom(z, anchor = null) {
    if (!this.puzzle) return;
    const zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, z));
    const box = this.container;
    const view = box.getBoundingClientRect();
    const ax = anchor ? anchor.x - view.left : box.clientWidth / 2;
    const ay = anchor ? anchor.y - view.top : box.clientHeight / 2;
    const svgBox = this.svg.getBoundingClientRect();
    // the anchor in the drawing's own units, before the change
    const ux = (ax + view.left - svgBox.left) / this.zoom;
    const uy = (ay + view.top - svgBox.top) / this.zoom;
    const offsetX = svgBox.left - view.left + box.scrollLeft;
    const offsetY = svgBox.top - view.top + box.scrollTop;
    this.zoom = zoom;
    this.applyZoom();
    box.scrollLeft = offsetX + ux * zoom - ax;
    box.scrollTop = offsetY + uy * zoom - ay;
    this.stick();
    if (this.handlers.zoomed) this.handlers.zoomed(zoom);
  }

  // --- pointer: cells report down/enter while a button is held (Play and Design paint with them) -------

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
    if (event.pointerType === "touch") {
      this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (this.pointers.size === 2) {
        this.startGesture();
        return;
      }
      if (this.pointers.size > 2 || this.gesture) return;
    }
    // a clue over the grid (a scrolled board) is pressed, not the cell under it
    const i = event.target.closest && event.target.closest(".clues, .corner") ? -1 : this.cellAt(event);
    if (i < 0 || !this.handlers.cellDown) return;
    event.preventDefault();
    this.dragging = true;
    this.lastCell = i;
    this.handlers.cellDown(i, event);
  }

  onMove(event) {
    if (this.pointers.has(event.pointerId)) this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.gesture) {
      this.moveGesture();
      return;
    }
    if (!this.dragging) return;
    const i = this.cellAt(event);
    if (i < 0 || i === this.lastCell) return;
    this.lastCell = i;
    if (this.handlers.cellEnter) this.handlers.cellEnter(i, event);
  }

  onUp(event, cancelled = false) {
    this.pointers.delete(event.pointerId);
    if (this.gesture) {
      if (this.pointers.size === 0) this.gesture = null;
      return;
    }
    if (!this.dragging) return;
    this.dragging = false;
    this.lastCell = -1;
    if (cancelled && this.handlers.cancel) this.handlers.cancel();
    else if (this.handlers.pointerUp) this.handlers.pointerUp(event);
  }

  // Two fingers: the stroke the first one began is taken back; then pinch zooms and moving pans.
  startGesture() {
    if (this.dragging) {
      this.dragging = false;
      this.lastCell = -1;
      if (this.handlers.cancel) this.handlers.cancel();
    }
    const [a, b] = [...this.pointers.values()];
    this.gesture = { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, zoom: this.zoom, mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
  }

  moveGesture() {
    if (this.pointers.size < 2) return;
    const [a, b] = [...this.pointers.values()];
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    const g = this.gesture;
    this.container.scrollLeft -= mid.x - g.mid.x;
    this.container.scrollTop -= mid.y - g.mid.y;
    g.mid = mid;
    const z = (g.zoom * Math.hypot(a.x - b.x, a.y - b.y)) / g.distance;
    if (Math.abs(z - this.zoom) > 0.01) this.setZoom(z, mid);
  }
}
