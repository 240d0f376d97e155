"""Player statistics: hand-computed figures on recorded games, and properties of random games
(counts that bound each other, sums across the seats, sides checked against the match
module's own per-side counting)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades import record
from spades.errors import SpadesError
from spades.match import hand_stats
from spades.rules import PRESETS, Rules
from spades.state import Game, Phase
from spades.stats import PlayerStats, game_lines, player_stats, rolling_points_per_hand

GOLDEN = Path(__file__).parent / "golden"


def golden(name: str) -> Game:
    return record.load(GOLDEN / f"{name}.json").game


# ---------------------------------------------------------------------- hand-computed
def test_blind_nil_exchange_by_hand() -> None:
    """Bids (N, E, S, W) 5 5 2 2 / 4 3 2 4 / 3 4 3 nil / 3 bnil 2 2 / 4 3 5 2; tricks
    6 3 1 3 / 3 5 3 2 / 2 4 5 2 / 5 0 2 6 / 5 2 5 1 (rules.md scoring, target 300)."""
    st = player_stats([(golden("blind_nil_exchange"), ["n", "e", "s", "w"], "g")])
    n, e, s, w = st["n"], st["e"], st["s"], st["w"]
    # North and South: 70 + 60 + 61 + 52 + 91 = 334 in 5 hands, never set; bags 0 0 1 2 1.
    for p in (n, s):
        assert (p.games, p.finished, p.wins, p.hands, p.points) == (1, 1, 1, 5, 334)
        assert (p.contracts, p.sets, p.bags) == (5, 0, 4)
        assert p.points_per_hand == pytest.approx(66.8) and p.bags_per_hand == pytest.approx(0.8)
    # North bid 5 4 3 3 4, took 6 3 2 5 5: never exact; errors 1+1+1+2+1.
    assert (n.number_bids, n.exact_bids, n.over_bids, n.under_bids, n.bid_error) == (5, 0, 3, 2, 6)
    # South bid 2 2 3 2 5, took 1 3 5 2 5: exact twice; errors 1+1+2.
    assert (s.exact_bids, s.bid_error) == (2, 4) and s.bid_accuracy == pytest.approx(0.4)
    # East and West: -70 + 70 - 58 + 224 - 50 = 116; set in hands 1 (6 of 7) and 5 (3 of 5);
    # bags: West's failed Nil 2, then 2 bid 6 taken with East's Blind Nil: 4.
    for p in (e, w):
        assert (p.wins, p.points, p.sets, p.bags) == (0, 116, 2, 6)
        assert p.set_rate == pytest.approx(0.4) and p.win_rate == 0.0
    # East bid 5 3 4 bnil 3, took 3 5 4 0 2: one exact of four number bids; Blind Nil made.
    assert (e.number_bids, e.exact_bids, e.bid_error) == (4, 1, 5)
    assert (e.blind_nil_bids, e.blind_nil_made, e.nil_bids) == (1, 1, 0)
    assert e.blind_nil_made_rate == 1.0 and e.blind_nil_bid_rate == pytest.approx(0.2)
    assert e.nil_made_rate is None  # no Nil bid: no rate, not 0%
    # West bid 2 4 nil 2 2, took 3 2 2 6 1: errors 1+2+4+1; the Nil failed.
    assert (w.number_bids, w.exact_bids, w.bid_error, w.nil_bids, w.nil_made) == (4, 0, 8, 1, 0)
    assert w.nil_made_rate == 0.0 and w.mean_bid_error == pytest.approx(2.0)
    assert n.partner_counts() == {"s": 1} and e.partner_counts() == {"w": 1}
    assert [h.points for h in n.series] == [70, 60, 61, 52, 91]
    assert [h.total for h in w.series] == [-70, 0, -58, 166, 116]
    assert all(h.game == "g" for h in n.series)


def test_a_partial_game_counts_its_scored_hands_and_is_no_win() -> None:
    """Hand 1: N 2 (3), S 3 (1): 4 of 5, set; hand 2: N 2 (3), S 5 (5): 8 of 7, one bag.
    West bid 3 (3) and Nil (0). Hand 3 stops before the bids."""
    st = player_stats([(golden("partial_standard"), ["n", None, "s", "w"])])
    assert set(st) == {"n", "s", "w"}
    n, w = st["n"], st["w"]
    assert (n.games, n.finished, n.wins, n.hands, n.points) == (1, 0, 0, 2, 21)
    assert (n.sets, n.bags, n.exact_bids, n.over_bids) == (1, 1, 0, 2)
    assert n.win_rate is None
    assert (w.points, w.sets, w.bags, w.exact_bids, w.nil_bids, w.nil_made) == (240, 0, 0, 1, 1, 1)
    assert w.partner_counts() == {}  # East is not counted (a guest)


def test_cutthroat_solo_sides_and_bags_before_penalties() -> None:
    """Three players, each for himself; the winner by lose_at has the highest total, -200.
    B's Blind Nils took 6 and 9 (15 bags, a penalty after the second); C's 4 and 6 (10)."""
    st = player_stats([(golden("house_cutthroat3"), ["a", "b", "c"])])
    a, b, c = st["a"], st["b"], st["c"]
    assert (a.wins, a.points, a.contracts, a.sets, a.bid_error, a.under_bids) == (1, -200, 2, 2, 11, 2)
    assert (b.wins, b.points, b.bags, b.blind_nil_bids, b.blind_nil_made) == (0, -485, 15, 2, 0)
    assert (c.points, c.bags) == (-490, 10)
    assert a.partners == b.partners == ()


def test_nil_tricks_to_partner_still_a_set_when_short() -> None:
    """nil_tricks: partner. Hand 2: North's Blind Nil took 5, South bid 11 took 2: 7 < 11."""
    st = player_stats([(golden("house_options"), ["n", "e", "s", "w"])])
    assert [h.set for h in st["n"].series] == [False, True]
    assert [h.set for h in st["e"].series] == [True, True]
    assert st["n"].bags == 0


def test_json_round_trip_and_addition() -> None:
    g1, g2 = golden("blind_nil_exchange"), golden("partial_standard")
    both = player_stats([(g1, ["a", "b", "c", "d"], "1"), (g2, ["a", "x", "c", "b"], "2")])
    one = player_stats([(g1, ["a", "b", "c", "d"], "1")])
    two = player_stats([(g2, ["a", "x", "c", "b"], "2")])
    assert both["a"] == one["a"] + two["a"]
    assert both["b"].partner_counts() == {"d": 1, "x": 1}
    again = PlayerStats.from_dict(json.loads(json.dumps(both["b"].to_dict())))
    assert again == both["b"]
    assert "series" not in both["b"].to_dict(series=False)
    with pytest.raises(SpadesError, match="mixed"):
        PlayerStats.of(game_lines(g1, ["a", "b", "c", "d"]))


def test_rolling_points_per_hand() -> None:
    series = player_stats([(golden("blind_nil_exchange"), ["n", "e", "s", "w"])])["n"].series
    assert rolling_points_per_hand(series, 2) == [70, 65, 60.5, 56.5, 71.5]
    assert rolling_points_per_hand(series, 100)[-1] == pytest.approx(66.8)
    with pytest.raises(SpadesError, match="window 0"):
        rolling_points_per_hand(series, 0)


# ---------------------------------------------------------------------- random games
def random_game(rules: Rules, seed: int, hands: int) -> Game:
    """A game played by uniformly random legal actions for at most ``hands`` hands."""
    rng = random.Random(seed)
    game = Game(rules, rng=random.Random(seed + 1))
    while not game.is_over and len(game.scores) < hands:
        if game.phase is Phase.DEAL:
            game.deal()
            continue
        seat = game.to_move if game.to_move is not None else game.turn
        game.apply(rng.choice(game.legal_actions(seat)), seat)
    return game


@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(["standard", "cutthroat3", "two_player", "jokers", "bicycle"]),
    seed=st.integers(0, 10**6),
    hands=st.integers(1, 4),
)
def test_properties_of_random_games(preset: str, seed: int, hands: int) -> None:
    rules = PRESETS[preset]
    game = random_game(rules, seed, hands)
    ids = [f"p{s}" for s in range(rules.players)]
    st_ = player_stats([(game, ids)])
    n_hands = len(game.scores)
    per_hand_tricks = game.deck.hand_size
    for p in st_.values():
        assert p.hands == n_hands and p.games == 1 and p.wins <= p.finished <= 1
        assert p.exact_bids + p.over_bids + p.under_bids == p.number_bids
        assert p.number_bids + p.nil_bids + p.blind_nil_bids == p.hands
        assert p.nil_made <= p.nil_bids and p.blind_nil_made <= p.blind_nil_bids
        assert p.sets <= p.contracts <= p.hands
    # Sums across the seats: every trick taken by one seat; each side's points once per member.
    assert sum(h.tricks for p in st_.values() for h in p.series) == n_hands * per_hand_tricks
    members = 2 if rules.teams else 1
    assert sum(p.points for p in st_.values()) == members * sum(game.totals)
    assert sum(p.wins for p in st_.values()) == (members if game.is_over else 0)
    # Per side, the match module's independent counting of sets and bags agrees.
    for side in range(rules.sides):
        seats = [s for s in range(rules.players) if rules.side_of(s) == side]
        others = [s for s in range(rules.players) if rules.side_of(s) != side]
        mine = st_[ids[seats[0]]]
        expected = [hand_stats(rules, score, seats, others) for score in game.scores]
        assert mine.sets == sum(x.sets for x in expected)
        assert mine.bags == sum(x.bags for x in expected)
        assert mine.points == sum(x.points for x in expected)
