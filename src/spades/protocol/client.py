"""``ProgramBot``: an outside program seated like any bot (``make_bot("cmd:PROGRAM ARGS")``).

The program speaks ``spec/bot-protocol.md`` on its stdin and stdout. It is started lazily,
at the first observation, because only then are the seat and the rules known for ``hello``.
Whatever it does wrong costs it one decision, never the game: an illegal answer, malformed
JSON, an exit or crash, or no answer within the time limit are *faults*; the seat's fallback
bot (``heuristic`` unless configured) makes that decision, the fault is logged with the
bot's name and counted in ``faults`` (which match reports read).

A program that exits or times out is killed and started again (a fresh ``hello``) at the
next decision, at most ``restarts`` times per game; after that it stays faulted and the
fallback plays every remaining decision of the game, each one counted as a fault.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
import threading
import weakref
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from spades.actions import Action
from spades.bots.base import Bot, Decision
from spades.errors import SpadesError
from spades.observation import Observation
from spades.protocol.messages import (
    PROTOCOL,
    decode_line,
    encode,
    legal_words,
    pass_count,
    read_answer,
    rules_message,
)
from spades.protocol.pipe import BAD_JSON, EXIT, ILLEGAL, TIMEOUT, Pipe, PipeFault
from spades.rules import Rules

log = logging.getLogger("spades.protocol")

DEFAULT_TIMEOUT: Final = 10.0
DEFAULT_FALLBACK: Final = "heuristic"
DEFAULT_RESTARTS: Final = 2
ENV_TIMEOUT: Final = "SPADES_BOT_TIMEOUT"
ENV_FALLBACK: Final = "SPADES_BOT_FALLBACK"
FAULT_KINDS: Final = (ILLEGAL, BAD_JSON, EXIT, TIMEOUT)
_WHY_MAX: Final = 200
_SETTLE: Final = 0.05
_DOWN: Final = "the program is down for the rest of the game"


def configure(*, timeout: float | None = None, fallback: str | None = None) -> None:
    """Set the defaults of every ``ProgramBot`` made afterwards, in this process and in the
    worker processes it starts (they are kept in the environment): what ``--bot-timeout``
    and ``--bot-fallback`` of ``spades match`` and ``spades play`` do."""
    if timeout is not None:
        os.environ[ENV_TIMEOUT] = repr(_check_timeout(timeout))
    if fallback is not None:
        _check_fallback(fallback)
        os.environ[ENV_FALLBACK] = fallback


def _check_timeout(value: float) -> float:
    if not isinstance(value, int | float) or not value > 0:
        raise SpadesError(f"bot timeout {value!r} must be a positive number of seconds")
    return float(value)


def _check_fallback(spec: str) -> None:
    if spec.startswith("cmd:"):
        raise SpadesError(f"fallback bot {spec!r} must be a built-in bot, not a program")


def _default_timeout() -> float:
    text = os.environ.get(ENV_TIMEOUT)
    if not text:
        return DEFAULT_TIMEOUT
    try:
        return _check_timeout(float(text))
    except ValueError:
        raise SpadesError(f"{ENV_TIMEOUT}={text!r} is not a positive number of seconds") from None


class ProgramBot(Bot):
    """A bot living in another process; see the module docstring for the fault rules."""

    wants_events = True
    """The protocol promises ``event`` requests; the program may use or ignore them."""

    def __init__(
        self,
        command: str,
        *,
        seed: int | None = None,
        timeout: float | None = None,
        fallback: str | None = None,
        restarts: int = DEFAULT_RESTARTS,
        hello_timeout: float | None = None,
    ) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise SpadesError(f"bad bot command {command!r}: {e}") from None
        if not argv:
            raise SpadesError("cmd: needs a program to run, as in cmd:python my_bot.py")
        from spades.bots import make_bot  # here: spades.bots imports this module lazily

        self.command = command
        self.argv = argv
        self.name = f"cmd:{os.path.basename(argv[0])}"
        self.author = ""
        self.timeout = _default_timeout() if timeout is None else _check_timeout(timeout)
        self.hello_timeout = max(self.timeout, 30.0) if hello_timeout is None else hello_timeout
        """Starting an interpreter on a busy machine can take seconds; the first answer waits."""
        fallback = fallback or os.environ.get(ENV_FALLBACK) or DEFAULT_FALLBACK
        _check_fallback(fallback)
        self.fallback: Bot = make_bot(fallback, seed=seed)
        self._args = (command, seed, self.timeout, fallback, restarts, hello_timeout)
        self.restarts = restarts
        self.faults = 0
        """Decisions this bot forfeited (match reports read it with ``getattr``)."""
        self.fault_kinds: Counter[str] = Counter()
        self._pipe: Pipe | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._session: tuple[int, Rules] | None = None
        self._progress = _START
        self._starts = 0
        self._lock = threading.Lock()
        self._down_said = False
        self._down_kind = EXIT
        """The kind of the fault that last stopped the program: a program that stays down
        keeps being counted under it."""

    # ------------------------------------------------------------------ the Bot interface
    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        with self._lock:  # one conversation at a time, whichever thread asks (the TUI uses workers)
            return self._decide(obs, legal)

    def _decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        try:
            pipe = self._ensure(obs)
            message: dict[str, Any] = {
                "type": "act",
                "observation": obs.to_json(),
                "legal": legal_words(legal),
            }
            k = pass_count(obs)
            if k:
                message["pass_count"] = k
            reply = self._request(pipe, message)
            if "action" not in reply:
                raise PipeFault(BAD_JSON, f"answer without an action: {_short(reply)}")
            try:
                action = read_answer(reply["action"], obs, legal)
            except SpadesError as e:
                raise PipeFault(ILLEGAL, str(e)) from None
        except PipeFault as fault:
            self._fault(fault, obs)
            if self._pipe is not None:
                # A stray line read as this answer would push every later answer one act
                # late; what arrives now belongs to this act and is dropped.
                self._skip(self._pipe.drain(_SETTLE))
            d = self.fallback.decide(obs, legal)
            return Decision(d.action, f"(fallback {self.fallback.name}) {d.why}".rstrip())
        why = reply.get("why")
        return Decision(action, _one_line(why) if isinstance(why, str) else "")

    def notify(self, obs: Observation) -> None:
        """Send an ``event``; problems here forfeit nothing and are left for the next ``act``.
        Events go only to a program already running: starting one (or restarting it after a
        fault, from the restart budget) is the next ``act``'s job."""
        self.fallback.notify(obs)
        with self._lock:
            if self._pipe is None:
                return
            try:
                pipe = self._ensure(obs)
                pipe.send(encode({"type": "event", "observation": obs.to_json()}))
            except PipeFault as fault:
                log.debug("bot %s: event not delivered: %s", self.name, fault)
                self._drop_pipe(kill=True)

    def close(self) -> None:
        """Say ``bye`` and let the program exit (killed after a second if it does not)."""
        with self._lock:
            self._end_session()
        self.fallback.close()

    # ------------------------------------------------------------------ sessions (one per game)
    def _ensure(self, obs: Observation) -> Pipe:
        key = (obs.seat, obs.rules)
        progress = _progress(obs)
        if self._session is not None and (key != self._session or progress < self._progress):
            self._end_session()  # a new game: a fresh program and a fresh restart budget
        self._progress = progress
        if self._pipe is not None:
            return self._pipe
        if self._session is None:
            self._session, self._starts, self._down_said = key, 0, False
        if self._starts > self.restarts:
            raise PipeFault(self._down_kind, _DOWN)
        self._starts += 1
        return self._start(obs)

    def _start(self, obs: Observation) -> Pipe:
        label = f"bot {self.name} (seat {obs.seat})"
        try:
            pipe = Pipe(self.argv, log=log, label=label)
        except PipeFault as fault:
            self._down_kind = fault.kind
            raise
        self._pipe = pipe
        self._finalizer = weakref.finalize(self, pipe.kill)
        hello = {"type": "hello", "protocol": PROTOCOL, "seat": obs.seat, "rules": rules_message(obs.rules)}
        try:
            reply = self._request(pipe, hello, timeout=self.hello_timeout)
        except PipeFault as fault:
            self._down_kind = fault.kind
            self._drop_pipe(kill=True)  # it does not speak the protocol: do not keep it
            raise
        name, author = reply.get("name"), reply.get("author")
        if isinstance(name, str) and name.strip():
            self.name = _one_line(name)
        if isinstance(author, str):
            self.author = _one_line(author)
        log.debug("bot %s started: %s", self.name, self.command)
        return pipe

    def _request(
        self, pipe: Pipe, message: dict[str, Any], *, timeout: float | None = None
    ) -> dict[str, Any]:
        self._skip(pipe.drain())
        try:
            pipe.send(encode(message))
            line = pipe.recv(self.timeout if timeout is None else timeout)
        except PipeFault as fault:
            self._down_kind = fault.kind
            self._drop_pipe(kill=True)
            raise
        try:
            return decode_line(line)
        except SpadesError as e:
            raise PipeFault(BAD_JSON, f"{e} in {line[:80]!r}") from None

    def _skip(self, lines: list[bytes]) -> None:
        for stray in lines:
            log.info("bot %s: ignored output nobody asked for: %r", self.name, stray[:80])

    def _drop_pipe(self, *, kill: bool) -> None:
        pipe, self._pipe = self._pipe, None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if pipe is None:
            return
        if kill:
            pipe.kill()
            return
        with contextlib.suppress(PipeFault):
            pipe.send(encode({"type": "bye"}))
        pipe.close(grace=1.0)

    def _end_session(self) -> None:
        self._drop_pipe(kill=False)
        self._session = None
        self._progress = _START

    def _fault(self, fault: PipeFault, obs: Observation) -> None:
        self.faults += 1
        self.fault_kinds[fault.kind] += 1
        # A program that is down forfeits every decision: say so once, not at every card.
        level = logging.WARNING
        if str(fault) == _DOWN:
            level = logging.DEBUG if self._down_said else logging.WARNING
            self._down_said = True
        log.log(
            level,
            "bot %s (seat %d, hand %d): %s fault: %s; %s decides instead",
            self.name,
            obs.seat,
            obs.hand_number,
            fault.kind,
            fault,
            self.fallback.name,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its settings (for worker processes): the copy starts its own program."""
        return (_rebuild, self._args)

    def __repr__(self) -> str:
        return f"ProgramBot({self.command!r}, faults={self.faults})"


def _rebuild(
    command: str, seed: int | None, timeout: float, fallback: str, restarts: int, hello: float | None
) -> ProgramBot:
    return ProgramBot(
        command, seed=seed, timeout=timeout, fallback=fallback, restarts=restarts, hello_timeout=hello
    )


_PHASE_ORDER: Final = {"deal": 0, "draw": 1, "bid": 2, "exchange": 3, "play": 4, "over": 5}
_START: Final = (0, 0, 0, 0, 0)


def _progress(obs: Observation) -> tuple[int, int, int, int, int]:
    """How far the game has gone, as the seat sees it. It never goes back within a game, so
    going back means the bot was seated in a new game (a match of single hands starts each
    at hand 1) and the program must be told with ``bye`` and a fresh ``hello``."""
    played = len(obs.tricks) * obs.players + len(obs.trick)
    bids = sum(b is not None for b in obs.bids)
    return (obs.hand_number, _PHASE_ORDER.get(obs.phase, 0), bids, played, -obs.stock_left)


def _one_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line[:_WHY_MAX]


def _short(data: object) -> str:
    text = repr(data)
    return text if len(text) <= 80 else text[:77] + "..."


__all__ = ["DEFAULT_FALLBACK", "DEFAULT_TIMEOUT", "FAULT_KINDS", "ProgramBot", "configure"]
