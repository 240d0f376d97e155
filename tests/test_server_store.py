"""The event store against SQLite and against a real PostgreSQL (same schema, same code).

PostgreSQL comes from ``SPADES_TEST_PG_URL`` (``.ci/run`` starts one); without it the
PostgreSQL cases skip locally, and fail on CI, where the variable must be set.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from pgstore import migrated_store
from spades.server.manager import TableManager
from spades.server.schema import CreateTable, SeatSpec
from spades.server.store import SeqTaken, Store, StoreError
from spades.server.tables import TableActor


async def until(pred: Callable[[], bool], timeout: float = 60) -> None:
    """Let the tables' drivers run until ``pred`` holds (their writes go through the store's
    writer thread, so the loop must really wait, not only yield)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred() and loop.time() < end:
        await asyncio.sleep(0.005)


async def opened(store: Store) -> TableManager:
    mgr = TableManager(store, hint_level="heuristic")
    await mgr.open()
    return mgr


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from migrated_store(request.param, tmp_path, "spades_test_")


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
    with pytest.raises(SeqTaken, match=r"^table t2: event 1 was already written$"):
        store.append("t2", 1, "join", {})
    # The writer goes on after the refusal.
    store.append("t2", 2, "join", {"seat": 1})
    got = store.load("t2")
    assert got is not None and [e[0] for e in got.events] == [1, 2]


def test_appends_queued_together_commit_together_and_a_duplicate_fails_alone(store: Store) -> None:
    """Group commit: many tables' appends in flight at once all land, in order per table, and
    the one that repeats an event number gets ``SeqTaken`` without failing its neighbours."""
    tables = [f"g{i}" for i in range(8)]

    async def burst() -> list[BaseException | None]:
        for tid in tables:
            await store.acreate_table(tid, {"n": tid})
        jobs = [store.aappend(tid, seq, "act", {"seq": seq}) for seq in range(1, 21) for tid in tables]
        jobs.append(store.aappend("g3", 5, "act", {"again": True}))
        return list(await asyncio.gather(*jobs, return_exceptions=True))

    out = asyncio.run(burst())
    failed = [e for e in out if e is not None]
    assert len(failed) == 1 and isinstance(failed[0], SeqTaken) and "event 5" in str(failed[0])
    for tid in tables:
        got = store.load(tid)
        assert got is not None and [d["seq"] for _, _, d in got.events] == list(range(1, 21))


def test_a_whole_game_is_rebuilt_from_the_store(store: Store) -> None:
    async def play() -> TableActor:
        mgr = await opened(store)
        actor, secrets_ = await mgr.create(
            CreateTable(
                rules={"target": 100, "lose_at": -100}, seats=[SeatSpec(bot="heuristic")] * 4, bot_delay_ms=0
            )
        )
        assert secrets_ == {}
        await until(lambda: actor.status == "over")
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
        mgr = await opened(store)
        good, _ = await mgr.create(CreateTable(seats=[SeatSpec(open=True)] + [SeatSpec(bot="random")] * 3))
        bad, _ = await mgr.create(
            CreateTable(seats=[SeatSpec(open=True, name="A")] + [SeatSpec(bot="random")] * 3)
        )
        await mgr.stop()
        await store.aappend(bad.id, bad.seq + 1, "act", {"seat": 0, "a": "play ZZ"})
        return good.id, bad.id

    good, bad = asyncio.run(make())
    mgr = TableManager(store, hint_level="heuristic")
    assert mgr.load_all() == 1
    assert good in mgr.tables
    assert bad not in mgr.tables


def test_a_refused_deal_is_retried_and_the_action_before_it_stands(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_append = store.aappend
    refused: list[int] = []

    async def flaky(table_id: str, seq: int, kind: str, data: dict[str, object]) -> None:
        if kind == "deal" and seq > 10 and not refused:
            refused.append(seq)
            raise StoreError("the database refused a write: disk full (simulated)")
        await real_append(table_id, seq, kind, data)

    monkeypatch.setattr(store, "aappend", flaky)

    async def play() -> TableActor:
        mgr = await opened(store)
        actor, _ = await mgr.create(
            CreateTable(rules={"target": 1000}, seats=[SeatSpec(bot="heuristic")] * 4, bot_delay_ms=0)
        )
        await until(lambda: actor.game.hand_number >= 2 and bool(actor.game.logs[-1].plays))
        await mgr.stop()
        return actor

    actor = asyncio.run(play())
    assert refused, "the simulated failure never happened"
    assert actor.game.hand_number >= 2 and len(actor.game.scores) >= 1
    stored = store.load(actor.id)
    assert stored is not None
    again = TableActor.restore(stored, store, "heuristic")
    # Stopping may cancel a bot's move between its write and its apply: the log (the truth)
    # then holds that one move more than the stopped table did.
    assert again.game.history[: len(actor.game.history)] == actor.game.history
    assert len(again.game.history) - len(actor.game.history) in (0, 1)


def test_every_state_sent_is_already_in_the_store(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Write-ahead: no client ever sees a change the store has not committed."""
    from spades.server.tables import Conn

    committed: set[int] = {0}
    real_append = store.aappend

    async def tracking(table_id: str, seq: int, kind: str, data: dict[str, object]) -> None:
        await real_append(table_id, seq, kind, data)
        committed.add(seq)

    monkeypatch.setattr(store, "aappend", tracking)
    early: list[int] = []
    sent: list[int] = []

    class Watch(Conn):
        def send(self, text: str) -> None:
            seq = json.loads(text).get("seq")
            if seq is not None:
                sent.append(seq)
            if seq is not None and seq not in committed:
                early.append(seq)
            super().send(text)
            while not self.queue.empty():
                self.queue.get_nowait()

    async def play() -> int:
        mgr = await opened(store)
        actor, _ = await mgr.create(
            CreateTable(rules={"target": 100}, seats=[SeatSpec(bot="heuristic")] * 4, bot_delay_ms=0)
        )
        watcher = Watch()
        assert actor.attach(watcher) is None
        actor.greet(watcher)
        await until(lambda: actor.status == "over")
        await mgr.stop()
        return actor.seq

    last = asyncio.run(play())
    assert last > 50
    assert early == []
    assert sent, "the watcher was sent nothing"


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
