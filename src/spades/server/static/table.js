// The table page: one websocket, the server's view of our seat, drawn again on every update.
import { cardSVG, backSVG, sortHand, cardName } from "/static/cards.js";
import { h, clear, seatLabel, sideLabel, bidText, sha256hex, seatStore, totalsChart } from "/static/common.js";

const tableId = location.pathname.split("/").pop();
const store = seatStore(tableId);
// An invite link carries a one-time ticket in the fragment (never sent to the server's logs):
// the first hello trades it for the seat's own token, which this browser keeps so a reload
// or a crash of the server reconnects us by ourselves. Older links carry the token itself.
// A browser that already holds a seat here keeps it: opening the link again (the invitee
// clicking it twice, the creator trying it) must neither spend the ticket nor lose the seat.
let notice = null;
if (location.hash.startsWith("#invite=")) {
  const held = store.get();
  if (held && held.token) notice = "This browser already holds a seat at this table: the invite link was not used.";
  else store.set({ invite: decodeURIComponent(location.hash.slice(8)) });
  history.replaceState(null, "", location.pathname);
} else if (location.hash.startsWith("#token=")) {
  store.set({ token: decodeURIComponent(location.hash.slice(7)) });
  history.replaceState(null, "", location.pathname);
}
let mine = store.get();

let ws = null;
let state = null;
let welcomed = false; // this connection's hello was answered with a state
let watching = false; // this connection said hello as a spectator
let retry = 0;
let selected = new Set();
let showLast = false;
let showSheet = window.matchMedia("(min-width: 900px)").matches;
let hint = null;
let seenHands = null;

const $ = (id) => document.getElementById(id);
document.getElementById("lnk-record").href = `/api/tables/${tableId}/record?download=1`;
document.getElementById("lnk-replay").href = `/replay?table=${encodeURIComponent(tableId)}`;

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  $("conn").textContent = "connecting…";
  $("conn").className = "conn wait";
  ws.onopen = () => {
    retry = 0;
    welcomed = false;
    $("conn").textContent = "online";
    $("conn").className = "conn ok";
    watching = false;
    if (mine && mine.token) send({ type: "hello", token: mine.token });
    else if (mine && mine.invite) send({ type: "hello", invite: mine.invite });
    else { watching = true; send({ type: "hello" }); }
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") {
      welcomed = true;
      onState(msg);
      if (notice) { toast(notice); notice = null; }
    }
    else if (msg.type === "seat") {
      // The ticket is spent: from now on this browser holds the seat's token instead.
      mine = { token: msg.token, seat: msg.seat };
      store.set(mine);
    }
    else if (msg.type === "error") {
      // Our seat was taken from the lobby, or our invite link was already used: forget the
      // secret and watch instead. (Other refusals may pass, a table moving between servers:
      // the secret is kept for the next connection.)
      if (msg.code === "seat_taken") {
        store.clear();
        mine = null;
      }
      // Whatever refused our hello, still show the table, as to a spectator.
      if (!welcomed && !watching) { watching = true; send({ type: "hello" }); }
      toast(msg.message);
    }
    else if (msg.type === "hint") { hint = msg; render(); }
  };
  ws.onclose = () => {
    $("conn").textContent = "reconnecting…";
    $("conn").className = "conn bad";
    const wait = Math.min(5000, 300 * 2 ** retry++);
    setTimeout(connect, wait);
  };
}

function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 3500);
}

function onState(msg) {
  const prev = state;
  // The score sheet and the proofs come only when they change: keep the last ones.
  if (!("sheet" in msg.table) && prev) {
    msg.table.sheet = prev.table.sheet;
    msg.table.proofs = prev.table.proofs;
  }
  state = msg;
  const sheet = msg.table.sheet;
  if (seenHands === null) seenHands = sheet.length;
  if (sheet.length > seenHands) {
    const lastTrick = prev && prev.table.hand === sheet.length ? prev.table.last_trick : null;
    seenHands = sheet.length;
    showSummary(sheet[sheet.length - 1], lastTrick);
  }
  if (!prev || prev.table.to_move !== msg.table.to_move || prev.table.hand !== msg.table.hand) hint = null;
  if (prev && prev.obs && msg.obs && prev.obs.phase !== msg.obs.phase) selected = new Set();
  render();
}

// Seats are drawn relative to us: we sit at the bottom; spectators see South at the bottom.
function relPos(seat) {
  const n = state.table.rules.players;
  const me = state.you ?? (n === 2 ? 0 : 2);
  const r = (seat - me + n) % n;
  return n === 2 ? (r === 0 ? 0 : 2) : r;
}

function render() {
  if (!state) return;
  const t = state.table;
  const n = t.rules.players;
  renderStatus(t);
  for (let p = 0; p < 4; p++) clear($(`pos-${p}`)).hidden = true;
  for (let s = 0; s < n; s++) renderSeat(t, s);
  renderCentre(t);
  renderControls(t);
  renderHand(t);
  renderSide(t);
  $("btn-hint").hidden = !(t.hints && state.you !== null && t.to_move === state.you);
  $("btn-last").classList.toggle("on", showLast);
  $("btn-sheet").classList.toggle("on", showSheet);
}

function nameOf(t, s) { return t.players[s] || `${seatLabel(s, t.rules.players)} (open)`; }

function renderStatus(t) {
  $("status").textContent = statusText(t);
}

function statusText(t) {
  let text;
  if (t.status === "waiting") text = "Waiting for players…";
  else if (t.status === "over") {
    const side = t.winner;
    const others = t.totals.filter((_, i) => i !== side);
    text = `Game over: ${sideLabel(side, t.rules, t.players)} win${t.rules.teams ? "" : "s"} ${[t.totals[side], ...others].join(" to ")}`;
  } else {
    const who = t.to_move === state.you ? "Your turn" : `${nameOf(t, t.to_move)} to ${t.phase === "bid" ? "bid" : t.phase === "exchange" ? "pass" : "play"}`;
    text = `Hand ${t.hand} · ${who}`;
  }
  return text;
}

function renderSeat(t, s) {
  const box = $(`pos-${relPos(s)}`);
  box.hidden = false;
  const seat = t.seats[s];
  const bid = t.bids[s];
  box.classList.toggle("turn", t.to_move === s && t.status === "playing");
  box.appendChild(h("div", { class: "who" },
    h("span", { class: `dot ${seat.connected ? "on" : "off"}`, title: seat.connected ? "here" : "away" }),
    h("span", { class: "name" }, nameOf(t, s)),
    t.dealer === s ? h("span", { class: "chip", title: "dealer" }, "D") : null,
    s === state.you ? h("span", { class: "chip you" }, "you") : null));
  const playing = t.status !== "waiting";
  box.appendChild(h("div", { class: "meta" },
    h("span", {}, seatLabel(s, t.rules.players)),
    playing ? h("span", {}, `bid ${bidText(bid)}`) : null,
    playing ? h("span", {}, `won ${t.tricks_won[s] ?? 0}`) : null,
    playing && relPos(s) !== 0 ? h("span", {}, `${t.counts[s] ?? 0} cards`) : null));
  if (seat.standin) box.appendChild(h("div", { class: "away" }, "away: a bot plays for now"));
  if (relPos(s) !== 0 && t.counts[s]) {
    const fan = h("div", { class: "fan", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(t.counts[s], 13); i++) fan.appendChild(h("span", { class: "mini" }));
    box.appendChild(fan);
  }
}

function trickCardsBySeat(trick, n) {
  return trick.cards.map((c, i) => [(trick.leader + i) % n, c]);
}

function renderCentre(t) {
  const c = clear($("centre"));
  const n = t.rules.players;
  let trick = t.trick;
  let caption = null;
  let winner = null;
  if ((showLast || trick.cards.length === 0) && t.last_trick) {
    trick = t.last_trick;
    winner = t.last_trick.winner;
    caption = `${showLast ? "Last trick" : "Trick"} won by ${nameOf(t, winner)}`;
  }
  for (const [seat, card] of trickCardsBySeat(trick, n)) {
    const slot = h("div", { class: `played at-${relPos(seat)}${seat === winner ? " winner" : ""}`, title: `${nameOf(t, seat)}: ${cardName(card)}` });
    slot.appendChild(cardSVG(card));
    slot.appendChild(h("span", { class: "by" }, nameOf(t, seat)));
    c.appendChild(slot);
  }
  if (t.phase === "draw" && state.obs) {
    const stock = h("div", { class: "played at-stock", title: "the stock" });
    stock.appendChild(state.obs.stock_top ? cardSVG(state.obs.stock_top) : backSVG());
    stock.appendChild(h("span", { class: "by" }, `stock: ${state.obs.stock_left} left`));
    c.appendChild(stock);
  }
  if (caption && t.status !== "over") c.appendChild(h("div", { class: "caption" }, caption));
  if (t.status === "waiting") c.appendChild(h("div", { class: "caption" }, "The game starts when every seat is filled."));
  if (t.status === "over") c.appendChild(h("div", { class: "caption result" }, statusText(t)));
}

function renderInvites(box, t) {
  // The creator's invite links (kept by the lobby in this browser) for the seats still empty:
  // a seat someone took (from the lobby or by its link) no longer needs one.
  let links = [];
  try { links = JSON.parse(localStorage.getItem(`spades.invites.${tableId}`) || "[]"); } catch { links = []; }
  links = links.filter((l) => typeof l === "string" || t.players[l.seat] === null);
  if (t.status !== "waiting" || !links.length) return;
  box.appendChild(h("p", {}, "Send these invite links to the people you are waiting for:"));
  for (const l of links) {
    const link = typeof l === "string" ? l : l.link;
    box.appendChild(h("input", { class: "invite mono", readonly: true, value: link, onclick: (e) => e.target.select() }));
  }
}

function renderControls(t) {
  const box = clear($("controls"));
  renderInvites(box, t);
  const you = state.you;
  if (you === null) {
    box.appendChild(h("p", { class: "hint-line" }, "You are watching. Open a seat's invite link to play."));
    return;
  }
  if (t.players[you] === null) {
    const input = h("input", { id: "join-name", maxlength: 24, placeholder: "Your name", value: localStorage.getItem("spades.name") || "", autocomplete: "nickname" });
    const form = h("form", { class: "join", onsubmit: (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      localStorage.setItem("spades.name", name);
      send({ type: "join", name });
    } }, h("label", { for: "join-name" }, `Take the ${seatLabel(you, t.rules.players)} seat as `), input, h("button", { type: "submit", id: "btn-join" }, "Sit down"));
    box.appendChild(form);
    return;
  }
  const can = state.can || {};
  if (hint) {
    box.appendChild(h("p", { class: "hint-line", id: "hint-text" }, `Hint (${hint.bot}): ${hint.action}${hint.why ? " — " + hint.why : ""}`));
  }
  if (can.look) {
    const row = h("div", { class: "row" });
    row.appendChild(h("button", { type: "button", id: "btn-look", onclick: () => send({ type: "look" }) }, "Look at my cards"));
    if (can.blind_nil) row.appendChild(h("button", { type: "button", class: "danger", id: "btn-blind", onclick: () => send({ type: "bid", bid: "blind_nil" }) }, `Bid Blind Nil (±${t.rules.blind_nil_bonus})`));
    box.appendChild(h("p", {}, "Your cards are face down. You may bid Blind Nil before looking."));
    box.appendChild(row);
  }
  if (can.bids && can.bids.length) {
    const row = h("div", { class: "row bids", role: "group", "aria-label": "your bid" });
    for (const b of can.bids) {
      const hinted = hint && (hint.action === `bid ${b}` || (b === 0 && hint.action === "bid nil"));
      row.appendChild(h("button", { type: "button", class: hinted ? "bid hinted" : "bid", "data-bid": b, onclick: () => send({ type: "bid", bid: b === 0 ? "nil" : b }) }, b === 0 ? "Nil" : String(b)));
    }
    box.appendChild(h("p", {}, "Your bid:"));
    box.appendChild(row);
  }
  if (can.pass) {
    const got = state.obs && state.obs.exchange ? state.obs.exchange.received : [];
    box.appendChild(h("p", {}, got.length
      ? `You received ${got.join(" ")}. Choose ${can.pass} cards to pass back.`
      : `Your partner bid Blind Nil: choose ${can.pass} cards to pass to him, face down.`));
    box.appendChild(h("button", { type: "button", id: "btn-pass", disabled: selected.size !== can.pass ? true : null, onclick: () => {
      send({ type: "pass", cards: [...selected] });
      selected = new Set();
    } }, `Pass ${selected.size}/${can.pass} cards`));
  }
  if (can.draw) {
    const top = state.obs.stock_top;
    box.appendChild(h("p", {}, `The stock shows ${top}.`));
    box.appendChild(h("div", { class: "row" },
      h("button", { type: "button", onclick: () => send({ type: "draw", keep: true }) }, "Keep it"),
      h("button", { type: "button", onclick: () => send({ type: "draw", keep: false }) }, "Take the next")));
  }
  if (can.cards && can.cards.length) box.appendChild(h("p", { class: "hint-line" }, "Your turn: click a highlighted card (or use ← → and Enter)."));
}

function renderHand(t) {
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
  const box = clear($("hand"));
  const obs = state.obs;
  if (state.you === null || !obs) return;
  const can = state.can || {};
  if (obs.hand === null) {
    for (let i = 0; i < (t.counts[state.you] || 0); i++) {
      const d = h("div", { class: "card down" });
      d.appendChild(backSVG());
      box.appendChild(d);
    }
    return;
  }
  const legal = new Set(can.cards || []);
  const passing = !!can.pass;
  const received = new Set(obs.exchange ? obs.exchange.received : []);
  const myTurnToPlay = legal.size > 0;
  const cards = sortHand(obs.hand);
  const buttons = [];
  cards.forEach((card) => {
    const playable = legal.has(card);
    const cls = ["card"];
    if (myTurnToPlay) cls.push(playable ? "legal" : "dim");
    if (passing) cls.push("legal");
    if (selected.has(card)) cls.push("selected");
    if (received.has(card)) cls.push("received");
    if (hint && (hint.action === `play ${card}` || hint.action === `pick ${card}`)) cls.push("hinted");
    const b = h("button", { type: "button", class: cls.join(" "), "data-card": card, "aria-label": cardName(card), disabled: !(playable || passing) ? true : null, onclick: () => {
      if (passing) {
        if (selected.has(card)) selected.delete(card); else if (selected.size < can.pass) selected.add(card);
        render();
      } else if (playable) {
        send({ type: "play", card });
      }
    } });
    b.appendChild(cardSVG(card));
    box.appendChild(b);
    if (playable || passing) buttons.push(b);
  });
  if (focused) {
    const again = buttons.find((b) => b.dataset.card === focused) || buttons[0];
    if (again) again.focus();
  }
}

function renderSide(t) {
  const side = $("side");
  side.hidden = !showSheet;
  const sheetBox = clear($("sheet"));
  const sides = t.rules.teams ? 2 : t.rules.players;
  const labels = [...Array(sides).keys()].map((s) => sideLabel(s, t.rules, t.players));
  sheetBox.appendChild(h("h2", {}, "Score sheet"));
  const table = h("table", { class: "scores" });
  const head = h("tr", {}, h("th", {}, "#"), h("th", {}, "Bids"), h("th", {}, "Tricks"));
  labels.forEach((l) => head.appendChild(h("th", { colspan: 3 }, l)));
  const sub = h("tr", { class: "sub" }, h("th", {}), h("th", {}), h("th", {}));
  labels.forEach(() => { sub.appendChild(h("th", {}, "pts")); sub.appendChild(h("th", {}, "bags")); sub.appendChild(h("th", {}, "total")); });
  table.appendChild(h("thead", {}, head, sub));
  const body = h("tbody");
  for (const r of t.sheet) {
    const tr = h("tr", {}, h("td", {}, r.hand), h("td", { class: "nowrap" }, r.bids.map((b) => bidText(b).replace("Blind Nil", "BN")).join("/")), h("td", { class: "nowrap" }, r.tricks.join("/")));
    for (let s = 0; s < sides; s++) {
      tr.appendChild(h("td", { class: r.points[s] < 0 ? "neg" : "" }, (r.points[s] > 0 ? "+" : "") + r.points[s]));
      tr.appendChild(h("td", {}, r.bags[s]));
      tr.appendChild(h("td", { class: "total" }, r.totals[s]));
    }
    body.appendChild(tr);
  }
  if (!t.sheet.length) body.appendChild(h("tr", {}, h("td", { colspan: 3 + 3 * sides, class: "empty" }, "No hand finished yet.")));
  table.appendChild(body);
  sheetBox.appendChild(table);
  sheetBox.appendChild(totalsChart(t.sheet, sides, t.rules.target, labels));
  const proof = clear($("proof"));
  proof.appendChild(h("h2", {}, "Fair shuffle"));
  const cur = t.proofs[t.proofs.length - 1];
  if (cur) {
    proof.appendChild(h("p", {}, "Each deck comes from the server's secure random source. Its fingerprint was published at the deal; the deck is revealed after the hand."));
    proof.appendChild(h("p", { class: "mono", title: "sha256(deck + salt)" }, `Hand ${cur.hand}: ${cur.commit.slice(0, 24)}…`));
    const lastDone = [...t.proofs].reverse().find((p) => p.deck);
    if (lastDone) {
      const line = h("p", { class: "mono", id: "proof-check" }, `Hand ${lastDone.hand}: checking…`);
      proof.appendChild(line);
      sha256hex(lastDone.deck + lastDone.salt).then((hex) => {
        line.textContent = hex === null ? `Hand ${lastDone.hand}: revealed (check with spades verify)`
          : hex === lastDone.commit ? `Hand ${lastDone.hand}: ✓ revealed deck matches its commitment`
          : `Hand ${lastDone.hand}: ✗ revealed deck does NOT match!`;
      });
    }
  }
  $("bots-note").textContent = `${t.bots_note} Hints: ${t.hints ? t.hint_bot + " bot" : "off at this table"}. Bot delay ${t.bot_delay_ms} ms.`;
}

function showSummary(line, lastTrick) {
  const t = state.table;
  const sides = t.rules.teams ? 2 : t.rules.players;
  const m = clear($("modal"));
  const card = h("div", { class: "dialog", role: "dialog", "aria-label": "end of hand" });
  card.appendChild(h("h2", {}, `Hand ${line.hand} is over`));
  if (lastTrick) {
    const row = h("div", { class: "row small-cards" });
    lastTrick.cards.forEach((c) => row.appendChild(cardSVG(c)));
    card.appendChild(h("p", {}, `Last trick won by ${nameOf(t, lastTrick.winner)}`));
    card.appendChild(row);
  }
  const tbl = h("table", { class: "scores" });
  tbl.appendChild(h("tr", {}, h("th", {}, "Seat"), h("th", {}, "Bid"), h("th", {}, "Tricks")));
  for (let s = 0; s < t.rules.players; s++) tbl.appendChild(h("tr", {}, h("td", {}, nameOf(t, s)), h("td", {}, bidText(line.bids[s])), h("td", {}, line.tricks[s])));
  card.appendChild(tbl);
  const res = h("table", { class: "scores" });
  res.appendChild(h("tr", {}, h("th", {}, "Side"), h("th", {}, "Points"), h("th", {}, "Bags"), h("th", {}, "Total")));
  for (let s = 0; s < sides; s++) res.appendChild(h("tr", {}, h("td", {}, sideLabel(s, t.rules, t.players)), h("td", {}, (line.points[s] > 0 ? "+" : "") + line.points[s]), h("td", {}, line.bags[s]), h("td", {}, line.totals[s])));
  card.appendChild(res);
  if (t.status === "over") {
    card.appendChild(h("p", { class: "result" }, statusText(t)));
    card.appendChild(h("p", {}, h("a", { href: `/replay?table=${encodeURIComponent(tableId)}` }, "Replay this game"), " · ",
      h("a", { href: `/api/tables/${encodeURIComponent(tableId)}/record?download=1` }, "download its record"), " · ",
      h("a", { href: "/" }, "new table")));
  }
  card.appendChild(h("button", { type: "button", id: "btn-continue", onclick: () => { m.hidden = true; } }, "Continue"));
  m.appendChild(card);
  m.hidden = false;
}

$("btn-hint").addEventListener("click", () => send({ type: "hint" }));
$("btn-last").addEventListener("click", () => { showLast = !showLast; render(); });
$("btn-sheet").addEventListener("click", () => { showSheet = !showSheet; render(); });

document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement) return;
  const cards = [...document.querySelectorAll("#hand button.card:not([disabled])")];
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    if (!cards.length) return;
    const i = cards.indexOf(document.activeElement);
    const next = i < 0 ? 0 : (i + (e.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
    cards[next].focus();
    e.preventDefault();
  } else if (e.key === "h" || e.key === "H") { send({ type: "hint" }); }
  else if (e.key === "l" || e.key === "L") { showLast = !showLast; render(); }
  else if (e.key === "s" || e.key === "S") { showSheet = !showSheet; render(); }
  else if (e.key === "Escape") { $("modal").hidden = true; }
});

connect();
