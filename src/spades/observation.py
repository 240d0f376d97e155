"""What one seat may know, and nothing more: the only door for hidden information.

Bots, the server, the terminal UI and the RL environment all read ``Observation`` values made
here from a ``Game``. Other seats' cards never enter it; the seat's own hand is ``None``
until it has looked (Blind Nil); of an exchange a seat sees only what it gave and received.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from spades.actions import Bid
from spades.cards import CardSet, card_text, parse_card
from spades.errors import N_, SpadesError
from spades.legal import NO_BID, deck_of
from spades.rules import Rules
from spades.scoring import HandScore, SeatBid
from spades.state import Phase, Trick

if TYPE_CHECKING:
    from spades.state import Game

BidView = Bid | None
"""A seat's bid as an observation holds it: the ``Bid`` (one bid type), ``None`` before it bids."""


def bid_value(bid: Bid | None) -> int | str | None:
    """The bid as records and the protocol write it: a number, ``"nil"``, ``"blind_nil"``."""
    if bid is None:
        return None
    if bid.blind:
        return "blind_nil"
    return "nil" if bid.tricks == 0 else bid.tricks


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    players: int
    rules: Rules
    dealer: int
    hand_number: int
    phase: Phase
    to_move: int | None
    hand: CardSet | None
    looked: bool
    bids: tuple[BidView, ...]
    given: CardSet | None
    received: CardSet | None
    tricks: tuple[Trick, ...]
    trick_leader: int
    trick: tuple[int, ...]
    tricks_won: tuple[int, ...]
    spades_broken: bool
    totals: tuple[int, ...]
    bags: tuple[int, ...]
    scores: tuple[HandScore, ...]
    winner: int | None
    stock_top: int | None = None
    """Two-player draw: the card on the stock, shown only to the seat deciding on it."""
    stock_left: int = 0
    discarded: CardSet | None = None
    """Two-player draw: cards this seat saw and threw away."""
    pass_chosen: CardSet | None = None
    """Cards already chosen, one by one, for the pass this seat is making."""

    @property
    def lead_suit(self) -> int | None:
        return deck_of(self.rules).suit_of[self.trick[0]] if self.trick else None

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    def played_cards(self) -> CardSet:
        """Every card seen played this hand, the current trick included."""
        m = 0
        for t in self.tricks:
            for c in t.cards:
                m |= 1 << c
        for c in self.trick:
            m |= 1 << c
        return CardSet(m)

    def to_json(self) -> dict[str, Any]:
        """The observation of ``spec/bot-protocol.md`` (plus a few fields the spec allows)."""
        out: dict[str, Any] = {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "phase": self.phase.value,
            "to_move": self.to_move,
            "hand": None if self.hand is None else self.hand.texts(),
            "looked": self.looked,
            "bids": [bid_value(b) for b in self.bids],
            "tricks": [
                {"leader": t.leader, "cards": [card_text(c) for c in t.cards], "winner": t.winner}
                for t in self.tricks
            ],
            "trick": {"leader": self.trick_leader, "cards": [card_text(c) for c in self.trick]},
            "tricks_won": list(self.tricks_won),
            "spades_broken": self.spades_broken,
            "totals": list(self.totals),
            "bags": list(self.bags),
        }
        if self.given is not None or self.received is not None:
            out["exchange"] = {
                "given": [] if self.given is None else self.given.texts(),
                "received": [] if self.received is None else self.received.texts(),
            }
        if self.stock_top is not None:
            out["stock_top"] = card_text(self.stock_top)
        if self.players == 2:
            out["stock_left"] = self.stock_left
            out["discarded"] = [] if self.discarded is None else self.discarded.texts()
        if self.pass_chosen:
            out["pass_chosen"] = self.pass_chosen.texts()
        if self.scores:
            out["scores"] = [score_to_json(s) for s in self.scores]
        if self.winner is not None:
            out["winner"] = self.winner
        return out

    @staticmethod
    def from_json(data: dict[str, Any], rules: Rules) -> Observation:
        """Read the protocol form back (for bots living in other processes)."""

        def cs(items: list[str] | None) -> CardSet | None:
            return None if items is None else CardSet.parse(items)

        ex = data.get("exchange")
        tr = data.get("trick") or {"leader": 0, "cards": []}
        return Observation(
            seat=data["seat"],
            players=data["players"],
            rules=rules,
            dealer=data["dealer"],
            hand_number=data["hand_number"],
            phase=Phase(data["phase"]),
            to_move=data.get("to_move"),
            hand=cs(data.get("hand")),
            looked=data["looked"],
            bids=tuple(None if b is None else _seat_bid(b) for b in data["bids"]),
            given=cs(ex["given"]) if ex else None,
            received=cs(ex["received"]) if ex else None,
            tricks=tuple(
                Trick(t["leader"], tuple(parse_card(c) for c in t["cards"]), t["winner"])
                for t in data.get("tricks", [])
            ),
            trick_leader=tr["leader"],
            trick=tuple(parse_card(c) for c in tr["cards"]),
            tricks_won=tuple(data["tricks_won"]),
            spades_broken=data["spades_broken"],
            totals=tuple(data["totals"]),
            bags=tuple(data["bags"]),
            scores=tuple(score_from_json(s) for s in data.get("scores", ())),
            winner=data.get("winner"),
            stock_top=parse_card(data["stock_top"]) if data.get("stock_top") else None,
            stock_left=data.get("stock_left", 0),
            discarded=cs(data.get("discarded")),
            pass_chosen=cs(data.get("pass_chosen")),
        )


def score_to_json(score: HandScore) -> dict[str, Any]:
    """One line of the score sheet as JSON (the names of ``spades replay --json``)."""
    return {
        "dealer": score.dealer,
        "bids": [bid_value(b) for b in score.bids],
        "tricks": list(score.tricks),
        "contracts": list(score.contracts),
        "points": list(score.points),
        "bags": list(score.bags),
        "totals": list(score.totals),
        "penalties": list(score.penalties),
    }


def _seat_bid(value: int | str | None) -> Bid:
    if value == "blind_nil":
        return SeatBid(0, True)
    if value == "nil" or value is None:
        return SeatBid(0)
    return SeatBid(int(value))


def score_from_json(data: dict[str, Any]) -> HandScore:
    return HandScore(
        dealer=data["dealer"],
        bids=tuple(_seat_bid(b) for b in data["bids"]),
        tricks=tuple(data["tricks"]),
        contracts=tuple(data["contracts"]),
        points=tuple(data["points"]),
        bags=tuple(data["bags"]),
        totals=tuple(data["totals"]),
        penalties=tuple(data["penalties"]),
    )


PUBLIC_FIELDS: tuple[str, ...] = (
    "players",
    "dealer",
    "hand_number",
    "phase",
    "to_move",
    "bids",
    "tricks",
    "trick",
    "tricks_won",
    "spades_broken",
    "totals",
    "bags",
    "scores",
    "winner",
    "stock_left",
)
"""What anyone at the table, or watching it, may see: the spectator's view is built from these
keys of an observation's JSON and nothing else (an allow-list: a field added to observations
later stays private until it is named here)."""


def public_view(game: Game) -> dict[str, Any]:
    """The table as a spectator sees it: no hand, no exchange, no stock card, no discards.

    Built from seat 0's observation through ``PUBLIC_FIELDS`` only, with ``seat`` and
    ``looked`` ``null`` so a client can tell it apart from a player's view."""
    seen = observe(game, 0).to_json()
    out = {key: seen[key] for key in PUBLIC_FIELDS if key in seen}
    out["seat"] = None
    out["looked"] = None
    return out


def observe(game: Game, seat: int) -> Observation:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n:
        raise SpadesError(N_("seat {seat} is not at the table"), seat=repr(seat))
    looked = game.looked[seat]
    given = received = None
    for ex in game.exchanges:
        if ex.giver == seat:
            given = ex.cards
        if ex.receiver == seat:
            received = ex.cards
    made, blind = game.bid, game.blind
    bids = tuple(None if made[s] == NO_BID else Bid(made[s], blind[s]) for s in range(game.n))
    in_hand = game.phase not in (Phase.DEAL,)
    draw_turn = game.phase is Phase.DRAW and game.turn == seat
    return Observation(
        seat=seat,
        players=game.n,
        rules=game.rules,
        dealer=game.dealer,
        hand_number=game.hand_number,
        phase=game.phase,
        to_move=game.to_move,
        hand=CardSet(game.hands[seat]) if looked and in_hand else None,
        looked=looked,
        bids=bids,
        given=given,
        received=received,
        tricks=tuple(game.tricks),
        trick_leader=game.trick_leader,
        trick=tuple(game.trick),
        tricks_won=tuple(game.tricks_won),
        spades_broken=game.spades_broken,
        totals=tuple(game.totals),
        bags=tuple(game.bags),
        scores=tuple(game.scores),
        winner=game.winner,
        stock_top=game.stock[game.stock_pos] if draw_turn else None,
        stock_left=len(game.stock) - game.stock_pos if game.phase is Phase.DRAW else 0,
        discarded=CardSet(game.seen_discards[seat]) if game.n == 2 else None,
        pass_chosen=CardSet(game.pending_pass)
        if game.phase is Phase.EXCHANGE and game.turn == seat and game.pending_pass
        else None,
    )
