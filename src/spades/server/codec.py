"""Actions as short text in the event log: the protocol's words, plus ``pick XX`` for one card
of a pass chosen on its own (a bot's ``PassCard`` step), which the protocol has no word for."""

from __future__ import annotations

from spades.actions import Action, PassCard, parse_action
from spades.cards import card_text, parse_card


def encode_action(action: Action) -> str:
    if isinstance(action, PassCard):
        return f"pick {card_text(action.card)}"
    return action.text


def decode_action(text: str) -> Action:
    if text.startswith("pick "):
        return PassCard(parse_card(text[5:]))
    return parse_action(text)
