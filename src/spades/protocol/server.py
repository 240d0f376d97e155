"""The program side: any built-in bot answering ``spec/bot-protocol.md`` on stdin/stdout.

``spades bot NAME`` runs ``serve``. It is the reference implementation of a protocol bot:
ours meet outside bots through the very same pipe, and the round-trip tests compare its
decisions with the same bot's in-process decisions.

A request it cannot read gets ``{"error": "..."}`` (which the other end counts as a fault)
rather than silence, so a confused host does not wait for its time limit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import IO, Any

from spades.bots import make_bot
from spades.bots.base import Bot
from spades.errors import SpadesError
from spades.observation import Observation
from spades.protocol.messages import answer_word, decode_line, encode, legal_from_words
from spades.rules import Rules

log = logging.getLogger("spades.protocol.server")


class BotServer:
    """One bot behind the protocol: feed it request lines, get answer lines (or ``None``)."""

    def __init__(self, make: Callable[[], Bot], *, author: str = "spades") -> None:
        self._make = make
        self.bot = make()
        self.author = author
        self.rules = Rules()
        self._fresh = True
        self._wants_events = type(self.bot).notify is not Bot.notify
        self.done = False

    def handle(self, line: bytes | str) -> bytes | None:
        try:
            msg = decode_line(line)
            kind = msg.get("type")
            if kind == "act":
                return encode(self._act(msg))
            if kind == "event":
                if self._wants_events:
                    self.bot.notify(Observation.from_json(msg["observation"], self.rules))
                return None
            if kind == "hello":
                return encode(self._hello(msg))
            if kind == "bye":
                self.done = True
                return None
            raise SpadesError(f"unknown request type {kind!r}")
        except (SpadesError, KeyError, TypeError, ValueError, AttributeError) as e:
            what = f"missing field {e}" if isinstance(e, KeyError) else str(e)
            log.warning("bot %s: bad request: %s", self.bot.name, what)
            return encode({"error": what})

    def _hello(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.rules = Rules.from_spec(msg.get("rules"))
        if not self._fresh:  # a second game on the same pipe: a bot as fresh as the first
            self.bot.close()
            self.bot = self._make()
        self._fresh = False
        return {"name": self.bot.name, "author": self.author}

    def _act(self, msg: dict[str, Any]) -> dict[str, Any]:
        self._fresh = False
        obs = Observation.from_json(msg["observation"], self.rules)
        legal = legal_from_words(msg["legal"])
        if not legal:
            raise SpadesError("act with no legal action")
        decision = self.bot.decide(obs, legal)
        out: dict[str, Any] = {"action": answer_word(decision.action, obs)}
        if decision.why:
            out["why"] = decision.why
        return out

    def close(self) -> None:
        self.bot.close()


def serve(spec: str, *, seed: int | None, stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """Answer requests until ``bye`` or the end of input; a bad spec fails before any I/O."""
    if spec.startswith("cmd:"):
        raise SpadesError("spades bot runs built-in bots; a cmd: program already speaks the protocol")
    server = BotServer(lambda: make_bot(spec, seed=seed))
    try:
        for line in stdin:
            if not line.strip():
                continue
            answer = server.handle(line)
            if answer is not None:
                stdout.write(answer)
                stdout.flush()
            if server.done:
                break
    finally:
        server.close()


__all__ = ["BotServer", "serve"]
