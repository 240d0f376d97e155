"""Table chat survives a reload: the table keeps its last lines in memory (never in the log)
and sends them, oldest first, to every connection when it says hello: the same person
reconnecting, a second device, a spectator arriving. Each line has an id, so a page that is
sent the backlog again shows no line twice."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from spades.server.app import create_app
from spades.server.tables import CHAT_KEEP, TableActor, TableConf
from wsmsg import next_msg

BOT = {"bot": "heuristic"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'chat.db'}")) as c:
        yield c


def test_a_new_connection_gets_the_lines_said_before_in_order(client: TestClient) -> None:
    seats = [{"open": True, "name": "Ann"}, BOT, {"open": True, "name": "Bea"}, BOT]
    body = client.post("/api/tables", json={"seats": seats, "bot_delay_ms": 5000}).json()
    tid, ann, bea = body["id"], body["seats"][0]["token"], body["seats"][2]["token"]
    said: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{tid}") as a, client.websocket_connect(f"/ws/{tid}") as b:
        a.send_json({"type": "hello", "token": ann})
        next_msg(a, "state")
        b.send_json({"type": "hello", "token": bea})
        next_msg(b, "state")
        a.send_json({"type": "chat", "quick": "hello"})
        said.append(next_msg(a, "chat"))
        b.send_json({"type": "chat", "text": "<i>hi</i> Ann"})
        said.append(next_msg(a, "chat"))
        a.send_json({"type": "chat", "quick": "good_luck"})
        said.append(next_msg(a, "chat"))
    assert len({m["id"] for m in said}) == 3
    for hello in ({"token": ann}, {"token": bea}, {}):  # a reload, the other seat, a spectator
        with client.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", **hello})
            next_msg(ws, "state")
            # the same lines, ids and order; the text as sent (escaping is the page's)
            assert next_msg(ws, "chat_log")["lines"] == said
            if hello:
                ws.send_json({"type": "chat", "quick": "bye"})
                said.append(next_msg(ws, "chat"))
    # chat is of the moment: nothing of it in the table's record or log
    assert "hello" not in json.dumps(client.get(f"/api/tables/{tid}/record").json()).replace('"hello"', "")


def test_no_backlog_message_at_a_quiet_table(client: TestClient) -> None:
    seats = [{"open": True, "name": "Ann"}, BOT, BOT, BOT]
    body = client.post("/api/tables", json={"seats": seats, "bot_delay_ms": 5000}).json()
    with client.websocket_connect(f"/ws/{body['id']}") as ws:
        ws.send_json({"type": "hello"})
        next_msg(ws, "state")
        ws.send_json({"type": "ping"})
        assert next_msg(ws, "pong") == {"type": "pong"}  # no chat_log came before it


def test_the_table_keeps_only_the_last_lines() -> None:
    from spades.rules import Rules

    conf = TableConf.from_json(
        {
            "rules": Rules().to_dict(),
            "first_dealer": 0,
            "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * 3,
        }
    )
    actor = TableActor("t", conf)
    actor.names[0] = "Ann"
    for i in range(CHAT_KEEP + 7):
        actor.chat(0, None, f"line {i}")
    lines = json.loads(actor.chat_backlog())["lines"]
    assert [m["text"] for m in lines] == [f"line {i}" for i in range(7, CHAT_KEEP + 7)]
    # a replica merging its owner's backlog keeps the owner's order and no line twice
    replica = TableActor("t", conf)
    replica.names[0] = "Ann"
    replica.chat_out(actor.chat_log[-1])  # heard live before the backlog came
    replica.chat(0, None, "said after")
    replica.merge_chat(list(actor.chat_log))
    texts = [m["text"] for m in json.loads(replica.chat_backlog())["lines"]]
    assert texts[-2:] == [f"line {CHAT_KEEP + 6}", "said after"] and len(texts) == CHAT_KEEP
    assert len(set(texts)) == len(texts)
