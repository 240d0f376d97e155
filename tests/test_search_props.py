"""Property tests: the numba solvers equal the plain-Python references on random small endgames.

The positions are drawn directly (not from engine games): a few cards a seat from the whole
deck, so that any suit lengths, voids, trumps and runs occur; any leader; 0 to 3 cards of a
trick in progress (each a legal play); spades broken or not. Score mode gets bids with a Nil
still live (its bidder has won no trick yet), Blind Nils, bags near the penalty. One solver of
each kind is kept across examples, as the expert keeps it across the positions of a hand: a
stored bound must hold for every later position it matches (partition search), never go stale.

The compiled kernels are four-seat, 52-card only (three players and jokers decks search with
``spades.search.generic``, whose own tests hold it to a minimax), so every deck here is the
standard one.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.rules import Rules
from spades.scoring import SeatBid
from spades.search.dd import Solver
from spades.search.reference import reference_best_score, reference_solve
from spades.search.score import ScoreSolver, payoff_table

_DD = Solver(14)
_SCORE = ScoreSolver(14)
_TABLE = payoff_table(Rules(), [SeatBid(0), SeatBid(4), SeatBid(4), SeatBid(3)], (0, 0), (0, 0))


Endgame = tuple[list[int], int, list[int], bool]
BAGS = st.integers(0, 9)


@st.composite
def endgames(draw: st.DrawFn, max_cards: int = 5) -> Endgame:
    """(hands, leader, trick, spades_broken): ``k`` cards a seat counting the trick's."""
    k = draw(st.integers(1, max_cards))
    deck = draw(st.permutations(range(52)))
    hands = [sum(1 << c for c in deck[k * q : k * q + k]) for q in range(4)]
    leader = draw(st.integers(0, 3))
    broken = draw(st.booleans())
    trick: list[int] = []
    for i in range(draw(st.integers(0, 3))):
        seat = (leader + i) % 4
        h = hands[seat]
        if trick:
            follow = h & (0x1FFF << (13 * (trick[0] // 13)))
            legal = follow or h
        else:
            legal = h if broken else (h & ~0x1FFF) or h
        cards = [c for c in range(52) if legal >> c & 1]
        c = draw(st.sampled_from(cards))
        hands[seat] ^= 1 << c
        trick.append(c)
        if c < 13 and (i == 0 or trick[0] >= 13):
            broken = True
    return hands, leader, trick, broken


@settings(max_examples=250, deadline=None)
@given(pos=endgames())
def test_trick_solver_equals_reference(pos: Endgame) -> None:
    hands, leader, trick, broken = pos
    value, values = reference_solve(hands, leader, trick, broken)
    sol = _DD.solve(hands, leader, trick, broken)
    assert (sol.ns_tricks, sol.card_values) == (value, values)
    assert _DD.solve(hands, leader, trick, broken, values=False).ns_tricks == value


BIDS_WITH_NIL = st.lists(
    st.sampled_from([SeatBid(0), SeatBid(0, blind=True), SeatBid(1), SeatBid(2), SeatBid(4), SeatBid(6)]),
    min_size=4,
    max_size=4,
).filter(lambda bids: any(b.tricks == 0 for b in bids))


def _tricks_won(draw: st.DrawFn, bids: list[SeatBid], left: int) -> tuple[int, ...]:
    """Tricks so far adding up to 13 - ``left``, every Nil bidder still on none."""
    played = 13 - left
    takers = [q for q in range(4) if bids[q].tricks != 0] or [0, 1, 2, 3]
    won = [0, 0, 0, 0]
    for _ in range(played):
        won[draw(st.sampled_from(takers))] += 1
    return tuple(won)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), pos=endgames(), bids=BIDS_WITH_NIL, bags=st.tuples(BAGS, BAGS))
def test_score_solver_equals_reference_with_a_live_nil(
    data: st.DataObject, pos: Endgame, bids: list[SeatBid], bags: tuple[int, int]
) -> None:
    hands, leader, trick, broken = pos
    left = hands[(leader + len(trick)) % 4].bit_count()
    tricks_won = _tricks_won(data.draw, bids, left)
    table = payoff_table(Rules(), bids, (0, 0), bags)
    solver = ScoreSolver(12)
    ref = reference_best_score(hands, leader, table.tolist(), trick, broken, tricks_won)
    sol = solver.solve(hands, leader, table, trick, broken, tricks_won)
    assert (sol.value, sol.card_values) == ref
    solver.use_dd = False
    assert solver.solve(hands, leader, table, trick, broken, tricks_won, values=False).value == ref[0]


@settings(max_examples=150, deadline=None)
@given(data=st.data(), pos=endgames())
def test_one_score_solver_across_positions(data: st.DataObject, pos: Endgame) -> None:
    """One solver and one payoff table (North's Nil) across every example: stored bounds are
    reused by later positions of other deals, and must hold there."""
    hands, leader, trick, broken = pos
    left = hands[(leader + len(trick)) % 4].bit_count()
    tricks_won = _tricks_won(data.draw, [SeatBid(0), SeatBid(4), SeatBid(4), SeatBid(3)], left)
    ref = reference_best_score(hands, leader, _TABLE.tolist(), trick, broken, tricks_won)
    sol = _SCORE.solve(hands, leader, _TABLE, trick, broken, tricks_won)
    assert (sol.value, sol.card_values) == ref


@settings(max_examples=120, deadline=None)
@given(data=st.data(), pos=endgames(), bids=BIDS_WITH_NIL, bags=st.tuples(BAGS, BAGS))
def test_judging_a_card_agrees_with_every_cards_payoff(
    data: st.DataObject, pos: Endgame, bids: list[SeatBid], bags: tuple[int, int]
) -> None:
    """``judge`` (the played card's payoff exactly, the others only best or not, from a guess)
    gives what the reference's every-card payoffs say: the best, the card's, the best cards."""
    hands, leader, trick, broken = pos
    left = hands[(leader + len(trick)) % 4].bit_count()
    tricks_won = _tricks_won(data.draw, bids, left)
    table = payoff_table(Rules(), bids, (0, 0), bags)
    value, values = reference_best_score(hands, leader, table.tolist(), trick, broken, tricks_won)
    card = data.draw(st.sampled_from(sorted(values)))
    hint = data.draw(st.none() | st.integers(-300, 300))
    j = _SCORE.judge(hands, leader, table, card, trick, broken, tricks_won, hint=hint)
    assert (j.value, j.card_value) == (value, values[card])
    assert set(j.best_cards) == {c for c, v in values.items() if v == value}
    assert set(j.legal) == set(values)


def test_a_nil_payoff_separates_partners() -> None:
    """The reference's table is the one the kernel reads: North's Nil made or set changes the
    payoff with the side's tricks equal (so these tests exercise the Nil, not a trick count)."""
    assert _TABLE[0, 5, 5, 3] != _TABLE[1, 5, 4, 3]
    assert isinstance(_TABLE, np.ndarray)
