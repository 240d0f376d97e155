import { h, clear, t, initWords, onLang, currentLang } from "/static/common.js";
import { initNav } from "/static/account.js";

const $ = (id) => document.getElementById(id);
await initWords();
await initNav();
const name = decodeURIComponent(location.pathname.split("/")[2] || "");
let data = null;

const pct = (x) => (x === null || x === undefined ? "–" : `${Math.round(x * 100)}%`);
const num = (x, d = 1) => (x === null || x === undefined ? "–" : x.toFixed(d));

// A rule family as the leaderboard names it: a preset by name, house rules by their rules.
function familyText(f) {
  if (!f.family.startsWith("house-")) return f.family;
  let spec = f.rules || f.family;
  try { spec = JSON.stringify(JSON.parse(f.rules)); } catch { /* shown as stored */ }
  return t("house rules {rules}", { rules: spec });
}

function draw() {
  $("name").textContent = data.name;
  const lang = encodeURIComponent(currentLang());
  const body = clear($("ratings").querySelector("tbody"));
  for (const r of data.ratings) {
    const board = h("a", { href: `/leaderboard?family=${encodeURIComponent(r.family)}` }, familyText(r));
    body.appendChild(h("tr", {}, h("td", {}, board), h("td", { class: "num" }, String(r.display)), h("td", { class: "num" }, String(r.games))));
  }
  $("ratings-panel").hidden = false;
  const fam = data.ratings.length ? data.ratings[0].family : "standard";
  $("rating-plot").src = `/api/users/${encodeURIComponent(data.name)}/rating.svg?family=${encodeURIComponent(fam)}&lang=${lang}`;
  $("rating-plot").alt = t("Rating over time");
  $("points-plot").src = `/api/users/${encodeURIComponent(data.name)}/points.svg?lang=${lang}`;
  $("points-plot").alt = t("Points per hand over time");
  const s = data.stats;
  const rates = s.rates;
  const partners = Object.entries(s.partners).sort((a, b) => b[1] - a[1]).slice(0, 5)
    .map(([p, n]) => `${p === "me" ? data.name : p} (${n})`).join(", ");
  const rows = [
    [t("Games"), String(s.games)],
    [t("Wins"), `${s.wins} (${pct(rates.win_rate)})`],
    [t("Hands"), String(s.hands)],
    [t("Points per hand"), num(rates.points_per_hand)],
    [t("Bid accuracy"), pct(rates.bid_accuracy)],
    [t("Sets"), `${s.sets} (${pct(rates.set_rate)})`],
    [t("Bags per hand"), num(rates.bags_per_hand, 2)],
    [t("Nil bids (made)"), `${pct(rates.nil_bid_rate)} (${pct(rates.nil_made_rate)})`],
    [t("Blind Nil bids (made)"), `${pct(rates.blind_nil_bid_rate)} (${pct(rates.blind_nil_made_rate)})`],
    [t("Partners"), partners || "–"],
  ];
  const dl = clear($("stats"));
  for (const [k, v] of rows) { dl.appendChild(h("dt", {}, k)); dl.appendChild(h("dd", {}, v)); }
  $("stats-panel").hidden = false;
}
const r = await fetch(`/api/users/${encodeURIComponent(name)}`, { headers: { "x-spades-lang": currentLang() } });
const body = await r.json().catch(() => ({}));
if (r.ok) { data = body; draw(); onLang(draw); } else { $("error").textContent = body.error || String(r.status); }
