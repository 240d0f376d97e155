"""Taking a seat from the lobby (``POST /api/tables/{id}/claim``) gives the claimer a token
nobody else holds: the seat's invite link stops working, says why, and a restart keeps it so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from spades.server.app import create_app
from spades.server.store import Store

SEATS = [{"open": True}, {"open": True}, {"bot": "random"}, {"bot": "random"}]


def app_client(db: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{db}"))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "claim.db") as c:
        yield c


def new_table(c: TestClient) -> tuple[str, list[str]]:
    r = c.post("/api/tables", json={"seats": SEATS, "bot_delay_ms": 0})
    assert r.status_code == 200, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def hello(c: TestClient, tid: str, token: str | None) -> dict[str, Any]:
    """The first answer to a hello (a ``state`` or an ``error``), on a fresh connection."""
    with c.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello"} if token is None else {"type": "hello", "token": token})
        msg: dict[str, Any] = ws.receive_json()
        return msg


def test_a_claim_gets_its_own_token_and_the_invite_link_is_refused_with_a_reason(
    client: TestClient,
) -> None:
    tid, invites = new_table(client)
    r = client.post(f"/api/tables/{tid}/claim", json={"seat": 0, "name": "Stranger"})
    assert r.status_code == 200
    token = r.json()["token"]
    assert token not in invites and len(token) >= 24
    mine = hello(client, tid, token)
    assert mine["type"] == "state" and mine["you"] == 0
    old = hello(client, tid, invites[0])
    assert old == {
        "type": "error",
        "code": "seat_taken",
        "message": "North was taken from the lobby by Stranger: this invite link no longer works",
    }
    # The other seat's invite link is untouched, and a second claim of seat 0 is refused.
    assert hello(client, tid, invites[1])["you"] == 1
    again = client.post(f"/api/tables/{tid}/claim", json={"seat": 0, "name": "Eve"})
    assert again.status_code == 400 and again.json()["error"] == "North is already taken by Stranger"


def test_a_browser_on_the_invite_link_is_told_and_only_watches_after_a_claim(client: TestClient) -> None:
    tid, invites = new_table(client)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "token": invites[0]})
        assert ws.receive_json()["you"] == 0
        r = client.post(f"/api/tables/{tid}/claim", json={"seat": 0, "name": "Stranger"})
        assert r.status_code == 200
        err = ws.receive_json()
        assert err["type"] == "error" and err["code"] == "seat_taken" and "Stranger" in err["message"]
        st = ws.receive_json()
        assert st["type"] == "state" and st["you"] is None and "can" not in st
        assert st["table"]["players"][0] == "Stranger"
        ws.send_json({"type": "join", "name": "Invitee"})
        refused = ws.receive_json()
        assert refused["type"] == "error" and "spectators cannot act" in refused["message"]
    assert client.get(f"/api/tables/{tid}").json()["players"][0] == "Stranger"


def test_an_invitee_who_sat_down_keeps_his_seat_and_the_lobby_cannot_take_it(client: TestClient) -> None:
    tid, invites = new_table(client)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "token": invites[0]})
        assert ws.receive_json()["you"] == 0
        ws.send_json({"type": "join", "name": "Invitee"})
        while ws.receive_json()["table"]["players"][0] != "Invitee":
            pass
    r = client.post(f"/api/tables/{tid}/claim", json={"seat": 0, "name": "Stranger"})
    assert r.status_code == 400 and "already taken by Invitee" in r.json()["error"]
    assert hello(client, tid, invites[0])["you"] == 0


def test_a_restart_keeps_the_claimers_token_and_refuses_the_invite(tmp_path: Path) -> None:
    db = tmp_path / "restart.db"
    with app_client(db) as c:
        tid, invites = new_table(c)
        token = c.post(f"/api/tables/{tid}/claim", json={"seat": 1, "name": "Stranger"}).json()["token"]
    store = Store(f"sqlite:///{db}")
    stored = store.load(tid)
    store.close()
    assert stored is not None
    joins = [d for _, kind, d in stored.events if kind == "join"]
    assert joins == [{"seat": 1, "name": "Stranger", "token": token}]  # in the log, not only in memory
    with app_client(db) as c:
        assert hello(c, tid, token)["you"] == 1
        old = hello(c, tid, invites[1])
        assert old["code"] == "seat_taken" and old["message"].startswith("East was taken from the lobby")
        assert hello(c, tid, invites[0])["you"] == 0
