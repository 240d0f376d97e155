"""The laws of the table, written once: which cards a deck holds and which suit each belongs
to, which card may be played, who wins a trick, and which bids may be made.

Every client asks here: the engine (``state.py``, whose compiled hot path inlines the same
mask arithmetic and is held equal to these functions by ``tests/test_legal.py``), the bots,
the search and the analysis. A house rule is an option of ``Rules`` plus a change in this
module (or in ``scoring.py`` for points), and nothing else in the engine.

Everything is ints and masks, derived from ``Rules`` once per rule set (``deck_of``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from spades.cards import BIG_JOKER, LITTLE_JOKER, SPADE_MASK, SUIT_MASKS
from spades.errors import N_, Text
from spades.rules import Rules

NO_BID: Final = -1
"""A seat that has not bid yet, in the per-seat int lists the engine keeps."""

_TWO_CLUBS: Final = 39
_TWO_DIAMONDS: Final = 26
_TWO_HEARTS: Final = 13
_TWO_SPADES: Final = 0


@dataclass(frozen=True, slots=True)
class Deck:
    """The cards of one rule set as lookup tables.

    ``suit_of`` and ``suit_masks`` give each card's suit in play (a joker, and the 2D of
    ``jjdd``, are spades); ``trick_keys[lead][card]`` is the card's strength in a trick led in
    suit ``lead``: trumps 100 and up, the led suit 0 and up, any other card -1."""

    cards: tuple[int, ...]
    """The cards in deck order (shuffles permute this tuple)."""
    mask: int
    suit_of: tuple[int, ...]
    """Per card 0..53: its suit in play, -1 for a card not in this deck."""
    suit_masks: tuple[int, int, int, int]
    non_spades: int
    trick_keys: tuple[tuple[int, ...], ...]
    hand_size: int
    """Cards dealt to each seat, which is also the number of tricks of a hand."""
    players: int
    standard: bool
    """The 52 cards with their natural suits: the fast paths built for it apply."""

    @property
    def max_bid(self) -> int:
        return self.hand_size


_DECKS: dict[tuple[int, str | None], Deck] = {}


def deck_of(rules: Rules) -> Deck:
    """The deck of ``rules`` (cached: there are only a handful)."""
    key = (rules.players, rules.jokers)
    deck = _DECKS.get(key)
    if deck is None:
        deck = _DECKS[key] = _build_deck(rules.players, rules.jokers)
    return deck


def _build_deck(players: int, jokers: str | None) -> Deck:
    cards = list(range(52))
    suit_of = [c // 13 for c in range(52)] + [-1, -1]
    power = [c % 13 for c in range(52)] + [-1, -1]
    removed: tuple[int, ...] = ()
    if players == 3:
        removed = (_TWO_CLUBS,)
    elif jokers == "big_little":
        removed = (_TWO_CLUBS, _TWO_DIAMONDS)
    elif jokers == "jjdd":
        removed = (_TWO_HEARTS, _TWO_CLUBS)
    for c in removed:
        cards.remove(c)
        suit_of[c] = -1
    if jokers is not None:
        cards += [LITTLE_JOKER, BIG_JOKER]
        suit_of[LITTLE_JOKER] = suit_of[BIG_JOKER] = 0
        if jokers == "jjdd":  # BJ, LJ, 2D, 2S, AS .. 3S
            suit_of[_TWO_DIAMONDS] = 0
            power[_TWO_SPADES] = 13
            power[_TWO_DIAMONDS] = 14
            power[LITTLE_JOKER], power[BIG_JOKER] = 15, 16
        else:  # BJ, LJ, AS .. 2S
            power[LITTLE_JOKER], power[BIG_JOKER] = 13, 14
    masks = [0, 0, 0, 0]
    for c in cards:
        masks[suit_of[c]] |= 1 << c
    mask = sum(1 << c for c in cards)
    keys = tuple(
        tuple(
            100 + power[c] if suit_of[c] == 0 else (power[c] if suit_of[c] == lead else -1) for c in range(54)
        )
        for lead in range(4)
    )
    standard = not removed and jokers is None
    return Deck(
        cards=tuple(cards),
        mask=mask,
        suit_of=tuple(suit_of),
        suit_masks=(masks[0], masks[1], masks[2], masks[3]),
        non_spades=mask & ~masks[0],
        trick_keys=keys,
        hand_size=len(cards) // players if players != 2 else 13,
        players=players,
        standard=standard,
    )


STANDARD: Final = _build_deck(4, None)
assert STANDARD.suit_masks == SUIT_MASKS and STANDARD.suit_masks[0] == SPADE_MASK


# ---------------------------------------------------------------------------- card play
def play_mask(deck: Deck, hand: int, lead_suit: int, may_lead_spades: bool) -> int:
    """The cards of ``hand`` that may be played: the one definition of legal play.

    ``lead_suit`` is the suit led to this trick, or -1 when leading. Follow suit if you can;
    lead a spade only once spades are broken (or ``may_lead_spades`` says so) or when you hold
    nothing else."""
    if lead_suit >= 0:
        return (hand & deck.suit_masks[lead_suit]) or hand
    if may_lead_spades:
        return hand
    return (hand & deck.non_spades) or hand


def may_lead_spades(rules: Rules, broken: bool) -> bool:
    """Whether a spade may be led now (``spades_lead``)."""
    return broken or rules.spades_lead == "any"


def trick_winner(deck: Deck, cards: Sequence[int], leader: int) -> int:
    """The seat that wins a finished trick whose first card was played by ``leader``."""
    keys = deck.trick_keys[deck.suit_of[cards[0]]]
    best = 0
    for i in range(1, len(cards)):
        if keys[cards[i]] > keys[cards[best]]:
            best = i
    return (leader + best) % len(cards)


def spade_count(deck: Deck, hand: int) -> int:
    """Spades held, jokers and the jjdd 2D included (``whiz`` and ``mirror`` bids)."""
    return (hand & deck.suit_masks[0]).bit_count()


# ---------------------------------------------------------------------------- bidding
def partner_bid(rules: Rules, seat: int, bids: Sequence[int]) -> int:
    """The partner's bid in tricks (Nil and Blind Nil are 0), or ``NO_BID``."""
    if not rules.teams:
        return NO_BID
    return bids[(seat + 2) % 4]


def number_bids(rules: Rules, deck: Deck, seat: int, bids: Sequence[int], hand: int) -> tuple[int, ...]:
    """The bids (0 = Nil) ``seat`` may make having looked at ``hand``: the one definition of bid
    legality (Blind Nil is ``blind_nil_allowed``). ``bids`` holds every seat's bid so far,
    ``NO_BID`` where none."""
    system = rules.bidding
    top = deck.max_bid
    if system == "free":
        low = rules.min_bid
        need = rules.team_min_bid
        if need:
            mate = partner_bid(rules, seat, bids)
            if mate != NO_BID:  # the second of the pair brings the sum up to ``need``
                low = max(low, need - mate)
        return tuple(range(low, top + 1))
    if system == "suicide":
        mate = partner_bid(rules, seat, bids)
        numbers = tuple(range(rules.suicide_min, top + 1))
        if mate == NO_BID:
            return (0, *numbers)
        return numbers if mate == 0 else (0,)
    spades = spade_count(deck, hand)
    if system == "whiz":
        return (0,) if spades == 0 else (0, spades)
    return (spades,)  # mirror


def blind_nil_allowed(rules: Rules, seat: int, bids: Sequence[int], totals: Sequence[int]) -> bool:
    """Whether ``seat`` may bid Blind Nil now (before looking): the rule allows it, his side is
    far enough behind (``blind_nil_behind``), and his partner's bid leaves room for a Nil
    (``suicide``: partner not Nil; ``team_min_bid``: partner's bid reaches it)."""
    if not rules.blind_nil or not blind_nil_by_score(rules, seat, totals):
        return False
    mate = partner_bid(rules, seat, bids)
    if mate == NO_BID:
        return True
    if rules.bidding == "suicide":
        return mate != 0
    return mate >= rules.team_min_bid


def blind_nil_by_score(rules: Rules, seat: int, totals: Sequence[int]) -> bool:
    """The part of Blind Nil's permission known at the deal: the score (``blind_nil_behind``)."""
    if not rules.blind_nil:
        return False
    if rules.blind_nil_behind is None:
        return True
    return max(totals) - totals[rules.side_of(seat)] >= rules.blind_nil_behind


def bid_refusal(rules: Rules, deck: Deck, seat: int, bids: Sequence[int], hand: int, tricks: int) -> str:
    """Why a looked-at number bid of ``tricks`` is refused (the rule, for the error message),
    or ``""`` if it is allowed. A ``Text``, so the error that names it can be translated."""
    allowed = number_bids(rules, deck, seat, bids, hand)
    if tricks in allowed:
        return ""
    shown = "nil" if tricks == 0 else str(tricks)
    system = rules.bidding
    if system == "suicide":
        mate = partner_bid(rules, seat, bids)
        if mate > 0:
            return Text(N_("his partner bid {mate}, so he must bid nil (bidding suicide)"), mate=mate)
        if mate == 0:
            return Text(
                N_("his partner bid nil, so he must bid at least {lowest} (bidding suicide)"),
                lowest=rules.suicide_min,
            )
        return Text(N_("he must bid nil or at least {lowest} (bidding suicide)"), lowest=rules.suicide_min)
    if system == "whiz":
        spades = spade_count(deck, hand)
        if not spades:
            return Text(N_("he holds no spades and must bid nil (bidding whiz)"))
        return Text(N_("he holds {spades} spades and must bid nil or {spades} (bidding whiz)"), spades=spades)
    if system == "mirror":
        return Text(
            N_("he holds {spades} spades, which is his bid (bidding mirror)"), spades=spade_count(deck, hand)
        )
    if tricks < rules.min_bid:
        return Text(N_("the lowest bid is {lowest} (min_bid)"), lowest=rules.min_bid)
    if tricks > deck.max_bid:
        return Text(N_("a bid is at most {top}"), top=deck.max_bid)
    mate = partner_bid(rules, seat, bids)
    return Text(
        N_(
            "his partner bid {mate} and the partnership must bid at least {lowest} (team_min_bid);"
            " {bid} is too low"
        ),
        mate=mate,
        lowest=rules.team_min_bid,
        bid=shown,
    )
