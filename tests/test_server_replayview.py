"""The replay page's view: one pass gives exactly what the old hand-by-hand re-replay gave, on
golden records, bot-played games (partial last hands, proofs) and broken records; budgets
refuse in one line; the body parser turns every hostile body into a one-line ``SpadesError``."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay_oracle import old_replay_view
from spades.bots import make_bot
from spades.driver import step
from spades.errors import SpadesError
from spades.record import to_record
from spades.rules import PRESETS
from spades.server.fairness import Deck, deal_into
from spades.server.replayview import (
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_RECORD_BYTES,
    parse_record_json,
    replay_body,
    replay_view,
    view_json,
)
from spades.state import Game, Phase

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_RECORDS = {
    p.stem: json.loads(p.read_text())
    for p in sorted(GOLDEN.glob("*.json"))
    if not p.name.endswith(".expected.json")
}


def bot_record(preset: str, seed: int, hands: int, extra: int, *, bot: str = "random") -> dict[str, Any]:
    """A game of seeded bots dealt from committed decks: ``hands`` whole hands, then ``extra``
    more actions (a partial last hand), with the table's proofs (deck revealed once a hand is
    over, only the commitment for the hand in play)."""
    rules = PRESETS[preset].replace(target=2000)
    rng = random.Random(seed)
    game = Game(rules, seed=seed, auto_deal=False)
    bots = [make_bot(bot, seed=seed * 10 + s) for s in range(rules.players)]
    decks: list[Deck] = []

    def act() -> None:
        if game.phase is Phase.DEAL:
            cards = list(range(52))
            rng.shuffle(cards)
            decks.append(Deck.of(cards, f"{rng.getrandbits(128):032x}"))
            deal_into(game, decks[-1])
        else:
            step(game, bots)

    while not game.is_over and len(game.scores) < hands:
        act()
    for _ in range(extra):
        if game.is_over:
            break
        act()
    proofs: list[dict[str, Any]] = []
    for i, d in enumerate(decks):
        p: dict[str, Any] = {"hand": i + 1, "commit": d.commit}
        if i < len(game.scores):
            p.update(deck=d.text, salt=d.salt)
        proofs.append(p)
    return to_record(game, proofs=proofs)


# ---------------------------------------------------------------------- same view as before
@pytest.mark.parametrize("name", sorted(GOLDEN_RECORDS))
def test_golden_records_give_the_old_view(name: str) -> None:
    data = GOLDEN_RECORDS[name]
    new = replay_view(data)
    assert new["error"] is None
    assert new == old_replay_view(data)


@pytest.mark.parametrize("preset", ["standard", "two_player", "bicycle", "hoyle"])
@pytest.mark.parametrize("extra", [0, 3, 30, 57])
def test_bot_games_give_the_old_view(preset: str, extra: int) -> None:
    data = bot_record(preset, 7 + extra, hands=4, extra=extra)
    new = replay_view(data)
    assert new["error"] is None and new["proofs"] and new["proof_error"] is None
    assert new == old_replay_view(data)
    done = len(data["hands"]) - (0 if extra == 0 else 1)
    assert [p["ok"] for p in new["proofs"][:done]] == [True] * done


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["standard", "two_player", "bicycle", "hoyle"]),
    seed=st.integers(0, 10_000),
    hands=st.integers(0, 3),
    extra=st.integers(0, 60),
)
def test_any_bot_game_gives_the_old_view(preset: str, seed: int, hands: int, extra: int) -> None:
    data = bot_record(preset, seed, hands, extra, bot="heuristic" if seed % 2 else "random")
    assert replay_view(data) == old_replay_view(data)


def _mutate(data: Any, rng: random.Random) -> Any:
    """One value somewhere in the record replaced by a plausible wrong one."""
    paths: list[tuple[Any, Any]] = []
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        keys = range(len(node)) if isinstance(node, list) else list(node)
        for k in keys:
            paths.append((node, k))
            if isinstance(node[k], (dict, list)):
                stack.append(node[k])
    node, key = rng.choice(paths)
    node[key] = rng.choice([None, 0, -1, 13, 99, "nil", "AS", "2C", "KH", [], {}, "x", True, 2.5])
    return data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), which=st.sampled_from(sorted(GOLDEN_RECORDS)))
def test_broken_records_give_the_old_error(seed: int, which: str) -> None:
    data = _mutate(json.loads(json.dumps(GOLDEN_RECORDS[which])), random.Random(seed))
    assert replay_view(data) == old_replay_view(data)


@pytest.mark.parametrize("data", [None, [], "x", 3, {"format": "other"}, {"hands": "x"}, {"hands": [{}]}])
def test_not_records_give_the_old_error(data: Any) -> None:
    new = replay_view(data)
    assert set(new) == {"error"} and "\n" not in new["error"]
    assert new == old_replay_view(data)


def test_a_tampered_proof_fails_its_hand_only() -> None:
    data = bot_record("standard", 3, hands=3, extra=0)
    salt = data["proofs"][1]["salt"]
    data["proofs"][1]["salt"] = ("1" if salt[0] == "0" else "0") + salt[1:]  # always a change
    view = replay_view(data)
    assert [p["ok"] for p in view["proofs"]] == [True, False, True]
    assert view == old_replay_view(data)


# ---------------------------------------------------------------------- budgets
def test_too_many_hands_is_refused_in_one_line() -> None:
    data = bot_record("standard", 5, hands=6, extra=0)
    view = replay_view(data, max_hands=5)
    assert view == {"error": "the record has 6 hands; a replay shows at most 5"}
    assert replay_view(data, max_hands=6)["error"] is None


def test_a_replay_past_its_deadline_stops_after_a_hand() -> None:
    data = bot_record("standard", 5, hands=6, extra=0)
    view = replay_view(data, deadline=time.monotonic() - 1)
    assert view == {"error": "the record took too long to replay (stopped after hand 1)"}
    assert replay_view(data, deadline=time.monotonic() + 60)["error"] is None


def test_view_json_is_what_starlette_would_send() -> None:
    starlette = pytest.importorskip("starlette.responses")
    view = replay_view(bot_record("standard", 9, hands=2, extra=5))
    view["players"][0] = "Zoë ✓ \U0001f600"
    assert view_json(view) == starlette.JSONResponse(view).body


def test_replay_body_parses_and_lays_out() -> None:
    data = GOLDEN_RECORDS["standard_full"]
    assert replay_body(json.dumps(data).encode()) == replay_view(data)
    with pytest.raises(SpadesError):
        replay_body(b"{")


# ---------------------------------------------------------------------- hostile bodies
def one_line_error(body: bytes) -> str:
    with pytest.raises(SpadesError) as info:
        parse_record_json(body)
    msg = str(info.value)
    assert msg and "\n" not in msg and len(msg) < 200, msg
    return msg


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "deeper than 64"),
        (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), "deeper than 64"),
        (b'{"a":' * 70 + b"1" + b"}" * 70, "deeper than 64"),
        (b'{"first_dealer": ' + b"7" * 5000 + b"}", "5000 digits"),
        (b'{"first_dealer": -' + b"7" * 5000 + b"}", "5000 digits"),
        (b'{"x": 0.' + b"1" * 5000 + b"}", "5001 digits"),
        (b'{"x": 1e' + b"9" * 40 + b"}", "41 digits"),
        (b'{"x": 1e999}', "too large"),
        (b'{"x": NaN}', "NaN"),
        (b'{"x": -Infinity}', "-Infinity"),
        (b'{"players": ["\xff\xfe"]}', "not UTF-8"),
        (b"\xef\xbb\xbf\xef\xbb\xbf{}", "not JSON"),
        (b'{"players": ["\\ud800"]}', "lone surrogate"),
        (b'{"\\udfff": 1}', "lone surrogate"),
        (b"", "not JSON"),
        (b'{"a": 1,}', "not JSON"),
        (b" " * (MAX_RECORD_BYTES + 1), "over 2000000 bytes"),
        (b"[" + b"0," * 1_500_000 + b"0]", "over 2000000 bytes"),
    ],
)
def test_hostile_bodies_are_one_line_errors(body: bytes, words: str) -> None:
    assert words in one_line_error(body)


def test_the_limits_themselves_are_accepted() -> None:
    deep = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH
    assert parse_record_json(deep) is not None
    assert parse_record_json(b"[" + b"9" * MAX_DIGITS + b"]") == [int("9" * MAX_DIGITS)]
    assert parse_record_json(b"[-" + b"9" * MAX_DIGITS + b"]") == [-int("9" * MAX_DIGITS)]
    assert parse_record_json(b'["\\ud83d\\ude00", "\xc3\xa9"]') == ["\U0001f600", "é"]
    assert parse_record_json(b"\xef\xbb\xbf{}") == {}  # a UTF-8 byte order mark is fine


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**29), 10**29)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_ordinary_json_reads_as_json_loads_does(value: Any) -> None:
    body = json.dumps(value, ensure_ascii=False).encode()
    assert parse_record_json(body) == json.loads(body)


JSONISH = '[]{}",:0123456789.eE-+ ntrufalsNIy\\u'


@settings(max_examples=300, deadline=None)
@given(
    st.binary(max_size=64)
    | st.text(alphabet='[]{}",:0123456789.eE-+ ntrufalsNIy\\u', max_size=80).map(str.encode)
)
def test_any_bytes_parse_or_fail_in_one_line(body: bytes) -> None:
    try:
        value = parse_record_json(body)
    except SpadesError as e:
        assert str(e) and "\n" not in str(e)
        return
    json.dumps(value, allow_nan=False, ensure_ascii=False).encode()  # the answer can be sent back
