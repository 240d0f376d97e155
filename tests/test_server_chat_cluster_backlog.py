"""Chat kept across workers: lines said through the owner before a second worker ever loaded
the table reach a browser that then connects through that second worker (its replica asks
the owner for the backlog), in order and once each. Needs PostgreSQL and Redis, as
test_server_cluster."""

from __future__ import annotations

import asyncio
import json
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


def test_a_replica_loaded_later_sends_the_earlier_chat(workers: Any) -> None:
    a, b = workers(2)
    seats = [{"open": True, "name": "Ann"}, BOT, {"open": True, "name": "Bea"}, BOT]
    table = cluster.post(f"{a.url}/api/tables", {"seats": seats, "bot_delay_ms": 5000})
    tid, ann, bea = table["id"], table["seats"][0]["token"], table["seats"][2]["token"]

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        said = []
        async with connect(f"ws://127.0.0.1:{a.port}/ws/{tid}") as wa:
            await wa.send(json.dumps({"type": "hello", "token": ann}))
            await until_msg(wa, "state")
            for line in ({"quick": "hello"}, {"text": "ready?"}):
                await wa.send(json.dumps({"type": "chat", **line}))
                said.append(await until_msg(wa, "chat"))
            # Bea opens the table through worker b, which has never loaded it
            async with connect(f"ws://127.0.0.1:{b.port}/ws/{tid}") as wb:
                await wb.send(json.dumps({"type": "hello", "token": bea}))
                await until_msg(wb, "state")
                got: dict[str, dict[str, Any]] = {}
                while len(got) < len(said):  # at hello, or once the owner's backlog arrives
                    for m in (await until_msg(wb, "chat_log"))["lines"]:
                        got[m["id"]] = m
                return said, list(got.values())

    said, got = asyncio.run(run())
    assert got == said
