"""What the cards a player chose say about the cards he kept: soft facts for the sampler.

Voids are certain and ``sampling.Knowledge`` holds them. Other plays are evidence, not proof:
a player whose side still needs tricks and who is last to a trick will win it if he can, and
will win it cheaply. So when he let an opponent's card win while following suit, a deal that
gives him (at that moment) a higher card of that suit is unlikely; and when he won with a
card while holding a cheaper winner of the same suit, likewise. Each such fact is a
``Clue``: a deal where seat ``seat`` held any card of ``mask`` at the time (his cards now plus
those he played after that trick) is weighted by ``factor``.

Only the fourth hand is read (he sees the whole trick: no finesse, no "second hand low"), and
only for a number bidder whose side had not made its contract and who was not covering his
partner's Nil (a cover plays high on purpose); the third hand's low card when his partner was
losing says less (he may have known the fourth would overtake), so it weighs ``THIRD``.
The factors are kept mild: a good player sometimes ducks on purpose.

A live Nil is read at any place in the trick: following suit under the winning card, he
plays the highest card that still loses (every Nil player's rule, and the one that keeps his
low cards for later tricks), so a deal giving him a card of that suit between his card and
the winner (or above his card, if a spade is winning a side suit) weighs ``NIL_DUCK``; and
when he cannot duck and a seat is still to play, he plays his lowest card of the suit and
hopes to be overtaken, so a deal giving him a lower one weighs ``NIL_DUCK`` too.

A number bidder whose side still needs tricks keeps his high cards to win with: a card he
plays that does not win the trick (following suit under the winner) is his lowest of the
suit, and a card he throws on another suit is the lowest of its suit. So a deal giving him a
lower card of that suit weighs ``LOW`` (``DISCARD`` for a throw, which a player may also take
from a suit he wants to empty). Not read while an opponent of his holds a live Nil (then a
defender stays as high under the winner as he can) nor when he covers his partner's Nil.
Off by default (the expert's ``read_low``): paired against the default it measured -1.7 and
-1.5 points a hand on two fresh seeds (docs/expert.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.legal import Deck, deck_of
from spades.observation import Observation

LAST = 0.25
"""Weight of a deal where the fourth hand could have won (or won cheaper) and did not."""
THIRD = 0.6
"""Weight of a deal where the third hand, his partner losing to the second, could have won."""
NIL_DUCK = 0.2
"""Weight of a deal where a live Nil's duck (or his low card, when he could not duck) says he
did not hold a card of the suit. Against no such read (and no Nil duty), paired over 600
duplicate deals against the heuristic (four seeds): +2.0 points a hand (95% CI -1.5 .. +5.5);
+6.1 on the two seeds it was chosen on, -2.2 on the two after."""


LOW = 0.3
"""Weight of a deal where a number bidder who needed tricks followed suit with a losing card
while holding a lower one of the suit (the issue's "high cards shed")."""
DISCARD = 0.5
"""Weight of a deal where such a player, void in the suit led, threw a side card while
holding a lower one of its suit."""


@dataclass(frozen=True, slots=True)
class Clue:
    seat: int
    mask: int
    """Cards he is unlikely to have held at that trick."""
    later: int
    """Cards he played after that trick (in his hand then, gone from it now)."""
    factor: float


def clues(obs: Observation, low: bool = False) -> list[Clue]:
    """The soft facts of this hand's finished tricks and the trick in progress, for every
    seat but the observer's. Four-seat partnership games only (elsewhere: none). ``low``
    reads losing cards and throws as the lowest of their suit (``LOW``, ``DISCARD``): off by
    default, as in the expert (``read_low``), since it measured no gain."""
    rules = obs.rules
    if obs.players != 4 or not rules.teams:
        return []
    deck = deck_of(rules)
    suit_of = deck.suit_of
    suit_masks = deck.suit_masks
    bids = [(-1 if v is None else v.tricks) for v in obs.bids]
    contract = [0, 0]
    for s in range(4):
        if bids[s] > 0:
            contract[rules.side_of(s)] += bids[s]
    taken = [0, 0]
    nil_won = [0] * 4
    tricks = [(t.leader, t.cards) for t in obs.tricks]
    if obs.trick:
        tricks.append((obs.trick_leader, obs.trick))
    # Cards each seat played from each trick on (to rebuild a hand as it was then).
    played_from: list[list[int]] = [[0] * (len(tricks) + 1) for _ in range(4)]
    for i in range(len(tricks) - 1, -1, -1):
        leader, cards = tricks[i]
        for s in range(4):
            played_from[s][i] = played_from[s][i + 1]
        for j, c in enumerate(cards):
            played_from[(leader + j) % 4][i] |= 1 << c
    out: list[Clue] = []
    out_before = 0
    for i, (leader, cards) in enumerate(tricks):
        lead = suit_of[cards[0]]
        keys = deck.trick_keys[lead]
        suit = suit_masks[lead]
        gone = out_before | _mask(cards)
        # Nils still clean: who wins a trick changes it only once the trick is done.
        live = [bids[t] == 0 and nil_won[t] == 0 for t in range(4)]
        best = 0
        for j in range(1, len(cards)):
            s = (leader + j) % 4
            w = cards[best]
            c = cards[j]
            later = played_from[s][i + 1]
            if s != obs.seat and bids[s] > 0:
                side = rules.side_of(s)
                partner = (s + 2) % 4
                covering = live[partner]
                winner = (leader + best) % 4
                needs = contract[side] - taken[side] > 0
                # Against a live Nil a defender stays as high under the winner as he can.
                nil_against = live[(s + 1) % 4] or live[(s + 3) % 4]
                if low and needs and not covering and not nil_against:
                    shed = _low_clue(keys, deck, lead, w, c) & ~gone
                    if shed:
                        out.append(Clue(s, shed, later, LOW if suit_of[c] == lead else DISCARD))
                if needs and not covering and suit_of[c] == lead and suit_of[w] == lead:
                    above_w = suit & _above(keys, w, suit, deck.cards)
                    if j == 3 and rules.side_of(winner) != side and keys[c] < keys[w]:
                        out.append(Clue(s, above_w, later, LAST))
                    elif j == 3 and keys[c] > keys[w]:
                        cheaper = above_w & ~_above(keys, c, suit, deck.cards) & ~(1 << c)
                        # A card touching his (only played cards between) is worth the same.
                        cheaper = sum(
                            1 << x
                            for x in deck.cards
                            if cheaper >> x & 1 and _between(keys, x, c, suit, deck.cards) & ~gone
                        )
                        if cheaper:
                            out.append(Clue(s, cheaper, later, LAST))
                    elif j == 2 and winner != partner and rules.side_of(winner) != side and keys[c] < keys[w]:
                        out.append(Clue(s, above_w, later, THIRD))
            elif s != obs.seat and live[s] and suit_of[c] == lead:
                mask = 0
                if keys[c] < keys[w]:
                    # A live Nil ducks with the highest card of the suit led that still loses:
                    # he held none between his card and the winner (none above his if ruffed).
                    mask = _above(keys, c, suit, deck.cards) & ~(1 << w)
                    if suit_of[w] == lead:
                        mask &= ~_above(keys, w, suit, deck.cards)
                elif j < 3:
                    # He could not duck, so he played his lowest card of the suit and hoped
                    # one of the seats still to play would beat it.
                    mask = suit & ~_above(keys, c, suit, deck.cards) & ~(1 << c)
                if mask:
                    out.append(Clue(s, mask, later, NIL_DUCK))
            if keys[c] > keys[w]:
                best = j
        out_before = gone
        if len(cards) == 4:
            win = (leader + best) % 4
            if bids[win] == 0:
                nil_won[win] += 1
            elif bids[win] > 0:
                taken[rules.side_of(win)] += 1
    return out


def _low_clue(keys: tuple[int, ...] | list[int], deck: Deck, lead: int, w: int, c: int) -> int:
    """The cards of ``c``'s suit below ``c`` when ``c`` does not beat the winning card ``w``:
    following suit, a losing card; on another suit, a throw (not a trump that wins)."""
    cs = deck.suit_of[c]
    if keys[c] > keys[w] or (cs != lead and cs == 0):
        return 0  # it wins for now, or it is a ruff (spades are suit 0)
    own = deck.trick_keys[cs]
    suit = deck.suit_masks[cs]
    return suit & ~_above(own, c, suit, deck.cards) & ~(1 << c)


def _above(keys: tuple[int, ...] | list[int], card: int, suit: int, cards: tuple[int, ...]) -> int:
    """Cards of ``suit`` that beat ``card`` in a trick of its suit."""
    m = 0
    k = keys[card]
    for c in cards:
        if suit >> c & 1 and keys[c] > k:
            m |= 1 << c
    return m


def _between(
    keys: tuple[int, ...] | list[int], low: int, high: int, suit: int, cards: tuple[int, ...]
) -> int:
    m = 0
    for c in cards:
        if suit >> c & 1 and keys[low] < keys[c] < keys[high]:
            m |= 1 << c
    return m


def _mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def weight(found: list[Clue], hands: list[int]) -> float:
    """The product of the factors of the clues a sampled deal (``hands``: cards now) breaks."""
    w = 1.0
    for cl in found:
        if (hands[cl.seat] | cl.later) & cl.mask:
            w *= cl.factor
    return w


__all__ = ["DISCARD", "LAST", "LOW", "NIL_DUCK", "THIRD", "Clue", "clues", "weight"]
