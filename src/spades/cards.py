"""Cards as ints 0..53 and sets of cards as 54-bit masks.

A card's int is ``suit * 13 + rank`` with ranks 0 (two) .. 12 (ace), so that within a suit a
higher int is a higher card and a suit is one contiguous 13-bit field of a mask. Suits are
numbered so that spades, the trump, is suit 0: the suit test for trumps is then a mask with the
low 13 bits. The two jokers of the ``jokers`` house rule are 52 (Little Joker, ``LJ``) and 53
(Big Joker, ``BJ``), above every suit: a 52-card game never sets those bits. Which suit a card
belongs to *in a game* (jokers and the jjdd 2D are spades) is a rule, kept in ``spades.legal``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

from spades.errors import N_, InvalidCard


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def mask(self) -> int:
        return SUIT_MASKS[self]


class Rank(IntEnum):
    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]


SUIT_LETTERS: Final = "SHDC"
RANK_LETTERS: Final = "23456789TJQKA"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
SPADE_MASK: Final = SUIT_MASKS[0]
FULL_DECK: Final = (1 << 52) - 1
"""The 52 cards of a standard deck."""
LITTLE_JOKER: Final = 52
BIG_JOKER: Final = 53
ALL_CARDS: Final = (1 << 54) - 1
"""Every card any rule set uses: the 52 and the two jokers."""
JOKER_TEXT: Final = {LITTLE_JOKER: "LJ", BIG_JOKER: "BJ"}

Card = int
"""A card is a plain int 0..53 (hot data); use the helpers below for its parts and text."""


def make_card(rank: int, suit: int) -> Card:
    return suit * 13 + rank


def suit_of(card: Card) -> int:
    return card // 13


def rank_of(card: Card) -> int:
    return card % 13


def card_text(card: Card) -> str:
    """Canonical text, e.g. ``AS``, ``TD``, or ``BJ``/``LJ`` for the jokers."""
    if not 0 <= card < 54:
        raise InvalidCard(N_("no card has number {card}"), card=str(card))
    if card >= 52:
        return JOKER_TEXT[card]
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


def parse_card(text: str) -> Card:
    """Read ``AS``, ``as``, ``10h``, ``Th`` or ``BJ``; raise ``InvalidCard`` naming the text otherwise."""
    t = text.strip().upper()
    if t == "BJ":
        return BIG_JOKER
    if t == "LJ":
        return LITTLE_JOKER
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANK_LETTERS or t[1] not in SUIT_LETTERS:
        raise InvalidCard(N_("unknown card {text}"), text=repr(text))
    return SUIT_LETTERS.index(t[1]) * 13 + RANK_LETTERS.index(t[0])


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class CardSet:
    """An immutable set of cards on a 54-bit mask; behaves like a ``frozenset[int]``.

    Iteration and ``str`` use display order: the jokers (big first), spades, hearts, diamonds,
    clubs (the usual way a Spades hand is sorted), each from high to low.
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= ALL_CARDS:
                raise InvalidCard(N_("mask {mask} is not a set of cards"), mask=f"{cards:#x}")
            object.__setattr__(self, "mask", cards)
            return
        m = 0
        for c in cards:
            if not 0 <= c < 54:
                raise InvalidCard(N_("no card has number {card}"), card=str(c))
            m |= 1 << c
        object.__setattr__(self, "mask", m)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        """Pickle (and copy) as the mask: the default slot restore would hit ``__setattr__``.
        Observations and actions cross to the server's worker processes this way."""
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """Read space-separated card text (or a list of card texts); duplicates are an error."""
        items = text.split() if isinstance(text, str) else list(text)
        m = 0
        for item in items:
            c = parse_card(item)
            if m >> c & 1:
                raise InvalidCard(N_("card {card} given twice"), card=card_text(c))
            m |= 1 << c
        return cls(m)

    @classmethod
    def deck(cls) -> CardSet:
        return cls(FULL_DECK)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 54 and bool(self.mask >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        if self.mask >> 52:
            for joker in (BIG_JOKER, LITTLE_JOKER):
                if self.mask >> joker & 1:
                    yield joker
        for suit in range(4):
            field = (self.mask >> (13 * suit)) & 0x1FFF
            for rank in range(12, -1, -1):
                if field >> rank & 1:
                    yield suit * 13 + rank

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __lt__(self, other: CardSet) -> bool:
        return self.mask != other.mask and self <= other

    def __ge__(self, other: CardSet) -> bool:
        return other <= self

    def __gt__(self, other: CardSet) -> bool:
        return other < self

    def suit(self, suit: int) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def texts(self) -> list[str]:
        return [card_text(c) for c in self]

    def __str__(self) -> str:
        return " ".join(self.texts())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards)
