"""Scoring of one hand: a pure function of the rules, the bids, the tricks and the past.

Kept apart from the state machine so tests can check it against the worked examples of
``rules.md`` and against an independent recomputation without playing cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from spades.actions import Bid
from spades.rules import Rules

SeatBid = Bid
"""A seat's bid on the score sheet is the action ``Bid`` itself: one bid type everywhere
(the name stays for the callers that import it)."""


@dataclass(frozen=True, slots=True)
class HandScore:
    """One line of the score sheet; lists are per side except ``tricks`` (per seat)."""

    dealer: int
    bids: tuple[SeatBid, ...]
    tricks: tuple[int, ...]
    contracts: tuple[int, ...]
    points: tuple[int, ...]
    bags: tuple[int, ...]
    totals: tuple[int, ...]
    penalties: tuple[int, ...]
    """Bag penalties taken this hand, per side (each cost ``bag_penalty``)."""

    def __reduce__(self) -> tuple[type[HandScore], tuple[object, ...]]:
        """Pickle by the constructor (observations cross to worker processes): the compiled
        (mypyc) class has no ``__setstate__`` that could fill a frozen instance."""
        fields = (self.dealer, self.bids, self.tricks, self.contracts, self.points, self.bags)
        return (HandScore, (*fields, self.totals, self.penalties))


_COMPILED: Final = not __file__.endswith(".py")
"""True when this module runs compiled by mypyc."""


def _hand_score(
    dealer: int,
    bids: tuple[SeatBid, ...],
    tricks: tuple[int, ...],
    contracts: tuple[int, ...],
    points: tuple[int, ...],
    bags: tuple[int, ...],
    totals: tuple[int, ...],
    penalties: tuple[int, ...],
) -> HandScore:
    """``HandScore(...)``. Compiled, the dataclass's own ``__init__`` is interpreted Python
    that sets each field through ``object.__setattr__`` (half the time of scoring a hand);
    here the compiled module sets the fields of a new instance directly, which only it may
    do to a frozen class. ``tests/test_engine_build.py`` holds the two equal, field by field."""
    if not _COMPILED:
        return HandScore(dealer, bids, tricks, contracts, points, bags, totals, penalties)
    score = HandScore.__new__(HandScore)
    score.dealer = dealer  # type: ignore[misc]
    score.bids = bids  # type: ignore[misc]
    score.tricks = tricks  # type: ignore[misc]
    score.contracts = contracts  # type: ignore[misc]
    score.points = points  # type: ignore[misc]
    score.bags = bags  # type: ignore[misc]
    score.totals = totals  # type: ignore[misc]
    score.penalties = penalties  # type: ignore[misc]
    return score


def side_seats(rules: Rules, side: int) -> tuple[int, ...]:
    return (side, side + 2) if rules.teams else (side,)


def score_hand(
    rules: Rules,
    dealer: int,
    bids: Sequence[SeatBid],
    tricks: Sequence[int],
    totals_before: Sequence[int],
    bags_before: Sequence[int],
) -> HandScore:
    """Score one hand. Written as plain loops (no generators): it runs once per hand in every
    playout, and tests check it against an independent recomputation."""
    contracts, points, bags, totals, penalties = [], [], [], [], []
    minus = rules.set_penalty == "minus"
    bags_mode = rules.bags
    limit = rules.bag_limit
    teams = rules.teams
    nil_to_partner = rules.nil_tricks == "partner"
    big_bid = rules.big_bid
    for side in range(rules.sides):
        contract = taken = pts = new_bags = nil_taken = 0
        for s in (side, side + 2) if teams else (side,):
            bid = bids[s]
            took = tricks[s]
            if bid.tricks:
                contract += bid.tricks
                taken += took
            else:
                bonus = rules.blind_nil_bonus if bid.blind else rules.nil_bonus
                if took:
                    pts -= bonus
                    nil_taken += took
                else:
                    pts += bonus
        if nil_taken:
            if nil_to_partner and contract > 0:  # house rule: toward the partner's contract
                taken += nil_taken
            else:  # rules.md: a failed Nil's tricks are bags (one point each)
                pts += nil_taken
                new_bags += nil_taken
        if contract > 0:
            if taken >= contract:
                per_trick = 20 if big_bid is not None and contract >= big_bid else 10
                pts += per_trick * contract + (taken - contract)
                new_bags += taken - contract
            elif minus:
                pts -= 10 * contract
        count = bags_before[side] + new_bags
        n_pen = 0
        if bags_mode != "off":
            while count >= limit:
                pts -= rules.bag_penalty
                n_pen += 1
                count = count - limit if bags_mode == "carry" else 0
        contracts.append(contract)
        points.append(pts)
        bags.append(count)
        totals.append(totals_before[side] + pts)
        penalties.append(n_pen)
    return _hand_score(
        dealer,
        tuple(bids),
        tuple(tricks),
        tuple(contracts),
        tuple(points),
        tuple(bags),
        tuple(totals),
        tuple(penalties),
    )


def game_winner(rules: Rules, totals: Sequence[int]) -> int | None:
    """The winning side after a hand, or ``None`` if the game goes on.

    ``lose_at`` knocks a side out; with one side left standing it wins. Otherwise, once a
    standing side reaches the target, the highest standing total wins, and a tie for the lead
    means another hand. If every side is knocked out, the highest total wins (ties play on).
    """
    lose_at = rules.lose_at
    if lose_at is None:
        best = max(totals)
        if best < rules.target or totals.count(best) > 1:
            return None
        return totals.index(best)
    sides = range(len(totals))
    standing = [s for s in sides if totals[s] > lose_at]
    if len(standing) == 1 and len(totals) > 1:
        return standing[0]
    pool = standing or list(sides)
    if not standing or any(totals[s] >= rules.target for s in pool):
        best = max(totals[s] for s in pool)
        leaders = [s for s in pool if totals[s] == best]
        if len(leaders) == 1:
            return leaders[0]
    return None
