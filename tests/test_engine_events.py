"""Events are interned: a play or number bid of one seat, with its trick winner and hand
number, is one immutable ``Event`` shared by every game. The history is still each game's
own, equal to the events its actions returned, and undo and replays see the same values."""

from __future__ import annotations

import random

from spades import Bid, Game, Play, Rules
from spades.state import Event


def random_hand(game: Game, rng: random.Random) -> list[Event]:
    number = game.hand_number
    out = []
    while game.hand_number == number and not game.is_over:
        codes = game.legal_codes()
        out.append(game.apply_code(codes[rng.randrange(len(codes))]))
    return out


def test_the_events_returned_are_the_history_and_hold_their_values() -> None:
    rng = random.Random(5)
    game = Game(Rules(blind_nil=False), seed=5)
    returned = random_hand(game, rng) + random_hand(game, rng)
    assert returned == game.history
    assert all(a is b for a, b in zip(returned, game.history, strict=True))
    winners = 0
    for ev in game.history:
        assert type(ev) is Event and ev.hand_number in (1, 2) and 0 <= ev.seat < 4
        if isinstance(ev.action, Play):
            winners += ev.trick_winner is not None
        else:
            assert isinstance(ev.action, Bid) and ev.trick_winner is None
    assert winners == 26


def test_two_games_share_equal_events_and_a_replay_is_equal() -> None:
    a, b = Game(Rules(), seed=9), Game(Rules(), seed=9)
    rng_a, rng_b = random.Random(1), random.Random(1)
    random_hand(a, rng_a)
    random_hand(b, rng_b)
    assert a.history == b.history
    plays = [(x, y) for x, y in zip(a.history, b.history, strict=True) if isinstance(x.action, Play)]
    assert plays and all(x is y for x, y in plays)  # interned: the very same values


def test_a_play_that_ends_a_trick_is_not_the_same_event_as_one_that_does_not() -> None:
    game = Game(Rules(blind_nil=False), seed=2)
    events = random_hand(game, random.Random(2))
    seen: dict[tuple[int, object, int], Event] = {}
    for ev in events:
        key = (ev.seat, ev.action, ev.hand_number)
        assert seen.setdefault(key, ev) == ev  # each card is played once a hand


def test_events_past_the_interned_hands_are_made_as_before() -> None:
    # Hand numbers above the interned range (256) make their events one by one.
    rng = random.Random(3)
    game = Game(Rules(blind_nil=False), seed=3)
    while game.hand_number < 258:
        game.set_scores([0, 0], [0, 0])  # the game never ends
        events = random_hand(game, rng)
        assert all(ev.hand_number == game.hand_number - 1 for ev in events)
    before = list(game.history)
    ev = game.apply_code(game.legal_codes()[0])
    assert ev.hand_number == 258 and game.history[-1] is ev
    assert game.undo() is ev and game.history == before
