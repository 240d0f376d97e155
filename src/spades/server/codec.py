"""Actions and decks as text for the event log and the pages.

Actions: the protocol's words, plus ``pick XX`` for one card of a pass chosen on its own (a
bot's ``PassCard`` step), which the protocol has no word for. Decks: ``deck_view`` tells a page
the cards of the rules' deck in the order a hand is sorted, so the page never works out which
card is a trump (jokers, the ``jjdd`` 2D) itself: ``legal.deck_of`` says it once.
"""

from __future__ import annotations

from typing import Any

from spades.actions import Action, PassCard, parse_action
from spades.cards import card_text, parse_card
from spades.legal import deck_of
from spades.rules import Rules

DISPLAY_SUITS = (0, 1, 3, 2)
"""Suits in play as a hand shows them, left to right: spades, hearts, clubs, diamonds (the
colours alternate)."""


def encode_action(action: Action) -> str:
    if isinstance(action, PassCard):
        return f"pick {card_text(action.card)}"
    return action.text


def decode_action(text: str) -> Action:
    if text.startswith("pick "):
        return PassCard(parse_card(text[5:]))
    return parse_action(text)


def deck_view(rules: Rules) -> dict[str, Any]:
    """The deck of ``rules`` for a page: ``order`` every card high to low within its suit in
    play (spades first, jokers at their head, the ``jjdd`` 2D among them), ``trumps`` the cards
    that are spades in play without being printed as spades, ``size`` cards in the deck,
    ``tricks`` per hand (the most a seat may bid)."""
    deck = deck_of(rules)
    rank = {s: i for i, s in enumerate(DISPLAY_SUITS)}

    def key(card: int) -> tuple[int, int]:
        suit = deck.suit_of[card]
        return rank[suit], -deck.trick_keys[suit][card]

    order = sorted(deck.cards, key=key)
    return {
        "order": [card_text(c) for c in order],
        "trumps": [card_text(c) for c in order if deck.suit_of[c] == 0 and (c >= 52 or c // 13 != 0)],
        "size": len(deck.cards),
        "tricks": deck.hand_size,
    }
