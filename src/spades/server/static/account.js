// Accounts on every page: the CSRF token on each change this page asks for, the account's link
// in the top bar, and the calls of the account pages (docs/accounts.md).
import { h, t, currentLang } from "/static/common.js";

// The token is the spades_csrf cookie (SameSite=Strict, readable only by this site's pages):
// every same-origin request that changes something carries it in X-CSRF-Token, so a request
// made by another site, which cannot read it, is refused once a session is signed in.
function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)spades_csrf=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}
const plainFetch = window.fetch.bind(window);
window.fetch = (input, init = {}) => {
  const url = new URL(typeof input === "string" ? input : input.url, location.href);
  const method = (init.method || (typeof input === "string" ? "GET" : input.method) || "GET").toUpperCase();
  if (url.origin === location.origin && method !== "GET" && method !== "HEAD") {
    const headers = new Headers(init.headers || (typeof input === "string" ? undefined : input.headers));
    if (!headers.has("x-csrf-token")) headers.set("x-csrf-token", csrfToken());
    headers.set("x-spades-lang", currentLang());
    init = { ...init, headers };
  }
  return plainFetch(input, init);
};

let who = null;
export async function whoami() {
  const r = await plainFetch("/api/account", { headers: { "x-spades-lang": currentLang() } });
  who = r.ok ? (await r.json()).account : null;
  return who;
}

// POST a JSON body; the answer's JSON with its status (an error's one line is in .error).
export async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body || {}) });
  let data = {};
  try { data = await r.json(); } catch { data = {}; }
  return { ok: r.ok, status: r.status, data };
}

// The top bar's account link: the name (to the account page) or "Sign in".
export function drawNav() {
  const nav = document.querySelector(".topbar .tools") || document.querySelector(".topbar");
  if (!nav) return;
  let link = document.getElementById("account-link");
  if (!link) {
    link = h("a", { id: "account-link" });
    nav.appendChild(document.createTextNode(" "));
    nav.appendChild(link);
  }
  link.href = who ? "/account" : `/signin?next=${encodeURIComponent(location.pathname + location.search)}`;
  link.textContent = who ? who.name : t("Sign in");
}

export async function initNav() {
  try { await whoami(); } catch { who = null; }
  drawNav();
  return who;
}
