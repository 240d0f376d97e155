"""Card text (rules.md: ranks 2-9 T J Q K A, suits S H D C; input also 10 and lower case)
and CardSet, which must behave like a frozenset of ints."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spades.cards import CardSet, card_text, parse_card, rank_of, suit_of
from spades.errors import InvalidCard, SpadesError

cards = st.integers(0, 51)
card_sets = st.frozensets(cards)


def test_canonical_text_and_input_forms() -> None:
    assert card_text(parse_card("AS")) == "AS"
    assert parse_card("10h") == parse_card("TH") == parse_card(" th ")
    assert parse_card("2c") == 3 * 13
    assert card_text(12) == "AS" and card_text(13) == "2H"
    assert suit_of(parse_card("QD")) == 2 and rank_of(parse_card("QD")) == 10
    for bad in ("", "1S", "AX", "11H", "ASS", "S", "10"):
        with pytest.raises(InvalidCard, match="unknown card"):
            parse_card(bad)
    with pytest.raises(SpadesError):
        card_text(54)
    assert parse_card("bj") == 53 and parse_card("LJ") == 52 and card_text(53) == "BJ"
    assert str(CardSet.parse("AS LJ 2C BJ")) == "BJ LJ AS 2C"  # jokers first, big before little


@given(cards)
def test_text_round_trip(card: int) -> None:
    text = card_text(card)
    assert parse_card(text) == card == parse_card(text.lower())
    if text[0] == "T":
        assert parse_card("10" + text[1]) == card


@given(card_sets, card_sets)
def test_cardset_behaves_like_a_frozenset(a: frozenset[int], b: frozenset[int]) -> None:
    x, y = CardSet(a), CardSet(b)
    assert set(x) == a and len(x) == len(a)
    assert set(x | y) == a | b and set(x & y) == a & b and set(x - y) == a - b and set(x ^ y) == a ^ b
    assert (x <= y) == (a <= b) and (x < y) == (a < b) and (x == y) == (a == b)
    assert all(c in x for c in a) and 52 not in x and "AS" not in x
    assert CardSet.parse(str(x)) == x and eval(repr(x)) == x
    assert bool(x) == bool(a)


@given(card_sets)
def test_display_order_is_by_suit_then_high_to_low(a: frozenset[int]) -> None:
    order = list(CardSet(a))
    assert order == sorted(a, key=lambda c: (c // 13, -(c % 13)))


def test_parse_rejects_duplicates_and_bad_masks() -> None:
    with pytest.raises(InvalidCard, match="given twice"):
        CardSet.parse("AS as")
    with pytest.raises(InvalidCard):
        CardSet(1 << 54)
    with pytest.raises(InvalidCard):
        CardSet([60])
    with pytest.raises(AttributeError):
        CardSet().mask = 3
