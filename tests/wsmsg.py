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


def own_part(st: dict[str, Any]) -> tuple[Any, ...]:
    """What a state says of the receiving seat's own part: looked, bid, hand. A state sent
    before the seat's last action reached the table (a bot's bid while the seat looks at its
    cards) still offers that action; a test that acts only once this has moved since its last
    action never sends one twice."""
    obs = st["obs"]
    return (obs["looked"], obs["bids"][st["you"]], tuple(obs["hand"] or ()))


def first_choice(st: dict[str, Any]) -> dict[str, Any] | None:
    """The first action a state offers its seat (look, the second bid, the first cards to
    pass, the first card), as a websocket message; None when it offers nothing."""
    can = st["can"]
    if can["look"]:
        return {"type": "look"}
    if can["bids"]:
        return {"type": "bid", "bid": can["bids"][1]}
    if can["pass"]:
        return {"type": "pass", "cards": st["obs"]["hand"][: can["pass"]]}
    if can["cards"]:
        return {"type": "play", "card": can["cards"][0]}
    return None
