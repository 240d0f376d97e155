"""Spades: a complete, fast and fair implementation of the card game.

The engine (``Game``) decides everything; clients see per-seat ``Observation`` values.
"""

from spades import _native  # noqa: F401  (first: SPADES_PURE_PYTHON=1 acts before spades.state loads)
from spades.actions import Action, Bid, Draw, Look, PassCard, PassCards, Play
from spades.cards import CardSet, Rank, Suit, card_text, parse_card
from spades.errors import IllegalAction, InvalidCard, InvalidRecord, InvalidRules, SpadesError
from spades.observation import Observation
from spades.rules import PRESETS, Rules
from spades.scoring import HandScore
from spades.state import Event, Game, Phase

__all__ = [
    "PRESETS",
    "Action",
    "Bid",
    "CardSet",
    "Draw",
    "Event",
    "Game",
    "HandScore",
    "IllegalAction",
    "InvalidCard",
    "InvalidRecord",
    "InvalidRules",
    "Look",
    "Observation",
    "PassCard",
    "PassCards",
    "Phase",
    "Play",
    "Rank",
    "Rules",
    "SpadesError",
    "Suit",
    "card_text",
    "parse_card",
]
