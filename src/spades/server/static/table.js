// The table page: one websocket, the server's view of our seat, drawn again on every update.
import { cardSVG, backSVG, sortHand, cardName, cardList, FULL_DECK } from "/static/cards.js";
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
let lastTimer = null; // "Last trick" is a momentary view: this hides it again
let lastShown = false;
let gone = false; // the server has no such table: stop reconnecting
let passed = null; // the cards this browser passed in the exchange, for its confirmation
const touch = window.matchMedia("(hover: none), (pointer: coarse)").matches;
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
      if (msg.code === "no_table") { noSuchTable(); return; }
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
  ws.onclose = (ev) => {
    if (gone || ev.code === 4404) { noSuchTable(); return; }
    $("conn").textContent = "reconnecting…";
    $("conn").className = "conn bad";
    const wait = Math.min(5000, 300 * 2 ** retry++);
    setTimeout(connect, wait);
  };
}

// An unknown table link: say so once, in place of the board, and never reconnect.
function noSuchTable() {
  if (gone) return;
  gone = true;
  $("conn").textContent = "no such table";
  $("conn").className = "conn bad";
  $("status").textContent = "No such table";
  const c = clear($("centre"));
  c.appendChild(h("div", { class: "caption result", id: "no-table" }, "No such table: the link is wrong or the table was removed."));
  clear($("controls")).appendChild(h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
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
  askDeck(msg.table);
  const sheet = msg.table.sheet;
  if (seenHands === null) seenHands = sheet.length;
  if (sheet.length > seenHands) {
    seenHands = sheet.length;
    const line = sheet[sheet.length - 1];
    showSummary(line, finalTrick(prev, msg, line));
  }
  if (prev && prev.table.hand !== msg.table.hand) passed = null;
  if (!prev || prev.table.to_move !== msg.table.to_move || prev.table.hand !== msg.table.hand) hint = null;
  if (prev && prev.obs && msg.obs && prev.obs.phase !== msg.obs.phase) selected = new Set();
  render();
}

// The hand's last (13th, or 17th with three players) trick. The server deals the next hand in
// the same update as the last card, so that trick is no longer in the table: it is the trick
// in progress of the update before, plus the one card still missing (the one card of the deck
// not yet played), won by the seat whose trick count went up. At game over nothing is dealt
// and the table still holds it.
function finalTrick(prev, msg, line) {
  const t = msg.table;
  const n = t.rules.players;
  if (t.hand === line.hand && t.last_trick && t.trick.cards.length === 0 && sum(t.tricks_won) === sum(line.tricks)) return t.last_trick;
  if (!prev || prev.table.hand !== line.hand) return null;
  const p = prev.table;
  const cards = [...p.trick.cards];
  const winner = line.tricks.findIndex((k, s) => k > (p.tricks_won[s] ?? 0));
  if (cards.length === n - 1) {
    const lastSeat = (p.trick.leader + n - 1) % n;
    let last = null;
    if (prev.obs && prev.obs.hand && prev.you === lastSeat && prev.obs.hand.length === 1) last = prev.obs.hand[0];
    else if (n !== 2 && p.plays.length === deckOf(t).length - 1) last = deckOf(t).find((c) => !p.plays.includes(c)) || null;
    if (last) cards.push(last);
  }
  if (cards.length !== n) return null;
  return { leader: p.trick.leader, cards, winner: winner < 0 ? null : winner };
}
// A hand's points as the page shows them: the bag penalty apart, "+104 − 100", so a hand
// scored 104 that crossed the bag limit never reads as a plain "+4".
function pointsText(line, s, rules) {
  const pen = ((line.penalties || [])[s] || 0) * (rules.bag_penalty ?? 0);
  const signed = (v) => (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v);
  return pen ? `${signed(line.points[s] + pen)} − ${pen}` : signed(line.points[s]);
}
// A bot's action in words: "play QD" reads "play the queen of diamonds".
function actionText(action) {
  return String(action).replace(/\b([2-9TJQKA][SHDC]|BJ|LJ)\b/g, (_, c) => `the ${cardName(c)}`).replace(/\bblind_nil\b/g, "Blind Nil").replace(/\bbid nil\b/g, "bid Nil");
}
// A bot's reason, its card codes in words; a partner's Blind Nil is named as such.
function whyText(why, t) {
  const partner = t.rules.teams && state.you !== null ? (state.you + 2) % 4 : null;
  let text = actionText(why);
  if (partner !== null && t.bids[partner] === "blind_nil") text = text.replace(/partner bid nil/gi, "partner bid Blind Nil");
  return text;
}
function sum(xs) { return xs.reduce((a, b) => a + b, 0); }
// The cards of this table's deck, high to low in each suit in play (the server's order: the
// jokers and the jjdd 2D sit with the spades), and how many tricks a hand has.
// The server's engine gives the deck once (POST /api/rules/check with the table's rules), so
// no table message lists cards a seat does not hold.
let deck = null;
let deckAsked = false;
function askDeck(t) {
  if (deckAsked) return;
  deckAsked = true;
  fetch("/api/rules/check", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ rules: t.rules }) })
    .then((r) => r.json()).then((d) => { if (d.deck) { deck = d.deck; render(); } })
    .catch(() => { deckAsked = false; });
}
function deckOf(t) { return deck ? deck.order : FULL_DECK; }
function tricksPerHand(t) { return deck ? deck.tricks : t.rules.players === 3 ? 17 : 13; }
function isTrump(t, card) { return !!(deck && deck.trumps.includes(card)); }
function cardOf(t, card) { return cardSVG(card, isTrump(t, card)); }
// The house rules of this table in a few words (nothing for the plain presets).
const HOUSE_WORDS = {
  bidding: (v) => (v === "free" ? null : `${v} bidding`),
  jokers: (v) => (v === "big_little" ? "Big & Little Joker" : v === "jjdd" ? "Joker Joker Deuce Deuce" : null),
  players: (v) => (v === 3 ? "3 players, each for himself" : null),
  big_bid: (v) => (v === null ? null : `a bid of ${v}+ scores 20 a trick`),
  team_min_bid: (v) => (v ? `partners bid at least ${v}` : null),
  nil_tricks: (v) => (v === "partner" ? "a failed Nil's tricks count for the partner" : null),
  spades_lead: (v) => (v === "any" ? "spades may be led any time" : null),
};
function houseRules(t) {
  return Object.entries(HOUSE_WORDS).map(([k, f]) => f(t.rules[k])).filter((x) => x);
}

// Seats are drawn relative to us: we sit at the bottom; spectators see South at the bottom.
// Three players: we sit at the bottom, the next seat clockwise on the left, the other on the
// right (spectators see North at the bottom).
function relPos(seat) {
  const n = state.table.rules.players;
  const me = state.you ?? (n === 4 ? 2 : 0);
  const r = (seat - me + n) % n;
  if (n === 2) return r === 0 ? 0 : 2;
  if (n === 3) return [0, 1, 3][r];
  return r;
}

function render() {
  if (!state) return;
  const t = state.table;
  const n = t.rules.players;
  renderStatus(t);
  $("board").classList.toggle("three", n === 3); // no seat across the table: no top row
  for (let p = 0; p < 4; p++) clear($(`pos-${p}`)).hidden = true;
  for (let s = 0; s < n; s++) renderSeat(t, s);
  renderCentre(t);
  renderControls(t);
  renderHand(t);
  renderSide(t);
  $("btn-hint").hidden = !(t.hints && state.you !== null && t.to_move === state.you);
  $("btn-sheet").classList.toggle("on", showSheet);
}

function nameOf(t, s) { return t.players[s] || `${seatLabel(s, t.rules.players)} (open)`; }

function renderStatus(t) {
  $("status").textContent = statusText(t);
  // The game score, always on screen (on a phone the score sheet sits below the hand).
  const sides = t.rules.teams ? 2 : t.rules.players;
  // Solo games: the player's name without "(random bot)", cut short, so three fit on a phone.
  const cut = (text) => (text.length > 10 ? `${text.slice(0, 9)}…` : text);
  const short = (s) => (t.rules.teams ? ["NS", "EW"][s] : cut(sideLabel(s, t.rules, t.players).replace(/ \(.*\)$/, "")));
  const box = clear($("score"));
  if (t.status === "waiting") return;
  for (let s = 0; s < sides; s++) {
    box.appendChild(h("span", { class: "side-score", title: `${sideLabel(s, t.rules, t.players)}: ${t.totals[s]} points, ${t.bags[s]} bags` },
      `${short(s)} ${t.totals[s]}`, h("small", {}, ` ${t.bags[s]}b`)));
  }
}

function statusText(t) {
  let text;
  if (t.status === "waiting") text = "Waiting for players…";
  else if (t.status === "over") {
    const side = t.winner;
    const others = t.totals.filter((_, i) => i !== side);
    text = `Game over: ${sideLabel(side, t.rules, t.players)} win${t.rules.teams ? "" : "s"} ${[t.totals[side], ...others].join(" to ")}`;
    if (state.you !== null && state.you !== undefined && side !== null) {
      const mySide = t.rules.teams ? state.you % 2 : state.you;
      text = `${mySide === side ? "You won" : "You lost"}. ${text}`;
    }
  } else {
    const who = t.to_move === state.you ? "Your turn" : `${nameOf(t, t.to_move)} to ${t.phase === "bid" ? "bid" : t.phase === "exchange" ? "pass" : "play"}`;
    const trick = t.phase === "play" ? ` · trick ${Math.min(sum(t.tricks_won) + 1, tricksPerHand(t))} of ${tricksPerHand(t)}` : "";
    text = `Hand ${t.hand}${trick} · ${who}`;
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
    playing && relPos(s) !== 0 ? h("span", {}, `${t.counts[s] ?? 0} card${(t.counts[s] ?? 0) === 1 ? "" : "s"}`) : null));
  if (seat.standin) box.appendChild(h("div", { class: "away" }, "away: a bot plays for now"));
  if (relPos(s) !== 0 && t.counts[s]) {
    const fan = h("div", { class: "fan", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(t.counts[s], 17); i++) fan.appendChild(h("span", { class: "mini" }));
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
  if (trick.cards.length === 0 && t.last_trick) {
    trick = t.last_trick;
    winner = t.last_trick.winner;
    caption = `Trick won by ${nameOf(t, winner)}`;
  }
  for (const [seat, card] of trickCardsBySeat(trick, n)) {
    const slot = h("div", { class: `played at-${relPos(seat)}${seat === winner ? " winner" : ""}`, title: `${nameOf(t, seat)}: ${cardName(card)}` });
    slot.appendChild(cardOf(t, card));
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
  renderLastView(t);
  if (t.status === "waiting") c.appendChild(h("div", { class: "caption" }, "The game starts when every seat is filled."));
  if (t.status === "over") c.appendChild(h("div", { class: "caption result" }, statusText(t)));
}

// "Last trick" (the button or L) shows the previous trick for a few seconds in its own small
// box over the board's corner: the trick in progress stays where it is.
function renderLastView(t) {
  const old = $("last-view");
  if (old) old.remove();
  if (!lastShown) return;
  const box = h("div", { class: "lastview", id: "last-view", role: "status" });
  if (!t.last_trick) box.appendChild(h("p", {}, "No trick finished yet in this hand."));
  else {
    const n = t.rules.players;
    box.appendChild(h("p", {}, `Last trick, won by ${nameOf(t, t.last_trick.winner)}`));
    const row = h("div", { class: "row small-cards" });
    for (const [seat, card] of trickCardsBySeat(t.last_trick, n)) {
      const one = h("span", { class: `lastcard${seat === t.last_trick.winner ? " winner" : ""}`, title: `${nameOf(t, seat)}: ${cardName(card)}` });
      one.appendChild(cardOf(t, card));
      row.appendChild(one);
    }
    box.appendChild(row);
  }
  $("board").appendChild(box);
}

function showLastTrick() {
  lastShown = true;
  clearTimeout(lastTimer);
  lastTimer = setTimeout(() => { lastShown = false; render(); }, 3000);
  render();
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
    box.appendChild(h("p", { class: "hint-line", id: "hint-text" }, `Hint (${hint.bot}): ${actionText(hint.action)}${hint.why ? " — " + whyText(hint.why, t) : ""}`));
  }
  if (can.look) {
    const row = h("div", { class: "row" });
    row.appendChild(h("button", { type: "button", id: "btn-look", onclick: () => send({ type: "look" }) }, "Look at my cards"));
    if (can.blind_nil) row.appendChild(h("button", { type: "button", class: "danger", id: "btn-blind", onclick: () => send({ type: "bid", bid: "blind_nil" }) }, `Bid Blind Nil (±${t.rules.blind_nil_bonus})`));
    box.appendChild(h("p", {}, "Your cards are face down. You may bid Blind Nil before looking."));
    box.appendChild(row);
  }
  if (t.rules.bidding === "mirror" && t.phase === "play" && sum(t.tricks_won) === 0) {
    box.appendChild(h("p", { class: "hint-line", id: "mirror-line" }, "Mirror bidding: each bid is the number of spades its player holds, made for him (no spades: Nil)."));
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
      ? `You received the ${cardList(got)}. Choose ${can.pass} card${can.pass === 1 ? "" : "s"} to pass back.`
      : `Your partner bid Blind Nil: choose ${can.pass} card${can.pass === 1 ? "" : "s"} to pass to him, face down.`));
    box.appendChild(h("button", { type: "button", id: "btn-pass", disabled: selected.size !== can.pass ? true : null, onclick: () => {
      send({ type: "pass", cards: [...selected] });
      passed = [...selected];
      selected = new Set();
    } }, `Pass ${selected.size}/${can.pass} cards`));
  }
  if (passed && !can.pass && t.phase !== "bid") {
    const got = state.obs && state.obs.exchange ? state.obs.exchange.received : [];
    const held = state.obs && state.obs.hand ? state.obs.hand.length : 0;
    if (held >= 13) box.appendChild(h("p", { class: "hint-line", id: "passed-line" }, `You passed the ${cardList(passed)}.${got.length ? ` You received the ${cardList(got)}.` : ""}`));
  }
  if (can.draw) {
    const top = state.obs.stock_top;
    box.appendChild(h("p", {}, `The stock shows the ${cardName(top)}.`));
    box.appendChild(h("div", { class: "row" },
      h("button", { type: "button", onclick: () => send({ type: "draw", keep: true }) }, "Keep it"),
      h("button", { type: "button", onclick: () => send({ type: "draw", keep: false }) }, "Take the next")));
  }
  if (can.cards && can.cards.length) box.appendChild(h("p", { class: "hint-line", id: "turn-line" }, touch ? "Your turn: tap a highlighted card." : "Your turn: click a highlighted card (or use ← → and Enter)."));
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
  // Cards received in the exchange are marked "new" until our first play of the hand.
  const received = new Set(obs.exchange && obs.hand.length >= 13 ? obs.exchange.received : []);
  const myTurnToPlay = legal.size > 0;
  const cards = sortHand(obs.hand, deckOf(t));
  box.classList.toggle("many", cards.length > 13);
  const buttons = [];
  cards.forEach((card) => {
    const playable = legal.has(card);
    const cls = ["card"];
    if (myTurnToPlay) cls.push(playable ? "legal" : "dim");
    if (passing) cls.push("legal");
    if (selected.has(card)) cls.push("selected");
    if (received.has(card)) cls.push("received");
    if (hint && (hint.action === `play ${card}` || hint.action === `pick ${card}`)) cls.push("hinted");
    const b = h("button", { type: "button", class: cls.join(" "), "data-card": card, "aria-label": isTrump(t, card) ? `${cardName(card)} (a spade)` : cardName(card), disabled: !(playable || passing) ? true : null, onclick: () => {
      if (passing) {
        if (selected.has(card)) selected.delete(card); else if (selected.size < can.pass) selected.add(card);
        render();
      } else if (playable) {
        send({ type: "play", card });
      }
    } });
    b.appendChild(cardOf(t, card));
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
  // Solo games: three or four columns of names, so a bot's "(random bot)" is left out and a
  // long name cut (the full one in the title), keeping the sheet within its panel.
  const heads = t.rules.teams ? labels : labels.map((l) => l.replace(/ \(.*\)$/, "")).map((l) => (l.length > 10 ? `${l.slice(0, 9)}…` : l));
  sheetBox.appendChild(h("h2", {}, "Score sheet"));
  const table = h("table", { class: "scores" });
  const head = h("tr", {}, h("th", { scope: "col", rowspan: 2 }, "#"), h("th", { scope: "col", rowspan: 2, title: "bids, and below them the tricks taken" }, "Bids", h("br"), "tricks"));
  // Three or four sides: the running bags sit under each total, two columns a side.
  const narrow = sides > 2;
  const per = narrow ? 2 : 3;
  labels.forEach((l, i) => head.appendChild(h("th", { scope: "colgroup", colspan: per, title: l }, heads[i])));
  const sub = h("tr", { class: "sub" });
  labels.forEach(() => {
    sub.appendChild(h("th", { scope: "col" }, "pts"));
    if (narrow) { sub.appendChild(h("th", { scope: "col", title: "the total, and below it the bags so far (a running count)" }, "total", h("br"), "bags Σ")); return; }
    sub.appendChild(h("th", { scope: "col", title: "bags so far (a running count)" }, "bags Σ"));
    sub.appendChild(h("th", { scope: "col" }, "total"));
  });
  table.appendChild(h("thead", {}, head, sub));
  const body = h("tbody");
  for (const r of t.sheet) {
    const tr = h("tr", {}, h("td", {}, r.hand), h("td", { class: "bt" }, h("span", {}, r.bids.map((b) => bidText(b).replace("Blind Nil", "BN")).join("/")), h("span", { class: "took" }, r.tricks.join("/"))));
    for (let s = 0; s < sides; s++) {
      const pen = (r.penalties || [])[s] || 0;
      const [pts, minus] = pointsText(r, s, t.rules).split(" − ");
      tr.appendChild(h("td", { class: `pts${r.points[s] < 0 ? " neg" : ""}`, title: pen ? "bag penalty taken" : null },
        pts, minus ? h("span", { class: "pen" }, ` − ${minus}`) : null));
      if (narrow) {
        tr.appendChild(h("td", { class: "total bt" }, h("span", {}, r.totals[s]), h("span", { class: "took", title: "bags so far" }, `${r.bags[s]}b`)));
        continue;
      }
      tr.appendChild(h("td", {}, r.bags[s]));
      tr.appendChild(h("td", { class: "total" }, r.totals[s]));
    }
    body.appendChild(tr);
  }
  if (!t.sheet.length) body.appendChild(h("tr", {}, h("td", { colspan: 2 + per * sides, class: "empty" }, "No hand finished yet.")));
  table.appendChild(body);
  sheetBox.appendChild(table);
  sheetBox.appendChild(totalsChart(t.sheet, sides, t.rules.target, heads));
  const house = houseRules(t);
  if (house.length) sheetBox.appendChild(h("p", { class: "note", id: "house-rules" }, `House rules: ${house.join("; ")}.`));
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
  if (!lastTrick) {
    // Not to be worked out from the updates (a two-hand game, or we came in late): the
    // finished hand's record has every card played.
    fetch(`/api/tables/${encodeURIComponent(tableId)}/record`).then((r) => (r.ok ? r.json() : null)).then((rec) => {
      const hand = rec && rec.hands ? rec.hands[line.hand - 1] : null;
      const n = t.rules.players;
      if (!hand || !hand.play || hand.play.length < tricksPerHand(t) * n || !card.isConnected || $("summary-trick")) return;
      const row = h("div", { class: "row small-cards", id: "summary-trick" });
      hand.play.slice(-n).forEach((c) => row.appendChild(cardOf(t, c)));
      card.insertBefore(row, card.children[1]);
      card.insertBefore(h("p", {}, "Last trick"), row);
    }).catch(() => {});
  }
  if (lastTrick) {
    const row = h("div", { class: "row small-cards", id: "summary-trick" });
    lastTrick.cards.forEach((c) => row.appendChild(cardOf(t, c)));
    card.appendChild(h("p", {}, lastTrick.winner === null ? "Last trick" : `Last trick won by ${nameOf(t, lastTrick.winner)}`));
    card.appendChild(row);
  }
  const tbl = h("table", { class: "scores" });
  tbl.appendChild(h("tr", {}, h("th", {}, "Seat"), h("th", {}, "Bid"), h("th", {}, "Tricks")));
  for (let s = 0; s < t.rules.players; s++) tbl.appendChild(h("tr", {}, h("td", {}, nameOf(t, s)), h("td", {}, bidText(line.bids[s])), h("td", {}, line.tricks[s])));
  card.appendChild(tbl);
  const res = h("table", { class: "scores" });
  res.appendChild(h("tr", {}, h("th", {}, "Side"), h("th", {}, "Points"), h("th", {}, "Bags so far"), h("th", {}, "Total")));
  for (let s = 0; s < sides; s++) res.appendChild(h("tr", {}, h("td", {}, sideLabel(s, t.rules, t.players)), h("td", { class: "nowrap" }, pointsText(line, s, t.rules)), h("td", {}, line.bags[s]), h("td", {}, line.totals[s])));
  card.appendChild(res);
  for (let s = 0; s < sides; s++) {
    const pen = (line.penalties || [])[s] || 0;
    if (pen) card.appendChild(h("p", { class: "penalty" }, `${sideLabel(s, t.rules, t.players)} reached ${t.rules.bag_limit} bags: −${pen * t.rules.bag_penalty} points.`));
  }
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
$("btn-last").addEventListener("click", showLastTrick);
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
  else if (e.key === "l" || e.key === "L") { showLastTrick(); }
  else if (e.key === "s" || e.key === "S") { showSheet = !showSheet; render(); }
  else if (e.key === "Escape") { $("modal").hidden = true; }
});

connect();
