"""Soft facts from plays (``spades.bots.inference``): what a fourth hand's duck or cheap win
says about his cards, held against the heuristic (which always wins a trick it needs when it
is last, and with its cheapest winner) and against constructed tricks."""

from __future__ import annotations

import random

import pytest

from spades.actions import Bid, Play
from spades.bots import make_bot
from spades.bots.expert import ExpertBot, bid_guess
from spades.bots.inference import DISCARD, LAST, LOW, NIL_DUCK, THIRD, clues, weight
from spades.bots.sampling import Knowledge
from spades.cards import parse_card
from spades.driver import apply_decision
from spades.errors import SpadesError
from spades.observation import Observation
from spades.rules import Rules
from spades.state import Game, Phase

NO_BLIND = Rules.from_spec({"blind_nil": False})


def _hands_now(g: Game) -> list[int]:
    return [sum(1 << c for c in g.hand_of(s)) for s in range(4)]


def test_the_heuristic_never_breaks_a_fourth_hand_or_nil_clue() -> None:
    """A heuristic fourth hand whose side needs tricks wins when it can, with its cheapest
    winner, a heuristic Nil ducks with its highest losing card, and a heuristic that needs
    tricks loses and throws with the lowest card of the suit: the true deal never holds a
    card a ``LAST``, ``NIL_DUCK``, ``LOW`` or ``DISCARD`` clue calls unlikely."""
    seen = {LAST: 0, NIL_DUCK: 0, LOW: 0, DISCARD: 0}
    for seed in range(8):
        g = Game(NO_BLIND, seed=seed)
        bots = [make_bot("heuristic", seed=seed * 4 + s) for s in range(4)]
        while not g.scores:
            if g.phase is Phase.DEAL:
                g.deal()
                continue
            seat = g.to_move
            assert seat is not None
            obs = g.observation(seat)
            if obs.phase == "play" and not obs.trick and obs.tricks:
                hands = _hands_now(g)
                for cl in clues(obs, low=True):
                    assert cl.seat != seat
                    if cl.factor in seen:
                        seen[cl.factor] += 1
                        assert weight([cl], hands) == 1.0, cl
            apply_decision(g, seat, bots[seat].decide(obs, g.legal_actions(seat)).action)
    assert all(n > 0 for n in seen.values()), seen


def _one_trick(texts: tuple[str, str, str, str], bids: tuple[int, int, int, int] = (3, 3, 3, 3)) -> Game:
    """Every seat bids 3 (or ``bids``); North (the dealer's left) leads the first card, East,
    South and West follow with the others."""
    g = Game(NO_BLIND, seed=1, first_dealer=3, auto_deal=False)
    want = [parse_card(x) for x in texts]
    rest = [c for c in range(52) if c not in want]
    g.deal([(1 << want[s]) | sum(1 << c for c in rest[12 * s : 12 * s + 12]) for s in range(4)])
    for b in bids:
        seat = g.to_move
        assert seat is not None
        g.apply(Bid(b), seat)
    for s, c in enumerate(want):
        g.apply(Play(c), s)
    return g


def _mask(*texts: str) -> int:
    return sum(1 << parse_card(t) for t in texts)


def test_a_fourth_hand_that_ducks_an_opponent_is_read_as_holding_nothing_higher() -> None:
    """North 9H, East 2H, South KH, West 3H: West, last and needing tricks, let South's king
    win: he is unlikely to hold the AH (the only heart above it)."""
    obs = _one_trick(("9H", "2H", "KH", "3H")).observation(0)
    found = clues(obs)
    assert [(cl.seat, cl.mask, cl.factor) for cl in found] == [(3, _mask("AH"), LAST)]
    ace = _mask("AH")
    assert weight(found, [0, 0, 0, ace]) == LAST
    assert weight(found, [0, ace, 0, 0]) == 1.0


def test_a_fourth_hand_that_wins_high_is_read_as_holding_no_cheaper_winner() -> None:
    """North 9H, East 2H, South 3H, West AH: West would have won with a cheaper heart above
    the nine; the KH, touching his ace, is worth the same and says nothing."""
    found = clues(_one_trick(("9H", "2H", "3H", "AH")).observation(1))
    assert [(cl.seat, cl.mask, cl.factor) for cl in found] == [(3, _mask("TH", "JH", "QH"), LAST)]


def test_a_third_hand_that_ducks_while_partner_loses_is_read_mildly() -> None:
    """North 9H, East KH, South 2H: South, his partner losing to the king, played low."""
    found = clues(_one_trick(("9H", "KH", "2H", "3H")).observation(0))
    assert (2, _mask("AH"), THIRD) in [(cl.seat, cl.mask, cl.factor) for cl in found]
    assert all(cl.seat != 1 for cl in found)  # the second hand is not read
    assert all(cl.seat != 0 for cl in found)  # nor the observer himself


def test_a_live_nil_that_ducks_is_read_as_holding_nothing_between() -> None:
    """East bid Nil. North KH, East 9H, South 2H, West 3H: East would have ducked with the
    TH, JH or QH had he held one; the AH (he could not duck with it) and the low hearts are
    not read. North 9H, East KH: unable to duck, with two seats still to play, he plays his
    lowest heart, so he held none below the king."""
    found = clues(_one_trick(("KH", "9H", "2H", "3H"), bids=(3, 0, 3, 3)).observation(0))
    assert [(cl.seat, cl.mask, cl.factor) for cl in found] == [(1, _mask("TH", "JH", "QH"), NIL_DUCK)]
    assert weight(found, [0, _mask("AH", "8H"), 0, 0]) == 1.0
    assert weight(found, [0, _mask("JH"), 0, 0]) == NIL_DUCK
    over = clues(_one_trick(("9H", "KH", "2H", "3H"), bids=(3, 0, 3, 3)).observation(0))
    low = _mask("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH")
    assert [(cl.seat, cl.mask, cl.factor) for cl in over if cl.seat == 1] == [(1, low, NIL_DUCK)]


def test_a_losing_card_of_a_player_who_needs_tricks_is_read_as_his_lowest() -> None:
    """North 9H, East 6H, South 2H, West 3H: East, needing tricks and beaten by the nine,
    would have played a lower heart: the 4H and 5H are unlikely in his hand (the 2H and 3H
    went to this trick). West, last, is read as before."""
    found = clues(_one_trick(("9H", "6H", "2H", "3H")).observation(0), low=True)
    assert [(cl.seat, cl.mask, cl.factor) for cl in found] == [
        (1, _mask("4H", "5H"), LOW),
        (3, _mask("TH", "JH", "QH", "KH", "AH"), LAST),
    ]
    assert clues(_one_trick(("9H", "6H", "2H", "3H")).observation(0)) == found[1:]


def _suits_deal(bids: tuple[int, int, int, int]) -> Game:
    """North holds the hearts, East the clubs, South the diamonds, West the spades; North
    leads the 9H, East throws the 7C, South the 5D, West ruffs with the 2S."""
    g = Game(NO_BLIND, seed=1, first_dealer=3, auto_deal=False)
    g.deal([sum(1 << (13 * suit + r) for r in range(13)) for suit in (1, 3, 2, 0)])
    for b in bids:
        seat = g.to_move
        assert seat is not None
        g.apply(Bid(b), seat)
    for s, text in enumerate(("9H", "7C", "5D", "2S")):
        g.apply(Play(parse_card(text)), s)
    return g


def test_a_throw_is_read_as_the_lowest_of_its_suit_and_a_ruff_is_not() -> None:
    found = clues(_suits_deal((3, 3, 3, 3)).observation(0), low=True)
    assert [(cl.seat, cl.mask, cl.factor) for cl in found] == [
        (1, _mask("2C", "3C", "4C", "5C", "6C"), DISCARD),
        (2, _mask("2D", "3D", "4D"), DISCARD),
    ]


def test_no_low_read_against_a_live_nil() -> None:
    """East bids Nil: North and South may stay as high under the winner as they can to press
    him, and West covers him, so none of their losing cards or throws is read as a low one."""
    nil = clues(_suits_deal((3, 0, 3, 3)).observation(0), low=True)
    assert all(cl.factor not in (LOW, DISCARD) for cl in nil), nil
    g = _one_trick(("9H", "6H", "2H", "3H"), bids=(3, 0, 3, 3))
    assert all(cl.factor != LOW for cl in clues(g.observation(0), low=True))


def test_expert_settings_for_inference_contest_and_shade() -> None:
    bot = make_bot("expert:infer=false,contest=false,bid_shade=0.5,samples=8", seed=1)
    assert (bot.infer, bot.contest, bot.bid_shade) == (False, False, 0.5)  # type: ignore[attr-defined]
    assert make_bot("expert:samples=8", seed=1).read_low is False  # type: ignore[attr-defined]
    assert make_bot("expert:read_low=true,samples=8", seed=1).read_low is True  # type: ignore[attr-defined]


def _after_bids(bids: tuple[int, int, int, int]) -> Game:
    """A fresh deal (seed 3), North to bid first, the four bids made, no card played."""
    g = Game(NO_BLIND, seed=3, first_dealer=3)
    for b in bids:
        seat = g.to_move
        assert seat is not None
        g.apply(Bid(b), seat)
    return g


def _weighted(bot_spec: str, obs: Observation) -> list[list[int]]:
    """600 deals as the expert ``bot_spec`` samples and weights them for ``obs``."""
    bot = make_bot(bot_spec, seed=5)
    assert isinstance(bot, ExpertBot)
    return bot._weighted_deals(obs, Knowledge.of(obs), 600, random.Random(11))


def _mean_guess(bot_spec: str, obs: Observation, seat: int) -> float:
    """The mean bid ``bid_guess`` gives ``seat``'s sampled hands over 600 weighted deals."""
    deals = _weighted(bot_spec, obs)
    return sum(bid_guess(d[seat], 4) for d in deals) / len(deals)


def test_bid_trust_loosens_only_the_opponents_bids() -> None:
    """East (an opponent of North) bids 7 and South (North's partner) bids 7: trusted fully,
    both are given strong hands; at ``bid_trust=0`` East's are not (only South's bid, which
    takes high cards away from him, moves them), while South's are still read from his bid."""
    obs = _after_bids((3, 7, 7, 1)).observation(0)
    full = _mean_guess("expert:samples=8,bid_trust=1", obs, 1)
    half = _mean_guess("expert:samples=8,bid_trust=0.5", obs, 1)
    none = _mean_guess("expert:samples=8,bid_trust=0", obs, 1)
    plain = _mean_guess("expert:samples=8,overdraw=1", obs, 1)
    assert full > half > none
    assert full > plain + 0.8 and none < plain
    partner_none = _mean_guess("expert:samples=8,bid_trust=0", obs, 2)
    partner_plain = _mean_guess("expert:samples=8,overdraw=1", obs, 2)
    assert partner_none > partner_plain + 0.8


def test_bid_trust_is_a_checked_setting() -> None:
    assert make_bot("expert:bid_trust=0.6,samples=8", seed=1).bid_trust == 0.6  # type: ignore[attr-defined]
    assert make_bot("expert:nil_trust=0.2,samples=8", seed=1).nil_trust == 0.2  # type: ignore[attr-defined]
    with pytest.raises(SpadesError, match="bid_trust"):
        make_bot("expert:bid_trust=1.5", seed=1)


def test_nil_trust_loosens_an_opponents_nil_apart_from_numbers() -> None:
    """East bids Nil: trusted (``nil_trust=1``, whatever ``bid_trust`` is) he is dealt fewer
    high cards than at ``nil_trust=0``."""
    obs = _after_bids((3, 0, 4, 3)).observation(0)
    high = sum(1 << (13 * u + r) for u in range(4) for r in (11, 12))  # kings and aces

    def highs(spec: str) -> float:
        deals = _weighted(spec, obs)
        return sum((d[1] & high).bit_count() for d in deals) / len(deals)

    trusted = highs("expert:samples=8,bid_trust=0,nil_trust=1")
    loose = highs("expert:samples=8,bid_trust=1,nil_trust=0")
    assert trusted + 0.3 < loose
