"""Reading a table's websocket in the server tests: skip to the next message of a kind (the
table sends states, presence and chat as they come, in an order a test should not depend on).
One copy for the chat, rematch and cluster tests."""

from __future__ import annotations

import asyncio
import json
from typing import Any


def next_msg(ws: Any, *kinds: str) -> dict[str, Any]:
    """The next message whose type is one of ``kinds`` (Starlette's test websocket)."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] in kinds:
            return msg


async def until_msg(ws: Any, *kinds: str, limit: float = 20) -> dict[str, Any]:
    """The next message whose type is one of ``kinds`` (a real websocket client), each wait at
    most ``limit`` seconds."""
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), limit))
        if msg["type"] in kinds:
            return msg
