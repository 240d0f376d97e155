"""Properties every bot must have: only legal actions under every preset, no way to reach
hidden state, and the same choices from the same seed."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades import record
from spades.actions import Action, PassCard, PassCards
from spades.bots import make_bot
from spades.bots.base import Bot
from spades.cards import CardSet
from spades.driver import apply_decision, play_game
from spades.errors import SpadesError
from spades.observation import Observation
from spades.rules import PRESETS, Rules
from spades.scoring import HandScore, SeatBid
from spades.state import Game, Phase, Trick

CHEAP_EXPERT = "expert:samples=2,bid_samples=2,time_ms=20"


def _expert_available() -> bool:
    try:
        make_bot(CHEAP_EXPERT, seed=0).close()
    except SpadesError:
        return False
    return True


BOTS = ["random", "heuristic", "heuristic:nil=false,aggression=0.5"]
SHORT = {"target": 120, "lose_at": -120}

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    *((name, {}) for name in sorted(PRESETS)),
    ("jokers", {"jokers": "jjdd"}),
    ("standard", {"spades_lead": "any"}),
    ("cutthroat3", {"spades_lead": "any"}),
    ("bicycle", {"jokers": "big_little", "spades_lead": "any"}),
    ("standard", {"big_bid": 10, "nil_tricks": "partner"}),
    ("hoyle", {"team_min_bid": 4}),
    ("suicide", {"suicide_min": 3}),
]
"""Every preset, and the house rules no preset names (jjdd, spades_lead, big_bid, nil_tricks,
team_min_bid) on top of some of them."""
VARIANT_IDS = [name + "".join(f"-{k}={v}" for k, v in extra.items()) for name, extra in VARIANTS]


def short_rules(preset: str, **extra: Any) -> Rules:
    return PRESETS[preset].replace(**SHORT, **extra)


def legal_choice(action: Action, legal: list[Action], game: Game) -> bool:
    if isinstance(action, PassCards):
        steps = {a.card for a in legal if isinstance(a, PassCard)}
        k = game.rules.blind_nil_exchange - game.pending_pass.bit_count()
        return set(action.cards) <= steps and len(action.cards) in (k, game.rules.blind_nil_exchange)
    return action in legal


def checked_game(rules: Rules, specs: list[str], seed: int, max_hands: int) -> Game:
    """Play, asserting every decision is legal and every reason is one line."""
    game = Game(rules, seed=seed)
    bots = [make_bot(specs[s % len(specs)], seed=seed * 10 + s) for s in range(rules.players)]
    while not game.is_over and len(game.scores) < max_hands:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions(seat)
        decision = bots[seat].decide(game.observation(seat), legal)
        assert legal_choice(decision.action, legal, game), (specs, decision)
        assert "\n" not in decision.why
        apply_decision(game, seat, decision.action)
    return game


@pytest.mark.parametrize(("preset", "extra"), VARIANTS, ids=VARIANT_IDS)
@pytest.mark.parametrize("bot", BOTS)
def test_bots_choose_only_legal_actions_in_every_rule_set(
    preset: str, extra: dict[str, Any], bot: str
) -> None:
    rules = short_rules(preset, **extra)
    game = checked_game(rules, [bot, "random"], 7, max_hands=3)
    assert len(game.scores) >= 1


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    bot=st.sampled_from(BOTS),
    behind=st.sampled_from([None, 50]),
)
def test_bots_choose_only_legal_actions(
    variant: tuple[str, dict[str, Any]], seed: int, bot: str, behind: int | None
) -> None:
    preset, extra = variant
    extra = dict(extra)
    if behind is not None and PRESETS[preset].blind_nil:
        extra["blind_nil_behind"] = behind
    rules = short_rules(preset, **extra)
    game = checked_game(rules, [bot, "random"], seed, max_hands=4)
    assert len(game.scores) >= 1


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), min_bid=st.sampled_from([0, 1]))
def test_heuristic_legal_with_min_bid_and_without_blind_nil(seed: int, min_bid: int) -> None:
    rules = Rules(min_bid=min_bid, blind_nil=False, target=150)
    checked_game(rules, ["heuristic"], seed, max_hands=4)


@pytest.mark.skipif(not _expert_available(), reason="expert bot not available in this build")
@pytest.mark.parametrize(("preset", "extra"), VARIANTS, ids=VARIANT_IDS)
def test_expert_chooses_only_legal_actions(preset: str, extra: dict[str, Any]) -> None:
    game = checked_game(short_rules(preset, **extra), [CHEAP_EXPERT, "heuristic"], 3, max_hands=1)
    assert len(game.scores) == 1


# ---------------------------------------------------------------------- no hidden state
ALLOWED = (int, str, bool, float, type(None), CardSet, Rules, Trick, HandScore, SeatBid)


def _reachable(value: Any, seen: set[int]) -> list[Any]:
    """Every value reachable from an observation's fields."""
    if id(value) in seen:
        return []
    seen.add(id(value))
    out = [value]
    if isinstance(value, (tuple, list)):
        for v in value:
            out += _reachable(v, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            out += _reachable(getattr(value, f.name), seen)
    return out


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(sorted(PRESETS)))
def test_observation_holds_no_reference_to_the_game(seed: int, preset: str) -> None:
    game = Game(PRESETS[preset], seed=seed)
    bots = [make_bot("random", seed=s) for s in range(game.n)]
    play_game(game, bots, max_hands=0)
    for _ in range(40):
        seat = game.to_move
        assert seat is not None
        obs = game.observation(seat)
        for value in _reachable(obs, set()):
            assert not isinstance(value, Game)
            assert isinstance(value, (*ALLOWED, tuple, list, Observation)), type(value)
        apply_decision(game, seat, bots[seat].decide(obs, game.legal_actions(seat)).action)


def _other_hands_shuffled(hands: list[int], keep: int, seed: int) -> list[int]:
    import random

    rng = random.Random(seed)
    others = [c for s in range(4) if s != keep for c in range(52) if hands[s] >> c & 1]
    rng.shuffle(others)
    out = list(hands)
    i = 0
    for s in range(4):
        if s != keep:
            out[s] = sum(1 << c for c in others[i : i + 13])
            i += 13
    return out


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), bot=st.sampled_from(["heuristic", "random"]))
def test_decisions_depend_only_on_what_the_seat_sees(seed: int, bot: str) -> None:
    """Two deals that differ only in the other seats' cards give the bot the same
    observation, so it must make the same bid: it cannot see those cards."""
    rules = Rules(blind_nil=False)
    base = Game(rules, seed=seed, auto_deal=False, first_dealer=3)
    base.deal()
    hands = list(base.hands)
    other = Game(rules, auto_deal=False, first_dealer=3)
    other.deal(_other_hands_shuffled(hands, 0, seed))
    a = make_bot(bot, seed=seed).decide(base.observation(0), base.legal_actions(0))
    b = make_bot(bot, seed=seed).decide(other.observation(0), other.legal_actions(0))
    assert base.observation(0) == other.observation(0)
    assert a == b


# ---------------------------------------------------------------------- determinism
@pytest.mark.parametrize("spec", ["random", "heuristic"])
@pytest.mark.parametrize("preset", ["standard", "two_player"])
def test_same_seed_same_choices(spec: str, preset: str) -> None:
    def run() -> str:
        game = Game(short_rules(preset), seed=11)
        bots: list[Bot] = [make_bot(spec, seed=100 + s) for s in range(game.n)]
        play_game(game, bots, max_hands=3)
        return record.dumps(game)

    assert run() == run()


def test_game_is_decided_at_the_observation_door_only() -> None:
    """``Bot.decide`` takes an observation: a Game is refused by the type, and the heuristic
    reads nothing but the observation (it works on one rebuilt from the JSON protocol form)."""
    game = Game(Rules(blind_nil=False), seed=4)
    bot = make_bot("heuristic", seed=0)
    while game.phase is not Phase.PLAY:
        seat = game.to_move
        assert seat is not None
        apply_decision(game, seat, bot.decide(game.observation(seat), game.legal_actions(seat)).action)
    seat = game.to_move
    assert seat is not None
    obs = game.observation(seat)
    again = Observation.from_json(obs.to_json(), game.rules)
    legal = game.legal_actions(seat)
    assert make_bot("heuristic", seed=0).decide(again, legal) == make_bot("heuristic", seed=0).decide(
        obs, legal
    )
