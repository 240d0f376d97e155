"""Accounts over REST and the websocket: the flows, and their abuse.

A real app on a SQLite file, driven by Starlette's TestClient (its cookie jar is a browser's
for these purposes). Argon2 runs with cheap settings here; the limits are small so a test
reaches them in a few requests.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("argon2")
pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from spades.server.accountdb import ANONYMOUS
from spades.server.app import create_app
from spades.server.sessions import CSRF_COOKIE, SESSION_COOKIE, AccountSettings

ORIGIN = {"origin": "http://testserver"}
CHEAP = {"time_cost": 1, "memory_cost": 8, "parallelism": 1}


def settings(**kw: Any) -> AccountSettings:
    base: dict[str, Any] = {**CHEAP, "fail_per_account": 3, "fail_per_address": 6, "signup_per_address": 50}
    return AccountSettings(**(base | kw))


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'accounts.db'}"


@pytest.fixture
def app(db_url: str) -> Any:
    a = create_app(db_url, waiting_ttl=None)
    a.state.accounts.configure(settings())
    return a


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


@contextlib.contextmanager
def browser(client: TestClient, app: Any) -> Iterator[TestClient]:
    """Another browser on the same running server: its own cookie jar, the same event loop
    (entering a second ``TestClient`` would start the app a second time)."""
    other = TestClient(app)
    other.portal = client.portal
    yield other


def csrf(c: TestClient) -> str:
    token: str = c.get("/api/account").json()["csrf"]
    return token


def post(c: TestClient, path: str, body: Any = None, *, token: str | None = None) -> Any:
    headers = {"x-csrf-token": token if token is not None else csrf(c)}
    return c.post(path, json=body, headers=headers)


def signup(c: TestClient, name: str, password: str = "correct horse") -> Any:
    r = post(c, "/api/account/signup", {"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()["account"]


def signin(c: TestClient, name: str, password: str = "correct horse") -> Any:
    return post(c, "/api/account/signin", {"name": name, "password": password})


def me(c: TestClient) -> Any:
    return c.get("/api/account").json()["account"]


# ---------------------------------------------------------------------- flows
def test_sign_up_sign_in_sign_out(client: TestClient) -> None:
    acc = signup(client, "Ann")
    assert me(client) == acc
    cookie = client.cookies.get(SESSION_COOKIE)
    assert cookie and len(cookie) >= 32
    r = post(client, "/api/account/signout")
    assert r.status_code == 200
    assert me(client) is None
    r = signin(client, "ann")  # names compare without case
    assert r.status_code == 200, r.text
    assert r.json()["account"] == acc


def test_session_cookie_flags(client: TestClient) -> None:
    r = post(client, "/api/account/signup", {"name": "flags", "password": "correct horse"})
    cookies = r.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith(SESSION_COOKIE + "="))
    low = session.lower()
    assert "httponly" in low and "samesite=lax" in low and "path=/" in low
    assert "secure" not in low  # served over http here: a browser would drop a Secure cookie
    csrf_cookie = next(c for c in cookies if c.startswith(CSRF_COOKIE + "="))
    assert "httponly" not in csrf_cookie.lower() and "samesite=strict" in csrf_cookie.lower()


def test_secure_cookie_over_https(app: Any) -> None:
    with TestClient(app, base_url="https://testserver") as c:
        r = post(c, "/api/account/signup", {"name": "tls", "password": "correct horse"})
        session = next(x for x in r.headers.get_list("set-cookie") if "spades_session=" in x)
        assert session.startswith("__Host-spades_session=") and "secure" in session.lower()
        assert me(c)["name"] == "tls"


def test_passwords_are_argon2id_hashes(client: TestClient, db_url: str) -> None:
    signup(client, "hashed", "a very secret pass")
    eng = create_engine(db_url)
    with eng.connect() as conn:
        (h,) = conn.execute(text("SELECT pw_hash FROM spades_accounts WHERE name = 'hashed'")).one()
        sessions = [r[0] for r in conn.execute(text("SELECT id_sha FROM spades_sessions"))]
    eng.dispose()
    assert h.startswith("$argon2id$") and "a very secret pass" not in h
    assert client.cookies.get(SESSION_COOKIE) not in sessions  # only hashes are stored


@pytest.mark.parametrize(
    ("name", "password", "why"),
    [
        ("ab", "long enough", "3 to 24 characters"),
        ("bad name", "long enough", "letters, digits"),
        ("<script>", "long enough", "letters, digits"),
        ("okname", "short", "at least 8"),
    ],
)
def test_bad_names_and_passwords_are_refused(client: TestClient, name: str, password: str, why: str) -> None:
    r = post(client, "/api/account/signup", {"name": name, "password": password})
    assert r.status_code == 400 and why in r.json()["error"]


def test_name_taken_whatever_the_case(client: TestClient) -> None:
    signup(client, "Marco")
    post(client, "/api/account/signout")
    r = post(client, "/api/account/signup", {"name": "marco", "password": "another one"})
    assert r.status_code == 409 and "taken" in r.json()["error"]


def test_wrong_password_and_unknown_name_say_the_same(client: TestClient) -> None:
    signup(client, "zoe")
    post(client, "/api/account/signout")
    wrong = signin(client, "zoe", "not the password")
    nobody = signin(client, "nobody-here", "not the password")
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json() == {"error": "wrong user name or password"}
    assert me(client) is None


def test_errors_in_the_askers_language(client: TestClient) -> None:
    r = client.post(
        "/api/account/signin",
        json={"name": "x", "password": "y"},
        headers={"x-csrf-token": "forged-token-value", "x-spades-lang": "it"},
    )
    assert r.status_code == 403
    assert r.json()["error"].startswith("richiesta rifiutata: il token CSRF")
    r = client.post(
        "/api/account/signin",
        json={"name": "x", "password": "y"},
        headers={"accept-language": "fr-FR,fr;q=0.9"},
    )
    assert r.json()["error"].startswith("requête refusée")


# ---------------------------------------------------------------------- CSRF
def test_missing_or_forged_csrf_is_refused(client: TestClient) -> None:
    body = {"name": "carl", "password": "correct horse"}
    assert client.post("/api/account/signup", json=body).status_code == 403  # missing
    r = client.post("/api/account/signup", json=body, headers={"x-csrf-token": "x" * 43})  # forged
    assert r.status_code == 403 and "CSRF" in r.json()["error"]
    signup(client, "carl")
    # Signed in: the session's own token is needed; the old pre-session one no longer works.
    for bad in ({}, {"x-csrf-token": "y" * 43}):
        assert client.post("/api/account/signout", headers=bad).status_code == 403
        assert me(client) is not None
    # Table requests that act for the account need it too (they bind the seat to it).
    table = {"seats": [{"open": True, "name": "c"}, {"bot": "random"}, {"open": True}, {"bot": "random"}]}
    assert client.post("/api/tables", json=table).status_code == 403
    assert post(client, "/api/tables", table).status_code == 200


def test_cross_site_origin_is_refused_even_with_the_token(client: TestClient) -> None:
    token = csrf(client)
    r = client.post(
        "/api/account/signup",
        json={"name": "eve", "password": "correct horse"},
        headers={"x-csrf-token": token, "origin": "https://evil.example"},
    )
    assert r.status_code == 403 and "another site" in r.json()["error"]


def test_guests_keep_using_the_rest_api_without_tokens(client: TestClient) -> None:
    table = {"seats": [{"open": True, "name": "g"}, {"bot": "random"}, {"open": True}, {"bot": "random"}]}
    r = client.post("/api/tables", json=table)
    assert r.status_code == 200
    tid = r.json()["id"]
    r = client.post(f"/api/tables/{tid}/claim", json={"seat": 2, "name": "guest two"})
    assert r.status_code == 200 and r.json()["token"]
    assert client.post("/api/rules/check", json={"rules": "standard"}).json()["error"] is None


# ---------------------------------------------------------------------- sessions
def test_session_id_changes_at_login(app: Any, client: TestClient) -> None:
    signup(client, "fixed")
    planted = client.cookies.get(SESSION_COOKIE)
    assert planted is not None
    # Someone got this browser to hold a session id he knows (fixation): signing in again
    # mints a new id and the known one stops working.
    r = signin(client, "fixed")
    assert r.status_code == 200
    fresh = client.cookies.get(SESSION_COOKIE)
    assert fresh and fresh != planted
    with browser(client, app) as attacker:
        attacker.cookies.set(SESSION_COOKIE, planted, domain="testserver.local")
        assert me(attacker) is None
    # A made-up cookie is never adopted as a session either.
    with browser(client, app) as other:
        other.cookies.set(SESSION_COOKIE, "chosen-by-attacker-" + "a" * 20, domain="testserver.local")
        assert me(other) is None
        r = signin(other, "fixed")
        assert r.status_code == 200 and other.cookies.get(SESSION_COOKIE) != "chosen-by-attacker-" + "a" * 20


def test_sign_out_everywhere_ends_other_sessions(app: Any, client: TestClient) -> None:
    signup(client, "roamer")
    with browser(client, app) as phone:
        assert signin(phone, "roamer").status_code == 200
        assert me(phone)["name"] == "roamer"
        r = post(client, "/api/account/signout-all")
        assert r.status_code == 200 and r.json()["ended"] == 2
        assert me(phone) is None
        assert me(client) is None


def test_sign_out_here_keeps_the_other_browser(app: Any, client: TestClient) -> None:
    signup(client, "twodev")
    with browser(client, app) as phone:
        signin(phone, "twodev")
        post(client, "/api/account/signout")
        assert me(client) is None
        assert me(phone)["name"] == "twodev"


# ---------------------------------------------------------------------- rate limits
def test_failed_sign_ins_are_limited_per_account(app: Any, client: TestClient) -> None:
    signup(client, "target")
    post(client, "/api/account/signout")
    for _ in range(3):
        assert signin(client, "target", "guess guess").status_code == 401
    r = signin(client, "target")  # even the right password waits now
    assert r.status_code == 429 and "this account" in r.json()["error"]
    # Another account from the same address is not locked by this one.
    signup(client, "bystander")
    post(client, "/api/account/signout")
    assert signin(client, "bystander").status_code == 200


def test_failed_sign_ins_are_limited_per_address(app: Any, client: TestClient) -> None:
    app.state.accounts.configure(settings(fail_per_account=100, fail_per_address=4))
    signup(client, "victim")
    post(client, "/api/account/signout")
    for i in range(4):
        assert signin(client, f"sprayed{i}", "guess guess").status_code == 401
    r = signin(client, "victim")
    assert r.status_code == 429 and "your address" in r.json()["error"]


def test_sign_ups_are_limited_per_address(app: Any, client: TestClient) -> None:
    app.state.accounts.configure(settings(signup_per_address=2))
    signup(client, "first1")
    signup(client, "second2")
    r = post(client, "/api/account/signup", {"name": "third3", "password": "correct horse"})
    assert r.status_code == 429


# ---------------------------------------------------------------------- seats and deletion
def _table(c: TestClient, token: str | None = None) -> str:
    body = {
        "seats": [{"open": True, "name": "typed name"}, {"bot": "random"}, {"open": True}, {"bot": "random"}]
    }
    r = c.post("/api/tables", json=body, headers={} if token is None else {"x-csrf-token": token})
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def _hello(c: TestClient, tid: str, **hello: Any) -> Any:
    with c.websocket_connect(f"/ws/{tid}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", **hello})
        while True:
            msg = ws.receive_json()
            if msg["type"] in ("state", "error"):
                return msg


def test_a_seat_continues_from_a_second_browser(app: Any, client: TestClient) -> None:
    signup(client, "mover")
    tid = _table(client, csrf(client))
    table = client.get(f"/api/tables/{tid}").json()
    assert table["players"][0] == "mover"  # the account's name, not the typed one
    with browser(client, app) as laptop:
        assert _hello(laptop, tid)["you"] is None  # a stranger only watches
        signin(laptop, "mover")
        assert _hello(laptop, tid)["you"] == 0  # no token in this browser: the account opens it
    with browser(client, app) as guest:
        assert _hello(guest, tid)["you"] is None
    hist = client.get("/api/history").json()["games"]
    assert [g["id"] for g in hist] == [tid] and hist[0]["replay"] == f"/replay?table={tid}"


def test_a_cross_site_socket_gets_no_seat(app: Any, client: TestClient) -> None:
    signup(client, "sock")
    tid = _table(client, csrf(client))
    with client.websocket_connect(f"/ws/{tid}", headers={"origin": "https://evil.example"}) as ws:
        ws.send_json({"type": "hello"})
        msg = ws.receive_json()
        assert msg["type"] == "state" and msg["you"] is None


def test_an_invite_redeemed_while_signed_in_binds_the_seat(app: Any, client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={
            "seats": [{"open": True, "name": "host"}, {"bot": "random"}, {"open": True}, {"bot": "random"}]
        },
    )
    tid, invite = r.json()["id"], r.json()["seats"][2]["invite"]
    with browser(client, app) as friend:
        signup(friend, "friend")
        with friend.websocket_connect(f"/ws/{tid}", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "invite": invite})
            assert ws.receive_json()["type"] == "seat"
            ws.send_json({"type": "join", "name": "someone else"})
            names: list[Any] = []
            for _ in range(10):
                msg = ws.receive_json()
                if msg["type"] == "state":
                    names = msg["table"]["players"]
                    if names[2] is not None:
                        break
            assert names[2] == "friend"
        with browser(client, app) as tablet:
            signin(tablet, "friend")
            assert _hello(tablet, tid)["you"] == 2


def test_delete_keeps_games_and_anonymises_the_name(app: Any, client: TestClient, db_url: str) -> None:
    signup(client, "Leaver", "leaving now!")
    tid = _table(client, csrf(client))
    assert client.get(f"/api/tables/{tid}").json()["players"][0] == "Leaver"
    assert post(client, "/api/account/delete", {"password": "wrong one"}).status_code == 401
    r = post(client, "/api/account/delete", {"password": "leaving now!"})
    assert r.status_code == 200 and r.json()["games"] == 1
    assert me(client) is None
    assert signin(client, "Leaver", "leaving now!").status_code == 401
    table = client.get(f"/api/tables/{tid}").json()
    assert table["players"][0] == ANONYMOUS
    assert "Leaver" not in json.dumps(client.get(f"/api/tables/{tid}/record").json())
    assert all("Leaver" not in json.dumps(t) for t in client.get("/api/tables?status=all").json())
    eng = create_engine(db_url)
    with eng.connect() as conn:
        dump = json.dumps(
            [
                [list(r) for r in conn.execute(text(f"SELECT * FROM {t}"))]
                for t in ("spades_tables", "spades_events", "spades_accounts")
            ]
        )
        games = conn.execute(text("SELECT count(*) FROM spades_tables")).scalar()
    eng.dispose()
    assert "Leaver" not in dump and "leaver" not in dump
    assert games == 1
    # The name is free again.
    signup(client, "leaver", "a new start")


def test_deleted_name_is_gone_after_a_restart(db_url: str) -> None:
    app = create_app(db_url, waiting_ttl=None)
    app.state.accounts.configure(settings())
    with TestClient(app) as c:
        signup(c, "Ghost", "boo boo boo")
        tid = _table(c, csrf(c))
        post(c, "/api/account/delete", {"password": "boo boo boo"})
    app2 = create_app(db_url, waiting_ttl=None)
    with TestClient(app2) as c2:
        assert c2.get(f"/api/tables/{tid}").json()["players"][0] == ANONYMOUS


def test_history_needs_a_session(client: TestClient) -> None:
    r = client.get("/api/history")
    assert r.status_code == 401 and "not signed in" in r.json()["error"]


def test_pages_are_served(client: TestClient) -> None:
    for path in ("/signin", "/account", "/history", "/leaderboard", "/u/someone"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), path


def test_behind_a_proxy_the_forwarded_host_is_this_site(client: TestClient) -> None:
    headers = {"x-csrf-token": csrf(client), "origin": "https://spades.example"}
    body = {"name": "proxied", "password": "correct horse"}
    assert client.post("/api/account/signup", json=body, headers=headers).status_code == 403
    headers["x-forwarded-host"] = "spades.example"
    assert client.post("/api/account/signup", json=body, headers=headers).status_code == 201


def test_a_plot_runs_nothing_and_escapes_names(client: TestClient) -> None:
    signup(client, "plotter")
    r = client.get("/api/users/plotter/points.svg?lang=it")
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert "default-src 'none'" in r.headers["content-security-policy"]
    assert "Punti per mano di plotter" in r.text and "<script" not in r.text
    from spades.server.svgplot import line_chart

    svg = line_chart([("<b>x</b>", [1.0, 2.0]), ("y", [2.0, 1.0])], title="<script>", x_label="&", empty="")
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "&lt;b&gt;" in svg and "<polyline" in svg


def test_password_guesses_through_delete_count_as_failed_sign_ins(client: TestClient) -> None:
    signup(client, "stolen", "the real one")
    for _ in range(3):
        assert post(client, "/api/account/delete", {"password": "guess guess"}).status_code == 401
    r = post(client, "/api/account/delete", {"password": "the real one"})
    assert r.status_code == 429 and me(client)["name"] == "stolen"
