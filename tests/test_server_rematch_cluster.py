"""A rematch across workers: Bea watches the finished table through worker b (a replica); Ann
(through worker a) and Bea (through b) press Rematch at once, and the old table's log lets
only one rematch be: both get the same new table, Bea hears of it through b, and whoever did
not start it opens his own new seat with the token he held at the old table. Needs PostgreSQL
and Redis, as test_server_cluster."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

pytest.importorskip("redis")
pytest.importorskip("websockets")
from websockets.asyncio.client import connect

import test_server_cluster as cluster
from wsmsg import until_msg

db_url = cluster.db_url  # the fixtures: a fresh PostgreSQL database, and the workers on it
workers = cluster.workers

BOT = {"bot": "heuristic"}


def test_the_rematch_news_reaches_a_replica_and_opens_the_seat_there(workers: Any) -> None:
    a, b = workers(2)
    seats = [{"open": True, "name": "Ann"}, BOT, {"open": True, "name": "Bea"}, BOT]
    body = {"rules": {"target": 100}, "seats": seats, "bot_delay_ms": 0, "away_s": 1}
    table = cluster.post(f"{a.url}/api/tables", body)
    old, ann, bea = table["id"], table["seats"][0]["token"], table["seats"][2]["token"]
    end = time.monotonic() + 120
    while cluster.get(f"{a.url}/api/tables/{old}")["status"] != "over" and time.monotonic() < end:
        time.sleep(0.2)

    async def run() -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
        async with connect(f"ws://127.0.0.1:{b.port}/ws/{old}") as wb:
            await wb.send(json.dumps({"type": "hello", "token": bea}))
            await until_msg(wb, "state", "error")
            await asyncio.sleep(0.5)  # the replica's subscriptions settle
            # Ann and Bea press Rematch at once, through the two workers: one rematch
            outs = await asyncio.gather(
                asyncio.to_thread(cluster.post, f"{a.url}/api/tables/{old}/rematch", {"token": ann}),
                asyncio.to_thread(cluster.post, f"{b.url}/api/tables/{old}/rematch", {"token": bea}),
            )
            news = await until_msg(wb, "rematch", "error")
        other = ann if news["by"] == 2 else bea  # the one who did not start it opens with prior
        async with connect(f"ws://127.0.0.1:{b.port}/ws/{news['table']}") as wn:
            await wn.send(json.dumps({"type": "hello", "prior": other}))
            seat = await until_msg(wn, "seat", "error")
            return list(outs), news, seat

    outs, news, seat = asyncio.run(run())
    assert outs[0]["id"] == outs[1]["id"] == news["table"]
    assert sorted(o["created"] for o in outs) == [False, True]
    assert news["by"] in (0, 2) and news["name"] == ("Ann" if news["by"] == 0 else "Bea")
    assert seat["type"] == "seat" and seat["seat"] == 2 - news["by"]
    view = cluster.get(f"{a.url}/api/tables/{news['table']}")
    end = time.monotonic() + 10
    while None in view["players"][:3:2] and time.monotonic() < end:
        time.sleep(0.1)
        view = cluster.get(f"{a.url}/api/tables/{news['table']}")
    assert view["players"][:3:2] == ["Ann", "Bea"]
