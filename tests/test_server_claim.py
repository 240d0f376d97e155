"""Taking a seat from the lobby (``POST /api/tables/{id}/claim``) gives the claimer a token
nobody else holds: the seat's invite link stops working, says why, and a restart keeps it so."""

from __future__ import annotations

import hashlib
import json
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
    """A table with two open seats nobody named: returns its id and their invite tickets."""
    r = c.post("/api/tables", json={"seats": SEATS, "bot_delay_ms": 0})
    assert r.status_code == 200, r.text
    seats = r.json()["seats"]
    assert [s["token"] for s in seats] == [None] * 4  # the creator holds no seat's token
    assert [s["invite"] is not None for s in seats] == [True, True, False, False]
    return r.json()["id"], [s["invite"] for s in seats[:2]]


def hello(c: TestClient, tid: str, token: str | None = None, invite: str | None = None) -> dict[str, Any]:
    """The first answer to a hello (a ``state`` or an ``error``), on a fresh connection; an
    invite's ``seat`` message, if any, is put in the state under ``"seat_message"``."""
    msg: dict[str, Any] = {"type": "hello"}
    if token is not None:
        msg["token"] = token
    if invite is not None:
        msg["invite"] = invite
    with c.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json(msg)
        first: dict[str, Any] = ws.receive_json()
        if first["type"] != "seat":
            return first
        st: dict[str, Any] = ws.receive_json()
        assert st["type"] == "state"
        return {**st, "seat_message": first}


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
    old = hello(client, tid, invite=invites[0])
    assert old == {
        "type": "error",
        "code": "seat_taken",
        "message": "North was taken from the lobby by Stranger: this invite link no longer works",
    }
    # The other seat's invite link is untouched, and a second claim of seat 0 is refused.
    east = hello(client, tid, invite=invites[1])
    assert east["you"] == 1 and east["seat_message"]["seat"] == 1
    assert east["seat_message"]["token"] not in (token, *invites)
    again = client.post(f"/api/tables/{tid}/claim", json={"seat": 0, "name": "Eve"})
    assert again.status_code == 400 and again.json()["error"] == "North is already taken by Stranger"


def test_a_browser_on_the_invite_link_is_told_and_only_watches_after_a_claim(client: TestClient) -> None:
    tid, invites = new_table(client)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "invite": invites[0]})
        seat = ws.receive_json()
        assert seat["type"] == "seat" and seat["seat"] == 0 and len(seat["token"]) >= 24
        assert ws.receive_json()["you"] == 0
        r = client.post(f"/api/tables/{tid}/claim", json={"seat": 0, "name": "Stranger"})
        assert r.status_code == 200
        err = ws.receive_json()
        while err["type"] == "state" and err["you"] == 0:  # views sent before the claim
            err = ws.receive_json()
        assert err["type"] == "error" and err["code"] == "seat_taken" and "Stranger" in err["message"]
        st = ws.receive_json()
        assert st["type"] == "state" and st["you"] is None and "can" not in st
        assert st["table"]["players"][0] == "Stranger"
        ws.send_json({"type": "join", "name": "Invitee"})
        refused = ws.receive_json()
        assert refused["type"] == "error" and "spectators cannot act" in refused["message"]
    assert client.get(f"/api/tables/{tid}").json()["players"][0] == "Stranger"
    # The redeemed token, never used to sit down, no longer opens the seat either.
    taken = hello(client, tid, seat["token"])
    assert taken["code"] == "seat_taken" and "taken from the lobby by Stranger" in taken["message"]


def test_an_invitee_who_sat_down_keeps_his_seat_and_the_lobby_cannot_take_it(client: TestClient) -> None:
    tid, invites = new_table(client)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "invite": invites[0]})
        token = ws.receive_json()["token"]
        assert ws.receive_json()["you"] == 0
        ws.send_json({"type": "join", "name": "Invitee"})
        while ws.receive_json()["table"]["players"][0] != "Invitee":
            pass
    r = client.post(f"/api/tables/{tid}/claim", json={"seat": 0, "name": "Stranger"})
    assert r.status_code == 400 and "already taken by Invitee" in r.json()["error"]
    assert hello(client, tid, token)["you"] == 0
    # The ticket opened the seat once; opened again it is refused, saying why.
    assert hello(client, tid, invite=invites[0]) == {
        "type": "error",
        "code": "seat_taken",
        "message": "the invite link for North was already used: it opens the seat only once",
    }


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
    # In the log, not only in memory, and only as a hash: the log does not open the seat.
    assert joins == [{"seat": 1, "name": "Stranger", "token_sha": hashlib.sha256(token.encode()).hexdigest()}]
    assert token not in json.dumps([stored.config, stored.events])
    assert not any(i in json.dumps([stored.config, stored.events]) for i in invites)
    with app_client(db) as c:
        assert hello(c, tid, token)["you"] == 1
        old = hello(c, tid, invite=invites[1])
        assert old["code"] == "seat_taken" and old["message"].startswith("East was taken from the lobby")
        north = hello(c, tid, invite=invites[0])
        assert north["you"] == 0
        north_token = north["seat_message"]["token"]
    # The ticket's exchange is in the log too: after another restart the token it gave works
    # and the ticket does not.
    with app_client(db) as c:
        assert hello(c, tid, north_token)["you"] == 0
        assert "already used" in hello(c, tid, invite=invites[0])["message"]
