import { h, clear, seatLabel, seatStore, playerName, t, pt, initWords, onLang, localized } from "/static/common.js";

// The form is built from the server's rules data (GET /api/rules: every preset, and every
// option with its range or choices, straight from spades.rules); only the words are ours.
// Every change is checked by the server's engine (POST /api/rules/check), whose one-line
// refusal is shown as it is, and which says how many seats the rules need.
// Words are functions: they are looked up when drawn, so a change of language redraws them.
const PRESET_WORDS = {
  standard: () => t("Standard (teams, Blind Nil)"),
  hoyle: () => t("Hoyle (no exchange, bags reset)"),
  bicycle: () => t("Bicycle (solo, no Nil)"),
  two_player: () => t("Two players"),
  suicide: () => t("Suicide (one partner bids Nil)"),
  whiz: () => t("Whiz (bid Nil or your spades)"),
  mirror: () => t("Mirror (your bid is your spades)"),
  jokers: () => t("Jokers (Big and Little Joker)"),
  cutthroat3: () => t("Cutthroat, three players"),
};
const OPTION_WORDS = {
  players: () => t("Players"), teams: () => t("Partnerships"), target: () => t("Play to"), min_bid: () => t("Lowest bid"),
  nil_bonus: () => t("Nil bonus"), blind_nil: () => t("Blind Nil"), blind_nil_bonus: () => t("Blind Nil bonus"),
  blind_nil_exchange: () => t("Blind Nil exchange (cards)"), blind_nil_behind: () => t("Blind Nil only when behind by"),
  set_penalty: () => t("Set contract scores"), bags: () => pt("option", "Bags"), bag_limit: () => t("Bag limit"), bag_penalty: () => t("Bag penalty"),
  lose_at: () => t("A side loses at"), first_dealer: () => t("First dealer"), bidding: () => t("Bidding"),
  suicide_min: () => t("Suicide: the number bid is at least"), big_bid: () => t("Big bid: 20 a trick from"),
  team_min_bid: () => t("Partners bid together at least"), nil_tricks: () => t("A failed Nil's tricks go to"),
  spades_lead: () => t("Spades may be led"), jokers: () => t("Jokers"),
};
const CHOICE_WORDS = {
  teams: { true: () => t("teams of two"), false: () => t("each for himself") },
  blind_nil: { true: () => t("allowed"), false: () => t("not allowed") },
  set_penalty: { minus: () => t("minus 10 per trick"), zero: () => t("zero") },
  bidding: { free: () => pt("bidding", "free"), suicide: () => pt("bidding", "suicide"), whiz: () => pt("bidding", "whiz"), mirror: () => pt("bidding", "mirror") },
  nil_tricks: { bags: () => t("bags"), partner: () => t("the partner's contract") },
  spades_lead: { broken: () => t("once broken"), any: () => t("any time") },
  jokers: { null: () => t("none"), big_little: () => t("Big & Little Joker"), jjdd: () => t("Joker Joker Deuce Deuce") },
  first_dealer: { draw: () => t("by draw"), random: () => t("at random") },
};
const GROUPS = {
  main: ["players", "teams", "target", "bags", "set_penalty", "blind_nil"],
  house: ["bidding", "suicide_min", "big_bid", "team_min_bid", "nil_tricks", "spades_lead", "jokers"],
};
// The named bot levels (spades.bots.levels), weakest first: the seat menu offers the ones the
// server lists, by name, with the line that says what each is like; other bots by their own name.
const LEVEL_WORDS = {
  beginner: { name: () => t("Beginner"), about: () => t("Knows the rules and the basics; often plays the wrong card and never bids Nil.") },
  club: { name: () => t("Club player"), about: () => t("Counts cards, covers a partner's Nil and bids like a careful club player.") },
  expert: { name: () => t("Expert"), about: () => t("Searches the hidden hands before every card; the strongest, and a little slower.") },
};
const $ = (id) => document.getElementById(id);
let bots = ["beginner", "club", "random", "heuristic"];
let catalog = null; // GET /api/rules
let values = {}; // every option's value as the form has it
let players = 4; // seats the checked rules need
let checking = 0;
let chatOption = false;
$("name").value = localStorage.getItem("spades.name") || $("name").value; // the account's name may be in already (accountnav.js)

function choiceWord(name, c) {
  const words = CHOICE_WORDS[name] || {};
  const key = c === null ? "null" : String(c);
  if (key in words) return words[key]();
  if (name === "first_dealer") return t("seat {n}", { n: c });
  return c === null ? t("off") : c === true ? t("yes") : c === false ? t("no") : String(c);
}

function optionInput(opt) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.choices) {
    input = h("select", { id, "data-option": opt.name });
    for (const c of opt.choices) input.appendChild(h("option", { value: JSON.stringify(c) }, choiceWord(opt.name, c)));
    input.addEventListener("change", () => { values[opt.name] = JSON.parse(input.value); rulesChanged(); });
  } else {
    input = h("input", { id, type: "number", min: opt.min, max: opt.max, step: 1, "data-option": opt.name, placeholder: opt.nullable ? t("off") : null, title: opt.nullable ? t("{min} to {max}, or empty for off", opt) : t("{min} to {max}", opt) });
    input.addEventListener("input", () => {
      const v = input.value.trim();
      values[opt.name] = v === "" ? (opt.nullable ? null : undefined) : Number(v);
      rulesChanged();
    });
  }
  return h("label", { for: id }, `${opt.name in OPTION_WORDS ? OPTION_WORDS[opt.name]() : opt.name} `, input);
}

function buildForm() {
  const keep = catalog && $("preset").value;
  const sel = clear($("preset"));
  for (const name of Object.keys(catalog.presets)) sel.appendChild(h("option", { value: name }, name in PRESET_WORDS ? PRESET_WORDS[name]() : name));
  sel.value = keep || "standard";
  const boxes = { main: $("options-main"), house: $("options-house"), more: $("options-more") };
  for (const box of Object.values(boxes)) [...box.querySelectorAll("label")].forEach((e) => e.remove());
  for (const opt of catalog.options) {
    const group = GROUPS.main.includes(opt.name) ? "main" : GROUPS.house.includes(opt.name) ? "house" : "more";
    boxes[group].appendChild(optionInput(opt));
  }
  if (keep) { showValues(); rulesChanged(); drawSeats(); } else applyPreset();
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
  $("rules-error").textContent = typeof data.msgid === "string" ? localized({ msgid: data.msgid, fields: data.fields }) : data.error || "";
  $("btn-create").disabled = !!data.error;
  if (data.error) { $("preset-note").textContent = ""; return; }
  const d = data.deck;
  $("preset-note").textContent = d.trumps.length
    ? t("{players} players, {cards} cards, {tricks} each; trumps above the ace of spades: {trumps}.", { players: data.rules.players, cards: d.size, tricks: d.tricks, trumps: d.trumps.join(", ") })
    : t("{players} players, {cards} cards, {tricks} each.", { players: data.rules.players, cards: d.size, tricks: d.tricks });
  if (data.rules.players !== players || !$("seat-0")) { players = data.rules.players; drawSeats(); }
}

function seatChoices(seat, n) {
  const old = $(`seat-${seat}`);
  const sel = h("select", { id: `seat-${seat}`, "aria-label": t("{seat} seat", { seat: seatLabel(seat, n) }) });
  sel.appendChild(h("option", { value: "me" }, t("You")));
  sel.appendChild(h("option", { value: "open" }, t("A person (invite link)")));
  for (const b of bots.filter((b) => b in LEVEL_WORDS)) {
    const w = LEVEL_WORDS[b];
    sel.appendChild(h("option", { value: `bot:${b}`, title: w.about() }, t("Bot: {name}", { name: w.name() })));
  }
  const others = bots.filter((b) => !(b in LEVEL_WORDS));
  if (others.length) {
    const group = h("optgroup", { label: t("Other bots") });
    for (const b of others) group.appendChild(h("option", { value: `bot:${b}` }, t("Bot: {name}", { name: b })));
    sel.appendChild(group);
  }
  const strongest = bots.includes("expert") ? "expert" : bots.includes("club") ? "club" : "heuristic";
  sel.value = old && players === n ? old.value : seat === (n === 4 ? 2 : 0) ? "me" : `bot:${strongest}`;
  return sel;
}

// One line per level offered, under the seats: what each is like, in the page's language.
function levelNotes() {
  const lines = bots.filter((b) => b in LEVEL_WORDS).map((b) => t("{level}: {about}", { level: LEVEL_WORDS[b].name(), about: LEVEL_WORDS[b].about() }));
  return h("ul", { id: "levels", class: "note full" }, ...lines.map((line) => h("li", {}, line)));
}

function drawSeats() {
  const box = $("seats");
  const made = [...Array(players).keys()].map((s) => h("label", {}, `${seatLabel(s, players)} `, seatChoices(s, players)));
  [...box.querySelectorAll("label, #levels")].forEach((e) => e.remove());
  made.forEach((l) => box.appendChild(l));
  box.appendChild(levelNotes());
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
      if (!name) { alert(t("Enter your name first.")); return; }
      if (mySeat !== null) { alert(t("You can sit in one seat only.")); return; }
      mySeat = s;
      seats.push({ open: true, name });
    } else if (v === "open") seats.push({ open: true });
    else seats.push({ bot: v.slice(4) });
  }
  if (name) localStorage.setItem("spades.name", name);
  const body = { rules, seats, bot_delay_ms: Number($("delay").value) || 0, hints: $("hints").checked, ...(chatOption ? { chat: $("chat").checked } : {}), away_s: Number($("away").value) || 60, rated: !!($("rated") && $("rated").checked) };
  const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) { $("rules-error").textContent = data.error || JSON.stringify(data.detail); return; }
  $("rules-error").textContent = "";
  if (mySeat !== null) seatStore(data.id).set({ token: data.seats[mySeat].token, seat: mySeat });
  const out = clear($("created"));
  out.hidden = false;
  out.appendChild(h("h3", {}, t("Table created")));
  const invites = h("div", { class: "invites" });
  const links = [];
  // Each open seat left to someone else comes with a one-time invite ticket: the first
  // browser to open the link gets the seat's own token in exchange, and the link is spent.
  data.seats.forEach((s, i) => {
    if (s.invite && i !== mySeat) {
      const link = `${location.origin}/t/${data.id}#invite=${encodeURIComponent(s.invite)}`;
      links.push({ seat: i, link });
      invites.appendChild(h("label", {}, t("Invite link for {seat}:", { seat: seatLabel(i, n) }) + " ", h("input", { readonly: true, value: link, onclick: (ev) => ev.target.select() })));
    }
  });
  out.appendChild(invites);
  if (links.length) localStorage.setItem(`spades.invites.${data.id}`, JSON.stringify(links));
  out.appendChild(h("p", {}, h("a", { href: `/t/${data.id}`, id: "go-table" }, mySeat !== null ? t("Go to your seat →") : t("Watch the table →"))));
  loadOpen();
}
$("create").addEventListener("submit", createTable);

async function claim(id, seat) {
  const name = $("name").value.trim() || prompt(t("Your name?")) || "";
  if (!name.trim()) return;
  localStorage.setItem("spades.name", name.trim());
  const r = await fetch(`/api/tables/${encodeURIComponent(id)}/claim`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seat, name: name.trim() }) });
  const data = await r.json();
  if (!r.ok) { alert(data.error || t("You cannot take that seat.")); loadOpen(); return; }
  seatStore(id).set({ token: data.token, seat });
  location.href = `/t/${id}`;
}

async function loadOpen() {
  const r = await fetch("/api/tables?status=waiting");
  const list = await r.json();
  const ul = clear($("open"));
  if (!list.length) ul.appendChild(h("li", {}, t("No table is waiting for players. Create one!")));
  for (const tb of list) {
    const rules = rulesLine(tb.rules);
    const seatsLine = tb.seats.map((s) => seatLabel(s.seat, tb.seats.length) + ": " + (playerName(s.name) || t("open"))).join(" · ");
    const li = h("li", {}, h("span", {}, h("strong", {}, rules), " — ", seatsLine));
    const btns = h("span", { class: "row" });
    tb.seats.filter((s) => s.kind === "human" && !s.name).forEach((s) => btns.appendChild(h("button", { type: "button", onclick: () => claim(tb.id, s.seat) }, t("Sit {seat}", { seat: seatLabel(s.seat, tb.seats.length) }))));
    btns.appendChild(h("a", { href: `/t/${tb.id}` }, t("watch")));
    li.appendChild(btns);
    ul.appendChild(li);
  }
}

async function loadGames() {
  const r = await fetch("/api/tables?status=all");
  const list = (await r.json()).filter((tb) => tb.status !== "waiting").slice(0, 20);
  const ul = clear($("games"));
  if (!list.length) ul.appendChild(h("li", {}, t("No game yet.")));
  for (const tb of list) {
    const names = tb.seats.map((s) => playerName(s.name) || "?").join(", ");
    const line = [tb.status === "over" ? t("finished") : t("hand {n}", { n: tb.hand }), tb.totals.join(" – "), names].join(" · ");
    ul.appendChild(h("li", {}, h("span", {}, line), h("span", { class: "row" },
      h("a", { href: `/t/${tb.id}` }, tb.status === "over" ? t("table") : t("watch")),
      h("a", { href: `/replay?table=${tb.id}` }, t("replay")),
      h("a", { href: `/api/tables/${tb.id}/record?download=1` }, t("record")))));
  }
}

// The rules of a waiting table in a line: the preset's words, then the options changed.
function rulesLine(rules) {
  if (typeof rules === "string") return rules in PRESET_WORDS ? PRESET_WORDS[rules]() : rules;
  const head = rules.preset in PRESET_WORDS ? PRESET_WORDS[rules.preset]() : rules.preset;
  const rest = Object.entries(rules).filter(([k]) => k !== "preset")
    .map(([k, v]) => `${k in OPTION_WORDS ? OPTION_WORDS[k]() : k} ${choiceWord(k, v)}`);
  return [head, ...rest].join(", ");
}

await initWords();
onLang(() => { if (catalog) buildForm(); loadOpen(); loadGames(); });
Promise.all([fetch("/api/info").then((r) => r.json()), fetch("/api/rules").then((r) => r.json())]).then(([info, rules]) => {
  bots = info.bots;
  chatOption = !!info.chat; // a server with table chat says so
  $("chat").closest("label").hidden = !chatOption;
  catalog = rules;
  buildForm();
});
loadOpen();
loadGames();
setInterval(() => { loadOpen(); loadGames(); }, 4000);
