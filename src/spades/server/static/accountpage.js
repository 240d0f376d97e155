import { t, initWords } from "/static/common.js";
import { initNav, drawNav, whoami, post } from "/static/account.js";

const $ = (id) => document.getElementById(id);
await initWords();

function show(me) {
  $("guest").hidden = !!me;
  $("me").hidden = !me;
  $("delete").hidden = !me;
  if (me) {
    $("me-name").textContent = me.name;
    $("to-profile").href = `/u/${encodeURIComponent(me.name)}`;
  }
}
async function act(path, body, doneText) {
  $("error").textContent = "";
  const r = await post(path, body);
  if (!r.ok) { $("error").textContent = r.data.error || String(r.status); return; }
  $("done").textContent = doneText;
  show(await whoami());
  drawNav();
}
$("btn-signout").addEventListener("click", () => act("/api/account/signout", {}, t("You are signed out.")));
$("btn-signout-all").addEventListener("click", () => act("/api/account/signout-all", {}, t("You are signed out on every device.")));
$("delete-form").addEventListener("submit", (e) => {
  e.preventDefault();
  act("/api/account/delete", { password: $("del-password").value }, t("Your account was deleted."));
});
show(await initNav());
