"""The engine's one-line errors in every language: English for Python callers, a message id
and named values for a screen (``spades.i18n.localized``) and a page (``msgid``/``fields``)."""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from spades import record
from spades.actions import Play
from spades.errors import (
    IllegalAction,
    InvalidRecord,
    InvalidRules,
    SpadesError,
    Text,
    as_json,
    from_json,
    reply_fields,
)
from spades.i18n import LANGUAGES, localized, set_language
from spades.rules import Rules
from spades.state import Game

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def _refused_play() -> IllegalAction:
    """East plays a card he does not hold on the first trick of a fixed deal."""
    game = Game(Rules.from_spec("standard"), first_dealer=0, seed=1)
    for _bid in range(4):
        game.look(game.turn)
        game.make_bid(3)
    seat = game.turn
    foreign = next(c for c in range(52) if not game.hands[seat] >> c & 1)
    with pytest.raises(IllegalAction) as info:
        game.play(foreign)
    return info.value


def test_an_engine_error_keeps_its_english_text_id_and_values() -> None:
    e = _refused_play()
    assert str(e).startswith("hand 1, trick 1: East played ")
    assert str(e).endswith(" but does not hold it")
    assert e.msgid == "{where}: {who} played {card} but does not hold it"
    assert set(e.fields) == {"where", "who", "card"}
    where = e.fields["where"]
    assert isinstance(where, Text) and where.msgid == "hand {hand}, trick {trick}"
    assert where.fields == {"hand": 1, "trick": 1}
    assert e.fields["who"] == "East" and isinstance(e.fields["who"], Text)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", r"hand 1, trick 1: East played (\w\w) but does not hold it"),
        ("it", r"mano 1, presa 1: Est ha giocato (\w\w) ma non ce l'ha"),
        ("sl", r"deljenje 1, vzetek 1: Vzhod je odigral (\w\w), a te karte nima"),
        ("fr", r"donne 1, pli 1 : Est a joué (\w\w) mais ne l'a pas"),
    ],
)
def test_an_engine_error_is_shown_in_each_language_with_its_values(lang: str, expected: str) -> None:
    e = _refused_play()
    set_language(lang)
    shown = localized(e)
    m = re.fullmatch(expected, shown)
    assert m is not None, shown
    assert m[1] == e.fields["card"]  # the card named is the one played, in every language
    assert str(e).startswith("hand 1")  # the exception itself stays English


@pytest.mark.parametrize("lang", TRANSLATED)
def test_rule_option_errors_and_the_rule_behind_a_refused_bid_are_translated(lang: str) -> None:
    with pytest.raises(InvalidRules) as info:
        Rules.from_spec({"bidding": "suicide", "teams": False})
    e = info.value
    assert str(e) == "rule option bidding = 'suicide': suicide needs partnerships (teams = false)"
    set_language(lang)
    shown = localized(e)
    assert shown != str(e) and "'suicide'" in shown and "teams = false" in shown
    # A nested reason (legal.bid_refusal) is translated inside the sentence that names it.
    game = Game(Rules.from_spec("whiz"), first_dealer=0, seed=3)
    seat = game.turn
    if not game.looked[seat]:
        game.look(seat)
    spades = game.hands[seat] & 0x1FFF
    wrong = (spades.bit_count() % 13) + 1
    with pytest.raises(IllegalAction) as bid_info:
        game.make_bid(wrong)
    why = bid_info.value.fields["why"]
    assert isinstance(why, Text) and "bidding whiz" in str(why)
    assert localized(why) in localized(bid_info.value) and localized(why) != str(why)
    assert "(bidding whiz)" in localized(bid_info.value)
    assert localized(bid_info.value) != str(bid_info.value)


def test_a_record_error_wraps_the_engine_error_and_keeps_its_id() -> None:
    bad = {
        "rules": "standard",
        "first_dealer": 0,
        "hands": [{"deal": [], "bids": []}],
    }
    with pytest.raises(InvalidRecord) as info:
        record.replay(bad)
    assert info.value.msgid == "hand {hand}: deal must list {n} hands"
    assert info.value.fields == {"hand": 1, "n": 4}
    set_language("it")
    assert localized(info.value) == "mano 1: deal deve elencare 4 mani"


def test_errors_and_texts_survive_pickling_and_json() -> None:
    """Hints come back from the compute pool pickled; the server sends them as JSON."""
    e = _refused_play()
    back = pickle.loads(pickle.dumps(e))
    assert (str(back), back.msgid, back.fields) == (str(e), e.msgid, e.fields)
    body = json.loads(json.dumps(as_json(e.text)))
    assert body["msgid"] == e.msgid and body["fields"]["where"]["msgid"] == "hand {hand}, trick {trick}"
    again = from_json(body)
    assert isinstance(again, Text) and again == str(e)
    set_language("fr")
    assert localized(again) == localized(e)


def test_text_made_by_hand_is_its_own_id_and_never_formatted() -> None:
    e = SpadesError("odd {braces} from a repr")
    assert str(e) == "odd {braces} from a repr" and e.msgid == str(e) and e.fields == {}
    set_language("sl")
    assert localized(e) == str(e)
    assert localized(ValueError("not ours")) == "not ours"
    assert localized("plain") == "plain"


def test_a_translation_that_does_not_fit_its_values_falls_back_to_english() -> None:
    t = Text("hand {hand}, trick {trick}", hand=2)  # a value missing: English as it is
    set_language("it")
    assert localized(t) == "hand {hand}, trick {trick}"


def test_apply_refuses_with_the_same_error_the_screen_translates() -> None:
    game = Game(Rules.from_spec("standard"), first_dealer=0, seed=1)
    with pytest.raises(IllegalAction) as info:
        game.apply(Play(0), game.turn)
    assert info.value.msgid == "{where}: cannot play during the {phase}"
    set_language("it")
    assert (
        localized(info.value) == "mano 1, dichiarazione: non si può giocare durante la fase di dichiarazione"
    )


def test_reply_fields_name_the_message_for_a_page() -> None:
    e = _refused_play()
    assert reply_fields("plain words") == {}
    got = reply_fields(e)
    assert got["msgid"] == e.msgid and json.loads(json.dumps(got))["fields"]["who"] == {
        "msgid": "East",
        "fields": {},
    }
    why = Text("play {card}: the only legal card", card="QH")
    assert reply_fields(why, "why_") == {
        "why_msgid": "play {card}: the only legal card",
        "why_fields": {"card": "QH"},
    }


def test_the_server_sends_the_msgid_and_fields_beside_the_english(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from spades.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'errors.db'}")) as client:
        checked = client.post(
            "/api/rules/check", json={"rules": {"bidding": "suicide", "teams": False}}
        ).json()
        assert checked["error"].startswith("rule option bidding = 'suicide'")
        assert checked["msgid"] == "rule option {name} = {value}: {why}"
        assert checked["fields"]["why"]["msgid"] == "suicide needs partnerships (teams = false)"
        seats = [{"open": True, "name": "Ann"}, *[{"bot": "heuristic"}] * 3]
        made = client.post("/api/tables", json={"seats": seats, "bot_delay_ms": 0}).json()
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["seats"][0]["token"]})
            ws.send_json({"type": "play", "card": "2C"})  # the hand opens with the bidding
            while True:
                msg = ws.receive_json()
                if msg["type"] == "error":
                    break
        assert msg["message"].startswith("hand 1, bid")
        assert msg["msgid"] in (
            "{where}: cannot play during the {phase}",
            "{where}: {who} cannot play: it is {turn}'s turn",
        )
        assert msg["fields"]["where"] == {"msgid": "hand {hand}, bid", "fields": {"hand": 1}}


ENGINE = ["actions", "cards", "legal", "observation", "record", "rules", "rulestext", "state"]
"""The modules whose errors a player sees (their templates are in babel.cfg)."""
OURS = {"SpadesError", "IllegalAction", "InvalidRecord", "InvalidRules", "InvalidCard"}


@pytest.mark.parametrize("name", ENGINE)
def test_engine_errors_are_raised_with_marked_templates_not_sentences(name: str) -> None:
    """A ``raise SomeError(f"...")`` would be English only: every error of the engine is raised
    with an ``N_()`` template (or an error or ``Text`` that already has one)."""
    import ast

    path = Path(__file__).resolve().parents[1] / "src" / "spades" / f"{name}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        call = node.exc
        called = call.func.id if isinstance(call.func, ast.Name) else ""
        if called not in OURS or not call.args:
            continue
        first = call.args[0]
        marked = isinstance(first, ast.Call) and isinstance(first.func, ast.Name) and first.func.id == "N_"
        passed_on = isinstance(first, ast.Name | ast.Subscript | ast.Attribute)  # e, a table's template
        if not (marked or passed_on):
            bad.append(f"{name}.py:{node.lineno}")
    assert not bad, bad


@pytest.mark.parametrize("name", ["expert", "heuristic", "random"])
def test_bot_reasons_are_texts_the_hint_shows_in_each_language(name: str) -> None:
    """A hint's reason keeps its English (``Decision.why``) and is shown translated (a reason
    made only of card names, "bid 1: A♠", reads the same in every language)."""
    from spades.bots import make_bot
    from spades.tui.view import hint_reason

    game = Game(Rules.from_spec("standard"), first_dealer=0, seed=5)
    bot = make_bot(name, seed=1)
    seen = differ = 0
    while seen < 8 and not game.is_over:
        seat = game.to_move
        assert seat is not None
        decision = bot.decide(game.observation(seat), game.legal_actions(seat))
        why = decision.why
        assert isinstance(why, Text), why
        english = hint_reason(why)
        for lang in TRANSLATED:
            set_language(lang)
            shown = hint_reason(why)
            set_language("en")
            assert shown
            differ += shown != english
        game.apply(decision.action, seat)
        seen += 1
    bot.close()
    assert differ >= seen * len(TRANSLATED) // 2
