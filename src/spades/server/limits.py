"""Limits per client address: how many tables one may create, how many sockets one may hold.

Why per address: the server-wide limits (live tables, connections per table) protect the
machine, but one client alone could reach them and lock everyone else out. The address is
the peer's, or, behind a reverse proxy that uvicorn is told to trust
(``spades serve --trusted-proxy``), the one the proxy forwards.

Table creations count in a fixed window: in Redis when the service has it (shared by every
worker), else in this process. Open websockets count in this process (each worker holds its
own sockets).
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

CREATE_PER_WINDOW = 30
CREATE_WINDOW_S = 3600
SOCKETS_PER_ADDRESS = 64


class AddressLimits:
    def __init__(
        self,
        *,
        create_per_window: int = CREATE_PER_WINDOW,
        window_s: int = CREATE_WINDOW_S,
        sockets: int = SOCKETS_PER_ADDRESS,
        exempt: frozenset[str] = frozenset(),
    ) -> None:
        self.create_per_window = create_per_window
        self.window_s = window_s
        self.sockets = sockets
        self.exempt = exempt
        """Addresses never limited (benchmarks on loopback say so explicitly)."""
        self.bus: Any = None
        """The Redis bus of a many-worker service (``Bus.incr_window``), or ``None``."""
        self._created: dict[str, deque[float]] = {}
        self._open: dict[str, int] = {}

    async def create(self, address: str) -> str | None:
        """Count one table creation; the one-line refusal if this address is over its limit."""
        if address in self.exempt or self.create_per_window <= 0:
            return None
        if self.bus is not None:
            n = await self.bus.incr_window(f"create:{address}", self.window_s)
        else:
            now = time.monotonic()
            seen = self._created.setdefault(address, deque())
            while seen and seen[0] <= now - self.window_s:
                seen.popleft()
            full = len(seen) >= self.create_per_window  # checked before counting this one
            if not full:
                seen.append(now)
            n = len(seen) + (1 if full else 0)
            if len(self._created) > 100_000:  # forget the quiet ones rather than grow
                for key in [k for k, v in self._created.items() if not v][:50_000]:
                    del self._created[key]
        if n > self.create_per_window:
            minutes = self.window_s // 60
            return (
                f"too many tables created from your address ({self.create_per_window} in {minutes} "
                "minutes): wait, or join an open table"
            )
        return None

    def open_socket(self, address: str) -> str | None:
        """Count one more websocket; the refusal if this address holds too many (the caller
        calls ``close_socket`` either way once the socket ends)."""
        n = self._open.get(address, 0) + 1
        self._open[address] = n
        if address in self.exempt or self.sockets <= 0 or n <= self.sockets:
            return None
        return f"too many connections from your address (limit {self.sockets})"

    def close_socket(self, address: str) -> None:
        n = self._open.get(address, 0) - 1
        if n <= 0:
            self._open.pop(address, None)
        else:
            self._open[address] = n
