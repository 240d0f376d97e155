"""The event store against SQLite and against a real PostgreSQL (same schema, same code).

PostgreSQL comes from ``SPADES_TEST_PG_URL`` (``.ci/run`` starts one); without it the
PostgreSQL cases skip locally, and fail on CI, where the variable must be set.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from spades.server.schema import CreateTable, SeatSpec
from spades.server.store import Store, StoreError
from spades.server.tables import TableActor, TableManager

PG_URL = os.environ.get("SPADES_TEST_PG_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'store.db'}")
        s.migrate()
        yield s
        s.close()
        return
    if not PG_URL:
        if os.environ.get("CI"):
            pytest.fail("SPADES_TEST_PG_URL must be set on CI (.ci/run starts PostgreSQL)")
        pytest.skip("no PostgreSQL: set SPADES_TEST_PG_URL")
    # A fresh database per test, so parallel workers never share a schema.
    from sqlalchemy import create_engine, text

    from spades.server.store import normalise_url

    name = "spades_test_" + secrets.token_hex(6)
    admin = create_engine(normalise_url(PG_URL), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    base = PG_URL.rsplit("/", 1)[0]
    s = Store(f"{base}/{name}")
    s.migrate()
    yield s
    s.close()
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE {name}"))
    admin.dispose()


def test_migrations_are_idempotent_and_events_round_trip(store: Store) -> None:
    store.migrate()  # a second run finds the schema current
    store.create_table("t1", {"rules": "x"})
    for seq in range(1, 6):
        store.append("t1", seq, "act", {"seat": seq % 4, "a": f"bid {seq}"})
    store.set_status("t1", "playing")
    got = store.load("t1")
    assert got is not None
    assert got.status == "playing" and got.config == {"rules": "x"}
    assert [e[0] for e in got.events] == [1, 2, 3, 4, 5]
    assert got.events[2] == (3, "act", {"seat": 3, "a": "bid 3"})
    assert store.load("nope") is None
    assert store.table_ids("playing") == ["t1"]


def test_an_event_is_never_written_twice(store: Store) -> None:
    store.create_table("t2", {})
    store.append("t2", 1, "join", {})
    with pytest.raises(StoreError, match="refused a write"):
        store.append("t2", 1, "join", {})


def test_a_whole_game_is_rebuilt_from_the_store(store: Store) -> None:
    async def play() -> TableActor:
        mgr = TableManager(store, hint_level="heuristic")
        actor = mgr.create(
            CreateTable(
                rules={"target": 100, "lose_at": -100}, seats=[SeatSpec(bot="heuristic")] * 4, bot_delay_ms=0
            )
        )
        for _ in range(100_000):
            if actor.status == "over":
                break
            await asyncio.sleep(0)
        await mgr.stop()
        return actor

    actor = asyncio.run(play())
    assert actor.status == "over"
    stored = store.load(actor.id)
    assert stored is not None and stored.status == "over"
    again = TableActor.restore(stored, store, "heuristic")
    assert again.record() == actor.record()
    assert again.game.totals == actor.game.totals


def test_bad_urls_are_one_line_errors() -> None:
    with pytest.raises(StoreError, match="not valid"):
        Store("::nonsense::")


def test_a_table_whose_log_no_longer_replays_is_skipped(store: Store) -> None:
    async def make() -> tuple[str, str]:
        mgr = TableManager(store, hint_level="heuristic")
        good = mgr.create(CreateTable(seats=[SeatSpec(open=True)] + [SeatSpec(bot="random")] * 3))
        bad = mgr.create(CreateTable(seats=[SeatSpec(open=True, name="A")] + [SeatSpec(bot="random")] * 3))
        await mgr.stop()
        store.append(bad.id, bad.seq + 1, "act", {"seat": 0, "a": "play ZZ"})
        return good.id, bad.id

    good, bad = asyncio.run(make())
    mgr = TableManager(store, hint_level="heuristic")
    mgr.load_all()
    assert mgr.get(good) is not None
    assert mgr.get(bad) is None


def test_a_refused_deal_is_retried_and_the_action_before_it_stands(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_append = store.append
    refused: list[int] = []

    def flaky(table_id: str, seq: int, kind: str, data: dict[str, object]) -> None:
        if kind == "deal" and seq > 10 and not refused:
            refused.append(seq)
            raise StoreError("the database refused a write: disk full (simulated)")
        real_append(table_id, seq, kind, data)

    monkeypatch.setattr(store, "append", flaky)

    async def play() -> TableActor:
        mgr = TableManager(store, hint_level="heuristic")
        actor = mgr.create(
            CreateTable(rules={"target": 1000}, seats=[SeatSpec(bot="heuristic")] * 4, bot_delay_ms=0)
        )
        for _ in range(100_000):
            if actor.game.hand_number >= 2 and actor.game.logs[-1].plays:
                break
            await asyncio.sleep(0)
        await mgr.stop()
        return actor

    actor = asyncio.run(play())
    assert refused, "the simulated failure never happened"
    assert actor.game.hand_number >= 2 and len(actor.game.scores) >= 1
    stored = store.load(actor.id)
    assert stored is not None
    again = TableActor.restore(stored, store, "heuristic")
    assert again.game.history == actor.game.history


def test_every_state_sent_is_already_in_the_store(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Write-ahead: no client ever sees a change the store has not committed."""
    from spades.server.tables import Conn

    committed: set[int] = {0}
    real_append = store.append

    def tracking(table_id: str, seq: int, kind: str, data: dict[str, object]) -> None:
        real_append(table_id, seq, kind, data)
        committed.add(seq)

    monkeypatch.setattr(store, "append", tracking)
    early: list[int] = []

    class Watch(Conn):
        def send(self, text: str) -> None:
            seq = json.loads(text).get("seq")
            if seq is not None and seq not in committed:
                early.append(seq)
            super().send(text)
            while not self.queue.empty():
                self.queue.get_nowait()

    async def play() -> int:
        mgr = TableManager(store, hint_level="heuristic")
        actor = mgr.create(
            CreateTable(rules={"target": 100}, seats=[SeatSpec(bot="heuristic")] * 4, bot_delay_ms=0)
        )
        watcher = Watch()
        actor.attach(watcher)
        for _ in range(100_000):
            if actor.status == "over":
                break
            await asyncio.sleep(0)
        await mgr.stop()
        return actor.seq

    last = asyncio.run(play())
    assert last > 50
    assert early == []


def test_a_finished_table_keeps_its_lobby_line_and_listings_read_it_newest_first(store: Store) -> None:
    for tid in ("old", "mid", "new"):
        store.create_table(tid, {})
    store.set_status("old", "over", {"id": "old", "totals": [1, 2]})
    store.set_status("mid", "playing")
    store.set_status("new", "over", {"id": "new", "totals": [3, 4]})
    assert [(t, line) for t, _, line in store.finished(10)] == [
        ("new", {"id": "new", "totals": [3, 4]}),
        ("old", {"id": "old", "totals": [1, 2]}),
    ]
    assert [t for t, _, _ in store.finished(1)] == ["new"]
    assert store.table_ids(exclude_over=True) == ["mid"]
    loaded = store.load("old")
    assert loaded is not None and loaded.summary == {"id": "old", "totals": [1, 2]}
    assert [t.id for t in store.load_all(exclude_over=True)] == ["mid"]
