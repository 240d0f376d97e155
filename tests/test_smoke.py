"""A first end-to-end check: a seeded game between bots replays from its own record."""

from spades import record
from spades.bots import make_bot
from spades.driver import play_game
from spades.state import Game


def test_bot_game_round_trips_through_its_record() -> None:
    game = play_game(Game(seed=7), [make_bot("heuristic", seed=s) for s in range(4)])
    assert game.is_over
    again = record.loads(record.dumps(game)).game
    assert again.totals == game.totals
    assert again.winner == game.winner
