"""``Knowledge`` infers only true facts: checked against the real hands of played games."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from presets import CLASSIC_PRESETS
from spades.bots import make_bot
from spades.bots.knowledge import SUITS, Knowledge, beats, trick_winner_index
from spades.cards import FULL_DECK, SUIT_MASKS, bits
from spades.driver import apply_decision
from spades.rules import PRESETS
from spades.state import Game, Phase


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    preset=st.sampled_from(CLASSIC_PRESETS),
    spec=st.sampled_from(["random", "heuristic"]),
)
def test_inferences_hold_against_the_real_hands(seed: int, preset: str, spec: str) -> None:
    game = Game(PRESETS[preset], seed=seed)
    bots = [make_bot(spec, seed=seed + s) for s in range(game.n)]
    n = game.n
    while len(game.scores) < 1:
        seat = game.to_move
        assert seat is not None
        if game.phase is Phase.PLAY:
            k = Knowledge.of(game.observation(seat))
            others = 0
            for s in range(n):
                if s != seat:
                    others |= game.hands[s]
                    for suit in SUITS:
                        if k.voids[s] >> suit & 1:
                            assert not game.hands[s] & SUIT_MASKS[suit], (s, suit)
                    assert k.known[s] & ~game.hands[s] == 0
            # Every card in another hand is unseen; nothing in my hand or played is.
            assert others & ~k.unseen == 0
            assert k.unseen & (game.hands[seat] | k.played) == 0
            assert k.hand == game.hands[seat]
            if n == 4:
                assert k.unseen == others
            else:
                hidden = FULL_DECK & ~game.hands[seat] & ~k.played & ~game.seen_discards[seat]
                assert k.unseen == hidden
            # A master card really is the highest of its suit outside the played cards.
            for c in bits(game.hands[seat]):
                if k.is_master(c):
                    suit = c // 13
                    assert not any(others >> h & 1 for h in range(c + 1, 13 * suit + 13))
            taken = sum(game.tricks_won[s] for s in k.side_seats(seat) if not k.nil[s])
            assert k.need(seat) == max(0, k.contract(seat) - taken)
        action = bots[seat].decide(game.observation(seat), game.legal_actions(seat)).action
        apply_decision(game, seat, action)


@given(st.lists(st.integers(0, 51), min_size=1, max_size=4, unique=True))
def test_trick_winner_matches_the_rule_and_beats(cards: list[int]) -> None:
    lead = cards[0] // 13
    expected = max(range(len(cards)), key=lambda i: (cards[i] < 13, cards[i] // 13 == lead, cards[i]))
    assert trick_winner_index(cards) == expected
    best = cards[0]
    for c in cards[1:]:
        if beats(c, best, lead):
            best = c
    assert best == cards[expected]
