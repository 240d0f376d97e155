import { h, clear, seatLabel, seatStore } from "/static/common.js";

const PRESETS = {
  standard: { players: 4, blind_nil: true, bags: "carry", set_penalty: "minus" },
  hoyle: { players: 4, blind_nil: true, bags: "reset", set_penalty: "minus" },
  bicycle: { players: 4, blind_nil: false, bags: "carry", set_penalty: "zero" },
  two_player: { players: 2, blind_nil: false, bags: "carry", set_penalty: "minus" },
};
const $ = (id) => document.getElementById(id);
let bots = ["random", "heuristic"];
$("name").value = localStorage.getItem("spades.name") || "";

function seatChoices(seat, players) {
  const sel = h("select", { id: `seat-${seat}`, "aria-label": `${seatLabel(seat, players)} seat` });
  sel.appendChild(h("option", { value: "me" }, "You"));
  sel.appendChild(h("option", { value: "open" }, "A person (invite link)"));
  for (const b of bots) sel.appendChild(h("option", { value: `bot:${b}` }, `Bot: ${b}`));
  sel.value = seat === (players === 2 ? 0 : 2) ? "me" : `bot:${bots.includes("expert") ? "expert" : "heuristic"}`;
  return sel;
}

function drawSeats() {
  const p = PRESETS[$("preset").value];
  const box = $("seats");
  [...box.querySelectorAll("label")].forEach((e) => e.remove());
  for (let s = 0; s < p.players; s++) box.appendChild(h("label", {}, `${seatLabel(s, p.players)} `, seatChoices(s, p.players)));
}

function applyPreset() {
  const p = PRESETS[$("preset").value];
  $("blind_nil").checked = p.blind_nil;
  $("blind_nil").disabled = $("preset").value === "two_player" || $("preset").value === "bicycle";
  $("bags").value = p.bags;
  $("set_penalty").value = p.set_penalty;
  drawSeats();
}
$("preset").addEventListener("change", applyPreset);

async function createTable(e) {
  e.preventDefault();
  const name = $("name").value.trim();
  const presetName = $("preset").value;
  const p = PRESETS[presetName];
  const rules = { preset: presetName, target: Number($("target").value) || 500, bags: $("bags").value, set_penalty: $("set_penalty").value };
  if (!$("blind_nil").disabled) rules.blind_nil = $("blind_nil").checked;
  const seats = [];
  let mySeat = null;
  for (let s = 0; s < p.players; s++) {
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
  if (!r.ok) { alert(data.error || JSON.stringify(data.detail)); return; }
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
      invites.appendChild(h("label", {}, `Invite link for ${seatLabel(i, p.players)}: `, h("input", { readonly: true, value: link, onclick: (ev) => ev.target.select() })));
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
    const rules = typeof t.rules === "string" ? t.rules : `${t.rules.preset}${t.rules.target ? ", to " + t.rules.target : ""}`;
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

fetch("/api/info").then((r) => r.json()).then((info) => { bots = info.bots; applyPreset(); });
applyPreset();
loadOpen();
loadGames();
setInterval(() => { loadOpen(); loadGames(); }, 4000);
