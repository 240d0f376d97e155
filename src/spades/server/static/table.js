// The table page: one websocket, the server's view of our seat, drawn again on every update.
import { cardSVG, backSVG, sortHand, cardName, cardList, FULL_DECK, rankOf, suitOf, setFourColour } from "/static/cards.js";
import { h, clear, seatLabel, sideLabel, sideShort, bidText, sha256hex, seatStore, totalsChart, playerName, shortName, botLevel, prefs, t as tr, nt, pt, initWords, onLang, currentLang, localized } from "/static/common.js";

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
  if (held && held.token) notice = () => tr("This browser already holds a seat at this table: the invite link was not used.");
  else store.set({ invite: decodeURIComponent(location.hash.slice(8)) });
  history.replaceState(null, "", location.pathname);
} else if (location.hash.startsWith("#rematch=")) {
  // A rematch's one-click link: this browser's token at the old table opens its own seat
  // here (once; the server knows it by its hash). The link itself carries no secret.
  const from = seatStore(decodeURIComponent(location.hash.slice(9))).get();
  const held = store.get();
  if (!(held && held.token) && from && from.token) store.set({ prior: from.token });
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
let armed = null; // confirm-before-play: the card chosen, waiting for the second press

const $ = (id) => document.getElementById(id);
document.getElementById("lnk-record").href = `/api/tables/${tableId}/record?download=1`;
document.getElementById("lnk-replay").href = `/replay?table=${encodeURIComponent(tableId)}`;

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  $("conn").textContent = tr("connecting…");
  $("conn").className = "conn wait";
  ws.onopen = () => {
    retry = 0;
    welcomed = false;
    $("conn").textContent = tr("online");
    $("conn").className = "conn ok";
    watching = false;
    if (mine && mine.token) send({ type: "hello", token: mine.token });
    else if (mine && mine.invite) send({ type: "hello", invite: mine.invite });
    else if (mine && mine.prior) send({ type: "hello", prior: mine.prior });
    else { watching = true; send({ type: "hello" }); }
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") {
      welcomed = true;
      onState(msg);
      if (notice) { toast(notice()); notice = null; }
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
      toast(serverText(msg));
    }
    else if (msg.type === "hint") { hint = msg; render(); }
    else if (msg.type === "chat") { onChat(msg); }
    else if (msg.type === "chat_log") { onChatLog(msg.lines); }
    else if (msg.type === "rematch") { onRematch(msg); }
  };
  ws.onclose = (ev) => {
    if (gone || ev.code === 4404) { noSuchTable(); return; }
    $("conn").textContent = tr("reconnecting…");
    $("conn").className = "conn bad";
    const wait = Math.min(5000, 300 * 2 ** retry++);
    setTimeout(connect, wait);
  };
}

// An unknown table link: say so once, in place of the board, and never reconnect.
function noSuchTable() {
  if (gone) return;
  gone = true;
  $("conn").textContent = tr("no such table");
  $("conn").className = "conn bad";
  $("status").textContent = tr("No such table");
  const c = clear($("centre"));
  c.appendChild(h("div", { class: "caption result", id: "no-table" }, tr("No such table: the link is wrong or the table was removed.")));
  clear($("controls")).appendChild(h("p", {}, h("a", { href: "/" }, tr("Back to the lobby"))));
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
  if (!prev || prev.table.to_move !== msg.table.to_move) armed = null;
  // Sounds (an option) and the words for a screen reader: a card played, your turn.
  const played = prev && msg.table.plays.length > prev.table.plays.length && msg.table.hand === prev.table.hand
    ? msg.table.plays[msg.table.plays.length - 1] : null;
  if (played) {
    const seat = lastPlayer(prev.table, msg.table);
    sound.beep(520, 70);
    if (seat !== null) $("announce").textContent = tr("{name} played the {card}.", { name: nameOf(msg.table, seat), card: cardName(played) });
    fresh = played;
  }
  if (prev && msg.table.to_move === msg.you && prev.table.to_move !== msg.you && msg.table.status === "playing") sound.beep(880, 160);
  render();
}

// The hand's last (13th, or 17th with three players) trick. The server deals the next hand in
// the same update as the last card, so that trick is no longer in the table: it is the trick
// in progress of the update before, plus the one card still missing (the one card of the deck
// not yet played), won by the seat whose trick count went up. At game over nothing is dealt
// and the table still holds it.
let fresh = null; // the card just played: drawn with a short move (not under reduced motion)
// Who played the card that just arrived: the seat after the last one in the trick before.
function lastPlayer(p, t) {
  const n = t.rules.players;
  if (t.trick.cards.length) return (t.trick.leader + t.trick.cards.length - 1) % n;
  if (p.trick.cards.length) return (p.trick.leader + p.trick.cards.length) % n;
  return p.to_move ?? null;
}
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
// A bot's action in words, built from its parts: "play QD" reads "play the queen of diamonds".
function actionText(action) {
  const [verb, ...rest] = String(action).split(" ");
  const arg = rest.join(" ");
  if (verb === "play") return tr("play the {card}", { card: cardName(arg) });
  if (verb === "pick") return tr("keep the {card}", { card: cardName(arg) });
  if (verb === "bid") return arg === "nil" ? tr("bid Nil") : arg === "blind_nil" ? tr("bid Blind Nil") : tr("bid {bid}", { bid: arg });
  if (verb === "look") return tr("look at your cards");
  if (verb === "pass") return tr("pass the {cards}", { cards: cardList(arg.split(/[ ,]+/).filter(Boolean)) });
  if (verb === "draw") return tr("take the next card");
  return String(action);
}
// A bot's reason: in English as the bot words it, its card codes in words and a partner's
// Blind Nil named so; in another language through its id and values (why_msgid, why_fields)
// when the bot gives them, else left out (the action alone is shown).
function cardWords(text) {
  return String(text).replace(/\b([2-9TJQKA][SHDC]|BJ|LJ)\b/g, (_, c) => cardName(c));
}
function whyText(msg, t) {
  if (currentLang() !== "en") return typeof msg.why_msgid === "string" ? cardWords(localized({ msgid: msg.why_msgid, fields: msg.why_fields })) : "";
  if (!msg.why) return "";
  const partner = t.rules.teams && state.you !== null ? (state.you + 2) % 4 : null;
  let text = String(msg.why).replace(/\b([2-9TJQKA][SHDC]|BJ|LJ)\b/g, (_, c) => `the ${cardName(c)}`).replace(/\bblind_nil\b/g, "Blind Nil").replace(/\bbid nil\b/g, "bid Nil"); // i18n-ok: English only
  if (partner !== null && t.bids[partner] === "blind_nil") text = text.replace(/partner bid nil/gi, "partner bid Blind Nil"); // i18n-ok: English only
  return text;
}
// A refusal from the server, in the page's language. The server words its errors in English
// (shown as they are in English); the ones a player meets are known here by code or by
// their English form and said in the language of the page.
const SERVER_WORDS = [
  [/^hints are turned off/, () => tr("Hints are turned off at this table.")],
  [/^a hint is given only on your turn/, () => tr("A hint is given only on your turn.")],
  [/^a hint is already being worked out/, () => tr("A hint is already being worked out.")],
  [/^no hint this time/, () => tr("No hint this time.")],
  [/^the table moved on before the hint/, () => tr("The table moved on before the hint was ready.")],
  [/was taken from the lobby by/, () => tr("This seat was taken from the lobby: this invite link no longer works.")],
  [/^the invite link for .* was already used/, () => tr("This invite link was already used: it opens the seat only once.")],
  [/^that invite is not valid/, () => tr("That invite is not valid at this table.")],
  [/^too many messages/, () => tr("Too many messages: slow down.")],
  [/^the game is over/, () => tr("The game is over.")],
  [/^spectators cannot act/, () => tr("Spectators cannot act: open your seat's invite link to play.")],
  [/^chat is turned off/, () => tr("Chat is turned off at this table.")],
  [/^chat: too many/, () => tr("Too many chat messages: wait a little.")],
  [/^only a player of this table can start its rematch/, () => tr("Only a player of this table can start its rematch.")],
  [/^a rematch starts once the game is over/, () => tr("A rematch starts once the game is over.")],
  [/^that rematch link opens no seat/, () => tr("That rematch link opens no seat at this table.")],
  [/not your turn|to move, not/, () => tr("It is not your turn.")],
];
function serverText(msg) {
  // An engine refusal comes with its id and values (spades.errors.reply_fields): any language.
  if (typeof msg.msgid === "string") return cardWords(localized({ msgid: msg.msgid, fields: msg.fields }));
  const text = String(msg.message || "");
  if (currentLang() === "en") return text;
  for (const [re, say] of SERVER_WORDS) if (re.test(text)) return say();
  return tr("The server refused: {why}", { why: text });
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
const BIDDING_WORDS = { suicide: () => tr("suicide bidding"), whiz: () => tr("whiz bidding"), mirror: () => tr("mirror bidding") };
const HOUSE_WORDS = {
  bidding: (v) => (v in BIDDING_WORDS ? BIDDING_WORDS[v]() : null),
  jokers: (v) => (v === "big_little" ? tr("Big & Little Joker") : v === "jjdd" ? tr("Joker Joker Deuce Deuce") : null),
  players: (v) => (v === 3 ? tr("3 players, each for himself") : null),
  big_bid: (v) => (v === null ? null : tr("a bid of {n}+ scores 20 a trick", { n: v })),
  team_min_bid: (v) => (v ? tr("partners bid at least {n}", { n: v }) : null),
  nil_tricks: (v) => (v === "partner" ? tr("a failed Nil's tricks count for the partner") : null),
  spades_lead: (v) => (v === "any" ? tr("spades may be led any time") : null),
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
  renderChat();
  if (state.you !== null && t.to_move === state.you) focusTurn();
  // The Hint button keeps its place (it is only disabled off turn), so the others never move.
  $("btn-hint").hidden = !(t.hints && state.you !== null);
  $("btn-hint").disabled = !(t.to_move === state.you && t.status === "playing");
  $("btn-sheet").classList.toggle("on", showSheet);
}

function nameOf(t, s) { return playerName(t.players[s]) || tr("{seat} (open)", { seat: seatLabel(s, t.rules.players) }); }

function renderStatus(t) {
  $("status").textContent = statusText(t);
  // The game score, always on screen (on a phone the score sheet sits below the hand).
  const sides = t.rules.teams ? 2 : t.rules.players;
  // Solo games: the player's name without "(random bot)", cut short, so three fit on a phone.
  const cut = (text) => (text.length > 10 ? `${text.slice(0, 9)}…` : text);
  const short = (s) => (t.rules.teams ? sideShort(s) : cut(sideLabel(s, t.rules, t.players).replace(/ \(.*\)$/, "")));
  const box = clear($("score"));
  if (t.status === "waiting") return;
  for (let s = 0; s < sides; s++) {
    // During play: the side's tricks against its contract ("5/7") and its bags counted live
    // (the bags so far plus this hand's overtricks).
    const p = progress(t, s);
    const bags = t.bags[s] + (p ? Math.max(0, p.won - p.contract) : 0);
    const title = p ? tr("{side}: {points} points; {won} of {contract} tricks; {bags} bags", { side: sideLabel(s, t.rules, t.players), points: t.totals[s], won: p.won, contract: p.contract, bags })
      : tr("{side}: {points} points, {bags} bags", { side: sideLabel(s, t.rules, t.players), points: t.totals[s], bags });
    box.appendChild(h("span", { class: "side-score", title, "data-side": s },
      `${short(s)} ${t.totals[s]}`,
      p ? h("small", { class: "contract" }, ` ${p.won}/${p.contract}`) : null,
      h("small", { class: "bags" }, " " + pt("short", "{n}b", { n: bags }))));
  }
}

// A side's tricks and contract in the hand being played (null before every bid is in).
function progress(t, side) {
  if (t.phase !== "play" || t.status !== "playing" || t.bids.some((b) => b === null || b === undefined)) return null;
  const n = t.rules.players;
  const seats = t.rules.teams ? [side, side + 2] : [side];
  const contract = seats.reduce((a, s) => a + (typeof t.bids[s] === "number" ? t.bids[s] : 0), 0);
  const won = seats.reduce((a, s) => a + (s < n ? t.tricks_won[s] ?? 0 : 0), 0);
  return { won, contract };
}

function statusText(t) {
  let text;
  if (t.status === "waiting") text = tr("Waiting for players…");
  else if (t.status === "over") {
    const side = t.winner;
    const others = t.totals.filter((_, i) => i !== side);
    const score = [t.totals[side], ...others].join(" – ");
    text = t.rules.teams ? tr("Game over: {side} win {score}", { side: sideLabel(side, t.rules, t.players), score })
      : tr("Game over: {name} wins {score}", { name: sideLabel(side, t.rules, t.players), score });
    if (state.you !== null && state.you !== undefined && side !== null) {
      const mySide = t.rules.teams ? state.you % 2 : state.you;
      text = (mySide === side ? tr("You won.") : tr("You lost.")) + " " + text;
    }
  } else {
    const name = nameOf(t, t.to_move);
    const who = t.to_move === state.you ? tr("Your turn")
      : t.phase === "bid" ? tr("{name} to bid", { name }) : t.phase === "exchange" ? tr("{name} to pass", { name }) : tr("{name} to play", { name });
    const trick = t.phase === "play" ? " · " + tr("trick {n} of {total}", { n: Math.min(sum(t.tricks_won) + 1, tricksPerHand(t)), total: tricksPerHand(t) }) : "";
    text = tr("Hand {n}", { n: t.hand }) + trick + " · " + who;
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
    h("span", { class: `dot ${seat.connected ? "on" : "off"}`, title: seat.connected ? tr("here") : tr("away"), role: "img", "aria-label": seat.connected ? tr("here") : tr("away") }),
    botLevel(t.players[s])
      ? h("span", { class: "name", title: nameOf(t, s) }, shortName(t.players[s]), h("span", { class: "lvl" }, " " + botLevel(t.players[s])))
      : h("span", { class: "name" }, nameOf(t, s)),
    t.dealer === s ? h("span", { class: "chip", title: tr("dealer") }, pt("short", "D")) : null,
    s === state.you ? h("span", { class: "chip you" }, tr("you")) : null));
  const playing = t.status !== "waiting";
  box.appendChild(h("div", { class: "meta" },
    h("span", { class: "pos" }, seatLabel(s, t.rules.players)),
    playing ? h("span", {}, pt("seat", "bid {bid}", { bid: bidText(bid) })) : null,
    playing ? h("span", {}, tr("won {n}", { n: t.tricks_won[s] ?? 0 })) : null,
    playing && relPos(s) !== 0 ? h("span", { class: "count" }, nt("{n} card", "{n} cards", t.counts[s] ?? 0)) : null));
  if (seat.standin) box.appendChild(h("div", { class: "away" }, tr("away: a bot plays for now")));
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
    caption = tr("Trick won by {name}", { name: nameOf(t, winner) });
  }
  for (const [seat, card] of trickCardsBySeat(trick, n)) {
    const slot = h("div", { class: `played at-${relPos(seat)}${seat === winner ? " winner" : ""}${card === fresh ? " fresh" : ""}`, title: `${nameOf(t, seat)}: ${cardName(card)}` });
    slot.appendChild(cardOf(t, card));
    slot.appendChild(h("span", { class: "by" }, shortName(t.players[seat]) || nameOf(t, seat)));
    c.appendChild(slot);
  }
  if (t.phase === "draw" && state.obs) {
    const stock = h("div", { class: "played at-stock", title: tr("the stock") });
    stock.appendChild(state.obs.stock_top ? cardSVG(state.obs.stock_top) : backSVG());
    stock.appendChild(h("span", { class: "by" }, nt("stock: {n} card left", "stock: {n} cards left", state.obs.stock_left)));
    c.appendChild(stock);
  }
  if (caption && t.status !== "over") c.appendChild(h("div", { class: "caption" }, caption));
  renderLastView(t);
  if (t.status === "waiting") c.appendChild(h("div", { class: "caption" }, tr("The game starts when every seat is filled.")));
  if (t.status === "over") c.appendChild(h("div", { class: "caption result" }, statusText(t)));
}

// "Last trick" (the button or L) shows the previous trick for a few seconds in its own small
// box over the board's corner: the trick in progress stays where it is.
function renderLastView(t) {
  const old = $("last-view");
  if (old) old.remove();
  if (!lastShown) return;
  const box = h("div", { class: "lastview", id: "last-view", role: "status" });
  if (!t.last_trick) box.appendChild(h("p", {}, tr("No trick finished yet in this hand.")));
  else {
    const n = t.rules.players;
    box.appendChild(h("p", {}, tr("Last trick, won by {name}", { name: nameOf(t, t.last_trick.winner) })));
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
  box.appendChild(h("p", {}, tr("Send these invite links to the people you are waiting for:")));
  for (const l of links) {
    const link = typeof l === "string" ? l : l.link;
    box.appendChild(h("input", { class: "invite mono", readonly: true, value: link, onclick: (e) => e.target.select() }));
  }
}

function renderControls(t) {
  // The box is rebuilt on every state: what someone is typing into the name field (and its
  // focus) must survive that, or a state arriving mid-typing would blank the name.
  const typing = $("join-name");
  const typed = typing ? { value: typing.value, focused: document.activeElement === typing } : null;
  const box = clear($("controls"));
  renderInvites(box, t);
  renderRematch(box, t);
  const you = state.you;
  if (you === null) {
    box.appendChild(h("p", { class: "hint-line" }, tr("You are watching. Open a seat's invite link to play.")));
    return;
  }
  if (t.players[you] === null) {
    const input = h("input", { id: "join-name", maxlength: 24, placeholder: tr("Your name"), value: localStorage.getItem("spades.name") || "", autocomplete: "nickname" });
    const form = h("form", { class: "join", onsubmit: (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      localStorage.setItem("spades.name", name);
      send({ type: "join", name });
    } }, h("label", { for: "join-name" }, tr("Take the {seat} seat as", { seat: seatLabel(you, t.rules.players) }) + " "), input, h("button", { type: "submit", id: "btn-join" }, tr("Sit down")));
    box.appendChild(form);
    if (typed) {
      input.value = typed.value;
      if (typed.focused) input.focus();
    }
    return;
  }
  const can = state.can || {};
  if (hint) {
    const action = actionText(hint.action);
    let why = whyText(hint, t);
    // A reason that starts with the action ("play the 10 of hearts: the only card allowed")
    // is shown without saying the card twice.
    if (why.toLowerCase().startsWith(action.toLowerCase())) why = why.slice(action.length).replace(/^[\s:;,—-]+/, "");
    box.appendChild(h("p", { class: "hint-line", id: "hint-text" }, tr("Hint ({bot}): {action}", { bot: hint.bot, action }) + (why ? ` — ${why}` : "")));
  }
  if (can.look) {
    const row = h("div", { class: "row" });
    row.appendChild(h("button", { type: "button", id: "btn-look", onclick: () => send({ type: "look" }) }, tr("Look at my cards")));
    if (can.blind_nil) row.appendChild(h("button", { type: "button", class: "danger", id: "btn-blind", onclick: () => send({ type: "bid", bid: "blind_nil" }) }, tr("Bid Blind Nil (±{bonus})", { bonus: t.rules.blind_nil_bonus })));
    box.appendChild(h("p", {}, tr("Your cards are face down. You may bid Blind Nil before looking.")));
    box.appendChild(row);
  }
  if (t.rules.bidding === "mirror" && t.phase === "play" && sum(t.tricks_won) === 0) {
    box.appendChild(h("p", { class: "hint-line", id: "mirror-line" }, tr("Mirror bidding: each bid is the number of spades its player holds, made for him (no spades: Nil).")));
  }
  if (can.bids && can.bids.length) {
    const row = h("div", { class: "row bids", role: "group", "aria-label": tr("your bid") });
    for (const b of can.bids) {
      const hinted = hint && (hint.action === `bid ${b}` || (b === 0 && hint.action === "bid nil")); // i18n-ok: the protocol's action
      row.appendChild(h("button", { type: "button", class: hinted ? "bid hinted" : "bid", "data-bid": b, onclick: () => send({ type: "bid", bid: b === 0 ? "nil" : b }) }, b === 0 ? tr("Nil") : String(b))); // i18n-ok: classes
    }
    box.appendChild(h("p", {}, tr("Your bid:")));
    box.appendChild(row);
  }
  if (can.pass) {
    const got = state.obs && state.obs.exchange ? state.obs.exchange.received : [];
    box.appendChild(h("p", {}, got.length
      ? tr("You received the {cards}.", { cards: cardList(got) }) + " " + nt("Choose {n} card to pass back.", "Choose {n} cards to pass back.", can.pass)
      : nt("Your partner bid Blind Nil: choose {n} card to pass to him, face down.", "Your partner bid Blind Nil: choose {n} cards to pass to him, face down.", can.pass)));
    box.appendChild(h("button", { type: "button", id: "btn-pass", disabled: selected.size !== can.pass ? true : null, onclick: () => {
      send({ type: "pass", cards: [...selected] });
      passed = [...selected];
      selected = new Set();
    } }, tr("Pass {chosen}/{n} cards", { chosen: selected.size, n: can.pass })));
  }
  if (passed && !can.pass && t.phase !== "bid") {
    const got = state.obs && state.obs.exchange ? state.obs.exchange.received : [];
    const held = state.obs && state.obs.hand ? state.obs.hand.length : 0;
    if (held >= 13) box.appendChild(h("p", { class: "hint-line", id: "passed-line" }, tr("You passed the {cards}.", { cards: cardList(passed) }) + (got.length ? " " + tr("You received the {cards}.", { cards: cardList(got) }) : "")));
  }
  if (can.draw) {
    const top = state.obs.stock_top;
    box.appendChild(h("p", {}, tr("The stock shows the {card}.", { card: cardName(top) })));
    box.appendChild(h("div", { class: "row" },
      h("button", { type: "button", onclick: () => send({ type: "draw", keep: true }) }, tr("Keep it")),
      h("button", { type: "button", onclick: () => send({ type: "draw", keep: false }) }, tr("Take the next"))));
  }
  if (armed && can.cards && can.cards.includes(armed)) {
    box.appendChild(h("div", { class: "row", id: "confirm-row" },
      h("button", { type: "button", class: "primary", id: "btn-confirm", onclick: () => { const c = armed; armed = null; send({ type: "play", card: c }); } }, tr("Play the {card}", { card: cardName(armed) })),
      h("button", { type: "button", id: "btn-unarm", onclick: () => { armed = null; render(); } }, tr("Cancel"))));
  }
  if (t.status === "over" && you !== null) {
    box.appendChild(h("div", { class: "row", id: "over-row" },
      rematchNews ? null : h("button", { type: "button", class: "primary", id: "btn-rematch", onclick: rematch }, tr("Rematch")),
      h("button", { type: "button", id: "btn-leave-over", onclick: leave }, tr("Leave the table"))));
  }
  if (can.cards && can.cards.length) box.appendChild(h("p", { class: "hint-line", id: "turn-line" }, touch ? tr("Your turn: tap a highlighted card.") : tr("Your turn: click a highlighted card (or use ← → and Enter).")));
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
  // A phone lays the hand in balanced rows (CSS), each card showing a 44 px strip: as few rows
  // as fit the width (13 cards: 7 and 6; 17 cards on 360-390 px: 6, 6 and 5).
  const fit = Math.max(1, Math.floor(((box.clientWidth || window.innerWidth) - 24) / 44));
  const rows = Math.max(1, Math.ceil(cards.length / fit));
  box.style.setProperty("--per-row", String(Math.max(1, Math.ceil(cards.length / rows))));
  const buttons = [];
  cards.forEach((card) => {
    const playable = legal.has(card);
    const cls = ["card"];
    if (myTurnToPlay) cls.push(playable ? "legal" : "dim");
    if (passing) cls.push("legal");
    if (selected.has(card) || (playable && armed === card)) cls.push("selected");
    if (received.has(card)) cls.push("received");
    if (hint && (hint.action === `play ${card}` || hint.action === `pick ${card}`)) cls.push("hinted");
    const b = h("button", { type: "button", class: cls.join(" "), "data-card": card, "aria-pressed": passing ? String(selected.has(card)) : null, "aria-label": isTrump(t, card) ? tr("{card} (a spade)", { card: cardName(card) }) : cardName(card), disabled: !(playable || passing) ? true : null, onclick: () => {
      if (passing) {
        if (selected.has(card)) selected.delete(card); else if (selected.size < can.pass) selected.add(card);
        render();
      } else if (playable) {
        if (prefs.get("confirm") && armed !== card) { armed = card; render(); return; }
        armed = null;
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

// Whether the keyboard is in use (a key pressed since the last pointer press; so at first).
let keyboardUser = true;
document.addEventListener("pointerdown", () => { keyboardUser = false; }, true);
document.addEventListener("keydown", () => { keyboardUser = true; }, true);
// When our turn comes and the focus is nowhere (the page's own redraw dropped it), it goes to
// the first thing to do: a playable card, a bid, "Look", so the keyboard alone plays a hand.
function focusTurn() {
  if (!keyboardUser) return; // a pointer's user: no card jumps up under the pointer
  const a = document.activeElement;
  if (a && a !== document.body && a.isConnected) return;
  if (!$("modal").hidden) return;
  const first = document.querySelector("#hand button.card.legal:not([disabled]), #controls button.bid, #btn-look, #btn-pass, #btn-confirm");
  if (first) first.focus();
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
  sheetBox.appendChild(h("h2", {}, tr("Score sheet")));
  const table = h("table", { class: "scores" });
  const head = h("tr", {}, h("th", { scope: "col", rowspan: 2, title: tr("hand") }, "#"), h("th", { scope: "col", rowspan: 2, title: tr("bids, and below them the tricks taken") }, tr("Bids"), h("br"), tr("tricks")));
  // Three or four sides: the running bags sit under each total, two columns a side.
  const narrow = sides > 2;
  const per = narrow ? 2 : 3;
  labels.forEach((l, i) => head.appendChild(h("th", { scope: "colgroup", colspan: per, title: l }, heads[i])));
  const sub = h("tr", { class: "sub" });
  labels.forEach(() => {
    sub.appendChild(h("th", { scope: "col", title: tr("points of the hand") }, tr("pts")));
    if (narrow) { sub.appendChild(h("th", { scope: "col", title: tr("the total, and below it the bags so far (a running count)") }, tr("total"), h("br"), tr("bags Σ"))); return; }
    sub.appendChild(h("th", { scope: "col", title: tr("bags so far (a running count)") }, tr("bags Σ")));
    sub.appendChild(h("th", { scope: "col" }, tr("total")));
  });
  table.appendChild(h("thead", {}, head, sub));
  const body = h("tbody");
  for (const r of t.sheet) {
    const line = h("tr", {}, h("td", {}, r.hand), h("td", { class: "bt" }, h("span", {}, r.bids.map((b) => (b === "blind_nil" ? pt("short", "BN") : bidText(b))).join("/")), h("span", { class: "took" }, r.tricks.join("/"))));
    for (let s = 0; s < sides; s++) {
      const pen = (r.penalties || [])[s] || 0;
      const [pts, minus] = pointsText(r, s, t.rules).split(" − ");
      line.appendChild(h("td", { class: `pts${r.points[s] < 0 ? " neg" : ""}`, title: pen ? tr("bag penalty taken") : null },
        pts, minus ? h("span", { class: "pen" }, ` − ${minus}`) : null));
      if (narrow) {
        line.appendChild(h("td", { class: "total bt" }, h("span", {}, r.totals[s]), h("span", { class: "took", title: tr("bags so far") }, pt("short", "{n}b", { n: r.bags[s] }))));
        continue;
      }
      line.appendChild(h("td", {}, r.bags[s]));
      line.appendChild(h("td", { class: "total" }, r.totals[s]));
    }
    body.appendChild(line);
  }
  if (!t.sheet.length) body.appendChild(h("tr", {}, h("td", { colspan: 2 + per * sides, class: "empty" }, tr("No hand finished yet."))));
  table.appendChild(body);
  sheetBox.appendChild(table);
  sheetBox.appendChild(totalsChart(t.sheet, sides, t.rules.target, heads));
  const house = houseRules(t);
  if (house.length) sheetBox.appendChild(h("p", { class: "note", id: "house-rules" }, tr("House rules: {rules}.", { rules: house.join("; ") })));
  const proof = clear($("proof"));
  proof.appendChild(h("h2", {}, tr("Fair shuffle")));
  const cur = t.proofs[t.proofs.length - 1];
  if (cur) {
    proof.appendChild(h("p", {}, tr("Each deck comes from the server's secure random source. Its fingerprint was published at the deal; the deck is revealed after the hand.")));
    proof.appendChild(h("p", { class: "mono", title: "sha256(deck + salt)" }, tr("Hand {n}:", { n: cur.hand }) + ` ${cur.commit.slice(0, 24)}…`));
    const lastDone = [...t.proofs].reverse().find((p) => p.deck);
    if (lastDone) {
      const line = h("p", { class: "mono", id: "proof-check" }, tr("Hand {n}: checking…", { n: lastDone.hand }));
      proof.appendChild(line);
      sha256hex(lastDone.deck + lastDone.salt).then((hex) => {
        line.textContent = hex === null ? tr("Hand {n}: revealed (check with spades verify)", { n: lastDone.hand })
          : hex === lastDone.commit ? tr("Hand {n}: ✓ revealed deck matches its commitment", { n: lastDone.hand })
          : tr("Hand {n}: ✗ revealed deck does NOT match!", { n: lastDone.hand });
      });
    }
  }
  $("bots-note").textContent = [tr("Bots see only their own seat's observation: their cards and what was played, never the deal."), t.hints ? tr("Hints: {bot} bot.", { bot: t.hint_bot }) : tr("Hints: off at this table."), tr("Bot delay {ms} ms.", { ms: t.bot_delay_ms })].join(" ");
}

function showSummary(line, lastTrick) {
  const t = state.table;
  const sides = t.rules.teams ? 2 : t.rules.players;
  const m = clear($("modal"));
  const card = h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": tr("end of hand") });
  card.appendChild(h("h2", {}, tr("Hand {n} is over", { n: line.hand })));
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
      card.insertBefore(h("p", {}, tr("Last trick")), row);
    }).catch(() => {});
  }
  if (lastTrick) {
    const row = h("div", { class: "row small-cards", id: "summary-trick" });
    lastTrick.cards.forEach((c) => row.appendChild(cardOf(t, c)));
    card.appendChild(h("p", {}, lastTrick.winner === null ? tr("Last trick") : tr("Last trick won by {name}", { name: nameOf(t, lastTrick.winner) })));
    card.appendChild(row);
  }
  const tbl = h("table", { class: "scores" });
  tbl.appendChild(h("tr", {}, h("th", { scope: "col" }, tr("Seat")), h("th", { scope: "col" }, pt("summary", "Bid")), h("th", { scope: "col" }, tr("Tricks"))));
  for (let s = 0; s < t.rules.players; s++) tbl.appendChild(h("tr", {}, h("td", {}, nameOf(t, s)), h("td", {}, bidText(line.bids[s])), h("td", {}, line.tricks[s])));
  card.appendChild(tbl);
  const res = h("table", { class: "scores" });
  res.appendChild(h("tr", {}, h("th", { scope: "col" }, tr("Side")), h("th", { scope: "col" }, tr("Points")), h("th", { scope: "col" }, tr("Bags so far")), h("th", { scope: "col" }, tr("Total"))));
  for (let s = 0; s < sides; s++) res.appendChild(h("tr", {}, h("td", {}, sideLabel(s, t.rules, t.players)), h("td", { class: "nowrap" }, pointsText(line, s, t.rules)), h("td", {}, line.bags[s]), h("td", {}, line.totals[s])));
  card.appendChild(res);
  for (let s = 0; s < sides; s++) {
    const pen = (line.penalties || [])[s] || 0;
    if (pen) card.appendChild(h("p", { class: "penalty" }, tr("{side} reached {limit} bags: −{points} points.", { side: sideLabel(s, t.rules, t.players), limit: t.rules.bag_limit, points: pen * t.rules.bag_penalty })));
  }
  if (t.status === "over") {
    card.appendChild(h("p", { class: "result" }, statusText(t)));
    card.appendChild(h("p", {}, h("a", { href: `/replay?table=${encodeURIComponent(tableId)}` }, tr("Replay this game")), " · ",
      h("a", { href: `/api/tables/${encodeURIComponent(tableId)}/record?download=1` }, tr("download its record")), " · ",
      h("a", { href: "/" }, tr("new table"))));
  }
  card.appendChild(h("div", { class: "row" },
    h("button", { type: "button", id: "btn-continue", class: "primary", onclick: () => { m.hidden = true; if (state.you !== null && state.table.to_move === state.you) focusTurn(); } }, tr("Continue")),
    h("button", { type: "button", id: "btn-review", onclick: () => reviewFinished(line.hand) }, tr("Review the tricks"))));
  m.appendChild(card);
  m.hidden = false;
  $("btn-continue").focus();
}

// ---------------------------------------------------------------- every trick of the hand
// The tricks of a hand from its plays in order: each trick's leader is the previous one's
// winner (the first is the seat after the dealer), the winner the highest trump or else the
// highest card of the suit led, by the server's deck order (jokers and the jjdd 2D are spades).
function beats(a, b, led) {
  const trumpA = isTrump(state.table, a) || suitOf(a) === "S";
  const trumpB = isTrump(state.table, b) || suitOf(b) === "S";
  if (trumpA !== trumpB) return trumpA;
  if (!trumpA && suitOf(a) !== suitOf(b)) return suitOf(a) === led;
  if (deck) return deck.order.indexOf(a) < deck.order.indexOf(b);
  return rankOf(a) > rankOf(b);
}
function handTricks(plays, dealer, n) {
  const out = [];
  let leader = (dealer + 1) % n;
  for (let i = 0; i < plays.length; i += n) {
    const cards = plays.slice(i, i + n);
    let best = 0;
    const led = isTrump(state.table, cards[0]) ? "S" : suitOf(cards[0]);
    for (let k = 1; k < cards.length; k++) if (beats(cards[k], cards[best], led)) best = k;
    const winner = cards.length === n ? (leader + best) % n : null;
    out.push({ leader, cards, winner });
    if (winner !== null) leader = winner;
  }
  return out;
}
function showTricks(plays, dealer, title) {
  const t = state.table;
  const n = t.rules.players;
  const m = clear($("modal"));
  const card = h("div", { class: "dialog tricks-review", role: "dialog", "aria-modal": "true", "aria-labelledby": "review-title" });
  card.appendChild(h("h2", { id: "review-title" }, title));
  const tricks = n === 2 ? [] : handTricks(plays, dealer, n);
  if (!tricks.length) card.appendChild(h("p", {}, tr("No trick finished yet in this hand.")));
  const list = h("ol", { class: "review", id: "review" });
  tricks.forEach((tk) => {
    const row = h("div", { class: "row small-cards" });
    tk.cards.forEach((c, k) => {
      const seat = (tk.leader + k) % n;
      row.appendChild(h("span", { class: `lastcard${seat === tk.winner ? " winner" : ""}`, title: `${nameOf(t, seat)}: ${cardName(c)}` }, cardOf(t, c)));
    });
    const who = tk.winner === null ? tr("in progress") : tr("won by {name}", { name: nameOf(t, tk.winner) });
    list.appendChild(h("li", {}, h("span", { class: "review-who" }, who), row));
  });
  card.appendChild(list);
  card.appendChild(h("button", { type: "button", id: "btn-close", onclick: closeModal }, tr("Close")));
  m.appendChild(card);
  m.hidden = false;
  $("btn-close").focus();
}
function reviewHand() {
  const t = state.table;
  if (!t.plays || t.dealer === null) return;
  showTricks(t.plays, t.dealer, tr("Every trick of hand {n}", { n: t.hand }));
}
// The finished hand's tricks, from its record (the table has dealt the next one already).
function reviewFinished(number) {
  fetch(`/api/tables/${encodeURIComponent(tableId)}/record`).then((r) => (r.ok ? r.json() : null)).then((rec) => {
    const hand = rec && rec.hands ? rec.hands[number - 1] : null;
    if (hand && hand.play) showTricks(hand.play, hand.dealer ?? (state.table.sheet[number - 1] || {}).dealer ?? 0, tr("Every trick of hand {n}", { n: number }));
  }).catch(() => {});
}
function closeModal() {
  $("modal").hidden = true;
  const back = $("btn-tricks");
  if (back && document.activeElement === document.body) back.focus();
}

// ---------------------------------------------------------------- options, sounds, motion
const sound = {
  ctx: null,
  // A short tone made on the spot (WebAudio): nothing is downloaded.
  beep(freq, ms) {
    if (!prefs.get("sound")) return;
    try {
      this.ctx = this.ctx || new (window.AudioContext || window.webkitAudioContext)();
      const o = this.ctx.createOscillator();
      const g = this.ctx.createGain();
      o.frequency.value = freq;
      g.gain.setValueAtTime(0.08, this.ctx.currentTime);
      g.gain.exponentialRampToValueAtTime(0.0001, this.ctx.currentTime + ms / 1000);
      o.connect(g).connect(this.ctx.destination);
      o.start();
      o.stop(this.ctx.currentTime + ms / 1000);
    } catch { /* no audio here: stay silent */ }
  },
};
function applyPrefs() {
  document.body.classList.toggle("large-cards", prefs.get("large"));
  document.body.classList.toggle("four-colour", prefs.get("fourColour"));
  setFourColour(prefs.get("fourColour"));
}
const PREF_WORDS = {
  confirm: () => tr("Confirm each card before it is played"),
  sound: () => tr("Sounds (your turn, cards played)"),
  fourColour: () => tr("Four-colour deck"),
  large: () => tr("Large cards"),
};
function showOptions() {
  const m = clear($("modal"));
  const card = h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "options-title" });
  card.appendChild(h("h2", { id: "options-title" }, tr("Options")));
  for (const [k, words] of Object.entries(PREF_WORDS)) {
    const box = h("input", { type: "checkbox", id: `pref-${k}`, checked: prefs.get(k) ? true : null, onchange: (e) => { prefs.set(k, e.target.checked); applyPrefs(); render(); } });
    card.appendChild(h("p", {}, h("label", { class: "check", for: `pref-${k}` }, box, " ", words())));
  }
  if (state && state.you !== null && state.you !== undefined) {
    card.appendChild(h("p", {}, h("button", { type: "button", id: "btn-leave", class: "danger", onclick: leave }, tr("Leave the table"))));
  }
  card.appendChild(h("p", { class: "row phone-links" }, h("a", { href: $("lnk-record").href, download: true }, tr("Record")), h("a", { href: $("lnk-replay").href }, tr("Replay"))));
  card.appendChild(h("button", { type: "button", id: "btn-close", onclick: () => { $("modal").hidden = true; $("btn-options").focus(); } }, tr("Close")));
  m.appendChild(card);
  m.hidden = false;
  card.querySelector("input").focus();
}
// Leave: this browser forgets its seat and goes back to the lobby (a bot plays the seat
// once the away limit has passed).
function leave() {
  store.clear();
  if (ws) ws.close();
  location.href = "/";
}
// A rematch: the server makes a new table with the same rules, bots and seats, this player
// in his seat, and tells everyone still here (onRematch). The others open their own seats
// with the tokens their browsers hold from this table, so no one is sent another's secret.
let rematchNews = null; // {table, by, name}: a rematch was started from this table
async function rematch() {
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/rematch`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: mine && mine.token ? mine.token : null }),
  });
  const data = await r.json();
  if (!r.ok) { toast(serverText({ message: data.error || "" })); return; }
  if (data.token) seatStore(data.id).set({ token: data.token, seat: data.seat });
  const links = (data.invites || []).map((s) => ({ seat: s.seat, link: `${location.origin}/t/${data.id}#invite=${encodeURIComponent(s.invite)}` }));
  if (links.length) localStorage.setItem(`spades.invites.${data.id}`, JSON.stringify(links));
  location.href = data.token ? `/t/${data.id}` : rematchLink(data.id);
}
// A person's link opens his own seat there (with his token from here), a spectator's watches.
function rematchLink(id) {
  return mine && mine.token ? `/t/${encodeURIComponent(id)}#rematch=${encodeURIComponent(tableId)}` : `/t/${encodeURIComponent(id)}`;
}
function onRematch(msg) {
  const fresh = !rematchNews || rematchNews.table !== msg.table;
  rematchNews = msg;
  if (fresh && state && msg.by !== state.you) toast(tr("{name} started a rematch.", { name: playerName(msg.name) || seatLabel(msg.by, state.table.rules.players) }));
  render();
}
function renderRematch(box, t) {
  if (!rematchNews) return;
  // a seat held here by a token or by the account signed in: both open the new seat
  const seated = state.you !== null && state.you !== undefined;
  const who = playerName(rematchNews.name) || seatLabel(rematchNews.by, t.rules.players);
  box.appendChild(h("p", { class: "hint-line", id: "rematch-line" },
    tr("{name} started a rematch.", { name: who }) + " ",
    h("a", { class: "button primary", id: "lnk-rematch", href: rematchLink(rematchNews.table) },
      seated ? tr("Join the rematch") : tr("Watch the rematch"))));
}

// ---------------------------------------------------------------- table chat
// Quick phrases go as ids, so each reader sees them in his own language; free text is shown
// as text (never as HTML). The server limits the rate and may have chat off at this table.
const QUICK = {
  hello: () => tr("Hello!"), good_luck: () => tr("Good luck!"), well_played: () => tr("Well played!"),
  thanks: () => tr("Thanks!"), sorry: () => tr("Sorry!"), oops: () => tr("Oops!"),
  good_game: () => tr("Good game!"), bye: () => tr("Bye!"),
};
const chatLines = [];
let chatOpen = false;
let unread = 0;
const chatSeen = new Set(); // the ids of the lines shown: a backlog sent again adds none twice
function keepLine(m) {
  if (m.id && chatSeen.has(m.id)) return false;
  if (m.id) chatSeen.add(m.id);
  chatLines.push(m);
  if (chatLines.length > 100) chatLines.shift();
  return true;
}
function onChat(msg) {
  if (!keepLine(msg)) return;
  if (!chatOpen) unread++;
  sound.beep(660, 60);
  renderChat();
}
// The table's last lines, sent at every hello (a reload, a reconnect, a second device, a
// spectator arriving): the server's order, each line once (lines shown here that it no longer
// keeps are older, so they stay first); earlier talk is not news (no sound, no unread count).
function onChatLog(lines) {
  const theirs = (lines || []).filter((m) => m && m.id);
  const ids = new Set(theirs.map((m) => m.id));
  const older = chatLines.filter((m) => !m.id || !ids.has(m.id));
  chatLines.length = 0;
  for (const m of [...older, ...theirs]) { if (m.id) chatSeen.add(m.id); chatLines.push(m); }
  while (chatLines.length > 100) chatLines.shift();
  renderChat();
}
function chatText(m) { return m.quick ? (m.quick in QUICK ? QUICK[m.quick]() : m.quick) : m.text; }
function renderChat() {
  const t = state && state.table;
  const on = !!(t && t.chat);
  $("btn-chat").hidden = !on;
  $("btn-chat").classList.toggle("on", chatOpen);
  $("btn-chat").setAttribute("aria-expanded", chatOpen ? "true" : "false");
  const badge = unread && !chatOpen ? ` (${unread})` : "";
  $("btn-chat").firstElementChild.textContent = tr("Chat") + badge;
  const box = $("chatbox");
  box.hidden = !(on && chatOpen);
  if (box.hidden) return;
  const focused = document.activeElement && document.activeElement.id;
  const typed = $("chat-text") ? $("chat-text").value : "";
  clear(box);
  box.appendChild(h("h2", {}, tr("Table chat")));
  const log = h("div", { class: "chat-log", id: "chat-log", role: "log", "aria-live": "polite", tabindex: "0", "aria-label": tr("Table chat") });
  const lines = h("ol", {});
  for (const m of chatLines) lines.appendChild(h("li", {}, h("strong", {}, `${playerName(m.name) || seatLabel(m.seat, t.rules.players)}: `), chatText(m)));
  if (!chatLines.length) lines.appendChild(h("li", { class: "note" }, tr("No message yet.")));
  log.appendChild(lines);
  box.appendChild(log);
  if (state.you !== null && state.you !== undefined) {
    const quick = h("div", { class: "row quick", role: "group", "aria-label": tr("Quick phrases") });
    for (const [id, words] of Object.entries(QUICK)) quick.appendChild(h("button", { type: "button", "data-quick": id, onclick: () => send({ type: "chat", quick: id }) }, words()));
    box.appendChild(quick);
    const input = h("input", { id: "chat-text", maxlength: 200, autocomplete: "off", value: typed, "aria-label": tr("Your message") });
    box.appendChild(h("form", { class: "row chat-form", onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      send({ type: "chat", text });
      input.value = "";
    } }, input, h("button", { type: "submit", id: "btn-say" }, tr("Send"))));
  }
  log.scrollTop = log.scrollHeight;
  if (focused && $(focused)) $(focused).focus();
}
function toggleChat() {
  chatOpen = !chatOpen;
  unread = 0;
  renderChat();
  if (chatOpen && $("chat-text")) $("chat-text").focus();
}
$("btn-chat").addEventListener("click", toggleChat);

$("btn-hint").addEventListener("click", () => send({ type: "hint" }));
$("btn-tricks").addEventListener("click", reviewHand);
$("btn-options").addEventListener("click", showOptions);
$("btn-last").addEventListener("click", showLastTrick);
$("btn-sheet").addEventListener("click", () => { showSheet = !showSheet; render(); });

document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
  if (!$("modal").hidden && e.key !== "Escape") return; // a dialog is open: its own keys only
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
  else if (e.key === "t" || e.key === "T") { reviewHand(); }
  else if (e.key === "c" || e.key === "C") { toggleChat(); }
  else if (e.key === "o" || e.key === "O") { showOptions(); }
  else if (e.key === "Escape") { $("modal").hidden = true; armed = null; render(); }
});

await initWords();
applyPrefs();
onLang(() => { if (gone) { gone = false; noSuchTable(); } render(); });
connect();
