"""Records of the house rules: a golden record per house preset (replayed byte for byte by
``tests/test_cli_replay.py``, written by ``tests/golden/generate_house.py``), each loading back
to the same text, and ``spades replay`` refusing a record that breaks a house rule with one
line naming the hand, the seat, the bid or card, and the rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spades import Game, legal, record
from spades.cards import CardSet, parse_card
from spades.cli import main
from spades.errors import InvalidRecord
from spades.rules import PRESETS, Rules
from spades.state import seat_name

GOLDEN = Path(__file__).parent / "golden"
HOUSE_PRESETS = ["suicide", "whiz", "mirror", "jokers", "cutthroat3"]
HOUSE_RECORDS = sorted(GOLDEN.glob("house_*.json"))
HOUSE_RECORDS = [p for p in HOUSE_RECORDS if not p.name.endswith(".expected.json")]


def golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"house_{name}.json").read_text())
    return data


def refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Any, *parts: str) -> str:
    """``spades replay`` exits 1 with one line on stderr holding every part, nothing on stdout."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code = main(["replay", "--json", str(path)])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert err.endswith("\n") and err.count("\n") == 1, err
    for part in parts:
        assert part in err, (part, err)
    return err


def first_bidder(data: dict[str, Any], hand: int, n: int) -> int:
    return (data["first_dealer"] + hand + 1) % n


# ---------------------------------------------------------------------- golden records
def test_every_house_preset_has_a_golden_record() -> None:
    for name in HOUSE_PRESETS:
        rules = Rules.from_spec(golden(name)["rules"])
        preset = PRESETS[name]
        for option in ("players", "teams", "bidding", "jokers", "blind_nil"):
            assert getattr(rules, option) == getattr(preset, option), (name, option)
        assert (GOLDEN / f"house_{name}.expected.json").exists()
    assert Rules.from_spec(golden("jjdd")["rules"]).jokers == "jjdd"
    options = Rules.from_spec(golden("options")["rules"])
    assert (options.big_bid, options.team_min_bid, options.nil_tricks, options.spades_lead) == (
        10,
        5,
        "partner",
        "any",
    )


@pytest.mark.parametrize("path", HOUSE_RECORDS, ids=lambda p: p.stem)
def test_house_records_load_back_to_the_same_text(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    replay = record.loads(text)
    assert record.dumps(replay.game, list(replay.players), **replay.extra) + "\n" == text
    summary = json.loads(path.with_suffix(".expected.json").read_text())
    assert record.summary(replay.game) == summary
    assert replay.game.is_over and summary["winner"] is not None


def test_the_jokers_records_hold_the_jokers_and_the_deck() -> None:
    for name, missing in (("jokers", {"2C", "2D"}), ("jjdd", {"2H", "2C"})):
        for hand in golden(name)["hands"]:
            dealt = [c for seat in hand["deal"] for c in seat.split()]
            assert len(dealt) == 52 and {"BJ", "LJ"} <= set(dealt) and not missing & set(dealt)
    for hand in golden("cutthroat3")["hands"]:
        assert [len(seat.split()) for seat in hand["deal"]] == [17, 17, 17]
        assert len(hand["play"]) == 51


def test_mirror_records_write_the_engines_bids() -> None:
    data = golden("mirror")
    game = record.replay(data).game
    for hand, log in zip(data["hands"], game.logs, strict=True):
        spades = [(m & ((1 << 13) - 1)).bit_count() for m in log.dealt]
        assert hand["bids"] == ["nil" if s == 0 else s for s in spades]


# ---------------------------------------------------------------------- refusals
def test_a_wrong_mirror_bid_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = golden("mirror")
    bids = data["hands"][1]["bids"]
    right = 0 if bids[1] == "nil" else bids[1]
    bids[1] = right + 1
    refused(
        capsys,
        tmp_path,
        data,
        f"hand 2, bid: East bid {right + 1} but holds {right} spades, which is his bid (bidding mirror)",
    )
    data = golden("mirror")
    data["hands"][0]["bids"][2] = "blind_nil"
    refused(capsys, tmp_path, data, "hand 1, bid: South bid blind_nil", "(bidding mirror)")


def test_a_mirror_record_must_write_its_bids(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Like any complete hand's: the engine makes them, the record still says them."""
    data = golden("mirror")
    data["hands"][0]["bids"] = [None] * 4
    seat = first_bidder(data, 0, 4)
    refused(capsys, tmp_path, data, f"hand 1, bid: {seat_name(seat)} has no bid")


def test_a_card_outside_the_jokers_deck_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for name, joker, foreign in (("jokers", "LJ", "2C"), ("jokers", "BJ", "2D"), ("jjdd", "BJ", "2H")):
        data = golden(name)
        hand = data["hands"][0]
        hand["deal"] = [" ".join(foreign if c == joker else c for c in seat.split()) for seat in hand["deal"]]
        hand["play"] = [foreign if c == joker else c for c in hand["play"]]
        refused(capsys, tmp_path, data, f"hand 1: card {foreign} is not in this game's deck")
    data = golden("jokers")
    data["rules"] = {"preset": "standard", "target": 150, "lose_at": -300}  # jokers in a 52-card game
    refused(capsys, tmp_path, data, "hand 1: card BJ is not in this game's deck")


def test_three_player_deals(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = golden("cutthroat3")
    data["hands"][0]["deal"][0] = " ".join(data["hands"][0]["deal"][0].split()[:13])
    refused(capsys, tmp_path, data, "hand 1: North was dealt 13 cards, not 17")
    data = golden("cutthroat3")
    deal = data["hands"][0]["deal"]
    card = deal[2].split()[0]
    deal[2] = deal[2].replace(card, "2C")
    refused(capsys, tmp_path, data, "hand 1", "2C")
    data = golden("cutthroat3")
    data["hands"][0]["bids"] = [18, 1, 1]
    refused(capsys, tmp_path, data, "hand 1, bid: North bid 18")


def test_house_bidding_refusals(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = golden("whiz")
    first = first_bidder(data, 0, 4)
    hand = CardSet.parse(data["hands"][0]["deal"][first])
    spades = sum(1 for c in hand if c < 13)
    data["hands"][0]["bids"][first] = spades + 1
    refused(
        capsys,
        tmp_path,
        data,
        f"hand 1, bid: {seat_name(first)} bid {spades + 1} but he holds {spades} spades",
        "(bidding whiz)",
    )
    data = golden("suicide")
    data["hands"][0]["bids"] = [4, 4, 4, 4]
    second = (first_bidder(data, 0, 4) + 2) % 4
    refused(
        capsys, tmp_path, data, f"hand 1, bid: {seat_name(second)} bid 4", "must bid nil (bidding suicide)"
    )
    data = golden("options")
    data["hands"][0]["bids"] = [1, 1, 1, 1]
    second = (first_bidder(data, 0, 4) + 2) % 4
    refused(capsys, tmp_path, data, f"hand 1, bid: {seat_name(second)} bid 1", "(team_min_bid)")
    data = golden("jokers")
    data["hands"][0]["bids"] = [14, 1, 1, 1]
    refused(capsys, tmp_path, data, "hand 1, bid: North bid 14")


def dealt_record(rules: Rules, deal: list[str], play: list[str]) -> dict[str, Any]:
    """A one-hand record of ``deal`` (North leads), everyone bidding 3, then ``play``."""
    game = Game(rules, first_dealer=3, auto_deal=False)
    game.deal([CardSet.parse(seat).mask for seat in deal])
    for _ in range(4):
        game.make_bid(3)
    data = record.to_record(game)
    data["hands"][0]["play"] = play
    return data


def test_a_spade_of_the_jokers_decks_led_before_spades_break(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A joker, and the jjdd 2D, are spades: leading one before spades break while holding
    another suit is refused; playing one on another suit's lead breaks spades."""
    big = PRESETS["jokers"].replace(blind_nil=False)
    deal = [
        "BJ AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
        "LJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
        "2S 2H AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
        "3D AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
    ]
    refused(capsys, tmp_path, dealt_record(big, deal, ["BJ"]), "hand 1, trick 1: North led BJ but spades")
    data = dealt_record(big, deal, ["AH", "LJ", "2H", "AC", "BJ"])  # East trumps, wins, leads...
    refused(capsys, tmp_path, data, "hand 1, trick 2: East played", "not hold")  # ... East, not North
    record.replay(dealt_record(big, deal, ["AH", "LJ", "2H", "AC", "AS"]))  # broken: East leads AS
    jjdd = PRESETS["standard"].replace(jokers="jjdd", blind_nil=False)
    deal = [
        "2D AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
        "BJ LJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
        "3S 2S AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
        "3D AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
    ]
    refused(capsys, tmp_path, dealt_record(jjdd, deal, ["2D"]), "hand 1, trick 1: North led 2D but spades")
    # North leads hearts; East, void, trumps with the BJ and wins it.
    replay = record.replay(dealt_record(jjdd, deal, ["AH", "BJ", "AD", "3D"]))
    assert replay.game.tricks[0].winner == 1


def test_a_refused_record_is_an_invalid_record() -> None:
    data = golden("mirror")
    data["hands"][0]["bids"][0] = 14
    with pytest.raises(InvalidRecord):
        record.replay(data)


@pytest.mark.parametrize("path", HOUSE_RECORDS, ids=lambda p: p.stem)
def test_readable_replay_names_the_engines_trick_winners(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each ``Trick n: ... -> Winner`` line of ``spades replay`` is the one definition's winner
    (jokers, the jjdd 2D and 2S trump as house-rules.md orders them)."""
    game = record.load(path).game
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    names = [seat_name(s, game.n) for s in range(game.n)]
    lines = [line for line in out.splitlines() if line.lstrip().startswith("Trick ")]
    assert len(lines) == sum(len(log.plays) for log in game.logs) // game.n
    for line in lines:
        played, winner = line.split(":", 1)[1].split("->")
        seats_cards = [part.split() for part in played.split(",")]
        leader = names.index(seats_cards[0][0])
        trick = [parse_card(card) for _, card in seats_cards]
        assert names[legal.trick_winner(game.deck, trick, leader)] == winner.strip(), line
