"""One actor per table: it alone changes its game, logs each change, then tells the seats.

A change is (1) checked by the engine, (2) written to the store, (3) applied to the game and
(4) sent to every connection as that connection's own view: a seat gets its ``Observation``,
a spectator the public part of it. The store write comes before anything is sent, so no one
ever sees a move that a crash could take back.

A table lives in one or more workers. The one holding its lease is the *owner*: it alone
writes, deals and runs the bots (the driver task). Any other worker with a browser on the
table holds a *replica*: the same game rebuilt from the same log, kept current by the events
the owner publishes, and it forwards its players' actions to the owner. A single server with
no Redis owns every table and needs none of this. The event log's ``(table, seq)`` key fences
a stale owner out: its write of an event number someone else wrote fails, and it steps down.

Seat secrets: a seat's token is known only to whoever holds the seat. An invite link carries
a one-time ticket, exchanged at the first ``hello`` for a fresh token; the store keeps only
SHA-256 hashes of tokens and tickets.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import json
import logging
import secrets
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from spades.actions import Action, Bid, Play
from spades.bots import REGISTRY, Bot, make_bot
from spades.cards import CardSet, card_text, parse_card
from spades.driver import notify_others
from spades.errors import SpadesError, Text, first_line, from_json, reply_fields
from spades.observation import bid_value, public_view
from spades.record import to_record
from spades.rules import Rules
from spades.server.codec import decode_action, encode_action
from spades.server.compute import FAST_BOTS
from spades.server.fairness import Deck, deal_into, new_deck
from spades.server.schema import CreateTable
from spades.server.store import FINAL, LIVE, SeqTaken, StoredTable, StoreError
from spades.state import Game, Phase, seat_name

if TYPE_CHECKING:
    from spades.server.manager import TableManager

log = logging.getLogger("spades.server")

BOTS_NOTE = "Bots see only their own seat's observation (their cards and what was played), never the deal."
STANDIN_BOT = "heuristic"
MAX_QUEUE = 256
MAX_CONNS_PER_TABLE = 64
MAX_HANDS = 500
"""A game still unfinished after this many hands is ended as failed: with the rules' bounded
targets no real game comes near it, but a table must never play for ever."""
IDLE_S = 60.0
"""How long a finished table (or a replica) with nobody watching stays in memory."""
LIST_LIMIT = 100
"""Tables a listing answers by default (newest first)."""
MOVED = "the table is moving to another server: try again in a moment"
CHAT_KEEP = 50
"""Chat lines a table keeps in memory (on every worker holding it) for a page that reloads,
a second device or a spectator arriving: chat is of the moment, so never in the log."""


_AVAILABLE: dict[str, bool] = {}


def bot_available(name: str) -> bool:
    """Whether this build has the bot level, found without building one (building the expert
    loads compiled kernels: that happens in the compute pool, never on the event loop)."""
    known = _AVAILABLE.get(name)
    if known is None:
        entry = REGISTRY.get(name)
        known = False
        if entry is not None:
            try:
                importlib.import_module(entry[0])
                known = True
            except ImportError:
                known = False
        _AVAILABLE[name] = known
    return known


def _chat_id(line: str) -> str:
    try:
        return str(json.loads(line).get("id"))
    except (ValueError, AttributeError):
        return line


def digest(secret: str) -> str:
    """What the store keeps of a token or ticket: enough to check one, useless to steal."""
    return hashlib.sha256(secret.encode()).hexdigest()


class Conn:
    """One websocket's outbox; the app's pump task drains it. A client that falls too far
    behind is cut off rather than let the server's memory grow."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.greeted = False
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
    token_sha: str | None = None
    """Hash of the seat token (``None`` until someone holds the seat)."""
    invite_sha: str | None = None
    """Hash of the seat's one-time invite ticket."""
    name: str | None = None
    account: str | None = None
    """The account the seat is bound to (a ``bind`` event; ``None``: a guest's or a bot's)."""
    account_name: str | None = None
    prior_sha: str | None = None
    """A rematch's seat: the hash of the token that held this seat at the old table, which
    opens it once (``hello`` with ``prior``), so no one is sent another person's secret."""
    prior_name: str | None = None
    """The name that seat had at the old table: its holder sits down under it."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "bot": self.bot,
            "token_sha": self.token_sha,
            "invite_sha": self.invite_sha,
            "name": self.name,
        }
        if self.account is not None:
            out["account"], out["account_name"] = self.account, self.account_name
        if self.prior_sha is not None:
            out["prior_sha"], out["prior_name"] = self.prior_sha, self.prior_name
        return out

    @staticmethod
    def from_json(d: dict[str, Any]) -> SeatConf:
        token_sha = d.get("token_sha")
        invite_sha = d.get("invite_sha")
        legacy = d.get("token")
        if legacy is not None and token_sha is None and invite_sha is None:
            # Written by a server before tickets: its token was both invite and seat token.
            token_sha = digest(legacy)
        name, account, account_name = d.get("name"), d.get("account"), d.get("account_name")
        return SeatConf(
            d["kind"],
            d.get("bot"),
            token_sha,
            invite_sha,
            name,
            account,
            account_name,
            d.get("prior_sha"),
            d.get("prior_name"),
        )


@dataclass
class TableConf:
    rules: Rules
    first_dealer: int
    seats: list[SeatConf]
    bot_delay_ms: int = 600
    hints: bool = True
    away_s: float = 60.0
    rated: bool = False
    """The creator asked for a rated game under house rules (the presets are always rated)."""
    chat: bool = True
    """Table chat on (the creator may turn it off)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "first_dealer": self.first_dealer,
            "seats": [s.to_json() for s in self.seats],
            "bot_delay_ms": self.bot_delay_ms,
            "hints": self.hints,
            "away_s": self.away_s,
        }
        if self.rated:
            out["rated"] = True
        if not self.chat:
            out["chat"] = False
        return out

    @staticmethod
    def from_json(d: dict[str, Any]) -> TableConf:
        return TableConf(
            rules=Rules.from_spec(d["rules"]),
            first_dealer=d["first_dealer"],
            seats=[SeatConf.from_json(s) for s in d["seats"]],
            bot_delay_ms=d.get("bot_delay_ms", 600),
            hints=d.get("hints", True),
            away_s=d.get("away_s", 60.0),
            rated=bool(d.get("rated", False)),
            chat=bool(d.get("chat", True)),
        )


def conf_from_request(req: CreateTable) -> tuple[TableConf, dict[int, tuple[str, str]]]:
    """Check a create request against the rules; raise ``SpadesError`` naming the bad part.

    Returns the table's configuration and, per open seat, the secret only the creator gets:
    ``("token", …)`` for a seat he named (he sits there), ``("invite", …)`` for a seat left
    to someone else (a one-time ticket, worthless once exchanged)."""
    rules = Rules.from_spec(req.rules)
    if len(req.seats) != rules.players:
        raise SpadesError(f"seats: these rules need {rules.players} seats, not {len(req.seats)}")
    seats: list[SeatConf] = []
    secret: dict[int, tuple[str, str]] = {}
    for i, s in enumerate(req.seats):
        if s.open == (s.bot is not None):
            raise SpadesError(f"seats[{i}]: say either open: true or bot: LEVEL")
        if s.bot is not None:
            # Only built-in bots by bare name: a web request must never start a program
            # (``cmd:``) on the server or buy unbounded search effort with settings.
            if s.bot not in REGISTRY:
                raise SpadesError(f"seats[{i}]: unknown bot {s.bot!r} (known: {', '.join(REGISTRY)})")
            if not bot_available(s.bot):  # a level missing from this build fails here
                raise SpadesError(f"seats[{i}]: bot {s.bot!r} is not available on this server")
            seats.append(SeatConf("bot", bot=s.bot, name=f"{seat_name(i, rules.players)} ({s.bot} bot)"))
        elif s.name is not None:
            token = secrets.token_urlsafe(24)
            secret[i] = ("token", token)
            seats.append(SeatConf("human", token_sha=digest(token), name=s.name))
        else:
            ticket = secrets.token_urlsafe(24)
            secret[i] = ("invite", ticket)
            seats.append(SeatConf("human", invite_sha=digest(ticket)))
    fd = rules.first_dealer
    first = (
        fd if isinstance(fd, int) else Game(rules, seed=secrets.randbits(64), auto_deal=False).first_dealer
    )
    conf = TableConf(rules, first, seats, req.bot_delay_ms, req.hints, req.away_s, req.rated)
    conf.chat = req.chat
    return conf, secret


@dataclass
class _Clock:
    changed_at: float = 0.0
    version: int = 0


class TableActor:
    """A table's game, its views and its local connections; the owner also writes and drives."""

    def __init__(
        self,
        table_id: str,
        conf: TableConf,
        *,
        mgr: TableManager | None = None,
        hint_level: str = "heuristic",
        owner: bool = False,
    ) -> None:
        self.id = table_id
        self.created_at = time.time()
        self.last_used = time.monotonic()
        """When this table was last handed out: a finished table or a replica unloads once idle."""
        self.conf = conf
        self.mgr = mgr
        self.hint_level = hint_level
        self.owner = owner
        self.owned_at = time.monotonic()
        """When this worker became the owner (a heartbeat older than that cannot list it)."""
        self.game = Game(conf.rules, first_dealer=conf.first_dealer, auto_deal=False)
        n = len(conf.seats)
        self.names: list[str | None] = [s.name if s.kind == "bot" else None for s in conf.seats]
        self.superseded: dict[str, tuple[int, str]] = {}
        """Hashes of invite tickets no longer good: the seat, and why (``claimed`` from the
        lobby or ``used`` by someone), so their holder is told."""
        self.decks: list[Deck] = []
        self.seq = 0
        self.status = "waiting"
        self.why: str | None = None
        """Why a table ended without a winner (``expired``, ``failed``)."""
        self.conns: list[Conn] = []
        self.rematch: tuple[str, int] | None = None
        """The rematch started from this finished table: the new table's id and the seat of
        the player who started it (a ``rematch`` event, the last of the log; ``rematch_out``),
        sent to each connection at hello."""
        self.chat_log: deque[str] = deque(maxlen=CHAT_KEEP)
        """The last chat lines, oldest first, as sent (each with its ``id``)."""
        now = time.monotonic()
        # A person counts as away until his browser connects, so a seat nobody opens is
        # played by the stand-in bot once the table's away limit has passed.
        self.away_since: list[float | None] = [now if s.kind == "human" else None for s in conf.seats]
        self.present: list[bool] = [s.kind == "bot" for s in conf.seats]
        self.remote: dict[str, tuple[frozenset[int], float]] = {}
        """Seats connected through other workers, by worker, with when the report expires."""
        self.clock = _Clock(time.monotonic())
        self.seat_bots: dict[int, str] = {}
        """Every bot seat's level; the fast ones also have a ``Bot`` here (``bots``), the slow
        ones think in the compute pool and are never built in this process."""
        self.bots: dict[int, Bot] = {}
        self._standin: Bot | None = None
        self.lock = asyncio.Lock()
        """Held across check, write and apply: one change at a time per table."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._public: tuple[int, dict[str, Any]] | None = None
        self._public_text: dict[tuple[int, bool], str] = {}
        self._rules_dict = conf.rules.to_dict()
        self._rules_spec = conf.rules.to_spec()
        self._n = n
        for seat, s in enumerate(conf.seats):
            if s.kind == "bot" and s.bot is not None:
                self.seat_bots[seat] = s.bot
                if s.bot in FAST_BOTS:
                    self.bots[seat] = make_bot(s.bot)

    # ------------------------------------------------------------------ rebuilding from the log
    @classmethod
    def from_stored(
        cls, stored: StoredTable, *, mgr: TableManager | None = None, hint_level: str = "heuristic"
    ) -> TableActor:
        """Rebuild from the log: the same events through the same engine give the same game.
        Raises ``SpadesError`` (or ``KeyError``/``TypeError``/``ValueError``) on a bad log."""
        actor = cls(stored.id, TableConf.from_json(stored.config), mgr=mgr, hint_level=hint_level)
        actor.created_at = stored.created_at
        actor.catch_up(stored.events)
        actor.status = actor._derived_status()
        return actor

    @classmethod
    def restore(cls, stored: StoredTable, _store: object = None, hint_level: str = "heuristic") -> TableActor:
        """A read-only copy of a stored table (tools and tests)."""
        return cls.from_stored(stored, hint_level=hint_level)

    def catch_up(self, events: list[tuple[int, str, dict[str, Any]]]) -> None:
        """Apply the events after ``self.seq``, in order; a gap raises ``SpadesError``."""
        for seq, kind, data in events:
            if seq <= self.seq:
                continue
            if seq != self.seq + 1:
                raise SpadesError(f"table {self.id}: event {seq} follows {self.seq}: a gap in the log")
            self.apply_event(kind, data)
            self.seq = seq

    def _derived_status(self) -> str:
        """The status the log says (the status column is a convenience for listings)."""
        if self.status in FINAL:
            return self.status
        if self.game.is_over:
            return "over"
        if self.decks or all(n is not None for n in self.names):
            return "playing"
        return "waiting"

    def apply_event(self, kind: str, data: dict[str, Any]) -> None:
        g = self.game
        if kind == "join":
            seat = data["seat"]
            self.names[seat] = data["name"]
            sha = data.get("token_sha") or (digest(data["token"]) if data.get("token") else None)
            if sha is not None:  # a claim from the lobby: the seat's new token
                sc = self.conf.seats[seat]
                for old in (sc.invite_sha, sc.token_sha, sc.prior_sha):
                    if old is not None:
                        self.superseded[old] = (seat, "claimed")
                sc.token_sha, sc.invite_sha, sc.prior_sha = sha, None, None
                # Whoever held the seat's old token or ticket only watches from now on.
                self.kick_seat(
                    seat,
                    f"{seat_name(seat, self.game.n)} was taken from the lobby by {data['name']}: "
                    "this invite link no longer works",
                )
        elif kind == "ticket":
            seat = data["seat"]
            sc = self.conf.seats[seat]
            for old in (sc.invite_sha, sc.prior_sha):
                if old is not None:
                    self.superseded[old] = (seat, "used")
            sc.token_sha, sc.invite_sha, sc.prior_sha = data["token_sha"], None, None
        elif kind == "bind":
            sc = self.conf.seats[data["seat"]]
            sc.account, sc.account_name = str(data["account"]), data.get("name")
        elif kind == "deal":
            deck = Deck.of([parse_card(c) for c in data["deck"].split(" ")], data["salt"])
            self.decks.append(deck)
            deal_into(g, deck)
            self.status = "playing"
        elif kind == "act":
            # ``Game.apply`` takes every action, a whole pass and an early look included.
            g.apply(decode_action(data["a"]), data["seat"])
            if g.is_over:
                self.status = "over"
        elif kind == "rematch":  # after the game: the log decides which rematch is the one
            self.rematch = (str(data["table"]), int(data["by"]))
        elif kind == "end":
            status = data["status"]
            if status not in ("expired", "failed"):
                raise SpadesError(f"table {self.id}: an end event with status {status!r}")
            self.status = status
            self.why = str(data.get("why") or status)
        else:  # only a newer server writes kinds we do not know
            raise SpadesError(f"table {self.id}: unknown event kind {kind!r}")
        if self.status == "waiting" and all(n is not None for n in self.names):
            self.status = "playing"
        self.clock.version += 1
        self.clock.changed_at = time.monotonic()

    # ------------------------------------------------------------------ the owner's writes
    @property
    def _manager(self) -> TableManager:
        if self.mgr is None:
            raise SpadesError(f"table {self.id} is a read-only copy")
        return self.mgr

    async def _commit(self, kind: str, data: dict[str, Any]) -> None:
        """Write, then apply, then publish. ``SeqTaken``: another worker wrote this number
        first, so this worker is no longer the owner; nothing is applied."""
        mgr = self._manager
        before = self.status
        await mgr.store.aappend(self.id, self.seq + 1, kind, data)
        self.seq += 1
        self.apply_event(kind, data)
        mgr.published(self, self.seq, kind, data)
        if before != "over" and self.status == "over":  # rated games update their ratings
            from spades.server.rated import game_over

            game_over(self)
        if self.status != before or kind in ("join", "deal", "ticket"):
            mgr.write_listing(self)

    async def _advance(self) -> None:
        """Dealer chores: deal each hand once every seat is filled; end games that went on
        too long."""
        g = self.game
        if self.status == "waiting" and all(n is not None for n in self.names):
            self.status = "playing"  # a table of bots only: no join makes it start
            self._manager.write_listing(self)
        if self.status == "playing" and g.phase is Phase.DEAL:
            if g.hand_number >= MAX_HANDS:
                await self._end("failed", f"no side reached the target in {MAX_HANDS} hands")
                return
            deck = new_deck(self.conf.rules)
            await self._commit("deal", {"deck": deck.text, "salt": deck.salt, "commit": deck.commit})

    async def _end(self, status: str, why: str) -> None:
        await self._commit("end", {"status": status, "why": why[:300]})
        log.warning("table %s: %s (%s)", self.id, status, why)

    def _chores_pending(self) -> bool:
        return self.status == "playing" and self.game.phase is Phase.DEAL

    async def command(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """A change asked by a player: done here if this worker owns the table, else
        forwarded to the owner. The answer is ``{"error": None | str, ...}``."""
        if not self.owner and self.status in FINAL:  # nobody owns a finished table: nothing to forward
            return {"error": "the game is over"}
        if not self.owner:
            return await self._manager.forward(self, op, args)
        return await self.execute(op, args)

    async def execute(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run a command as the owner (from a local player or forwarded by another worker)."""
        if op == "chat_log":  # only reads: no lock, no change
            if not self.owner:
                return {"error": MOVED, "moved": True}
            return {"error": None, "lines": list(self.chat_log)}
        async with self.lock:
            if not self.owner:
                return {"error": MOVED, "moved": True}
            try:
                out = await self._execute(op, args)
            except SeqTaken:
                await self._manager.lost(self)
                return {"error": MOVED, "moved": True}
            except StoreError as e:
                return {"error": str(e)}
        self._changed()
        return out

    async def _execute(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        if op == "act":
            err = await self._act(int(args["seat"]), decode_action(str(args["a"])))
            return {"error": err, **({"msg": reply_fields(err)} if isinstance(err, Text) else {})}
        if op == "join":
            return {"error": await self._join(int(args["seat"]), str(args["name"]))}
        if op == "claim":
            return await self._claim(int(args["seat"]), str(args["name"]))
        if op == "redeem":
            return await self._redeem(str(args["invite"]))
        if op == "prior":
            return await self._prior(str(args["prior"]))
        if op == "bind":
            return {"error": await self._bind(int(args["seat"]), str(args["account"]), str(args["name"]))}
        return {"error": f"unknown command {op!r}"}

    def _seat_refusal(self, seat: int) -> str | None:
        if not 0 <= seat < self._n:
            return f"seat {seat} is not at this table"
        if self.status not in LIVE:
            return "the game is over"
        if self.conf.seats[seat].kind != "human":
            return f"{seat_name(seat, self.game.n)} is a bot's seat"
        if self.names[seat] is not None:
            return f"{seat_name(seat, self.game.n)} is already taken by {self.names[seat]}"
        return None

    async def _join(self, seat: int, name: str) -> str | None:
        """A person takes his seat with a display name; the game starts when all are filled.
        A seat bound to an account takes the account's name."""
        refusal = self._seat_refusal(seat)
        if refusal is not None:
            return refusal
        name = self.conf.seats[seat].account_name or name
        await self._commit("join", {"seat": seat, "name": name})
        await self._advance_or_retry()
        return None

    async def _claim(self, seat: int, name: str) -> dict[str, Any]:
        """A free seat taken from the lobby, with a fresh token that only the claimer holds,
        written in the same event as the join (so a restart keeps it). The seat's invite
        ticket stops working; a browser that holds it is told so and only watches."""
        refusal = self._seat_refusal(seat)
        if refusal is not None:
            return {"error": refusal}
        token = secrets.token_urlsafe(24)
        await self._commit("join", {"seat": seat, "name": name, "token_sha": digest(token)})
        await self._advance_or_retry()
        return {"error": None, "token": token}

    async def _redeem(self, invite: str) -> dict[str, Any]:
        """An invite ticket's first use: exchanged for the seat's own fresh token."""
        sha = digest(invite)
        for seat, sc in enumerate(self.conf.seats):
            if sc.invite_sha is not None and secrets.compare_digest(sc.invite_sha, sha):
                if self.status not in LIVE:
                    return {"error": "the game is over"}
                token = secrets.token_urlsafe(24)
                await self._commit("ticket", {"seat": seat, "token_sha": digest(token)})
                return {"error": None, "seat": seat, "token": token}
        why = self.taken_message_sha(sha)
        if why is not None:
            return {"error": why, "code": "seat_taken"}
        return {"error": "that invite is not valid at this table"}

    async def _prior(self, token: str) -> dict[str, Any]:
        """A rematch's seat opened by the token its holder had at the old table: exchanged
        once for the seat's own fresh token, and he sits down under his old name (or his
        account's)."""
        sha = digest(token)
        for seat, sc in enumerate(self.conf.seats):
            if sc.prior_sha is not None and secrets.compare_digest(sc.prior_sha, sha):
                if self.status not in LIVE:
                    return {"error": "the game is over"}
                name = sc.account_name or sc.prior_name or seat_name(seat, self.game.n)
                fresh = secrets.token_urlsafe(24)
                await self._commit("ticket", {"seat": seat, "token_sha": digest(fresh)})
                if self.names[seat] is None:
                    await self._commit("join", {"seat": seat, "name": name})
                    await self._advance_or_retry()
                return {"error": None, "seat": seat, "token": fresh}
        why = self.taken_message_sha(sha)
        if why is not None:
            return {"error": why, "code": "seat_taken"}
        return {"error": "that rematch link opens no seat at this table", "code": "seat_taken"}

    async def _bind(self, seat: int, account: str, name: str) -> str | None:
        """Bind a person's seat to an account (``accounts.bind``): the account may open it
        from any browser from now on."""
        if not 0 <= seat < self._n or self.conf.seats[seat].kind != "human":
            return f"seat {seat} is not a person's seat at this table"
        if self.status not in LIVE:
            return "the game is over"
        await self._commit("bind", {"seat": seat, "account": account, "name": name})
        return None

    async def _act(self, seat: int, action: Action) -> str | None:
        """A seat's action: ``None`` if accepted, else the one-line reason; a refusal changes
        nothing."""
        if self.status != "playing":
            return "the game is over" if self.status in FINAL else "the game has not started yet"
        try:
            self.game.verify(action, seat)
        except SpadesError as e:
            return e.text  # English, with its msgid and fields for the page
        await self._commit("act", {"seat": seat, "a": encode_action(action)})
        await self._advance_or_retry()
        notify_others(self.game, self.bots)  # bot seats only; built-in bots want no events
        return None

    async def _advance_or_retry(self) -> None:
        """The dealer chores after an accepted change. The change itself is written and
        stands; if the store refuses the chores (the next deal), the driver retries them."""
        try:
            await self._advance()
        except SeqTaken:
            raise
        except StoreError as e:
            log.error("table %s: %s; the driver will retry", self.id, e)
        self._wake.set()

    # ------------------------------------------------------------------ what seats ask for
    async def join(self, seat: int, name: str) -> str | None:
        out = await self.command("join", {"seat": seat, "name": name})
        return out.get("error")

    async def claim(self, seat: int, name: str) -> tuple[str | None, str | None]:
        out = await self.command("claim", {"seat": seat, "name": name})
        return out.get("token"), out.get("error")

    async def act(self, seat: int, action: Action) -> str | None:
        out = await self.command("act", {"seat": seat, "a": encode_action(action)})
        msg = out.get("msg")  # forwarded from another worker: the refusal's msgid and fields
        if isinstance(msg, dict) and out.get("error") is not None:
            text = from_json({"msgid": msg.get("msgid"), "fields": msg.get("fields")})
            if isinstance(text, Text):
                return text
        return out.get("error")

    async def redeem(self, invite: str) -> dict[str, Any]:
        return await self.command("redeem", {"invite": invite})

    async def redeem_prior(self, token: str) -> dict[str, Any]:
        return await self.command("prior", {"prior": token})

    async def bind(self, seat: int, account: str, name: str) -> str | None:
        out = await self.command("bind", {"seat": seat, "account": account, "name": name})
        return out.get("error")

    def seat_of_account(self, account: str) -> int | None:
        """The seat bound to the account, if any (it opens without a token)."""
        for seat, s in enumerate(self.conf.seats):
            if s.account is not None and s.account == account:
                return seat
        return None

    def anonymise(self, seat: int, name: str) -> None:
        """A deleted account's seat shows ``name`` from now on (the store was rewritten)."""
        sc = self.conf.seats[seat]
        if self.names[seat] is not None:
            self.names[seat] = name
        if sc.name is not None:
            sc.name = name
        sc.account_name = name if sc.account is not None else None
        self._changed()

    def seat_of_token(self, token: str) -> int | None:
        sha = digest(token)
        for seat, s in enumerate(self.conf.seats):
            if s.token_sha is not None and secrets.compare_digest(s.token_sha, sha):
                return seat
        return None

    def taken_message(self, token: str) -> str | None:
        """Why an invite ticket (or an old token) no longer opens its seat (``None`` if it
        never did)."""
        return self.taken_message_sha(digest(token))

    def taken_message_sha(self, sha: str) -> str | None:
        hit = self.superseded.get(sha)
        if hit is None:
            return None
        seat, how = hit
        where = seat_name(seat, self.game.n)
        if how == "claimed":
            return f"{where} was taken from the lobby by {self.names[seat]}: this invite link no longer works"
        return f"the invite link for {where} was already used: it opens the seat only once"

    async def hint(self, seat: int) -> dict[str, Any]:
        """The strongest bot's choice for the seat to move, from the seat's own observation
        (a hint knows no more than the player), worked out in the compute pool."""
        if not self.conf.hints:
            return {"type": "error", "message": "hints are turned off at this table"}
        g = self.game
        if self.status != "playing" or g.to_move != seat:
            return {"type": "error", "message": "a hint is given only on your turn"}
        version = self.clock.version
        try:
            d = await self._manager.decide(self.hint_level, g.observation(seat), g.legal_actions(seat))
        except SpadesError as e:
            return {"type": "error", "message": f"no hint this time: {e}"}
        if version != self.clock.version:
            return {"type": "error", "message": "the table moved on before the hint was ready"}
        return {
            "type": "hint",
            "action": encode_action(d.action),
            "why": str(d.why),
            **reply_fields(d.why, "why_"),
            "bot": self.hint_level,
        }

    # ------------------------------------------------------------------ table chat
    def chat_line(self, seat: int, quick: str | None, text: str | None) -> str:
        """A chat line as every connection gets it: who (seat and name), and the quick
        phrase's id or the free text, with an ``id`` by which a page that is sent the
        backlog again (a reconnect) knows the lines it already shows. Not written to the
        log: chat is of the moment."""
        return json.dumps(
            {
                "type": "chat",
                "id": secrets.token_hex(6),
                "seat": seat,
                "name": self.names[seat],
                "quick": quick,
                "text": text,
            },
            separators=(",", ":"),
        )

    def chat(self, seat: int, quick: str | None, text: str | None) -> None:
        """A seat's chat line to everyone at the table, on every worker (``manager.chat``)."""
        line = self.chat_line(seat, quick, text)
        if self.mgr is None:
            self.chat_out(line)
        else:
            self.mgr.chat(self, line)

    def chat_out(self, line: str) -> None:
        """Keep a chat line and hand it to this worker's connections (each worker does so
        for its own, so each keeps the same backlog)."""
        self.chat_log.append(line)
        for c in list(self.conns):
            if c.greeted and not c.closed:
                c.send(line)

    def chat_backlog(self) -> str:
        """The kept lines as one ``chat_log`` message (sent at hello, oldest first)."""
        lines = [json.loads(line) for line in self.chat_log]
        return json.dumps({"type": "chat_log", "lines": lines}, separators=(",", ":"))

    def merge_chat(self, lines: list[str]) -> None:
        """The owner's backlog, asked for by a replica loaded after those lines were said:
        the owner's lines in its order, then any heard here that it lacks (no line twice),
        sent to the connections already greeted (their pages merge by ``id``)."""
        theirs = {_chat_id(line) for line in lines}
        merged = lines + [line for line in self.chat_log if _chat_id(line) not in theirs]
        self.chat_log = deque(merged[-CHAT_KEEP:], maxlen=CHAT_KEEP)
        backlog = self.chat_backlog()
        for c in list(self.conns):
            if c.greeted and not c.closed:
                c.send(backlog)

    # ------------------------------------------------------------------ rematch
    def rematch_out(self, table: str, by: int) -> None:
        """A rematch was started from this table: keep it and tell this worker's connections
        (each worker does so for its own; the same news twice is sent once)."""
        if self.rematch == (table, by):
            return
        self.rematch = (table, by)
        self.send_rematch()

    def rematch_message(self) -> str | None:
        """``{"type": "rematch", "table", "by", "name"}`` (no secret in it), or ``None``."""
        if self.rematch is None:
            return None
        table, by = self.rematch
        name = self.names[by] if 0 <= by < len(self.names) else None
        return json.dumps({"type": "rematch", "table": table, "by": by, "name": name}, separators=(",", ":"))

    def send_rematch(self) -> None:
        text = self.rematch_message()
        if text is None:
            return
        for c in list(self.conns):
            if c.greeted and not c.closed:
                c.send(text)

    # ------------------------------------------------------------------ connections and presence
    def attach(self, conn: Conn) -> str | None:
        """Add a connection (greeted or not: both count against the table's limit)."""
        if conn in self.conns:
            return None
        if len(self.conns) >= MAX_CONNS_PER_TABLE:
            return f"this table already has {len(self.conns)} connections"
        self.conns.append(conn)
        return None

    def greet(self, conn: Conn) -> None:
        """A connection said hello: as a seat it counts for presence, and it gets its view."""
        conn.greeted = True
        if conn.seat is not None:
            self.presence_changed()
        if conn.history_sent != self.history_version():  # not already sent by presence_changed
            conn.history_sent = self.history_version()
            conn.send(self.message_for(conn.seat))
        if self.chat_log:
            conn.send(self.chat_backlog())
        rematch = self.rematch_message()
        if rematch is not None:
            conn.send(rematch)

    def detach(self, conn: Conn) -> None:
        if conn in self.conns:
            self.conns.remove(conn)
        if conn.seat is not None:
            self.presence_changed()

    def local_seats(self) -> frozenset[int]:
        return frozenset(c.seat for c in self.conns if c.seat is not None and c.greeted and not c.closed)

    def presence_changed(self) -> None:
        """Recompute who is connected (the owner), or tell the owner (a replica)."""
        if not self.owner:
            if self.mgr is not None:
                self.mgr.report_presence(self)
            return
        if self._recompute_presence():
            self._changed()
            if self.mgr is not None:
                self.mgr.publish_presence(self)

    def _recompute_presence(self) -> bool:
        now = time.monotonic()
        seats = set(self.local_seats())
        for wid, (theirs, expires) in list(self.remote.items()):
            if expires < now:
                del self.remote[wid]
                continue
            seats |= theirs
        changed = False
        for s, sc in enumerate(self.conf.seats):
            if sc.kind != "human":
                continue
            here = s in seats
            if here != self.present[s]:
                changed = True
                self.present[s] = here
                self.away_since[s] = None if here else now
        return changed

    def presence_json(self) -> dict[str, Any]:
        now = time.monotonic()
        return {
            "present": list(self.present),
            "away_for": [None if a is None else now - a for a in self.away_since],
        }

    def set_presence(self, data: dict[str, Any]) -> None:
        """A replica learns from the owner who is connected and who is away."""
        now = time.monotonic()
        present = [bool(p) for p in data["present"]]
        self.away_since = [None if a is None else now - float(a) for a in data["away_for"]]
        if present != self.present:
            self.present = present
            self._changed()

    def connected(self, seat: int) -> bool:
        return self.present[seat]

    def _changed(self) -> None:
        self._public = None
        self._public_text.clear()
        self._wake.set()
        hv = self.history_version()
        by_seat: dict[tuple[int | None, bool], str] = {}
        for c in list(self.conns):
            if c.closed or not c.greeted:
                continue
            key = (c.seat, c.history_sent != hv)
            text = by_seat.get(key)
            if text is None:
                text = by_seat[key] = self.message_for(c.seat, with_history=key[1])
            c.history_sent = hv
            c.send(text)

    def kick_seat(self, seat: int, message: str) -> None:
        """Connections on a seat whose token changed hands watch from now on."""
        why = json.dumps({"type": "error", "code": "seat_taken", "message": message})
        for c in self.conns:
            if c.seat == seat:
                c.send(why)
                c.seat = None

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
                    "connected": conf.kind == "bot" or self.present[s],
                    "standin": conf.kind == "human" and away is not None and now - away >= self.conf.away_s,
                }
            )
        log_ = g.logs[-1] if g.logs else None
        last_trick = g.tricks[-1] if g.tricks else None
        out: dict[str, Any] = {
            "id": self.id,
            "status": self.status,
            "why": self.why,
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
            "chat": self.conf.chat,
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
        """Nobody attached and unused for ``idle_s``, and either finished or a replica: the
        manager may unload it, as everything it knows is in the store."""
        return (
            (self.status in FINAL or not self.owner)
            and not self.conns
            and now - self.last_used >= idle_s
            and (self._task is None or self._task.done())
        )

    def history_version(self) -> int:
        return len(self.decks) * 1000 + len(self.game.scores)

    def full_public(self) -> dict[str, Any]:
        """The public view with the score sheet and the shuffle proofs (REST answers this).

        The deck's cards in the order a hand is sorted (``codec.deck_view``) are not here: a
        page asks ``POST /api/rules/check`` for them once, so no message to a seat lists cards
        it does not hold (the audit of ``tests/test_server_audit.py`` reads every card)."""
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
        return public_view(g)  # an allow-list of what anyone may see

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

    # ------------------------------------------------------------------ the driver task (owner)
    def start(self) -> None:
        """Start the driver (the owner only, and only while the game is live)."""
        if self.owner and (self._task is None or self._task.done()) and self.status in LIVE:
            self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{self.id}")
            self._task.add_done_callback(self._driver_done)

    async def stop(self, *, close_conns: bool = True) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        if close_conns:
            for c in self.conns:
                c.close()

    def _driver_done(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if exc is None or self.mgr is None:
            return
        # Never leave a table "playing" with nobody driving it: end it, with the reason.
        why = f"the table's driver failed: {type(exc).__name__}: {first_line(exc)}"
        log.error("table %s: %s", self.id, why, exc_info=exc)
        self.mgr.spawn(self._fail(why))

    async def _fail(self, why: str) -> None:
        async with self.lock:
            if not self.owner or self.status not in LIVE:
                return
            try:
                await self._end("failed", why)
            except StoreError as e:
                log.error("table %s: could not write its failure (%s)", self.id, e)
                self.status, self.why = "failed", why
        self._changed()

    def _auto_due(self) -> tuple[int, float] | None:
        """The seat a bot must play for now, and from when."""
        g = self.game
        seat = g.to_move
        if self.status != "playing" or seat is None:
            return None
        delay = self.conf.bot_delay_ms / 1000
        if seat in self.seat_bots:
            return seat, self.clock.changed_at + delay
        away = self.away_since[seat]
        if away is None:
            return None
        return seat, max(away + self.conf.away_s, self.clock.changed_at + delay)

    def _expiry(self) -> float | None:
        """When a table still waiting for people expires (wall clock), if it does."""
        ttl = self._manager.waiting_ttl
        if self.status != "waiting" or ttl is None:
            return None
        return self.created_at + ttl

    async def _drive(self) -> None:
        mgr = self._manager
        while self.owner and self.status in LIVE:
            self._wake.clear()
            try:
                did = False
                async with self.lock:
                    if not self.owner:
                        return
                    expires = self._expiry()
                    if expires is not None and time.time() >= expires:
                        await self._end("expired", f"nobody came within {mgr.waiting_ttl:g} s")
                        did = True
                    elif self._chores_pending():  # a deal the store refused earlier
                        await self._advance()
                        did = True
                if did:
                    self._changed()
            except SeqTaken:
                await mgr.lost(self)
                return
            except StoreError as e:
                log.error("table %s: %s; retrying in 1 s", self.id, e)
                await asyncio.sleep(1)
                continue
            if self.status not in LIVE:
                return
            due = self._auto_due()
            if due is None:
                expires = self._expiry()
                timeout = None if expires is None else max(0.05, expires - time.time())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout)
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
            except SeqTaken:
                await mgr.lost(self)
                return
            except StoreError as e:
                log.error("table %s: %s; retrying in 1 s", self.id, e)
                await asyncio.sleep(1)

    async def _auto_move(self, seat: int) -> None:
        """A bot's move (or the stand-in's for an away player) from the seat's observation.
        Slow bots think in the compute pool; if that fails, the stand-in plays this move."""
        level = self.seat_bots.get(seat, STANDIN_BOT)
        g = self.game
        legal = g.legal_actions(seat)
        obs = g.observation(seat)
        version = self.clock.version
        bot = self.bots.get(seat)
        if bot is None and level == STANDIN_BOT:
            if self._standin is None:
                self._standin = make_bot(STANDIN_BOT)
            bot = self._standin
        if bot is not None:
            action = bot.decide(obs, legal).action
        else:
            try:
                action = (await self._manager.decide(level, obs, legal)).action
            except SpadesError as e:
                log.warning("table %s: %s bot for seat %d: %s; the stand-in plays", self.id, level, seat, e)
                if self._standin is None:
                    self._standin = make_bot(STANDIN_BOT)
                action = self._standin.decide(obs, legal).action
        async with self.lock:
            if version != self.clock.version or not self.owner:
                return  # something happened meanwhile (a look, a reconnect): think again
            if await self._act(seat, action) is not None:
                await self._act(seat, legal[0])
        self._changed()


__all__ = ["CardSet", "Conn", "TableActor", "TableConf", "conf_from_request", "digest"]
