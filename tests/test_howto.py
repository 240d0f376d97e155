"""The "How to play" page: one source per language (docs/howto links to it), served at /howto
in the language asked for (``?lang=``, else the browser's), in each language's card words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spades.i18n import LANGUAGES
from spades.server.app import create_app
from spades.server.howto import pick, source

ROOT = Path(__file__).resolve().parents[1]

WORDS = {
    "en": ["Nil", "Blind Nil", "bag", "follow suit", "spades are broken", "500 points", "dealer"],
    "it": [
        "Nil",
        "Blind Nil",
        "sacc",
        "rispondere al seme",
        "picche non sono rotte",
        "500 punti",
        "mazziere",
    ],
    "sl": ["Nil", "Blind Nil", "presež", "Barvo moraš priznati", "piki niso odprti", "500 točk", "delivc"],
    "fr": ["Nil", "Blind Nil", "sac", "fournir", "pique n'est pas entamé", "500 points", "donneur"],
}
"""Each page in its own card-game words (docs/languages.md's table)."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'howto.db'}")) as c:
        yield c


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_is_served_with_its_words(client: TestClient, lang: str) -> None:
    r = client.get(f"/howto?lang={lang}")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert r.headers["content-language"] == lang
    body = r.text
    assert f'<html lang="{lang}">' in body
    assert '<link rel="stylesheet" href="/static/app.css">' in body
    assert "<script" not in body  # the site's CSP: no inline code, and none is needed
    for word in WORDS[lang]:
        assert word in body, (lang, word)
    for preset in ("standard", "bicycle", "hoyle", "two_player", "suicide", "whiz", "mirror", "jokers"):
        assert f"<code>{preset}</code>" in body, (lang, preset)
    for other in LANGUAGES:  # the other languages one click away
        if other != lang:
            assert f'href="/howto?lang={other}"' in body


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        ("it-IT,it;q=0.9,en;q=0.8", "it"),
        ("de-DE,sl;q=0.5,fr;q=0.7", "fr"),
        ("de-DE", "en"),
        ("", "en"),
        ("sl", "sl"),
    ],
)
def test_the_browser_language_decides_without_lang(client: TestClient, accept: str, lang: str) -> None:
    r = client.get("/howto", headers={"Accept-Language": accept})
    assert r.headers["content-language"] == lang
    assert f'<html lang="{lang}">' in r.text
    assert "Accept-Language" in r.headers["vary"]


def test_lang_wins_over_the_browser_and_junk_is_ignored() -> None:
    assert pick("fr", "it") == "fr"
    assert pick("xx", "sl,en;q=0.1") == "sl"
    assert pick(None, "it;q=0, fr;q=abc, en") == "en"


def test_every_language_has_the_same_sections() -> None:
    """One page per language, never one left behind: the same headings and table rows."""
    shapes = {}
    for lang in LANGUAGES:
        text = source(lang).read_text(encoding="utf-8")
        shapes[lang] = (
            len(re.findall(r"^#+ ", text, re.M)),
            len(re.findall(r"^\|", text, re.M)),
            re.findall(r"`[a-z_0-9]+`", text),
        )
    assert all(shape == shapes["en"] for shape in shapes.values()), shapes


def test_the_docs_are_the_same_source_and_the_lobby_links_to_the_page() -> None:
    for lang in LANGUAGES:
        doc = ROOT / "docs" / "howto" / f"{lang}.md"
        assert doc.resolve() == source(lang).resolve(), "docs/howto/*.md link to the served source"
    index = (ROOT / "src" / "spades" / "server" / "static" / "index.html").read_text(encoding="utf-8")
    assert 'href="/howto"' in index
