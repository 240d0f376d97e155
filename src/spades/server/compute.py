"""Slow work off the event loop: bot decisions and replays of long records in worker processes.

The server runs one asyncio event loop per process; anything that holds the CPU (and the GIL)
for long freezes every table of that process. A thread does not help (it holds the GIL too),
so the expert's decisions, hints and ``POST /api/replay`` run in a ``ProcessPoolExecutor``
whose processes are started with ``spawn`` (the server has threads and a loop: forking it
would copy locks held by other threads). The loop only awaits.

* Each worker builds the bots named in ``warm`` when it starts, before taking any work, so the
  expert's compiled kernels load (or compile, the first time ever: about two minutes) there,
  never on the loop. ``ready`` says whether a worker has finished warming.
* Bots are cached per process by (spec, seed). The built-in bots decide from their arguments:
  ``heuristic`` keeps nothing between decisions; ``expert`` keeps only its random source
  (with a seed it draws a fresh one per position, so its decisions depend on the position
  alone) and a per-thread solver table that speeds up later searches without changing
  their values; ``random`` keeps its random source. None keeps knowledge of a game, so one
  cached bot serves every table and seat. Outside programs (``cmd:``) hold a conversation
  per game and are refused here.
* A worker that dies (killed, out of memory) breaks the executor: the call fails with a
  one-line ``SpadesError`` and a fresh pool replaces the broken one, so the next call works.
  A call past its ``timeout`` fails with a one-line ``SpadesError`` too; a call still queued
  is withdrawn, one already running finishes in its worker (a decision is capped by the
  bot's own time limit, a replay by its time budget) and its answer is dropped.

``InlinePool`` has the same interface and runs the fast bots (``random``, ``heuristic``) and
replays on the caller's thread: for tests, and for builds without worker processes.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from spades.actions import Action
from spades.bots import Bot, Decision, make_bot, parse_spec
from spades.bots.levels import levels_on
from spades.errors import SpadesError
from spades.observation import Observation
from spades.server.replayview import (
    MAX_RECORD_BYTES,
    REPLAY_BUDGET_S,
    parse_record_json,
    replay_view,
    view_json,
)

T = TypeVar("T")

DECIDE_TIMEOUT_S = 10.0
"""Default wait for a decision (the expert caps its own search at 2.5 s)."""
REPLAY_TIMEOUT_S = REPLAY_BUDGET_S + 5.0
"""Default wait for a replay: its budget, plus parsing and the trip to the worker."""
FAST_BOTS = frozenset({"random", "heuristic", *levels_on("random", "heuristic")})
"""Bots quick enough to decide on the caller's thread (``InlinePool``, a table's own loop);
the others think in the pool's processes."""
BOT_CACHE = 64
"""Bots a process keeps built; the oldest goes first (a spec with settings, or a seed, each
make one)."""
CLOSE_GRACE_S = 2.0
"""How long ``close`` lets a worker finish what it is doing before it is terminated."""


def _one_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


# ---------------------------------------------------------------------- in the worker process
_bots: dict[tuple[str, int | None], Bot] = {}
_warm_errors: dict[str, str] = {}
_STALE = "\0stale"
"""A worker's answer to work that reached it after its caller gave up (told as a timeout)."""


def _get_bot(spec: str, seed: int | None) -> Bot:
    """The process's bot for ``spec`` (and ``seed``), built on first use."""
    key = (spec, seed)
    bot = _bots.get(key)
    if bot is None:
        if spec.startswith("cmd:"):
            raise SpadesError(
                f"outside bots ({spec}) keep a conversation per game: they do not run in a pool"
            )
        bot = make_bot(spec, seed=seed)
        if len(_bots) >= BOT_CACHE:
            _bots.pop(next(iter(_bots))).close()
        _bots[key] = bot
    return bot


def _init_worker(warm: tuple[str, ...]) -> None:
    """Start of a worker: build the warm bots (an error is kept for ``_ping``, never raised:
    a failing initializer would break the whole pool). Ctrl-C is the server's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for spec in warm:
        try:
            _get_bot(spec, None)
        except Exception as e:
            _warm_errors[spec] = _one_line(e)


def _ping() -> tuple[int, dict[str, str]]:
    """Runs only once the worker's initializer is done: the worker is warm."""
    return os.getpid(), dict(_warm_errors)


def _decide(
    spec: str, seed: int | None, obs: Observation, legal: Sequence[Action], not_after: float
) -> tuple[Decision | None, str]:
    """A decision, or ``(None, one-line error)``; skipped if it starts after ``not_after``
    (wall-clock time: its caller has given up)."""
    if time.time() > not_after:
        return None, _STALE
    try:
        return _get_bot(spec, seed).decide(obs, legal), ""
    except SpadesError as e:
        return None, str(e).splitlines()[0] if str(e) else type(e).__name__
    except Exception as e:  # a bot bug: the traceback to the server's log, one line to the caller
        traceback.print_exc()
        return None, f"the bot failed: {_one_line(e)}"


def _replay(body: bytes, budget_s: float, not_after: float) -> tuple[dict[str, Any] | None, str]:
    """``parse_record_json`` then ``replay_view`` within the budget (and before ``not_after``)."""
    budget = min(budget_s, not_after - time.time())
    if budget <= 0:
        return None, _STALE
    start = time.monotonic()
    try:
        data = parse_record_json(body)
    except SpadesError as e:
        return None, str(e)
    return replay_view(data, deadline=start + budget), ""


def _replay_json(body: bytes, budget_s: float, not_after: float) -> tuple[bytes | None, str]:
    """``_replay`` with the view encoded here: bytes cross back to the server, which neither
    unpickles a large view nor encodes it again (both would hold its GIL)."""
    view, error = _replay(body, budget_s, not_after)
    return (None, error) if view is None else (view_json(view), "")


# ---------------------------------------------------------------------- the interface
class Compute(ABC):
    """Where the server sends slow work. Every failure is a one-line ``SpadesError``."""

    @property
    @abstractmethod
    def ready(self) -> bool:
        """Whether a worker has built its warm bots (the first expert decision is quick)."""

    @property
    def warm_errors(self) -> dict[str, str]:
        """Warm bots a worker could not build (e.g. ``expert`` without numba), with why."""
        return {}

    async def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait until ``ready`` (at most ``timeout`` seconds); the answer is ``ready``."""
        end = None if timeout is None else time.monotonic() + timeout
        while not self.ready and (end is None or time.monotonic() < end):
            await asyncio.sleep(0.05)
        return self.ready

    @abstractmethod
    async def decide(
        self,
        bot: str,
        obs: Observation,
        legal: Sequence[Action],
        *,
        timeout: float = DECIDE_TIMEOUT_S,
        seed: int | None = None,
    ) -> Decision:
        """``bot``'s decision (a spec, as ``make_bot`` takes it) from the seat's observation."""

    @abstractmethod
    async def replay(self, body: bytes, *, timeout: float = REPLAY_TIMEOUT_S) -> dict[str, Any]:
        """``POST /api/replay``: a body (bytes) to the replay page's view; a body that is
        not a usable JSON record raises, a record the engine refuses (or over budget) is
        ``{"error": "..."}`` as ``replay_view`` gives it."""

    async def replay_json(self, body: bytes, *, timeout: float = REPLAY_TIMEOUT_S) -> bytes:
        """``replay`` encoded as the response body (``view_json``): for the server, which
        then sends the bytes as they are."""
        return view_json(await self.replay(body, timeout=timeout))

    @abstractmethod
    async def close(self) -> None:
        """Stop the workers; later calls fail with a one-line error."""

    async def __aenter__(self) -> Compute:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class ComputePool(Compute):
    """Worker processes (``spawn``) for bot decisions and replays; see the module docstring.

    ``processes`` workers, each building the bots in ``warm`` at start; ``replay_budget_s``
    the time a replay may take in its worker; ``close_grace_s`` how long ``close`` lets a
    busy worker finish before terminating it."""

    def __init__(
        self,
        processes: int = 1,
        *,
        warm: Sequence[str] = ("expert",),
        replay_budget_s: float = REPLAY_BUDGET_S,
        close_grace_s: float = CLOSE_GRACE_S,
    ) -> None:
        if not isinstance(processes, int) or processes < 1:
            raise SpadesError(
                f"a compute pool needs at least 1 process, not {processes!r} (InlinePool runs inline)"
            )
        self.processes = processes
        self.warm = tuple(warm)
        self.replay_budget_s = replay_budget_s
        self.close_grace_s = close_grace_s
        self.restarts = 0
        """How many times a broken pool was replaced."""
        self._ctx = multiprocessing.get_context("spawn")
        self._closed = False
        self._executor, self._pings = self._start()

    def _start(self) -> tuple[ProcessPoolExecutor, list[Future[tuple[int, dict[str, str]]]]]:
        executor = ProcessPoolExecutor(
            self.processes, mp_context=self._ctx, initializer=_init_worker, initargs=(self.warm,)
        )
        # One ping per worker: each submit with no idle worker spawns one, so all start now,
        # and a ping answers only after its worker's initializer (the warm-up) is done.
        return executor, [executor.submit(_ping) for _ in range(self.processes)]

    @property
    def ready(self) -> bool:
        return any(p.done() and not p.cancelled() and p.exception() is None for p in self._pings)

    @property
    def warm_errors(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        for p in self._pings:
            if p.done() and not p.cancelled() and p.exception() is None:
                errors.update(p.result()[1])
        return errors

    def worker_pids(self) -> list[int]:
        """The pids of the current workers (for monitoring, and for tests that kill one)."""
        procs: dict[int, BaseProcess] = dict(getattr(self._executor, "_processes", None) or {})
        return [p.pid for p in procs.values() if p.pid is not None]

    def _restart(self, broken: ProcessPoolExecutor) -> None:
        """Replace a broken executor (once, however many calls saw it break)."""
        if self._closed or self._executor is not broken:
            return
        broken.shutdown(wait=False, cancel_futures=True)
        self._executor, self._pings = self._start()
        self.restarts += 1

    async def _run(
        self, what: str, timeout: float, fn: Callable[..., tuple[T | None, str]], *args: Any
    ) -> tuple[T | None, str]:
        """``fn(*args)`` in a worker: its ``(value, "")`` or ``(None, one-line error)``."""
        if self._closed:
            raise SpadesError(f"{what}: the compute pool is closed")
        executor = self._executor
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            self._restart(executor)
            raise SpadesError(f"{what}: a compute process had died; the pool was restarted") from None
        except RuntimeError as e:  # shut down meanwhile
            raise SpadesError(f"{what}: the compute pool is not running ({e})") from None
        try:
            answer = await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise SpadesError(f"{what}: no answer within {timeout:g} s") from None
        except BrokenProcessPool:
            if self._closed:  # terminated by close()
                raise SpadesError(f"{what}: the compute pool was closed") from None
            self._restart(executor)
            raise SpadesError(f"{what}: a compute process died; the pool was restarted") from None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # our caller is cancelled
            # The work was cancelled under us: the pool is closing.
            raise SpadesError(f"{what}: the compute pool was closed") from None
        except Exception as e:  # e.g. an argument that does not pickle
            raise SpadesError(f"{what}: the compute pool failed: {_one_line(e)}") from None
        if answer[0] is None and answer[1] == _STALE:  # the timer and the answer crossed
            raise SpadesError(f"{what}: no answer within {timeout:g} s")
        return answer

    async def decide(
        self,
        bot: str,
        obs: Observation,
        legal: Sequence[Action],
        *,
        timeout: float = DECIDE_TIMEOUT_S,
        seed: int | None = None,
    ) -> Decision:
        what = f"bot {bot} at seat {obs.seat}"
        decision, error = await self._run(
            what, timeout, _decide, bot, seed, obs, list(legal), time.time() + timeout
        )
        if decision is None:
            raise SpadesError(f"{what}: {error}")
        return decision

    async def replay(self, body: bytes, *, timeout: float = REPLAY_TIMEOUT_S) -> dict[str, Any]:
        if len(body) > MAX_RECORD_BYTES:  # refused here rather than copied to a worker
            raise SpadesError(f"the record is over {MAX_RECORD_BYTES} bytes")
        not_after = time.time() + timeout
        view, error = await self._run(
            "replay", timeout, _replay, bytes(body), self.replay_budget_s, not_after
        )
        if view is None:
            raise SpadesError(error)
        if view.get("error") and time.time() >= not_after:
            # The worker stopped at our deadline as the timer fired: the caller's timeout, not
            # the record's budget, is what ran out.
            raise SpadesError(f"replay: no answer within {timeout:g} s")
        return view

    async def replay_json(self, body: bytes, *, timeout: float = REPLAY_TIMEOUT_S) -> bytes:
        if len(body) > MAX_RECORD_BYTES:
            raise SpadesError(f"the record is over {MAX_RECORD_BYTES} bytes")
        encoded, error = await self._run(
            "replay", timeout, _replay_json, bytes(body), self.replay_budget_s, time.time() + timeout
        )
        if encoded is None:
            raise SpadesError(error)
        return encoded

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        executor = self._executor
        procs = [p for p in (getattr(executor, "_processes", None) or {}).values()]
        executor.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(_reap, procs, self.close_grace_s)


def _reap(procs: Sequence[BaseProcess], grace: float) -> None:
    """Let workers finish for ``grace`` seconds, then terminate those still busy (a warm-up
    compiling the expert's kernels would otherwise hold a shutdown for minutes)."""
    end = time.monotonic() + grace
    for p in procs:
        p.join(max(0.0, end - time.monotonic()))
    for p in procs:
        if p.is_alive():
            p.terminate()
            p.join(1.0)


class InlinePool(Compute):
    """The same interface on the caller's thread, for the fast bots and for replays (with
    their budget): tests, and builds that run no worker processes. ``timeout`` cannot stop
    inline work; a replay's budget is the smaller of ``replay_budget_s`` and ``timeout``."""

    def __init__(self, *, warm: Sequence[str] = (), replay_budget_s: float = REPLAY_BUDGET_S) -> None:
        self.replay_budget_s = replay_budget_s
        self._bots: dict[tuple[str, int | None], Bot] = {}
        self._closed = False
        self._warm_errors: dict[str, str] = {}
        for spec in warm:
            try:
                self._bot(spec, None)
            except SpadesError as e:
                self._warm_errors[spec] = str(e)

    @property
    def ready(self) -> bool:
        return True

    @property
    def warm_errors(self) -> dict[str, str]:
        return dict(self._warm_errors)

    def _bot(self, spec: str, seed: int | None) -> Bot:
        key = (spec, seed)
        bot = self._bots.get(key)
        if bot is None:
            name = parse_spec(spec)[0]
            if name not in FAST_BOTS:
                raise SpadesError(
                    f"bot {spec!r} is too slow to run inline (inline: {', '.join(sorted(FAST_BOTS))})"
                )
            bot = self._bots[key] = make_bot(spec, seed=seed)
        return bot

    async def decide(
        self,
        bot: str,
        obs: Observation,
        legal: Sequence[Action],
        *,
        timeout: float = DECIDE_TIMEOUT_S,
        seed: int | None = None,
    ) -> Decision:
        what = f"bot {bot} at seat {obs.seat}"
        if self._closed:
            raise SpadesError(f"{what}: the compute pool is closed")
        try:
            return self._bot(bot, seed).decide(obs, legal)
        except SpadesError as e:
            raise SpadesError(f"{what}: {e}") from None
        except Exception as e:
            raise SpadesError(f"{what}: the bot failed: {_one_line(e)}") from None

    async def replay(self, body: bytes, *, timeout: float = REPLAY_TIMEOUT_S) -> dict[str, Any]:
        if self._closed:
            raise SpadesError("replay: the compute pool is closed")
        start = time.monotonic()
        data = parse_record_json(body)
        return replay_view(data, deadline=start + min(self.replay_budget_s, timeout))

    async def close(self) -> None:
        self._closed = True


def make_pool(processes: int, *, warm: Sequence[str] = ("expert",)) -> Compute:
    """``processes`` worker processes, or an ``InlinePool`` (fast bots only) for 0."""
    if processes == 0:
        return InlinePool(warm=[w for w in warm if parse_spec(w)[0] in FAST_BOTS])
    return ComputePool(processes, warm=warm)


__all__ = [
    "DECIDE_TIMEOUT_S",
    "FAST_BOTS",
    "REPLAY_TIMEOUT_S",
    "Compute",
    "ComputePool",
    "InlinePool",
    "make_pool",
]
