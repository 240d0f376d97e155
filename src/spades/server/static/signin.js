import { initWords } from "/static/common.js";
import { initNav, post } from "/static/account.js";

const $ = (id) => document.getElementById(id);
const next = new URLSearchParams(location.search).get("next");
const target = next && next.startsWith("/") && !next.startsWith("//") ? next : "/account";

// The forms are taken over before anything is awaited: a press while the words load would
// otherwise submit the form natively (the name in the address, the "next" page lost).
const ready = (async () => { await initWords(); await initNav(); })();
async function send(path, name, password) {
  await ready;
  $("error").textContent = "";
  const r = await post(path, { name: $(name).value.trim(), password: $(password).value });
  if (r.ok) location.assign(target);
  else $("error").textContent = r.data.error || String(r.status);
}
$("signin").addEventListener("submit", (e) => { e.preventDefault(); send("/api/account/signin", "in-name", "in-password"); });
$("signup").addEventListener("submit", (e) => { e.preventDefault(); send("/api/account/signup", "up-name", "up-password"); });
await ready;
