"""The game state machine: a whole game of Spades, hand after hand.

``Game`` is the only place where the game is decided. Hot data are ints and bit masks (a
hand is a 54-bit mask, a card an int), so the legal-move query is mask arithmetic; the public
face is the typed actions of ``spades.actions`` and the per-seat ``Observation``.

Every action has three forms (pokerkit's triad): ``verify_x`` raises ``IllegalAction`` naming
the seat, the action and the rule; ``can_x`` answers yes or no; ``x`` applies it and returns
the ``Event`` appended to ``history``. ``undo`` takes back the last event.
"""

# mypy: always-false=MYPYC
from __future__ import annotations

import random
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeAlias

from spades.actions import (
    BID_BASE,
    BLIND_NIL_CODE,
    DRAW_DISCARD_CODE,
    DRAW_KEEP_CODE,
    LOOK_CODE,
    Action,
    Bid,
    Draw,
    Look,
    PassCard,
    PassCards,
    Play,
    decode,
)
from spades.actions import bid_code as _bid_code
from spades.actions import pass_code as _pass_code
from spades.actions import play_code as _play_code
from spades.cards import (
    FULL_DECK,
    SPADE_MASK,
    SUIT_MASKS,
    CardSet,
    bits,
    card_text,
)
from spades.errors import N_, IllegalAction, Text
from spades.legal import (
    NO_BID,
    bid_refusal,
    blind_nil_allowed,
    blind_nil_by_score,
    deck_of,
    number_bids,
    play_mask,
    spade_count,
)
from spades.rules import Rules
from spades.scoring import HandScore, SeatBid, game_winner, score_hand

if TYPE_CHECKING:
    from spades.observation import Observation

    MYPYC = False
    """Seen as true only by the mypyc build (``setup.py`` compiles with ``--always-true=MYPYC``).

    mypyc checks every argument of a compiled function against its annotation and raises
    ``TypeError``, but the public API promises that any junk is an ``IllegalAction`` naming it.
    So the parameters that take a caller's values are annotated with the aliases below: the
    precise types for mypy and for users, ``Any`` for mypyc, which then leaves the checking to
    the methods themselves, exactly as in pure Python."""
    if MYPYC:
        IntIn: TypeAlias = Any
        SeatIn: TypeAlias = Any
        BoolIn: TypeAlias = Any
        ActionIn: TypeAlias = Any
        BidIn: TypeAlias = Any
        BidOrIntIn: TypeAlias = Any
        CardsIn: TypeAlias = Any
        MasksIn: TypeAlias = Any
        SeqIn: TypeAlias = Any
        RulesIn: TypeAlias = Any
        RngIn: TypeAlias = Any
    else:
        IntIn: TypeAlias = int
        SeatIn: TypeAlias = int | None
        BoolIn: TypeAlias = bool
        ActionIn: TypeAlias = Action
        BidIn: TypeAlias = Bid
        BidOrIntIn: TypeAlias = Bid | int
        CardsIn: TypeAlias = CardSet
        MasksIn: TypeAlias = Sequence[int] | None
        SeqIn: TypeAlias = Sequence[int]
        RulesIn: TypeAlias = Rules | str | Mapping[str, Any] | None
        RngIn: TypeAlias = random.Random | None

SEAT_NAMES = ("North", "East", "South", "West")
THREE_SEAT_NAMES = ("North", "East", "West")
"""Three players sit at seats 0, 1, 2 clockwise, named as house-rules.md says."""
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


class Phase(StrEnum):
    """The phase of a hand. A ``StrEnum``: ``Phase.BID == "bid"``, and JSON writes its value."""

    DEAL = "deal"
    DRAW = "draw"
    BID = "bid"
    EXCHANGE = "exchange"
    PLAY = "play"
    OVER = "over"


# Error templates (message ids, see spades.errors): one whole sentence per phase and action,
# so each language words it as a whole.
_PHASE_NAMES: Final = {
    Phase.DEAL: N_("deal phase"),
    Phase.DRAW: N_("draw phase"),
    Phase.BID: N_("bid phase"),
    Phase.EXCHANGE: N_("exchange phase"),
    Phase.PLAY: N_("play phase"),
    Phase.OVER: N_("over phase"),
}
_PHASE_WHERE: Final = {
    Phase.DEAL: N_("hand {hand}, deal"),
    Phase.DRAW: N_("hand {hand}, draw"),
    Phase.BID: N_("hand {hand}, bid"),
    Phase.EXCHANGE: N_("hand {hand}, exchange"),
    Phase.PLAY: N_("hand {hand}, play"),
    Phase.OVER: N_("hand {hand}, over"),
}
_WRONG_PHASE: Final = {
    "bid": N_("{where}: cannot bid {bid} during the {phase}"),
    "pass cards": N_("{where}: cannot pass cards during the {phase}"),
    "draw": N_("{where}: cannot draw during the {phase}"),
    "play": N_("{where}: cannot play during the {phase}"),
}
_NOT_TURN: Final = {
    "bid": N_("{where}: {who} cannot bid {bid}: it is {turn}'s turn"),
    "pass cards": N_("{where}: {who} cannot pass cards: it is {turn}'s turn"),
    "draw": N_("{where}: {who} cannot draw: it is {turn}'s turn"),
    "play": N_("{where}: {who} cannot play: it is {turn}'s turn"),
}


def seat_name(seat: int, players: int = 4) -> str:
    if players == 4:
        return SEAT_NAMES[seat]
    if players == 3:
        return THREE_SEAT_NAMES[seat]
    return ("South", "North")[seat] if players == 2 else f"Seat {seat}"


class Event(NamedTuple):
    """What happened: the seat, its action, and the trick's winner if the action ended one.

    A named tuple rather than a dataclass because one is made per card played (hot path)."""

    seat: int
    action: Action
    hand_number: int
    trick_winner: int | None = None


@dataclass(frozen=True, slots=True)
class Exchange:
    giver: int
    receiver: int
    cards: CardSet


class Trick(NamedTuple):
    """One finished trick. A named tuple (immutable, like a frozen dataclass) because one is
    made per trick in the hot path, straight from ``tuple.__new__``."""

    leader: int
    cards: tuple[int, ...]
    winner: int


@dataclass(slots=True)
class HandLog:
    """Everything needed to write one hand of a record."""

    dealer: int
    dealt: list[int]
    stock: list[int] | None = None
    bids: list[SeatBid | None] = field(default_factory=list)
    exchanges: list[Exchange] = field(default_factory=list)
    plays: list[int] = field(default_factory=list)


Shuffler = Callable[[random.Random], list[int]]

_PLAYS: Final = tuple(Play(c) for c in range(54))
_BIDS: Final = tuple(Bid(t) for t in range(18))
_SEAT_BIDS: Final = tuple(SeatBid(t) for t in range(18))
_BLIND_SEAT_BID: Final = SeatBid(0, True)
_SUIT_CARDS: Final = tuple(
    tuple(tuple(s * 13 + r for r in range(13) if field >> r & 1) for field in range(1 << 13))
    for s in range(4)
)
"""For each suit and each 13-bit field of that suit, its cards: mask-to-list by lookup."""
_S0: Final = _SUIT_CARDS[0]
_S1: Final = _SUIT_CARDS[1]
_S2: Final = _SUIT_CARDS[2]
_S3: Final = _SUIT_CARDS[3]
_BIT: Final = tuple(1 << c for c in range(54))
_NON_SPADES: Final = FULL_DECK & ~SPADE_MASK
_TRICK_KEYS: Final = tuple(
    tuple(c + 100 if c < 13 else (c % 13 if c // 13 == lead else -1) for c in range(52)) for lead in range(4)
)
"""Per led suit, each card's strength in the trick: spades above the led suit, others -1.
The standard deck's ``legal.Deck.trick_keys`` (``tests/test_legal.py`` holds them equal)."""
_GAME_LONG = ("history", "_undo_at", "_redeal", "logs", "scores")
_RULE_TABLES: Final = (
    "deck",
    "_suit_of",
    "_suit_masks",
    "_non_spades",
    "_keys",
    "_hand_size",
    "_lead_any",
    "_free_bids",
    "_max_bid",
    "_min_bid",
    "_bid_codes",
    "_standard",
)
"""Tables derived from the rules when the game starts (``legal.Deck``), never changed after."""
"""Containers that live the whole game; snapshots leave them out (see ``Game._state_refs``)."""
_STATE_ATTRS: Final = (
    "rules",
    "n",
    "rng",
    "auto_deal",
    "_totals",
    "_bags",
    "_next",
    "winner",
    "hand_number",
    "first_dealer",
    "dealer",
    "phase",
    "_hands",
    "_looked",
    "_bid",
    "_blind",
    "turn",
    "_trick",
    "trick_leader",
    "lead_suit",
    "_tricks_won",
    "_winners",
    "spades_broken",
    "_broken_at",
    "_random_deal",
    "exchange_steps",
    "exchanges",
    "pending_pass",
    "stock",
    "stock_pos",
    "seen_discards",
    "_plays",
)
"""Every attribute of a ``Game`` but the game-long containers: what a snapshot holds. Named
rather than read from ``__dict__`` because the compiled ``Game`` (mypyc) has no ``__dict__``;
``tests/test_engine_build.py`` checks the list against the attributes a game really has."""
_SNAP_LISTS: Final = (
    "_hands",
    "_looked",
    "_bid",
    "_blind",
    "_trick",
    "_tricks_won",
    "_winners",
    "exchange_steps",
    "exchanges",
    "_totals",
    "_bags",
    "seen_discards",
)
"""The per-hand lists a pass or draw changes in place, so its snapshot copies them."""
_SNAP_INDEX: Final = tuple(_STATE_ATTRS.index(f) for f in _SNAP_LISTS)
_NEXT: Final = {n: tuple((s + 1) % n for s in range(n)) for n in (2, 3, 4)}
_tuple_new: Final = tuple.__new__
_EVENT: Final = Event
_TRICK: Final = Trick
_INTERNED_HANDS: Final = 256
_SLOTS_PER_SEAT: Final = 54 + 18
"""Interned events per seat and hand: a play of each card (54), a number bid (18)."""
_EVENT_TABLES: Final[list[list[Event | None]]] = []
"""The interned events of plays and number bids, per hand number: slot
``(seat * 72 + card) * 5 + winner + 1`` (a play; ``winner`` -1 when it ends no trick), or
``(seat * 72 + 54 + tricks) * 5`` (a bid). Events are immutable values, so one made once
serves every game and every replay: a play costs a table lookup instead of a new object (a
third of its time), and the history holds no new object per action for the cyclic garbage
collector to walk (a sixth of the time of random playouts before)."""


def _event(seat: int, slot: int, action: Action, hand: int, winner: int) -> Event:
    """The ``Event`` of ``seat`` taking ``action`` (slot ``slot`` of the seat: its card, or
    54 + a number bid) in hand ``hand``; ``winner`` is the trick's winner, or -1."""
    if hand >= _INTERNED_HANDS:
        made: Event = _tuple_new(_EVENT, (seat, action, hand, None if winner < 0 else winner))
        return made
    tables = _EVENT_TABLES
    while len(tables) <= hand:
        tables.append([None] * (4 * _SLOTS_PER_SEAT * 5))
    table = tables[hand]
    i = (seat * _SLOTS_PER_SEAT + slot) * 5 + winner + 1
    ev = table[i]
    if ev is None:
        ev = table[i] = _tuple_new(_EVENT, (seat, action, hand, None if winner < 0 else winner))
    return ev


_SUIT_MASKS: Final = SUIT_MASKS
_DEAL: Final = Phase.DEAL
_DRAW: Final = Phase.DRAW
_BID: Final = Phase.BID
_EXCHANGE: Final = Phase.EXCHANGE
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_DECK_RANGE: Final = range(52)
_ALL_CARDS: Final = (1 << 54) - 1
_COMPILED: Final = not __file__.endswith(".py")
"""True when this module runs compiled by mypyc (a few hot spots take a different, equal way)."""
_unpack_keys: Final = struct.Struct("<52Q").unpack


def _raw(value: object) -> Any:
    """``value`` as ``Any``, so that the compiled module reads its fields without checking
    them against their declared types (a caller's ``Play("x")`` must be an ``IllegalAction``
    from the checks, not a ``TypeError`` from the read)."""
    return value


def _class_of(value: object) -> type:
    return value.__class__


def shuffled_deck(rng: random.Random) -> list[int]:
    """A uniformly shuffled deck: the 52 cards sorted by 52 random 64-bit keys drawn in one
    call (twice as fast as ``rng.shuffle``, a tenth of a random hand's cost; two equal keys,
    at odds of 1 in 2**54, keep their cards in deck order)."""
    if type(rng) is random.Random:  # what its randbytes does, without its Python frame
        keys = _unpack_keys(rng.getrandbits(3328).to_bytes(416, "little"))
    else:
        keys = _unpack_keys(rng.randbytes(416))
    return sorted(_DECK_RANGE, key=keys.__getitem__)


def shuffled_cards(rng: random.Random, cards: Sequence[int]) -> list[int]:
    """The cards of any deck (``legal.Deck.cards``) shuffled the same way as ``shuffled_deck``;
    for the 52 cards in order it is ``shuffled_deck`` (the same seed gives the same deal)."""
    n = len(cards)
    if n == 52 and cards[0] == 0 and cards[-1] == 51:
        return shuffled_deck(rng)
    keys = struct.unpack(f"<{n}Q", rng.randbytes(8 * n))
    order = sorted(range(n), key=keys.__getitem__)
    return [cards[i] for i in order]


def _deal_masks(deck: list[int]) -> list[int]:
    """The four hands' masks of a deck dealt one card at a time."""
    if _COMPILED:  # a machine-int loop compiled; map and sum in pure Python
        a = b = c = d = 0
        for i in range(0, 52, 4):
            a |= 1 << deck[i]
            b |= 1 << deck[i + 1]
            c |= 1 << deck[i + 2]
            d |= 1 << deck[i + 3]
        return [a, b, c, d]
    get = _BIT.__getitem__
    return [sum(map(get, deck[k::4])) for k in range(4)]


class Game:
    """A game from the first deal to the winner.

    ``seed`` (or ``rng``) makes every random choice (first dealer, shuffles) repeatable. With
    ``auto_deal`` (the default) each hand is dealt from that source as soon as the last one is
    scored; without it the game waits in ``Phase.DEAL`` for ``deal()``, which is how records
    are replayed and how the server deals from its own secure, published decks.
    """

    def __init__(
        self,
        rules: RulesIn = None,
        *,
        seed: SeatIn = None,
        rng: RngIn = None,
        first_dealer: SeatIn = None,
        auto_deal: BoolIn = True,
    ) -> None:
        self.rules = rules if isinstance(rules, Rules) else Rules.from_spec(rules)
        self.n = self.rules.players
        deck = self.deck = deck_of(self.rules)
        self._suit_of = deck.suit_of
        self._suit_masks = deck.suit_masks
        self._non_spades = deck.non_spades
        self._keys = deck.trick_keys
        self._hand_size = deck.hand_size
        self._lead_any = self.rules.spades_lead == "any"
        self._free_bids = self.rules.bidding == "free" and self.rules.team_min_bid == 0
        self._max_bid = deck.max_bid
        self._min_bid = self.rules.min_bid
        self._bid_codes = [_bid_code(t) for t in range(self.rules.min_bid, deck.max_bid + 1)]
        self._standard = deck.standard and not self._lead_any
        self.rng = rng or random.Random(seed)
        self.auto_deal = auto_deal
        sides = self.rules.sides
        self._totals = [0] * sides
        self._bags = [0] * sides
        self.scores: list[HandScore] = []
        self.logs: list[HandLog] = []
        self.history: list[Event] = []
        # Undo information for the events that need more than the event itself, by history
        # index; a play is taken back from its event alone (the hot path stores nothing).
        self._undo_at: dict[int, tuple[Any, ...]] = {}
        # Deals taken back by undo, latest on top: the next random deal reuses them, exactly
        # as if the random source had been rewound (which would cost a state copy per hand).
        self._redeal: list[tuple[list[int], bool]] = []
        self._next = _NEXT[self.n]
        self.winner: int | None = None
        self.hand_number = 0
        if first_dealer is None:
            first_dealer = self._choose_first_dealer()
        elif not isinstance(first_dealer, int) or not 0 <= first_dealer < self.n:
            raise IllegalAction(
                N_("first dealer {dealer} is not a seat 0..{top}"), dealer=repr(first_dealer), top=self.n - 1
            )
        self.first_dealer = int(first_dealer)
        self.dealer = (self.first_dealer - 1) % self.n  # advanced by the first deal
        self.phase = _DEAL
        self._clear_hand()
        if auto_deal:
            self.deal()

    # ------------------------------------------------------------------ setup and dealing
    def _choose_first_dealer(self) -> int:
        how = self.rules.first_dealer
        if isinstance(how, int):
            return how
        if how == "random":
            return self.rng.randrange(self.n)
        # Draw for deal: each draws a card, highest rank deals, tied highest draw again.
        contenders = list(range(self.n))
        while True:
            deck = shuffled_deck(self.rng)
            ranks = {seat: deck[i] % 13 for i, seat in enumerate(contenders)}
            best = max(ranks.values())
            contenders = [s for s in contenders if ranks[s] == best]
            if len(contenders) == 1:
                return contenders[0]

    def _clear_hand(self) -> None:
        n = self.n
        self._hands = [0] * n
        self._looked = [True] * n
        self._bid = [NO_BID] * n
        self._blind = [False] * n
        self.turn = 0
        self._trick: list[int] = []
        self.trick_leader = 0
        self.lead_suit = -1
        self._tricks_won = [0] * n
        self._winners: list[int] = []
        """The winner of each finished trick of this hand (their cards are in ``_plays``)."""
        self.spades_broken = False
        self._broken_at = -1
        """History index of the play that broke spades this hand (-1: not yet), for undo."""
        self._random_deal = False
        self.exchange_steps: list[tuple[int, int]] = []
        self.exchanges: list[Exchange] = []
        self.pending_pass = 0
        self.stock: list[int] = []
        self.stock_pos = 0
        self.seen_discards = [0] * n
        self._plays: list[int] = []

    def deal(self, hands: MasksIn = None, *, stock: MasksIn = None) -> None:
        """Start the next hand: from ``hands`` (masks, one per seat), from a two-player
        ``stock`` (52 cards, top first), or from the game's random source."""
        if self.phase is not _DEAL:
            raise IllegalAction(N_("cannot deal during the {phase}"), phase=Text(_PHASE_NAMES[self.phase]))
        n = self.n
        first = (self.dealer + 2) % n
        random_deal = hands is None and stock is None
        if random_deal:
            if self._redeal:
                cards, is_stock = self._redeal.pop()
                if is_stock:
                    stock = cards
                else:
                    hands = cards
            else:
                deck = shuffled_cards(self.rng, self.deck.cards)
                if n == 2:
                    stock = deck
                else:
                    hands = (
                        _deal_masks(deck)
                        if n == 4
                        else [sum(map(_BIT.__getitem__, deck[k::n])) for k in range(n)]
                    )
                    hands = hands[-first:] + hands[:-first] if first else hands
        elif stock is not None:
            if n != 2:
                raise IllegalAction(N_("a stock deal is only for the two-player game"))
            if hands is not None:
                raise IllegalAction(N_("deal either hands or a stock, not both"))
            stock = self._check_stock(stock)
        else:
            assert hands is not None
            hands = self._check_deal(hands)
        self._clear_hand()
        self._random_deal = random_deal
        self.hand_number += 1
        self.dealer = (self.dealer + 1) % n
        if stock is not None:
            self.stock = list(stock)
            log = HandLog(self.dealer, [0] * n, list(stock), [None] * n)
            self.logs.append(log)
            self._plays = log.plays
            self.phase = _DRAW
            self.turn = first
            return
        assert hands is not None
        self._hands = list(hands)
        log = HandLog(self.dealer, list(hands), None, [None] * n)
        self.logs.append(log)
        self._plays = log.plays
        self._start_bidding()

    def _check_stock(self, stock: SeqIn) -> list[int]:
        try:
            cards = [c for c in stock if isinstance(c, int) and not isinstance(c, bool)]
        except TypeError:
            raise IllegalAction(N_("the stock {stock} is not a list of cards"), stock=repr(stock)) from None
        if len(cards) != len(stock) or sorted(cards) != list(range(52)):
            raise IllegalAction(N_("the stock must hold each of the 52 cards once"))
        return cards

    def _check_deal(self, hands: SeqIn) -> list[int]:
        try:
            masks = list(hands)
        except TypeError:
            raise IllegalAction(
                N_("a deal must be {n} card masks, not {deal}"), n=self.n, deal=repr(hands)
            ) from None
        if len(masks) != self.n:
            raise IllegalAction(N_("a deal needs {n} hands, not {count}"), n=self.n, count=len(masks))
        seen = 0
        for seat, h in enumerate(masks):
            if isinstance(h, CardSet):
                h = masks[seat] = h.mask
            if not isinstance(h, int) or isinstance(h, bool) or not 0 <= h <= _ALL_CARDS:
                raise IllegalAction(
                    N_("{who}'s hand {mask} is not a card mask"),
                    who=Text(seat_name(seat, self.n)),
                    mask=repr(h),
                )
            size = self._hand_size
            if h.bit_count() != size:
                raise IllegalAction(
                    N_("{who} was dealt {count} cards, not {size}"),
                    who=Text(seat_name(seat, self.n)),
                    count=h.bit_count(),
                    size=size,
                )
            foreign = h & ~self.deck.mask
            if foreign:
                raise IllegalAction(
                    N_("card {card} is not in this game's deck"), card=card_text(foreign.bit_length() - 1)
                )
            if seen & h:
                dup = card_text((seen & h).bit_length() - 1)
                raise IllegalAction(N_("card {card} was dealt twice"), card=dup)
            seen |= h
        if self.n != 2 and seen != self.deck.mask:
            raise IllegalAction(
                N_("the deal does not hold all {count} cards"), count=self.deck.mask.bit_count()
            )
        return masks

    def _start_bidding(self) -> None:
        self.phase = _BID
        self.turn = (self.dealer + 1) % self.n
        if self.rules.blind_nil:
            self._looked = [not blind_nil_by_score(self.rules, seat, self._totals) for seat in range(self.n)]
        if self.rules.bidding == "mirror":  # the engine bids for everyone, in bidding order
            for _ in range(self.n):
                self.make_bid(_BIDS[spade_count(self.deck, self._hands[self.turn])])
                at = len(self.history) - 1
                self._undo_at[at] = (*self._undo_at[at], "auto")  # undone with what caused it

    def _blind_nil_possible(self, seat: int) -> bool:
        return blind_nil_allowed(self.rules, seat, self._bid, self._totals)

    # ------------------------------------------------------------------ read-only state
    # The state lives in private lists the engine changes in place; callers get tuples, so
    # no one can change a hand or a score by accident (``set_scores`` is the deliberate way).
    @property
    def hands(self) -> tuple[int, ...]:
        """Every seat's cards as masks. For tools that own the whole table (records, tests);
        players, bots and servers must use ``observation``."""
        return tuple(self._hands)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def bags(self) -> tuple[int, ...]:
        return tuple(self._bags)

    @property
    def bid(self) -> tuple[int, ...]:
        """Each seat's bid in tricks (0 for Nil and Blind Nil), ``NO_BID`` before it bids."""
        return tuple(self._bid)

    @property
    def blind(self) -> tuple[bool, ...]:
        return tuple(self._blind)

    @property
    def looked(self) -> tuple[bool, ...]:
        return tuple(self._looked)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._tricks_won)

    @property
    def trick(self) -> tuple[int, ...]:
        """The cards of the trick in progress, in the order played."""
        return tuple(self._trick)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks of this hand (built from the plays and the winners)."""
        n = self.n
        plays = self._plays
        leader = (self.dealer + 1) % n
        out: list[Trick] = []
        for k, winner in enumerate(self._winners):
            out.append(_tuple_new(_TRICK, (leader, tuple(plays[k * n : k * n + n]), winner)))
            leader = winner
        return tuple(out)

    def set_scores(self, totals: SeqIn, bags: MasksIn = None) -> None:
        """Set the game's totals (and bag counts), e.g. to study a position late in a game.
        Deliberate, checked, and not undoable: not an action of the game."""
        sides = self.rules.sides
        for name, values in (("totals", totals), ("bags", bags)):
            if values is None:
                continue
            try:
                ok = len(values) == sides and all(type(v) is int for v in values)
            except TypeError:
                ok = False
            if not ok:
                raise IllegalAction(
                    N_("{name} must be {sides} whole numbers, one per side, not {values}"),
                    name=name,
                    sides=sides,
                    values=repr(values),
                )
        self._totals = list(totals)
        if bags is not None:
            self._bags = list(bags)

    # ------------------------------------------------------------------ queries
    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or ``None`` between hands and after the game."""
        phase = self.phase
        return None if phase is _DEAL or phase is _OVER else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    def legal_play_mask(self) -> int:
        """The cards the seat to move may play, as a mask (0 outside the play phase)."""
        if self.phase is not _PLAY:
            return 0
        return play_mask(
            self.deck, self._hands[self.turn], self.lead_suit, self.spades_broken or self._lead_any
        )

    def legal_cards(self) -> CardSet:
        return CardSet(self.legal_play_mask())

    def legal_bids(self, seat: SeatIn = None) -> list[Bid]:
        seat = self.turn if seat is None else seat
        if self.phase is not _BID or seat != self.turn:
            return []
        out: list[Bid] = []
        if not self._looked[seat]:
            if self._blind_nil_possible(seat):
                out.append(Bid(0, blind=True))
            return out
        out.extend(_BIDS[t] for t in number_bids(self.rules, self.deck, seat, self._bid, self._hands[seat]))
        return out

    def legal_actions(self, seat: SeatIn = None) -> list[Action]:
        """Actions ``seat`` (by default the seat to move) may take now.

        In the exchange, the whole pass is one ``PassCards`` too many to list, so the single
        ``PassCard`` steps are listed instead; ``pass_cards`` accepts any legal whole pass.
        """
        if seat is None:
            seat = self.turn
        elif not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction(N_("seat {seat} is not at the table"), seat=repr(seat))
        acts: list[Action] = []
        if self.phase is _BID:
            if not self._looked[seat] and self._bid[seat] == NO_BID:
                acts.append(Look())
            acts.extend(self.legal_bids(seat))
        elif seat != self.turn or self.phase in (_DEAL, _OVER):
            return acts
        elif self.phase is _PLAY:
            acts.extend(Play(c) for c in bits(self.legal_play_mask()))
        elif self.phase is _EXCHANGE:
            acts.extend(PassCard(c) for c in bits(self._hands[seat] & ~self.pending_pass))
        elif self.phase is _DRAW:
            acts.extend((Draw(True), Draw(False)))
        return acts

    def legal_codes(self) -> list[int]:
        """Dense codes of the legal actions of the seat to move (``spades.actions``)."""
        if self.phase is _PLAY:
            h = self._hands[self.turn]
            if not self._standard:
                return [_play_code(c) for c in bits(self.legal_play_mask())]
            if self._trick:  # ``legal.play_mask`` for the standard deck, on 13-bit suit fields
                lead = self.lead_suit
                follow = (h >> (13 * lead)) & 0x1FFF
                if follow:
                    if _COMPILED:
                        h = follow << (13 * lead)
                    else:
                        return list(_SUIT_CARDS[lead][follow])
            elif not self.spades_broken and h & _NON_SPADES:
                h &= _NON_SPADES
            if _COMPILED:
                # Machine-int bit scan: cheaper compiled than the tables, whose thousands of
                # tuples miss the cache; the same cards in the same (ascending) order.
                codes: list[int] = []
                while h:
                    low = h & -h
                    codes.append(low.bit_length() - 1)
                    h ^= low
                return codes
            return [*_S0[h & 0x1FFF], *_S1[(h >> 13) & 0x1FFF], *_S2[(h >> 26) & 0x1FFF], *_S3[h >> 39]]
        phase = self.phase
        seat = self.turn
        if phase is _BID:
            if not self._looked[seat]:
                return [LOOK_CODE, BLIND_NIL_CODE] if self._blind_nil_possible(seat) else [LOOK_CODE]
            if self._free_bids:  # ``number_bids`` of free bidding (min_bid .. max_bid), kept
                return list(self._bid_codes)
            return [
                _bid_code(t) for t in number_bids(self.rules, self.deck, seat, self._bid, self._hands[seat])
            ]
        if phase is _EXCHANGE:
            return [_pass_code(c) for c in bits(self._hands[seat] & ~self.pending_pass)]
        if phase is _DRAW:
            return [DRAW_KEEP_CODE, DRAW_DISCARD_CODE]
        return []

    def apply_code(self, code: IntIn) -> Event:
        """Apply the action of a dense code for the seat to move.

        A legal play goes straight through a copy of ``play``'s fast path (one call less per
        card: this is the loop of playouts and RL); everything else goes through ``apply``."""
        if type(code) is not int:  # also refuses bools and int subclasses
            return self.apply(decode(code))
        c: int = code  # a machine int from here on in the compiled module
        if 0 <= c < 52 and self.phase is _PLAY and self._standard:
            turn = self.turn
            hands = self._hands
            h = hands[turn]
            bit = 1 << c
            trick = self._trick
            if h & bit:
                suit = c // 13
                if trick:
                    lead = self.lead_suit
                    if suit != lead:
                        if h & _SUIT_MASKS[lead]:
                            return self.play(c)  # refused there, with the reason
                        if suit == 0 and not self.spades_broken:
                            self.spades_broken = True
                            self._broken_at = len(self.history)
                else:
                    if suit == 0 and not self.spades_broken:
                        if h & _NON_SPADES:
                            return self.play(c)
                        self.spades_broken = True
                        self._broken_at = len(self.history)
                    self.trick_leader = turn
                    self.lead_suit = suit
                hands[turn] = h ^ bit
                trick.append(c)
                self._plays.append(c)
                if len(trick) == self.n:
                    return self._finish_trick(turn, c)
                self.turn = self._next[turn]
                ev = _event(turn, c, _PLAYS[c], self.hand_number, -1)
                self.history.append(ev)
                return ev
            return self.play(c)
        if BID_BASE <= c < BLIND_NIL_CODE and self._free_bids:
            t = c - BID_BASE
            turn = self.turn
            if self.phase is _BID and self._looked[turn] and self._min_bid <= t <= self._max_bid:
                return self._do_bid(turn, _BIDS[t], t, False)  # ``make_bid``'s fast path
            return self.make_bid(_BIDS[t])
        return self.apply(decode(c))

    def apply(self, action: ActionIn, seat: SeatIn = None) -> Event:
        """Apply any action; ``seat`` defaults to the seat to move (a look may come early)."""
        if isinstance(action, Play):
            return self.play(_raw(action).card, seat)
        if isinstance(action, Bid):
            return self.make_bid(action, seat)
        if isinstance(action, Look):
            return self.look(self.turn if seat is None else seat)
        if isinstance(action, PassCards):
            return self.pass_cards(_raw(action).cards, seat)
        if isinstance(action, PassCard):
            return self.pass_card(_raw(action).card, seat)
        if isinstance(action, Draw):
            return self.draw(_raw(action).keep, seat)
        raise IllegalAction(N_("unknown action {action}"), action=repr(action))

    def verify(self, action: ActionIn, seat: SeatIn = None) -> None:
        if isinstance(action, Play):
            self.verify_play(_raw(action).card, seat)
        elif isinstance(action, Bid):
            self.verify_bid(action, seat)
        elif isinstance(action, Look):
            self.verify_look(self.turn if seat is None else seat)
        elif isinstance(action, PassCards):
            self.verify_pass_cards(_raw(action).cards, seat)
        elif isinstance(action, PassCard):
            self.verify_pass_card(_raw(action).card, seat)
        elif isinstance(action, Draw):
            self.verify_draw(seat)
        else:
            raise IllegalAction(N_("unknown action {action}"), action=repr(action))

    def can(self, action: ActionIn, seat: SeatIn = None) -> bool:
        try:
            self.verify(action, seat)
        except IllegalAction:
            return False
        return True

    # ------------------------------------------------------------------ helpers for messages
    def _is_seat(self, seat: object) -> bool:
        return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.n

    def _name(self, seat: int) -> str:
        return seat_name(seat, self.n)

    def _where(self) -> Text:
        if self.phase is _PLAY:
            return Text(N_("hand {hand}, trick {trick}"), hand=self.hand_number, trick=len(self._winners) + 1)
        return Text(_PHASE_WHERE[self.phase], hand=self.hand_number)

    def _check_turn(self, seat: SeatIn, phase: Phase, what: str, bid: str = "") -> int:
        if self.phase is not phase:
            raise IllegalAction(
                _WRONG_PHASE[what], where=self._where(), bid=bid, phase=Text(_PHASE_NAMES[self.phase])
            )
        if seat is None:
            return self.turn
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction(
                N_("{where}: seat {seat} is not at the table"), where=self._where(), seat=repr(seat)
            )
        if seat != self.turn:
            raise IllegalAction(
                _NOT_TURN[what],
                where=self._where(),
                who=Text(self._name(seat)),
                bid=bid,
                turn=Text(self._name(self.turn)),
            )
        return seat

    # ------------------------------------------------------------------ look
    def verify_look(self, seat: IntIn) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction(
                N_("{where}: seat {seat} is not at the table"), where=self._where(), seat=repr(seat)
            )
        if self._looked[seat]:
            raise IllegalAction(
                N_("{where}: {who} has already looked at his cards"),
                where=self._where(),
                who=Text(self._name(seat)),
            )

    def can_look(self, seat: IntIn) -> bool:
        try:
            self.verify_look(seat)
        except IllegalAction:
            return False
        return True

    def look(self, seat: IntIn) -> Event:
        self.verify_look(seat)
        self._looked[seat] = True
        return self._record(seat, Look(), ("look", seat))

    # ------------------------------------------------------------------ bid
    def verify_bid(self, bid: BidIn, seat: SeatIn = None) -> None:
        bid = self._coerce_bid(bid, seat)
        raw = _raw(bid)  # its fields may be junk: checked here, one by one
        seat = self._check_turn(seat, _BID, "bid", str(bid.record_value))
        r = self.rules
        where = Text(N_("hand {hand}, bid"), hand=self.hand_number)
        who = Text(self._name(seat))
        if raw.blind is not False:
            if raw.blind is not True or raw.tricks != 0:
                raise IllegalAction(
                    N_("{where}: {who} bid blind_nil with tricks {tricks}"),
                    where=where,
                    who=who,
                    tricks=raw.tricks,
                )
            if not r.blind_nil:
                raise IllegalAction(
                    N_("{where}: {who} bid blind_nil but Blind Nil is not allowed (blind_nil)"),
                    where=where,
                    who=who,
                )
            if not blind_nil_by_score(r, seat, self._totals):
                raise IllegalAction(
                    N_(
                        "{where}: {who} bid blind_nil but his side is not {behind} points behind"
                        " (blind_nil_behind)"
                    ),
                    where=where,
                    who=who,
                    behind=r.blind_nil_behind,
                )
            if not self._blind_nil_possible(seat):
                why = bid_refusal(r, self.deck, seat, self._bid, self._hands[seat], 0)
                raise IllegalAction(
                    N_("{where}: {who} bid blind_nil but {why}"), where=where, who=who, why=why
                )
            if self._looked[seat]:
                raise IllegalAction(
                    N_("{where}: {who} bid blind_nil after looking at his cards"), where=where, who=who
                )
            return
        top = self._max_bid
        if not isinstance(raw.tricks, int) or isinstance(raw.tricks, bool) or not 0 <= raw.tricks <= top:
            raise IllegalAction(
                N_("{where}: {who} bid {bid}, outside 0..{top}"),
                where=where,
                who=who,
                bid=repr(raw.tricks),
                top=top,
            )
        if raw.tricks < r.min_bid:
            raise IllegalAction(
                N_("{where}: {who} bid nil but the lowest bid is {lowest} (min_bid)"),
                where=where,
                who=who,
                lowest=r.min_bid,
            )
        if not self._looked[seat]:
            raise IllegalAction(
                N_("{where}: {who} must look at his cards before bidding {bid}"),
                where=where,
                who=who,
                bid=raw.record_value,
            )
        why = bid_refusal(r, self.deck, seat, self._bid, self._hands[seat], raw.tricks)
        if why:
            raise IllegalAction(
                N_("{where}: {who} bid {bid} but {why}"), where=where, who=who, bid=raw.record_value, why=why
            )

    def can_bid(self, bid: BidIn, seat: SeatIn = None) -> bool:
        try:
            self.verify_bid(bid, seat)
        except IllegalAction:
            return False
        return True

    def make_bid(self, bid: BidOrIntIn, seat: SeatIn = None) -> Event:
        """Bid; an int is a number bid (0 = Nil)."""
        if bid.__class__ is int and 0 <= bid <= self._max_bid:
            bid = _BIDS[bid]
        turn = self.turn
        looked = self._looked
        raw = _raw(bid)
        if (
            self.phase is not _BID
            or (seat is not None and seat != turn)
            or _class_of(raw) is not Bid  # not narrowing ``raw``: its fields stay unchecked
            or raw.blind
            or raw.tricks.__class__ is not int
            or not self._min_bid <= raw.tricks <= self._max_bid
            or not looked[turn]
            or not self._free_bids
        ):
            # The rare and the refused: the full check explains a refusal, or passes a Blind Nil.
            bid = self._coerce_bid(bid, seat)
            self.verify_bid(bid, seat)
        assert isinstance(bid, Bid)
        return self._do_bid(turn, bid, bid.tricks, bid.blind)

    def _do_bid(self, turn: int, bid: Bid, tricks: int, blind: bool) -> Event:
        """Make ``bid`` (``tricks``, ``blind``: its fields), checked legal, for ``turn``."""
        bids = self._bid
        looked = self._looked
        last_bid = bids.count(NO_BID) == 1
        undo = ("bid", turn, looked[turn], self.trick_leader)
        bids[turn] = tricks
        if blind:
            self._blind[turn] = True
            looked[turn] = True
            self.logs[-1].bids[turn] = _BLIND_SEAT_BID
        else:
            self.logs[-1].bids[turn] = _SEAT_BIDS[tricks]
        self.turn = self._next[turn]
        if last_bid:
            self._end_bidding()
        history = self.history
        self._undo_at[len(history)] = undo
        if not blind and bid.__class__ is Bid:
            ev = _event(turn, 54 + tricks, _BIDS[tricks], self.hand_number, -1)
        else:
            ev = _tuple_new(_EVENT, (turn, bid, self.hand_number, None))
        history.append(ev)
        return ev

    def _coerce_bid(self, bid: object, seat: SeatIn) -> Bid:
        """A ``Bid`` from what a caller handed to ``make_bid``, or ``IllegalAction`` naming it."""
        if isinstance(bid, Bid):
            return bid
        if isinstance(bid, int) and not isinstance(bid, bool):
            return Bid(bid)
        who = self._name(seat if self._is_seat(seat) else self.turn)  # type: ignore[arg-type, unused-ignore]
        raise IllegalAction(
            N_("{where}: {who} bid {bid}, which is not a bid"),
            where=self._where(),
            who=Text(who),
            bid=repr(bid),
        )

    def _end_bidding(self) -> None:
        k = self.rules.blind_nil_exchange
        steps: list[tuple[int, int]] = []
        if self.rules.teams and k > 0 and any(self._blind):
            order = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
            for seat in order:
                partner = (seat + 2) % 4
                if self._blind[seat] and not self._blind[partner]:
                    steps += [(partner, seat), (seat, partner)]
        self.exchange_steps = steps
        if steps:
            self.phase = _EXCHANGE
            self.turn = steps[0][0]
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = _PLAY
        self.turn = (self.dealer + 1) % self.n
        self.trick_leader = self.turn

    # ------------------------------------------------------------------ exchange
    def _coerce_cards(self, cards: object) -> CardSet:
        """A ``CardSet`` from a ``CardSet``, a mask or card ints; else ``IllegalAction``."""
        if isinstance(cards, CardSet):
            return cards
        try:
            if isinstance(cards, int) and not isinstance(cards, bool):
                return CardSet(cards)
            if isinstance(cards, str):
                return CardSet.parse(cards)
            return CardSet(cards)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise IllegalAction(
                N_("{where}: {cards} is not a set of cards"), where=self._where(), cards=repr(cards)
            ) from None

    def verify_pass_cards(self, cards: CardsIn, seat: SeatIn = None) -> None:
        cards = self._coerce_cards(cards)
        seat = self._check_turn(seat, _EXCHANGE, "pass cards")
        k = self.rules.blind_nil_exchange
        where = Text(N_("hand {hand}, exchange"), hand=self.hand_number)
        who = Text(self._name(seat))
        if len(cards) != k:
            raise IllegalAction(
                N_("{where}: {who} passed {count} cards but must pass {k}"),
                where=where,
                who=who,
                count=len(cards),
                k=k,
            )
        missing = cards.mask & ~self._hands[seat]
        if missing:
            raise IllegalAction(
                N_("{where}: {who} passed {cards} which he does not hold"),
                where=where,
                who=who,
                cards=str(CardSet(missing)),
            )
        if self.pending_pass & ~cards.mask:
            raise IllegalAction(
                N_("{where}: {who} already chose {cards} to pass"),
                where=where,
                who=who,
                cards=str(CardSet(self.pending_pass)),
            )

    def can_pass_cards(self, cards: CardsIn, seat: SeatIn = None) -> bool:
        try:
            self.verify_pass_cards(cards, seat)
        except IllegalAction:
            return False
        return True

    def pass_cards(self, cards: CardsIn, seat: SeatIn = None) -> Event:
        cards = self._coerce_cards(cards)
        self.verify_pass_cards(cards, seat)
        return self._do_pass(cards.mask, PassCards(cards))

    def verify_pass_card(self, card: IntIn, seat: SeatIn = None) -> None:
        seat = self._check_turn(seat, _EXCHANGE, "pass cards")
        if (
            not isinstance(card, int)
            or isinstance(card, bool)
            or not 0 <= card < 54
            or not self._hands[seat] >> card & 1
        ):
            text = card_text(card) if isinstance(card, int) and 0 <= card < 54 else repr(card)
            raise IllegalAction(
                N_("{where}: {who} does not hold {card}"),
                where=Text(N_("hand {hand}, exchange"), hand=self.hand_number),
                who=Text(self._name(seat)),
                card=text,
            )
        if self.pending_pass >> card & 1:
            raise IllegalAction(
                N_("{where}: {who} already chose {card}"),
                where=Text(N_("hand {hand}, exchange"), hand=self.hand_number),
                who=Text(self._name(seat)),
                card=card_text(card),
            )

    def pass_card(self, card: IntIn, seat: SeatIn = None) -> Event:
        """Choose one card of the pass; the pass is made when enough are chosen."""
        self.verify_pass_card(card, seat)
        chosen = self.pending_pass | 1 << card
        if chosen.bit_count() == self.rules.blind_nil_exchange:
            return self._do_pass(chosen, PassCard(card))
        seat = self.turn
        self.pending_pass = chosen
        return self._record(seat, PassCard(card), ("pending", chosen ^ (1 << card)))

    def _do_pass(self, mask: int, action: Action) -> Event:
        snap = self._snapshot()
        giver, receiver = self.exchange_steps.pop(0)
        self._hands[giver] &= ~mask
        self._hands[receiver] |= mask
        ex = Exchange(giver, receiver, CardSet(mask))
        self.exchanges.append(ex)
        self.logs[-1].exchanges.append(ex)
        self.pending_pass = 0
        if self.exchange_steps:
            self.turn = self.exchange_steps[0][0]
        else:
            self._start_play()
        return self._record(giver, action, ("snap", snap))

    # ------------------------------------------------------------------ two-player draw
    def verify_draw(self, seat: SeatIn = None) -> None:
        self._check_turn(seat, _DRAW, "draw")

    def draw(self, keep: BoolIn, seat: SeatIn = None) -> Event:
        self.verify_draw(seat)
        seat = self.turn
        snap = self._snapshot()
        top, nxt = self.stock[self.stock_pos], self.stock[self.stock_pos + 1]
        if keep:
            self._hands[seat] |= 1 << top
        else:
            self.seen_discards[seat] |= 1 << top
            self._hands[seat] |= 1 << nxt
        self.stock_pos += 2
        self.turn = 1 - seat
        ev = self._record(seat, Draw(keep), ("snap", snap))
        if self.stock_pos == 52:
            self.logs[-1].dealt = list(self._hands)
            self._start_bidding()  # after the draw's event: a mirror hand's bids follow it
        return ev

    @property
    def stock_top(self) -> int | None:
        """The card the seat to move sees on the stock in the draw phase."""
        return self.stock[self.stock_pos] if self.phase is _DRAW else None

    # ------------------------------------------------------------------ play
    def verify_play(self, card: IntIn, seat: SeatIn = None) -> None:
        seat = self._check_turn(seat, _PLAY, "play")
        where = Text(N_("hand {hand}, trick {trick}"), hand=self.hand_number, trick=len(self._winners) + 1)
        who = Text(self._name(seat))
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 54:
            raise IllegalAction(
                N_("{where}: {who} played {card}, which is not a card"), where=where, who=who, card=repr(card)
            )
        h = self._hands[seat]
        text = card_text(card)
        if not h >> card & 1:
            raise IllegalAction(
                N_("{where}: {who} played {card} but does not hold it"), where=where, who=who, card=text
            )
        if self.legal_play_mask() >> card & 1:
            return
        if self._trick:  # the one definition refused it: say which of its two rules
            raise IllegalAction(
                N_("{where}: {who} played {card} but holds {suit} and must follow suit"),
                where=where,
                who=who,
                card=text,
                suit=Text(SUIT_NAMES[self.lead_suit]),
            )
        raise IllegalAction(
            N_("{where}: {who} led {card} but spades are not broken and he holds other suits"),
            where=where,
            who=who,
            card=text,
        )

    def can_play(self, card: IntIn, seat: SeatIn = None) -> bool:
        if self.phase is not _PLAY or (seat is not None and seat != self.turn):
            return False
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 54:
            return False
        return bool(self.legal_play_mask() >> card & 1)

    def play(self, card: IntIn, seat: SeatIn = None) -> Event:
        # The hot path: the legality test is inlined mask arithmetic and nothing is stored for
        # undo (a play is taken back from its event); the slow verify_play runs only to explain
        # a refusal.
        turn = self.turn
        if (
            self.phase is not _PLAY
            or (seat is not None and seat != turn)
            or card.__class__ is not int
            or not 0 <= card < 54
        ):
            self.verify_play(card, seat)
            card = int(card)  # an int subclass that passed the check
        # ``legal.play_mask`` inlined (tests/test_legal.py holds the two equal).
        h = self._hands[turn]
        bit = _BIT[card]
        if not h & bit:
            self.verify_play(card, seat)
        suit = self._suit_of[card]
        trick = self._trick
        if trick:
            lead = self.lead_suit
            if suit != lead:
                if h & self._suit_masks[lead]:
                    self.verify_play(card, seat)
                if suit == 0 and not self.spades_broken:
                    self.spades_broken = True
                    self._broken_at = len(self.history)
        else:
            if suit == 0 and not self.spades_broken:
                if h & self._non_spades and not self._lead_any:
                    self.verify_play(card, seat)
                self.spades_broken = True
                self._broken_at = len(self.history)
            self.trick_leader = turn
            self.lead_suit = suit
        self._hands[turn] = h ^ bit
        trick.append(card)
        self._plays.append(card)
        if len(trick) == self.n:
            return self._finish_trick(turn, card)
        self.turn = self._next[turn]
        ev = _event(turn, card, _PLAYS[card], self.hand_number, -1)
        self.history.append(ev)
        return ev

    def _finish_trick(self, seat: int, card: int) -> Event:
        trick = self._trick
        leader = self.trick_leader
        k = self._keys[self.lead_suit]
        # The strongest card's place, by hand-unrolled comparisons (four times faster than
        # max(key=...)); keys are distinct except -1, and the lead's key is at least 0. The
        # same answer as ``legal.trick_winner`` (tests/test_legal.py).
        if self.n == 4:
            a, b, c, d = trick
            ka, kb, kc, kd = k[a], k[b], k[c], k[d]
            if ka > kb:
                best = (0 if ka > kd else 3) if ka > kc else (2 if kc > kd else 3)
            else:
                best = (1 if kb > kd else 3) if kb > kc else (2 if kc > kd else 3)
            winner = (leader + best) % 4
        elif self.n == 2:
            winner = leader if k[trick[0]] > k[trick[1]] else 1 - leader
        else:
            a, b, c = trick
            ka, kb, kc = k[a], k[b], k[c]
            best = (0 if ka > kc else 2) if ka > kb else (1 if kb > kc else 2)
            winner = (leader + best) % 3
        winners = self._winners
        winners.append(winner)
        self._tricks_won[winner] += 1
        trick.clear()
        self.lead_suit = -1
        self.turn = self.trick_leader = winner
        ev = _event(seat, card, _PLAYS[card], self.hand_number, winner)
        history = self.history
        if len(winners) == self._hand_size:
            # The hand ends: keep the state as it is now (shallow: from here on the per-hand
            # lists are replaced, never changed in place) to undo the scoring and next deal.
            self._undo_at[len(history)] = ("hand_end", self._state_refs(), len(self.logs), len(self.scores))
            history.append(ev)
            self._end_hand()
        else:
            history.append(ev)
        return ev

    def _end_hand(self) -> None:
        blind = self._blind
        bids = [_BLIND_SEAT_BID if blind[s] else _SEAT_BIDS[b] for s, b in enumerate(self._bid)]
        score = score_hand(self.rules, self.dealer, bids, self._tricks_won, self._totals, self._bags)
        self.scores.append(score)
        self._totals = list(score.totals)
        self._bags = list(score.bags)
        self.winner = game_winner(self.rules, self._totals)
        if self.winner is not None:
            self.phase = _OVER
        else:
            self.phase = _DEAL
            if self.auto_deal:
                self.deal()

    # ------------------------------------------------------------------ history and undo
    def _record(self, seat: int, action: Action, undo: tuple[Any, ...]) -> Event:
        ev: Event = _tuple_new(_EVENT, (seat, action, self.hand_number, None))
        self._undo_at[len(self.history)] = undo
        self.history.append(ev)
        return ev

    def _state_refs(self) -> tuple[Any, ...]:
        """The instance's attributes by reference, in the order of ``_STATE_ATTRS``, less the
        game-long containers (history, undo table, logs, scores), which undo truncates
        instead. Leaving out the undo table also keeps a snapshot from referring to itself: no
        reference cycle, so a finished game is freed at once instead of by the cyclic garbage
        collector (a third of the run time of random playouts before). A tuple, not a dict:
        one is kept at every hand's end."""
        # Spelled out (not getattr over _STATE_ATTRS): compiled, each read is a field load;
        # tests/test_engine_build.py holds the order equal to _STATE_ATTRS.
        return (
            self.rules,
            self.n,
            self.rng,
            self.auto_deal,
            self._totals,
            self._bags,
            self._next,
            self.winner,
            self.hand_number,
            self.first_dealer,
            self.dealer,
            self.phase,
            self._hands,
            self._looked,
            self._bid,
            self._blind,
            self.turn,
            self._trick,
            self.trick_leader,
            self.lead_suit,
            self._tricks_won,
            self._winners,
            self.spades_broken,
            self._broken_at,
            self._random_deal,
            self.exchange_steps,
            self.exchanges,
            self.pending_pass,
            self.stock,
            self.stock_pos,
            self.seen_discards,
            self._plays,
        )

    def _set_state(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(_STATE_ATTRS, state, strict=True):
            setattr(self, name, value)

    def _snapshot(self) -> tuple[Any, ...]:
        """The whole state before an action that changes lists in place and ends a phase (a
        pass, a draw): the per-hand lists are short, so they are copied."""
        state = list(self._state_refs())
        for i in _SNAP_INDEX:
            state[i] = list(state[i])
        log = self.logs[-1]
        log_state = (list(log.dealt), list(log.bids), list(log.exchanges), len(log.plays))
        return (tuple(state), len(self.logs), log_state, len(self.scores))

    def _restore(self, snap: tuple[Any, ...]) -> None:
        state, n_logs, log_state, n_scores = snap
        self._set_state(state)
        del self.logs[n_logs:]
        del self.scores[n_scores:]
        log = self.logs[-1]
        log.dealt, log.bids, log.exchanges = list(log_state[0]), list(log_state[1]), list(log_state[2])
        del log.plays[log_state[3] :]

    def undo(self) -> Event:
        """Take back the last action (across hand boundaries too) and return its event."""
        done = len(self.history)
        auto = 0  # the engine's own bids (mirror) at the end go back with the action before
        while auto < done and self._is_auto(done - 1 - auto):
            auto += 1
        if auto == done:
            raise IllegalAction(N_("there is nothing to undo"))
        for _ in range(auto):
            self._undo_last()
        return self._undo_last()

    def _is_auto(self, index: int) -> bool:
        info = self._undo_at.get(index)
        return info is not None and info[-1] == "auto"

    def _undo_last(self) -> Event:
        history = self.history
        ev = history.pop()
        index = len(history)
        info = self._undo_at.pop(index, None)
        if info is not None:
            kind = info[0]
            if kind == "hand_end":
                _, state, n_logs, n_scores = info
                if len(self.logs) > n_logs and self._random_deal:
                    log = self.logs[-1]
                    dealt = (list(log.stock), True) if log.stock is not None else (list(log.dealt), False)
                    self._redeal.append(dealt)
                del self.logs[n_logs:]
                del self.scores[n_scores:]
                self._set_state(state)
                # ... and the hand's last play is taken back below.
            elif kind == "bid":
                seat, looked, leader = info[1], info[2], info[3]
                self._bid[seat] = NO_BID
                self._blind[seat] = False
                self._looked[seat] = looked
                self.logs[-1].bids[seat] = None
                self.turn = seat
                self.phase = _BID
                self.trick_leader = leader
                self.exchange_steps = []
                return ev
            elif kind == "look":
                self._looked[info[1]] = False
                return ev
            elif kind == "pending":
                self.pending_pass = info[1]
                return ev
            else:
                self._restore(info[1])
                return ev
        seat = ev.seat
        card = _raw(ev.action).card
        if ev.trick_winner is not None:
            winners = self._winners
            self._tricks_won[winners.pop()] -= 1
            n = self.n
            k = len(winners) * n
            cards = self._plays[k : k + n]
            self._trick = cards[:-1]
            self.trick_leader = winners[-1] if winners else (self.dealer + 1) % n
            self.lead_suit = self._suit_of[cards[0]]
        else:
            self._trick.pop()
            if not self._trick:
                self.lead_suit = -1
        self._plays.pop()
        self._hands[seat] |= 1 << card
        if self._broken_at == index:
            self.spades_broken = False
            self._broken_at = -1
        self.turn = seat
        return ev

    # ------------------------------------------------------------------ views
    def hand_of(self, seat: IntIn) -> CardSet:
        """A seat's current cards. For tools that own the whole table (records, tests);
        players, bots and servers must use ``observation``."""
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction(N_("seat {seat} is not at the table"), seat=repr(seat))
        return CardSet(self._hands[seat])

    def observation(self, seat: IntIn) -> Observation:
        from spades.observation import observe

        return observe(self, seat)

    def __repr__(self) -> str:
        return (
            f"<Game hand={self.hand_number} phase={self.phase.value} turn={self.turn} totals={self._totals}>"
        )


if not __file__.endswith(".py"):  # compiled by mypyc: warn if it is older than state.py
    from spades._native import warn_if_stale

    warn_if_stale("state", __file__)
