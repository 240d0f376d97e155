"""The compute pool: a worker process decides as the bot called directly does, replays as
``replay_view`` does, and every failure (a killed worker, a timeout, a hostile body, an
unknown bot) is a one-line ``SpadesError`` after which the next call works."""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from spades.actions import Action, Bid, PassCards
from spades.bots import make_bot
from spades.cards import CardSet
from spades.driver import play_game, step
from spades.errors import SpadesError
from spades.observation import Observation
from spades.record import to_record
from spades.rules import PRESETS
from spades.server.compute import ComputePool, InlinePool, make_pool
from spades.server.replayview import replay_view, view_json
from spades.state import Game, Phase

GOLDEN = Path(__file__).parent / "golden"
EXPERT = "expert:samples=6,bid_samples=12,time_ms=0"
"""A small, untimed expert: with a seed its decisions depend on the position alone."""


def positions(preset: str, seed: int, every: int = 9) -> list[tuple[Observation, list[Action]]]:
    """Every ``every``-th position of a seeded heuristic game: bids, looks, passes, draws, plays."""
    rules = PRESETS[preset].replace(target=300)
    game = Game(rules, seed=seed)
    bots = [make_bot("heuristic", seed=s) for s in range(rules.players)]
    out: list[tuple[Observation, list[Action]]] = []
    k = 0
    while not game.is_over and len(game.scores) < 2:
        seat = game.to_move
        assert seat is not None
        if k % every == 0 or game.phase in (Phase.EXCHANGE, Phase.DRAW):
            out.append((game.observation(seat), game.legal_actions(seat)))
        step(game, bots)
        k += 1
    return out


def exchange_positions(seed: int) -> list[tuple[Observation, list[Action]]]:
    """The first bidder bids Blind Nil, so the hand has an exchange: its passes, card by card."""
    game = Game(PRESETS["standard"], seed=seed)
    bots = [make_bot("heuristic")] * 4
    game.make_bid(Bid(0, blind=True))
    out: list[tuple[Observation, list[Action]]] = []
    while game.phase in (Phase.BID, Phase.EXCHANGE):
        seat = game.to_move
        assert seat is not None
        out.append((game.observation(seat), game.legal_actions(seat)))
        step(game, bots)
    return out


POSITIONS = (
    positions("standard", 4)
    + positions("two_player", 5)
    + positions("standard", 8, every=31)
    + exchange_positions(4)
)


def one_line(e: pytest.ExceptionInfo[SpadesError]) -> str:
    msg = str(e.value)
    assert msg and "\n" not in msg and len(msg) < 200, msg
    return msg


@pytest.fixture(scope="module")
def pool() -> Iterator[ComputePool]:
    p = ComputePool(1, warm=("heuristic", EXPERT))
    yield p
    asyncio.run(p.close())


def test_observations_actions_and_decisions_pickle() -> None:
    kinds = set()
    for obs, legal in POSITIONS:
        assert pickle.loads(pickle.dumps(obs)) == obs
        assert pickle.loads(pickle.dumps(legal)) == legal
        kinds |= {type(a).__name__ for a in legal}
    assert {"Play", "Bid", "Look", "PassCard", "Draw"} <= kinds
    p = PassCards(CardSet.parse("2H 3C 4D"))
    assert pickle.loads(pickle.dumps(p)) == p


async def test_the_pool_decides_as_the_bot_does(pool: ComputePool) -> None:
    assert await pool.wait_ready(120) and pool.warm_errors == {}
    heuristic = make_bot("heuristic")
    for obs, legal in POSITIONS:
        assert await pool.decide("heuristic", obs, legal, timeout=30) == heuristic.decide(obs, legal)
    expert = make_bot(EXPERT, seed=11)
    for obs, legal in POSITIONS[::7]:
        got = await pool.decide(EXPERT, obs, legal, timeout=60, seed=11)
        assert got == expert.decide(obs, legal)
    # A seeded random bot's first choice in the pool is a fresh one's first choice.
    obs, legal = POSITIONS[3]
    assert await pool.decide("random", obs, legal, seed=987, timeout=30) == make_bot(
        "random", seed=987
    ).decide(obs, legal)


async def test_replays_in_the_pool_equal_the_view_inline(pool: ComputePool) -> None:
    for path in sorted(GOLDEN.glob("*.json"))[:4]:
        body = path.read_bytes()
        assert await pool.replay(body, timeout=60) == replay_view(json.loads(body))
    assert await pool.replay_json(body, timeout=60) == view_json(replay_view(json.loads(body)))
    broken = json.loads((GOLDEN / "standard_full.json").read_text())
    broken["hands"][0]["play"][5] = "AS"
    view = await pool.replay(json.dumps(broken).encode(), timeout=60)
    assert set(view) == {"error"} and view == replay_view(broken)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"[" * 50_000, "deeper than 64"),
        (b'{"first_dealer": ' + b"7" * 5000 + b"}", "5000 digits"),
        (b'{"players": ["\xff"]}', "not UTF-8"),
        (b" " * 3_000_000, "over 2000000 bytes"),
        (b"{", "not JSON"),
    ],
)
async def test_hostile_bodies_are_one_line_errors(pool: ComputePool, body: bytes, words: str) -> None:
    with pytest.raises(SpadesError) as info:
        await pool.replay(body, timeout=60)
    assert words in one_line(info)


async def test_unknown_and_outside_bots_are_one_line_errors(pool: ComputePool) -> None:
    obs, legal = POSITIONS[0]
    with pytest.raises(SpadesError) as info:
        await pool.decide("nosuchbot", obs, legal, timeout=30)
    assert "unknown bot 'nosuchbot'" in one_line(info)
    with pytest.raises(SpadesError) as info:
        await pool.decide("cmd:python -c pass", obs, legal, timeout=30)
    assert "do not run in a pool" in one_line(info)
    with pytest.raises(SpadesError) as info:
        await pool.decide("heuristic", obs, [], timeout=30)  # a bot bug: one line, not a traceback
    assert one_line(info).startswith(f"bot heuristic at seat {obs.seat}: ")


def long_body(hands: int) -> bytes:
    game = Game(PRESETS["standard"].replace(target=2000), seed=2)
    play_game(game, [make_bot("random", seed=s) for s in range(4)], max_hands=hands)
    return json.dumps(to_record(game)).encode()


async def test_a_timeout_is_a_one_line_error_and_the_pool_goes_on(pool: ComputePool) -> None:
    body = long_body(150)
    with pytest.raises(SpadesError) as info:
        await pool.replay(body, timeout=0.001)
    assert one_line(info) == "replay: no answer within 0.001 s"
    view = await pool.replay(body, timeout=60)
    assert view["error"] is None and len(view["hands"]) == 151


async def test_a_replay_over_its_budget_is_refused_in_its_worker() -> None:
    async with ComputePool(1, warm=(), replay_budget_s=1e-6) as p:
        view = await p.replay(long_body(3), timeout=60)
    assert view == {"error": "the record took too long to replay (stopped after hand 1)"}


async def test_a_killed_worker_fails_one_call_and_is_replaced() -> None:
    obs, legal = POSITIONS[1]
    async with ComputePool(1, warm=("heuristic", "nosuchbot")) as p:
        assert await p.wait_ready(120)
        assert "unknown bot" in p.warm_errors["nosuchbot"]  # a warm bot that fails is reported
        [pid] = p.worker_pids()
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(SpadesError) as info:
            await p.decide("heuristic", obs, legal, timeout=60)
        assert "compute process" in one_line(info) and "died" in one_line(info)
        assert await p.decide("heuristic", obs, legal, timeout=60) == make_bot("heuristic").decide(obs, legal)
        assert p.restarts == 1 and p.worker_pids() != [pid]
    with pytest.raises(SpadesError) as info:
        await p.decide("heuristic", obs, legal, timeout=60)
    assert "closed" in one_line(info)


async def test_closing_ends_the_calls_in_flight_in_one_line() -> None:
    body = long_body(600)
    p = ComputePool(1, warm=(), close_grace_s=0.01)
    assert await p.wait_ready(120)
    calls = [asyncio.create_task(p.replay(body, timeout=60)) for _ in range(4)]
    await asyncio.sleep(0.05)
    await p.close()
    closed = 0
    for call in calls:
        try:
            view = await call
        except SpadesError as e:
            assert str(e) == "replay: the compute pool was closed"
            closed += 1
        else:
            assert view["error"] is None  # finished before the end: a whole answer
    assert closed >= 2  # the worker runs one call and holds one more at most


async def test_the_inline_pool_has_the_same_answers() -> None:
    inline = make_pool(0, warm=("expert", "heuristic"))
    assert isinstance(inline, InlinePool) and inline.ready and await inline.wait_ready(0)
    heuristic = make_bot("heuristic")
    for obs, legal in POSITIONS[::3]:
        assert await inline.decide("heuristic", obs, legal) == heuristic.decide(obs, legal)
    obs, legal = POSITIONS[0]
    with pytest.raises(SpadesError) as info:
        await inline.decide("expert", obs, legal)
    assert "too slow to run inline" in one_line(info)
    body = (GOLDEN / "hoyle_full.json").read_bytes()
    assert await inline.replay(body) == replay_view(json.loads(body))
    with pytest.raises(SpadesError) as info:
        await inline.replay(b"[" * 100 + b"]" * 100)
    assert "deeper than 64" in one_line(info)
    await inline.close()
    with pytest.raises(SpadesError):
        await inline.replay(body)


def test_a_pool_needs_a_process() -> None:
    with pytest.raises(SpadesError) as info:
        ComputePool(0)
    one_line(info)
