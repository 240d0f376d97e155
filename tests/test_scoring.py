"""Scoring: every worked example of rules.md and the seeds, worked examples of the house rules
(big_bid, nil_tricks, three players), and an independent recomputation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spades.rules import PRESETS, Rules
from spades.scoring import HandScore, SeatBid, game_winner, score_hand

STD = PRESETS["standard"]
NIL, BLIND = SeatBid(0), SeatBid(0, True)


def team_hand(
    rules: Rules, ns: tuple[SeatBid, SeatBid], ns_tricks: tuple[int, int], bags: int = 0
) -> HandScore:
    """Score a hand where North/South bid ``ns`` and take ``ns_tricks``; East/West bid 1 each
    and take the rest between them (East takes it all)."""
    rest = 13 - sum(ns_tricks)
    bids = [ns[0], SeatBid(1), ns[1], SeatBid(1)]
    tricks = [ns_tricks[0], rest, ns_tricks[1], 0]
    return score_hand(rules, 0, bids, tricks, [0, 0], [bags, 0])


def test_bid_five_take_seven_is_52_and_two_bags() -> None:
    s = team_hand(STD, (SeatBid(2), SeatBid(3)), (4, 3))
    assert (s.points[0], s.bags[0], s.contracts[0]) == (52, 2, 5)


def test_bid_four_plus_three_take_five_is_minus_70() -> None:
    s = team_hand(STD, (SeatBid(4), SeatBid(3)), (3, 2))
    assert (s.points[0], s.bags[0]) == (-70, 0)


def test_bid_seven_take_seven_is_70_and_five_take_eight_is_53() -> None:
    assert team_hand(STD, (SeatBid(4), SeatBid(3)), (4, 3)).points[0] == 70
    assert team_hand(STD, (SeatBid(4), SeatBid(1)), (4, 4)).points[0] == 53


def test_eleven_bags_cost_100_and_one_carries() -> None:
    """Bid 4 take 7, then 3 take 6, then 4 take 9: 3 + 3 + 5 = 11 bags, the third hand scores
    45 - 100 = -55 and one bag carries on (North bids all but one, South bids 1 and takes 1)."""
    totals, bags = [0, 0], [0, 0]
    points = []
    for bid, took in ((4, 7), (3, 6), (4, 9)):
        bids = [SeatBid(bid - 1), SeatBid(1), SeatBid(1), SeatBid(1)]
        tricks = [took - 1, 13 - took, 1, 0]
        s = score_hand(STD, 0, bids, tricks, totals, bags)
        totals, bags = list(s.totals), list(s.bags)
        points.append(s.points[0])
    assert points == [43, 33, 45 - 100]
    assert (bags[0], totals[0]) == (1, 43 + 33 - 55)


def test_bags_reset_takes_the_count_to_zero_and_off_keeps_counting() -> None:
    hoyle = PRESETS["hoyle"]
    s = team_hand(hoyle, (SeatBid(1), SeatBid(1)), (7, 6), bags=8)  # 11 new bags: 19
    assert (s.points[0], s.bags[0], s.penalties[0]) == (20 + 11 - 100, 0, 1)
    carry = team_hand(STD, (SeatBid(1), SeatBid(1)), (7, 6), bags=8)
    assert (carry.points[0], carry.bags[0], carry.penalties[0]) == (20 + 11 - 100, 9, 1)
    off = team_hand(STD.replace(bags="off"), (SeatBid(1), SeatBid(1)), (7, 6), bags=8)
    assert (off.points[0], off.bags[0], off.penalties[0]) == (31, 19, 0)


def test_carry_can_cost_two_penalties_in_one_hand() -> None:
    s = team_hand(STD.replace(bag_limit=5), (SeatBid(1), SeatBid(1)), (7, 6), bags=0)  # 11 bags
    assert (s.points[0], s.bags[0], s.penalties[0]) == (31 - 200, 1, 2)


def test_nil_combinations() -> None:
    for (a, b), expected in [((0, 0), 200), ((1, 1), -200 + 2), ((0, 2), 0 + 2)]:
        s = team_hand(STD, (NIL, NIL), (a, b))
        assert s.points[0] == expected, (a, b)
        assert s.bags[0] == a + b


def test_blind_nil_combinations() -> None:
    for (a, b), expected in [((0, 0), 400), ((1, 2), -400 + 3), ((3, 0), 0 + 3)]:
        s = team_hand(STD, (BLIND, BLIND), (a, b))
        assert s.points[0] == expected, (a, b)


def test_failed_nil_tricks_are_bags_and_never_count_for_the_partner() -> None:
    # North bids 4 and takes 3; South's Nil takes 2: contract set (-40), Nil -100, 2 bags.
    s = team_hand(STD, (SeatBid(4), NIL), (3, 2))
    assert (s.points[0], s.bags[0], s.contracts[0]) == (-40 - 100 + 2, 2, 4)
    # The partner made it on his own: +40 and 1 bag, the failed Nil -100 and 2 bags.
    s = team_hand(STD, (SeatBid(4), NIL), (5, 2))
    assert (s.points[0], s.bags[0]) == (41 - 100 + 2, 3)


def test_set_penalty_zero() -> None:
    zero = STD.replace(set_penalty="zero")
    assert team_hand(zero, (SeatBid(4), SeatBid(3)), (3, 2)).points[0] == 0
    bicycle = PRESETS["bicycle"]
    s = score_hand(
        bicycle, 0, [SeatBid(4), SeatBid(5), SeatBid(1), SeatBid(2)], [3, 8, 1, 1], [0] * 4, [0] * 4
    )
    assert s.points == (0, 53, 10, 0)  # each player on his own: bid 4 took 3 scores 0
    assert s.bags == (0, 3, 0, 0)


def test_record_example_73_and_minus_97() -> None:
    bids = [SeatBid(3), NIL, SeatBid(4), BLIND]
    s = score_hand(STD, 3, bids, [4, 0, 6, 3], [0, 0], [0, 0])
    assert s.contracts == (7, 0)
    assert s.points == (73, -97)
    assert s.bags == (3, 3)
    assert s.totals == (73, -97)


def test_game_end_tie_means_another_hand_and_lose_at() -> None:
    assert game_winner(STD, [499, 100]) is None
    assert game_winner(STD, [500, 100]) == 0
    assert game_winner(STD, [520, 530]) == 1
    assert game_winner(STD, [520, 520]) is None
    assert game_winner(PRESETS["bicycle"], [510, 510, 100, 505]) is None
    assert game_winner(PRESETS["bicycle"], [510, 509, 100, 505]) == 0
    lose = STD.replace(lose_at=-200)
    assert game_winner(lose, [-200, 50]) == 1
    assert game_winner(lose, [-199, 50]) is None
    assert game_winner(STD.replace(target=200), [200, 0]) == 0


# ---------------------------------------------------------------------- house rules
def test_big_bid_ten_for_two_hundred() -> None:
    big = STD.replace(big_bid=10)
    made = team_hand(big, (SeatBid(6), SeatBid(4)), (6, 4))
    assert (made.points[0], made.bags[0], made.contracts[0]) == (200, 0, 10)
    over = team_hand(big, (SeatBid(6), SeatBid(4)), (7, 5))  # 12 of 13: two bags
    assert (over.points[0], over.bags[0]) == (202, 2)
    under_the_mark = team_hand(big, (SeatBid(5), SeatBid(4)), (6, 4))  # 9 bid: as usual
    assert (under_the_mark.points[0], under_the_mark.bags[0]) == (91, 1)
    assert team_hand(big, (SeatBid(6), SeatBid(4)), (5, 4)).points[0] == -100  # set: minus
    zero = big.replace(set_penalty="zero")
    assert team_hand(zero, (SeatBid(6), SeatBid(4)), (5, 4)).points[0] == 0
    twelve = STD.replace(big_bid=12)
    assert team_hand(twelve, (SeatBid(7), SeatBid(4)), (7, 4)).points[0] == 110  # 11 < 12
    assert team_hand(twelve, (SeatBid(8), SeatBid(4)), (8, 4)).points[0] == 240
    # Bags as usual: 10 bags in hand from before, the two overtricks cost the penalty.
    penalised = team_hand(big, (SeatBid(6), SeatBid(4)), (7, 5), bags=9)
    assert (penalised.points[0], penalised.bags[0], penalised.penalties[0]) == (202 - 100, 1, 1)


def test_big_bid_for_a_solo_player() -> None:
    solo = PRESETS["bicycle"].replace(big_bid=10)
    s = score_hand(
        solo, 0, [SeatBid(10), SeatBid(1), SeatBid(1), SeatBid(1)], [11, 1, 1, 0], [0] * 4, [0] * 4
    )
    assert s.points == (201, 10, 10, 0)
    assert s.bags == (1, 0, 0, 0)


def test_nil_tricks_partner_completes_the_contract() -> None:
    partner = STD.replace(nil_tricks="partner")
    # North bids 4 and takes 2, South's failed Nil takes 2: the contract is made, no bags.
    s = team_hand(partner, (SeatBid(4), NIL), (2, 2))
    assert (s.points[0], s.bags[0]) == (40 - 100, 0)
    # The same hand under rules.md: North is set, South's tricks are bags.
    s = team_hand(STD, (SeatBid(4), NIL), (2, 2))
    assert (s.points[0], s.bags[0]) == (-40 - 100 + 2, 2)
    # Tricks over the contract are bags as usual: 3 + 3 against 4.
    s = team_hand(partner, (SeatBid(4), NIL), (3, 3))
    assert (s.points[0], s.bags[0]) == (42 - 100, 2)
    # Still short with the Nil's tricks: set.
    s = team_hand(partner, (SeatBid(5), NIL), (2, 2))
    assert (s.points[0], s.bags[0]) == (-50 - 100, 0)
    # A Blind Nil's tricks go the same way; a made Nil takes nothing to give.
    s = team_hand(partner, (BLIND, SeatBid(3)), (1, 2))
    assert (s.points[0], s.bags[0]) == (30 - 200, 0)
    s = team_hand(partner, (NIL, SeatBid(3)), (0, 5))
    assert (s.points[0], s.bags[0]) == (32 + 100, 2)


def test_nil_tricks_partner_with_big_bid() -> None:
    both = STD.replace(nil_tricks="partner", big_bid=10)
    s = team_hand(both, (SeatBid(10), NIL), (8, 2))  # the Nil's 2 tricks complete the 10
    assert (s.points[0], s.bags[0]) == (200 - 100, 0)


def test_nil_tricks_partner_when_both_bid_nil() -> None:
    partner = STD.replace(nil_tricks="partner")
    for (a, b), expected in [((0, 0), 200), ((1, 1), -200 + 2), ((0, 2), 0 + 2)]:
        s = team_hand(partner, (NIL, NIL), (a, b))
        assert (s.points[0], s.bags[0], s.contracts[0]) == (expected, a + b, 0), (a, b)


def test_three_players_score_each_for_himself() -> None:
    three = PRESETS["cutthroat3"]
    s = score_hand(three, 2, [SeatBid(5), NIL, SeatBid(6)], [7, 0, 10], [0] * 3, [0] * 3)
    assert s.contracts == (5, 0, 6)
    assert s.points == (52, 100, 64)
    assert s.bags == (2, 0, 4)
    assert s.totals == (52, 100, 64)
    # 17 tricks: a bid of 17 made; a failed Blind Nil's tricks are his own bags.
    s = score_hand(three, 0, [SeatBid(17), SeatBid(0, True), SeatBid(1)], [16, 1, 0], [10, 0, 0], [9, 9, 0])
    assert s.points == (-170, -200 + 1 - 100, -10)
    assert s.bags == (9, 0, 0)
    assert s.totals == (-160, -299, -10)
    s = score_hand(three, 0, [SeatBid(17), NIL, NIL], [17, 0, 0], [0] * 3, [0] * 3)
    assert s.points == (170, 100, 100)


# ---------------------------------------------------------------------- an independent model
def reference_score(
    rules: Rules, bids: list[SeatBid], tricks: list[int], bags_before: list[int]
) -> tuple[list[int], list[int]]:
    """rules.md's scoring written from the text, seat by seat, with house-rules.md's
    ``big_bid`` and ``nil_tricks``, for comparison."""
    sides = [[0, 2], [1, 3]] if rules.teams else [[s] for s in range(rules.players)]
    points, bags = [], []
    for side, seats in enumerate(sides):
        number = [s for s in seats if bids[s].tricks > 0]
        contract = sum(bids[s].tricks for s in number)
        made = sum(tricks[s] for s in number)
        p, new_bags = 0, 0
        for s in seats:
            if bids[s].tricks == 0:
                bonus = rules.blind_nil_bonus if bids[s].blind else rules.nil_bonus
                p += bonus if tricks[s] == 0 else -bonus
                if contract and rules.nil_tricks == "partner":
                    made += tricks[s]
                else:
                    p, new_bags = p + tricks[s], new_bags + tricks[s]
        if contract:
            if made >= contract:
                per_trick = 20 if rules.big_bid is not None and contract >= rules.big_bid else 10
                p, new_bags = p + per_trick * contract + made - contract, new_bags + made - contract
            elif rules.set_penalty == "minus":
                p -= 10 * contract
        count = bags_before[side] + new_bags
        if rules.bags == "carry":
            while count >= rules.bag_limit:
                p, count = p - rules.bag_penalty, count - rules.bag_limit
        elif rules.bags == "reset" and count >= rules.bag_limit:
            p, count = p - rules.bag_penalty, 0
        points.append(p)
        bags.append(count)
    return points, bags


seat_bids = st.one_of(st.builds(SeatBid, st.integers(0, 17)), st.just(BLIND))


@st.composite
def deals_of_tricks(draw: st.DrawFn, players: int, total: int = 13) -> list[int]:
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=players - 1, max_size=players - 1)))
    edges = [0, *cuts, total]
    return [edges[i + 1] - edges[i] for i in range(players)]


@st.composite
def hands_to_score(draw: st.DrawFn) -> tuple[Rules, list[SeatBid], list[int]]:
    """A rule set (every side shape, the house rules' scoring options on or off), the bids and
    the tricks of one hand."""
    preset = draw(st.sampled_from(["standard", "hoyle", "bicycle", "cutthroat3", "suicide", "jokers"]))
    rules = PRESETS[preset].replace(
        bags=draw(st.sampled_from(["carry", "reset", "off"])),
        bag_limit=draw(st.integers(1, 15)),
        bag_penalty=draw(st.integers(0, 300)),
        set_penalty=draw(st.sampled_from(["minus", "zero"])),
        big_bid=draw(st.one_of(st.none(), st.integers(10, 13))),
    )
    if rules.teams:
        rules = rules.replace(nil_tricks=draw(st.sampled_from(["bags", "partner"])))
    n, size = rules.players, 17 if rules.players == 3 else 13
    bids = draw(st.lists(seat_bids.filter(lambda b: b.tricks <= size), min_size=n, max_size=n))
    return rules, bids, draw(deals_of_tricks(n, size))


@settings(max_examples=400, deadline=None)
@given(hand=hands_to_score(), bags=st.lists(st.integers(0, 30), min_size=4, max_size=4))
def test_score_hand_matches_the_reference(
    hand: tuple[Rules, list[SeatBid], list[int]], bags: list[int]
) -> None:
    rules, bids, tricks = hand
    sides = rules.sides
    s = score_hand(rules, 0, bids, tricks, [0] * sides, bags[:sides])
    points, new_bags = reference_score(rules, bids, tricks, bags[:sides])
    assert list(s.points) == points
    assert list(s.bags) == new_bags
    assert list(s.totals) == points
    assert list(s.tricks) == tricks
