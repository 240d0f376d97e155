"""Redis pub/sub between the workers of one service: changes fan out, commands reach owners.

Why pub/sub and not a queue: a message that nobody hears is not lost information here. The
event log is the truth; pub/sub only saves the listeners a read. A watcher that missed a
message notices a gap in event numbers (or the periodic check of the log's last number) and
reads the log. So the bus needs no persistence, and Redis may restart under a running service.

One connection subscribes to every channel this worker listens on, and one reader task hands
each message to its channel's handler, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from spades.errors import SpadesError, first_line

log = logging.getLogger("spades.server")

Handler = Callable[[str], None]
PREFIX = "spades:"


class BusError(SpadesError):
    """Redis could not be reached or refused a command."""


class Bus:
    """A thin, typed face over ``redis.asyncio`` pub/sub that survives Redis restarts."""

    def __init__(self, url: str) -> None:
        try:
            import redis.asyncio as aioredis
        except ImportError as e:  # pragma: no cover - the web extra brings redis
            raise BusError(
                f"the redis package is not installed ({e.name}): pip install 'spades[web]'"
            ) from None
        self.url = url
        try:
            self._redis = aioredis.Redis.from_url(url, decode_responses=True, health_check_interval=10)
        except ValueError as e:
            raise BusError(f"Redis URL {url!r} is not valid: {e}") from None
        self._handlers: dict[str, Handler] = {}
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self._reader: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.connected = asyncio.Event()

    async def start(self) -> None:
        try:
            await self._redis.ping()
        except Exception as e:
            raise BusError(f"cannot reach Redis at {self.url}: {first_line(e)}") from None
        loop = asyncio.get_running_loop()
        self._reader = loop.create_task(self._read(), name="bus-reader")
        self._sender = loop.create_task(self._send(), name="bus-sender")

    async def close(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender
            self._sender = None
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # typed from redis 8
        with contextlib.suppress(Exception):
            await self._redis.aclose()

    async def publish(self, channel: str, message: str) -> int:
        """Send; returns how many subscribers heard it (0: nobody listens, or Redis is down)."""
        try:
            return int(await self._redis.publish(PREFIX + channel, message))
        except Exception as e:
            log.warning("bus: publish to %s failed: %s", channel, first_line(e))
            return 0

    def post(self, channel: str, message: str) -> None:
        """Send without waiting, in order: everything posted goes out in the order posted, in
        one pipeline per batch (a table's events must reach its watchers in sequence)."""
        self._outbox.put_nowait((PREFIX + channel, message))

    async def _send(self) -> None:
        while True:
            first = await self._outbox.get()
            batch = [first]
            while not self._outbox.empty() and len(batch) < 1000:
                batch.append(self._outbox.get_nowait())
            try:
                pipe = self._redis.pipeline(transaction=False)
                for channel, message in batch:
                    pipe.publish(channel, message)
                await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # watchers notice the gap and read the log
                log.warning("bus: %d messages not sent: %s", len(batch), first_line(e))
                await asyncio.sleep(0.2)

    async def subscribe(self, channel: str, handler: Handler) -> None:
        first = not self._handlers
        self._handlers[channel] = handler
        try:
            await self._pubsub.subscribe(PREFIX + channel)
        except Exception as e:  # the reader resubscribes everything when Redis is back
            log.warning("bus: subscribe to %s failed: %s", channel, first_line(e))
        if first:
            self.connected.set()

    async def unsubscribe(self, channel: str) -> None:
        if self._handlers.pop(channel, None) is None:
            return
        with contextlib.suppress(Exception):
            await self._pubsub.unsubscribe(PREFIX + channel)

    def listening(self, channel: str) -> bool:
        return channel in self._handlers

    async def incr_window(self, key: str, window_s: int) -> int:
        """Count one more in a fixed window shared by every worker (rate limits)."""
        full = PREFIX + "rate:" + key
        try:
            pipe = self._redis.pipeline()
            pipe.incr(full)
            pipe.expire(full, window_s, nx=True)
            n, _ = await pipe.execute()
            return int(n)
        except Exception as e:
            log.warning("bus: rate counter failed: %s", first_line(e))
            return 0

    async def _read(self) -> None:
        while True:
            if not self._handlers:
                await self.connected.wait()
            try:
                msg = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("bus: lost Redis (%s); reconnecting", first_line(e))
                await asyncio.sleep(0.5)
                await self._resubscribe()
                continue
            if msg is None or msg.get("type") != "message":
                continue
            channel = str(msg["channel"])[len(PREFIX) :]
            handler = self._handlers.get(channel)
            if handler is None:
                continue
            try:
                handler(str(msg["data"]))
            except Exception:
                log.exception("bus: the handler of %s failed", channel)

    async def _resubscribe(self) -> None:
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # typed from redis 8
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        channels = [PREFIX + c for c in self._handlers]
        if channels:
            try:
                await self._pubsub.subscribe(*channels)
            except Exception as e:
                log.warning("bus: resubscribe failed: %s", first_line(e))
