"""Table chat: a seat's quick phrase (an id) or free text reaches everyone at the table; text
is cleaned of control characters but sent as text (the page never parses it as HTML); floods
are refused; the creator can turn chat off; spectators cannot chat; a phrase not in the list
is refused by the schema."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from spades.server.app import CHAT_BURST, create_app
from wsmsg import next_msg

BOT = {"bot": "heuristic"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'chat.db'}")) as c:
        yield c


def _table(client: TestClient, **extra: Any) -> tuple[str, str, str]:
    seats = [{"open": True, "name": "Ann"}, BOT, {"open": True, "name": "Bea"}, BOT]
    r = client.post("/api/tables", json={"seats": seats, "bot_delay_ms": 5000, **extra})
    assert r.status_code == 200, r.text
    body = r.json()
    return body["id"], body["seats"][0]["token"], body["seats"][2]["token"]


def test_a_quick_phrase_and_a_text_reach_the_other_seat_and_spectators(client: TestClient) -> None:
    tid, ann, bea = _table(client)
    assert client.get("/api/info").json()["chat"] is True
    with (
        client.websocket_connect(f"/ws/{tid}") as a,
        client.websocket_connect(f"/ws/{tid}") as b,
        client.websocket_connect(f"/ws/{tid}") as watcher,
    ):
        a.send_json({"type": "hello", "token": ann})
        assert next_msg(a, "state")["table"]["chat"] is True
        b.send_json({"type": "hello", "token": bea})
        next_msg(b, "state")
        watcher.send_json({"type": "hello"})
        next_msg(watcher, "state")
        a.send_json({"type": "chat", "quick": "good_luck"})
        for ws in (a, b, watcher):
            got = next_msg(ws, "chat")
            assert (got["seat"], got["name"], got["quick"], got["text"]) == (0, "Ann", "good_luck", None)
        b.send_json({"type": "chat", "text": "  <b>nice</b>\x07  hand\n "})
        got = next_msg(a, "chat")
        assert (got["seat"], got["text"], got["quick"]) == (2, "<b>nice</b> hand", None)
        watcher.send_json({"type": "chat", "text": "hi"})
        assert "spectators cannot act" in next_msg(watcher, "error")["message"]
        for bad in (
            {"type": "chat", "quick": "insult"},
            {"type": "chat", "text": "x" * 201},
            {"type": "chat"},
        ):
            a.send_json(bad)
            assert next_msg(a, "error")["message"]


def test_chat_is_rate_limited(client: TestClient) -> None:
    tid, ann, _bea = _table(client)
    with client.websocket_connect(f"/ws/{tid}") as a:
        a.send_json({"type": "hello", "token": ann})
        next_msg(a, "state")
        for _ in range(int(CHAT_BURST) + 2):
            a.send_json({"type": "chat", "quick": "oops"})
        replies = []
        while len(replies) < int(CHAT_BURST) + 2:
            msg = a.receive_json()
            if msg["type"] in ("chat", "error"):
                replies.append(msg)
        assert [m["type"] for m in replies].count("chat") == int(CHAT_BURST)
        assert any(m.get("code") == "chat_slow" for m in replies)


def test_chat_can_be_turned_off_at_a_table(client: TestClient) -> None:
    tid, ann, _bea = _table(client, chat=False)
    assert client.get(f"/api/tables/{tid}").json()["chat"] is False
    with client.websocket_connect(f"/ws/{tid}") as a:
        a.send_json({"type": "hello", "token": ann})
        assert next_msg(a, "state")["table"]["chat"] is False
        a.send_json({"type": "chat", "quick": "hello"})
        err = next_msg(a, "error")
        assert err["code"] == "chat_off" and "turned off" in err["message"]
