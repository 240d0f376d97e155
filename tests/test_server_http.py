"""The guarded HTTP protocols on a real uvicorn server: slow clients are cut off, normal
requests and websockets still work, and one address cannot hold more than its share.

Each test starts uvicorn in a thread on a free port of 127.0.0.1, with a tiny ASGI app, once
per HTTP parser (httptools, uvicorn's default here, and h11). Timeouts are short (0.5 s)
and the only timing asserted is "closed before 5 s".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, Literal, cast

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import uvicorn
from websockets.sync.client import connect as ws_connect

from spades.errors import SpadesError
from spades.server import httpguard
from spades.server.httpguard import GuardSettings, PeerCounter, guarded_protocol

Http = Literal["httptools", "h11"]
PARSERS: list[Http] = ["httptools", "h11"]
SHORT = 0.5
LONG = 60.0
BOUND = 5.0


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``/slow`` answers after 1.5 s, ``/echo`` the length of the body it read; a
    websocket echoes one message."""
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        while True:
            msg = await receive()
            if msg["type"] != "websocket.receive":
                return
            await send({"type": "websocket.send", "text": "echo:" + (msg.get("text") or "")})
    if scope["type"] != "http":
        return
    body = b""
    more = True
    while more:
        msg = await receive()
        if msg["type"] == "http.disconnect":
            return
        body += msg.get("body", b"")
        more = msg.get("more_body", False)
    if scope["path"] == "/slow":
        await asyncio.sleep(1.5)
    text = f"ok {len(body)}".encode()
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"%d" % len(text))]}
    )
    await send({"type": "http.response.body", "body": text})


@contextlib.contextmanager
def serve(
    http: Http | str,
    *,
    header_timeout: float = LONG,
    body_timeout: float = LONG,
    per_address: int | None = None,
    max_connections: int | None = None,
    exempt: str = "",
    loop: str = "auto",
) -> Iterator[int]:
    """A uvicorn server with the guarded protocol in a thread; yields its port. ``http`` is
    the parser, or an import string for uvicorn (then the other arguments are ignored)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    protocol: type[asyncio.Protocol] | str = http
    if http in PARSERS:
        protocol = guarded_protocol(
            header_timeout=header_timeout,
            body_timeout=body_timeout,
            per_address=per_address,
            max_connections=max_connections,
            exempt=exempt,
            http=cast(Http, http),
        )
    config = uvicorn.Config(
        app,
        http=protocol,
        ws="websockets-sansio",
        lifespan="off",
        loop=loop,
        log_level="critical",
        timeout_keep_alive=int(LONG),  # so that every cut-off seen here is ours
        h11_max_incomplete_event_size=httpguard.DEFAULT_MAX_HEADER_BYTES,  # as uvicorn_options sets it
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + BOUND
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        server.force_exit = True
        thread.join(BOUND)
        sock.close()


def dial(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=BOUND)
    s.settimeout(BOUND)
    return s


def closed_within(s: socket.socket, seconds: float = BOUND) -> bool:
    """Whether the server closes ``s`` before ``seconds``, reading (and dropping) anything it sends."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        s.settimeout(left)
        try:
            if not s.recv(4096):
                return True
        except ConnectionResetError:
            return True
        except TimeoutError:
            return False
    return False


def request(path: str = "/echo", body: bytes = b"") -> bytes:
    return f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body


def response(s: socket.socket, buffered: bytearray) -> bytes:
    """The next whole response on ``s`` (``buffered`` holds bytes read past the previous
    one), or b"" if the server closed instead."""
    try:
        while b"\r\n\r\n" not in buffered:
            chunk = s.recv(4096)
            if not chunk:
                return b""
            buffered += chunk
        top, _, _ = bytes(buffered).partition(b"\r\n\r\n")
        length = int(top.lower().split(b"content-length:", 1)[1].split(b"\r\n", 1)[0])
        size = len(top) + 4 + length
        while len(buffered) < size:
            chunk = s.recv(4096)
            if not chunk:
                return b""
            buffered += chunk
    except (ConnectionResetError, BrokenPipeError):
        return b""
    whole = bytes(buffered[:size])
    del buffered[:size]
    return whole


def ask(s: socket.socket, path: str = "/echo", body: bytes = b"") -> bytes:
    """One keep-alive request on ``s``; the whole response, or b"" if the server closed instead."""
    try:
        s.sendall(request(path, body))
    except (ConnectionResetError, BrokenPipeError):
        return b""
    return response(s, bytearray())


@pytest.mark.parametrize("http", PARSERS)
def test_half_a_request_line_is_closed_after_the_header_timeout(http: Http) -> None:
    with serve(http, header_timeout=SHORT) as port, dial(port) as s:
        s.sendall(b"GET /ec")
        assert closed_within(s)


@pytest.mark.parametrize("http", PARSERS)
def test_a_silent_connection_is_closed_after_the_header_timeout(http: Http) -> None:
    with serve(http, header_timeout=SHORT) as port, dial(port) as s:
        assert closed_within(s)


@pytest.mark.parametrize("http", PARSERS)
def test_headers_trickled_a_byte_at_a_time_do_not_reset_the_deadline(http: Http) -> None:
    head = b"GET /echo HTTP/1.1\r\nHost: t\r\n" + b"X-Pad: " + b"a" * 200
    with serve(http, header_timeout=SHORT) as port, dial(port) as s:
        end = time.monotonic() + BOUND
        for byte in head:
            assert time.monotonic() < end, "the trickle was never cut off"
            try:
                s.sendall(bytes([byte]))
            except (ConnectionResetError, BrokenPipeError):
                break
            if closed_within(s, 0.05):
                break
        else:
            pytest.fail("the whole trickle went through")


@pytest.mark.parametrize("http", PARSERS)
def test_the_next_request_on_a_kept_alive_connection_has_the_same_deadline(http: Http) -> None:
    with serve(http, header_timeout=SHORT) as port, dial(port) as s:
        assert ask(s).startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /echo HTTP/1.1\r\nHo")
        assert closed_within(s)


@pytest.mark.parametrize("http", PARSERS)
def test_headers_are_capped_in_size(http: Http) -> None:
    def headers(size: int) -> bytes:
        lines = b"".join(b"X-%d: %s\r\n" % (i, b"a" * 990) for i in range(size // 1000))
        return b"GET /echo HTTP/1.1\r\nHost: t\r\n" + lines + b"\r\n"

    with serve(http) as port:
        with dial(port) as s:
            s.sendall(headers(20_000))  # big cookies, say
            assert response(s, bytearray()).endswith(b"ok 0")
        with dial(port) as s:
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                s.sendall(headers(200_000))
            answer = b""
            with contextlib.suppress(ConnectionResetError):
                answer = s.recv(100)
            assert not answer.startswith(b"HTTP/1.1 200")
            assert answer == b"" or answer.startswith((b"HTTP/1.1 431", b"HTTP/1.1 400"))
            assert closed_within(s)


@pytest.mark.parametrize("http", PARSERS)
def test_a_body_short_of_its_content_length_is_closed_after_the_body_timeout(http: Http) -> None:
    with serve(http, body_timeout=SHORT) as port, dial(port) as s:
        s.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n" + b"x" * 10)
        assert closed_within(s)


@pytest.mark.parametrize("http", PARSERS)
def test_normal_requests_and_a_slow_application_are_not_cut_off(http: Http) -> None:
    with serve(http, header_timeout=SHORT, body_timeout=SHORT) as port, dial(port) as s:
        assert ask(s, body=b"x" * 100).startswith(b"HTTP/1.1 200")
        assert ask(s, body=b"x" * 100).endswith(b"ok 100")
        # the application takes longer than both timeouts: that is not the client's fault
        assert ask(s, "/slow").endswith(b"ok 0")
        assert ask(s).endswith(b"ok 0")


@pytest.mark.parametrize("http", PARSERS)
def test_pipelined_requests_wait_for_the_application_not_for_a_deadline(http: Http) -> None:
    with serve(http, header_timeout=SHORT, body_timeout=SHORT) as port, dial(port) as s:
        s.sendall(request("/slow") + request("/echo", b"abc") + request("/echo", b"x"))
        buffered = bytearray()
        assert response(s, buffered).endswith(b"ok 0")
        assert response(s, buffered).endswith(b"ok 3")
        assert response(s, buffered).endswith(b"ok 1")
        assert closed_within(s)  # and then the clock of the next request runs


@pytest.mark.parametrize("http", PARSERS)
def test_a_websocket_upgrade_still_works_and_outlives_the_timeouts(http: Http) -> None:
    with (
        serve(http, header_timeout=SHORT, body_timeout=SHORT) as port,
        ws_connect(f"ws://127.0.0.1:{port}/ws", open_timeout=BOUND) as ws,
    ):
        ws.send("hi")
        assert ws.recv(timeout=BOUND) == "echo:hi"
        time.sleep(3 * SHORT)  # an idle websocket is no slow request
        ws.send("again")
        assert ws.recv(timeout=BOUND) == "echo:again"


def refused(port: int) -> bool:
    """Whether a new connection is closed without an answer."""
    with dial(port) as s:
        return not ask(s).startswith(b"HTTP/1.1 200")


def eventually_accepted(port: int) -> bool:
    end = time.monotonic() + BOUND
    while time.monotonic() < end:
        if not refused(port):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("http", PARSERS)
def test_one_address_holds_at_most_per_address_connections(http: Http) -> None:
    with serve(http, per_address=3) as port:
        held = [dial(port) for _ in range(3)]
        try:
            for s in held:
                assert ask(s).startswith(b"HTTP/1.1 200")
            assert refused(port)
            held.pop().close()
            assert eventually_accepted(port)
            # the ones still held were never disturbed
            for s in held:
                assert ask(s).startswith(b"HTTP/1.1 200")
        finally:
            for s in held:
                s.close()


@pytest.mark.parametrize("http", PARSERS)
def test_websockets_count_against_the_cap_until_they_close(http: Http) -> None:
    with (
        serve(http, per_address=2) as port,
        ws_connect(f"ws://127.0.0.1:{port}/ws", open_timeout=BOUND) as first,
        ws_connect(f"ws://127.0.0.1:{port}/ws", open_timeout=BOUND) as second,
    ):
        assert refused(port)
        first.close()
        assert eventually_accepted(port)
        second.send("still here")
        assert second.recv(timeout=BOUND) == "echo:still here"


@pytest.mark.parametrize("http", PARSERS)
def test_the_plain_asyncio_loop_works_too(http: Http) -> None:
    """uvloop is the default; asyncio's own transports behave the same for us."""
    with (
        serve(http, header_timeout=SHORT, per_address=2, loop="asyncio") as port,
        ws_connect(f"ws://127.0.0.1:{port}/ws", open_timeout=BOUND) as first,
        dial(port) as s,
    ):
        assert ask(s).startswith(b"HTTP/1.1 200")
        assert refused(port)
        first.close()
        assert eventually_accepted(port)
        assert closed_within(s)


@pytest.mark.parametrize("http", PARSERS)
def test_no_cap_when_per_address_is_none(http: Http) -> None:
    with serve(http, per_address=None) as port:
        held = [dial(port) for _ in range(40)]
        try:
            assert all(ask(s).startswith(b"HTTP/1.1 200") for s in held)
        finally:
            for s in held:
                s.close()


@pytest.mark.parametrize("http", PARSERS)
def test_a_trusted_proxy_is_exempt_from_the_per_address_cap(http: Http) -> None:
    with serve(http, per_address=1, exempt="10.0.0.0/8, 127.0.0.1") as port:
        held = [dial(port) for _ in range(5)]
        try:
            assert all(ask(s).startswith(b"HTTP/1.1 200") for s in held)
        finally:
            for s in held:
                s.close()


@pytest.mark.parametrize("http", PARSERS)
def test_the_process_holds_at_most_max_connections(http: Http) -> None:
    with serve(http, per_address=None, max_connections=2) as port:
        with dial(port) as a, dial(port) as b:
            assert ask(a).startswith(b"HTTP/1.1 200") and ask(b).startswith(b"HTTP/1.1 200")
            assert refused(port)
        assert eventually_accepted(port)


def test_uvicorn_options_work_through_an_import_string(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(httpguard.ENV, raising=False)
    options = httpguard.uvicorn_options(header_timeout=SHORT, per_address=2, exempt="10.1.2.3")
    assert options["http"].startswith("spades.server.httpguard:Guarded")
    assert options["h11_max_incomplete_event_size"] == httpguard.DEFAULT_MAX_HEADER_BYTES
    with serve(options["http"]) as port:
        with dial(port) as s:
            assert closed_within(s)  # the header timeout came through the environment
        with dial(port) as a, dial(port) as b:
            assert ask(a).startswith(b"HTTP/1.1 200") and ask(b).startswith(b"HTTP/1.1 200")
            assert refused(port)  # and so did the cap
    monkeypatch.delenv(httpguard.ENV)
    for cls in (httpguard.GuardedH11Protocol, httpguard.GuardedProtocol):
        cls.settings = cls.peers = None


def test_worker_processes_get_the_settings(tmp_path: Any) -> None:
    """uvicorn starts workers with spawn: a fresh interpreter that imports the class by name
    and inherits the environment."""
    env = {
        **os.environ,
        httpguard.ENV: json.dumps({"header_timeout": 3.5, "per_address": 7, "exempt": ["::1"]}),
    }
    code = (
        "import pickle, sys; from spades.server.httpguard import GuardedProtocol as G; "
        "assert pickle.loads(pickle.dumps(G)) is G; print(G._g_setup()[0])"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "header_timeout=3.5" in out.stdout and "per_address=7" in out.stdout
    assert "exempt=('::1',)" in out.stdout


def test_bad_settings_in_the_environment_are_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    for text in ("{not json", '{"colour": 1}', '{"header_timeout": -1}'):
        monkeypatch.setenv(httpguard.ENV, text)
        with pytest.raises(
            SpadesError, match=rf"^(?:{httpguard.ENV} holds bad settings|header_timeout)[^\n]*$"
        ):
            GuardSettings.from_env()


def test_peer_keys() -> None:
    peers = PeerCounter(
        GuardSettings(per_address=2, exempt=("192.168.0.0/16", "unix:/run/x", "2001:db8:1::5"))
    )
    assert peers.key("203.0.113.9") == "203.0.113.9"
    assert peers.key("::ffff:203.0.113.9") == "203.0.113.9"  # a dual-stack socket's IPv4 peer
    assert peers.key("2001:db8:aa:bb:1:2:3:4") == peers.key("2001:db8:aa:bb:ffff::1") == "2001:db8:aa:bb::/64"
    assert peers.key("2001:db8:aa:bc::1") != peers.key("2001:db8:aa:bb::1")
    assert peers.key("192.168.7.7") == "" and peers.key("2001:db8:1::5") == ""  # the proxies
    assert PeerCounter(GuardSettings(exempt=("*",))).key("203.0.113.9") == ""
    assert PeerCounter(GuardSettings(per_address=None)).key("203.0.113.9") == ""


def test_peer_counting() -> None:
    peers = PeerCounter(GuardSettings(per_address=2, max_connections=4, exempt=("10.0.0.1",)))
    a1, a2 = peers.acquire("203.0.113.9"), peers.acquire("203.0.113.9")
    assert a1 == a2 == "203.0.113.9"
    assert peers.acquire("203.0.113.9") is None  # its third
    assert peers.acquire("10.0.0.1") == "" and peers.acquire("10.0.0.1") == ""  # the proxy is free...
    assert peers.acquire("10.0.0.1") is None  # ...of the per-address cap, not of the total
    assert peers.total == 4
    peers.release(a1)
    assert peers.acquire("198.51.100.1") == "198.51.100.1"
    for key in ("203.0.113.9", "", "", "198.51.100.1"):
        peers.release(key)
    assert peers.total == 0 and peers.counts == {}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"header_timeout": 0},
        {"body_timeout": -1.0},
        {"body_timeout": float("nan")},
        {"per_address": 0},
        {"max_connections": -3},
    ],
)
def test_bad_settings_are_one_line_errors(kwargs: dict[str, Any]) -> None:
    with pytest.raises(
        SpadesError, match=r"^(header_timeout|body_timeout|per_address|max_connections) must be [^\n]*$"
    ):
        guarded_protocol(**kwargs)
