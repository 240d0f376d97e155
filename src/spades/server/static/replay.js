// The replay viewer: the server's engine checks the record and lays it out; we only step.
import { cardSVG, sortHand, cardName } from "/static/cards.js";
import { h, clear, seatLabel, bidText, sha256hex, playerName, shortName, t as tr, pt, initWords, onLang, listText, currentLang } from "/static/common.js";

const $ = (id) => document.getElementById(id);
let view = null;
let hand = 0;
let step = 0; // tricks shown complete
let loads = 0; // which record is shown: an older record's late browser check is dropped
let browserCheck = null; // the browser's own count of matching hashes, kept for a change of language
const browserCheckText = () => tr("Checked in your browser too: {good} of {total} hashes match.", browserCheck);

async function load(record) {
  $("error").textContent = "";
  const r = await fetch("/api/replay", { method: "POST", headers: { "content-type": "application/json" }, body: typeof record === "string" ? record : JSON.stringify(record) });
  const data = await r.json();
  if (!r.ok || data.error) { $("error").textContent = data.error || tr("Cannot read that record."); $("viewer").hidden = true; return; }
  view = data;
  // The deck's order (jokers and the jjdd 2D with the spades) from the server's engine.
  const checked = await fetch("/api/rules/check", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ rules: data.rules }) }).then((q) => q.json()).catch(() => ({}));
  view.deck = checked.deck || null;
  hand = 0;
  step = 0;
  browserCheck = null;
  $("viewer").hidden = false;
  draw();
  // The proofs are the whole game's, so they are drawn once, not at every step (a step
  // used to wipe the browser's own check).
  drawProofs();
  checkProofsInBrowser(record, ++loads);
}

// South (or the first seat with two or three players) at the bottom, the next seat
// clockwise on the left.
function pos(seat) {
  const n = view.n;
  if (n === 2) return seat === 0 ? 0 : 2;
  if (n === 3) return [0, 1, 3][seat];
  return (seat - 2 + 4) % 4;
}
const trumps = () => new Set((view.deck && view.deck.trumps) || []);
const card = (c) => cardSVG(c, trumps().has(c));

// A seat's cards as a grid of overlapping cards in balanced rows, so no card sits alone on
// a row: the top and bottom seats in one row, the side seats at most 7 cards a row. Each
// column is at most a card's visible strip wide and shrinks to fit the seat.
function handGrid(cards, side) {
  const grid = h("div", { class: "cards" });
  cards.forEach((c) => grid.appendChild(card(c)));
  const rows = side ? Math.ceil(cards.length / 7) : 1;
  const cols = Math.max(1, Math.ceil(cards.length / Math.max(1, rows)));
  grid.style.gridTemplateColumns = cols > 1 ? `repeat(${cols - 1}, minmax(0, var(--rc-step))) var(--rc-w)` : "var(--rc-w)";
  return grid;
}

function draw() {
  const H = view.hands[hand];
  if (!H) { $("where").textContent = tr("The record holds no hand."); return; }
  const n = view.n;
  const tricks = H.tricks;
  step = Math.max(0, Math.min(step, tricks.length));
  $("where").textContent = tr("Hand {n}/{hands} · trick {trick}/{tricks}", { n: H.number, hands: view.hands.length, trick: step, tricks: tricks.length });
  $("title").textContent = tr("Replay: {players}", { players: view.players.map(playerName).join(", ") });
  const hands = H.deal.map((cards) => new Set(cards));
  for (const ex of H.exchange) for (const c of ex.cards) { hands[ex.from].delete(c); hands[ex.to].add(c); }
  for (let i = 0; i < step; i++) tricks[i].cards.forEach((c, k) => hands[(tricks[i].leader + k) % n].delete(c));
  $("rboard").classList.toggle("three", n === 3); // nobody across the table
  for (let p = 0; p < 4; p++) clear($(`r-${p}`)).hidden = true;
  for (let s = 0; s < n; s++) {
    const box = $(`r-${pos(s)}`);
    box.hidden = false;
    const won = tricks.slice(0, step).filter((t) => t.winner === s).length;
    box.appendChild(h("div", { class: "who" }, h("span", { class: "name" }, playerName(view.players[s])), H.dealer === s ? h("span", { class: "chip", title: tr("dealer") }, pt("short", "D")) : null));
    box.appendChild(h("div", { class: "meta" }, h("span", {}, seatLabel(s, n)), h("span", {}, pt("seat", "bid {bid}", { bid: bidText(H.bids[s]) })), h("span", {}, tr("won {n}", { n: won }))));
    const side = pos(s) === 1 || pos(s) === 3;
    box.appendChild(h("div", { class: "rhand" }, handGrid(sortHand([...hands[s]], view.deck && view.deck.order), side)));
  }
  const centre = clear($("rcentre"));
  const t = step > 0 ? tricks[step - 1] : null;
  if (t) {
    t.cards.forEach((c, k) => {
      const seat = (t.leader + k) % n;
      const slot = h("div", { class: `played at-${pos(seat)}${seat === t.winner ? " winner" : ""}`, title: playerName(view.players[seat]) });
      slot.appendChild(card(c));
      slot.appendChild(h("span", { class: "by" }, shortName(view.players[seat])));
      centre.appendChild(slot);
    });
    centre.appendChild(h("div", { class: "caption" }, tr("won by {name}", { name: playerName(view.players[t.winner]) })));
  } else {
    centre.appendChild(h("div", { class: "caption" }, H.exchange.length
      ? tr("Exchange: {passes}", { passes: H.exchange.map((e) => `${playerName(view.players[e.from])} → ${playerName(view.players[e.to])}: ${listText(e.cards.map(cardName))}`).join("; ") })
      : tr("Bids made; press › to step")));
  }
  const info = clear($("rinfo"));
  if (H.score && step === tricks.length) {
    info.appendChild(h("p", {}, tr("Hand points: {points} · bags {bags} · totals {totals}", { points: H.score.points.join(" / "), bags: H.score.bags.join(" / "), totals: H.score.totals.join(" / ") })));
  }
  if (view.winner !== null && hand === view.hands.length - 1) info.appendChild(h("p", { class: "result" }, tr("Final: {score}", { score: view.totals.join(" – ") })));
}

function drawProofs() {
  const pr = clear($("rproofs"));
  pr.appendChild(h("h2", {}, tr("Shuffle proofs")));
  if (view.proof_error) pr.appendChild(h("p", { class: "fail" }, view.proof_error));
  if (!view.proofs.length && !view.proof_error) pr.appendChild(h("p", {}, tr("This record carries no shuffle proofs.")));
  // The server's check says why in English: shown as it is in English, in words of ours otherwise.
  const en = currentLang() === "en";
  for (const p of view.proofs) {
    const why = en ? p.why : p.ok ? tr("hand {n}: deck and salt match the commitment and the deal", { n: p.hand }) : tr("hand {n}: the revealed deck does not match its commitment or the deal", { n: p.hand });
    pr.appendChild(h("p", { class: p.ok ? "good" : "fail", "data-hand": p.hand }, `${p.ok ? "✓" : "✗"} ${why}`));
  }
  pr.appendChild(h("p", { id: "browser-check", class: "note" }, browserCheck ? browserCheckText() : null));
}

async function checkProofsInBrowser(record, load) {
  // A second, independent check of the hashes, done here in the browser.
  let data = record;
  try { if (typeof data === "string") data = JSON.parse(data); } catch { return; }
  const proofs = (data && data.proofs) || [];
  let good = 0;
  for (const p of proofs) {
    if (typeof p.deck !== "string" || typeof p.salt !== "string") continue;
    const hex = await sha256hex(p.deck + p.salt);
    if (hex === null) return;
    if (hex === p.commit) good++;
  }
  const line = $("browser-check");
  if (line && proofs.length && load === loads) {
    browserCheck = { good, total: proofs.length };
    line.textContent = browserCheckText();
  }
}

// One trick back or on; before trick 0 is the previous hand's last trick, after the last
// trick the next hand's start.
function move(delta) {
  const last = view.hands.length - 1;
  const tricks = view.hands[hand] ? view.hands[hand].tricks.length : 0;
  if (delta < 0 && step <= 0 && hand > 0) { hand--; step = view.hands[hand].tricks.length; }
  else if (delta > 0 && step >= tricks && hand < last) { hand++; step = 0; }
  else step += delta;
  draw();
}
$("prev").addEventListener("click", () => move(-1));
$("next").addEventListener("click", () => move(1));
$("prev-hand").addEventListener("click", () => { hand = Math.max(0, hand - 1); step = 0; draw(); });
$("next-hand").addEventListener("click", () => { hand = Math.min(view.hands.length - 1, hand + 1); step = 0; draw(); });
document.addEventListener("keydown", (e) => {
  if (!view) return;
  if (e.key === "ArrowRight") move(1);
  if (e.key === "ArrowLeft") move(-1);
});
$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (f) load(await f.text());
});
await initWords();
onLang(() => { if (view) { draw(); drawProofs(); } });
const table = new URLSearchParams(location.search).get("table");
if (table) {
  fetch(`/api/tables/${encodeURIComponent(table)}/record`).then(async (r) => {
    if (!r.ok) { $("error").textContent = tr("No record for table {table}.", { table }); return; }
    load(await r.text());
  });
}
