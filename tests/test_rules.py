"""Rules as data: the presets of rules.md's table, overrides, and one-line errors naming the
option for every unknown name or out-of-range value."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades import record
from spades.bots.random import RandomBot
from spades.driver import play_game
from spades.errors import InvalidRecord, InvalidRules
from spades.legal import deck_of
from spades.rules import CHOICES, NULLABLE, PRESETS, RANGES, Rules, show
from spades.scoring import SeatBid, score_hand
from spades.state import Game


def test_presets_match_the_table() -> None:
    table = {
        "standard": dict(min_bid=0, nil_bonus=100, blind_nil=True, blind_nil_bonus=200, blind_nil_exchange=3,
                         set_penalty="minus", bags="carry", target=500, players=4, teams=True),
        "bicycle": dict(min_bid=1, blind_nil=False, set_penalty="zero", bags="carry", target=500, players=4,
                        teams=False),
        "hoyle": dict(min_bid=0, nil_bonus=100, blind_nil=True, blind_nil_bonus=200, blind_nil_exchange=0,
                      set_penalty="minus", bags="reset", target=500, players=4, teams=True),
        "two_player": dict(min_bid=0, nil_bonus=100, blind_nil=False, set_penalty="minus", bags="carry",
                           target=500, players=2, teams=False),
        # house-rules.md: the variants and their usual companions (lose_at -200 for the three
        # bidding systems)
        "suicide": dict(bidding="suicide", suicide_min=4, blind_nil=True, lose_at=-200, target=500,
                        teams=True),
        "whiz": dict(bidding="whiz", blind_nil=False, lose_at=-200, target=500, teams=True),
        "mirror": dict(bidding="mirror", blind_nil=False, lose_at=-200, target=500, teams=True),
        "jokers": dict(jokers="big_little", players=4, teams=True, bidding="free"),
        "cutthroat3": dict(players=3, teams=False, min_bid=0, blind_nil=True, jokers=None),
    }  # fmt: skip
    assert set(PRESETS) == set(table)
    for name, values in table.items():
        rules = PRESETS[name]
        for option, value in values.items():
            assert getattr(rules, option) == value, (name, option)
        common = (
            rules.first_dealer,
            rules.bag_limit,
            rules.bag_penalty,
            rules.blind_nil_behind,
            rules.lose_at,
        )
        if name in ("standard", "bicycle", "hoyle", "two_player"):  # rules.md: "In every preset"
            assert common == ("draw", 10, 100, None, None)
    assert Rules() == PRESETS["standard"] == Rules.from_spec(None) == Rules.from_spec("standard")


def test_overrides_and_record_form() -> None:
    r = Rules.from_spec({"preset": "hoyle", "target": 300, "lose_at": -200})
    assert (r.bags, r.target, r.lose_at) == ("reset", 300, -200)
    assert Rules.from_spec(r.to_spec()) == r
    assert PRESETS["bicycle"].to_spec() == "bicycle"
    assert Rules.from_spec({"target": 200}).to_spec() == {"preset": "standard", "target": 200}
    assert PRESETS["standard"].replace(first_dealer=2).first_dealer == 2


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"wildcards": True}, "unknown rule option 'wildcards'"),
        ("euchre", "unknown preset 'euchre'"),
        ({"preset": 4}, "preset must be a name"),
        (17, "rules must be a preset name or an object"),
        ({"players": 5}, "players"),
        ({"players": 3}, "teams"),
        ({"players": 2}, "teams"),
        ({"teams": "yes"}, "teams"),
        ({"target": 0}, "target"),
        ({"target": 2.5}, "target"),
        ({"target": True}, "target"),
        ({"min_bid": 2}, "min_bid"),
        ({"min_bid": 1}, "blind_nil"),
        ({"nil_bonus": "100"}, "nil_bonus"),
        ({"blind_nil": 1}, "blind_nil"),
        ({"blind_nil_bonus": None}, "blind_nil_bonus"),
        ({"blind_nil_exchange": -1}, "blind_nil_exchange"),
        ({"blind_nil_exchange": 14}, "blind_nil_exchange"),
        ({"blind_nil_behind": "100"}, "blind_nil_behind"),
        ({"set_penalty": "half"}, "set_penalty"),
        ({"bags": ["carry"]}, "bags"),
        ({"bag_limit": 0}, "bag_limit"),
        ({"bag_penalty": 1.0}, "bag_penalty"),
        ({"lose_at": 600}, "lose_at"),
        ({"lose_at": "-200"}, "lose_at"),
        ({"first_dealer": 4}, "first_dealer"),
        ({"first_dealer": "highest"}, "first_dealer"),
        ({"preset": "two_player", "first_dealer": 3}, "first_dealer"),
    ],
)
def test_bad_options_name_themselves(spec: Any, words: str) -> None:
    with pytest.raises(InvalidRules) as err:
        Rules.from_spec(spec)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_solo_and_two_player_sides() -> None:
    assert (
        PRESETS["standard"].sides == 2 and PRESETS["bicycle"].sides == 4 and PRESETS["two_player"].sides == 2
    )
    assert PRESETS["standard"].side_of(3) == 1 and PRESETS["bicycle"].side_of(3) == 3
    assert PRESETS["standard"].partner_of(1) == 3 and PRESETS["bicycle"].partner_of(1) is None


# ---------------------------------------------------------------------- option ranges
# Every whole-number option has an inclusive range in ``RANGES`` and every other option a
# short list in ``CHOICES``; a value outside is refused with a one-line message that names
# the option, shows the value short (a 4,300-digit number cannot even be printed by ``str``)
# and states what is allowed. See docs/rules-notes.md, "Option ranges".

# Huge numbers are built inside the strategies: hypothesis prints a strategy's repr (and
# so its constants), and a 4,300-digit int cannot be printed.
huge_ints = st.tuples(st.integers(18, 5100), st.booleans(), st.integers(-1, 1)).map(
    lambda t: (-1 if t[1] else 1) * 10 ** t[0] + t[2]
)


def assert_one_line_naming(err: InvalidRules, name: str) -> str:
    msg = str(err)
    assert len(msg.splitlines()) == 1 and "\n" not in msg, msg
    assert len(msg) < 200, msg
    assert f"rule option {name} = " in msg, msg
    return msg


def allowed(name: str, target: int = 500) -> tuple[int, int]:
    low, high = RANGES[name]
    return (low, min(high, target - 1)) if name == "lose_at" else (low, high)


@st.composite
def in_range_rules(draw: st.DrawFn) -> Rules:
    """Any combination of in-range values on any preset (the combinations rules.md forbids,
    such as Blind Nil with two players, are left as the preset has them)."""
    spec: dict[str, Any] = {"preset": draw(st.sampled_from(sorted(PRESETS)))}
    base = PRESETS[spec["preset"]]
    for name, (low, high) in RANGES.items():
        if name == "team_min_bid" and not (base.teams and base.bidding == "free"):
            continue  # a partnership minimum needs partnerships and free bidding
        if name in NULLABLE and draw(st.booleans()):
            spec[name] = None
        elif name != "lose_at":
            spec[name] = draw(st.integers(low, high))
    spec["lose_at"] = draw(st.none() | st.integers(*allowed("lose_at", spec["target"])))
    if draw(st.booleans()):
        spec["blind_nil_behind"] = None
    spec["set_penalty"] = draw(st.sampled_from(CHOICES["set_penalty"]))
    spec["bags"] = draw(st.sampled_from(CHOICES["bags"]))
    rules = Rules.from_spec(spec)
    for name, value in spec.items():
        if name != "preset":
            assert getattr(rules, name) == value, name
    return rules


def test_every_option_is_checked_as_data() -> None:
    """A new option must get a range or a list of choices: nothing goes unchecked."""
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert set(RANGES) | set(CHOICES) | {"first_dealer"} == fields
    assert not set(RANGES) & set(CHOICES) and set(RANGES) >= NULLABLE
    with pytest.raises(TypeError):
        RANGES["target"] = (1, 10**18)  # type: ignore[index]
    for name, preset_rules in PRESETS.items():
        assert Rules(**preset_rules.to_dict()) == preset_rules
        for option in RANGES:
            value = getattr(preset_rules, option)
            low, high = allowed(option, preset_rules.target)
            assert (value is None and option in NULLABLE) or low <= value <= high, (name, option)


@settings(max_examples=150, deadline=None)
@given(in_range_rules())
def test_in_range_values_are_accepted(rules: Rules) -> None:
    assert Rules.from_spec(rules.to_spec()) == rules
    assert Rules.from_spec(json.loads(json.dumps(rules.to_dict()))) == rules


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(sorted(RANGES)),
    st.one_of(st.integers(max_value=-2001), st.integers(min_value=4001), st.integers()),
    st.none() | st.tuples(st.integers(18, 5100), st.booleans()),
)
def test_out_of_range_whole_numbers_are_refused(name: str, value: int, huge: tuple[int, bool] | None) -> None:
    if huge is not None:  # 10**18 and up, to 5,100 digits, either sign
        value = (-1 if huge[1] else 1) * 10 ** huge[0] + value % 7
    spec = {"target": 2000} if name == "lose_at" else {}
    low, high = allowed(name, spec.get("target", 500))
    if low <= value <= high:
        Rules.from_spec({**spec, name: value})
        return
    with pytest.raises(InvalidRules) as err:
        Rules.from_spec({**spec, name: value})
    msg = assert_one_line_naming(err.value, name)
    assert f"a whole number {low}..{high}" in msg
    if abs(value) > 10**30:
        assert "digits" in msg and not re.search(r"\d{31}", msg)


@pytest.mark.parametrize("name", sorted(RANGES))
@pytest.mark.parametrize("value", [True, False, 3.0, 2.5, float("nan"), "3", "", [3], {"n": 3}])
def test_whole_number_options_refuse_other_types(name: str, value: Any) -> None:
    with pytest.raises(InvalidRules) as err:
        Rules.from_spec({name: value})
    assert_one_line_naming(err.value, name)


@pytest.mark.parametrize("name", sorted(RANGES))
def test_null_only_where_it_means_off(name: str) -> None:
    if name in NULLABLE:
        assert getattr(Rules.from_spec({name: None}), name) is None
    else:
        with pytest.raises(InvalidRules) as err:
            Rules.from_spec({name: None})
        assert_one_line_naming(err.value, name)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("players", 4.0), ("players", "4"), ("players", True), ("players", 5), ("players", 10**5000),
        ("teams", 1), ("teams", "true"), ("teams", None),
        ("min_bid", True), ("min_bid", 0.0), ("min_bid", "0"), ("min_bid", -(10**4301)),
        ("blind_nil", 0), ("blind_nil", "false"),
        ("set_penalty", "MINUS"), ("set_penalty", 0), ("set_penalty", "x" * 10_000),
        ("bags", ("carry",)), ("bags", None),
        ("first_dealer", True), ("first_dealer", False), ("first_dealer", 1.0), ("first_dealer", "1"),
        ("first_dealer", -1), ("first_dealer", 10**5000),
    ],
    ids=show,  # pytest's own ids would call str() on a 5,000-digit number
)  # fmt: skip
def test_other_options_refuse_wrong_types(name: str, value: Any) -> None:
    with pytest.raises(InvalidRules) as err:
        Rules.from_spec({name: value})
    assert_one_line_naming(err.value, name)


def test_huge_values_are_named_not_printed() -> None:
    with pytest.raises(InvalidRules) as err:
        Rules.from_spec({"nil_bonus": 10**4300})  # the number that killed a server table
    assert str(err.value) == "rule option nil_bonus = a number of 4301 digits: must be a whole number 0..1000"
    with pytest.raises(InvalidRules) as err:
        Rules.from_spec({"target": 10**18})
    assert str(err.value) == "rule option target = 1000000000000000000: must be a whole number 1..2000"
    with pytest.raises(InvalidRules) as err:
        Rules.from_spec({"target": 300, "lose_at": 300})
    assert str(err.value).endswith("must be null or a whole number -2000..299 (below the target)")
    for spec in (10**5000, {"preset": 10**5000}, {"x" * 5000: 1}, {"preset": "y\n" * 5000}):
        with pytest.raises(InvalidRules) as err:
            Rules.from_spec(spec)  # type: ignore[arg-type]
        assert len(str(err.value)) < 200 and len(str(err.value).splitlines()) == 1


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class _Multiline:
    def __repr__(self) -> str:
        return "one\ntwo\u2028three"


junk = st.recursive(
    st.one_of(
        st.integers(),
        huge_ints,
        st.floats(),
        st.text(),
        st.booleans(),
        st.none(),
        st.builds(_Unprintable),
        st.builds(_Multiline),
    ),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=5), inner, max_size=8),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(junk)
def test_show_is_short_one_line_and_never_raises(value: Any) -> None:
    text = show(value)
    assert 0 < len(text) <= 60 and len(text.splitlines()) == 1


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (10**4300, "a number of 4301 digits"),
        (10**4300 - 1, "a number of 4300 digits"),
        (-(10**4300), "a negative number of 4301 digits"),
        (2**100, "a number of 31 digits"),
        (10**30 - 1, "9" * 30),
        (-5, "-5"),
        ([10**5000], "[a number of 5001 digits]"),
        ("3", "'3'"),
    ],
    ids=show,
)
def test_show_examples(value: Any, shown: str) -> None:
    assert show(value) == shown


def test_records_refuse_out_of_range_rules() -> None:
    """A record is a door too: its ``rules`` go through the same check (here the JSON text
    holds a 4,300-digit number, the most Python's JSON reader accepts)."""
    huge = '{"nil_bonus": 1' + "0" * 4299 + "}"
    for rules_text, name in (('{"target": 1000000000000000000}', "target"), (huge, "nil_bonus")):
        with pytest.raises(InvalidRecord) as err:
            record.loads('{"format": "spades-record/1", "rules": ' + rules_text + ', "hands": []}')
        msg = str(err.value)
        assert name in msg and len(msg) < 200 and "\n" not in msg, msg


def hand_swing(rules: Rules) -> int:
    """Most points one hand can add to or take from a side's total: a set contract of 26
    (two bids of 13), thirteen bags, two Blind Nils (or Nils) and thirteen bag penalties
    (``carry`` with a limit of 1 and 13 bags); the terms cannot all happen at once, so this
    bounds the truth from above. At the widest ranges it is 30,273 points. (With three
    players, 17 tricks; with ``big_bid``, 20 a trick.)"""
    size = deck_of(rules).hand_size
    per_trick = 10 if rules.big_bid is None else 20
    return (
        per_trick * 2 * size
        + size
        + 2 * max(rules.nil_bonus, rules.blind_nil_bonus)
        + size * rules.bag_penalty
    )


def test_hand_swing_at_the_widest_ranges() -> None:
    widest = Rules(nil_bonus=RANGES["nil_bonus"][1], blind_nil_bonus=RANGES["blind_nil_bonus"][1],
                   bag_penalty=RANGES["bag_penalty"][1])  # fmt: skip
    assert hand_swing(widest) == 30_273  # a 300-hand game moves a total by under 10**7


@settings(max_examples=300, deadline=None)
@given(in_range_rules(), st.data())
def test_one_hand_moves_a_total_by_at_most_the_swing(rules: Rules, data: st.DataObject) -> None:
    n = rules.players
    size = deck_of(rules).hand_size
    winners = data.draw(st.lists(st.integers(0, n - 1), min_size=size, max_size=size))
    tricks = [winners.count(s) for s in range(n)]
    bids = []
    for _ in range(n):
        number = data.draw(st.integers(rules.min_bid, size))
        bids.append(SeatBid(number, blind=number == 0 and rules.blind_nil and data.draw(st.booleans())))
    # Between hands a side's count is below the limit, except with bags "off" (no penalty).
    top = 10_000 if rules.bags == "off" else rules.bag_limit - 1
    bags_before = data.draw(st.lists(st.integers(0, top), min_size=rules.sides, max_size=rules.sides))
    totals_before = [0] * rules.sides
    score = score_hand(rules, 0, bids, tricks, totals_before, bags_before)
    assert all(abs(p) <= hand_swing(rules) for p in score.points), score


EXTREMES: dict[str, tuple[str, dict[str, Any]]] = {
    # Big swings both ways, every card exchanged after a Blind Nil, Blind Nil always allowed.
    "big_bonuses": ("standard", dict(nil_bonus=1000, blind_nil_bonus=2000, blind_nil_exchange=13,
                                     blind_nil_behind=0, bag_limit=100, bag_penalty=0)),
    # Blind Nil only for a side 4,000 behind: in practice never.
    "no_blind_nil": ("hoyle", dict(blind_nil_behind=4000, nil_bonus=0, bag_penalty=2000, bag_limit=1)),
    # Totals can only rise: no set penalty, no bag penalty, Nil worth nothing. The slowest.
    "only_gains_teams": ("standard", dict(set_penalty="zero", nil_bonus=0, blind_nil_bonus=0,
                                          bag_penalty=0, bags="off")),
    "only_gains_solo": ("bicycle", dict(bag_penalty=0, bag_limit=100)),
    "only_gains_two": ("two_player", dict(set_penalty="zero", nil_bonus=0, bags="off")),
    "hoyle_rising_nils": ("hoyle", dict(set_penalty="zero", nil_bonus=1000, blind_nil_bonus=2000,
                                        bag_penalty=0)),
}  # fmt: skip
MAX_HANDS = 600


@pytest.mark.parametrize("name", sorted(EXTREMES))
def test_random_bot_games_end_under_extreme_settings(name: str) -> None:
    """Seeded games of ``random`` bots with target 2000 and ``lose_at`` -2000, the widest
    span the ranges allow, end within ``MAX_HANDS`` hands, and no hand moves a total by more
    than ``hand_swing``.

    The bound is not a theorem: Spades has no last hand, and a side that is always set never
    reaches any target (without ``lose_at``, random bots in the standard preset never end:
    they lose ~280 points a hand). With ``lose_at`` set, every total starts 2,000 points from
    an end. Where any loss is possible (a set, a failed Nil, a bag penalty) random bots lose
    hundreds of points a hand and hit -2000 within a few hands. Where totals can only rise
    (``only_gains_*``: set_penalty zero, no Nil or bag penalty) a random side gains about
    7-10 points a hand (a made contract is worth 10 a trick bid, a bag 1), so 2000 takes
    roughly 200-300 hands (measured: 210-280 with 4 players, 80-105 with 2). 600 hands is
    twice the slowest seen; the seeds are fixed, so the test is deterministic."""
    preset_name, overrides = EXTREMES[name]
    rules = PRESETS[preset_name].replace(target=2000, lose_at=-2000, **overrides)
    swing = hand_swing(rules)
    for seed in range(2):
        bots = [RandomBot(seed=seed * 10 + s) for s in range(rules.players)]
        game = play_game(Game(rules, seed=seed), bots, max_hands=MAX_HANDS)
        assert game.is_over, (name, seed, len(game.scores), game.scores[-1].totals)
        assert all(abs(p) <= swing for hand in game.scores for p in hand.points)


def test_the_docs_table_is_the_ranges() -> None:
    """docs/rules-notes.md's "Option ranges" table shows exactly ``RANGES``."""
    text = (Path(__file__).parents[1] / "docs" / "rules-notes.md").read_text(encoding="utf-8")
    section = text.split("## Option ranges", 1)[1]
    rows = re.findall(r"^\| `(\w+)` \| (null or )?(-?[\d,]+)\.\.(-?[\d,]+)", section, re.MULTILINE)
    documented = {name: (int(lo.replace(",", "")), int(hi.replace(",", ""))) for name, _, lo, hi in rows}
    assert documented == dict(RANGES)
    assert {name for name, null, _, _ in rows if null} == NULLABLE
