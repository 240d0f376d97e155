"""The engine's fast paths held equal to the one definition of the laws (``spades.legal``).

``state.py`` inlines copies of ``legal.play_mask`` (``play``, ``apply_code``, the standard
deck's ``legal_codes``) and of ``legal.trick_winner`` (the unrolled comparisons of
``_finish_trick`` and the standard deck's ``_TRICK_KEYS``), and has fast paths for bids. Here
random reachable positions of every preset and of random rule combinations are checked: every
answer the engine gives (legal codes, actions, ``can_*``, acceptance and refusal by ``play``,
``make_bid`` and ``apply_code``, trick winners) equals the one definition's, and every hand's
score equals ``scoring.score_hand`` recomputed from the written record.

Below them, ``spades.legal`` itself against hand-written examples of house-rules.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades import Bid, Game, Play, Rules, legal, record, state
from spades.actions import BLIND_NIL_CODE, LOOK_CODE, bid_code, play_code
from spades.cards import BIG_JOKER, LITTLE_JOKER, CardSet, bits, parse_card
from spades.errors import IllegalAction
from spades.legal import NO_BID
from spades.rules import PRESETS
from spades.scoring import SeatBid, score_hand
from spades.state import Phase
from test_engine_properties import rule_sets

JUNK_CARDS: tuple[Any, ...] = (-1, 54, 99, True, 3.0, "AS", None)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def mask(text: str) -> int:
    return CardSet(cards(text)).mask


# ---------------------------------------------------------------------- random positions
def check_play(game: Game, deck: legal.Deck, rng: random.Random) -> int:
    """Every play answer of the engine equals ``legal.play_mask``; returns the legal mask."""
    turn = game.to_move
    assert turn is not None
    trick = list(game.trick)
    lead = deck.suit_of[trick[0]] if trick else -1
    hand = game.hands[turn]
    allowed = legal.play_mask(deck, hand, lead, legal.may_lead_spades(game.rules, game.spades_broken))
    assert allowed and allowed & ~hand == 0
    ordered = list(bits(allowed))
    assert game.legal_codes() == [play_code(c) for c in ordered]
    assert game.legal_actions() == [Play(c) for c in ordered]
    assert game.legal_cards() == CardSet(allowed)
    for c in range(54):
        assert game.can_play(c) == bool(allowed >> c & 1), c
        assert game.can_play(c, turn) == bool(allowed >> c & 1)
        assert not game.can_play(c, (turn + 1) % game.n)
    for junk in JUNK_CARDS:
        assert not game.can_play(junk)
    refused = [c for c in range(54) if not allowed >> c & 1]
    before = (len(game.history), game.hands, game.trick, game.spades_broken)
    for c in rng.sample(refused, min(3, len(refused))):
        with pytest.raises(IllegalAction):
            game.play(c)
        with pytest.raises(IllegalAction):
            game.apply_code(play_code(c))
        with pytest.raises(IllegalAction):
            game.verify_play(c)
    for junk in rng.sample(JUNK_CARDS, 2):
        with pytest.raises(IllegalAction):
            game.play(junk)
    assert (len(game.history), game.hands, game.trick, game.spades_broken) == before
    return allowed


def check_bids(game: Game, deck: legal.Deck, rng: random.Random) -> list[Bid]:
    """Every bid answer of the engine equals ``legal.number_bids`` / ``blind_nil_allowed``;
    returns the legal bids."""
    seat = game.to_move
    assert seat is not None
    rules = game.rules
    bids = list(game.bid)
    if game.looked[seat]:
        numbers = legal.number_bids(rules, deck, seat, bids, game.hands[seat])
        allowed = [Bid(t) for t in numbers]
        codes = [bid_code(t) for t in numbers]
    else:
        blind = legal.blind_nil_allowed(rules, seat, bids, game.totals)
        allowed = [Bid(0, blind=True)] if blind else []
        codes = [LOOK_CODE, BLIND_NIL_CODE] if blind else [LOOK_CODE]
    assert game.legal_bids() == allowed
    assert game.legal_codes() == codes
    candidates = [Bid(t) for t in range(18)] + [Bid(0, blind=True)]
    for bid in candidates:
        assert game.can_bid(bid) == (bid in allowed), bid
        assert not game.can_bid(bid, (seat + 1) % game.n)
    before = (len(game.history), game.bid, game.looked)
    refused = [b for b in candidates if b not in allowed]
    for bid in rng.sample(refused, min(3, len(refused))):
        with pytest.raises(IllegalAction):
            game.make_bid(bid)
        with pytest.raises(IllegalAction):
            game.apply_code(bid.code)
        if not bid.blind:
            with pytest.raises(IllegalAction):
                game.make_bid(bid.tricks)
    assert (len(game.history), game.bid, game.looked) == before
    return allowed


def step(game: Game, deck: legal.Deck, rng: random.Random) -> None:
    """Check the position, then take a random legal action by one of the engine's doors."""
    phase = game.phase
    if phase is Phase.PLAY:
        allowed = check_play(game, deck, rng)
        card = rng.choice(list(bits(allowed)))
        trick = [*game.trick, card]
        turn = game.to_move
        assert turn is not None
        door = rng.randrange(3)
        if door == 0:
            ev = game.play(card)
        elif door == 1:
            ev = game.apply_code(play_code(card))
        else:
            ev = game.apply(Play(card))
        if len(trick) == game.n:  # the unrolled winner against the one definition
            leader = (turn - game.n + 1) % game.n
            assert ev.trick_winner == legal.trick_winner(deck, trick, leader)
        else:
            assert ev.trick_winner is None
        return
    if phase is Phase.BID:
        allowed = check_bids(game, deck, rng)
        seat = game.to_move
        if not game.looked[seat] and (not allowed or rng.random() < 0.7):
            game.look(seat)
            return
        bid = rng.choice(allowed)
        door = rng.randrange(3)
        if door == 0 and not bid.blind:
            game.make_bid(bid.tricks)
        elif door == 1:
            game.apply_code(bid.code)
        else:
            game.make_bid(bid)
        return
    game.apply_code(rng.choice(game.legal_codes()))


def scores_from_record(game: Game) -> None:
    """Recompute every complete hand's score from the written record: the tricks from its
    plays by ``legal.trick_winner``, the points by ``scoring.score_hand``."""
    rules, n = game.rules, game.n
    deck = legal.deck_of(rules)
    data = record.to_record(game)
    totals, bags = [0] * rules.sides, [0] * rules.sides
    for i, score in enumerate(game.scores):
        hand = data["hands"][i]
        dealer = (data["first_dealer"] + i) % n
        seat_bids = [
            SeatBid(0, True) if b == "blind_nil" else SeatBid(0 if b == "nil" else b) for b in hand["bids"]
        ]
        plays = cards(" ".join(hand["play"]))
        assert len(plays) == deck.hand_size * n
        tricks = [0] * n
        leader = (dealer + 1) % n
        for t in range(0, len(plays), n):
            leader = legal.trick_winner(deck, plays[t : t + n], leader)
            tricks[leader] += 1
        expected = score_hand(rules, dealer, seat_bids, tricks, totals, bags)
        assert score == expected
        totals, bags = list(expected.totals), list(expected.bags)
    assert list(game.totals) == totals and list(game.bags) == bags


def walk(rules: Rules, seed: int, max_hands: int) -> Game:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    deck = legal.deck_of(rules)
    assert game.deck == deck
    while not game.is_over and len(game.scores) < max_hands:
        if rules.bidding == "mirror" and game.phase is Phase.PLAY and not game.tricks and not game.trick:
            for seat, bid in enumerate(game.logs[-1].bids):  # the engine's own bids
                assert bid is not None
                assert (bid.tricks,) == legal.number_bids(
                    rules, deck, seat, [NO_BID] * game.n, game.hands[seat]
                )
        step(game, deck, rng)
    scores_from_record(game)
    return game


SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(SETTINGS, max_examples=200)
@given(name=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32))
def test_every_preset_equals_the_one_definition(name: str, seed: int) -> None:
    walk(PRESETS[name].replace(target=150), seed, max_hands=2)


@settings(SETTINGS, max_examples=500)
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_random_rule_sets_equal_the_one_definition(rules: Rules, seed: int) -> None:
    walk(rules, seed, max_hands=1)


def test_trick_keys_copy_is_the_standard_decks() -> None:
    keys = legal.STANDARD.trick_keys
    assert len(state._TRICK_KEYS) == 4
    for lead in range(4):
        assert state._TRICK_KEYS[lead] == keys[lead][:52]
        assert keys[lead][52:] == (-1, -1)  # no jokers in the standard deck


def test_the_deck_the_engine_uses_is_the_one_definitions() -> None:
    for name, rules in PRESETS.items():
        game = Game(rules, seed=1)
        deck = legal.deck_of(rules)
        assert game.deck is deck, name
        dealt = 0
        for h in game.logs[-1].dealt:
            dealt |= h
        if rules.players != 2:
            assert dealt == deck.mask


# ---------------------------------------------------------------------- unit examples
def bids_of(rules: Rules, seat: int, bids: Sequence[int], hand: str = "") -> tuple[int, ...]:
    return legal.number_bids(rules, legal.deck_of(rules), seat, list(bids), mask(hand))


NB = NO_BID


def test_suicide_bids() -> None:
    r = PRESETS["suicide"]
    everything = (0, *range(4, 14))
    assert bids_of(r, 0, [NB, NB, NB, NB]) == everything  # first of the pair chooses
    assert bids_of(r, 2, [5, NB, NB, NB]) == (0,)  # a number obliges his partner to Nil
    assert bids_of(r, 2, [0, NB, NB, NB]) == tuple(range(4, 14))  # a Nil obliges a number >= 4
    assert bids_of(r, 3, [5, 0, NB, NB]) == tuple(range(4, 14))  # East bid Nil
    assert bids_of(r, 1, [5, NB, 0, 6]) == (0,)  # West bid 6
    six = r.replace(suicide_min=6)
    assert bids_of(six, 2, [NB, NB, NB, NB]) == (0, *range(6, 14))
    assert bids_of(six, 0, [NB, NB, 0, NB]) == tuple(range(6, 14))
    # Blind Nil counts as Nil: allowed first, or after a partner's number, never after a Nil.
    assert legal.blind_nil_allowed(r, 0, [NB, NB, NB, NB], [0, 0])
    assert legal.blind_nil_allowed(r, 2, [4, NB, NB, NB], [0, 0])
    assert not legal.blind_nil_allowed(r, 2, [0, NB, NB, NB], [0, 0])


def test_whiz_bids_nil_or_the_spades_held() -> None:
    r = PRESETS["whiz"]
    assert bids_of(r, 0, [NB] * 4, "AS 7S 2S KH QH JH TH 9H AD KD QD AC KC") == (0, 3)
    assert bids_of(r, 0, [NB] * 4, "AH KH QH JH TH 9H 8H AD KD QD AC KC QC") == (0,)
    assert bids_of(r, 1, [3, NB, NB, NB], "AS 7S 2S KH QH JH TH 9H AD KD QD AC KC") == (0, 3)
    jokers = r.replace(jokers="big_little")  # jokers are spades for the count
    assert bids_of(jokers, 0, [NB] * 4, "BJ LJ AS KH QH JH TH 9H AD KD QD AC KC") == (0, 3)
    jjdd = r.replace(jokers="jjdd")  # and so is the jjdd 2D
    assert bids_of(jjdd, 0, [NB] * 4, "2D AH KH QH JH TH 9H AD KD QD AC KC QC") == (0, 1)
    assert not legal.blind_nil_allowed(r, 0, [NB] * 4, [0, 0])


def test_mirror_bids_are_the_spades_held() -> None:
    r = PRESETS["mirror"]
    assert bids_of(r, 0, [NB] * 4, "AS 7S 2S KH QH JH TH 9H AD KD QD AC KC") == (3,)
    assert bids_of(r, 0, [NB] * 4, "AH KH QH JH TH 9H 8H AD KD QD AC KC QC") == (0,)
    jjdd = r.replace(jokers="jjdd")
    assert bids_of(jjdd, 0, [NB] * 4, "BJ LJ 2D 2S AS KS QS JS TS 9S 8S 7S 6S") == (13,)


def test_team_min_bid() -> None:
    r = PRESETS["standard"].replace(team_min_bid=6)
    assert bids_of(r, 0, [NB] * 4) == tuple(range(14))  # the first of the pair is free
    assert bids_of(r, 2, [2, NB, NB, NB]) == tuple(range(4, 14))  # 2 + 4 = 6
    assert bids_of(r, 2, [0, NB, NB, NB]) == tuple(range(6, 14))  # after a Nil: 6 or more
    assert bids_of(r, 2, [6, NB, NB, NB]) == tuple(range(14))  # reached: Nil allowed
    assert bids_of(r, 3, [2, 9, NB, NB]) == tuple(range(14))
    assert bids_of(r, 3, [2, 1, NB, NB]) == tuple(range(5, 14))
    assert legal.blind_nil_allowed(r, 2, [6, NB, NB, NB], [0, 0])
    assert not legal.blind_nil_allowed(r, 2, [5, NB, NB, NB], [0, 0])
    assert legal.blind_nil_allowed(r, 2, [NB, NB, NB, NB], [0, 0])
    why = legal.bid_refusal(r, legal.deck_of(r), 2, [2, NB, NB, NB], 0, 3)
    assert "team_min_bid" in why and "2" in why


def test_free_bids_and_three_players() -> None:
    assert bids_of(PRESETS["bicycle"], 0, [NB] * 4) == tuple(range(1, 14))
    three = PRESETS["cutthroat3"]
    assert bids_of(three, 0, [NB] * 3) == tuple(range(18))  # 17 tricks a hand
    assert legal.blind_nil_allowed(three, 1, [4, NB, NB], [0, 0, 0])  # no partner: always


def test_refusals_name_the_rule() -> None:
    for name, seat, bids, hand, tricks, words in [
        ("suicide", 2, [5, NB, NB, NB], "", 4, ("must bid nil", "suicide")),
        ("suicide", 2, [0, NB, NB, NB], "", 0, ("at least 4", "suicide")),
        ("whiz", 0, [NB] * 4, "AS 7S 2S KH QH JH TH 9H AD KD QD AC KC", 2, ("3 spades", "whiz")),
        ("mirror", 0, [NB] * 4, "AS 7S 2S KH QH JH TH 9H AD KD QD AC KC", 4, ("3 spades", "mirror")),
        ("bicycle", 0, [NB] * 4, "", 0, ("min_bid",)),
    ]:
        rules = PRESETS[name]
        why = legal.bid_refusal(rules, legal.deck_of(rules), seat, bids, mask(hand), tricks)
        assert all(w in why for w in words), (name, why)


def test_suicide_refusals_say_what_is_left() -> None:
    r = PRESETS["suicide"]
    deck = legal.deck_of(r)
    after_nil = legal.bid_refusal(r, deck, 2, [0, NB, NB, NB], 0, 0)
    assert after_nil == "his partner bid nil, so he must bid at least 4 (bidding suicide)"
    assert legal.bid_refusal(r, deck, 2, [0, NB, NB, NB], 0, 2) == after_nil
    first = legal.bid_refusal(r, deck, 0, [NB, NB, NB, NB], 0, 2)
    assert first == "he must bid nil or at least 4 (bidding suicide)"
    game = Game(r, seed=3)  # the first bidder bids nil, the next 4; the third must bid 4+
    for bid in (0, 4):
        game.look(game.turn)
        game.make_bid(bid)
    with pytest.raises(IllegalAction, match="blind_nil but his partner bid nil, so he must bid at least 4"):
        game.make_bid(Bid(0, blind=True))
    game.look(game.turn)
    with pytest.raises(IllegalAction, match="bid nil but his partner bid nil, so he must bid at least 4"):
        game.make_bid(0)


def test_whiz_refusal_without_spades() -> None:
    r = PRESETS["whiz"]
    why = legal.bid_refusal(
        r, legal.deck_of(r), 0, [NB] * 4, mask("AH KH QH JH TH 9H 8H AD KD QD AC KC QC"), 3
    )
    assert why == "he holds no spades and must bid nil (bidding whiz)"


def test_decks() -> None:
    big = legal.deck_of(PRESETS["jokers"])
    assert set(big.cards) == (set(range(52)) - set(cards("2C 2D"))) | {BIG_JOKER, LITTLE_JOKER}
    assert (big.hand_size, big.max_bid, big.players) == (13, 13, 4)
    jjdd = legal.deck_of(PRESETS["standard"].replace(jokers="jjdd"))
    assert set(jjdd.cards) == (set(range(52)) - set(cards("2H 2C"))) | {BIG_JOKER, LITTLE_JOKER}
    assert jjdd.suit_of[parse_card("2D")] == 0  # a spade in every respect
    assert jjdd.suit_masks[0] == mask("BJ LJ 2D AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S")
    assert jjdd.suit_masks[2] == mask("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D")
    three = legal.deck_of(PRESETS["cutthroat3"])
    assert set(three.cards) == set(range(52)) - {parse_card("2C")}
    assert (len(three.cards), three.hand_size, three.max_bid) == (51, 17, 17)
    two = legal.deck_of(PRESETS["two_player"])
    assert (len(two.cards), two.hand_size) == (52, 13)
    assert legal.STANDARD.standard and not big.standard and not jjdd.standard and not three.standard


def winner(rules: Rules, trick: str, leader: int = 0) -> int:
    return legal.trick_winner(legal.deck_of(rules), cards(trick), leader)


def test_jjdd_trick_order() -> None:
    r = PRESETS["standard"].replace(jokers="jjdd")
    # BJ, LJ, 2D, 2S, AS .. 3S: each beats every card after it.
    order = ["BJ", "LJ", "2D", "2S", "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S"]
    for hi in range(len(order)):
        for lo in range(hi + 1, len(order)):
            assert winner(r, f"{order[lo]} {order[hi]} 4H 5H") == 1, (order[hi], order[lo])
            assert winner(r, f"{order[hi]} {order[lo]} 4H 5H") == 0
    assert winner(r, "AD KD 2D QD") == 2  # the 2D trumps a diamond lead
    assert winner(r, "AD KD 3D QD") == 0
    assert winner(r, "2D AS KS QS", leader=1) == 1  # a 2D lead is a spade lead
    assert winner(r, "3H 2D 3S AH") == 1


def test_big_little_trick_order() -> None:
    r = PRESETS["jokers"]
    assert winner(r, "AS LJ BJ 2S") == 2
    assert winner(r, "AS LJ KS 2S") == 1
    assert winner(r, "AH 2S KH QH") == 1  # the lowest spade still trumps
    assert winner(r, "LJ AS KS QS", leader=3) == 3


def test_three_player_tricks() -> None:
    r = PRESETS["cutthroat3"]
    assert winner(r, "KH AH QH", leader=2) == 0  # 2 led, 0 played the AH
    assert winner(r, "KH 2S AH", leader=1) == 2


def test_play_mask_follows_each_decks_suits() -> None:
    jjdd = legal.deck_of(PRESETS["standard"].replace(jokers="jjdd"))
    hand = mask("2D AD 5H")
    assert legal.play_mask(jjdd, hand, 0, True) == mask("2D")  # the 2D follows spades
    assert legal.play_mask(jjdd, hand, 2, True) == mask("AD")  # and not diamonds
    assert legal.play_mask(jjdd, mask("2D 5H"), 2, True) == mask("2D 5H")  # void in diamonds
    assert legal.play_mask(jjdd, hand, -1, False) == mask("AD 5H")  # not broken: no 2D lead
    big = legal.deck_of(PRESETS["jokers"])
    assert legal.play_mask(big, mask("BJ 3H"), 0, True) == mask("BJ")  # a joker follows spades
    assert legal.play_mask(big, mask("BJ 3H"), -1, False) == mask("3H")
    assert legal.play_mask(big, mask("BJ LJ"), -1, False) == mask("BJ LJ")  # only spades
    assert legal.may_lead_spades(PRESETS["standard"].replace(spades_lead="any"), False)
    assert not legal.may_lead_spades(PRESETS["standard"], False)
    assert legal.spade_count(jjdd, mask("BJ LJ 2D 2S 2H")) == 4  # the 2H is not in this deck


def test_spades_lead_any_lets_a_spade_lead_before_they_break() -> None:
    rules = PRESETS["standard"].replace(spades_lead="any", first_dealer=3, blind_nil=False)
    game = Game(rules, auto_deal=False)
    game.deal(
        [
            mask("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H"),
            mask("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2S"),
            mask("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"),
            mask("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"),
        ]
    )
    for _ in range(4):
        game.make_bid(Bid(3))
    assert game.can_play(parse_card("AS"))
    game.play(parse_card("AS"))
    assert game.spades_broken
