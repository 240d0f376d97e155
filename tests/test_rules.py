"""Rules as data: the presets of rules.md's table, overrides, and one-line errors naming the
option for every unknown name or out-of-range value."""

from __future__ import annotations

from typing import Any

import pytest

from spades.errors import InvalidRules
from spades.rules import PRESETS, Rules


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
        ({"jokers": True}, "unknown rule option 'jokers'"),
        ("euchre", "unknown preset 'euchre'"),
        ({"preset": 4}, "preset must be a name"),
        (17, "rules must be a preset name or an object"),
        ({"players": 3}, "players"),
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
