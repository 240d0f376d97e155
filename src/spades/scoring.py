"""Scoring of one hand: a pure function of the rules, the bids, the tricks and the past.

Kept apart from the state machine so tests can check it against the worked examples of
``rules.md`` and against an independent recomputation without playing cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spades.rules import Rules


@dataclass(frozen=True, slots=True)
class SeatBid:
    tricks: int
    blind: bool = False

    @property
    def is_nil(self) -> bool:
        return self.tricks == 0


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
    contracts, points, bags, totals, penalties = [], [], [], [], []
    for side in range(rules.sides):
        seats = side_seats(rules, side)
        contract = sum(bids[s].tricks for s in seats if not bids[s].is_nil)
        taken = sum(tricks[s] for s in seats if not bids[s].is_nil)
        pts = 0
        new_bags = 0
        if contract > 0:
            if taken >= contract:
                pts += 10 * contract + (taken - contract)
                new_bags += taken - contract
            elif rules.set_penalty == "minus":
                pts -= 10 * contract
        for s in seats:
            if bids[s].is_nil:
                bonus = rules.blind_nil_bonus if bids[s].blind else rules.nil_bonus
                if tricks[s] == 0:
                    pts += bonus
                else:
                    pts += tricks[s] - bonus
                    new_bags += tricks[s]
        count = bags_before[side] + new_bags
        n_pen = 0
        if rules.bags != "off":
            while count >= rules.bag_limit:
                pts -= rules.bag_penalty
                n_pen += 1
                if rules.bags == "carry":
                    count -= rules.bag_limit
                else:
                    count = 0
        contracts.append(contract)
        points.append(pts)
        bags.append(count)
        totals.append(totals_before[side] + pts)
        penalties.append(n_pen)
    return HandScore(
        dealer=dealer,
        bids=tuple(bids),
        tricks=tuple(tricks),
        contracts=tuple(contracts),
        points=tuple(points),
        bags=tuple(bags),
        totals=tuple(totals),
        penalties=tuple(penalties),
    )


def game_winner(rules: Rules, totals: Sequence[int]) -> int | None:
    """The winning side after a hand, or ``None`` if the game goes on.

    ``lose_at`` knocks a side out; with one side left standing it wins. Otherwise, once a
    standing side reaches the target, the highest standing total wins, and a tie for the lead
    means another hand. If every side is knocked out, the highest total wins (ties play on).
    """
    sides = range(len(totals))
    standing = [s for s in sides if rules.lose_at is None or totals[s] > rules.lose_at]
    if rules.lose_at is not None and len(standing) == 1 and len(totals) > 1:
        return standing[0]
    pool = standing or list(sides)
    if not standing or any(totals[s] >= rules.target for s in pool):
        best = max(totals[s] for s in pool)
        leaders = [s for s in pool if totals[s] == best]
        if len(leaders) == 1:
            return leaders[0]
    return None
