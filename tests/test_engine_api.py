"""The public API under bad input: every refusal is an ``IllegalAction`` (a ``SpadesError``,
a ``ValueError``) with a one-line message, never another exception, and never a change."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades import Bid, CardSet, Draw, Game, IllegalAction, Look, PassCard, PassCards, Play, Rules, record
from spades.cards import parse_card
from spades.errors import SpadesError
from spades.rules import PRESETS
from spades.state import Phase

junk_scalars = st.one_of(
    st.integers(-200, 200),
    st.integers(),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=4),
    st.lists(st.integers(-5, 60), max_size=4),
    st.just(CardSet.parse("AS KS QS")),
)
junk_actions = st.one_of(
    junk_scalars,
    st.builds(Play, st.integers(-100, 100)),
    st.builds(Play, junk_scalars),
    st.builds(Bid, st.integers(-5, 20), st.booleans()),
    st.builds(Bid, junk_scalars, junk_scalars),
    st.just(Look()),
    st.builds(Draw, st.booleans()),
    st.builds(PassCard, st.integers(-5, 60)),
    st.builds(PassCards, st.builds(CardSet, st.sets(st.integers(0, 51), max_size=5))),
)
junk_seats = st.one_of(st.none(), st.integers(-3, 6), st.booleans(), st.text(max_size=2), st.floats())


def game_at(preset: str, seed: int, steps: int) -> Game:
    """A game after ``steps`` random legal actions (Blind Nil and its exchange included)."""
    rng = random.Random(seed)
    game = Game(PRESETS[preset].replace(target=100), seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply_code(rng.choice(game.legal_codes()))
    return game


CALLS: list[tuple[str, Callable[[Game, Any, Any], Any]]] = [
    ("apply", lambda g, a, s: g.apply(a, s)),
    ("apply_code", lambda g, a, s: g.apply_code(a)),
    ("verify", lambda g, a, s: g.verify(a, s)),
    ("play", lambda g, a, s: g.play(a, s)),
    ("make_bid", lambda g, a, s: g.make_bid(a, s)),
    ("verify_bid", lambda g, a, s: g.verify_bid(a, s)),
    ("pass_card", lambda g, a, s: g.pass_card(a, s)),
    ("pass_cards", lambda g, a, s: g.pass_cards(a, s)),
    ("verify_pass_cards", lambda g, a, s: g.verify_pass_cards(a, s)),
    ("look", lambda g, a, s: g.look(a)),
    ("draw", lambda g, a, s: g.draw(a, s)),
    ("legal_actions", lambda g, a, s: g.legal_actions(s)),
    ("observation", lambda g, a, s: g.observation(a)),
    ("hand_of", lambda g, a, s: g.hand_of(a)),
    ("deal", lambda g, a, s: g.deal(a)),
]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 140),
    action=junk_actions,
    seat=junk_seats,
)
def test_bad_calls_raise_illegal_action_and_change_nothing(
    preset: str, seed: int, steps: int, action: Any, seat: Any
) -> None:
    game = game_at(preset, seed, steps)
    before = record.dumps(game), len(game.history)
    for name, call in CALLS:
        n_events = len(game.history)
        try:
            result = call(game, action, seat)
        except SpadesError as e:
            assert isinstance(e, ValueError)
            message = str(e)
            assert message and "\n" not in message, (name, message)
            if name not in ("observation", "hand_of", "legal_actions"):
                assert isinstance(e, IllegalAction) or name == "deal", (name, type(e))
            assert (record.dumps(game), len(game.history)) == before, name
            continue
        if len(game.history) > n_events:  # it was legal after all: take it back
            game.undo()
        elif name == "deal":
            pytest.fail("deal() accepted junk")
        del result
        assert (record.dumps(game), len(game.history)) == before, name
    # can() answers, never raises, and agrees with verify()
    try:
        game.verify(action, seat)
        ok = True
    except SpadesError:
        ok = False
    assert game.can(action, seat) is ok


def test_undo_with_empty_history_is_refused() -> None:
    game = Game(seed=1)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.undo()


def test_bad_constructor_arguments() -> None:
    with pytest.raises(SpadesError):
        Game(first_dealer=7)
    with pytest.raises(SpadesError):
        Game(first_dealer="north")  # type: ignore[arg-type]
    with pytest.raises(SpadesError, match="unknown preset"):
        Game("poker")
    assert Game("bicycle", seed=1).rules == PRESETS["bicycle"]


def fixed_game() -> Game:
    """North deals; East, South, West, North bid; East leads."""
    hands = [
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
        "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
    ]
    game = Game(Rules(blind_nil=False), first_dealer=0, auto_deal=False)
    game.deal([CardSet.parse(h).mask for h in hands])
    return game


def test_messages_name_the_hand_the_seat_the_card_and_the_rule() -> None:
    game = fixed_game()
    with pytest.raises(IllegalAction, match=r"^hand 1, bid: North cannot bid 4: it is East's turn$"):
        game.make_bid(4, seat=0)
    with pytest.raises(IllegalAction, match=r"hand 1, bid: East bid 14, outside 0..13"):
        game.make_bid(Bid(14))
    with pytest.raises(IllegalAction, match="blind_nil"):
        game.make_bid(Bid(0, blind=True))
    for b in (3, 0, 2, 4):
        game.make_bid(b)
    with pytest.raises(IllegalAction, match=r"^hand 1, trick 1: East played AS but does not hold it$"):
        game.play(parse_card("AS"))
    game.play(parse_card("2H"))
    game.play(parse_card("AD"))  # South has no hearts: any card
    with pytest.raises(IllegalAction, match=r"^hand 1, trick 1: North cannot play: it is West's turn$"):
        game.play(parse_card("AS"), seat=0)
    with pytest.raises(IllegalAction, match="cannot bid 3 during the play phase"):
        game.make_bid(3)


def test_follow_suit_and_spades_not_broken_messages() -> None:
    hands = [
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH",
        "2S KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
        "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
    ]
    game = Game(Rules(blind_nil=False), first_dealer=3, auto_deal=False)
    game.deal([CardSet.parse(h).mask for h in hands])
    for b in (3, 1, 2, 4):
        game.make_bid(b)
    assert game.to_move == 0
    with pytest.raises(
        IllegalAction,
        match=r"^hand 1, trick 1: North led AS but spades are not broken and he holds other suits$",
    ):
        game.play(parse_card("AS"))
    game.play(parse_card("AH"))
    with pytest.raises(
        IllegalAction, match=r"^hand 1, trick 1: East played 2S but holds hearts and must follow suit$"
    ):
        game.play(parse_card("2S"))


def test_blind_nil_behind_refusal_names_the_option() -> None:
    game = Game(Rules(blind_nil_behind=100), seed=3)
    assert game.phase is Phase.BID
    seat = game.to_move
    assert seat is not None and game.looked[seat]  # nobody is behind yet: everyone sees his cards
    with pytest.raises(IllegalAction, match=r"blind_nil_behind"):
        game.make_bid(Bid(0, blind=True))
    assert game.legal_codes() == list(range(104, 118))
