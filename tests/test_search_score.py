"""Score mode: the numba solver against the plain-Python one, against DDS, and what it is for."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.cards import CardSet, parse_card
from spades.rules import Rules
from spades.scoring import SeatBid
from spades.search.positions import InvalidPosition
from spades.search.reference import reference_best_score
from spades.search.score import ScoreSolver, best_score, payoff_table
from test_search_common import engine_position

ORACLE = Path(__file__).parent / "data" / "dd_oracle.jsonl"  # DDS's figures (endplay)

BID = st.integers(0, 5).map(SeatBid) | st.just(SeatBid(0, blind=True))
NIL_HEAVY = st.sampled_from([SeatBid(0), SeatBid(0, blind=True), SeatBid(1), SeatBid(3), SeatBid(5)])


def _check_against_reference(solver: ScoreSolver, seed: int, left: int, table: np.ndarray) -> None:  # type: ignore[type-arg]
    game = engine_position(seed, min_left=left, max_left=left)
    args = (game.hands, game.trick_leader)
    sol = solver.solve(*args, table, game.trick, game.spades_broken, game.tricks_won)
    ref = reference_best_score(*args, table.tolist(), game.trick, game.spades_broken, game.tricks_won)
    assert (sol.value, sol.card_values) == ref
    assert set(sol.card_values) == set(CardSet(game.legal_play_mask()))
    quick = solver.solve(*args, table, game.trick, game.spades_broken, game.tricks_won, values=False)
    assert (quick.value, quick.card_values) == (ref[0], {})


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31), left=st.integers(1, 14), bids=st.lists(BID, min_size=4, max_size=4))
def test_score_solver_matches_reference(seed: int, left: int, bids: list[SeatBid]) -> None:
    """Mid-trick positions and unbroken spades included (engine positions): the value, every
    legal card's value, and the value alone."""
    table = payoff_table(Rules(), bids, (120, 80), (8, 3))
    _check_against_reference(ScoreSolver(12), seed, left, table)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    left=st.integers(8, 18),
    bids=st.lists(NIL_HEAVY, min_size=4, max_size=4),
    bags=st.tuples(st.integers(5, 9), st.integers(5, 9)),
    use_dd=st.booleans(),
)
def test_score_solver_matches_reference_with_nils_and_bags(
    seed: int, left: int, bids: list[SeatBid], bags: tuple[int, int], use_dd: bool
) -> None:
    """Nil-heavy bids and bags near the penalty (payoffs far from monotone in the tricks), with
    and without the trick solver's bounds (the search alone must be exact too)."""
    table = payoff_table(Rules(), bids, (200, 150), bags)
    solver = ScoreSolver(12)
    solver.use_dd = use_dd
    _check_against_reference(solver, seed, left, table)


def test_one_solver_across_positions_of_a_hand() -> None:
    """One table kept across positions and calls (entries must never go stale), and a change
    of payoff table in between empties it."""
    solver = ScoreSolver(14)
    tables = [
        payoff_table(Rules(), [SeatBid(0), SeatBid(3), SeatBid(4), SeatBid(3)], (0, 0), (9, 2)),
        payoff_table(Rules(), [SeatBid(2), SeatBid(4), SeatBid(3), SeatBid(0)], (0, 0), (1, 8)),
    ]
    for seed in range(8):
        for left in (6, 9, 13):
            _check_against_reference(solver, seed, left, tables[(seed + left) % 2])


def _full_lines(cards: int, every: int) -> list[dict[str, object]]:
    lines = [json.loads(x) for x in ORACLE.read_text().splitlines()]
    return [d for d in lines if len(d["hands"][0].split()) == cards][::every]


def test_a_payoff_of_tricks_is_double_dummy() -> None:
    """With North/South's payoff their trick count, score mode is the trick solver: DDS's
    figures (the oracle) for the value and every card, the search alone (no trick-solver
    bounds), on 10-card deals."""
    table = np.fromfunction(lambda n, e, s, w: n + s, (14, 14, 14, 14), dtype=np.int64)
    solver = ScoreSolver(16)
    solver.use_dd = False
    for d in _full_lines(10, 3):
        hands = [CardSet.parse(h).mask for h in d["hands"]]  # type: ignore[union-attr]
        tw = (2, 0, 1, 0)
        sol = solver.solve(hands, d["leader"], table, (), True, tw)  # type: ignore[arg-type]
        expected = {parse_card(k): v + 3 for k, v in d["card_values"].items()}  # type: ignore[union-attr]
        assert (sol.value, sol.card_values) == (d["ns_tricks"] + 3, expected)  # type: ignore[operator]


def test_thirteen_cards_with_and_without_the_trick_solver_agree() -> None:
    """A whole deal with a Nil: the trick solver's bounds must not change the answer."""
    table = payoff_table(Rules(), [SeatBid(0), SeatBid(4), SeatBid(4), SeatBid(3)])
    d = _full_lines(13, 1)[1]
    hands = [CardSet.parse(h).mask for h in d["hands"]]  # type: ignore[union-attr]
    plain = ScoreSolver(18)
    plain.use_dd = False
    a = plain.solve(hands, d["leader"], table, values=False)  # type: ignore[arg-type]
    b = ScoreSolver(18).solve(hands, d["leader"], table, values=False)  # type: ignore[arg-type]
    assert a.value == b.value


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


@pytest.mark.parametrize(
    ("tricks_won", "message"),
    [((0, 0, 0), "4 counts"), ((0, 0, 0, 14), "4 counts"), ((1, 0, 0, 0), "add up to 13")],
)
def test_bad_trick_counts_are_one_line_errors(tricks_won: tuple[int, ...], message: str) -> None:
    hands = [CardSet.parse(h).mask for h in ("AS", "3H", "KH", "2H")]
    table = payoff_table(Rules(), [SeatBid(1)] * 4)
    with pytest.raises(InvalidPosition, match=message):
        ScoreSolver(10).solve(hands, 0, table, (), True, tricks_won)


def test_a_payoff_too_large_to_store_is_a_one_line_error() -> None:
    """Bounds are stored in 26 bits each: a table beyond them is refused, not cut short."""
    hands = [CardSet.parse(h).mask for h in ("AS", "3H", "KH", "2H")]
    table = payoff_table(Rules(), [SeatBid(1)] * 4) * 10_000_000
    with pytest.raises(InvalidPosition, match="payoffs must lie within"):
        ScoreSolver(10).solve(hands, 0, table, (), True, (3, 3, 3, 3))


def _blocks_are_disjoint(tkey: np.ndarray, epat: np.ndarray, tuse: np.ndarray) -> None:  # type: ignore[type-arg]
    """Every live shape's block and every free block lie inside the used pool, none overlap,
    and the shape count is right: what evicting, packing and reusing blocks must keep."""
    from spades.search._dd_kernel import FREE0, T_CAP, T_COUNT, T_KEY, T_START

    live = tkey[tkey[:, T_KEY] != -1]
    assert len(live) == tuse[1]
    spans = [(int(r[T_START]), int(r[T_CAP])) for r in live if r[T_CAP] > 0]
    assert all(r[T_COUNT] <= r[T_CAP] for r in live)
    for k in range(FREE0, len(tuse)):
        start = int(tuse[k])
        while start >= 0:
            spans.append((start, 1 << (k - FREE0)))
            start = int(epat[start, 0])
    spans.sort()
    for (a, n), (b, _) in itertools.pairwise(spans):
        assert a + n <= b
    assert not spans or spans[-1][0] + spans[-1][1] <= tuse[0] <= len(epat)


def test_small_tables_evict_pack_and_reuse_blocks_soundly() -> None:
    """2**7 entries on 9-card Nil endgames: the pool and the shape table fill up many times
    (entries dropped by size, blocks packed, shapes rehashed, freed blocks reused), and the
    answers stay those of a table that never fills."""
    from spades.search.dd import Solver

    table = payoff_table(Rules(), [SeatBid(0), SeatBid(4), SeatBid(4), SeatBid(3)])
    small, big = ScoreSolver(7), ScoreSolver(16)
    dd_small, dd_big = Solver(7), Solver(16)
    small_nodes = big_nodes = 0
    for seed in range(12):
        g = engine_position(seed, min_left=36, max_left=36)
        args = (g.hands, g.trick_leader)
        a = small.solve(*args, table, g.trick, g.spades_broken, g.tricks_won)
        b = big.solve(*args, table, g.trick, g.spades_broken, g.tricks_won)
        assert (a.value, a.card_values) == (b.value, b.card_values)
        small_nodes += a.nodes
        big_nodes += b.nodes
        _blocks_are_disjoint(small._tkey, small._epat, small._tuse)
        assert dd_small.solve(*args, g.trick, g.spades_broken).card_values == (
            dd_big.solve(*args, g.trick, g.spades_broken).card_values
        )
        _blocks_are_disjoint(dd_small._tkey, dd_small._epat, dd_small._tuse)
    assert small_nodes > big_nodes  # the small table did lose entries
