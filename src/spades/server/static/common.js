// Small helpers shared by the pages: elements by text only (names are never parsed as HTML).
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}
export function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
export const POSITIONS4 = ["North", "East", "South", "West"];
export const POSITIONS3 = ["North", "East", "West"];
export function seatLabel(seat, n) { return n === 2 ? ["South", "North"][seat] : n === 3 ? POSITIONS3[seat] : POSITIONS4[seat]; }
export function sideLabel(side, rules, players) {
  if (rules.teams) return side === 0 ? "North–South" : "East–West";
  return players[side] || seatLabel(side, rules.players);
}
export function bidText(b) {
  if (b === null || b === undefined) return "–";
  if (b === "nil") return "Nil";
  if (b === "blind_nil") return "Blind Nil";
  return String(b);
}
export async function sha256hex(text) {
  if (!window.crypto || !crypto.subtle) return null;
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
export function seatStore(tableId) {
  const key = `spades.seat.${tableId}`;
  return {
    get() { try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return null; } },
    set(v) { localStorage.setItem(key, JSON.stringify(v)); },
    clear() { localStorage.removeItem(key); },
  };
}

// The chart of running totals: one line per side, the target dashed.
export function totalsChart(sheet, sides, target, labels) {
  const NS = "http://www.w3.org/2000/svg";
  const W = 300, H = 120, P = 22;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "running totals");
  const all = [0, target, ...sheet.flatMap((r) => r.totals)];
  const lo = Math.min(...all), hi = Math.max(...all);
  const x = (i) => P + (i * (W - 2 * P)) / Math.max(1, sheet.length);
  const y = (v) => H - P + 8 - ((v - lo) * (H - 2 * P)) / Math.max(1, hi - lo);
  const line = (x1, y1, x2, y2, cls) => {
    const l = document.createElementNS(NS, "line");
    Object.entries({ x1, y1, x2, y2, class: cls }).forEach(([k, v]) => l.setAttribute(k, v));
    svg.appendChild(l);
  };
  line(P, y(0), W - P, y(0), "axis");
  line(P, y(target), W - P, y(target), "target");
  const colours = ["#2f6fdf", "#d9482b", "#2c9a55", "#9b59b6"];
  for (let s = 0; s < sides; s++) {
    const pts = [[x(0), y(0)], ...sheet.map((r, i) => [x(i + 1), y(r.totals[s])])];
    const pl = document.createElementNS(NS, "polyline");
    pl.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
    pl.setAttribute("fill", "none");
    pl.setAttribute("stroke", colours[s]);
    pl.setAttribute("stroke-width", "2.2");
    svg.appendChild(pl);
    const t = document.createElementNS(NS, "text");
    // One slot per side across the chart (three players fit), long names cut short.
    const slot = (W - 2 * P) / sides;
    const most = Math.max(4, Math.floor(slot / 6));
    t.setAttribute("x", String(P + 4 + s * slot));
    t.setAttribute("y", "12");
    t.setAttribute("fill", colours[s]);
    t.setAttribute("font-size", "10");
    t.textContent = labels[s].length > most ? `${labels[s].slice(0, most - 1)}…` : labels[s];
    svg.appendChild(t);
  }
  const tt = document.createElementNS(NS, "text");
  tt.setAttribute("x", String(W - P));
  tt.setAttribute("y", String(y(target) - 3));
  tt.setAttribute("text-anchor", "end");
  tt.setAttribute("font-size", "9");
  tt.setAttribute("fill", "#777");
  tt.textContent = `target ${target}`;
  svg.appendChild(tt);
  return svg;
}
