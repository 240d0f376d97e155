"""Fuzzing the websocket message handler: whatever arrives, nothing crashes, and a refused
message changes nothing (the engine's history and the store's log stay as they were)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades.server.app import RateLimit, _Session
from spades.server.manager import TableManager
from spades.server.schema import CreateTable, SeatSpec
from spades.server.store import Store
from spades.server.tables import Conn, TableActor

CARDS = [r + s for r in "23456789TJQKA" for s in "SHDC"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.sampled_from(CARDS) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
messages = st.one_of(
    st.text(max_size=60),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["look", "bid", "pass", "play", "draw", "hint", "join", "hello", "x"])},
        optional={
            "bid": json_values,
            "card": json_values,
            "cards": json_values,
            "keep": json_values,
            "name": json_values,
            "token": json_values,
            "invite": json_values,
            "extra": json_values,
        },
    ).map(json.dumps),
)


_STORES: dict[Path, Store] = {}


async def make_table(tmp_path: Path) -> tuple[Store, TableActor, _Session, Conn]:
    store = _STORES.get(tmp_path)
    if store is None:  # one database for all examples: migrating costs more than a table
        store = _STORES[tmp_path] = Store(f"sqlite:///{tmp_path / 'fuzz.db'}")
        store.migrate()
    mgr = TableManager(store, hint_level="heuristic")
    seats = [SeatSpec(open=True, name="Ann"), SeatSpec(open=True)] + [SeatSpec(bot="random")] * 2
    actor, secret = await mgr.create(CreateTable(seats=seats, bot_delay_ms=0, hints=False))
    await mgr.stop()  # no driver: only our messages may change the table
    conn = Conn()
    assert actor.attach(conn) is None
    sess = _Session(actor, conn)
    sess.limit = RateLimit(1e9, 1e9)
    assert await sess.receive(json.dumps({"type": "hello", "token": secret[0][1]}))
    assert conn.seat == 0 and secret[1][0] == "invite"
    return store, actor, sess, conn


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(messages, min_size=1, max_size=8))
def test_no_message_crashes_the_server_or_changes_state_when_refused(
    tmp_path: Path, batch: list[str]
) -> None:
    asyncio.run(check_batch(tmp_path, batch))


async def check_batch(tmp_path: Path, batch: list[str]) -> None:
    store, actor, sess, conn = await make_table(tmp_path)
    for text in batch:
        before = (len(actor.game.history), actor.seq)
        refused_before = sess.refused
        await sess.receive(text)
        after = (len(actor.game.history), actor.seq)
        if sess.refused > refused_before:
            assert after == before, text
        else:
            # Accepted: one event logged per change, and the log replays to the same game.
            assert after[1] - before[1] == after[0] - before[0]
    stored = await store.aread(store.load, actor.id)
    assert stored is not None
    again = TableActor.restore(stored, store, "heuristic")
    assert again.game.history == actor.game.history
    while not conn.queue.empty():
        msg: Any = conn.queue.get_nowait()
        if msg is not None:
            assert json.loads(msg)["type"] in ("state", "error", "pong")


@given(
    bid=st.one_of(
        st.booleans(),
        st.integers(0, 13).map(str),
        st.floats(0, 13),
        st.just("4 "),
        st.just(None),
    )
)
@settings(max_examples=30, deadline=None)
def test_a_bid_of_the_wrong_type_is_malformed_not_read_as_a_number(bid: object) -> None:
    """Strict messages: ``true`` is not 1 and ``"3"`` is not 3 (pydantic's lax mode read them so)."""
    from pydantic import ValidationError

    from spades.server.schema import client_message

    try:
        client_message.validate_json(json.dumps({"type": "bid", "bid": bid}))
    except ValidationError:
        return
    raise AssertionError(f"bid {bid!r} was accepted")
