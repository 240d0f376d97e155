"""Table chat across workers: two people at one table, connected to two ``spades serve``
workers (one owns the table, the other is a replica), each hear every chat line exactly once,
whichever worker it was sent through. Needs PostgreSQL and Redis, as test_server_cluster."""

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


async def _chats(ws: Any, quiet: float) -> list[dict[str, Any]]:
    """Every chat line that arrives until ``quiet`` seconds pass without one."""
    out: list[dict[str, Any]] = []
    while True:
        try:
            msg = json.loads(await asyncio.wait_for(ws.recv(), quiet))
        except TimeoutError:
            return out
        if msg["type"] == "chat":
            out.append(msg)


def test_chat_reaches_both_workers_once(workers: Any) -> None:
    a, b = workers(2)
    seats = [{"open": True, "name": "Ann"}, BOT, {"open": True, "name": "Bea"}, BOT]
    table = cluster.post(f"{a.url}/api/tables", {"seats": seats, "bot_delay_ms": 5000})
    tid, ann, bea = table["id"], table["seats"][0]["token"], table["seats"][2]["token"]

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with (
            connect(f"ws://127.0.0.1:{a.port}/ws/{tid}") as wa,
            connect(f"ws://127.0.0.1:{b.port}/ws/{tid}") as wb,
        ):
            await wa.send(json.dumps({"type": "hello", "token": ann}))
            await wb.send(json.dumps({"type": "hello", "token": bea}))
            await until_msg(wa, "state")
            await until_msg(wb, "state")
            await asyncio.sleep(0.5)  # the replica's subscriptions settle
            await wb.send(json.dumps({"type": "chat", "quick": "good_luck"}))
            await asyncio.sleep(0.3)
            await wa.send(json.dumps({"type": "chat", "text": "thanks, you too"}))
            return await _chats(wa, 3), await _chats(wb, 1)

    at_a, at_b = asyncio.run(run())
    for got in (at_a, at_b):
        lines = [(m["name"], m["quick"], m["text"]) for m in got]
        assert lines == [("Bea", "good_luck", None), ("Ann", None, "thanks, you too")], lines
