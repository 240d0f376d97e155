"""A partner never makes a play a strong human partner would call sabotage.

The duties, for ``heuristic`` and ``expert`` alike:
(a) partner bid Nil, has taken nothing, and his card wins the trick: beat it if I can;
(b) partner bid a number and his card wins the trick whatever comes after (I play last, or no
    card I cannot see beats it): do not overtake it or trump it when I can play under, unless
    an opponent's Nil is live (taking the lead may be how it is broken);
(c) the special case of (b) everyone checks first: I play last, partner is winning, and I
    trump it or overtake it;
(d) both sides' contracts made (no Nil at the table) and I play last: duck if I can, since
    every trick now is a bag to whoever takes it;
(e) my own live Nil, following suit, can duck: duck with the highest card that loses (the
    low ones are what ducks the later tricks).

Each is checked on constructed positions (named hands) and on every position of that kind met
in hands dealt from hypothesis-drawn seeds (``partner_positions``: dealt, bid and played by
the engine's public API; a seat with a low hand bids Nil in half of them).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partner_positions import Spot, card_of, deal_hand, describe, spots
from spades.actions import Play
from spades.bots import Bot, make_bot
from spades.bots.expert import ExpertBot
from spades.bots.nil_duty import nil_duty
from spades.bots.partnership import partner_duty
from spades.cards import card_text
from spades.state import Game
from test_bots_heuristic import position

BOTS = ("heuristic", "expert")


def _bot(name: str, seed: int) -> Bot:
    if name == "expert":  # fewer deals than the level's 96, no clock: quick and the same every run
        return ExpertBot(seed=seed, samples=16, time_ms=0)
    return make_bot(name, seed=seed)


def _play(name: str, game: Game) -> tuple[int, str]:
    seat = game.to_move
    assert seat is not None
    d = _bot(name, seat).decide(game.observation(seat), game.legal_actions(seat))
    assert isinstance(d.action, Play)
    return d.action.card, d.why


# ---------------------------------------------------------------------- the duties
def _bid(spot: Spot, seat: int) -> int | None:
    view = spot.obs.bids[seat]
    return None if view is None else view.tricks


def nil_to_cover(spot: Spot) -> bool:
    """(a): partner's live Nil is winning and I can beat it."""
    o = spot.obs
    return (
        _bid(spot, spot.partner) == 0
        and o.tricks_won[spot.partner] == 0
        and _bid(spot, spot.seat) != 0
        and spot.winner == spot.partner
        and bool(spot.beaters)
    )


def opponent_nil_live(spot: Spot) -> bool:
    o = spot.obs
    return any(
        s not in (spot.seat, spot.partner) and _bid(spot, s) == 0 and o.tricks_won[s] == 0 for s in range(4)
    )


def sure_trick(spot: Spot) -> bool:
    """(b): partner bid a number, his card wins whatever comes, I can play under it, and no
    opponent's Nil is live."""
    return (
        (_bid(spot, spot.partner) or 0) > 0
        and not opponent_nil_live(spot)
        and spot.winner == spot.partner
        and spot.sure
        and bool(spot.others)
    )


def bags_only(spot: Spot) -> bool:
    """(d): no Nil bid, both sides have made their contracts, I play last and can duck."""
    o = spot.obs
    bids = [_bid(spot, s) or 0 for s in range(4)]
    if min(bids) == 0 or not spot.last or not spot.others:
        return False
    ours, theirs = (spot.seat, spot.partner), ((spot.seat + 1) % 4, (spot.seat + 3) % 4)
    return all(sum(o.tricks_won[s] for s in side) >= sum(bids[s] for s in side) for side in (ours, theirs))


def own_nil_duck(spot: Spot) -> bool:
    """(e): my Nil is live, I follow suit and can play under the winning card."""
    o = spot.obs
    return (
        _bid(spot, spot.seat) == 0
        and o.tricks_won[spot.seat] == 0
        and bool(spot.others)
        and all(c // 13 == spot.lead for c in spot.others | spot.beaters)
    )


DUTIES: dict[str, tuple[Callable[[Spot], bool], Callable[[Spot, int], bool]]] = {
    "cover partner's Nil": (nil_to_cover, lambda s, c: c in s.beaters),
    "keep off partner's sure trick": (sure_trick, lambda s, c: c in s.others),
    "duck once every trick is a bag": (bags_only, lambda s, c: c in s.others),
    "duck my Nil with the highest card that loses": (own_nil_duck, lambda s, c: c == max(s.others)),
}


def _check_hand(name: str, seed: int, nil_seat: int | None, limit: int = 1000) -> int:
    """Check every duty at every position of one hand; return how many were checked."""
    checked = 0
    for spot in spots(deal_hand(seed, nil_seat)):
        for duty, (applies, kept) in DUTIES.items():
            if checked < limit and applies(spot):
                card, why = card_of(_bot(name, spot.seat), spot)
                assert kept(spot, card), (
                    f"{name} fails to {duty}: {describe(spot)} -> {card_text(card)} ({why})"
                )
                checked += 1
    return checked


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), nil=st.booleans())
def test_heuristic_keeps_every_duty_in_dealt_hands(seed: int, nil: bool) -> None:
    _check_hand("heuristic", seed, seed % 4 if nil else None)


@pytest.mark.parametrize("seed", range(6))
def test_expert_keeps_every_duty_in_dealt_hands(seed: int) -> None:
    # Six hands with a Nil, six without (at most 12 positions each: the expert searches).
    assert _check_hand("expert", seed, seed % 4, limit=12) + _check_hand("expert", seed, None, limit=12) > 0


def test_dealt_hands_meet_every_duty() -> None:
    """The generator is not vacuous: 40 hands give positions of every kind."""
    seen = dict.fromkeys(DUTIES, 0)
    for seed in range(40):
        for spot in spots(deal_hand(seed, seed % 4 if seed % 2 else None)):
            for duty, (applies, _kept) in DUTIES.items():
                seen[duty] += applies(spot)
    assert min(seen.values()) >= 3, seen


# ---------------------------------------------------------------------- constructed positions
@pytest.mark.parametrize("name", BOTS)
def test_trumps_to_save_partners_nil(name: str) -> None:
    # East leads 2C, South (Nil) had to play 9C, West 3C; North, void in clubs, trumps with a
    # small spade rather than leave South the trick.
    game = position(
        {0: "2S 3S AH KH QH AD KD QD JD TD 9D 8D 7D", 1: "2C 4C", 2: "9C", 3: "3C"},
        {1: 3, 2: "nil", 3: 3, 0: 5},
        ["2C", "9C", "3C"],
        first_dealer=0,
    )
    card, why = _play(name, game)
    assert card_text(card) in ("2S", "3S"), why


@pytest.mark.parametrize("name", BOTS)
def test_overtakes_partners_nil_from_third_seat(name: str) -> None:
    # South (Nil) leads 8H and nobody can be made to go over it but me: West plays 2H, North
    # overtakes with the jack or better (East may still beat it: that does South no harm).
    game = position(
        {2: "8H 2D 3D 4D 5D 2C 3C 4C 5C 6C 2S 3S 4S", 3: "2H", 0: "JH 3H AS KS", 1: "4H"},
        {0: 4, 1: 3, 2: "nil", 3: 3},
        ["8H", "2H"],
        first_dealer=1,
    )
    card, why = _play(name, game)
    assert card_text(card) == "JH", why


@pytest.mark.parametrize("name", BOTS)
def test_does_not_overtake_partners_king_with_my_ace(name: str) -> None:
    # South leads KH; West follows 4H; North holds AH 5H: the king is already the winner
    # (the ace is North's), so North plays the five and keeps the ace for a trick of its own.
    game = position(
        {2: "KH 9D 8D", 3: "4H", 0: "AH 5H AS KS QS JS AD KD QD AC KC QC JC", 1: "3H"},
        {0: 7, 1: 2, 2: 2, 3: 2},
        ["KH", "4H"],
        first_dealer=1,
    )
    card, why = _play(name, game)
    assert card_text(card) == "5H", why


@pytest.mark.parametrize("name", BOTS)
def test_does_not_trump_partners_trick_from_last_seat(name: str) -> None:
    # West leads 3D, North wins it so far with QD, East 4D; South, void in diamonds and
    # last to play, throws a club rather than trump his partner's trick.
    game = position(
        {3: "3D", 0: "QD", 1: "4D", 2: "2S 5S 9S 2C 3C 7C 8C AH KH QH JH TH 9H"},
        {3: 3, 0: 3, 1: 3, 2: 4},
        ["3D", "QD", "4D"],
        first_dealer=2,
    )
    card, why = _play(name, game)
    assert card_text(card)[1] != "S", why


@pytest.mark.parametrize("name", BOTS)
def test_ducks_when_both_contracts_are_made(name: str) -> None:
    # Every seat bid 1. North takes the first two tricks (AC, AD), West the next two (AH, KH):
    # both sides have made their contracts. West leads 9D, North 2D, East 3D; South, last,
    # holds high diamonds and low ones, and ducks: the trick would only be a bag.
    game = position(
        {0: "AC AD 2H 5H 2D", 1: "2C 5D 3H 6H 3D", 2: "3C 6D 4H 7H KD 4D", 3: "4C 7D AH KH 9D"},
        {0: 1, 1: 1, 2: 1, 3: 1},
        [
            *("AC", "2C", "3C", "4C", "AD", "5D", "6D", "7D"),
            *("2H", "3H", "4H", "AH", "KH", "5H", "6H", "7H", "9D", "2D", "3D"),
        ],
        first_dealer=3,
    )
    assert game.to_move == 2 and list(game.tricks_won) == [2, 0, 0, 2]
    card, why = _play(name, game)
    assert card_text(card) in ("4D", "8D"), why


def test_overtakes_partners_sure_trick_to_break_an_opponents_nil() -> None:
    """Two cards left (from an expert-heuristic game): North leads 4D, East trumps with QS,
    South (Nil, clean) follows 7D and keeps 8S. West holds AS and JC. Partner's queen wins
    whatever comes, but overtaking it with the ace is the play: West then leads the jack of
    clubs and South must ruff it. The duty leaves the choice to the search, which sees it."""
    game = position(
        {0: "4D 3D", 1: "QS 2C", 2: "7D 8S", 3: "AS JC"},
        {0: 2, 1: 2, 2: "nil", 3: 4},
        ["4D", "QS", "7D"],
        first_dealer=3,
    )
    obs = game.observation(3)
    legal = sum(1 << a.card for a in game.legal_actions(3) if isinstance(a, Play))
    assert partner_duty(obs, legal) == (legal, "")
    card, why = _play("expert", game)
    assert card_text(card) == "AS", why


def test_only_a_ruff_can_beat_partners_card_so_the_ace_is_kept() -> None:
    """The duty itself: partner's KH is beaten only by my AH or by a spade still to come (East
    may be void). A ruff would take my ace as well, so the ace is not played; with the QH led
    instead, the KH is unseen and the duty leaves every card to the search."""
    hands = {2: "KH QH 9D 8D", 3: "4H", 0: "AH 5H AS KS QS JS AD KD QD AC KC QC", 1: "3H"}
    game = position(hands, {0: 7, 1: 2, 2: 2, 3: 2}, ["KH", "4H"], first_dealer=1)
    obs = game.observation(0)
    legal = sum(1 << a.card for a in game.legal_actions(0) if isinstance(a, Play))
    kept, why = partner_duty(obs, legal)
    assert [card_text(c) for c in range(52) if kept >> c & 1] == ["5H"]
    assert why == "only a spade can beat partner's card, so I keep mine"
    hands = {2: "QH 9D 8D", 3: "4H", 0: "AH 5H AS KS QS JS AD KD QD AC KC QC JC", 1: "3H"}
    game = position(hands, {0: 7, 1: 2, 2: 2, 3: 2}, ["QH", "4H"], first_dealer=1)
    assert partner_duty(game.observation(0), legal) == (legal, "")


@pytest.mark.parametrize("name", BOTS)
def test_my_nil_ducks_with_its_highest_losing_card(name: str) -> None:
    # West leads 3H, North 6H, East KH; South (Nil) holds TH 8H 7H 5H 2H and no spade: every
    # heart of his loses to the king, and the ten is the one to shed (a search over deals in
    # full view once threw the five, kept the ten, and the Nil fell later).
    game = position(
        {
            0: "KS QS 9S 8S 4S AH 6H AD 6D AC QC TC 4C",
            1: "AS JS 7S 5S KH QH QD TD 5D 4D 2D 8C 2C",
            2: "TH 8H 7H 5H 2H JD 9D KC JC 9C 6C 5C 3C",
            3: "TS 6S 3S 2S JH 9H 4H 3H KD 8D 7D 3D 7C",
        },
        {0: 6, 1: 4, 2: "nil", 3: 2},
        ["3H", "6H", "KH"],
        first_dealer=2,
    )
    card, why = _play(name, game)
    assert card_text(card) == "TH", why


def test_the_nil_duty_leaves_discards_and_lost_tricks_to_the_search() -> None:
    """The duty itself: the highest heart under the one led goes; void in the suit led, unable
    to duck, or bidding a number, every legal card is left to the search."""

    def legal_of(game: Game) -> int:
        seat = game.to_move
        assert seat is not None
        return sum(1 << a.card for a in game.legal_actions(seat) if isinstance(a, Play))

    hands = {0: "5H 2S", 1: "9H 3H 2H 4D", 2: "KH 7S", 3: "TH 8S"}
    ruffed = position(hands, {0: 3, 1: "nil", 2: 3, 3: 3}, ["5H"], first_dealer=3)
    # North leads 5H; East (Nil) could duck with the 3H or 2H: the three goes.
    kept, why = nil_duty(ruffed.observation(1), legal_of(ruffed))
    assert [card_text(c) for c in range(52) if kept >> c & 1] == ["3H"]
    assert why == "my Nil ducks with its highest card that loses"
    no_diamond = {
        0: "5D 6D 7D 8D 9D TD JD QD KD AD 2S 5S 6S",
        1: "9H 3H 2H 4C 5C 6C 7C 8C 9C TC JC 3S 4S",
        2: "AH KH QH JH 4D 3D 2D 2C 3C QC KC AC 7S",
        3: "TH 8H 7H 6H 5H 4H 8S 9S TS JS QS KS AS",
    }
    void = position(no_diamond, {0: 3, 1: "nil", 2: 3, 3: 3}, ["5D"], first_dealer=3)
    assert nil_duty(void.observation(1), legal_of(void)) == (legal_of(void), "")
    high = position(
        {0: "2H 2S", 1: "9H 3H 4C", 2: "KH 7S", 3: "TH 8S"},
        {0: 3, 1: "nil", 2: 3, 3: 3},
        ["2H"],
        first_dealer=3,
    )
    assert legal_of(high) and nil_duty(high.observation(1), legal_of(high)) == (legal_of(high), "")
    number = position(hands, {0: 3, 1: 2, 2: 3, 3: 3}, ["5H"], first_dealer=3)
    assert nil_duty(number.observation(1), legal_of(number)) == (legal_of(number), "")
