"""The PettingZoo environment: PettingZoo's own API checks, and agreement with the engine."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from spades import record
from spades.env import env, raw_env
from spades.env.encoding import LAYOUT, SIZE, SLICES, encode
from spades.errors import SpadesError
from spades.observation import Observation
from spades.rules import PRESETS
from spades.state import Game

DOC = Path(__file__).resolve().parent.parent / "docs" / "rl-env.md"
ENCODABLE = sorted(p for p in PRESETS if PRESETS[p].jokers is None and PRESETS[p].players != 3)
"""The presets the vector can hold (52 cards, bids 0..13): every one but jokers and three players."""


@pytest.mark.filterwarnings("ignore:Observation")  # a Dict with an action mask, as in classic envs
@pytest.mark.parametrize("preset", ENCODABLE)
def test_pettingzoo_api_test(preset: str) -> None:
    api_test(env(rules=preset), num_cycles=300)
    api_test(raw_env(rules=preset, max_hands=1), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(max_hands=2), num_cycles=100)


def pick(rng: random.Random, obs: dict[str, Any]) -> int:
    return rng.choice([int(c) for c in np.flatnonzero(obs["action_mask"])])


def random_agents(e: Any, seed: int) -> list[int]:
    """Play a seeded random agent through the environment; return the codes it chose."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    codes: list[int] = []
    for _agent in e.agent_iter():
        obs, _reward, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        code = pick(rng, obs)
        codes.append(code)
        e.step(code)
    return codes


def random_engine(preset: str, seed: int, hands: int) -> tuple[Game, list[int]]:
    """The same agent on the bare engine: legal codes in ascending order, as the mask lists them."""
    game = Game(PRESETS[preset], seed=seed)
    rng = random.Random(seed)
    codes: list[int] = []
    while not game.is_over and len(game.scores) < hands:
        code = rng.choice(sorted(game.legal_codes()))
        codes.append(code)
        game.apply_code(code)
    return game, codes


@pytest.mark.parametrize(
    ("preset", "seed"), [("standard", 1), ("standard", 2), ("two_player", 3), ("bicycle", 4)]
)
def test_a_seeded_random_agent_plays_the_engines_game(preset: str, seed: int) -> None:
    e = raw_env(rules=preset, max_hands=3)
    codes = random_agents(e, seed)
    game, engine_codes = random_engine(preset, seed, 3)
    assert codes == engine_codes
    assert record.dumps(e.game) == record.dumps(game)
    assert random_agents(e, seed) == codes  # and again, after a reset


def test_hand_rewards_add_up_to_the_score_and_partners_share_them() -> None:
    e = raw_env(max_hands=4, points_scale=1.0)
    e.reset(seed=5)
    rng = random.Random(5)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        total[agent] += e._cumulative_rewards[agent]
        e.step(None if term or trunc else pick(rng, obs))
    assert len(e.game.scores) == 4
    assert [total[f"player_{s}"] for s in range(4)] == [e.game.totals[s % 2] for s in range(4)]


def test_game_reward_is_zero_sum_and_goes_to_the_winner() -> None:
    e = raw_env(rules={"preset": "bicycle", "target": 60}, reward="game")
    e.reset(seed=2)
    rng = random.Random(2)
    final: dict[str, float] = {}
    for agent in e.agent_iter(max_iter=50_000):
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            final[agent] = float(reward)
            e.step(None)
        else:
            assert reward == 0.0
            e.step(pick(rng, obs))
    assert e.game.is_over and e.game.winner is not None
    assert final[f"player_{e.game.winner}"] == 1.0
    assert sum(final.values()) == pytest.approx(0.0)


def test_the_vector_holds_only_what_the_observation_holds() -> None:
    """Built from the protocol's JSON form (what a seat may know) it is the same vector."""
    e = raw_env(max_hands=2)
    e.reset(seed=9)
    rng = random.Random(9)
    checked = 0
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        for seat in range(4):
            o = e.game.observation(seat)
            v = encode(o)
            assert np.array_equal(v, encode(Observation.from_json(o.to_json(), o.rules)))
            checked += 1
        assert np.array_equal(obs["observation"], encode(e.game.observation(int(agent[-1]))))
        e.step(pick(rng, obs))
    assert checked > 400


def test_vector_blocks_mean_what_they_say() -> None:
    game = Game(seed=4)
    seat = game.to_move
    assert seat is not None
    game.look(seat)
    game.make_bid(3)
    nxt = game.to_move
    assert nxt is not None
    v = encode(game.observation(nxt))
    assert v[SLICES["hand"]].sum() == 0  # not looked yet: no cards
    bids = v[SLICES["bids"]].reshape(4, 16)
    assert bids.sum(axis=1).tolist() == [1, 1, 1, 1]
    assert bids[3, 4] == 1  # the seat on my right bid 3
    assert v[SLICES["phase"]].tolist() == [0, 0, 1, 0, 0, 0]
    assert v[SLICES["to_move"]].tolist() == [1, 0, 0, 0]
    mine = encode(game.observation(seat))
    assert mine[SLICES["hand"]].sum() == 13
    assert mine[SLICES["bids"]].reshape(4, 16)[0, 4] == 1


def test_illegal_actions() -> None:
    e = raw_env()
    e.reset(seed=1)
    with pytest.raises(SpadesError, match="not legal"):
        e.step(0 if e.game.legal_codes()[0] != 0 else 121)
    wrapped = env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    mask = wrapped.observe(agent)["action_mask"]
    wrapped.step(int(np.flatnonzero(mask == 0)[0]))
    assert wrapped.rewards[agent] == -1
    assert all(wrapped.terminations.values())
    with pytest.raises(SpadesError):
        raw_env(reward="points")


@pytest.mark.parametrize(
    ("rules", "option"),
    [("jokers", "jokers = big_little"), ("cutthroat3", "players = 3"), ({"jokers": "jjdd"}, "jokers = jjdd")],
)
def test_rules_the_vector_cannot_hold_are_refused_in_one_line(rules: Any, option: str) -> None:
    with pytest.raises(SpadesError) as info:
        raw_env(rules=rules)
    text = str(info.value)
    assert option in text and "\n" not in text and "RL environment" in text


def test_render_shows_the_table() -> None:
    e = raw_env(render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str)
    assert "hand 1, bid" in text and text.count("won") == 4


def test_layout_is_documented() -> None:
    """docs/rl-env.md lists every block with its offset and size, in order."""
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", DOC.read_text(), flags=re.M)
    assert [(name, int(start), int(size)) for name, start, size in rows] == [
        (name, SLICES[name].start, size) for name, size, _ in LAYOUT
    ]
    assert str(SIZE) in DOC.read_text()
