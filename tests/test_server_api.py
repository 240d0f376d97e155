"""REST and websocket behaviour of the app, through Starlette's TestClient (no network)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablewait import wait_for
from wsmsg import first_choice, own_part

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from spades import record
from spades.server.app import create_app
from spades.server.fairness import verify_record
from spades.server.store import Store
from spades.server.tables import TableActor

BOTS4 = [{"bot": "heuristic"}] * 4


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'api.db'}")) as c:
        yield c


def test_four_bots_play_to_the_end_and_the_record_checks_out(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": {"target": 150}, "seats": BOTS4, "bot_delay_ms": 0})
    assert r.status_code == 200
    tid = r.json()["id"]
    assert all(s["token"] is None and s["invite"] is None for s in r.json()["seats"])
    view = wait_for(client, tid, lambda v: v["status"] == "over")
    assert view["status"] == "over"
    assert view["winner"] in (0, 1)
    assert max(view["totals"]) >= 150
    rec = client.get(f"/api/tables/{tid}/record").json()
    rep, checks = verify_record(rec)
    assert len(checks) == len(rec["hands"]) == view["hand"]
    assert all(c.ok for c in checks)
    # The engine, replaying the record on its own, agrees with the table's score.
    assert record.summary(rep.game)["totals"] == view["totals"]
    assert rep.game.winner == view["winner"]


def test_public_view_has_the_documented_fields(client: TestClient) -> None:
    r = client.post("/api/tables", json={"seats": [{"open": True}, *BOTS4[:3]], "bot_delay_ms": 0})
    tid = r.json()["id"]
    # An open seat nobody named gets a one-time invite ticket, not a seat token.
    seat0 = r.json()["seats"][0]
    assert seat0["token"] is None and seat0["invite"] and len(seat0["invite"]) >= 24
    view = client.get(f"/api/tables/{tid}").json()
    for key in ("status", "hand", "bids", "plays", "totals"):
        assert key in view
    assert view["status"] == "waiting" and view["hand"] == 0
    assert client.get("/api/tables").json()[0]["id"] == tid
    ok = client.post(f"/api/tables/{tid}/claim", json={"seat": 0, "name": "  Zoë  <b>"})
    # The claimer gets a token of his own, not the invite link's (tests/test_server_claim.py).
    assert ok.status_code == 200 and ok.json()["token"] not in (seat0["invite"], None)
    view = client.get(f"/api/tables/{tid}").json()
    assert view["status"] == "playing" and view["hand"] == 1
    assert view["players"][0] == "Zoë <b>"  # kept as text; the page never parses it as HTML
    again = client.post(f"/api/tables/{tid}/claim", json={"seat": 0, "name": "Eve"})
    assert again.status_code == 400 and "already taken" in again.json()["error"]
    assert client.get("/api/tables/nope").status_code == 404


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"seats": BOTS4[:3]}, "need 4 seats"),
        ({"seats": [{"bot": "genius"}, *BOTS4[:3]]}, "unknown bot"),
        # A web request must never start a program on the server, nor buy search effort.
        ({"seats": [{"bot": "cmd:touch /tmp/pwned"}, *BOTS4[:3]]}, "unknown bot"),
        ({"seats": [{"bot": "expert:samples=100000"}, *BOTS4[:3]]}, "unknown bot"),
        ({"rules": {"trumps": "hearts"}, "seats": BOTS4}, "unknown rule option 'trumps'"),
        ({"seats": [{"open": True, "bot": "random"}, *BOTS4[:3]]}, "either open"),
    ],
)
def test_bad_tables_are_refused_with_a_reason(client: TestClient, body: dict[str, Any], needle: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert needle in r.json()["error"]


def test_malformed_create_is_422_with_one_line(client: TestClient) -> None:
    r = client.post("/api/tables", json={"seats": "four"})
    assert r.status_code == 422 and r.json()["error"].startswith("malformed request: body.seats")
    missing = client.get("/api/tables/nope")
    assert missing.status_code == 404 and "nope" in missing.json()["error"]


LAST: dict[int, dict[str, Any]] = {}


def _state(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state":
            LAST[id(ws)] = msg
            return msg


def _error(ws: Any) -> str:
    """The next error reply; states passing by are remembered, so none is lost."""
    while True:
        msg = ws.receive_json()
        if msg["type"] == "state":
            LAST[id(ws)] = msg
        if msg["type"] == "error":
            return str(msg["message"])


def test_websocket_seat_plays_a_hand_and_bad_messages_change_nothing(client: TestClient) -> None:
    r = client.post(
        "/api/tables", json={"seats": [{"open": True, "name": "Ann"}, *BOTS4[:3]], "bot_delay_ms": 0}
    )
    tid, token = r.json()["id"], r.json()["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "token": "x" * 30})
        assert "not valid" in _error(ws)
    with client.websocket_connect(f"/ws/{tid}") as spectator, client.websocket_connect(f"/ws/{tid}") as ws:
        spectator.send_json({"type": "hello"})
        assert _state(spectator)["you"] is None
        spectator.send_json({"type": "bid", "bid": 3})
        assert "spectators cannot act" in _error(spectator)
        ws.send_json({"type": "play", "card": "AS"})
        assert "say hello first" in _error(ws)
        ws.send_json({"type": "hello", "token": token})
        st = _state(ws)
        assert st["you"] == 0
        seq = st["seq"]
        for bad, needle in [
            ("{not json", "malformed"),
            # 17 is the most any rule set allows (three players); past that the message is
            # malformed, below it the engine refuses what this table's rules do not allow.
            (json.dumps({"type": "bid", "bid": 18}), "malformed"),
            (json.dumps({"type": "bid", "bid": 14}), "hand 1, bid"),
            (json.dumps({"type": "play", "card": "AS", "extra": 1}), "malformed"),
            (json.dumps({"type": "play", "card": "ZZ"}), "unknown card"),
            ("x" * 5000, "over the limit"),
        ]:
            ws.send_text(bad)
            assert needle in _error(ws)
        # Out of turn or in the wrong phase: refused by the engine, nothing changes.
        view = client.get(f"/api/tables/{tid}").json()
        if view["to_move"] != 0:
            ws.send_json({"type": "bid", "bid": 3})
            assert _error(ws)
        ws.send_json({"type": "play", "card": "2C"})
        assert _error(ws)
        after = client.get(f"/api/tables/{tid}").json()
        # The bots bid on meanwhile (no delay): this seat's bid and the plays are what its
        # refused messages could have changed.
        assert after["plays"] == view["plays"] and after["bids"][0] == view["bids"][0]
        # Play the whole first hand by always taking the first choice offered.
        played = 0
        pending: dict[str, Any] | None = LAST[id(ws)]
        acted_on = None
        while True:
            if pending is None:
                msg = ws.receive_json()
                assert msg["type"] != "error", msg
                if msg["type"] != "state":
                    continue
                st = msg
            else:
                st, pending = pending, None
            if st["table"]["hand"] > 1 or st["table"]["status"] == "over":
                break
            if own_part(st) == acted_on:
                continue  # sent before our last action reached the table: it still offers it
            can = st["can"]
            if can["look"]:
                assert st["obs"]["hand"] is None  # face down until he looks
            elif can["bids"]:
                assert len(st["obs"]["hand"]) == 13
            sent = first_choice(st)
            if sent is not None:
                acted_on = own_part(st)
                ws.send_json(sent)
                played += sent["type"] == "play"
        assert played == 13
        assert st["seq"] > seq
        assert len(st["table"]["sheet"]) == 1
        assert "deck" in st["table"]["proofs"][0] and "deck" not in st["table"]["proofs"][1]
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert len(rec["hands"]) == 1 and rec["players"][0] == "Ann"


def test_rate_limit_refuses_floods(client: TestClient) -> None:
    r = client.post("/api/tables", json={"seats": [{"open": True}, *BOTS4[:3]]})
    tid = r.json()["id"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello"})
        _state(ws)
        for _ in range(60):
            ws.send_json({"type": "ping"})
        replies = [ws.receive_json() for _ in range(60)]
        assert any(m["type"] == "error" and "slow down" in m["message"] for m in replies)
        assert any(m["type"] == "pong" for m in replies)


def test_hints_come_from_the_strongest_bot_and_can_be_turned_off(client: TestClient) -> None:
    for hints in (True, False):
        r = client.post(
            "/api/tables",
            json={"seats": [{"open": True, "name": "Ann"}, *BOTS4[:3]], "bot_delay_ms": 0, "hints": hints},
        )
        tid, token = r.json()["id"], r.json()["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "token": token})
            st = _state(ws)
            while st["table"]["to_move"] != 0:
                st = _state(ws)
            ws.send_json({"type": "hint"})
            msg = ws.receive_json()
            while msg["type"] == "state":
                msg = ws.receive_json()
            if hints:
                assert msg["type"] == "hint" and msg["bot"] == client.get("/api/info").json()["hint_bot"]
                assert msg["action"].split()[0] in ("look", "bid")
            else:
                assert msg["type"] == "error" and "turned off" in msg["message"]


def test_tables_are_rebuilt_from_the_log(client: TestClient, tmp_path: Path) -> None:
    r = client.post("/api/tables", json={"rules": {"target": 150}, "seats": BOTS4, "bot_delay_ms": 0})
    tid = r.json()["id"]
    wait_for(client, tid, lambda v: v["status"] == "over")
    live = client.app.state.manager.tables[tid]  # type: ignore[attr-defined]
    store = Store(f"sqlite:///{tmp_path / 'api.db'}")
    stored = store.load(tid)
    store.close()
    assert stored is not None
    again = TableActor.restore(stored, store, "heuristic")
    assert again.record() == live.record()
    assert again.public()["totals"] == live.public()["totals"]


def test_replay_endpoint_checks_records(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": {"target": 100}, "seats": BOTS4, "bot_delay_ms": 0})
    tid = r.json()["id"]
    wait_for(client, tid, lambda v: v["status"] == "over")
    rec = client.get(f"/api/tables/{tid}/record").json()
    view = client.post("/api/replay", content=json.dumps(rec)).json()
    assert view["error"] is None and len(view["hands"]) == len(rec["hands"])
    assert all(len(h["tricks"]) == 13 for h in view["hands"])
    assert all(p["ok"] for p in view["proofs"])
    salt = rec["proofs"][0]["salt"]
    rec["proofs"][0]["salt"] = ("1" if salt[0] == "0" else "0") + salt[1:]  # always a change
    tampered = client.post("/api/replay", content=json.dumps(rec)).json()
    assert tampered["proofs"][0]["ok"] is False
    rec["hands"][0]["play"][0], rec["hands"][0]["play"][1] = (
        rec["hands"][0]["play"][1],
        rec["hands"][0]["play"][0],
    )
    broken = client.post("/api/replay", content=json.dumps(rec)).json()
    assert broken["error"] and broken["error"].startswith("hand 1")


def test_pages_are_served_with_a_strict_content_policy(client: TestClient) -> None:
    for path in ("/", "/t/abc", "/replay", "/static/table.js", "/static/cards.js", "/static/app.css"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.headers["x-content-type-options"] == "nosniff"
        if path.startswith("/static"):
            continue
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert "style=" not in r.text and "<script>" not in r.text  # nothing inline to allow


def test_an_absent_player_is_played_by_a_bot_until_he_returns(client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={"seats": [{"open": True, "name": "Gone"}, *BOTS4[:3]], "bot_delay_ms": 0, "away_s": 1},
    )
    tid, token = r.json()["id"], r.json()["seats"][0]["token"]
    view = wait_for(client, tid, lambda v: v["bids"][0] is not None, timeout=20)
    assert view["bids"][0] is not None and view["seats"][0]["standin"]
    # He comes back: the stand-in stops, his seat waits for him again.
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "token": token})
        st = _state(ws)
        assert st["table"]["seats"][0]["connected"] and not st["table"]["seats"][0]["standin"]
        while st["table"]["to_move"] != 0:
            st = _state(ws)
        time.sleep(1.5)
        assert client.get(f"/api/tables/{tid}").json()["to_move"] == 0


def test_spades_verify_checks_a_record_file(client: TestClient, tmp_path: Path, capsys: Any) -> None:
    from spades.cli import main

    r = client.post("/api/tables", json={"rules": {"target": 100}, "seats": BOTS4, "bot_delay_ms": 0})
    tid = r.json()["id"]
    wait_for(client, tid, lambda v: v["status"] == "over")
    rec = client.get(f"/api/tables/{tid}/record").json()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(rec))
    assert main(["verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert f"all {len(rec['hands'])} hands verified" in out
    # Swap two cards between seats in the revealed deck: the hash no longer matches.
    deck = rec["proofs"][0]["deck"].split()
    deck[0], deck[1] = deck[1], deck[0]
    rec["proofs"][0]["deck"] = " ".join(deck)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    assert main(["verify", str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("spades: 1 of") and "hand 1" in err[-1]
    no_proofs = tmp_path / "plain.json"
    no_proofs.write_text(json.dumps({k: v for k, v in rec.items() if k != "proofs"}))
    assert main(["verify", str(no_proofs)]) == 1
    assert "no shuffle proofs" in capsys.readouterr().err


def test_a_deal_that_does_not_match_its_deck_is_caught(client: TestClient) -> None:
    from spades.server.fairness import commitment

    r = client.post("/api/tables", json={"rules": {"target": 100}, "seats": BOTS4, "bot_delay_ms": 0})
    tid = r.json()["id"]
    wait_for(client, tid, lambda v: v["status"] == "over")
    rec = client.get(f"/api/tables/{tid}/record").json()
    # A dishonest server re-hashes a different deck: the hash matches, the deal does not.
    p = rec["proofs"][0]
    deck = p["deck"].split()
    deck[0], deck[1] = deck[1], deck[0]
    p["deck"] = " ".join(deck)
    p["commit"] = commitment(p["deck"], p["salt"])
    _, checks = verify_record(rec)
    assert not checks[0].ok and "does not give the recorded hands" in checks[0].why
    assert all(c.ok for c in checks[1:])


def test_oversized_bodies_are_refused(client: TestClient) -> None:
    huge = {"rules": {"preset": "standard"}, "seats": BOTS4, "pad": "x" * 20_000}
    r = client.post("/api/tables", json=huge)
    assert r.status_code == 413 and "over" in r.json()["error"]


def test_chunked_bodies_without_a_length_are_refused(client: TestClient) -> None:
    """A chunked body could be any size; without a Content-Length it is not read at all."""

    def chunks() -> Any:
        yield b'{"rules": "standard", "seats": '
        yield b"[]}"

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 411 and "Content-Length" in r.json()["error"]
