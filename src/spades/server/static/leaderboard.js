import { h, clear, t, initWords, onLang } from "/static/common.js";
import { initNav } from "/static/account.js";

const $ = (id) => document.getElementById(id);
await initWords();
await initNav();
let board = null;

function familyText(f) {
  if (!f.family.startsWith("house-")) return f.family;
  let spec = f.rules;
  try { spec = JSON.stringify(JSON.parse(f.rules)); } catch { /* shown as stored */ }
  return t("house rules {rules}", { rules: spec });
}
function draw() {
  const sel = clear($("family"));
  const fams = board.families.length ? board.families : [{ family: board.family, rules: "", games: 0 }];
  for (const f of fams) sel.appendChild(h("option", { value: f.family }, familyText(f)));
  sel.value = board.family;
  const body = clear($("board").querySelector("tbody"));
  for (const r of board.rows) {
    const who = r.profile ? h("a", { href: r.profile }, r.name) : h("span", { class: "bot" }, r.name);
    body.appendChild(h("tr", {}, h("td", { class: "num" }, String(r.rank)), h("td", {}, who),
      h("td", { class: "num" }, String(r.display)), h("td", { class: "num" }, String(r.games))));
  }
  $("empty").hidden = board.rows.length !== 0;
}
async function load(family) {
  const q = family ? `?family=${encodeURIComponent(family)}` : "";
  board = await (await fetch(`/api/leaderboard${q}`)).json();
  draw();
}
$("family").addEventListener("change", () => load($("family").value));
await load(new URLSearchParams(location.search).get("family"));
onLang(draw);
