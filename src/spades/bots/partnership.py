"""A partner's duties in a trick, as a filter on the legal cards.

Two plays a strong human partner calls sabotage, whatever a search says:

- **Leaving partner's Nil to win.** Partner bid Nil, has taken no trick, and his card is
  winning the trick: if I can beat it, I must (a Nil is 100 points; the card it costs me is
  rarely worth that).
- **Overtaking partner's sure trick.** Partner bid a number and his card wins the trick
  whatever is still to come (I play last, or no card I cannot see beats it): then beating it
  wins nothing for the side and spends one of my cards (a high card that could have taken a
  trick of its own, or a trump). If I hold a card that does not beat it, I play one of those.
  The same when only a spade still to come can beat it and I would beat it with a card of the
  suit led: a ruff takes my card as well as his. Not while an opponent's Nil is live: then
  who leads the next trick is the attack on it (overtake, then lead the suit he must win), and
  the search chooses.

Why a filter rather than a term in the search's score: the expert values a card by playing
sampled deals out with every hand in view, where taking the lead from partner is worth more
than at a real table, and a partner's Nil looks lost on deals where perfect defenders would
catch it later. Those are the search's blind spots, and these two rules cover them at the
cost of nothing a real table would miss. The heuristic keeps these rules in its own play.
"""

from __future__ import annotations

from collections.abc import Sequence

from spades.bots.knowledge import trick_winner_index
from spades.cards import bits
from spades.errors import N_
from spades.legal import deck_of
from spades.observation import Observation


def _bid_tricks(obs: Observation, seat: int) -> int | None:
    view = obs.bids[seat]
    return None if view is None else view.tricks


def _beating(cards: int, keys: Sequence[int], best: int) -> int:
    """The cards of the mask ``cards`` that beat ``best`` in this trick."""
    return sum(1 << c for c in bits(cards) if keys[c] > keys[best])


def _nil_live(obs: Observation, seat: int) -> bool:
    """``seat`` bid Nil (or Blind Nil) and has taken no trick yet."""
    return _bid_tricks(obs, seat) == 0 and obs.tricks_won[seat] == 0


def partner_duty(obs: Observation, legal: int) -> tuple[int, str]:
    """The legal cards (a mask, a subset of ``legal``) a partner's duty leaves, and the
    message id saying which duty; ``(legal, "")`` when no duty applies."""
    rules = obs.rules
    if not rules.teams or not obs.trick or obs.hand is None:
        return legal, ""
    me = obs.seat
    partner = rules.partner_of(me)
    if partner is None:
        return legal, ""
    deck = deck_of(rules)
    keys = deck.trick_keys[deck.suit_of[obs.trick[0]]]
    best_i = trick_winner_index(obs.trick, deck)
    if (obs.trick_leader + best_i) % obs.players != partner:
        return legal, ""
    best = obs.trick[best_i]
    beaters = _beating(legal, keys, best)
    others = legal & ~beaters
    mine = _bid_tricks(obs, me)
    theirs = _bid_tricks(obs, partner)
    if _nil_live(obs, partner):
        if beaters and mine != 0:
            return beaters, N_("partner's Nil is winning the trick, so I beat his card")
        return legal, ""
    if theirs is None or theirs == 0 or not others:
        return legal, ""
    if any(_nil_live(obs, s) for s in range(obs.players) if s not in (me, partner)):
        return legal, ""  # who leads next is the attack on his Nil: the search decides
    last = len(obs.trick) == obs.players - 1
    if not last:
        seen = obs.hand.mask
        for t in obs.tricks:
            for c in t.cards:
                seen |= 1 << c
        for c in obs.trick:
            seen |= 1 << c
        threats = _beating(deck.mask & ~seen, keys, best)
        if threats:
            spades = deck.suit_masks[0]
            if deck.suit_of[obs.trick[0]] != 0 and not threats & ~spades and not beaters & spades:
                # Only a ruff still to come can beat it, and a ruff would beat my higher card
                # of the suit too: overtaking wins the side nothing either way and spends it.
                return others, N_("only a spade can beat partner's card, so I keep mine")
            return legal, ""  # someone still to play may beat it: no sure trick
    return others, N_("partner's card wins this trick, so I keep mine")


__all__ = ["partner_duty"]
