"""The protocol's ``event`` request reaches outside programs, and only bots that want it.

A real subprocess logs every request it gets, so these tests see exactly what a program
seated with ``cmd:`` sees: events between its acts, each with its own seat's observation.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spades.actions import Action
from spades.bots import make_bot
from spades.bots.base import Bot, Decision
from spades.cards import bits, card_text
from spades.driver import notify_others, play_game
from spades.observation import Observation
from spades.protocol.client import ProgramBot
from spades.state import Game

PY = sys.executable

LOGGER = """
import json, os, sys
out = open(os.path.join(sys.argv[1], f"{os.getpid()}.jsonl"), "a")
for line in sys.stdin:
    m = json.loads(line)
    out.write(json.dumps(m) + "\\n"); out.flush()
    if m["type"] == "hello": print(json.dumps({"name": "logger"}), flush=True)
    elif m["type"] == "act": print(json.dumps({"action": m["legal"][0]}), flush=True)
    elif m["type"] == "bye": break
"""


def logger_cmd(tmp_path: Path) -> str:
    script = tmp_path / "logger.py"
    script.write_text(textwrap.dedent(LOGGER))
    logs = tmp_path / "logs"
    logs.mkdir(exist_ok=True)
    return f"{PY} {script} {logs}"


def sessions(tmp_path: Path) -> list[list[dict[str, Any]]]:
    """Each program's requests in order (one file per process)."""
    files = sorted((tmp_path / "logs").glob("*.jsonl"))
    return [[json.loads(x) for x in f.read_text().splitlines()] for f in files]


def check_session(msgs: list[dict[str, Any]]) -> tuple[int, int]:
    """Check one program's conversation; return its (acts, events)."""
    assert msgs[0]["type"] == "hello"
    seat = msgs[0]["seat"]
    kinds = [m["type"] for m in msgs]
    assert set(kinds) <= {"hello", "act", "event", "bye"}
    first_hand: dict[int, set[str]] = {}
    for m in msgs[1:]:
        if m["type"] not in ("act", "event"):
            continue
        obs = m["observation"]
        assert obs["seat"] == seat
        if m["type"] == "event":
            assert obs["to_move"] != seat  # the seat to move gets an act, not an event
        if obs["hand"] is None:
            continue  # not looked at yet (Blind Nil rules)
        # Only its own cards: a hand only loses cards during a hand (bar an exchange).
        hand = set(obs["hand"])
        received = set((obs.get("exchange") or {}).get("received", []))
        start = first_hand.setdefault(obs["hand_number"], hand)
        assert hand <= start | received
        assert len(hand) <= 13
    return kinds.count("act"), kinds.count("event")


class CountingProgram(ProgramBot):
    """Counts the decisions the game asked of the program."""

    asked = 0

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        self.asked += 1
        return super().decide(obs, legal)


def test_play_game_sends_events_with_the_seats_own_observation(tmp_path: Path) -> None:
    bot = CountingProgram(logger_cmd(tmp_path))
    bots: list[Bot] = [bot, *(make_bot("random", seed=i) for i in range(3))]
    game = play_game(Game(seed=5), bots, max_hands=1)
    bot.close()
    assert len(game.scores) == 1 and bot.faults == 0
    [msgs] = sessions(tmp_path)
    acts, events = check_session(msgs)
    assert acts == bot.asked >= 14  # every act still came (a bid and 13 cards at least)
    assert events >= 3 * 13  # every other seat's card, at the least
    assert msgs[-1]["type"] == "bye"
    # and never another seat's cards: nothing seen beyond what seat 0 was dealt or received
    own = {card_text(c) for c in bits(game.logs[0].dealt[0])}
    for ex in game.logs[0].exchanges:
        if ex.receiver == 0:
            own |= {card_text(c) for c in ex.cards}
    for m in msgs:
        if m["type"] in ("act", "event"):
            assert set(m["observation"]["hand"] or []) <= own


def test_a_one_hand_match_sends_events(tmp_path: Path) -> None:
    from spades.match import run_match

    rep = run_match(f"cmd:{logger_cmd(tmp_path)}", "random", hands=1, duplicate=False, jobs=1)
    assert rep["sides"]["a"]["faults"] == 0
    runs = sessions(tmp_path)
    assert len(runs) == 2  # side A sits at seats 0 and 2, a program each
    assert sorted(r[0]["seat"] for r in runs) == [0, 2]
    counts = [check_session(r) for r in runs]
    assert sum(a for a, _ in counts) == rep["sides"]["a"]["decisions"]
    assert all(e >= 13 for _, e in counts)


class Spy(Bot):
    """A random player that records what it was told."""

    def __init__(self, seed: int, *, wants: bool, fail: bool = False) -> None:
        self.inner = make_bot("random", seed=seed)
        self.wants_events = wants
        self.fail = fail
        self.told: list[Observation] = []

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        return self.inner.decide(obs, legal)

    def notify(self, obs: Observation) -> None:
        self.told.append(obs)
        if self.fail:
            raise RuntimeError("boom")


def test_bots_that_do_not_want_events_are_never_told() -> None:
    quiet = [Spy(i, wants=False) for i in range(4)]
    play_game(Game(seed=2), quiet, max_hands=2)
    assert all(not b.told for b in quiet)
    assert not any(make_bot(name).wants_events for name in ("random", "heuristic"))
    assert ProgramBot.wants_events


def test_listeners_get_their_own_seat_and_a_failing_one_stops_nothing() -> None:
    bots = [Spy(0, wants=True), Spy(1, wants=False), Spy(2, wants=True, fail=True), Spy(3, wants=False)]
    game = play_game(Game(seed=7), bots, max_hands=1)
    assert len(game.scores) == 1
    for seat in (0, 2):
        told = bots[seat].told
        assert len(told) >= 3 * 13
        assert all(o.seat == seat and o.to_move != seat for o in told)
    # a dict of bot seats (the terminal UI and the server) works alike
    game = Game(seed=7)
    spy = Spy(0, wants=True)
    notify_others(game, {1: spy})
    assert [o.seat for o in spy.told] == ([1] if game.to_move != 1 else [])


def test_the_terminal_session_tells_its_bots() -> None:
    from spades.tui.config import PlayConfig
    from spades.tui.session import Session

    spies: dict[int, Bot] = {s: Spy(s, wants=True) for s in (1, 2, 3)}
    from spades.rules import Rules

    config = PlayConfig(Rules(), human=0, bots={s: "random" for s in (1, 2, 3)}, seed=4)
    session = Session(config, bots=spies)
    for _ in range(30):
        turn = session.next_bot()
        if turn is None:
            legal = session.legal()
            if not legal:
                break
            assert session.act(legal[0]) is None
            continue
        session.apply_bot(turn, turn.bot.decide(turn.obs, turn.legal))
    for s, b in spies.items():
        assert isinstance(b, Spy) and b.told
        assert all(o.seat == s for o in b.told)
