"""Whole games through the table actor, auditing every message for hidden cards.

Two people (driven by a seeded random agent through the same message path as a browser)
and two bots play full games; every message sent to a seat or a spectator is checked against
what the engine says that client may know at that moment. Blind Nil, the exchange and the
two-player draw are all exercised, since they are where a leak would hide.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from spades.actions import Bid, Draw, Look, PassCard, Play
from spades.cards import card_text
from spades.server.app import RateLimit, _Session
from spades.server.fairness import verify_record
from spades.server.manager import TableManager
from spades.server.schema import CreateTable, SeatSpec
from spades.server.store import Store
from spades.server.tables import Conn, TableActor
from spades.state import Game, Phase

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")


def visible_mask(game: Game, seat: int | None) -> int:
    """What the engine says ``seat`` may know: played cards, and for a seat its own hand
    (once looked), its exchange and, in the two-player draw, what it saw of the stock."""
    m = 0
    for t in game.tricks:
        for c in t.cards:
            m |= 1 << c
    for c in game.trick:
        m |= 1 << c
    if seat is None:
        return m
    if game.looked[seat] and game.phase is not Phase.DEAL:
        m |= game.hands[seat]
    for ex in game.exchanges:
        if seat in (ex.giver, ex.receiver):
            m |= ex.cards.mask
    if game.n == 2:
        m |= game.seen_discards[seat]
        if game.phase is Phase.DRAW and game.turn == seat:
            m |= 1 << game.stock[game.stock_pos]
    return m


class AuditConn(Conn):
    def __init__(self, actor: TableActor, seat: int | None) -> None:
        super().__init__()
        self.actor = actor
        self.seat = seat
        self.problems: list[str] = []
        self.count = 0
        self.last_error = ""

    def send(self, text: str) -> None:
        self.count += 1
        g = self.actor.game
        msg = json.loads(text)
        if msg.get("type") == "error":
            self.last_error = msg["message"]
        allowed = visible_mask(g, self.seat)
        done = len(g.scores)
        self._walk(msg, allowed, done, "")
        obs = msg.get("obs")
        if msg.get("type") == "state" and obs is not None and self.seat is not None:
            hand = obs.get("hand")
            if not g.looked[self.seat] and hand is not None:
                self.problems.append("a hand was shown before its owner looked")
            if hand is not None and sorted(hand) != sorted(
                card_text(c) for c in range(52) if g.hands[self.seat] >> c & 1
            ):
                self.problems.append("the hand shown is not the seat's hand")
        while not self.queue.empty():  # nobody drains the queue in this test
            self.queue.get_nowait()
        super().send(text)

    def _walk(self, node: Any, allowed: int, done: int, path: str) -> None:
        if isinstance(node, dict):
            if "deck" in node and "commit" in node:
                if node["hand"] > done:
                    self.problems.append(f"{path}: the deck of unfinished hand {node['hand']} was revealed")
                return  # a revealed deck of a finished hand is public
            for k, v in node.items():
                self._walk(v, allowed, done, f"{path}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                self._walk(v, allowed, done, f"{path}[{i}]")
        elif isinstance(node, str):
            for tok in node.replace(",", " ").replace(":", " ").split():
                if CARD.match(tok):
                    from spades.cards import parse_card

                    if not allowed >> parse_card(tok) & 1:
                        self.problems.append(f"seat {self.seat} saw {tok} at {path}")


def agent_message(game: Game, seat: int, rng: random.Random, blind_p: float) -> dict[str, Any] | None:
    """A random legal move for a person's seat, as the page would send it."""
    if game.phase is Phase.BID and game.bid[seat] < 0 and not game.looked[seat] and game.to_move != seat:
        return {"type": "look"} if rng.random() < 0.3 * (1 - blind_p) else None
    if game.to_move != seat:
        return None
    legal = game.legal_actions(seat)
    if game.phase is Phase.EXCHANGE:
        cards = rng.sample([a.card for a in legal if isinstance(a, PassCard)], game.rules.blind_nil_exchange)
        return {"type": "pass", "cards": [card_text(c) for c in cards]}
    blind = [a for a in legal if isinstance(a, Bid) and a.blind]
    if blind and rng.random() < blind_p:
        return {"type": "bid", "bid": "blind_nil"}
    a = rng.choice(legal)
    if isinstance(a, Look):
        return {"type": "look"}
    if isinstance(a, Bid):
        return {"type": "bid", "bid": "blind_nil" if a.blind else "nil" if a.tricks == 0 else a.tricks}
    if isinstance(a, Play):
        return {"type": "play", "card": card_text(a.card)}
    if isinstance(a, Draw):
        return {"type": "draw", "keep": a.keep}
    raise AssertionError(a)


async def play_audited(
    tmp_path: Path,
    rules: dict[str, Any],
    humans: list[int],
    seed: int,
    blind_p: float | dict[int, float] = 0.2,
) -> TableActor:
    store = Store(f"sqlite:///{tmp_path / 'audit.db'}")
    store.migrate()
    mgr = TableManager(store, hint_level="heuristic")
    await mgr.open()
    n = 2 if rules.get("preset") == "two_player" else 4
    seats = [SeatSpec(open=True, name=f"P{s}") if s in humans else SeatSpec(bot="random") for s in range(n)]
    actor, secret = await mgr.create(CreateTable(rules=rules, seats=seats, bot_delay_ms=0))
    # The creator named every person's seat: he gets their tokens, and nothing else.
    assert secret == {s: ("token", secret[s][1]) for s in humans}
    conns = {s: AuditConn(actor, s) for s in humans}
    watcher = AuditConn(actor, None)
    sessions: dict[int, _Session] = {}
    for s, c in conns.items():
        c.seat = None  # the hello, not the test, puts the connection on its seat
        assert actor.attach(c) is None
        sess = _Session(actor, c)
        sess.limit = RateLimit(1e9, 1e9)
        assert await sess.receive(json.dumps({"type": "hello", "token": secret[s][1]}))
        assert c.seat == s and sess.refused == 0
        sessions[s] = sess
    assert actor.attach(watcher) is None
    watch = _Session(actor, watcher)
    assert await watch.receive('{"type": "hello"}')
    rng = random.Random(seed)
    end = time.monotonic() + 120
    while actor.status != "over" and time.monotonic() < end:
        for s in humans:
            p = blind_p.get(s, 0.0) if isinstance(blind_p, dict) else blind_p
            msg = agent_message(actor.game, s, rng, p)
            if msg is not None:
                await sessions[s].receive(json.dumps(msg))
                assert sessions[s].refused == 0, f"a legal move was refused: {msg}: {conns[s].last_error}"
        await asyncio.sleep(0.001)  # the bots' writes go through the store's writer thread
    assert actor.status == "over", (actor.game, actor.game.phase, actor.game.to_move, actor.status)
    assert len(actor.game.scores) >= 1
    for c in [*conns.values(), watcher]:
        assert c.count > 20
        assert c.problems == [], c.problems[:5]
    await mgr.stop()
    store.close()
    return actor


@pytest.mark.parametrize("seed", [1, 2])
async def test_full_team_game_leaks_no_card(tmp_path: Path, seed: int) -> None:
    actor = await play_audited(tmp_path, {"preset": "standard", "target": 200, "lose_at": -400}, [0, 1], seed)
    rec = actor.record()
    _, checks = verify_record(rec)
    assert checks and all(c.ok for c in checks)
    assert len(rec["hands"]) == len(actor.game.scores)


async def test_full_two_player_game_leaks_no_card(tmp_path: Path) -> None:
    await play_audited(tmp_path, {"preset": "two_player", "target": 150, "lose_at": -200}, [0], 3)


async def test_blind_nil_exchange_happens_and_is_audited(tmp_path: Path) -> None:
    # North and West always bid Blind Nil, their partners never do: both exchanges must run,
    # unseen by the other team and by the spectator.
    rules = {"preset": "standard", "target": 100, "lose_at": -100}
    actor = await play_audited(tmp_path, rules, [0, 1, 2, 3], 7, blind_p={0: 1.0, 3: 1.0})
    assert len(actor.game.logs[0].exchanges) == 4


async def test_the_audit_catches_a_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Mutation check: a spectator view whose allow-list lets seat 0's hand through must be caught.
    import spades.observation as observation

    monkeypatch.setattr(observation, "PUBLIC_FIELDS", (*observation.PUBLIC_FIELDS, "hand"))
    with pytest.raises(AssertionError, match="saw"):
        await play_audited(tmp_path, {"preset": "standard", "target": 100, "lose_at": -100}, [0], 5, 0.0)
