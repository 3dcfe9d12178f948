// ferrochunk view: builds the page from the JSON in #data (inlined; no network).
// A chunk is [start, end, reason, separator, tokens, path, id, metadata] in code points;
// the text is cut into segments at every chunk start and end, each segment coloured by the
// chunks covering it (striped where they overlap), each chunk end marked with its reason.
// Segments are grouped in pages with `content-visibility: auto`, so the browser lays out
// only what is on screen: thousands of chunks stay responsive and all are in the DOM.
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const PAGE = 400; // segments per page
const PALETTE = 6;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// The text as an array of code points' UTF-16 offsets, only when it has astral characters.
function offsetsOf(text) {
  if (!/[\uD800-\uDFFF]/.test(text)) return null;
  const out = [];
  let i = 0;
  for (const ch of text) { out.push(i); i += ch.length; }
  out.push(i);
  return out;
}

function renderView(doc, view, vi, di) {
  const col = el("div", "col");
  col.dataset.view = vi;
  col.appendChild(el("h2", null, view.label + " — " + view.chunks.length + " chunks"));
  const box = el("div", "text");
  const text = doc.text, chunks = view.chunks, units = offsetsOf(text);
  const at = (cp) => (units ? units[cp] : cp);
  const points = new Set([0, doc.length]);
  const ends = new Map();
  chunks.forEach((c, i) => {
    points.add(c[0]); points.add(c[1]);
    if (!ends.has(c[1])) ends.set(c[1], []);
    ends.get(c[1]).push(i);
  });
  const sorted = Array.from(points).sort((a, b) => a - b);
  let active = [], next = 0, page = el("div", "pg"), count = 0;
  const flushPage = () => { box.appendChild(page); page = el("div", "pg"); count = 0; };
  for (let k = 0; k < sorted.length; k++) {
    const p = sorted[k];
    for (const i of ends.get(p) || []) {
      const c = chunks[i], cut = el("span", "cut r-" + c[2], c[2]);
      cut.dataset.chunk = i; cut.dataset.reason = c[2];
      cut.title = "chunk " + i + " ends: " + c[2] + (c[3] === null ? "" : " " + JSON.stringify(c[3]));
      page.appendChild(cut);
    }
    if (k + 1 === sorted.length) break;
    active = active.filter((i) => chunks[i][1] > p);
    while (next < chunks.length && chunks[next][0] <= p) {
      if (chunks[next][1] > p) active.push(next);
      next++;
    }
    const seg = el("span", "seg", text.slice(at(p), at(sorted[k + 1])));
    if (active.length === 0) seg.classList.add("gap");
    else {
      seg.classList.add("b" + (active[0] % PALETTE));
      if (active.length > 1) seg.classList.add("ov");
      seg.dataset.c = active[0]; seg.dataset.cs = active.join(" ");
    }
    page.appendChild(seg);
    if (++count >= PAGE) flushPage();
  }
  flushPage();
  box.addEventListener("click", (ev) => {
    const t = ev.target.closest("[data-c],[data-chunk]");
    if (t) select(di, vi, Number(t.dataset.c ?? t.dataset.chunk), col);
  });
  col.appendChild(box);
  return col;
}

function histogram(view) {
  const sizes = view.chunks.map((c) => c[1] - c[0]);
  const bins = 20, w = 300, h = 80;
  const max = Math.max(1, ...sizes), counts = new Array(bins).fill(0);
  for (const s of sizes) counts[Math.min(bins - 1, Math.floor((s / max) * bins))]++;
  const top = Math.max(1, ...counts), ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "hist"); svg.setAttribute("width", w); svg.setAttribute("height", h + 12);
  counts.forEach((n, b) => {
    const r = document.createElementNS(ns, "rect"), bh = (n / top) * h;
    r.setAttribute("x", (b * w) / bins); r.setAttribute("width", w / bins - 1);
    r.setAttribute("y", h - bh); r.setAttribute("height", bh);
    const t = document.createElementNS(ns, "title");
    t.textContent = n + " chunks of " + Math.round((b * max) / bins) + "–" + Math.round(((b + 1) * max) / bins) + " chars";
    r.appendChild(t); svg.appendChild(r);
  });
  const label = document.createElementNS(ns, "text");
  label.setAttribute("x", 0); label.setAttribute("y", h + 10);
  label.textContent = "size in chars, 0 to " + max;
  svg.appendChild(label);
  return svg;
}

function summary(view) {
  const box = el("div", "summary");
  box.appendChild(el("h2", null, view.label));
  const sizes = view.chunks.map((c) => c[1] - c[0]).sort((a, b) => a - b);
  const med = sizes.length ? sizes[Math.floor(sizes.length / 2)] : 0;
  box.appendChild(el("div", null, view.chunks.length + " chunks, median " + med + " chars"));
  box.appendChild(histogram(view));
  const why = {};
  for (const c of view.chunks) why[c[2]] = (why[c[2]] || 0) + 1;
  const legend = el("div", "legend");
  for (const [r, n] of Object.entries(why)) legend.appendChild(el("span", "cut r-" + r, r + " " + n));
  box.appendChild(legend);
  return box;
}

function select(di, vi, i, col) {
  document.querySelectorAll(".sel").forEach((e) => e.classList.remove("sel"));
  col.querySelectorAll('[data-c="' + i + '"]').forEach((e) => e.classList.add("sel"));
  const c = DATA.docs[di].views[vi].chunks[i], box = document.getElementById("detail");
  box.replaceChildren(el("h2", null, "chunk " + i + " — " + DATA.docs[di].views[vi].label));
  const table = el("table");
  const row = (k, v) => { const tr = el("tr"); tr.appendChild(el("td", null, k)); tr.appendChild(el("td", null, v)); table.appendChild(tr); };
  row("chars", String(c[1] - c[0]));
  row("tokens", c[4] === null ? "—" : String(c[4]));
  row("span", c[0] + "–" + c[1]);
  row("cut", c[2] + (c[3] === null ? "" : " " + JSON.stringify(c[3])));
  row("path", c[5] || "—");
  row("id", c[6] || "—");
  box.appendChild(table);
  box.appendChild(el("pre", "meta", JSON.stringify(c[7], null, 1)));
}

function main() {
  const started = performance.now();
  const main = document.getElementById("main"), panel = document.getElementById("summaries");
  DATA.docs.forEach((doc, di) => {
    const sec = el("section", "doc");
    sec.appendChild(el("h1", null, doc.name + " (" + doc.length + " chars)"));
    const cols = el("div", "cols");
    doc.views.forEach((view, vi) => {
      cols.appendChild(renderView(doc, view, vi, di));
      panel.appendChild(summary(view));
    });
    sec.appendChild(cols);
    main.appendChild(sec);
  });
  // Milliseconds from navigation start (parsing the page and its data included), and building.
  document.body.dataset.rendered = String(Math.round(performance.now()));
  document.body.dataset.built = String(Math.round(performance.now() - started));
}
main();
