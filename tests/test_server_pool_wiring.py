"""The server hands slow work to its compute pool: expert seats, hints and replays never run
on the event loop. A recording pool stands in for the process pool (whose own behaviour is
tested in tests/test_server_compute.py), so this checks the wiring without compiling the
expert's kernels."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from tablewait import wait_for

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from spades.actions import Action
from spades.bots import Decision, make_bot
from spades.errors import SpadesError
from spades.observation import Observation
from spades.server.app import create_app


class RecordingPool:
    """Answers as the heuristic bot would, and notes who asked; fails when told to."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.replays = 0
        self.fail = False
        self.closed = False
        self._bot = make_bot("heuristic")

    async def decide(
        self, bot: str, obs: Observation, legal: Sequence[Action], *, timeout: float, seed: int | None = None
    ) -> Decision:
        self.asked.append(bot)
        if self.fail:
            raise SpadesError(f"bot {bot}: a compute process died; the pool was restarted")
        return self._bot.decide(obs, legal)

    async def replay_json(self, body: bytes, *, timeout: float) -> bytes:
        self.replays += 1
        return b'{"error": null, "from": "pool"}'

    async def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("fail", [False, True], ids=["pool-answers", "pool-fails"])
def test_expert_seats_think_in_the_pool_and_a_failing_pool_never_stops_the_table(
    tmp_path: Path, fail: bool
) -> None:
    pool = RecordingPool()
    pool.fail = fail
    with TestClient(create_app(f"sqlite:///{tmp_path / 'w.db'}", pool=pool, hint_level="expert")) as c:
        seats = [{"bot": "expert"}, {"bot": "heuristic"}, {"bot": "expert"}, {"bot": "heuristic"}]
        tid = c.post(
            "/api/tables", json={"rules": {"target": 100, "lose_at": -100}, "seats": seats, "bot_delay_ms": 0}
        ).json()["id"]
        view = wait_for(c, tid, lambda v: v["hand"] >= 2 or v["status"] != "playing")
        assert view["hand"] >= 2 or view["status"] == "over"
        # Only the expert seats asked the pool; the heuristic seats decided on the loop.
        assert pool.asked and set(pool.asked) == {"expert"}
        r = c.post("/api/replay", content=b"{}", headers={"content-type": "application/json"})
        assert r.json()["from"] == "pool" and pool.replays == 1
    assert pool.closed
