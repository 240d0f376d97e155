"""The expert's exact endgame (numba score mode) against its plain-Python endgame solver: both
are exact, so on any fully known position they must give every card the same worth."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.bots.expert import ExpertBot
from spades.bots.expert_exact import ExactEndgame
from spades.bots.expert_play import NON_SPADE, Scorer, Table, trick_winner
from spades.cards import SUIT_MASKS
from spades.driver import apply_decision
from spades.legal import STANDARD
from spades.rules import PRESETS
from spades.search import generic
from spades.state import Game


def _position(rng: random.Random, k: int) -> tuple[list[int], list[int], int, bool, list[int]]:
    """Four hands of ``k`` cards (one fewer for those who played to the trick in progress),
    the trick, its leader, the spades flag and the tricks won so far (13 in all)."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[k * s : k * s + k]) for s in range(4)]
    leader = rng.randrange(4)
    trick: list[int] = []
    for i in range(rng.randrange(4)):
        seat = (leader + i) % 4
        c = rng.choice([c for c in range(52) if hands[seat] >> c & 1])
        hands[seat] ^= 1 << c
        trick.append(c)
    broken = rng.random() < 0.6 or any(c < 13 for c in trick)
    won = [0, 0, 0, 0]
    for _ in range(13 - k):
        won[rng.randrange(4)] += 1
    return hands, trick, leader, broken, won


def _python_values(
    table: Table,
    scorer: Scorer,
    me: int,
    hands: list[int],
    trick: list[int],
    leader: int,
    broken: bool,
    won: list[int],
) -> dict[int, float]:
    """The expert's plain-Python way: play each legal card, then solve the rest exactly."""
    solver = generic.Solver(generic.Board.of(STANDARD), table, scorer, me)
    seat = (leader + len(trick)) % 4
    h = hands[seat]
    legal = ((h & SUIT_MASKS[trick[0] // 13]) or h) if trick else (h if broken else (h & NON_SPADE) or h)
    out = {}
    for c in range(52):
        if not legal >> c & 1:
            continue
        hh = list(hands)
        hh[seat] ^= 1 << c
        t = [*trick, c]
        w0 = list(won)
        lead_by = leader
        if len(t) == 4:
            w = trick_winner(t, leader, 4)
            w0[w] += 1
            t, lead_by = [], w
        out[c] = solver.value(hh, t, lead_by, broken or c < 13, w0)
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), k=st.integers(1, 4))
def test_exact_endgame_matches_the_python_solver(seed: int, k: int) -> None:
    rng = random.Random(seed)
    hands, trick, leader, broken, won = _position(rng, k)
    bids = [rng.choice([0, 0, 1, 2, 3, 4, 5]) for _ in range(4)]
    blind = [b == 0 and rng.random() < 0.3 for b in bids]
    rules = PRESETS["standard"]
    # Totals near the target make the game bonus count; bags near the limit, the penalty.
    totals = [rng.choice([0, 250, 440, 480]), rng.choice([0, 300, 470])]
    bags = [rng.randrange(10), rng.randrange(10)]
    me = (leader + len(trick)) % 4
    scorer = Scorer(rules, me, bids, blind, totals, bags)
    table = Table(rules, bids)
    want = _python_values(table, scorer, me, hands, trick, leader, broken, won)
    got = ExactEndgame(scorer).card_values(hands, trick, leader, broken, won)
    assert set(got) == set(want)
    for c, v in want.items():
        assert got[c] == pytest.approx(v, abs=1e-3), c


def test_the_expert_plays_a_four_player_endgame_with_the_exact_solver() -> None:
    """A whole hand with the exact endgame taking over at eight tricks left: every card legal,
    and the reasons say which search decided."""
    g = Game(PRESETS["standard"], seed=7)
    bots = [ExpertBot(seed=s, samples=6, bid_samples=8, time_ms=0, dd_tricks=8) for s in range(4)]
    exact_reasons = 0
    while not g.scores:
        seat = g.to_move
        assert seat is not None
        legal = g.legal_actions(seat)
        d = bots[seat].decide(g.observation(seat), legal)
        assert d.action in legal
        exact_reasons += "exact search" in d.why
        apply_decision(g, seat, d.action)
    assert exact_reasons > 0
