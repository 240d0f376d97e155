"""Positions drawn from real engine games, shared by the search tests (no tests of its own)."""

from __future__ import annotations

import random

from spades.state import Game, Phase


def engine_position(seed: int, *, min_left: int = 1, max_left: int = 52) -> Game:
    """A game in its first hand's play phase after random legal actions, with between
    ``min_left`` and ``max_left`` cards still to play (any point of a trick)."""
    rng = random.Random(seed)
    game = Game(seed=seed)
    while game.phase is not Phase.PLAY:
        game.apply_code(rng.choice(game.legal_codes()))
    left = rng.randint(min_left, max_left)
    for _ in range(52 - left):
        game.play(rng.choice(game.legal_codes()))
    return game


def table_args(game: Game) -> tuple[list[int], int, list[int], int, bool, list[int]]:
    """The search core's description of the game's position."""
    return (
        list(game.hands),
        game.turn,
        list(game.trick),
        game.trick_leader,
        game.spades_broken,
        list(game.tricks_won),
    )
