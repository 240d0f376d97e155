"""The expert's deal sampler: every sampled deal agrees with what the seat knows, and the
true deal always does too (the knowledge never rules out the truth)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades.bots.random import RandomBot
from spades.bots.sampling import Knowledge, resample, sample_deal
from spades.cards import FULL_DECK, SUIT_MASKS
from spades.driver import apply_decision
from spades.rules import PRESETS
from spades.state import Game, Phase


def _advance(preset: str, seed: int, steps: int) -> Game:
    """A game of random play stopped after ``steps`` actions of its first hand (still in it)."""
    g = Game(PRESETS[preset], seed=seed)
    bots = [RandomBot(seed=seed + s) for s in range(g.n)]
    rng = random.Random(seed)
    for _ in range(steps):
        if g.phase is not Phase.PLAY and g.phase not in (Phase.BID, Phase.EXCHANGE, Phase.DRAW):
            break
        seat = g.to_move
        assert seat is not None
        legal = g.legal_actions(seat)
        if g.phase is Phase.PLAY and len(g.tricks) == 12 and len(g.trick) == g.n - 1:
            break  # keep the hand unfinished
        action = rng.choice(legal) if g.phase is Phase.PLAY else bots[seat].act(g.observation(seat), legal)
        apply_decision(g, seat, action)
    return g


def _check(g: Game, seat: int, rng: random.Random) -> None:
    obs = g.observation(seat)
    if obs.hand is None or g.phase not in (Phase.PLAY, Phase.BID, Phase.EXCHANGE):
        return
    k = Knowledge.of(obs)
    played = obs.played_cards().mask
    n = g.n
    # The truth fits the knowledge.
    for s in range(n):
        if s == seat:
            continue
        true = g.hands[s]
        assert true & ~(k.pool | k.fixed[s]) == 0, "a seat holds a card the seat thinks is elsewhere"
        assert true & k.fixed[s] == k.fixed[s]
        for u in range(4):
            if k.void[s] >> u & 1:
                assert not true & SUIT_MASKS[u], "a void shown is not a void"
        assert true.bit_count() == k.need[s] + k.fixed[s].bit_count()
    for _ in range(5):
        deal = sample_deal(k, rng)
        assert deal[seat] == g.hands[seat]
        union = 0
        for s, h in enumerate(deal):
            assert union & h == 0, "a card was placed twice"
            union |= h
            assert h & played == 0, "a played card was placed in a hand"
            if s != seat:
                assert h & obs.hand.mask == 0
                for u in range(4):
                    if k.void[s] >> u & 1:
                        assert not h & SUIT_MASKS[u]
                if s < n:
                    assert h.bit_count() == g.hands[s].bit_count()
                    assert h & k.fixed[s] == k.fixed[s]
        if n == 2 and obs.discarded is not None:
            assert deal[1 - seat] & obs.discarded.mask == 0
        if n == 4:
            assert union | played == FULL_DECK


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["standard", "bicycle", "hoyle", "two_player"]),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 80),
)
def test_sampled_deals_respect_knowledge(preset: str, seed: int, steps: int) -> None:
    g = _advance(preset, seed, steps)
    rng = random.Random(seed)
    for seat in range(g.n):
        _check(g, seat, rng)


def test_blind_nil_exchange_cards_are_known_to_be_with_partner() -> None:
    found = 0
    for seed in range(400):
        g = Game(PRESETS["standard"], seed=seed)
        bots = [RandomBot(seed=seed * 7 + s) for s in range(4)]
        while g.phase in (Phase.BID, Phase.EXCHANGE):
            seat = g.to_move
            assert seat is not None
            apply_decision(g, seat, bots[seat].act(g.observation(seat), g.legal_actions(seat)))
        if not g.exchanges or g.phase is not Phase.PLAY:
            continue
        found += 1
        for ex in g.exchanges:
            k = Knowledge.of(g.observation(ex.giver))
            partner = ex.receiver
            assert k.fixed[partner] and k.fixed[partner] & ~g.hands[partner] == 0
            _check(g, ex.giver, random.Random(seed))
        if found >= 5:
            break
    assert found >= 1


def test_every_seat_samples_right_hand_sizes_at_every_step_of_an_exchange() -> None:
    """Half-way through an exchange the partners' hands are uneven (16 and 10 cards): the
    Blind Nil bidder passing back samples his partner's 10, and the truth fits."""
    steps = 0
    for seed in range(300):
        g = Game(PRESETS["standard"], seed=seed)
        bots = [RandomBot(seed=seed * 5 + s) for s in range(4)]
        while g.phase in (Phase.BID, Phase.EXCHANGE):
            if g.phase is Phase.EXCHANGE:
                steps += 1
                for seat in range(4):
                    _check(g, seat, random.Random(seed + seat))
            seat = g.to_move
            assert seat is not None
            apply_decision(g, seat, bots[seat].act(g.observation(seat), g.legal_actions(seat)))
        if steps >= 60:
            break
    assert steps >= 60


def test_resample_follows_weights() -> None:
    rng = random.Random(3)
    picks = resample([0.0, 3.0, 1.0, 0.0], 400, rng)
    assert set(picks) <= {1, 2}
    assert 280 <= picks.count(1) <= 320
    assert resample([0.0, 0.0], 3, rng) == [0, 1, 0]
