"""uvicorn HTTP protocols that cut off slow clients and cap the connections of one address.

Why: uvicorn times out an idle keep-alive connection, but nothing else. Its keep-alive timer
is not armed when a connection opens and is cancelled by the first byte of a request, so a
client that sends half a request line, or a ``Content-Length`` and then a trickle of body,
holds its socket, its file descriptor and its buffers for as long as it likes, and a
thousand such clients from one address hold a thousand (the slowloris attack).

The guarded protocols give each request two deadlines, in the manner of nginx's
``client_header_timeout`` and ``client_body_timeout`` (but as totals, not gaps between
reads, so trickling one byte a second does not help):

- the request line and headers must be complete within ``header_timeout`` seconds of the
  connection opening, or of the previous response when a keep-alive connection is reused;
- the body must be complete within ``body_timeout`` seconds of the headers.

While the application works on a request no deadline runs (that is the application's
time, not the client's). A websocket upgrade hands the socket to uvicorn's websocket
protocol, whose pings watch it from then on.

Separately, each peer address may hold at most ``per_address`` connections at once
(websockets included); the next one is closed as soon as it is accepted. Behind a reverse
proxy every connection comes from the proxy, so the cap must be turned off there
(``per_address=None``) and left to the proxy.

Use ``uvicorn.run(app, http=guarded_protocol(...))``. uvicorn builds its protocol with fixed
arguments, so the settings are class attributes of a subclass made by the factory; each
class has its own connection counter. Such a class cannot be pickled, so it serves one
process (``uvicorn.run(..., workers=1)``, which is what ``spades serve`` runs).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from typing import Any, ClassVar, Literal, cast

from uvicorn.protocols.utils import get_remote_addr

from spades.errors import SpadesError

__all__ = [
    "DEFAULT_BODY_TIMEOUT",
    "DEFAULT_HEADER_TIMEOUT",
    "DEFAULT_PER_ADDRESS",
    "PeerCounter",
    "guarded_protocol",
]

DEFAULT_HEADER_TIMEOUT = 10.0
DEFAULT_BODY_TIMEOUT = 30.0
DEFAULT_PER_ADDRESS = 256

Phase = Literal["headers", "body", "served"]
"""Where a connection stands: waiting for request headers, for a request body, or for our
response (which is the application's business, so no deadline)."""

log = logging.getLogger("spades.server")


class PeerCounter:
    """Open connections per peer address; one per protocol class, so one per server."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.counts: dict[str, int] = {}

    def acquire(self, peer: str) -> bool:
        """Count one more connection from ``peer``, or say no when it already holds ``limit``."""
        n = self.counts.get(peer, 0)
        if self.limit is not None and n >= self.limit:
            return False
        self.counts[peer] = n + 1
        return True

    def release(self, peer: str) -> None:
        n = self.counts.get(peer, 0) - 1
        if n > 0:
            self.counts[peer] = n
        else:
            self.counts.pop(peer, None)


class _Guard(asyncio.Protocol):
    """The deadlines and the per-address count; the subclasses say which phase we are in.

    Placed before uvicorn's protocol in the bases, so ``super()`` is uvicorn's method.
    """

    header_timeout: ClassVar[float] = DEFAULT_HEADER_TIMEOUT
    body_timeout: ClassVar[float] = DEFAULT_BODY_TIMEOUT
    peers: ClassVar[PeerCounter] = PeerCounter(None)

    _g_transport: asyncio.Transport | None = None
    _g_timer: asyncio.TimerHandle | None = None
    _g_phase: Phase | None = None
    _g_peer: str | None = None
    _g_done = False
    """Set once the socket is closed or handed to the websocket protocol: no more deadlines."""

    def _phase(self) -> Phase:
        raise NotImplementedError

    # ---------------------------------------------------------------- asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass of it
        self._g_transport = transport
        addr = get_remote_addr(transport) if self.peers.limit is not None else None
        if addr is not None:
            if not self.peers.acquire(addr[0]):
                log.debug("%s already holds %s connections: refused", addr[0], self.peers.limit)
                self._g_done = True
                transport.abort()
                return
            self._g_peer = addr[0]
        self._g_sync()

    def connection_lost(self, exc: Exception | None) -> None:
        self._g_stop()
        if self._g_peer is not None:
            self.peers.release(self._g_peer)
            self._g_peer = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._g_sync()

    # ---------------------------------------------------------------- uvicorn hooks
    def on_response_complete(self) -> None:
        """uvicorn calls this when a response is sent: the next request's clock starts."""
        super().on_response_complete()  # type: ignore[misc]
        self._g_sync()

    def _g_hand_off(self) -> None:
        """After uvicorn gave the socket to its websocket protocol: stop our deadlines and
        let that protocol release the address's count when its connection ends."""
        self._g_stop()
        peer, self._g_peer = self._g_peer, None
        if peer is None or self._g_transport is None:
            return
        ws = self._g_transport.get_protocol()
        if ws is self:  # the upgrade did not happen
            self.peers.release(peer)
            return
        ws_lost: Callable[[Exception | None], None] = ws.connection_lost
        counter = self.peers

        def connection_lost(exc: Exception | None) -> None:
            try:
                ws_lost(exc)
            finally:
                counter.release(peer)

        ws.connection_lost = connection_lost  # type: ignore[method-assign]

    # ---------------------------------------------------------------- deadlines
    def _g_stop(self) -> None:
        self._g_done = True
        if self._g_timer is not None:
            self._g_timer.cancel()
            self._g_timer = None

    def _g_sync(self) -> None:
        """Start the deadline of the phase we are in, unless it is the one already running
        (a deadline counts from the start of its phase, not from the latest bytes)."""
        transport = self._g_transport
        if self._g_done or transport is None or transport.is_closing():
            return
        phase = self._phase()
        if phase == self._g_phase:
            return
        self._g_phase = phase
        if self._g_timer is not None:
            self._g_timer.cancel()
            self._g_timer = None
        seconds = {"headers": self.header_timeout, "body": self.body_timeout}.get(phase)
        if seconds is not None and math.isfinite(seconds):
            self._g_timer = asyncio.get_running_loop().call_later(seconds, self._g_expired, phase)

    def _g_expired(self, phase: Phase) -> None:
        self._g_timer = None
        transport = self._g_transport
        if transport is not None and not transport.is_closing():
            log.debug("request %s not received in time: connection closed", phase)
            # abort, not close: a client this slow may not be reading either, and close
            # would wait for our write buffer to drain.
            transport.abort()


def _h11_class() -> type[_Guard]:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(_Guard, H11Protocol):
        def _phase(self) -> Phase:
            # h11 stops parsing after a complete request until the response is sent
            # (start_next_cycle), so IDLE means "no request in hand, waiting for one".
            state = self.conn.their_state
            if state is h11.IDLE:
                return "headers"
            if state is h11.SEND_BODY:
                return "body"
            return "served"

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            super().handle_websocket_upgrade(event)
            self._g_hand_off()

    return GuardedH11Protocol


def _httptools_class() -> type[_Guard]:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class GuardedHttpToolsProtocol(_Guard, HttpToolsProtocol):
        # httptools parses pipelined requests ahead of the responses, so we count the
        # requests whose response is still owed and follow the parser's callbacks.
        _g_in_body = False
        _g_owed = 0

        def _phase(self) -> Phase:
            if self._g_in_body:
                return "body"
            return "served" if self._g_owed else "headers"

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            self._g_in_body = True
            self._g_owed += 1

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._g_in_body = False

        def on_response_complete(self) -> None:
            self._g_owed = max(0, self._g_owed - 1)
            super().on_response_complete()

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            self._g_hand_off()

    return GuardedHttpToolsProtocol


def guarded_protocol(
    *,
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
    body_timeout: float = DEFAULT_BODY_TIMEOUT,
    per_address: int | None = DEFAULT_PER_ADDRESS,
    http: Literal["auto", "httptools", "h11"] = "auto",
) -> type[asyncio.Protocol]:
    """A protocol class for ``uvicorn.run(http=...)`` with these limits.

    ``http="auto"`` picks what uvicorn's own "auto" picks: httptools when it is installed,
    else h11. A timeout of ``math.inf`` turns that deadline off; ``per_address=None`` turns
    the cap off (behind a reverse proxy, where every peer is the proxy).
    """
    for name, value in (("header_timeout", header_timeout), ("body_timeout", body_timeout)):
        if not value > 0:
            raise SpadesError(f"{name} must be more than 0 seconds, not {value}")
    if per_address is not None and per_address < 1:
        raise SpadesError(f"per_address must be at least 1 (or None for no cap), not {per_address}")
    if http == "auto":
        try:
            import httptools  # noqa: F401
        except ImportError:
            http = "h11"
        else:
            http = "httptools"
    base = _httptools_class() if http == "httptools" else _h11_class()
    attrs: dict[str, Any] = {
        "header_timeout": float(header_timeout),
        "body_timeout": float(body_timeout),
        "peers": PeerCounter(per_address),
        "__module__": __name__,
    }
    return type(base.__name__, (base,), attrs)
