"""The web pages' words: every message the JavaScript and the HTML show is extracted into the
one catalog and translated in each language, and no sentence is left outside ``t()``.

The checker reads the pages as Babel does (its JavaScript lexer; the HTML through
``spades.server.htmlwords``) and then looks for what the extraction would miss: a call
inside a template literal (``${t("...")}`` is one token to Babel), and literal text that
is shown without going through ``t()`` / ``nt()`` / ``pt()`` (a string that reads like
words, outside a keyword call, not a class name, a selector or a key name). A line that
must keep its English says why with a ``// i18n-ok`` comment."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from spades import i18n
from spades.i18n import LANGUAGES
from spades.server.htmlwords import words

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "spades" / "server" / "static"
# The lobby, table and replay pages (a new page joins these lists once its words go through t()).
JS = [STATIC / f for f in ("cards.js", "common.js", "lobby.js", "replay.js", "table.js")]
HTML = [STATIC / f for f in ("index.html", "replay.html", "table.html")]
KEYWORDS: dict[str, Any] = {"t": None, "tr": None, "nt": (1, 2), "pt": ((1, "c"), 2)}
Key = tuple[str | None, str]


def _js_ids(path: Path) -> set[Key]:
    found = extract_from_file("javascript", str(path), keywords=KEYWORDS, options={"template_string": "true"})
    return {(ctx, msg if isinstance(msg, str) else msg[0]) for _line, msg, _c, ctx in found}


def _page_ids() -> set[Key]:
    ids: set[Key] = set()
    for path in JS:
        ids |= _js_ids(path)
    for path in HTML:
        ids |= {(None, text) for _line, _kw, text, _c in words(path.read_text(encoding="utf-8"))}
    return ids


def _catalog(lang: str) -> dict[Key, Any]:
    with i18n.catalog_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang)
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in cat if m.id}


def test_babel_cfg_names_the_pages_and_the_helpers() -> None:
    cfg = (ROOT / "babel.cfg").read_text()
    assert "[javascript: src/spades/server/static/*.js]" in cfg
    assert "keywords = t tr nt:1,2 pt:1c,2" in cfg
    assert "[html: src/spades/server/static/*.html]" in cfg and "spades.server.htmlwords:extract" in cfg


def test_the_extraction_finds_the_pages_words() -> None:
    ids = _page_ids()
    assert len(ids) > 200
    # one of each kind: a plain call, a plural, a context, an HTML text, an HTML attribute
    assert (None, "Your turn: tap a highlighted card.") in ids
    assert (None, "{n} card") in ids
    assert ("card", "{rank} of {suit}") in ids
    assert (None, "Games in progress and finished") in ids
    assert (None, "Hint (H)") in ids


def test_every_call_is_seen_by_the_extraction() -> None:
    """A ``t("...")`` the extractor does not see (inside a template literal) would show in
    English in every language: each call the source holds must be in the extraction."""
    call = re.compile(
        r"\b(?:t|tr|nt)\(\s*\"((?:[^\"\\]|\\.)*)\"|\bpt\(\s*\"((?:[^\"\\]|\\.)*)\",\s*\"((?:[^\"\\]|\\.)*)\""
    )
    for path in JS:
        seen = _js_ids(path)
        for m in call.finditer(path.read_text(encoding="utf-8")):
            key = (m[2], m[3]) if m[3] is not None else (None, m[1])
            assert key in seen, f"{path.name}: {key} is not extracted (a call inside a template literal?)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_of_the_pages_is_in_each_catalog(lang: str) -> None:
    catalog = _catalog(lang)
    missing = sorted(str(k) for k in _page_ids() if k not in catalog)
    assert not missing, (
        f"{lang}: not in the catalog (extract and update the catalogs: docs/languages.md): {missing[:8]}"
    )
    for key in _page_ids():
        m = catalog[key]
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strings) and "fuzzy" not in m.flags, f"{lang}: untranslated {key}"
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        fields = set(re.findall(r"\{\w+\}", ids[-1]))
        for s in strings:
            assert set(re.findall(r"\{\w+\}", s)) >= fields - {"{n}"}, (lang, key, s)


def test_the_json_catalog_serves_the_pages_words() -> None:
    """What the page fetches (GET /api/i18n/it) holds the words, plurals as lists."""
    import json

    body = json.loads(i18n.catalog_json("it"))
    assert body["messages"]["Games in progress and finished"] == "Partite in corso e finite"
    assert body["messages"]["card\x04{rank} of {suit}"] == "{rank} di {suit}"
    assert body["messages"]["{n} card"] == ["{n} carta", "{n} carte"]


# ------------------------------------------------------------------ no English left outside t()
TEXT = re.compile(r"[A-Za-z]{2,}[,.:;!?]? +[A-Za-z]{2,}|^[A-Z][a-z]+\b")
"""A literal that reads like words: two words, or a capitalised word ("Nil", "Scores")."""
ALLOWED = {
    # key names compared with KeyboardEvent.key, media queries, HTTP words, the SVG namespace
    "ArrowRight",
    "ArrowLeft",
    "Escape",
    "Enter",
    "Tab",
    "(hover: none), (pointer: coarse)",
    "(min-width: 900px)",
    "(prefers-reduced-motion: reduce)",
    "Georgia, 'Times New Roman', serif",
    "Georgia, serif",
    "system-ui, sans-serif",
}
NOT_SHOWN_AFTER = {
    # a literal after these is a class, an id, a selector, an event, a type or a key, never text
    "class",
    "className",
    "querySelector",
    "querySelectorAll",
    "getElementById",
    "toggle",
    "addEventListener",
    "matchMedia",
    "createElement",
    "createElementNS",
    "key",
    "type",
    "add",
    "remove",
    "contains",
    "closest",
    "setItem",
    "getItem",
    "removeItem",
    "font-family",
    "from",
}


def _tokens(source: str) -> list[Any]:
    from babel.messages import jslexer

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return list(jslexer.tokenize(source, jsx=False, dotted=False, template_string=True))


def _template_parts(body: str) -> tuple[str, list[str]]:
    """A template literal's text (its ``${}`` left out) and the code of each ``${}``."""
    text, codes, i = [], [], 0
    while i < len(body):
        if body.startswith("${", i):
            depth, j = 1, i + 2
            while j < len(body) and depth:
                depth += {"{": 1, "}": -1}.get(body[j], 0)
                j += 1
            codes.append(body[i + 2 : j - 1])
            i = j
        else:
            text.append(body[i])
            i += 1
    return "".join(text), codes


def _shown_literals(source: str, first_line: int = 1) -> Iterator[tuple[int, str]]:
    """(line, text) of each literal that reads like words and is not a keyword call's id."""
    toks = [t for t in _tokens(source) if t.type not in ("linecomment", "multilinecomment")]
    depth_in_call: list[int] = []  # paren depth of each open keyword call
    depth = 0
    for i, tok in enumerate(toks):
        if tok.type == "operator" and tok.value in ("(", "[", "{"):
            depth += 1
            if i and toks[i - 1].type == "name" and toks[i - 1].value in KEYWORDS and tok.value == "(":
                depth_in_call.append(depth)
            continue
        if tok.type == "operator" and tok.value in (")", "]", "}"):
            if depth_in_call and depth_in_call[-1] == depth:
                depth_in_call.pop()
            depth -= 1
            continue
        if tok.type not in ("string", "template_string"):
            continue
        line = first_line + tok.lineno - 1
        if tok.type == "template_string":
            text, codes = _template_parts(tok.value[1:-1])
            for code in codes:
                yield from _shown_literals(code, line)
        else:
            text = tok.value[1:-1]
        in_call_id = bool(depth_in_call) and depth_in_call[-1] == depth and toks[i - 1].value in ("(", ",")
        before = [t.value.strip("\"'") for t in toks[max(0, i - 3) : i] if t.type in ("name", "string")]
        if in_call_id or text in ALLOWED or (before and before[-1] in NOT_SHOWN_AFTER):
            continue
        if TEXT.search(text):
            yield line, text


@pytest.mark.parametrize("path", JS, ids=lambda p: p.name)
def test_no_sentence_is_left_outside_t_in_the_javascript(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    left = [
        f"{path.name}:{n}: {text!r}"
        for n, text in _shown_literals(path.read_text(encoding="utf-8"))
        if "i18n-ok" not in lines[n - 1]
    ]
    assert not left, "words shown without t():\n" + "\n".join(left)


def test_the_checker_catches_a_sentence_and_a_call_in_a_template() -> None:
    """The checker itself: it flags English text, and lets ids, classes and keys pass."""
    bad = 'box.appendChild(h("p", {}, "Your turn now")); const x = `Hand ${n} over`;'
    assert [t for _l, t in _shown_literals(bad)] == ["Your turn now", "Hand  over"]
    good = 'h("p", { class: "hint line" }, t("Your turn now")); if (e.key === "Escape") go(`pos-${p}`);'
    assert list(_shown_literals(good)) == []
    nested = 'const s = `${why ? ` — ${t("Why so")}` : ""}${x ? "Some words here" : ""}`;'
    assert [t for _l, t in _shown_literals(nested)] == ["Some words here"]


class _Visible:
    """Text and attributes of an HTML page that a person reads, with whether they are marked."""

    def __init__(self, text: str) -> None:
        from html.parser import HTMLParser

        self.left: list[str] = []
        stack: list[tuple[str, bool]] = []
        outer = self

        class P(HTMLParser):
            def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
                a = dict(attrs)
                marked = "data-i18n" in a or bool(stack and stack[-1][1])
                attrs_marked = set((a.get("data-i18n-attrs") or "").split())
                for name in ("title", "placeholder", "aria-label", "alt"):
                    if a.get(name) and name not in attrs_marked:
                        outer.left.append(f"<{tag} {name}={a[name]!r}>")
                if tag not in ("meta", "link", "input", "br", "img"):
                    stack.append((tag, marked))

            def handle_endtag(self, tag: str) -> None:
                while stack and stack.pop()[0] != tag:
                    pass

            def handle_data(self, data: str) -> None:
                inside = stack[-1] if stack else ("", False)
                if inside[0] in ("script", "style") or inside[1]:
                    return
                if re.search(r"[A-Za-z]{2,}", data):
                    outer.left.append(data.strip())

        P(convert_charrefs=True).feed(text)


@pytest.mark.parametrize("path", HTML, ids=lambda p: p.name)
def test_no_text_of_the_html_is_left_unmarked(path: Path) -> None:
    left = _Visible(path.read_text(encoding="utf-8")).left
    assert not left, f"{path.name}: text without data-i18n: {left}"
