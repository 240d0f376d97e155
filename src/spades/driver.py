"""Running a game between players: asks the seat to move for an action, applies it.

Shared by matches, the terminal UI, the server and tests, so that every client feeds the
engine the same way: bots get an observation and the legal actions, never the game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

from spades.actions import Action
from spades.bots.base import Bot, Decision
from spades.errors import IllegalAction
from spades.state import Event, Game, Phase

log = logging.getLogger("spades.driver")


def decide(game: Game, bot: Bot, seat: int) -> Decision:
    obs = game.observation(seat)
    return bot.decide(obs, game.legal_actions(seat))


def apply_decision(game: Game, seat: int, action: Action) -> Event:
    """Apply a seat's choice (``Game.apply`` takes a whole pass where single card steps are
    listed, and a look out of turn)."""
    return game.apply(action, seat)


def notify_others(game: Game, bots: Sequence[Bot] | Mapping[int, Bot]) -> None:
    """After a change, send each seat whose bot ``wants_events`` its new observation (the
    protocol's ``event``), except the seat to move next: that one gets an ``act`` instead.

    ``bots`` is by seat (a list, or a dict without the people's seats). Nothing is built when
    no bot wants events, and nothing is sent between hands: the observation of a hand waiting
    for its deal would look to a bot like a step back, and the deal notifies anyway. A bot
    failing here is logged and the game goes on: an event asks for no answer."""
    seats = bots.items() if isinstance(bots, Mapping) else enumerate(bots)
    listeners = [(seat, bot) for seat, bot in seats if bot.wants_events]
    if not listeners or game.phase is Phase.DEAL:
        return
    to_move = game.to_move
    for seat, bot in listeners:
        if seat == to_move:
            continue
        try:
            bot.notify(game.observation(seat))
        except Exception as e:  # an event is a courtesy: it must never stop the game
            log.warning("bot %s (seat %d): event not delivered: %s", bot.name, seat, e)


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
            notify_others(game, bots)
            continue
        ev = step(game, bots)
        notify_others(game, bots)
        if on_event is not None:
            on_event(ev)
    return game
