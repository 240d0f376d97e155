"""A forwarded command runs once on the owner, however often its sender asks again.

The sender re-publishes a request it got no answer to (the owner was slow, or a message was
lost); the owner must answer the repeat with the first run's answer: running a ``redeem`` or
a ``join`` twice would refuse the player his own seat."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from spades.server.cluster import Membership


class FakeBus:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def publish(self, channel: str, message: str) -> int:
        self.sent.append((channel, json.loads(message)))
        return 1


class SlowActor:
    """Takes a while to run a command and counts how often it ran."""

    def __init__(self) -> None:
        self.runs = 0

    async def execute(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        self.runs += 1
        await asyncio.sleep(0.05)
        return {"error": None, "token": f"t{self.runs}"}


def test_a_repeated_request_is_answered_from_the_first_run() -> None:
    async def go() -> tuple[SlowActor, FakeBus]:
        m = Membership.__new__(Membership)
        m._served = {}
        bus = FakeBus()
        m.bus = bus  # type: ignore[assignment]
        actor = SlowActor()
        msg = {"op": "redeem", "args": {"invite": "x" * 12}, "rid": 7, "from": "w1"}
        # The repeat arrives while the first run is still going, and once more after it ended.
        await asyncio.gather(m._serve(actor, msg), m._serve(actor, msg))  # type: ignore[arg-type]
        await m._serve(actor, msg)  # type: ignore[arg-type]
        other = {**msg, "rid": 8}
        await m._serve(actor, other)  # type: ignore[arg-type]
        return actor, bus

    actor, bus = asyncio.run(go())
    assert actor.runs == 2  # rid 7 once, rid 8 once
    answers = [m for ch, m in bus.sent if m["rid"] == 7]
    assert len(answers) == 3 and all(a["out"] == {"error": None, "token": "t1"} for a in answers)
    assert all(ch == "w:w1" for ch, _ in bus.sent)
