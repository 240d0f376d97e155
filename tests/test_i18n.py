"""The catalogs: complete, compiled, with the right plural forms; the language chosen as the
docs say; and every language's terminal text within the 80 columns of the game's screen."""

from __future__ import annotations

import dataclasses
import io
import re
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from rich.console import Console

from spades import i18n
from spades.bots import make_bot
from spades.cli import main
from spades.driver import step
from spades.errors import SpadesError
from spades.i18n import LANGUAGES, _, choose_language, ngettext, set_language
from spades.rules import PRESETS
from spades.state import Game
from spades.tui.screens import HELP_KEYS, HELP_RULES, HELP_RULES_ANY_LEAD, house_rules_help, scoring_help
from spades.tui.view import build_view, score_sheet, status_line

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "spades"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


@pytest.fixture
def speak() -> Iterator[None]:
    """Whatever a test sets, the next test speaks English again."""
    yield
    set_language("en")


def _sources() -> list[Path]:
    """The files ``babel.cfg`` names for extraction."""
    out: list[Path] = []
    for line in (ROOT / "babel.cfg").read_text().splitlines():
        m = re.fullmatch(r"\[python: (.+)\]", line.strip())
        if m:
            out += sorted(ROOT.glob(m[1]))
    return out


Key = tuple[str | None, str | tuple[str, str]]
"""A message as the catalogs key it: its context (``pgettext``) and its id (two for plurals)."""


def _ids_in_source() -> set[Key]:
    ids: set[Key] = set()
    for path in _sources():
        found = extract_from_file("python", str(path), keywords=KEYWORDS)  # type: ignore[arg-type]
        for _line, message, _comments, context in found:
            ids.add((context, message if isinstance(message, str) else (message[0], message[1])))
    return ids


def _catalog(lang: str) -> dict[Key, Any]:
    with i18n.catalog_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang)
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)): m for m in cat if m.id}


def test_babel_cfg_covers_the_terminal_game() -> None:
    names = {p.name for p in _sources()}
    assert {"app.py", "view.py", "screens.py", "widgets.py", "play.py"} <= names


def test_babel_cfg_covers_the_commands_the_engine_errors_and_the_bots() -> None:
    names = {p.name for p in _sources()}
    commands = {"cli.py", "report.py", "match.py", "replay.py", "analyse.py", "serve.py", "verify.py"}
    engine = {"state.py", "legal.py", "rules.py", "record.py", "rulestext.py", "observation.py"}
    assert commands | engine | {"expert.py", "heuristic.py"} <= names


def test_the_template_holds_every_message_of_the_source() -> None:
    """A string wrapped in ``_()`` but not extracted (``pybabel extract`` forgotten) fails here."""
    with (SRC / "locale" / "spades.pot").open("rb") as f:
        template = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in read_po(f) if m.id}
    wanted = _ids_in_source()
    assert wanted - template == set(), "run the pybabel extract of docs/languages.md"
    assert ("seat", "bid {bid}") in wanted and (None, "bid {bid}") in wanted
    assert len(wanted) > 150


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalog_is_complete_and_not_fuzzy(lang: str) -> None:
    catalog = _catalog(lang)
    missing = [m for m in _ids_in_source() if m not in catalog]
    assert not missing, f"{lang}: not in the catalog (pybabel update): {missing[:5]}"
    for (_context, mid), message in catalog.items():
        assert "fuzzy" not in message.flags, f"{lang}: fuzzy: {mid!r}"
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{lang}: untranslated: {mid!r}"
        ids = mid if isinstance(mid, tuple) else (mid,)
        fields = set(re.findall(r"\{\w*\}", ids[-1]))
        for s in strings:  # a singular may leave out {n} ("la prima mano"), never add a field
            assert set(re.findall(r"\{\w*\}", s)) <= fields | set(re.findall(r"\{\w*\}", ids[0])), (lang, s)
            # (click's plurals name a different value in each id: a form keeps one id's fields)
            has = set(re.findall(r"\{\w*\}", s))
            first = set(re.findall(r"\{\w*\}", ids[0]))
            assert has >= fields - {"{n}"} or has >= first - {"{n}"}, (lang, s)


@pytest.mark.parametrize(
    ("lang", "plurals"),
    [
        ("en", "nplurals=2; plural=(n != 1);"),
        ("it", "nplurals=2; plural=(n != 1);"),
        ("fr", "nplurals=2; plural=(n > 1);"),
        ("sl", "nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);"),
    ],
)
def test_plural_forms_headers(lang: str, plurals: str) -> None:
    text = i18n.catalog_path(lang).read_text(encoding="utf-8")
    assert f'"Plural-Forms: {plurals}\\n"' in text
    n = int(plurals.split(";")[0].split("=")[1])
    assert all(len(m.string) == n for m in _catalog(lang).values() if isinstance(m.id, tuple))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_catalog_compiles_in_memory_and_translates(lang: str, speak: None) -> None:
    data = i18n.compile_po(i18n.catalog_path(lang))
    assert data[:4] in (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde")  # the .mo magic number
    set_language(lang)
    assert _("Look at my cards") != "Look at my cards"
    assert _("an id no catalog has") == "an id no catalog has"


def test_slovenian_has_four_plural_forms(speak: None) -> None:
    set_language("sl")
    left = {
        n: ngettext("{n} card left.", "{n} cards left.", n).format(n=n) for n in (1, 2, 3, 4, 5, 101, 102)
    }
    assert left[1] == "Ostala je 1 karta."
    assert left[2] == "Ostali sta 2 karti."
    assert left[3] == "Ostale so 3 karte." and left[4] == "Ostale so 4 karte."
    assert left[5] == "Ostalo je 5 kart."
    assert left[101] == "Ostala je 101 karta." and left[102] == "Ostali sta 102 karti."
    passes = [ngettext("Pass {n} card", "Pass {n} cards", n).format(n=n) for n in (1, 2, 3, 5)]
    assert passes == ["Predaj 1 karto", "Predaj 2 karti", "Predaj 3 karte", "Predaj 5 kart"]
    set_language("fr")  # French: 0 and 1 are singular
    assert ngettext("{n} bag", "{n} bags", 0).format(n=0) == "0 sac"
    assert ngettext("{n} bag", "{n} bags", 2).format(n=2) == "2 sacs"
    set_language("it")
    assert ngettext("{n} bag", "{n} bags", 0).format(n=0) == "0 sacchi"


def test_the_language_is_chosen_option_then_variable_then_locale() -> None:
    assert choose_language(None, {}) == "en"
    assert choose_language(None, {"LANG": "it_IT.UTF-8"}) == "it"
    assert choose_language(None, {"LANG": "sl_SI.UTF-8", "LC_ALL": "fr_FR.UTF-8"}) == "fr"
    assert choose_language(None, {"LANG": "C.UTF-8"}) == "en"
    assert choose_language(None, {"LANG": "de_DE.UTF-8"}) == "en"  # no catalog: English
    assert choose_language(None, {"LANG": "it_IT", "SPADES_LANG": "sl"}) == "sl"
    assert choose_language("FR", {"SPADES_LANG": "sl", "LANG": "it_IT"}) == "fr"
    with pytest.raises(SpadesError, match=r"^SPADES_LANG: unknown language 'de': use one of en, it, sl, fr$"):
        choose_language(None, {"SPADES_LANG": "de"})


def test_a_bad_lang_is_one_line_naming_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--lang", "xx"]) == 1
    err = capsys.readouterr().err
    assert err == "spades: --lang: unknown language 'xx': use one of en, it, sl, fr\n"
    assert i18n.language() == "en"


def test_the_tests_speak_english() -> None:
    assert i18n.language() == "en" and _("Nil") == "Nil"


# ---------------------------------------------------------------------- 80 columns, every language
def _observations() -> Iterator[tuple[Game, int]]:
    """Games of several rule sets, stopped at every kind of moment, from each seat."""
    for preset in (
        "standard",
        "bicycle",
        "suicide",
        "whiz",
        "mirror",
        "two_player",
        "jokers",
        "cutthroat3",
        "hoyle",
    ):
        if preset not in PRESETS:
            continue
        rules = PRESETS[preset]
        game = Game(rules, seed=3)
        bots = [make_bot("random", seed=s) for s in range(rules.players)]
        for i in range(140):
            if game.is_over:
                break
            if i % 3 == 0:
                yield game, i % rules.players
            step(game, bots)


def _long_game() -> Game:
    game = Game(PRESETS["standard"], seed=8)
    bots = [make_bot("random", seed=s) for s in range(4)]
    while len(game.scores) < 14 and not game.is_over:
        step(game, bots)
    return game


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_fits_the_80_column_screen(lang: str, speak: None) -> None:
    """The status bar in its 78 columns, the prompt in its two lines of 78, the help and the
    score sheet inside their 80-column boxes: in each language, for games of several rules."""
    set_language(lang)
    names = {0: "heuristic", 1: "random", 2: "You", 3: "heuristic"}
    seen = 0
    for game, seat in _observations():
        obs = game.observation(seat)
        view = build_view(obs, game.legal_actions(seat) if obs.my_turn else [], names)
        assert len(view.status) <= 78, view.status
        assert len(textwrap.wrap(view.prompt, 78)) <= 2, view.prompt
        seen += 1
    assert seen > 100
    obs = Game(PRESETS["standard"], seed=1).observation(0)
    worst = dataclasses.replace(obs, totals=(-1999, -1999), bags=(99, 99), hand_number=999)
    assert len(status_line(worst, {})) <= 78
    from spades.tui.screens import sheet_table

    sheet = score_sheet(_long_game().observation(2), names)
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(sheet_table(sheet, max_rows=12))
    assert max(len(line.rstrip()) for line in console.export_text().splitlines()) <= 74
    every = PRESETS["jokers"].replace(
        jokers="jjdd", bidding="suicide", big_bid=11, team_min_bid=0, nil_tricks="partner", spades_lead="any"
    )
    sets = [every, *PRESETS.values(), every.replace(jokers="big_little", bidding="mirror", blind_nil=False)]
    sets.append(PRESETS["standard"].replace(team_min_bid=4, bags="off"))
    house = [line for rules in sets for line in house_rules_help(rules)]
    assert not [line for line in house if len(line) > 74]  # 74: the line comes after a bullet
    lines = [line for rules in sets for line in scoring_help(rules).splitlines()]
    for text in (HELP_RULES, HELP_RULES_ANY_LEAD, HELP_KEYS):
        lines += re.sub(r"\[/?b\]", "", _(text)).splitlines()
    too_long = [line for line in lines if len(line) > 76]
    assert not too_long, too_long


# ---------------------------------------------------------------------- the web page's catalog
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_json_catalog_for_the_web_agrees_with_gettext(lang: str) -> None:
    """The browser gets the same words and the same plural rule as the terminal: each message
    and each plural form for 0..200, with the header's expression read as C (as JavaScript does)."""
    import gettext
    import json

    body = json.loads(i18n.catalog_json(lang))
    assert body["lang"] == lang
    messages = body["messages"]
    translations = i18n.translations(lang) if lang != "en" else None
    if translations is not None:
        assert messages["Look at my cards"] == translations.gettext("Look at my cards")
        assert messages["seat\x04bid {bid}"] == translations.pgettext("seat", "bid {bid}")
    forms = messages["{n} card left."]
    assert len(forms) == body["nplurals"]
    plural = gettext.c2py(body["plural"])  # type: ignore[attr-defined]
    for n in range(201):
        expected = (translations or gettext.NullTranslations()).ngettext(
            "{n} card left.", "{n} cards left.", n
        )
        assert forms[plural(n)] == expected, (lang, n)
    with pytest.raises(SpadesError, match="unknown language 'xx'"):
        i18n.catalog_json("xx")


def test_the_server_serves_each_catalog(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from spades.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'i18n.db'}")) as client:
        for lang in LANGUAGES:
            got = client.get(f"/api/i18n/{lang}")
            assert got.status_code == 200 and got.json()["lang"] == lang
        assert client.get("/api/i18n/sl").json()["messages"]["Look at my cards"] == "Poglej karte"
        bad = client.get("/api/i18n/de")
        assert bad.status_code == 404 and "en, it, sl, fr" in bad.text
