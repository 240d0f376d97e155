import { h, clear, seatLabel, seatStore } from "/static/common.js";

// The form is built from the server's rules data (GET /api/rules: every preset, and every
// option with its range or choices, straight from spades.rules); only the words are ours.
// Every change is checked by the server's engine (POST /api/rules/check), whose one-line
// refusal is shown as it is, and which says how many seats the rules need.
const PRESET_WORDS = {
  standard: "Standard (teams, Blind Nil)",
  hoyle: "Hoyle (no exchange, bags reset)",
  bicycle: "Bicycle (solo, no Nil)",
  two_player: "Two players",
  suicide: "Suicide (one partner bids Nil)",
  whiz: "Whiz (bid Nil or your spades)",
  mirror: "Mirror (your bid is your spades)",
  jokers: "Jokers (Big and Little Joker)",
  cutthroat3: "Cutthroat, three players",
};
const OPTION_WORDS = {
  players: "Players", teams: "Partnerships", target: "Play to", min_bid: "Lowest bid",
  nil_bonus: "Nil bonus", blind_nil: "Blind Nil", blind_nil_bonus: "Blind Nil bonus",
  blind_nil_exchange: "Blind Nil exchange (cards)", blind_nil_behind: "Blind Nil only when behind by",
  set_penalty: "Set contract scores", bags: "Bags", bag_limit: "Bag limit", bag_penalty: "Bag penalty",
  lose_at: "A side loses at", first_dealer: "First dealer", bidding: "Bidding",
  suicide_min: "Suicide: the number bid is at least", big_bid: "Big bid: 20 a trick from",
  team_min_bid: "Partners bid together at least", nil_tricks: "A failed Nil's tricks go to",
  spades_lead: "Spades may be led", jokers: "Jokers",
};
const CHOICE_WORDS = {
  teams: { true: "teams of two", false: "each for himself" },
  blind_nil: { true: "allowed", false: "not allowed" },
  set_penalty: { minus: "minus 10 per trick", zero: "zero" },
  bidding: { free: "free", suicide: "suicide", whiz: "whiz", mirror: "mirror" },
  nil_tricks: { bags: "bags", partner: "the partner's contract" },
  spades_lead: { broken: "once broken", any: "any time" },
  jokers: { null: "none", big_little: "Big & Little Joker", jjdd: "Joker Joker Deuce Deuce" },
  first_dealer: { draw: "by draw", random: "at random" },
};
const GROUPS = {
  main: ["players", "teams", "target", "bags", "set_penalty", "blind_nil"],
  house: ["bidding", "suicide_min", "big_bid", "team_min_bid", "nil_tricks", "spades_lead", "jokers"],
};
const $ = (id) => document.getElementById(id);
let bots = ["random", "heuristic"];
let catalog = null; // GET /api/rules
let values = {}; // every option's value as the form has it
let players = 4; // seats the checked rules need
let checking = 0;
$("name").value = localStorage.getItem("spades.name") || "";

function choiceWord(name, c) {
  const words = CHOICE_WORDS[name] || {};
  const key = c === null ? "null" : String(c);
  if (key in words) return words[key];
  if (name === "first_dealer") return `seat ${c}`;
  return c === null ? "off" : c === true ? "yes" : c === false ? "no" : String(c);
}

function optionInput(opt) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.choices) {
    input = h("select", { id, "data-option": opt.name });
    for (const c of opt.choices) input.appendChild(h("option", { value: JSON.stringify(c) }, choiceWord(opt.name, c)));
    input.addEventListener("change", () => { values[opt.name] = JSON.parse(input.value); rulesChanged(); });
  } else {
    input = h("input", { id, type: "number", min: opt.min, max: opt.max, step: 1, "data-option": opt.name, placeholder: opt.nullable ? "off" : null, title: `${opt.min}..${opt.max}${opt.nullable ? ", or empty for off" : ""}` });
    input.addEventListener("input", () => {
      const v = input.value.trim();
      values[opt.name] = v === "" ? (opt.nullable ? null : undefined) : Number(v);
      rulesChanged();
    });
  }
  return h("label", { for: id }, `${OPTION_WORDS[opt.name] || opt.name} `, input);
}

function buildForm() {
  const sel = clear($("preset"));
  for (const name of Object.keys(catalog.presets)) sel.appendChild(h("option", { value: name }, PRESET_WORDS[name] || name));
  sel.value = "standard";
  const boxes = { main: $("options-main"), house: $("options-house"), more: $("options-more") };
  for (const box of Object.values(boxes)) [...box.querySelectorAll("label")].forEach((e) => e.remove());
  for (const opt of catalog.options) {
    const group = GROUPS.main.includes(opt.name) ? "main" : GROUPS.house.includes(opt.name) ? "house" : "more";
    boxes[group].appendChild(optionInput(opt));
  }
  applyPreset();
}

function showValues() {
  for (const opt of catalog.options) {
    const input = $(`opt-${opt.name}`);
    const v = values[opt.name];
    if (opt.choices) input.value = JSON.stringify(v);
    else input.value = v === null || v === undefined ? "" : String(v);
  }
}

// The rules as the create request gives them: the preset and the options that differ from it.
function rulesSpec() {
  const name = $("preset").value;
  const base = catalog.presets[name];
  const spec = { preset: name };
  for (const [k, v] of Object.entries(values)) if (JSON.stringify(v) !== JSON.stringify(base[k])) spec[k] = v === undefined ? "" : v;
  return spec;
}

function applyPreset() {
  values = { ...catalog.presets[$("preset").value] };
  showValues();
  rulesChanged();
}
$("preset").addEventListener("change", applyPreset);

async function rulesChanged() {
  const mine = ++checking;
  const r = await fetch("/api/rules/check", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ rules: rulesSpec() }) });
  const data = await r.json();
  if (mine !== checking) return; // a later change is being checked
  $("rules-error").textContent = data.error || "";
  $("btn-create").disabled = !!data.error;
  if (data.error) { $("preset-note").textContent = ""; return; }
  const d = data.deck;
  $("preset-note").textContent = `${data.rules.players} players, ${d.size} cards, ${d.tricks} each${d.trumps.length ? `; trumps above the ace of spades: ${d.trumps.join(", ")}` : ""}.`;
  if (data.rules.players !== players || !$("seat-0")) { players = data.rules.players; drawSeats(); }
}

function seatChoices(seat, n) {
  const sel = h("select", { id: `seat-${seat}`, "aria-label": `${seatLabel(seat, n)} seat` });
  sel.appendChild(h("option", { value: "me" }, "You"));
  sel.appendChild(h("option", { value: "open" }, "A person (invite link)"));
  for (const b of bots) sel.appendChild(h("option", { value: `bot:${b}` }, `Bot: ${b}`));
  sel.value = seat === (n === 4 ? 2 : 0) ? "me" : `bot:${bots.includes("expert") ? "expert" : "heuristic"}`;
  return sel;
}

function drawSeats() {
  const box = $("seats");
  [...box.querySelectorAll("label")].forEach((e) => e.remove());
  for (let s = 0; s < players; s++) box.appendChild(h("label", {}, `${seatLabel(s, players)} `, seatChoices(s, players)));
}

async function createTable(e) {
  e.preventDefault();
  const name = $("name").value.trim();
  const rules = rulesSpec();
  const n = players;
  const seats = [];
  let mySeat = null;
  for (let s = 0; s < n; s++) {
    const v = $(`seat-${s}`).value;
    if (v === "me") {
      if (!name) { alert("Enter your name first."); return; }
      if (mySeat !== null) { alert("You can sit in one seat only."); return; }
      mySeat = s;
      seats.push({ open: true, name });
    } else if (v === "open") seats.push({ open: true });
    else seats.push({ bot: v.slice(4) });
  }
  if (name) localStorage.setItem("spades.name", name);
  const body = { rules, seats, bot_delay_ms: Number($("delay").value) || 0, hints: $("hints").checked, away_s: Number($("away").value) || 60 };
  const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) { $("rules-error").textContent = data.error || JSON.stringify(data.detail); return; }
  $("rules-error").textContent = "";
  if (mySeat !== null) seatStore(data.id).set({ token: data.seats[mySeat].token, seat: mySeat });
  const out = clear($("created"));
  out.hidden = false;
  out.appendChild(h("h3", {}, "Table created"));
  const invites = h("div", { class: "invites" });
  const links = [];
  // Each open seat left to someone else comes with a one-time invite ticket: the first
  // browser to open the link gets the seat's own token in exchange, and the link is spent.
  data.seats.forEach((s, i) => {
    if (s.invite && i !== mySeat) {
      const link = `${location.origin}/t/${data.id}#invite=${encodeURIComponent(s.invite)}`;
      links.push({ seat: i, link });
      invites.appendChild(h("label", {}, `Invite link for ${seatLabel(i, n)}: `, h("input", { readonly: true, value: link, onclick: (ev) => ev.target.select() })));
    }
  });
  out.appendChild(invites);
  if (links.length) localStorage.setItem(`spades.invites.${data.id}`, JSON.stringify(links));
  out.appendChild(h("p", {}, h("a", { href: `/t/${data.id}`, id: "go-table" }, mySeat !== null ? "Go to your seat →" : "Watch the table →")));
  loadOpen();
}
$("create").addEventListener("submit", createTable);

async function claim(id, seat) {
  const name = $("name").value.trim() || prompt("Your name?") || "";
  if (!name.trim()) return;
  localStorage.setItem("spades.name", name.trim());
  const r = await fetch(`/api/tables/${encodeURIComponent(id)}/claim`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seat, name: name.trim() }) });
  const data = await r.json();
  if (!r.ok) { alert(data.error || "cannot take that seat"); loadOpen(); return; }
  seatStore(id).set({ token: data.token, seat });
  location.href = `/t/${id}`;
}

async function loadOpen() {
  const r = await fetch("/api/tables?status=waiting");
  const list = await r.json();
  const ul = clear($("open"));
  if (!list.length) ul.appendChild(h("li", {}, "No table is waiting for players. Create one!"));
  for (const t of list) {
    const rules = typeof t.rules === "string" ? t.rules : `${t.rules.preset}${Object.entries(t.rules).filter(([k]) => k !== "preset").map(([k, v]) => `, ${k} ${v === null ? "off" : v}`).join("")}`;
    const seatsLine = t.seats.map((s) => `${seatLabel(s.seat, t.seats.length)}: ${s.name || "open"}`).join(" · ");
    const li = h("li", {}, h("span", {}, h("strong", {}, rules), " — ", seatsLine));
    const btns = h("span", { class: "row" });
    t.seats.filter((s) => s.kind === "human" && !s.name).forEach((s) => btns.appendChild(h("button", { type: "button", onclick: () => claim(t.id, s.seat) }, `Sit ${seatLabel(s.seat, t.seats.length)}`)));
    btns.appendChild(h("a", { href: `/t/${t.id}` }, "watch"));
    li.appendChild(btns);
    ul.appendChild(li);
  }
}

async function loadGames() {
  const r = await fetch("/api/tables?status=all");
  const list = (await r.json()).filter((t) => t.status !== "waiting").slice(0, 20);
  const ul = clear($("games"));
  if (!list.length) ul.appendChild(h("li", {}, "No game yet."));
  for (const t of list) {
    const names = t.seats.map((s) => s.name || "?").join(", ");
    const line = `${t.status === "over" ? "finished" : `hand ${t.hand}`} · ${t.totals.join(" – ")} · ${names}`;
    ul.appendChild(h("li", {}, h("span", {}, line), h("span", { class: "row" },
      h("a", { href: `/t/${t.id}` }, t.status === "over" ? "table" : "watch"),
      h("a", { href: `/replay?table=${t.id}` }, "replay"),
      h("a", { href: `/api/tables/${t.id}/record?download=1` }, "record"))));
  }
}

Promise.all([fetch("/api/info").then((r) => r.json()), fetch("/api/rules").then((r) => r.json())]).then(([info, rules]) => {
  bots = info.bots;
  catalog = rules;
  buildForm();
});
loadOpen();
loadGames();
setInterval(() => { loadOpen(); loadGames(); }, 4000);
