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
// ---------------------------------------------------------------------------- words
// Every word a person reads goes through t() (a message), nt() (a count: the language's own
// plural forms) or pt() (a message with a context, where one English word says two things).
// The ids are the English text with {named} fields, the same catalogs as the terminal game
// (GET /api/i18n/<lang>); pybabel finds the calls (babel.cfg), tests/test_web_catalog.py
// checks that no sentence is left outside them. An id missing from the catalog shows in English.
export const LANGUAGES = { en: "English", it: "Italiano", sl: "Slovenščina", fr: "Français" }; // i18n-ok: each language by its own name
const LANG_KEY = "spades.lang";
let messages = {};
let pluralOf = (n) => (n === 1 ? 0 : 1);
let lang = "en";
const listeners = [];

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? String(values[k]) : m));
}
export function t(id, values) {
  const s = messages[id];
  return fill(typeof s === "string" && s ? s : id, values);
}
export function nt(one, many, n, values) {
  const forms = messages[one];
  const i = pluralOf(n);
  const s = Array.isArray(forms) && forms[i] ? forms[i] : n === 1 ? one : many;
  return fill(s, { n, ...(values || {}) });
}
export function pt(context, id, values) {
  const s = messages[`${context}\u0004${id}`];
  return fill(typeof s === "string" && s ? s : id, values);
}
export function currentLang() { return lang; }
// A message the server sends as an id and values ({"msgid", "fields"}, spades.errors.as_json),
// in the page's language; its values may be such messages too. Plain text is shown as it is.
export function localized(v) {
  if (v && typeof v === "object" && typeof v.msgid === "string") {
    const fields = {};
    for (const [k, x] of Object.entries(v.fields || {})) fields[k] = localized(x);
    return t(v.msgid, fields);
  }
  return v === null || v === undefined ? "" : String(v);
}
// A list in the language's own way: "a, b and c", "a, b e c", "a, b in c", "a, b et c".
export function listText(items) {
  try { return new Intl.ListFormat(lang, { type: "conjunction" }).format(items); } catch { return items.join(", "); }
}

// The language: the one picked here before (localStorage), else the first of the browser's
// languages we speak, else English.
export function chosenLang() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved && saved in LANGUAGES) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

// The Plural-Forms expression (C: n, integers, % == != < > <= >= && || ?: and brackets),
// read by a small parser: the server's Content-Security-Policy rightly forbids eval.
export function pluralRule(expr) {
  const toks = String(expr).match(/\d+|n|==|!=|<=|>=|&&|\|\||[%<>?:()]/g) || [];
  let i = 0;
  const peek = () => toks[i];
  const eat = (x) => { if (toks[i] !== x) throw new Error(`plural: ${x} expected`); i++; }; // i18n-ok: caught
  const BIN = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["%"]];
  const apply2 = (op, a, b) => ({ "||": a || b ? 1 : 0, "&&": a && b ? 1 : 0, "==": +(a === b), "!=": +(a !== b),
    "<": +(a < b), ">": +(a > b), "<=": +(a <= b), ">=": +(a >= b), "%": b ? a % b : 0 })[op];
  function atom() {
    const x = toks[i++];
    if (x === "(") { const f = ternary(); eat(")"); return f; }
    if (x === "n") return (n) => n;
    const v = Number(x);
    return () => v;
  }
  function level(k) {
    if (k === BIN.length) return atom();
    let f = level(k + 1);
    while (BIN[k].includes(peek())) {
      const op = toks[i++], a = f, b = level(k + 1);
      f = (n) => apply2(op, a(n), b(n));
    }
    return f;
  }
  function ternary() {
    const c = level(0);
    if (peek() !== "?") return c;
    i++;
    const a = ternary();
    eat(":");
    const b = ternary();
    return (n) => (c(n) ? a(n) : b(n));
  }
  try { const f = ternary(); return (n) => Number(f(n)); } catch { return (n) => (n === 1 ? 0 : 1); }
}

async function loadLang(code) {
  if (code === "en") { messages = {}; pluralOf = (n) => (n === 1 ? 0 : 1); lang = "en"; return; }
  const r = await fetch(`/api/i18n/${code}`);
  if (!r.ok) throw new Error(`no catalog for ${code}`); // i18n-ok: caught, never shown
  const cat = await r.json();
  messages = cat.messages || {};
  pluralOf = pluralRule(cat.plural);
  lang = code;
}

// The page's own HTML: an element with data-i18n shows its English text (its id) translated;
// data-i18n-attrs="title aria-label placeholder" does the same for those attributes.
export function translateDom(root = document) {
  for (const e of root.querySelectorAll("[data-i18n]")) {
    if (!e.dataset.i18n) e.dataset.i18n = e.textContent.trim().replace(/\s+/g, " ");
    e.textContent = t(e.dataset.i18n);
  }
  for (const e of root.querySelectorAll("[data-i18n-attrs]")) {
    for (const a of e.dataset.i18nAttrs.split(/\s+/).filter(Boolean)) {
      const key = `i18n${a.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase())}`;
      if (!(key in e.dataset)) e.dataset[key] = e.getAttribute(a) || "";
      e.setAttribute(a, t(e.dataset[key]));
    }
  }
  // "How to play" opens in the language picked here, not only the browser's.
  for (const a of root.querySelectorAll('a[href^="/howto"]')) a.setAttribute("href", `/howto?lang=${lang}`);
  document.documentElement.lang = lang;
}

// A language picker in the top bar (autonyms, never translated), remembered in this browser;
// a change is applied in place: the HTML's words, then each page's own redraw.
function picker() {
  const sel = h("select", { id: "lang", class: "lang", "aria-label": t("Language") });
  for (const [code, name] of Object.entries(LANGUAGES)) sel.appendChild(h("option", { value: code, lang: code }, name));
  sel.value = lang;
  sel.addEventListener("change", async () => {
    localStorage.setItem(LANG_KEY, sel.value);
    await setLang(sel.value);
  });
  return sel;
}
export function onLang(f) { listeners.push(f); }
export async function setLang(code) {
  try { await loadLang(code); } catch { await loadLang("en"); }
  translateDom();
  const sel = document.getElementById("lang");
  if (sel) sel.value = lang;
  for (const f of listeners) f();
}
// Called once at the top of each page's module, before anything is drawn.
export async function initWords() {
  const bar = document.querySelector(".topbar");
  if (bar && !document.getElementById("lang")) bar.appendChild(picker());
  await setLang(chosenLang());
}

// The player's options of the table page, kept in this browser: confirm before playing, sounds,
// the four-colour deck, large cards.
const PREFS_KEY = "spades.prefs";
export const prefs = {
  all() { try { return { confirm: false, sound: false, fourColour: false, large: false, ...JSON.parse(localStorage.getItem(PREFS_KEY) || "{}") }; } catch { return {}; } },
  get(k) { return !!this.all()[k]; },
  set(k, v) { localStorage.setItem(PREFS_KEY, JSON.stringify({ ...this.all(), [k]: !!v })); },
};

export function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
// Seats by compass point: the words are looked up when shown (the language may change).
const SEAT_WORDS = { N: () => t("North"), E: () => t("East"), S: () => t("South"), W: () => t("West") };
const POSITIONS4 = ["N", "E", "S", "W"];
const POSITIONS3 = ["N", "E", "W"];
export function seatLabel(seat, n) { return SEAT_WORDS[n === 2 ? ["S", "N"][seat] : n === 3 ? POSITIONS3[seat] : POSITIONS4[seat]](); }
export function sideLabel(side, rules, players) {
  if (rules.teams) return side === 0 ? t("North–South") : t("East–West");
  return playerName(players[side]) || seatLabel(side, rules.players);
}
// A player's name as the server gives it; a bot's made-up name ("North (heuristic bot)") is
// said in the page's language.
const SEAT_OF_WORD = { North: "N", East: "E", South: "S", West: "W" };
// A bot seat's level in the reader's words ("da circolo"); a bot's own name (heuristic,
// random) is a name and stays as it is.
const LEVEL_WORDS = {
  beginner: () => pt("bot level", "beginner"),
  club: () => pt("bot level", "club"),
  expert: () => pt("bot level", "expert"),
};
function botWord(bot) { return LEVEL_WORDS[bot] ? LEVEL_WORDS[bot]() : bot; }
export function playerName(name) {
  const m = /^(North|East|South|West) \((\w+) bot\)$/.exec(name || "");
  return m ? t("{seat} ({bot} bot)", { seat: SEAT_WORDS[SEAT_OF_WORD[m[1]]](), bot: botWord(m[2]) }) : name;
}
// Where room is short (a side seat on a phone, the name under a played card): a bot's seat
// word alone ("Ovest"), its level left to the full name (a title, the seat's own line).
export function shortName(name) {
  const m = /^(North|East|South|West) \((\w+) bot\)$/.exec(name || "");
  return m ? SEAT_WORDS[SEAT_OF_WORD[m[1]]]() : name;
}
// A bot's level as the words after its seat's ("(bot heuristic)"), or null for a person.
export function botLevel(name) {
  const m = /^(North|East|South|West) \((\w+) bot\)$/.exec(name || "");
  return m ? t("({bot} bot)", { bot: botWord(m[2]) }) : null;
}
// The two sides' short names in the top bar and the score bar ("NS", "EW").
export function sideShort(side) { return side === 0 ? pt("side", "NS") : pt("side", "EW"); }
export function bidText(b) {
  if (b === null || b === undefined) return "–";
  if (b === "nil") return t("Nil");
  if (b === "blind_nil") return t("Blind Nil");
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
  svg.setAttribute("aria-label", t("running totals"));
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
    const label = document.createElementNS(NS, "text");
    // One slot per side across the chart (three players fit), long names cut short.
    const slot = (W - 2 * P) / sides;
    const most = Math.max(4, Math.floor(slot / 6));
    label.setAttribute("x", String(P + 4 + s * slot));
    label.setAttribute("y", "12");
    label.setAttribute("fill", colours[s]);
    label.setAttribute("font-size", "10");
    label.textContent = labels[s].length > most ? `${labels[s].slice(0, most - 1)}…` : labels[s];
    svg.appendChild(label);
  }
  const tt = document.createElementNS(NS, "text");
  tt.setAttribute("x", String(W - P));
  tt.setAttribute("y", String(y(target) - 3));
  tt.setAttribute("text-anchor", "end");
  tt.setAttribute("font-size", "9");
  tt.setAttribute("fill", "#777");
  tt.textContent = t("target {n}", { n: target });
  svg.appendChild(tt);
  return svg;
}
