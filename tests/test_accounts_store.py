"""The account rows (migration 0004) on SQLite and on a real PostgreSQL, same code.

PostgreSQL comes from ``SPADES_TEST_PG_URL`` (``. scripts/services`` starts one); without it
those cases skip locally and fail on CI.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from pgstore import migrated_store
from spades.server.accountdb import ANONYMOUS, AccountDB, Rating, subject_of
from spades.server.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from migrated_store(request.param, tmp_path, "spades_acc_")


def test_accounts_and_sessions(store: Store) -> None:
    async def go() -> None:
        db = AccountDB(store)
        acc = await db.create_account("Ana", "ana", "$argon2id$fake")
        assert acc is not None
        assert await db.create_account("ANA", "ana", "$argon2id$other") is None  # name taken
        assert (await db.by_key("ana")) == acc
        t1, c1 = await db.new_session(acc.id, 3600)
        t2, _ = await db.new_session(acc.id, 3600)
        expired, _ = await db.new_session(acc.id, -1)
        s1 = await db.session(t1)
        assert s1 is not None and s1.account.id == acc.id and s1.csrf == c1
        assert await db.session(expired) is None
        assert await db.session("no such token") is None
        await db.end_session(s1.id_sha)
        assert await db.session(t1) is None and await db.session(t2) is not None
        assert await db.end_all_sessions(acc.id) == 2  # t2 and the expired one
        assert await db.session(t2) is None

    asyncio.run(go())


def test_login_failures_count_in_a_window(store: Store) -> None:
    async def go() -> None:
        db = AccountDB(store)
        keys = ["acct:ana", "addr:10.0.0.1"]
        for _ in range(3):
            await db.add_failure(keys, 60)
        await db.add_failure(["addr:10.0.0.1"], 60)
        assert await db.failures(keys, 60) == {"acct:ana": 3, "addr:10.0.0.1": 4}
        assert await db.failures(keys, 0) == {"acct:ana": 0, "addr:10.0.0.1": 0}
        await db.clear_failures("acct:ana")
        assert (await db.failures(keys, 60))["acct:ana"] == 0

    asyncio.run(go())


def test_a_game_is_rated_once_even_when_raced(store: Store) -> None:
    async def go() -> None:
        db = AccountDB(store)
        calls: list[dict[str, Rating]] = []

        def compute(current: dict[str, Rating]) -> dict[str, tuple[float, float]]:
            calls.append(current)
            return {"user:a": (27.0, 8.0), "bot:expert": (23.0, 8.0)}

        got = await asyncio.gather(
            *(db.rate("t1", "standard", '"standard"', ["user:a", "bot:expert"], compute) for _ in range(4))
        )
        assert sum(g is not None for g in got) == 1 and len(calls) == 1
        second = await db.rate(
            "t2", "standard", '"standard"', ["user:a"], lambda cur: {"user:a": (cur["user:a"].mu + 1, 7.0)}
        )
        assert second is not None and second["user:a"].mu == 28.0 and second["user:a"].games == 2
        board = await db.leaderboard("standard", 10)
        assert [r.subject for r, _name in board] == ["user:a", "bot:expert"]  # by mu - 3 sigma
        assert [h[1] for h in await db.history("user:a", "standard")] == [27.0, 28.0]
        assert await db.families() == [("standard", '"standard"', 2)]

    asyncio.run(go())


def test_delete_anonymises_config_log_and_lobby_line(store: Store) -> None:
    async def go() -> None:
        db = AccountDB(store)
        acc = await db.create_account("Vid", "vid", "$argon2id$fake")
        assert acc is not None
        await db.new_session(acc.id, 3600)
        config = {"seats": [{"kind": "human", "name": "Vid"}, {"kind": "bot", "name": "East (bot)"}]}
        store.create_table("t9", config)
        store.append("t9", 1, "join", {"seat": 0, "name": "Vid"})
        store.append("t9", 2, "bind", {"seat": 0, "account": acc.id, "name": "Vid"})
        store.append("t9", 3, "act", {"seat": 1, "a": "bid 3"})
        store.set_status(
            "t9", "playing", {"seats": [{"seat": 0, "name": "Vid"}, {"seat": 1, "name": "East"}]}
        )
        await db.bind_seat("t9", 0, acc.id)
        await db.rate(
            "t9", "standard", "{}", [subject_of(acc.id)], lambda cur: {subject_of(acc.id): (30.0, 7.0)}
        )
        assert [g[0] for g in await db.games_of(acc.id, 10)] == ["t9"]
        assert await db.delete_account(acc.id) == [("t9", 0)]
        t = store.load("t9")
        assert t is not None
        text = json.dumps([t.config, t.events, t.summary])
        assert "Vid" not in text and text.count(ANONYMOUS) == 4
        assert t.events[2] == (3, "act", {"seat": 1, "a": "bid 3"})  # the game itself is untouched
        assert await db.by_key("vid") is None and await db.count_sessions(acc.id) == 0
        assert await db.ratings_of(subject_of(acc.id)) == []

    asyncio.run(go())
