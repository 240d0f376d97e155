"""The actions a seat can take, as frozen values, and their dense int codes.

Codes give researchers one flat ``Discrete`` space (OpenSpiel style); the typed values are
what everything else uses. A Blind Nil exchange of k cards is one ``PassCards`` action, or k
``PassCard`` steps in the code space (one card each), which the engine gathers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from spades.cards import CardSet, card_text, parse_card
from spades.errors import N_, IllegalAction, SpadesError

PLAY_BASE: Final = 0
PASS_BASE: Final = 52
BID_BASE: Final = 104
BLIND_NIL_CODE: Final = 118
LOOK_CODE: Final = 119
DRAW_KEEP_CODE: Final = 120
DRAW_DISCARD_CODE: Final = 121
JOKER_PLAY_BASE: Final = 122
"""The house rules' extra actions come after the 122 of the 52-card game, so its codes never
change: playing LJ, BJ (122, 123), passing them (124, 125), bidding 14..17 (126..129, three
players)."""
JOKER_PASS_BASE: Final = 124
HIGH_BID_BASE: Final = 126
NUM_ACTIONS: Final = 130


def play_code(card: int) -> int:
    return PLAY_BASE + card if card < 52 else JOKER_PLAY_BASE + card - 52


def pass_code(card: int) -> int:
    return PASS_BASE + card if card < 52 else JOKER_PASS_BASE + card - 52


def bid_code(tricks: int) -> int:
    return BID_BASE + tricks if tricks < 14 else HIGH_BID_BASE + tricks - 14


@dataclass(frozen=True, slots=True)
class Play:
    card: int

    @property
    def text(self) -> str:
        return f"play {card_text(self.card)}"

    @property
    def code(self) -> int:
        return play_code(self.card)


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of ``tricks``; 0 is Nil, and ``blind`` marks Blind Nil (then ``tricks`` is 0)."""

    tricks: int
    blind: bool = False

    @property
    def is_nil(self) -> bool:
        return self.tricks == 0

    @property
    def record_value(self) -> int | str:
        if self.blind:
            return "blind_nil"
        return "nil" if self.tricks == 0 else self.tricks

    @property
    def text(self) -> str:
        return f"bid {self.record_value}"

    @property
    def code(self) -> int:
        return BLIND_NIL_CODE if self.blind else bid_code(self.tricks)


@dataclass(frozen=True, slots=True)
class Look:
    @property
    def text(self) -> str:
        return "look"

    @property
    def code(self) -> int:
        return LOOK_CODE


@dataclass(frozen=True, slots=True)
class PassCards:
    """The whole of one side of a Blind Nil exchange."""

    cards: CardSet

    @property
    def text(self) -> str:
        return "pass " + " ".join(self.cards.texts())


@dataclass(frozen=True, slots=True)
class PassCard:
    """One card of an exchange, for the flat code space; k of them make a ``PassCards``."""

    card: int

    @property
    def text(self) -> str:
        return f"pass {card_text(self.card)}"

    @property
    def code(self) -> int:
        return pass_code(self.card)


@dataclass(frozen=True, slots=True)
class Draw:
    """Two-player draw: keep the top card of the stock (and discard the next) or not."""

    keep: bool

    @property
    def text(self) -> str:
        return "keep" if self.keep else "discard"

    @property
    def code(self) -> int:
        return DRAW_KEEP_CODE if self.keep else DRAW_DISCARD_CODE


Action = Play | Bid | Look | PassCards | PassCard | Draw


def decode(code: int) -> Play | Bid | Look | PassCard | Draw:
    """The action of a dense code; raise ``IllegalAction`` for a code outside the space."""
    if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < NUM_ACTIONS:
        raise IllegalAction(
            N_("action code {code} is outside 0..{top}"), code=repr(code), top=NUM_ACTIONS - 1
        )
    if code < PASS_BASE:
        return Play(code)
    if code < BID_BASE:
        return PassCard(code - PASS_BASE)
    if code < BLIND_NIL_CODE:
        return Bid(code - BID_BASE)
    if code == BLIND_NIL_CODE:
        return Bid(0, blind=True)
    if code == LOOK_CODE:
        return Look()
    if code < JOKER_PLAY_BASE:
        return Draw(code == DRAW_KEEP_CODE)
    if code < JOKER_PASS_BASE:
        return Play(52 + code - JOKER_PLAY_BASE)
    if code < HIGH_BID_BASE:
        return PassCard(52 + code - JOKER_PASS_BASE)
    return Bid(14 + code - HIGH_BID_BASE)


def parse_action(text: str) -> Action:
    """Read the protocol's action words: ``look``, ``bid 4``, ``bid nil``, ``bid blind_nil``,
    ``pass 2H 3C 4D``, ``play AS``, ``keep``, ``discard``."""
    words = text.split()
    if not words:
        raise SpadesError(N_("empty action"))
    verb, args = words[0].lower(), words[1:]
    if verb == "look" and not args:
        return Look()
    if verb in ("keep", "discard") and not args:
        return Draw(verb == "keep")
    if verb == "bid" and len(args) == 1:
        arg = args[0].lower()
        if arg == "nil":
            return Bid(0)
        if arg == "blind_nil":
            return Bid(0, blind=True)
        if arg.isdigit() and len(arg) <= 2 and 0 <= int(arg) <= 17:
            return Bid(int(arg))
        raise SpadesError(N_("bad bid {bid} in action {action}"), bid=repr(args[0]), action=repr(text))
    if verb == "play" and len(args) == 1:
        return Play(parse_card(args[0]))
    if verb == "pass" and args:
        return PassCards(CardSet.parse(args))
    raise SpadesError(N_("unknown action {action}"), action=repr(text))
