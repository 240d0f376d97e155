"""The house rules through the web server: the lobby's rules data, combination errors, whole
hands of cutthroat3, jokers (big_little, jjdd) and mirror played by a scripted person over the
websocket beside random bots, and the fair-shuffle proofs of their 51- and 54-card decks."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from tablewait import wait_for as _wait_for
from wsmsg import own_part

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from spades.cards import card_text, parse_card
from spades.errors import InvalidRules
from spades.legal import deck_of
from spades.rules import CHOICES, NULLABLE, PRESETS, RANGES, Rules
from spades.server.app import create_app
from spades.server.codec import deck_view
from spades.server.fairness import Deck, commitment, deal_into, hands_from_deck, new_deck, verify_record
from spades.server.limits import AddressLimits
from spades.server.schema import client_message
from spades.server.store import Store
from spades.server.tables import TableActor
from spades.state import Game

RANDOM = {"bot": "random"}
HOUSE_PRESETS = ("suicide", "whiz", "mirror", "jokers", "cutthroat3")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'house.db'}", limits=AddressLimits(create_per_window=0))
    with TestClient(app) as c:
        yield c


def wait_for(c: TestClient, tid: str, pred: Any, timeout: float = 60) -> dict[str, Any]:
    return _wait_for(c, tid, pred, timeout)


# ---------------------------------------------------------------------- the lobby's data
def test_rules_catalog_is_the_engines_data(client: TestClient) -> None:
    cat = client.get("/api/rules").json()
    assert set(HOUSE_PRESETS) <= set(cat["presets"])
    for name, rules in PRESETS.items():
        assert Rules(**cat["presets"][name]) == rules
    options = {o["name"]: o for o in cat["options"]}
    assert list(options) == list(Rules().to_dict())  # every option, in field order
    for name, (low, high) in RANGES.items():
        assert (options[name]["min"], options[name]["max"]) == (low, high)
        assert options[name]["nullable"] is (name in NULLABLE)
    for name, choices in CHOICES.items():
        assert options[name]["choices"] == list(choices)
    for house in ("bidding", "suicide_min", "big_bid", "team_min_bid", "nil_tricks", "spades_lead", "jokers"):
        assert house in options
    assert options["first_dealer"]["choices"][:2] == ["draw", "random"]


@pytest.mark.parametrize(
    "spec",
    [
        {"preset": "cutthroat3", "jokers": "jjdd"},
        {"preset": "whiz", "blind_nil": True},
        {"preset": "suicide", "teams": False, "players": 3},
        {"preset": "standard", "team_min_bid": 5, "bidding": "mirror", "blind_nil": False},
        {"preset": "cutthroat3", "nil_tricks": "partner"},
        {"big_bid": 9},
    ],
)
def test_combination_errors_are_the_engines_one_line(client: TestClient, spec: dict[str, Any]) -> None:
    with pytest.raises(InvalidRules) as e:
        Rules.from_spec(spec)
    expected = str(e.value)
    checked = client.post("/api/rules/check", json={"rules": spec}).json()
    # The English line, and beside it the message id and values a page translates.
    assert checked == {"error": expected, "msgid": e.value.msgid, "fields": checked["fields"]}
    assert checked["fields"]["name"] == e.value.fields["name"]
    seats = [RANDOM] * 4
    r = client.post("/api/tables", json={"rules": spec, "seats": seats})
    assert r.status_code == 400 and r.json() == checked
    assert "\n" not in expected


def test_rules_check_gives_the_seats_and_the_deck(client: TestClient) -> None:
    three = client.post("/api/rules/check", json={"rules": "cutthroat3"}).json()
    assert three["error"] is None and three["rules"]["players"] == 3 and three["spec"] == "cutthroat3"
    assert (
        three["deck"]["size"] == 51 and three["deck"]["tricks"] == 17 and "2C" not in three["deck"]["order"]
    )
    jjdd = client.post("/api/rules/check", json={"rules": {"preset": "jokers", "jokers": "jjdd"}}).json()
    assert jjdd["deck"]["order"][:5] == ["BJ", "LJ", "2D", "2S", "AS"]
    assert jjdd["deck"]["trumps"] == ["BJ", "LJ", "2D"]
    assert "2H" not in jjdd["deck"]["order"] and "2C" not in jjdd["deck"]["order"]


def test_a_three_player_table_has_three_seats(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": "cutthroat3", "seats": [RANDOM] * 4})
    assert r.status_code == 400 and r.json()["error"] == "seats: these rules need 3 seats, not 4"
    r = client.post("/api/tables", json={"rules": "jokers", "seats": [RANDOM] * 3})
    assert r.status_code == 400 and "need 4 seats" in r.json()["error"]


def test_deck_view_sorts_trumps_as_the_engine_ranks_them() -> None:
    for spec in ("standard", "jokers", "cutthroat3", {"jokers": "jjdd"}, "two_player"):
        rules = Rules.from_spec(spec)
        deck = deck_of(rules)
        view = deck_view(rules)
        order = [parse_card(c) for c in view["order"]]
        assert sorted(order) == sorted(deck.cards) and view["size"] == len(deck.cards)
        spades = [c for c in order if deck.suit_of[c] == 0]
        assert order[: len(spades)] == spades  # spades in play lead the hand
        # Each spade beats the next one in the order, in a trick led with spades.
        keys = deck.trick_keys[0]
        assert all(keys[a] > keys[b] for a, b in pairwise(spades))


# ---------------------------------------------------------------------- whole hands
def _states(ws: Any) -> Iterator[dict[str, Any]]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        assert msg["type"] != "error", msg
        if msg["type"] == "state":
            yield msg


def play_one_hand(client: TestClient, spec: Any, players: int, *, with_states: bool = False) -> Any:
    """A person at seat 0 (random bots elsewhere) plays the first hand over the websocket,
    always taking what the server offers; returns the table, the last state of hand 1 and
    every ``can`` the person was shown (and, ``with_states``, every state)."""
    seats = [{"open": True, "name": "Ann"}, *[RANDOM] * (players - 1)]
    r = client.post("/api/tables", json={"rules": spec, "seats": seats, "bot_delay_ms": 0})
    assert r.status_code == 200, r.json()
    tid, token = r.json()["id"], r.json()["seats"][0]["token"]
    offered: list[Any] = []
    seen: list[dict[str, Any]] = []
    last: dict[str, Any] = {}
    acted_on: tuple[Any, ...] | None = None
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "token": token})
        for st in _states(ws):
            t = st["table"]
            if t["hand"] > 1 or t["status"] != "playing":
                break
            last = st
            seen.append(st)
            # A state sent before our last action reached the table still offers that action:
            # act only once our own part of the view (looked, bid, hand) has moved since.
            mine = own_part(st)
            if mine == acted_on:
                continue
            can = st["can"]
            offered.append(can)
            if any(can[k] for k in ("look", "bids", "pass", "cards")):
                acted_on = mine
            if can["look"]:
                ws.send_json({"type": "look"})
            elif can["bids"]:
                bid = can["bids"][-1] if len(can["bids"]) < 3 else can["bids"][2]
                ws.send_json({"type": "bid", "bid": "nil" if bid == 0 else bid})
            elif can["pass"]:
                ws.send_json({"type": "pass", "cards": st["obs"]["hand"][: can["pass"]]})
            elif can["cards"]:
                ws.send_json({"type": "play", "card": can["cards"][0]})
    if with_states:
        return tid, last, offered, seen
    return tid, last, offered


def check_finished_hand(client: TestClient, tid: str, rules: Rules) -> dict[str, Any]:
    deck = deck_of(rules)
    view = wait_for(client, tid, lambda v: len(v["sheet"]) >= 1)
    line = view["sheet"][0]
    assert sum(line["tricks"]) == deck.hand_size
    assert len(line["totals"]) == rules.sides == len(view["totals"])
    checked = client.post("/api/rules/check", json={"rules": view["rules"]}).json()
    assert checked["deck"] == deck_view(rules)  # what the table page sorts the hand by
    proof = view["proofs"][0]
    cards = proof["deck"].split(" ")
    assert sorted(parse_card(c) for c in cards) == sorted(deck.cards)  # the real deck, as text
    assert commitment(proof["deck"], proof["salt"]) == proof["commit"]
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert Rules.from_spec(rec["rules"]) == rules
    rep, checks = verify_record(rec)
    assert [c.ok for c in checks] == [True] * len(rec["hands"]) and rec["hands"]
    assert list(rep.game.scores[0].totals) == line["totals"]
    replayed = client.post("/api/replay", content=json.dumps(rec)).json()
    assert replayed["error"] is None and replayed["n"] == rules.players
    assert len(replayed["hands"][0]["tricks"]) == deck.hand_size
    assert all(len(hand) == deck.hand_size for hand in replayed["hands"][0]["deal"])
    assert all(p["ok"] for p in replayed["proofs"])
    return rec


def test_cutthroat3_hand_over_the_websocket(client: TestClient) -> None:
    rules = Rules.from_spec("cutthroat3")
    tid, last, offered = play_one_hand(client, "cutthroat3", 3)
    plays = [c for c in offered if c["cards"]]
    assert len(plays) == 17  # 17 tricks, one card of ours in each
    bids = [c["bids"] for c in offered if c["bids"]]
    assert bids and bids[0] == list(range(18))  # 0 (Nil) .. 17
    assert len(last["obs"]["tricks"]) == 16 and last["table"]["seats"][2]["position"] == "West"
    rec = check_finished_hand(client, tid, rules)
    assert len(rec["hands"][0]["play"]) == 51


@pytest.mark.parametrize("jokers", ["big_little", "jjdd"])
def test_jokers_hand_over_the_websocket(client: TestClient, jokers: str) -> None:
    spec = {"preset": "jokers", "jokers": jokers}
    rules = Rules.from_spec(spec)
    tid, _last, offered = play_one_hand(client, spec, 4)
    assert len([c for c in offered if c["cards"]]) == 13
    rec = check_finished_hand(client, tid, rules)
    played = rec["hands"][0]["play"]
    assert "BJ" in played and "LJ" in played
    gone = ("2C", "2D") if jokers == "big_little" else ("2C", "2H")
    assert not set(gone) & set(played)


def test_mirror_hand_has_no_bid_prompt(client: TestClient) -> None:
    rules = Rules.from_spec("mirror")
    tid, _last, offered = play_one_hand(client, "mirror", 4)
    assert all(not c["bids"] and not c["look"] and not c["blind_nil"] for c in offered)
    rec = check_finished_hand(client, tid, rules)
    hand = rec["hands"][0]
    deck = deck_of(rules)
    for seat, dealt in enumerate(hand["deal"]):
        cards = dealt.split() if isinstance(dealt, str) else dealt
        spades = sum(1 for c in cards if deck.suit_of[parse_card(c)] == 0)
        assert hand["bids"][seat] == ("nil" if spades == 0 else spades)


def test_whiz_and_suicide_offer_only_their_legal_bids(client: TestClient) -> None:
    """The bid buttons are the server's list: whiz, Nil or one's spades (jokers count);
    suicide, by what the partner (seat 2) bid."""
    for spec in ({"preset": "whiz", "jokers": "big_little"}, "suicide"):
        rules = Rules.from_spec(spec)
        deck = deck_of(rules)
        _tid, _last, offered, seen = play_one_hand(client, spec, 4, with_states=True)
        bidding = [(st["can"]["bids"], st["obs"]) for st in seen if st["can"]["bids"]]
        assert bidding  # we bid once, having looked
        for bids, obs in bidding:
            if rules.bidding == "whiz":
                spades = sum(1 for c in obs["hand"] if deck.suit_of[parse_card(c)] == 0)
                assert bids == ([0] if spades == 0 else [0, spades])
            else:
                mate = obs["bids"][2]
                numbers = list(range(4, 14))
                expected = [0, *numbers] if mate is None else numbers if mate in ("nil", "blind_nil") else [0]
                assert bids == expected, (mate, bids)
        assert len([c for c in offered if c["cards"]]) == 13


def test_a_17_bid_is_well_formed_and_18_is_not() -> None:
    assert client_message.validate_json('{"type": "bid", "bid": 17}').bid == 17
    with pytest.raises(ValueError):
        client_message.validate_json('{"type": "bid", "bid": 18}')


def test_house_tables_are_rebuilt_from_the_log(client: TestClient, tmp_path: Path) -> None:
    """The log replays through ``Game.apply`` (looks and all) into the same game."""
    for spec, n in (("cutthroat3", 3), ({"preset": "jokers", "jokers": "jjdd"}, 4)):
        tid, _, _ = play_one_hand(client, spec, n)
        live = client.app.state.manager.tables[tid]  # type: ignore[attr-defined]
        store = Store(f"sqlite:///{tmp_path / 'house.db'}")
        stored = store.load(tid)
        store.close()
        assert stored is not None
        again = TableActor.restore(stored, store, "heuristic")
        # the live table writes each event before applying it, and its bots play on: the log
        # may be one event ahead of the table's own count when it is read
        assert again.seq <= live.seq + 1
        assert again.record()["hands"][0] == live.record()["hands"][0]


# ---------------------------------------------------------------------- fairness
@pytest.mark.parametrize("spec", ["cutthroat3", "jokers", {"preset": "jokers", "jokers": "jjdd"}])
def test_fair_deck_of_house_rules_deals_the_published_deck(spec: Any) -> None:
    rules = Rules.from_spec(spec)
    deck = deck_of(rules)
    fair = new_deck(rules)
    assert sorted(fair.cards) == sorted(deck.cards)
    assert fair.text == " ".join(card_text(c) for c in fair.cards)
    assert len(fair.text.split(" ")) == len(deck.cards)
    game = Game(rules, first_dealer=1, auto_deal=False)
    deal_into(game, fair)
    assert list(game.hands) == hands_from_deck(fair.cards, game.dealer, rules.players)
    assert all(h.bit_count() == deck.hand_size for h in game.hands)


@pytest.mark.parametrize("spec", ["cutthroat3", "jokers"])
def test_a_revealed_deck_of_the_wrong_cards_is_caught(client: TestClient, spec: Any) -> None:
    n = Rules.from_spec(spec).players
    r = client.post(
        "/api/tables",
        json={"rules": {"preset": spec, "target": 50}, "seats": [RANDOM] * n, "bot_delay_ms": 0},
    )
    tid = r.json()["id"]
    wait_for(client, tid, lambda v: len(v["sheet"]) >= 1)
    rec = client.get(f"/api/tables/{tid}/record").json()
    p = rec["proofs"][0]
    cards = p["deck"].split(" ")
    # A card this deck does not hold in place of one it does (the 2C is out of both decks).
    swapped = "2C"
    cards[cards.index("AS")] = swapped
    p["deck"] = " ".join(cards)
    p["commit"] = commitment(p["deck"], p["salt"])
    _, checks = verify_record(rec)
    assert not checks[0].ok and "cards of these rules once" in checks[0].why
    # The right cards in another order: the hash matches but the deal does not.
    rec2 = client.get(f"/api/tables/{tid}/record").json()
    p2 = rec2["proofs"][0]
    cards2 = p2["deck"].split(" ")
    cards2[0], cards2[1] = cards2[1], cards2[0]
    p2["deck"] = " ".join(cards2)
    p2["commit"] = commitment(p2["deck"], p2["salt"])
    _, checks2 = verify_record(rec2)
    assert not checks2[0].ok and "does not give the recorded hands" in checks2[0].why


def test_deck_of_the_fairness_dataclass_roundtrips_jokers() -> None:
    rules = Rules.from_spec("jokers")
    d = new_deck(rules)
    again = Deck.of([parse_card(c) for c in d.text.split(" ")], d.salt)
    assert again == d and {"BJ", "LJ"} <= set(d.text.split(" "))
