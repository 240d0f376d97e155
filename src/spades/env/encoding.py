"""One seat's ``Observation`` as a flat float vector, for learning agents.

Built only from ``Observation`` (what the seat may know), never from the game. Seats are
*relative*: slot 0 is the observing seat, then clockwise (1 = left, 2 = partner, 3 = right),
so one policy serves every seat. There are always four seat slots; in the two-player game
slots 2 and 3 stay zero. Sides are relative too: slot 0 is the observer's side. ``LAYOUT``
names every block; ``docs/rl-env.md`` documents it, and a test checks the two agree.

Needs only numpy (a core dependency), so it is usable without PettingZoo.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
import numpy.typing as npt

from spades.actions import Bid
from spades.errors import SpadesError
from spades.observation import Observation
from spades.rules import Rules

PHASES: Final = ("deal", "draw", "bid", "exchange", "play", "over")
BID_SLOTS: Final = 16
"""Per seat: 0 = no bid yet, 1 + N = bid N (so 1 is Nil), 15 = Blind Nil."""

LAYOUT: Final[tuple[tuple[str, int, str], ...]] = (
    ("hand", 52, "1 for each card in the seat's hand (all 0 until it has looked)"),
    ("looked", 1, "1 once the seat has looked at its cards"),
    ("played", 4 * 52, "per relative seat, the cards it played this hand (current trick included)"),
    ("trick", 52, "the cards of the trick in progress"),
    ("trick_leader", 4, "one-hot relative seat leading the trick in progress (play phase)"),
    ("lead_suit", 4, "one-hot suit led to the trick in progress (S H D C; 0 if none yet)"),
    ("bids", 4 * BID_SLOTS, "per relative seat, one-hot: none, 0 (Nil) .. 13, Blind Nil"),
    ("tricks_won", 4, "per relative seat, tricks taken this hand / 13"),
    ("phase", 6, "one-hot: deal, draw, bid, exchange, play, over"),
    ("to_move", 4, "one-hot relative seat to move (0 between hands)"),
    ("dealer", 4, "one-hot relative seat of the dealer"),
    ("spades_broken", 1, "1 once spades are broken"),
    ("given", 52, "cards this seat passed in a Blind Nil exchange"),
    ("received", 52, "cards this seat received in a Blind Nil exchange"),
    ("pass_chosen", 52, "cards already chosen, one by one, for the pass being made"),
    ("pass_count", 1, "cards still to choose for the pass / 13"),
    ("stock_top", 52, "two-player draw: the card on the stock, when deciding on it"),
    ("discarded", 52, "two-player draw: the cards this seat saw and threw away"),
    ("stock_left", 1, "two-player draw: cards left in the stock / 52"),
    ("totals", 4, "per relative side, game points / target (unbounded)"),
    ("bags", 4, "per relative side, bag count / bag_limit (unbounded with bags off)"),
)

SLICES: Final[dict[str, slice]] = {}
_start = 0
for _name, _size, _ in LAYOUT:
    SLICES[_name] = slice(_start, _start + _size)
    _start += _size
SIZE: Final = _start
"""Length of the vector (``observation_space["observation"].shape == (SIZE,)``)."""

_UNBOUNDED: Final = ("totals", "bags")


def check_encodable(rules: Rules) -> None:
    """Refuse, in one line naming the option, rules this layout cannot hold: it has 52 card
    slots (no jokers) and bids 0..13 (no 17-trick three-player hands)."""
    if rules.jokers is not None:
        raise SpadesError(
            f"the RL environment encodes the 52-card deck: jokers = {rules.jokers} is not supported"
        )
    if rules.players == 3:
        raise SpadesError(
            "the RL environment encodes 2 or 4 seats and bids 0..13: players = 3 is not supported"
        )


_PHASE_INDEX: Final = {p: i for i, p in enumerate(PHASES)}


def bounds() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Low and high of each entry: [0, 1] except the score blocks, which are unbounded."""
    low = np.zeros(SIZE, dtype=np.float32)
    high = np.ones(SIZE, dtype=np.float32)
    for name in _UNBOUNDED:
        low[SLICES[name]] = -math.inf
        high[SLICES[name]] = math.inf
    return low, high


def _cards(out: npt.NDArray[np.float32], start: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[start + low.bit_length() - 1] = 1.0
        mask ^= low


def _bid_slot(bid: Bid | None) -> int:
    if bid is None:
        return 0
    if bid.blind:
        return 15
    return 1 + bid.tricks  # Nil is slot 1


def encode(obs: Observation) -> npt.NDArray[np.float32]:
    """The vector of ``LAYOUT`` for ``obs`` (a new array each call)."""
    out = np.zeros(SIZE, dtype=np.float32)
    n = obs.players
    me = obs.seat
    rules = obs.rules

    def rel(seat: int) -> int:
        return (seat - me) % n

    if obs.hand is not None:
        _cards(out, SLICES["hand"].start, obs.hand.mask)
    out[SLICES["looked"].start] = float(obs.looked)
    played = SLICES["played"].start
    for t in obs.tricks:
        for i, c in enumerate(t.cards):
            out[played + 52 * rel((t.leader + i) % n) + c] = 1.0
    for i, c in enumerate(obs.trick):
        out[played + 52 * rel((obs.trick_leader + i) % n) + c] = 1.0
        out[SLICES["trick"].start + c] = 1.0
    if obs.phase == "play":
        out[SLICES["trick_leader"].start + rel(obs.trick_leader)] = 1.0
    if obs.trick:
        out[SLICES["lead_suit"].start + obs.trick[0] // 13] = 1.0
    for seat, bid in enumerate(obs.bids):
        out[SLICES["bids"].start + BID_SLOTS * rel(seat) + _bid_slot(bid)] = 1.0
    for seat, won in enumerate(obs.tricks_won):
        out[SLICES["tricks_won"].start + rel(seat)] = won / 13
    out[SLICES["phase"].start + _PHASE_INDEX[obs.phase]] = 1.0
    if obs.to_move is not None:
        out[SLICES["to_move"].start + rel(obs.to_move)] = 1.0
    out[SLICES["dealer"].start + rel(obs.dealer)] = 1.0
    out[SLICES["spades_broken"].start] = float(obs.spades_broken)
    for name, cards in (("given", obs.given), ("received", obs.received), ("pass_chosen", obs.pass_chosen)):
        if cards is not None:
            _cards(out, SLICES[name].start, cards.mask)
    if obs.phase == "exchange" and obs.my_turn:
        chosen = 0 if obs.pass_chosen is None else len(obs.pass_chosen)
        out[SLICES["pass_count"].start] = (rules.blind_nil_exchange - chosen) / 13
    if obs.stock_top is not None:
        out[SLICES["stock_top"].start + obs.stock_top] = 1.0
    if obs.discarded is not None:
        _cards(out, SLICES["discarded"].start, obs.discarded.mask)
    out[SLICES["stock_left"].start] = obs.stock_left / 52
    sides = len(obs.totals)
    my_side = rules.side_of(me)
    for side in range(sides):
        slot = (side - my_side) % sides
        out[SLICES["totals"].start + slot] = obs.totals[side] / rules.target
        out[SLICES["bags"].start + slot] = obs.bags[side] / rules.bag_limit
    return out


__all__ = ["BID_SLOTS", "LAYOUT", "PHASES", "SIZE", "SLICES", "bounds", "encode"]
