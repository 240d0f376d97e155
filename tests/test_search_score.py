"""Score mode: the numba solver against the plain-Python one, and what it is for."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spades.cards import CardSet
from spades.rules import Rules
from spades.scoring import SeatBid
from spades.search.reference import reference_best_score
from spades.search.score import ScoreSolver, best_score, payoff_table
from test_search_common import engine_position

BID = st.integers(0, 5).map(SeatBid) | st.just(SeatBid(0, blind=True))


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31), left=st.integers(1, 14), bids=st.lists(BID, min_size=4, max_size=4))
def test_score_solver_matches_reference(seed: int, left: int, bids: list[SeatBid]) -> None:
    game = engine_position(seed, min_left=left, max_left=left)
    table = payoff_table(Rules(), bids, (120, 80), (8, 3))
    args = (game.hands, game.trick_leader)
    sol = ScoreSolver(12).solve(*args, table, game.trick, game.spades_broken, game.tricks_won)
    ref = reference_best_score(*args, table.tolist(), game.trick, game.spades_broken, game.tricks_won)
    assert (sol.value, sol.card_values) == ref


def test_payoff_is_the_hand_score_difference() -> None:
    bids = [SeatBid(0), SeatBid(3), SeatBid(4), SeatBid(0, blind=True)]
    table = payoff_table(Rules(), bids, (0, 0), (9, 0))
    # North's Nil fails (1 trick), South makes 4 with 1 over: the 10th bag costs 100.
    assert table[1, 4, 5, 3] == (-100 + 1 + 40 + 1 - 100) - (30 + 1 - 200 + 3)


def test_best_score_ducks_when_a_trick_would_set_a_nil() -> None:
    # One trick left; North bid Nil and holds the only spade: leading it costs the Nil.
    # West leads; the best North/South can do is what the table says for North winning.
    hands = [CardSet.parse(h).mask for h in ("AS", "3H", "KH", "2H")]
    bids = [SeatBid(0), SeatBid(3), SeatBid(1), SeatBid(3)]
    sol = best_score(hands, 3, Rules(), bids, (), True, (0, 6, 1, 5))
    assert sol.value == payoff_table(Rules(), bids)[1, 6, 1, 5]
