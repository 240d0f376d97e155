"""Undo at the hand's end and the game's end: the scores, the next deal and everything
visible come back exactly, and doing the same action again deals the same next hand."""

from __future__ import annotations

import json
import random

from spades import Game, Rules, record
from spades.errors import IllegalAction
from spades.rules import PRESETS
from spades.state import Phase


def visible(game: Game) -> str:
    return json.dumps(
        [game.observation(s).to_json() for s in range(game.n)]
        + [record.to_record(game), game.totals, game.bags, game.winner, len(game.history)]
    )


def play_to_last_card(game: Game) -> None:
    number = game.hand_number
    while not (
        game.phase is Phase.PLAY
        and len(game.tricks) == game.deck.hand_size - 1
        and len(game.trick) == game.n - 1
    ):
        game.apply_code(game.legal_codes()[0])
        assert game.hand_number == number


def test_undo_the_last_card_of_a_hand_and_play_it_again() -> None:
    for preset in sorted(PRESETS):
        game = Game(PRESETS[preset], seed=8)
        play_to_last_card(game)
        before = visible(game)
        last = game.legal_codes()[0]
        game.apply_code(last)
        after = visible(game)
        assert game.hand_number == 2 and len(game.scores) == 1
        game.undo()
        assert visible(game) == before
        game.apply_code(last)
        assert visible(game) == after  # the same next deal
        # several hands back and forth
        play_to_last_card(game)
        game.apply_code(game.legal_codes()[0])
        three = visible(game)
        while True:  # to the start (a mirror game starts with the engine's own bids)
            try:
                game.undo()
            except IllegalAction:
                break
        replayed = Game(PRESETS[preset], seed=8)
        assert game.history == replayed.history and game.hand_number == 1 and not game.scores
        assert visible(game) == visible(replayed)
        del three


def test_undo_after_the_game_is_over() -> None:
    game = Game(Rules(target=60, blind_nil=False, lose_at=-60), seed=3)
    rng = random.Random(3)
    while not game.is_over:
        if (
            game.phase is Phase.PLAY
            and len(game.tricks) == game.deck.hand_size - 1
            and len(game.trick) == game.n - 1
        ):
            before = visible(game)
            code = game.legal_codes()[0]
            game.apply_code(code)
            if game.is_over:
                over = visible(game)
                game.undo()
                assert visible(game) == before and not game.is_over and game.winner is None
                game.apply_code(code)
                assert visible(game) == over
                break
            continue
        game.apply_code(rng.choice(game.legal_codes()))
    assert game.is_over and game.to_move is None and game.legal_codes() == []


def test_undo_without_auto_deal_takes_back_a_manual_deal_too() -> None:
    game = Game(Rules(blind_nil=False), seed=5, auto_deal=False)
    game.deal()
    play_to_last_card(game)
    before = visible(game)
    game.apply_code(game.legal_codes()[0])
    assert game.phase is Phase.DEAL
    game.deal()
    dealt = [list(log.dealt) for log in game.logs]
    game.undo()  # the last card: the scoring and the deal after it go too
    assert visible(game) == before
    game.apply_code(game.legal_codes()[0])
    game.deal()
    assert [list(log.dealt) for log in game.logs] == dealt
