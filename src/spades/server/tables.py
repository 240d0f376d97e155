"""One actor per table: it alone changes its game, logs each change, then tells the seats.

A change is (1) checked by the engine, (2) written to the store, (3) applied to the game and
(4) sent to every connection as that connection's own view: a seat gets its ``Observation``,
a spectator the public part of it. The store write comes before anything is sent, so no one
ever sees a move that a crash could take back. Bots (and the stand-in for a seat whose player
is away) run in the table's driver task, are handed only their seat's observation and the
legal actions, and act after the table's ``bot_delay_ms``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spades.actions import Action, Bid, Look, PassCards, Play
from spades.bots import REGISTRY, Bot, make_bot
from spades.cards import CardSet, card_text, parse_card
from spades.driver import notify_others
from spades.errors import SpadesError
from spades.observation import bid_value
from spades.record import to_record
from spades.rules import Rules
from spades.server.codec import decode_action, encode_action
from spades.server.fairness import Deck, deal_into, new_deck
from spades.server.schema import CreateTable
from spades.server.store import Store, StoredTable, StoreError
from spades.state import Game, Phase, seat_name

log = logging.getLogger("spades.server")

PRIVATE_KEYS = ("hand", "exchange", "stock_top", "discarded", "pass_chosen")
BOTS_NOTE = "Bots see only their own seat's observation (their cards and what was played), never the deal."
STANDIN_BOT = "heuristic"
FAST_BOTS = frozenset({"random", "heuristic"})
"""Bots quick enough to decide on the event loop; others think in a worker thread."""
MAX_QUEUE = 256
MAX_LIVE_TABLES = 5000
MAX_CONNS_PER_TABLE = 64
IDLE_S = 60.0
"""How long a finished table with nobody watching stays in memory after its last use."""
LIST_LIMIT = 100
"""Tables a listing answers by default (newest first)."""


def strongest_bot() -> str:
    """The hint and stand-in level: the expert bot where this build has it."""
    try:
        make_bot("expert")
    except SpadesError:
        return "heuristic"
    return "expert"


class Conn:
    """One websocket's outbox; the app's pump task drains it. A client that falls too far
    behind is cut off rather than let the server's memory grow."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.history_sent = -1
        """Which version of the score sheet and proofs this client has: sent only on change."""

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close()
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


@dataclass
class SeatConf:
    kind: str  # "human" or "bot"
    bot: str | None = None
    token: str | None = None
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "bot": self.bot, "token": self.token, "name": self.name}


@dataclass
class TableConf:
    rules: Rules
    first_dealer: int
    seats: list[SeatConf]
    bot_delay_ms: int = 600
    hints: bool = True
    away_s: float = 60.0

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "first_dealer": self.first_dealer,
            "seats": [s.to_json() for s in self.seats],
            "bot_delay_ms": self.bot_delay_ms,
            "hints": self.hints,
            "away_s": self.away_s,
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> TableConf:
        return TableConf(
            rules=Rules.from_spec(d["rules"]),
            first_dealer=d["first_dealer"],
            seats=[SeatConf(**s) for s in d["seats"]],
            bot_delay_ms=d.get("bot_delay_ms", 600),
            hints=d.get("hints", True),
            away_s=d.get("away_s", 60.0),
        )


def conf_from_request(req: CreateTable) -> TableConf:
    """Check a create request against the rules; raise ``SpadesError`` naming the bad part."""
    rules = Rules.from_spec(req.rules)
    if len(req.seats) != rules.players:
        raise SpadesError(f"seats: these rules need {rules.players} seats, not {len(req.seats)}")
    seats: list[SeatConf] = []
    for i, s in enumerate(req.seats):
        if s.open == (s.bot is not None):
            raise SpadesError(f"seats[{i}]: say either open: true or bot: LEVEL")
        if s.bot is not None:
            # Only built-in bots by bare name: a web request must never start a program
            # (``cmd:``) on the server or buy unbounded search effort with settings.
            if s.bot not in REGISTRY:
                raise SpadesError(f"seats[{i}]: unknown bot {s.bot!r} (known: {', '.join(REGISTRY)})")
            make_bot(s.bot)  # a level missing from this build fails here, before the table exists
            seats.append(SeatConf("bot", bot=s.bot, name=f"{seat_name(i, rules.players)} ({s.bot} bot)"))
        else:
            seats.append(SeatConf("human", token=secrets.token_urlsafe(24), name=s.name))
    fd = rules.first_dealer
    first = (
        fd if isinstance(fd, int) else Game(rules, seed=secrets.randbits(64), auto_deal=False).first_dealer
    )
    return TableConf(rules, first, seats, req.bot_delay_ms, req.hints, req.away_s)


@dataclass
class _Clock:
    changed_at: float = 0.0
    version: int = 0


class TableActor:
    def __init__(self, table_id: str, conf: TableConf, store: Store, hint_level: str) -> None:
        self.id = table_id
        self.created_at = time.time()
        self.last_used = time.monotonic()
        """When the manager last handed this table out: a finished table unloads once idle."""
        self.conf = conf
        self.store = store
        self.hint_level = hint_level
        self.game = Game(conf.rules, first_dealer=conf.first_dealer, auto_deal=False)
        self.names: list[str | None] = [s.name if s.kind == "bot" else None for s in conf.seats]
        self.superseded: dict[str, int] = {}
        """Invite tokens of seats taken from the lobby (each claim gets a fresh token): the
        token, and the seat it was for, so its holder is told why it no longer works."""
        self.decks: list[Deck] = []
        self.seq = 0
        self.status = "waiting"
        self.conns: list[Conn] = []
        now = time.monotonic()
        # A person counts as away until his browser connects, so a seat nobody opens is
        # played by the stand-in bot once the table's away limit has passed.
        self.away_since: list[float | None] = [now if s.kind == "human" else None for s in conf.seats]
        self.clock = _Clock(time.monotonic())
        self.bots: dict[int, Bot] = {}
        self._standin: Bot | None = None
        self._hinter: Bot | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._public: tuple[int, dict[str, Any]] | None = None
        self._public_text: dict[tuple[int, bool], str] = {}
        self._rules_dict = conf.rules.to_dict()
        self._rules_spec = conf.rules.to_spec()
        self.on_status: Callable[[TableActor], None] | None = None
        self._stored_status: str | None = "waiting"
        """The status the store holds (``None``: unknown, write it): a table loaded back
        from the store writes nothing unless its log says more than its row."""
        for seat, s in enumerate(conf.seats):
            if s.kind == "bot" and s.bot is not None:
                self.bots[seat] = make_bot(s.bot)

    # ------------------------------------------------------------------ creation and replay
    @classmethod
    def create(cls, table_id: str, conf: TableConf, store: Store, hint_level: str) -> TableActor:
        created_at = store.create_table(table_id, conf.to_json())
        actor = cls(table_id, conf, store, hint_level)
        actor.created_at = created_at
        for seat, s in enumerate(conf.seats):
            if s.kind == "human" and s.name is not None:
                actor._commit("join", {"seat": seat, "name": s.name})
        actor._advance()
        return actor

    @classmethod
    def restore(cls, stored: StoredTable, store: Store, hint_level: str) -> TableActor:
        """Rebuild from the log: the same events through the same engine give the same game."""
        actor = cls(stored.id, TableConf.from_json(stored.config), store, hint_level)
        actor.created_at = stored.created_at
        # A finished table from before revision 0002 has no lobby line yet: write it now.
        actor._stored_status = None if stored.status == "over" and stored.summary is None else stored.status
        for seq, kind, data in stored.events:
            actor._apply_event(kind, data)
            actor.seq = seq
        # The status column is a convenience for listings; the log is the truth.
        actor.status = "waiting"
        now = time.monotonic()
        actor.away_since = [now if s.kind == "human" else None for s in actor.conf.seats]
        actor._advance()
        return actor

    # ------------------------------------------------------------------ the one way to change
    def _commit(self, kind: str, data: dict[str, Any]) -> None:
        """Write, then apply. A failed write raises ``StoreError`` and changes nothing."""
        self.store.append(self.id, self.seq + 1, kind, data)
        self.seq += 1
        self._apply_event(kind, data)

    def _apply_event(self, kind: str, data: dict[str, Any]) -> None:
        g = self.game
        if kind == "join":
            seat = data["seat"]
            self.names[seat] = data["name"]
            token = data.get("token")  # a claim from the lobby: the seat's new token
            if token is not None:
                old = self.conf.seats[seat].token
                if old is not None:
                    self.superseded[old] = seat
                self.conf.seats[seat].token = token
        elif kind == "deal":
            deck = Deck.of([parse_card(c) for c in data["deck"].split(" ")], data["salt"])
            self.decks.append(deck)
            deal_into(g, deck)
        elif kind == "act":
            seat, action = data["seat"], decode_action(data["a"])
            if isinstance(action, PassCards):
                g.pass_cards(action.cards, seat)
            elif isinstance(action, Look):
                g.look(seat)
            else:
                g.apply(action, seat)
        else:  # pragma: no cover - only a newer server writes kinds we do not know
            raise SpadesError(f"table {self.id}: unknown event kind {kind!r}")
        self.clock.version += 1
        self.clock.changed_at = time.monotonic()

    def _advance_or_retry(self) -> None:
        """Run the dealer chores after an accepted action. The action itself is already
        written and stands; if the store refuses the chores (the next deal), the driver task
        retries them, so the reply to the player is still "accepted"."""
        try:
            self._advance()
        except StoreError as e:
            log.error("table %s: %s; the driver will retry", self.id, e)

    def _advance(self) -> None:
        """Dealer chores: start when every seat is filled, deal each hand, notice the end."""
        status = self.status
        if status == "waiting" and all(n is not None for n in self.names):
            status = "playing"
        if status == "playing" and self.game.phase is Phase.DEAL:
            deck = new_deck()
            self._commit("deal", {"deck": deck.text, "salt": deck.salt, "commit": deck.commit})
        if self.game.is_over:
            status = "over"
        if status != self.status:
            if status != self._stored_status:
                self.store.set_status(self.id, status, self.listing(status) if status == "over" else None)
                self._stored_status = status
            self.status = status
            if self.on_status is not None:
                self.on_status(self)

    # ------------------------------------------------------------------ what seats ask for
    def seat_of_token(self, token: str) -> int | None:
        for seat, s in enumerate(self.conf.seats):
            if s.token is not None and secrets.compare_digest(s.token, token):
                return seat
        return None

    def taken_message(self, token: str) -> str | None:
        """Why an invite token no longer opens its seat (``None`` if it never did)."""
        for old, seat in self.superseded.items():
            if secrets.compare_digest(old, token):
                return (
                    f"{seat_name(seat, self.game.n)} was taken from the lobby by {self.names[seat]}: "
                    "this invite link no longer works"
                )
        return None

    def _seat_refusal(self, seat: int) -> str | None:
        if self.conf.seats[seat].kind != "human":
            return f"{seat_name(seat, self.game.n)} is a bot's seat"
        if self.names[seat] is not None:
            return f"{seat_name(seat, self.game.n)} is already taken by {self.names[seat]}"
        return None

    def join(self, seat: int, name: str) -> str | None:
        """A person takes his seat with a display name; the game starts when all are filled."""
        refusal = self._seat_refusal(seat)
        if refusal is not None:
            return refusal
        try:
            self._commit("join", {"seat": seat, "name": name})
        except StoreError as e:
            return str(e)
        self._advance_or_retry()
        self._changed()
        return None

    def claim(self, seat: int, name: str) -> tuple[str | None, str | None]:
        """A free seat taken from the lobby: ``(token, None)``, or ``(None, reason)``.

        The claimer gets a fresh token that only he holds, written in the same event as the
        join (so a restart keeps it); the seat's invite token stops working, and a browser
        that opened the invite link without sitting down yet is told so and only watches."""
        refusal = self._seat_refusal(seat)
        if refusal is not None:
            return None, refusal
        old = self.conf.seats[seat].token
        token = secrets.token_urlsafe(24)
        try:
            self._commit("join", {"seat": seat, "name": name, "token": token})
        except StoreError as e:
            return None, str(e)
        if old is not None:
            why = json.dumps({"type": "error", "code": "seat_taken", "message": self.taken_message(old)})
            for c in self.conns:
                if c.seat == seat:
                    c.send(why)
                    c.seat = None
            self.away_since[seat] = time.monotonic()
        self._advance_or_retry()
        self._changed()
        return token, None

    def act(self, seat: int, action: Action) -> str | None:
        """A seat's action: ``None`` if accepted, else the one-line reason; a refusal changes
        nothing."""
        if self.status != "playing":
            return "the game is over" if self.status == "over" else "the game has not started yet"
        try:
            self.game.verify(action, seat)
        except SpadesError as e:
            return str(e)
        try:
            self._commit("act", {"seat": seat, "a": encode_action(action)})
        except StoreError as e:
            return str(e)
        self._advance_or_retry()
        notify_others(self.game, self.bots)  # bot seats only; built-in bots want no events
        self._changed()
        return None

    async def hint(self, seat: int) -> dict[str, Any]:
        """The strongest bot's choice for the seat to move, computed off the event loop from
        the seat's own observation (a hint knows no more than the player)."""
        if not self.conf.hints:
            return {"type": "error", "message": "hints are turned off at this table"}
        g = self.game
        if self.status != "playing" or g.to_move != seat:
            return {"type": "error", "message": "a hint is given only on your turn"}
        if self._hinter is None:
            self._hinter = make_bot(self.hint_level)
        version = self.clock.version
        d = await asyncio.to_thread(self._hinter.decide, g.observation(seat), g.legal_actions(seat))
        if version != self.clock.version:
            return {"type": "error", "message": "the table moved on before the hint was ready"}
        return {"type": "hint", "action": encode_action(d.action), "why": d.why, "bot": self.hint_level}

    # ------------------------------------------------------------------ connections
    def attach(self, conn: Conn) -> str | None:
        """Add a connection; refuse one over the table's limit (``None`` if attached)."""
        if len(self.conns) >= MAX_CONNS_PER_TABLE:
            return f"this table already has {len(self.conns)} connections"
        self.conns.append(conn)
        if conn.seat is not None:
            self.away_since[conn.seat] = None
            self._changed()
        else:
            conn.history_sent = self.history_version()
            conn.send(self.message_for(None))
        return None

    def detach(self, conn: Conn) -> None:
        if conn in self.conns:
            self.conns.remove(conn)
        seat = conn.seat
        if seat is not None and not any(c.seat == seat for c in self.conns):
            self.away_since[seat] = time.monotonic()
            self._changed()

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def _changed(self) -> None:
        self._public = None
        self._public_text.clear()
        self._wake.set()
        hv = self.history_version()
        by_seat: dict[tuple[int | None, bool], str] = {}
        for c in list(self.conns):
            if c.closed:
                continue
            key = (c.seat, c.history_sent != hv)
            text = by_seat.get(key)
            if text is None:
                text = by_seat[key] = self.message_for(c.seat, with_history=key[1])
            c.history_sent = hv
            c.send(text)

    # ------------------------------------------------------------------ views
    def public(self) -> dict[str, Any]:
        """What anyone may see; cached until the next change."""
        key = self.clock.version
        if self._public is not None and self._public[0] == key:
            return self._public[1]
        g = self.game
        n = g.n
        now = time.monotonic()
        seats = []
        for s, conf in enumerate(self.conf.seats):
            away = self.away_since[s]
            seats.append(
                {
                    "seat": s,
                    "position": seat_name(s, n),
                    "kind": conf.kind,
                    "bot": conf.bot,
                    "name": self.names[s],
                    "connected": conf.kind == "bot" or self.connected(s),
                    "standin": conf.kind == "human" and away is not None and now - away >= self.conf.away_s,
                }
            )
        log_ = g.logs[-1] if g.logs else None
        last_trick = g.tricks[-1] if g.tricks else None
        out: dict[str, Any] = {
            "id": self.id,
            "status": self.status,
            "hand": g.hand_number,
            "phase": g.phase.value,
            "to_move": g.to_move if self.status == "playing" else None,
            "dealer": g.dealer if g.hand_number else None,
            "bids": [bid_value(b) for b in log_.bids] if log_ else [None] * n,
            "plays": [card_text(c) for c in log_.plays] if log_ else [],
            "trick": {"leader": g.trick_leader, "cards": [card_text(c) for c in g.trick]},
            "last_trick": None
            if last_trick is None
            else {
                "leader": last_trick.leader,
                "cards": [card_text(c) for c in last_trick.cards],
                "winner": last_trick.winner,
            },
            "tricks_won": list(g.tricks_won),
            "counts": [h.bit_count() for h in g.hands],
            "totals": list(g.totals),
            "bags": list(g.bags),
            "winner": g.winner,
            "players": list(self.names),
            "seats": seats,
            "rules": self._rules_dict,
            "rules_spec": self._rules_spec,
            "bot_delay_ms": self.conf.bot_delay_ms,
            "hints": self.conf.hints,
            "hint_bot": self.hint_level,
            "away_s": self.conf.away_s,
            "bots_note": BOTS_NOTE,
        }
        self._public = (key, out)
        return out

    def listing(self, status: str | None = None) -> dict[str, Any]:
        """The table's line in the lobby (``status`` overrides the current one)."""
        g = self.game
        return {
            "id": self.id,
            "status": status or self.status,
            "hand": g.hand_number,
            "totals": list(g.totals),
            "rules": self._rules_spec,
            "target": self.conf.rules.target,
            "seats": [
                {"seat": s, "kind": c.kind, "bot": c.bot, "name": self.names[s]}
                for s, c in enumerate(self.conf.seats)
            ],
        }

    def idle(self, now: float, idle_s: float) -> bool:
        """Finished, nobody attached and unused for ``idle_s``: the manager may unload it,
        as everything it knows is in the store."""
        return (
            self.status == "over"
            and not self.conns
            and now - self.last_used >= idle_s
            and (self._task is None or self._task.done())
        )

    def history_version(self) -> int:
        return len(self.decks) * 1000 + len(self.game.scores)

    def full_public(self) -> dict[str, Any]:
        """The public view with the score sheet and the shuffle proofs (REST answers this)."""
        return {**self.public(), "proofs": self.proofs(), "sheet": self.sheet()}

    def proofs(self) -> list[dict[str, Any]]:
        """Commitments for every hand; deck and salt only once the hand is over."""
        done = len(self.game.scores)
        out = []
        for i, d in enumerate(self.decks):
            p: dict[str, Any] = {"hand": i + 1, "commit": d.commit}
            if i < done:
                p["deck"], p["salt"] = d.text, d.salt
            out.append(p)
        return out

    def sheet(self) -> list[dict[str, Any]]:
        return [
            {
                "hand": i + 1,
                "dealer": s.dealer,
                "bids": [bid_value(b) for b in s.bids],
                "tricks": list(s.tricks),
                "contracts": list(s.contracts),
                "points": list(s.points),
                "bags": list(s.bags),
                "totals": list(s.totals),
                "penalties": list(s.penalties),
            }
            for i, s in enumerate(self.game.scores)
        ]

    def observation_json(self, seat: int | None) -> dict[str, Any] | None:
        g = self.game
        if g.hand_number == 0:
            return None
        if seat is not None:
            return g.observation(seat).to_json()
        obs = g.observation(0).to_json()
        for k in PRIVATE_KEYS:
            obs.pop(k, None)
        obs["seat"] = None
        obs["looked"] = None
        return obs

    def choices(self, seat: int) -> dict[str, Any]:
        """What the seat may do now, in the page's terms (the engine decides; this only lists)."""
        g = self.game
        out: dict[str, Any] = {"look": False, "bids": [], "blind_nil": False, "cards": [], "pass": 0}
        if self.status != "playing":
            return out
        if g.phase is Phase.BID and g.bid[seat] < 0 and g.can_look(seat):
            out["look"] = True
        if g.to_move != seat:
            return out
        for a in g.legal_actions(seat):
            if isinstance(a, Bid):
                if a.blind:
                    out["blind_nil"] = True
                else:
                    out["bids"].append(a.tricks)
            elif isinstance(a, Play):
                out["cards"].append(card_text(a.card))
        if g.phase is Phase.EXCHANGE:
            out["pass"] = g.rules.blind_nil_exchange
        if g.phase is Phase.DRAW:
            out["draw"] = True
        return out

    def message_for(self, seat: int | None, *, with_history: bool = True) -> str:
        """A connection's ``state`` message. The public part is encoded once per change and
        shared by every connection; the sheet and proofs ride along only when they changed
        since the client last got them (the page keeps the last ones)."""
        table = self._public_json(with_history)
        parts = [f'{{"type":"state","seq":{self.seq},"you":{json.dumps(seat)},"table":{table}']
        parts.append(',"obs":' + json.dumps(self.observation_json(seat), separators=(",", ":")))
        if seat is not None:
            parts.append(',"can":' + json.dumps(self.choices(seat), separators=(",", ":")))
        parts.append("}")
        return "".join(parts)

    def _public_json(self, with_history: bool) -> str:
        key = (self.clock.version, with_history)
        cached = self._public_text.get(key)
        if cached is None:
            if len(self._public_text) > 4:
                self._public_text.clear()
            view = self.full_public() if with_history else self.public()
            cached = self._public_text[key] = json.dumps(view, separators=(",", ":"))
        return cached

    def record(self) -> dict[str, Any]:
        """The record of the completed hands (all of them once the game is over), with the
        shuffle proofs of those hands."""
        names = [n or seat_name(s, self.game.n) for s, n in enumerate(self.names)]
        rec = to_record(self.game, names)
        done = len(self.game.scores)
        rec["hands"] = rec["hands"][:done]
        rec["proofs"] = [p for p in self.proofs() if p["hand"] <= done]
        rec["table"] = self.id
        rec["bots"] = {str(s): c.bot for s, c in enumerate(self.conf.seats) if c.kind == "bot"}
        return rec

    # ------------------------------------------------------------------ the driver task
    def start(self) -> None:
        if self._task is None and self.status != "over":
            self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{self.id}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for c in self.conns:
            c.close()

    def _auto_due(self) -> tuple[int, float] | None:
        """The seat a bot must play for now, and from when."""
        g = self.game
        seat = g.to_move
        if self.status != "playing" or seat is None:
            return None
        delay = self.conf.bot_delay_ms / 1000
        if seat in self.bots:
            return seat, self.clock.changed_at + delay
        away = self.away_since[seat]
        if away is None:
            return None
        return seat, max(away + self.conf.away_s, self.clock.changed_at + delay)

    def _chores_pending(self) -> bool:
        g = self.game
        everyone = all(n is not None for n in self.names)
        return (self.status == "waiting" and everyone) or (
            self.status == "playing" and (g.phase is Phase.DEAL or g.is_over)
        )

    async def _drive(self) -> None:
        while self.status == "playing" or self.status == "waiting":
            self._wake.clear()
            if self._chores_pending():  # a deal the store refused earlier
                try:
                    self._advance()
                except StoreError as e:
                    log.error("table %s: %s; retrying in 1 s", self.id, e)
                    await asyncio.sleep(1)
                    continue
                self._changed()
            due = self._auto_due()
            if due is None:
                await self._wake.wait()
                continue
            seat, when = due
            wait = when - time.monotonic()
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                continue
            await asyncio.sleep(0)  # let the rest of the server breathe between bot moves
            if self._auto_due() != due:
                continue
            try:
                await self._auto_move(seat)
            except StoreError as e:
                log.error("table %s: %s; retrying in 1 s", self.id, e)
                await asyncio.sleep(1)
            except Exception:  # a bot bug must not stop the table
                log.exception("table %s: the bot for seat %d failed", self.id, seat)
                await asyncio.sleep(1)

    async def _auto_move(self, seat: int) -> None:
        """A bot's move (or the stand-in's for an away player) from the seat's observation.
        Slow bots think in a worker thread so the other tables keep playing meanwhile."""
        bot = self.bots.get(seat)
        if bot is None:
            if self._standin is None:
                self._standin = make_bot(STANDIN_BOT)
            bot = self._standin
        g = self.game
        legal = g.legal_actions(seat)
        obs = g.observation(seat)
        version = self.clock.version
        if bot.name in FAST_BOTS:
            action = bot.decide(obs, legal).action
        else:
            action = (await asyncio.to_thread(bot.decide, obs, legal)).action
            if version != self.clock.version:
                return  # something happened meanwhile (a look, a reconnect): think again
        if self.act(seat, action) is not None:
            self.act(seat, legal[0])


@dataclass
class TableManager:
    """Every table of the server, by id. Waiting and playing tables live in memory from the
    start; a finished one leaves memory once nobody has used it for ``idle_s`` seconds and is
    loaded back from the store when asked for (its log holds all of it), so a server that
    runs for months holds only the games in play."""

    store: Store
    hint_level: str = field(default_factory=strongest_bot)
    tables: dict[str, TableActor] = field(default_factory=dict)
    idle_s: float = IDLE_S
    _reaper: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    def load_all(self) -> int:
        """Rebuild every unfinished table from its log. A table whose log no longer replays
        (written by a newer or broken build) is left out with a one-line log entry, not a
        failed start."""
        for stored in self.store.load_all(exclude_over=True):
            actor = self._restore(stored)
            if actor is not None:
                self.tables[actor.id] = actor
        return len(self.tables)

    def _restore(self, stored: StoredTable) -> TableActor | None:
        try:
            return TableActor.restore(stored, self.store, self.hint_level)
        except (SpadesError, KeyError, TypeError, ValueError) as e:
            log.error("table %s: cannot rebuild it from its log (%s); skipped", stored.id, e)
            return None

    def start(self) -> None:
        for actor in self.tables.values():
            actor.start()
        if self._reaper is None:
            self._reaper = asyncio.get_running_loop().create_task(self._reap(), name="table-reaper")

    async def stop(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
            self._reaper = None
        for actor in self.tables.values():
            await actor.stop()

    async def _reap(self) -> None:
        every = min(max(self.idle_s / 2, 0.05), 30.0)
        while True:
            await asyncio.sleep(every)
            self.sweep()

    def sweep(self, now: float | None = None) -> int:
        """Unload the finished tables nobody uses; returns how many left memory."""
        now = time.monotonic() if now is None else now
        gone = [tid for tid, t in self.tables.items() if t.idle(now, self.idle_s)]
        for tid in gone:
            del self.tables[tid]
        return len(gone)

    def create(self, req: CreateTable) -> TableActor:
        live = sum(1 for t in self.tables.values() if t.status != "over")
        if live >= MAX_LIVE_TABLES:
            raise SpadesError(f"the server already runs {live} tables (limit {MAX_LIVE_TABLES}); try later")
        conf = conf_from_request(req)
        table_id = secrets.token_urlsafe(9)
        actor = TableActor.create(table_id, conf, self.store, self.hint_level)
        self.tables[table_id] = actor
        with contextlib.suppress(RuntimeError):
            actor.start()
        return actor

    def get(self, table_id: str) -> TableActor | None:
        """The table, from memory or else loaded back from the store (``None``: no such table)."""
        actor = self.tables.get(table_id)
        if actor is None:
            stored = self.store.load(table_id)
            if stored is None:
                return None
            actor = self._restore(stored)
            if actor is None:
                return None
            self.tables[table_id] = actor
            with contextlib.suppress(RuntimeError):
                actor.start()
        actor.last_used = time.monotonic()
        return actor

    def list_tables(self, status: str = "waiting", limit: int = LIST_LIMIT) -> list[dict[str, Any]]:
        """The newest ``limit`` tables with that status (or ``all``). Unfinished tables come
        from memory, finished ones from their lobby line in the store."""
        rows: list[tuple[float, dict[str, Any]]] = []
        if status != "over":
            rows.extend(
                (t.created_at, t.listing())
                for t in self.tables.values()
                if t.status != "over" and status in ("all", t.status)
            )
        if status in ("over", "all"):
            for tid, created_at, line in self.store.finished(limit):
                if line is None:  # finished by a server older than the lobby line
                    actor = self.get(tid)
                    if actor is None:
                        continue
                    line = actor.listing()
                rows.append((created_at, line))
        rows.sort(key=lambda r: r[0], reverse=True)
        return [line for _, line in rows[:limit]]


__all__ = ["CardSet", "Conn", "TableActor", "TableManager", "conf_from_request"]
