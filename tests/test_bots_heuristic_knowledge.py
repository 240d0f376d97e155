"""``Knowledge`` infers only true facts: checked against the real hands of played games."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spades.bots import make_bot
from spades.bots.knowledge import SUITS, Knowledge, beats, tables_of, trick_winner_index
from spades.cards import bits
from spades.driver import apply_decision
from spades.legal import deck_of, trick_winner
from spades.rules import PRESETS
from spades.state import Game, Phase
from test_bots_common import VARIANTS


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.sampled_from(VARIANTS),
    spec=st.sampled_from(["random", "heuristic"]),
)
def test_inferences_hold_against_the_real_hands(
    seed: int, variant: tuple[str, dict[str, Any]], spec: str
) -> None:
    preset, extra = variant
    game = Game(PRESETS[preset].replace(**extra), seed=seed)
    deck = deck_of(game.rules)
    tables = tables_of(deck)
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
                            assert not game.hands[s] & deck.suit_masks[suit], (s, suit)
                    assert k.known[s] & ~game.hands[s] == 0
            # Every card in another hand is unseen; nothing in my hand or played is.
            assert others & ~k.unseen == 0
            assert k.unseen & (game.hands[seat] | k.played) == 0
            assert k.hand == game.hands[seat]
            if n != 2:
                assert k.unseen == others
            else:
                hidden = deck.mask & ~game.hands[seat] & ~k.played & ~game.seen_discards[seat]
                assert k.unseen == hidden
            assert k.tricks_left == deck.hand_size - len(game.tricks)
            # A master card really is the highest of its suit (in play) outside the played cards.
            for c in bits(game.hands[seat]):
                if k.is_master(c):
                    assert not others & tables.above[c]
            # The card Knowledge says is winning the trick is the one the rules say.
            if game.trick:
                win = k.current_winner()
                assert win is not None
                cards = list(game.trick)
                assert win[1] == max(cards, key=lambda c: deck.trick_keys[deck.suit_of[cards[0]]][c])
            taken = sum(game.tricks_won[s] for s in k.side_seats(seat) if not k.nil[s])
            assert k.need(seat) == max(0, k.contract(seat) - taken)
        action = bots[seat].decide(game.observation(seat), game.legal_actions(seat)).action
        apply_decision(game, seat, action)


@given(
    st.sampled_from(VARIANTS).flatmap(
        lambda v: st.tuples(
            st.just(deck_of(PRESETS[v[0]].replace(**v[1]))),
            st.lists(
                st.sampled_from(deck_of(PRESETS[v[0]].replace(**v[1])).cards),
                min_size=1,
                max_size=4,
                unique=True,
            ),
        )
    )
)
def test_trick_winner_index_and_beats_agree_with_legal(deck_cards: tuple[Any, list[int]]) -> None:
    """Knowledge's winner and ``beats`` are ``legal.trick_winner``'s rule, for every deck."""
    deck, cards = deck_cards
    assert (trick_winner_index(cards, deck)) == trick_winner(deck, cards, 0)
    lead = deck.suit_of[cards[0]]
    best = cards[0]
    for c in cards[1:]:
        if beats(c, best, lead, deck):
            best = c
    assert best == cards[trick_winner(deck, cards, 0)]


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
