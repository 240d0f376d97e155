"""Rematch from a finished table (issue 13): the others still at the old table, people and
spectators, are told and offered the new table, and each person opens his own seat there with
the token he already holds from the old table: nobody is ever sent another seat's secret; the
news is kept for a page that reloads; a second request finds the same rematch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from spades.server.app import create_app
from spades.server.store import Store
from spades.server.tables import TableActor
from tablewait import wait_for
from wsmsg import next_msg

BOT = {"bot": "heuristic"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'rematch.db'}")) as c:
        yield c


def _finished(client: TestClient, **extra: Any) -> tuple[str, str, str]:
    """A game of Ann (North) and Bea (South) with two bots, played out by the stand-ins."""
    seats = [{"open": True, "name": "Ann"}, BOT, {"open": True, "name": "Bea"}, BOT]
    body = {"rules": {"target": 100}, "seats": seats, "bot_delay_ms": 0, "away_s": 1, **extra}
    t = client.post("/api/tables", json=body).json()
    assert wait_for(client, t["id"], lambda v: v["status"] == "over", 120)["status"] == "over"
    return t["id"], t["seats"][0]["token"], t["seats"][2]["token"]


def test_rematch_tells_the_old_table_and_each_person_opens_his_own_seat(
    client: TestClient, tmp_path: Path
) -> None:
    old, ann, bea = _finished(client, hints=False, chat=False)
    with client.websocket_connect(f"/ws/{old}") as b, client.websocket_connect(f"/ws/{old}") as watcher:
        b.send_json({"type": "hello", "token": bea})
        assert next_msg(b, "state", "error")["you"] == 2
        watcher.send_json({"type": "hello"})
        next_msg(watcher, "state", "error")
        # only a player of the table may start it
        stranger = client.post(f"/api/tables/{old}/rematch", json={"token": "x" * 24})
        assert stranger.status_code == 403
        r = client.post(f"/api/tables/{old}/rematch", json={"token": ann})
        assert r.status_code == 200, r.text
        out = r.json()
        assert out["created"] and out["seat"] == 0 and out["token"] and out["invites"] == []
        new = out["id"]
        for ws in (b, watcher):
            news = next_msg(ws, "rematch", "error")
            assert news == {"type": "rematch", "table": new, "by": 0, "name": "Ann"}  # no secret in it
    view = client.get(f"/api/tables/{new}").json()
    before = client.get(f"/api/tables/{old}").json()
    assert view["rules"] == before["rules"] and (view["hints"], view["chat"]) == (False, False)
    assert [s["kind"] for s in view["seats"]] == ["human", "bot", "human", "bot"]
    assert view["players"][0] == "Ann" and view["players"][2] is None
    # Bea's browser opens her new seat with the token it holds from the old table, once
    with client.websocket_connect(f"/ws/{new}") as b:
        b.send_json({"type": "hello", "prior": bea})
        seat = next_msg(b, "seat", "error")
        assert seat["seat"] == 2 and seat["token"] not in (bea, ann)
        st = next_msg(b, "state", "error")
        assert st["you"] == 2 and st["table"]["players"][2] == "Bea"
    with client.websocket_connect(f"/ws/{new}") as again:
        again.send_json({"type": "hello", "prior": bea})  # the old token opens the seat only once
        assert next_msg(again, "seat", "error")["code"] == "seat_taken"
    with client.websocket_connect(f"/ws/{new}") as a:
        a.send_json({"type": "hello", "prior": ann})  # the starter's old token opens nothing here
        assert next_msg(a, "seat", "error")["type"] == "error"
        a.send_json({"type": "hello", "token": out["token"]})
        assert next_msg(a, "state", "error")["you"] == 0
    # a second press finds the same rematch; a page that reloads at the old table hears of it
    second = client.post(f"/api/tables/{old}/rematch", json={"token": bea}).json()
    assert (second["id"], second["token"], second["created"]) == (new, None, False)
    with client.websocket_connect(f"/ws/{old}") as late:
        late.send_json({"type": "hello"})
        next_msg(late, "state", "error")
        assert next_msg(late, "rematch", "error")["table"] == new
    # the news is the last event of the old table's log: a server that reads the table again
    # (after unloading it, or restarting) still has it
    client.app.state.manager.tables.pop(old)  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{old}") as much_later:
        much_later.send_json({"type": "hello"})
        next_msg(much_later, "state", "error")
        assert next_msg(much_later, "rematch", "error") == {
            "type": "rematch",
            "table": new,
            "by": 0,
            "name": "Ann",
        }
    # the new table rebuilt from its log: the old tokens no longer open anything
    store = Store(f"sqlite:///{tmp_path / 'rematch.db'}")
    stored = store.load(new)
    store.close()
    assert stored is not None
    rebuilt = TableActor.restore(stored)
    assert all(sc.prior_sha is None for sc in rebuilt.conf.seats)
    store = Store(f"sqlite:///{tmp_path / 'rematch.db'}")
    stored_old = store.load(old)
    store.close()
    assert stored_old is not None and stored_old.events[-1][1:] == ("rematch", {"table": new, "by": 0})
    assert TableActor.restore(stored_old).rematch == (new, 0)
    assert rebuilt.names == ["Ann", rebuilt.names[1], "Bea", rebuilt.names[3]]


def test_no_rematch_before_the_end(client: TestClient) -> None:
    seats = [{"open": True, "name": "Ann"}, BOT, BOT, BOT]
    t = client.post("/api/tables", json={"seats": seats, "bot_delay_ms": 5000}).json()
    r = client.post(f"/api/tables/{t['id']}/rematch", json={"token": t["seats"][0]["token"]})
    assert r.status_code == 400 and "over" in r.json()["error"]


def test_a_seat_bound_to_an_account_is_bound_again(tmp_path: Path) -> None:
    from test_accounts import post, settings, signup

    app = create_app(f"sqlite:///{tmp_path / 'acc.db'}", waiting_ttl=None)
    app.state.accounts.configure(settings())
    with TestClient(app) as acc:
        signup(acc, "rematcher")
        seats = [{"open": True, "name": "typed"}, BOT, {"open": True, "name": "Bea"}, BOT]
        body = {"rules": {"target": 100}, "seats": seats, "bot_delay_ms": 0, "away_s": 1}
        t = post(acc, "/api/tables", body).json()
        assert wait_for(acc, t["id"], lambda v: v["status"] == "over", 120)["status"] == "over"
        bea = TestClient(app)  # another browser: a guest, the same running server
        bea.portal = acc.portal
        out = bea.post(f"/api/tables/{t['id']}/rematch", json={"token": t["seats"][2]["token"]}).json()
        assert out["created"] and out["seat"] == 2 and out["token"]
        # the account opens its new seat from its own browser, with no token at all
        with acc.websocket_connect(f"/ws/{out['id']}") as ws:
            ws.send_json({"type": "hello"})
            assert next_msg(ws, "state", "error")["you"] == 0
        # and it may start the old table's rematch without a token: the same new table
        again = post(acc, f"/api/tables/{t['id']}/rematch", {}).json()
        assert (again["id"], again["seat"], again["created"]) == (out["id"], 0, False)
