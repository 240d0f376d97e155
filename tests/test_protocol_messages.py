"""The wire form, without processes: both ends of the protocol agree on every word.

Positions come from seeded random games in every preset, so the words of every phase (the
draw, Blind Nil, the exchange, play) are checked against the engine's own legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.actions import NUM_ACTIONS, Action, Bid, Look, PassCard, PassCards, Play, decode, parse_action
from spades.bots.base import Bot, Decision
from spades.cards import CardSet
from spades.errors import SpadesError
from spades.observation import Observation
from spades.protocol.messages import (
    action_word,
    answer_word,
    decode_line,
    encode,
    legal_from_words,
    legal_words,
    pass_count,
    read_answer,
    rules_message,
)
from spades.protocol.server import BotServer
from spades.rules import PRESETS, Rules
from spades.state import Game, Phase


def random_position(preset: str, seed: int, steps: int) -> Game:
    rng = random.Random(seed)
    game = Game(PRESETS[preset], seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply_code(rng.choice(game.legal_codes()))
    return game


def test_every_code_has_a_word_that_reads_back() -> None:
    for code in range(NUM_ACTIONS):
        action = decode(code)
        word = action_word(action)
        back = parse_action(word)
        if isinstance(action, PassCard):
            assert back == PassCards(CardSet([action.card]))
            assert legal_from_words([word]) == [action]
        else:
            assert back == action


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 10_000), st.integers(0, 120))
def test_legal_words_read_back_as_legal_actions(preset: str, seed: int, steps: int) -> None:
    game = random_position(preset, seed, steps)
    seat = game.to_move
    if seat is None:
        return
    obs = game.observation(seat)
    legal = game.legal_actions(seat)
    words = legal_words(legal)
    assert legal_from_words(words) == legal  # the program side sees what the host offered
    for action, word in zip(legal, words, strict=True):
        assert read_answer(word, obs, legal) == action
        assert read_answer(word.upper(), obs, legal) == action
    for code in range(NUM_ACTIONS):  # and nothing else is accepted
        other = decode(code)
        if other not in legal:
            with pytest.raises(SpadesError):
                read_answer(action_word(other), obs, legal)


def exchange_position() -> Game:
    """A game in the exchange: North bids Blind Nil, the others bid 3."""
    game = Game(seed=1, first_dealer=3)
    game.make_bid(Bid(0, blind=True))
    for _ in range(3):
        seat = game.to_move
        assert seat is not None
        game.look(seat)
        game.make_bid(3)
    assert game.phase is Phase.EXCHANGE
    return game


def test_a_whole_pass_or_one_card_at_a_time() -> None:
    game = exchange_position()
    seat = game.to_move
    assert seat == 2  # the partner passes first
    hand = game.hand_of(seat)
    cards = list(hand)[:3]
    obs, legal = game.observation(seat), game.legal_actions(seat)
    assert pass_count(obs) == 3
    whole = "pass " + " ".join(CardSet(cards).texts())
    assert read_answer(whole, obs, legal) == PassCards(CardSet(cards))
    game.pass_card(cards[0])
    obs, legal = game.observation(seat), game.legal_actions(seat)
    assert pass_count(obs) == 2
    rest = "pass " + " ".join(CardSet(cards[1:]).texts())
    assert read_answer(rest, obs, legal) == PassCards(CardSet(cards))  # the earlier step included
    assert read_answer(whole, obs, legal) == PassCards(CardSet(cards))  # repeating it is harmless
    for bad in ("pass " + " ".join(CardSet(cards[1:2]).texts() * 2), "pass " + str(CardSet(cards[:1]))):
        with pytest.raises(SpadesError):
            read_answer(bad, obs, legal)
    not_held = next(c for c in range(52) if c not in hand)
    with pytest.raises(SpadesError, match="may not be passed"):
        read_answer(f"pass {CardSet([not_held])}", obs, legal)
    # the program side writes a built-in bot's whole pass without the chosen card
    assert answer_word(PassCards(CardSet(cards)), obs) == rest


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_hello_rules_read_back_exactly(preset: str) -> None:
    rules = PRESETS[preset].replace(target=250)
    message = rules_message(rules)
    assert message["preset"] == preset
    assert message["blind_nil_exchange"] == rules.blind_nil_exchange
    assert Rules.from_spec(message) == rules


def test_lines_are_objects_or_errors() -> None:
    assert decode_line(encode({"a": "é"})) == {"a": "é"}
    for bad in (b"{", b"[1]", b"\xff", b"x" * (2 << 20)):
        with pytest.raises(SpadesError):
            decode_line(bad)


class Spy(Bot):
    """Records what reaches a bot behind the server."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[Observation] = []

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        return Decision(legal[-1], "the last one")

    def notify(self, obs: Observation) -> None:
        self.seen.append(obs)


def test_bot_server_answers_each_request_type() -> None:
    made: list[Spy] = []

    def make() -> Spy:
        made.append(Spy())
        return made[-1]

    server = BotServer(make)
    game = random_position("standard", 3, 30)
    seat = game.to_move
    assert seat is not None
    obs = game.observation(seat).to_json()
    hello = {"type": "hello", "protocol": "spades-bot/1", "seat": seat, "rules": rules_message(game.rules)}
    assert decode_line(server.handle(encode(hello)) or b"") == {"name": "spy", "author": "spades"}
    words = legal_words(game.legal_actions(seat))
    answer = decode_line(server.handle(encode({"type": "act", "observation": obs, "legal": words})) or b"")
    assert answer["action"] == words[-1]
    assert server.handle(encode({"type": "event", "observation": obs})) is None
    assert made[0].seen[0].hand == game.observation(seat).hand
    for bad in (b"nonsense", encode({"type": "act"}), encode({"type": "dance"})):
        reply = decode_line(server.handle(bad) or b"")
        assert set(reply) == {"error"}
    assert decode_line(server.handle(encode({"type": "act", "observation": obs, "legal": []})) or b"") == {
        "error": "act with no legal action"
    }
    server.handle(encode(hello))  # a second game gets a fresh bot
    assert len(made) == 2
    assert server.handle(encode({"type": "bye"})) is None and server.done


def test_look_and_play_words() -> None:
    assert action_word(Look()) == "look"
    assert action_word(Play(51)) == "play AC"
    assert action_word(Bid(0)) == "bid nil"
    assert parse_action("bid 0") == Bid(0)
