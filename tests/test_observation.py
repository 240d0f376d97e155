"""What a seat may know: its own cards only after looking, only its side of an exchange, the
stock's top card only when deciding on it; and the JSON form round-trips."""

from __future__ import annotations

import json
import random

import pytest

from spades import Bid, Game, Observation, Rules
from spades.cards import CardSet
from spades.errors import SpadesError
from spades.observation import PUBLIC_FIELDS, public_view
from spades.rules import PRESETS
from spades.state import Phase


def test_own_cards_hidden_until_looking() -> None:
    game = Game(Rules(), seed=4)
    assert game.phase is Phase.BID
    for seat in range(4):
        obs = game.observation(seat)
        assert obs.hand is None and not obs.looked
        assert obs.to_json()["hand"] is None
    mover = game.to_move
    assert mover is not None
    game.look((mover + 2) % 4)  # a seat may look before its turn
    obs = game.observation((mover + 2) % 4)
    assert obs.hand == game.hand_of((mover + 2) % 4)
    assert game.observation(mover).hand is None


def test_without_blind_nil_everyone_sees_his_cards_at_the_deal() -> None:
    game = Game(PRESETS["bicycle"], seed=4)
    for seat in range(4):
        assert game.observation(seat).hand == game.hand_of(seat)


def test_exchange_is_seen_only_by_the_two_partners() -> None:
    game = Game(Rules(), seed=9, first_dealer=3)
    game.make_bid(Bid(0, blind=True))  # North, blind
    for seat in (1, 2, 3):
        game.look(seat)
        game.make_bid(3)
    assert game.phase is Phase.EXCHANGE and game.to_move == 2
    south_cards = list(game.hand_of(2))[:3]
    for c in south_cards[:2]:
        game.pass_card(c)
    assert game.observation(2).pass_chosen == CardSet(south_cards[:2])
    assert game.observation(0).pass_chosen is None
    game.pass_card(south_cards[2])
    north_back = list(game.hand_of(0))[-3:]
    game.pass_cards(CardSet(north_back))
    assert game.phase.value == "play"
    assert game.observation(2).given == CardSet(south_cards)
    assert game.observation(0).received == CardSet(south_cards)
    assert game.observation(0).given == CardSet(north_back)
    for seat in (1, 3):
        obs = game.observation(seat)
        assert obs.given is None and obs.received is None
        assert "exchange" not in obs.to_json()


def test_two_player_stock_top_is_shown_only_to_the_drawing_player() -> None:
    game = Game(PRESETS["two_player"], seed=2)
    assert game.phase is Phase.DRAW
    seat = game.to_move
    assert seat is not None
    mine, theirs = game.observation(seat), game.observation(1 - seat)
    assert mine.stock_top == game.stock_top and theirs.stock_top is None
    assert "stock_top" not in theirs.to_json()
    game.draw(False)
    assert game.observation(seat).discarded == CardSet([mine.stock_top or 0])
    assert game.observation(1 - seat).discarded == CardSet()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_json_round_trip(preset: str) -> None:
    game = Game(PRESETS[preset], seed=3)
    for step in range(90):
        if game.is_over:
            break
        for seat in range(game.n):
            obs = game.observation(seat)
            back = Observation.from_json(obs.to_json(), game.rules)
            assert back == obs  # every field, the scores and the winner included
            assert back.to_json() == obs.to_json()
        codes = game.legal_codes()
        game.apply_code(codes[step % len(codes)])


def test_bad_seat() -> None:
    game = Game(seed=1)
    for seat in (-1, 4, "North", None, 1.5):
        with pytest.raises(SpadesError, match="is not at the table"):
            game.observation(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_round_trip_keeps_scores_winner_and_phase(preset: str) -> None:
    game = Game(PRESETS[preset].replace(target=60, lose_at=-60), seed=5)
    rng = random.Random(5)
    while not game.is_over and game.hand_number < 40:
        game.apply(rng.choice(game.legal_actions()))
    for seat in range(game.n):
        obs = game.observation(seat)
        assert obs.phase is game.phase and obs.phase == game.phase.value
        back = Observation.from_json(json.loads(json.dumps(obs.to_json())), game.rules)
        assert back == obs and back.scores == tuple(game.scores) and back.winner == game.winner


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_spectators_see_only_the_allowed_fields(preset: str) -> None:
    game = Game(PRESETS[preset], seed=9)
    rng = random.Random(9)
    for _ in range(60):
        view = public_view(game)
        assert set(view) <= set(PUBLIC_FIELDS) | {"seat", "looked"}
        assert view["seat"] is None and view["looked"] is None
        # what the old deny-list gave, for every seat's observation: the public part is the same
        for seat in range(game.n):
            denied = game.observation(seat).to_json()
            for private in ("seat", "looked", "hand", "exchange", "stock_top", "discarded", "pass_chosen"):
                denied.pop(private, None)
            assert {k: v for k, v in view.items() if k not in ("seat", "looked")} == denied
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
