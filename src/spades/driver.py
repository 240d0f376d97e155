"""Running a game between players: asks the seat to move for an action, applies it.

Shared by matches, the terminal UI, the server and tests, so that every client feeds the
engine the same way: bots get an observation and the legal actions, never the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spades.actions import Action, Look, PassCards
from spades.bots.base import Bot, Decision
from spades.errors import IllegalAction
from spades.state import Event, Game, Phase


def decide(game: Game, bot: Bot, seat: int) -> Decision:
    obs = game.observation(seat)
    return bot.decide(obs, game.legal_actions(seat))


def apply_decision(game: Game, seat: int, action: Action) -> Event:
    """Apply a bot's choice; a whole pass is accepted where single card steps are listed."""
    if isinstance(action, PassCards):
        return game.pass_cards(action.cards, seat)
    if isinstance(action, Look):
        return game.look(seat)
    return game.apply(action, seat)


def step(game: Game, bots: Sequence[Bot]) -> Event:
    seat = game.to_move
    if seat is None:
        raise IllegalAction(f"no seat is to move in the {game.phase.value} phase")
    decision = decide(game, bots[seat], seat)
    return apply_decision(game, seat, decision.action)


def play_game(
    game: Game,
    bots: Sequence[Bot],
    *,
    on_event: Callable[[Event], None] | None = None,
    max_hands: int | None = None,
) -> Game:
    """Play until the game is over (or ``max_hands`` hands are complete)."""
    start = len(game.scores)
    while not game.is_over:
        if max_hands is not None and len(game.scores) - start >= max_hands:
            break
        if game.phase is Phase.DEAL:
            game.deal()
            continue
        ev = step(game, bots)
        if on_event is not None:
            on_event(ev)
    return game
