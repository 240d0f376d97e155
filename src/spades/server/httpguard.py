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

Headers are also capped in size (``max_header_bytes``, 32 KiB): httptools, uvicorn's
default parser, takes any amount, so a client could fill our memory within the deadline.

Separately, each peer address (an IPv6 peer by its /64, which is what one customer gets)
may hold at most ``per_address`` connections at once, websockets included, and the process
at most ``max_connections``; a connection over either cap is closed as soon as it is
accepted. Behind a reverse proxy every connection comes from the proxy, so its addresses are
listed in ``exempt`` (the same list as uvicorn's ``forwarded_allow_ips``) and the proxy caps
its clients itself.

Two ways in. ``uvicorn_options(...)`` gives the keyword arguments for ``uvicorn.run``: an
import string of ``GuardedProtocol``, with the settings in the environment, so worker
processes started by ``uvicorn.run(workers=N)`` get them too (each worker counts its own
connections). ``guarded_protocol(...)`` returns a class with its settings built in, for one
process (tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Literal, cast

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr

from spades.errors import SpadesError

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard]
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

__all__ = [
    "ENV",
    "GuardSettings",
    "GuardedH11Protocol",
    "GuardedProtocol",
    "PeerCounter",
    "guarded_protocol",
    "uvicorn_options",
]

ENV = "SPADES_HTTP_GUARD"
"""The environment variable that carries the settings to uvicorn's worker processes."""

Phase = Literal["headers", "body", "served"]
"""Where a connection stands: waiting for request headers, for a request body, or for our
response (which is the application's business, so no deadline)."""

log = logging.getLogger("spades.server")


DEFAULT_HEADER_TIMEOUT = 10.0
DEFAULT_BODY_TIMEOUT = 30.0
DEFAULT_PER_ADDRESS = 256
DEFAULT_MAX_HEADER_BYTES = 32 * 1024


@dataclass(frozen=True, slots=True)
class GuardSettings:
    header_timeout: float = DEFAULT_HEADER_TIMEOUT
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    per_address: int | None = DEFAULT_PER_ADDRESS
    """Connections one address (IPv6: one /64) may hold; ``None``: no cap."""
    max_connections: int | None = None
    """Connections the process may hold; ``None``: no cap."""
    exempt: tuple[str, ...] = ()
    """Addresses or networks (a reverse proxy) free of the per-address cap; ``*``: all."""
    max_header_bytes: int = DEFAULT_MAX_HEADER_BYTES
    """Request line and headers, at most (httptools has no limit of its own; h11 has
    ``h11_max_incomplete_event_size``, which ``uvicorn_options`` sets to the same)."""

    def check(self) -> GuardSettings:
        for name, value in (("header_timeout", self.header_timeout), ("body_timeout", self.body_timeout)):
            if not value > 0:
                raise SpadesError(f"{name} must be more than 0 seconds, not {value}")
        for name, cap in (("per_address", self.per_address), ("max_connections", self.max_connections)):
            if cap is not None and cap < 1:
                raise SpadesError(f"{name} must be at least 1 (or None for no cap), not {cap}")
        if self.max_header_bytes < 1024:
            raise SpadesError(f"max_header_bytes must be at least 1024, not {self.max_header_bytes}")
        return self

    @classmethod
    def from_env(cls) -> GuardSettings:
        text = os.environ.get(ENV)
        if not text:
            return cls()
        try:
            data = json.loads(text)
            return cls(**{**data, "exempt": tuple(data.get("exempt", ()))}).check()
        except (ValueError, TypeError) as e:
            raise SpadesError(f"{ENV} holds bad settings: {e}") from None


class PeerCounter:
    """Open connections per peer and in all; one per protocol class, so one per process."""

    def __init__(self, settings: GuardSettings) -> None:
        self.per_address = settings.per_address
        self.max_connections = settings.max_connections
        self.exempt_all = "*" in settings.exempt
        self.exempt: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for entry in settings.exempt:
            # forwarded_allow_ips may also hold names uvicorn matches literally (a unix
            # socket's); those are never TCP peers, so they need no exemption here
            with contextlib.suppress(ValueError):
                self.exempt.append(ipaddress.ip_network(entry.strip(), strict=False))
        self.total = 0
        self.counts: dict[str, int] = {}

    def key(self, host: str) -> str:
        """What the per-address cap counts ``host`` as: "" for an exempt peer."""
        if self.exempt_all or self.per_address is None:
            return ""
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return host
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if any(ip in net for net in self.exempt):
            return ""
        if isinstance(ip, ipaddress.IPv6Address):
            return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
        return str(ip)

    def acquire(self, host: str) -> str | None:
        """Count one more connection from ``host``: the key to release it with, or ``None``
        (and nothing counted) when a cap is reached."""
        if self.max_connections is not None and self.total >= self.max_connections:
            return None
        key = self.key(host)
        if key:
            n = self.counts.get(key, 0)
            if self.per_address is not None and n >= self.per_address:
                return None
            self.counts[key] = n + 1
        self.total += 1
        return key

    def release(self, key: str) -> None:
        self.total -= 1
        if key:
            n = self.counts.get(key, 0) - 1
            if n > 0:
                self.counts[key] = n
            else:
                self.counts.pop(key, None)


class _Guard(asyncio.Protocol):
    """The deadlines and the counting; the subclasses say which phase a connection is in.

    Placed before uvicorn's protocol in the bases, so ``super()`` is uvicorn's method.
    """

    settings: ClassVar[GuardSettings | None] = None
    """``None`` until the first connection reads them from the environment."""
    peers: ClassVar[PeerCounter | None] = None

    _g_transport: asyncio.Transport | None = None
    _g_timer: asyncio.TimerHandle | None = None
    _g_phase: Phase | None = None
    _g_key: str | None = None
    """Set while this connection is counted (in ``_g_peers``)."""
    _g_peers: PeerCounter | None = None
    _g_done = False
    """Set once the socket is closed or handed to the websocket protocol: no more deadlines."""

    @classmethod
    def _g_setup(cls) -> tuple[GuardSettings, PeerCounter]:
        if cls.settings is None:
            cls.settings = GuardSettings.from_env()
        if cls.peers is None or "peers" not in cls.__dict__:
            cls.peers = PeerCounter(cls.settings)
        return cls.settings, cls.peers

    def _phase(self) -> Phase:
        raise NotImplementedError

    # ---------------------------------------------------------------- asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        _, peers = self._g_setup()
        transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass of it
        self._g_transport = transport
        addr = get_remote_addr(transport)
        key = peers.acquire(addr[0] if addr is not None else "")
        if key is None:
            log.debug("connection from %s refused: too many connections", addr)
            self._g_done = True
            transport.abort()
            return
        self._g_key, self._g_peers = key, peers
        self._g_sync()

    def connection_lost(self, exc: Exception | None) -> None:
        self._g_stop()
        self._g_release()
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
        let that protocol release our count when its connection ends."""
        self._g_stop()
        key, self._g_key = self._g_key, None
        if key is None or self._g_transport is None:
            return
        ws = self._g_transport.get_protocol()
        peers = self._g_peers
        if ws is self or peers is None:  # the upgrade did not happen
            self._g_key = key
            return
        ws_lost: Callable[[Exception | None], None] = ws.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            try:
                ws_lost(exc)
            finally:
                peers.release(key)

        ws.connection_lost = connection_lost  # type: ignore[method-assign]

    def _g_release(self) -> None:
        key, self._g_key = self._g_key, None
        if key is not None and self._g_peers is not None:
            self._g_peers.release(key)

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
        settings, _ = self._g_setup()
        seconds = {"headers": settings.header_timeout, "body": settings.body_timeout}.get(phase)
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


GuardedProtocol: type[_Guard] = GuardedH11Protocol
"""What uvicorn's "auto" would pick, guarded: httptools when it is installed, else h11."""

if HttpToolsProtocol is not None:

    class GuardedHttpToolsProtocol(_Guard, HttpToolsProtocol):
        # httptools parses pipelined requests ahead of the responses, so we count the
        # requests whose response is still owed and follow the parser's callbacks.
        _g_in_body = False
        _g_owed = 0
        # and it takes headers of any size: we count the bytes received while a request's
        # headers are incomplete (from the chunk where it began, so a pipelined request may
        # be charged a little of the one before it; browsers do not pipeline)
        _g_in_head = True
        _g_head_bytes = 0

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._g_in_head and not self._g_done:
                self._g_head_bytes += len(data)
                settings, _ = self._g_setup()
                if self._g_head_bytes > settings.max_header_bytes and not self.transport.is_closing():
                    log.debug("request headers over %d bytes: refused", settings.max_header_bytes)
                    self._g_stop()
                    self.transport.write(
                        b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                        b"content-length: 0\r\nconnection: close\r\n\r\n"
                    )
                    self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._g_in_head, self._g_head_bytes = True, 0

        def _phase(self) -> Phase:
            if self._g_in_body:
                return "body"
            return "served" if self._g_owed else "headers"

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            self._g_in_body, self._g_in_head = True, False
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

    GuardedProtocol = GuardedHttpToolsProtocol
    __all__ += ["GuardedHttpToolsProtocol"]


def _settings(
    header_timeout: float,
    body_timeout: float,
    per_address: int | None,
    max_connections: int | None,
    exempt: str | Sequence[str],
    max_header_bytes: int,
) -> GuardSettings:
    if isinstance(exempt, str):
        exempt = [e for e in (part.strip() for part in exempt.split(",")) if e]
    return GuardSettings(
        header_timeout=float(header_timeout),
        body_timeout=float(body_timeout),
        per_address=per_address,
        max_connections=max_connections,
        exempt=tuple(exempt),
        max_header_bytes=max_header_bytes,
    ).check()


def guarded_protocol(
    *,
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
    body_timeout: float = DEFAULT_BODY_TIMEOUT,
    per_address: int | None = DEFAULT_PER_ADDRESS,
    max_connections: int | None = None,
    exempt: str | Sequence[str] = (),
    max_header_bytes: int = DEFAULT_MAX_HEADER_BYTES,
    http: Literal["auto", "httptools", "h11"] = "auto",
) -> type[asyncio.Protocol]:
    """A protocol class for ``uvicorn.run(http=...)`` with these settings built in (one
    process only: the class cannot be pickled for worker processes; ``uvicorn_options`` can).

    A timeout of ``math.inf`` turns that deadline off; ``per_address=None`` or
    ``exempt="*"`` turns the per-address cap off. ``max_header_bytes`` binds httptools
    only (give h11's limit to uvicorn as ``h11_max_incomplete_event_size``).
    """
    settings = _settings(header_timeout, body_timeout, per_address, max_connections, exempt, max_header_bytes)
    if http == "httptools" and HttpToolsProtocol is None:  # pragma: no cover
        raise SpadesError("httptools is not installed: pip install 'uvicorn[standard]'")
    base = {"auto": GuardedProtocol, "h11": GuardedH11Protocol}.get(http, GuardedProtocol)
    attrs = {"settings": settings, "peers": PeerCounter(settings), "__module__": __name__}
    return type(base.__name__, (base,), attrs)


def default_max_connections(headroom: int = 256) -> int | None:
    """The file descriptors this process may open, less ``headroom`` for the database, the
    bot processes' pipes and the logs; ``None`` where the limit is unknown or unlimited."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):  # pragma: no cover - not POSIX
        return None
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return None
    return max(16, soft - headroom)


def uvicorn_options(
    *,
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
    body_timeout: float = DEFAULT_BODY_TIMEOUT,
    per_address: int | None = DEFAULT_PER_ADDRESS,
    max_connections: int | None = -1,
    exempt: str | Sequence[str] = (),
    max_header_bytes: int = DEFAULT_MAX_HEADER_BYTES,
) -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.run``: the guarded protocol, as an import string with
    the settings in the environment (``ENV``), so ``workers=N`` processes use it too.

    ``max_connections=-1`` (the default) means ``default_max_connections()``; ``exempt``
    takes the trusted proxies as given to ``forwarded_allow_ips`` (a comma-separated string
    or a list).
    """
    if max_connections == -1:
        max_connections = default_max_connections()
    settings = _settings(header_timeout, body_timeout, per_address, max_connections, exempt, max_header_bytes)
    os.environ[ENV] = json.dumps(asdict(settings))
    # the classes read the environment at their first connection; forget any earlier reading
    for cls in (GuardedH11Protocol, GuardedProtocol):
        cls.settings = None
        cls.peers = None
    return {
        "http": f"{__name__}:{GuardedProtocol.__name__}",
        "h11_max_incomplete_event_size": settings.max_header_bytes,
    }
