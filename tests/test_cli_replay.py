"""``spades replay``: golden records byte for byte, and every record error of record.md: exit
status 1, nothing on stdout, one line on stderr naming where, who, what and the rule."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spades import Game, Rules, record
from spades.cards import CardSet, card_text, parse_card
from spades.cli import main
from spades.errors import InvalidRecord
from spades.report import describe
from spades.state import seat_name

GOLDEN = Path(__file__).parent / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------- golden records
@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden_json_byte_for_byte(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--json", str(path))
    assert (code, err) == (0, "")
    assert out.encode() == path.with_suffix(".expected.json").read_bytes()


def test_golden_set_covers_presets_blind_nil_and_the_stock() -> None:
    names = {p.stem for p in RECORDS}
    assert {"standard_full", "bicycle_full", "hoyle_full", "two_player_stock", "blind_nil_exchange"} <= names
    two = json.loads((GOLDEN / "two_player_stock.json").read_text())
    assert all("stock" in h for h in two["hands"])
    ex = json.loads((GOLDEN / "blind_nil_exchange.json").read_text())
    assert any(h.get("exchange") for h in ex["hands"])


def test_record_md_example() -> None:
    summary = json.loads((GOLDEN / "record_example.expected.json").read_text())
    assert summary == {
        "hands": [
            {
                "dealer": 3,
                "tricks": [4, 0, 6, 3],
                "contracts": [7, 0],
                "points": [73, -97],
                "bags": [3, 3],
                "totals": [73, -97],
                "complete": True,
            }
        ],
        "totals": [73, -97],
        "winner": None,
    }


def test_readable_replay_and_score_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(GOLDEN / "record_example.json"))
    assert (code, err) == (0, "")
    assert "Bids: Ann 3, Bot (expert) Nil, Cal 4, Bot (expert) Blind Nil" in out
    assert out.count("  Trick ") == 13
    sheet = [line for line in out.splitlines() if line.startswith("  hand") or line.startswith("     1")]
    assert sheet[1].split() == ["1", "+73", "(73,", "bags", "3)", "-97", "(-97,", "bags", "3)"]
    header, row = sheet
    assert len(header) == len(row)  # columns line up


def test_subprocess_error_has_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "spades", "replay", str(bad)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "unreadable JSON at line 1, column 2" in proc.stderr


# ---------------------------------------------------------------------- record errors
def base_record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / "standard_full.json").read_text())
    return data


def expect_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Any, *parts: str, raw: str | None = None
) -> str:
    path = tmp_path / "r.json"
    path.write_text(raw if raw is not None else json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "--json", str(path))
    assert code == 1
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    for part in parts:
        assert part in err, (part, err)
    return err


def find_violation(data: dict[str, Any], want_hand: int | None = None) -> tuple[int, int, int, int, int]:
    """A play in the record where a seat followed suit although it held a card of another
    suit: (hand index, play index, seat, the other card, the led suit)."""
    rules = Rules.from_spec(data["rules"])
    n = rules.players
    for hi, hand in enumerate(data["hands"]):
        if want_hand is not None and hi != want_hand:
            continue
        held = [set(CardSet.parse(d)) for d in hand["deal"]]
        for ex in hand.get("exchange", []):
            cards = {parse_card(c) for c in ex["cards"]}
            held[ex["from"]] -= cards
            held[ex["to"]] |= cards
        plays = [parse_card(c) for c in hand["play"]]
        leader = (data["first_dealer"] + hi + 1) % n
        for t in range(13):
            trick = plays[t * n : (t + 1) * n]
            lead = trick[0] // 13
            for k in range(1, n):
                seat = (leader + k) % n
                off = [c for c in held[seat] if c // 13 != lead]
                if trick[k] // 13 == lead and off:
                    return hi, t * n + k, seat, off[0], lead
            for k in range(n):
                held[(leader + k) % n].discard(trick[k])
            spades = [c for c in trick if c < 13]
            pool = spades or [c for c in trick if c // 13 == lead]
            leader = (leader + trick.index(max(pool))) % n
    raise AssertionError("no place to break the rules")


SUITS = ("spades", "hearts", "diamonds", "clubs")


def test_must_follow_suit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = base_record()
    hi, pi, seat, card, lead = find_violation(data, want_hand=1)
    data["hands"][hi]["play"][pi] = card_text(card)
    expect_error(
        capsys,
        tmp_path,
        data,
        f"hand {hi + 1}, trick {pi // 4 + 1}: {seat_name(seat)} played {card_text(card)} "
        f"but holds {SUITS[lead]} and must follow suit",
    )


def test_card_not_held_and_unknown_card_in_play(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = base_record()
    first = data["hands"][0]
    leader = (data["first_dealer"] + 1) % 4
    other = CardSet.parse(first["deal"][(leader + 1) % 4])
    stolen = next(iter(other))
    first["play"][0] = card_text(stolen)
    expect_error(
        capsys,
        tmp_path,
        data,
        f"hand 1, trick 1: {seat_name(leader)} played {card_text(stolen)} but does not hold it",
    )
    data = base_record()
    data["hands"][0]["play"][5] = "1X"
    expect_error(capsys, tmp_path, data, "hand 1, trick 2", "unknown card '1X'")


def test_spades_not_broken(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = base_record()
    first = data["hands"][0]
    leader = (data["first_dealer"] + 1) % 4
    hand = CardSet.parse(first["deal"][leader])
    spade = next(c for c in hand if c < 13)
    first["play"][0] = card_text(spade)
    expect_error(
        capsys,
        tmp_path,
        data,
        f"hand 1, trick 1: {seat_name(leader)} led {card_text(spade)} but spades are not broken",
    )


def test_deal_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = base_record()
    deal = data["hands"][1]["deal"]
    deal[0] = deal[0].replace(deal[0].split()[0], deal[1].split()[0])
    expect_error(capsys, tmp_path, data, "hand 2", "dealt twice")
    data = base_record()
    data["hands"][0]["deal"][2] = " ".join(data["hands"][0]["deal"][2].split()[:12])
    expect_error(capsys, tmp_path, data, "hand 1: South was dealt 12 cards, not 13")
    data = base_record()
    data["hands"][0]["deal"][3] = data["hands"][0]["deal"][3] + " ZZ"
    expect_error(capsys, tmp_path, data, "hand 1, West's deal", "unknown card 'ZZ'")
    data = base_record()
    data["hands"][0]["deal"] = data["hands"][0]["deal"][:3]
    expect_error(capsys, tmp_path, data, "hand 1: deal must list 4 hands")


def test_bid_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = base_record()
    data["hands"][0]["bids"][1] = 14
    expect_error(capsys, tmp_path, data, "hand 1, bid: East bid 14")
    data = base_record()
    data["hands"][0]["bids"][2] = "lots"
    expect_error(capsys, tmp_path, data, "hand 1, bid: South bid 'lots'")
    bicycle = json.loads((GOLDEN / "bicycle_full.json").read_text())
    bicycle["hands"][0]["bids"][0] = 0
    expect_error(capsys, tmp_path, bicycle, "hand 1, bid: North bid nil but the lowest bid is 1 (min_bid)")
    bicycle = json.loads((GOLDEN / "bicycle_full.json").read_text())
    bicycle["hands"][0]["bids"][3] = "blind_nil"
    expect_error(capsys, tmp_path, bicycle, "hand 1, bid: West bid blind_nil", "(blind_nil)")
    data = base_record()
    data["hands"][0]["bids"][1] = None
    expect_error(capsys, tmp_path, data, "hand 1, bid: East has no bid")


def test_zero_means_nil(tmp_path: Path) -> None:
    data = json.loads((GOLDEN / "record_example.json").read_text())
    data["hands"][0]["bids"][1] = 0
    assert record.summary(record.replay(data).game)["totals"] == [73, -97]


def test_exchange_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = json.loads((GOLDEN / "record_example.json").read_text())
    data = copy.deepcopy(good)
    data["hands"][0]["exchange"][0]["cards"] = data["hands"][0]["exchange"][0]["cards"][:2]
    expect_error(capsys, tmp_path, data, "hand 1, exchange: East passed 2 cards but must pass 3")
    data = copy.deepcopy(good)
    data["hands"][0]["exchange"].reverse()  # the Blind Nil bidder may not pass first
    expect_error(
        capsys, tmp_path, data, "hand 1, exchange: West passed to East but East must pass to West first"
    )
    data = copy.deepcopy(good)
    west = CardSet.parse(data["hands"][0]["deal"][3])
    data["hands"][0]["exchange"][0]["cards"] = [card_text(c) for c in list(west)[:3]]
    expect_error(capsys, tmp_path, data, "hand 1, exchange: East passed", "which he does not hold")
    data = base_record()
    data["hands"][0]["exchange"] = [{"from": 0, "to": 2, "cards": ["2C", "3C", "4C"]}]
    expect_error(capsys, tmp_path, data, "hand 1, exchange: 1 passes but the bids call for 0")
    data = copy.deepcopy(good)
    data["hands"][0]["exchange"][0]["from"] = "East"
    expect_error(capsys, tmp_path, data, "hand 1, exchange: a pass from 'East' to 3 names no seats")


def test_rules_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for rules, parts in [
        ({"preset": "standard", "wildcards": True}, ["unknown rule option 'wildcards'"]),
        ("canasta", ["unknown preset 'canasta'"]),
        ({"target": "500"}, ["target", "whole number"]),
        ({"blind_nil_exchange": 14}, ["blind_nil_exchange", "0..13"]),
        ({"players": 5}, ["players", "4, 2 or 3"]),
        ({"bags": "sometimes"}, ["bags", "'carry', 'reset' or 'off'"]),
        ({"set_penalty": None}, ["set_penalty"]),
        ({"min_bid": 2}, ["min_bid", "0 or 1"]),
        ({"first_dealer": "east"}, ["first_dealer"]),
        ({"lose_at": "never"}, ["lose_at"]),
        ({"blind_nil_behind": True}, ["blind_nil_behind"]),
        ([1, 2], ["rules must be a preset name or an object"]),
    ]:
        data = base_record()
        data["rules"] = rules
        expect_error(capsys, tmp_path, data, *parts)


def test_wrong_types_and_shapes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    expect_error(capsys, tmp_path, None, "unreadable JSON at line 2, column 1", raw="{\n")
    expect_error(capsys, tmp_path, [1, 2], "a record must be a JSON object")
    for key, value, part in [
        ("hands", {"a": 1}, "hands must be a list"),
        ("players", "Ann", "players must be a list of 4 names"),
        ("first_dealer", "North", "first_dealer 'North' is not a seat 0..3"),
        ("format", "spades-record/9", "unknown record format"),
    ]:
        data = base_record()
        data[key] = value
        expect_error(capsys, tmp_path, data, part)
    data = base_record()
    data["hands"][0]["play"] = "AS KS"
    expect_error(capsys, tmp_path, data, "hand 1: play must be a list of cards")
    data = base_record()
    data["hands"][0]["play"].append("2C")
    expect_error(capsys, tmp_path, data, "hand 1, trick 14", "more than 52 cards played")
    data = base_record()
    data["hands"][0]["play"] = data["hands"][0]["play"][:40]
    expect_error(capsys, tmp_path, data, "hand 1: 40 cards played, not 52")
    data = base_record()
    data["hands"].append(data["hands"][0])
    expect_error(capsys, tmp_path, data, f"hand {len(data['hands'])}: the game was already over")
    data = base_record()
    data["hands"][0] = 7
    expect_error(capsys, tmp_path, data, "hand 1 must be an object")
    expect_error(capsys, tmp_path, None, "unreadable JSON", raw="[" * 100000)
    expect_error(capsys, tmp_path, None, "unreadable JSON", raw="1" * 5000)


def test_missing_file_and_unknown_fields(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, str(tmp_path / "nope.json"))
    assert code == 1 and out == "" and err.count("\n") == 1 and "cannot read" in err
    data = base_record()
    data["venue"] = "kitchen"
    data["hands"][0]["comment"] = "good hand"
    rep = record.replay(data)
    assert rep.extra == {"venue": "kitchen"}


def test_last_hand_may_stop_anywhere() -> None:
    data = base_record()
    full = record.summary(record.replay(data).game)
    for cut in (0, 1, 17, 51):
        part = copy.deepcopy(data)
        part["hands"] = part["hands"][:2]
        part["hands"][1]["play"] = part["hands"][1]["play"][:cut]
        summary = record.summary(record.replay(part).game)
        assert summary["hands"][0] == full["hands"][0]
        assert summary["hands"][1]["complete"] is False
    part = copy.deepcopy(data)
    part["hands"] = part["hands"][:1]
    del part["hands"][0]["play"]
    first = (part["first_dealer"] + 1) % 4
    bids = [None] * 4
    bids[first] = part["hands"][0]["bids"][first]
    part["hands"][0]["bids"] = bids
    game = record.replay(part).game
    assert game.bid.count(-1) == 3 and game.to_move == (first + 1) % 4


def test_saved_game_loads_to_the_same_summary(tmp_path: Path) -> None:
    game = Game(seed=5)
    while not game.is_over and game.hand_number < 3:
        game.apply_code(game.legal_codes()[0])
    path = tmp_path / "g.json"
    record.save(path, game, venue="test")
    again = record.load(path)
    assert record.summary(again.game) == record.summary(game)
    assert again.extra == {"venue": "test"}
    assert record.dumps(again.game) == record.dumps(game)


def two_blind_nils() -> dict[str, Any]:
    """One hand where North and East both bid Blind Nil: two exchanges, North's team first."""
    from spades import Bid

    game = Game(Rules(), seed=21, first_dealer=3)
    game.make_bid(Bid(0, blind=True))
    game.make_bid(Bid(0, blind=True))
    game.look(2)
    game.make_bid(3)
    game.look(3)
    game.make_bid(4)
    assert game.exchange_steps == [(2, 0), (0, 2), (3, 1), (1, 3)]
    while game.hand_number == 1:
        game.apply_code(game.legal_codes()[-1])
    data = record.to_record(game)
    data["hands"] = data["hands"][:1]
    return data


def test_exchange_may_list_the_teams_in_either_order() -> None:
    data = two_blind_nils()
    expected = record.summary(record.replay(data).game)
    ex = data["hands"][0]["exchange"]
    assert [(e["from"], e["to"]) for e in ex] == [(2, 0), (0, 2), (3, 1), (1, 3)]
    data["hands"][0]["exchange"] = ex[2:] + ex[:2]
    assert record.summary(record.replay(data).game) == expected
    data["hands"][0]["exchange"] = [ex[1], ex[0], ex[2], ex[3]]  # within a team: partner first
    with pytest.raises(InvalidRecord, match="North passed to South but South must pass to North first"):
        record.replay(data)


def test_bad_arguments_are_usage_errors_without_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for args in ([], ["--frobnicate", "x.json"], [str(tmp_path)]):
        code, out, err = run(capsys, *args)
        assert code == 1, args  # the README's promise: exit 1 and one line on stderr
        assert out == "" and "Traceback" not in err and err.startswith("spades: ") and err.count("\n") == 1


def test_the_readable_replay_speaks_to_you_in_the_second_person() -> None:
    game = record.load(GOLDEN / "blind_nil_exchange.json").game
    text = describe(game, ["North", "You", "South", "West"], seat=1)  # East bid Blind Nil
    mine = [line.strip() for line in text.splitlines() if line.strip().startswith("You ")]
    assert mine and all(line.startswith("You pass ") for line in mine), mine
    assert any(
        line.strip().startswith("West passes ") and line.endswith(" to You") for line in text.splitlines()
    )
    assert "You Blind Nil" in text and "blind_nil" not in text
