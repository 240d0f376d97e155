"""A Nil bidder's duty in a trick he follows: duck with his highest card that loses.

Under the card now winning, every lower card of the suit led loses this trick whatever is
still to come (a later card can only raise the winner). The highest of them is the one to
shed: the low cards kept are what lets him duck later tricks, and a high card kept is a
trick he may be forced to win. Every Nil player plays so; a search over sampled deals often
does not, because its playouts show every hand, where a Nil dodges later tricks with
whatever it kept, so the ducking cards tie and the search's tie-break (the lowest card)
throws away exactly the low card the real table needs.

A void Nil (discarding) and a Nil that cannot duck are left to the search.
"""

from __future__ import annotations

from spades.bots.knowledge import trick_winner_index
from spades.cards import bits
from spades.errors import N_
from spades.legal import deck_of
from spades.observation import Observation


def nil_duty(obs: Observation, legal: int) -> tuple[int, str]:
    """The legal cards (a mask, a subset of ``legal``) my live Nil's duty leaves, and the
    message id saying so; ``(legal, "")`` when it does not apply."""
    view = obs.bids[obs.seat]
    if view is None or view.tricks != 0 or obs.tricks_won[obs.seat] or not obs.trick:
        return legal, ""
    deck = deck_of(obs.rules)
    lead = deck.suit_of[obs.trick[0]]
    if legal & ~deck.suit_masks[lead]:
        return legal, ""  # void in the suit led: a discard, the search's to choose
    keys = deck.trick_keys[lead]
    best = keys[obs.trick[trick_winner_index(obs.trick, deck)]]
    ducks = [c for c in bits(legal) if keys[c] < best]
    if not ducks:
        return legal, ""
    return 1 << max(ducks, key=keys.__getitem__), N_("my Nil ducks with its highest card that loses")


__all__ = ["nil_duty"]
