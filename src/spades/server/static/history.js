import { h, clear, t, pt, initWords, onLang, currentLang, playerName } from "/static/common.js";
import { initNav } from "/static/account.js";

const $ = (id) => document.getElementById(id);
await initWords();
const me = await initNav();
let games = [];

function resultText(g) {
  if (g.result === "won") return pt("result", "won");
  if (g.result === "lost") return pt("result", "lost");
  if (g.status === "waiting") return pt("result", "waiting");
  if (g.status === "playing") return pt("result", "playing");
  if (g.status === "over") return "";
  return pt("result", "ended");
}
function rulesText(r) { return typeof r === "string" ? r : r && r.preset ? `${r.preset}*` : "?"; }
function draw() {
  const body = clear($("games").querySelector("tbody"));
  $("games").hidden = games.length === 0;
  $("empty").hidden = !me || games.length !== 0;
  const fmt = new Intl.DateTimeFormat(currentLang(), { dateStyle: "medium", timeStyle: "short" });
  for (const g of games) {
    const players = g.players.map((p, i) => (i === g.seat ? `[${playerName(p) || "?"}]` : playerName(p) || "?")).join(", ");
    body.appendChild(h("tr", { class: "game" },
      h("td", {}, fmt.format(new Date(g.created_at * 1000))),
      h("td", {}, rulesText(g.rules)),
      h("td", {}, players),
      h("td", { class: "num" }, g.totals.join(" : ")),
      h("td", { class: g.result ? `result-${g.result}` : "" }, resultText(g)),
      h("td", {}, g.status === "over"
        ? h("a", { href: g.replay, class: "replay-link" }, t("Replay"))
        : h("a", { href: g.table }, t("Open table")))));
  }
}
if (!me) {
  $("guest").hidden = false;
} else {
  const r = await fetch("/api/history?limit=100");
  games = r.ok ? (await r.json()).games : [];
  draw();
  onLang(draw);
}
