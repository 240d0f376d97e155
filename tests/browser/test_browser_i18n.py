"""The web pages in the browser's language: a browser set to Italian sees the lobby, a table
and the replay in Italian words; the picker's choice is kept across pages and reloads and is
applied in place; a server refusal is shown in the page's language."""

from __future__ import annotations

import json
import re
from typing import Any

from pageserver import Server, act_once

BOT = {"bot": "heuristic"}


def _table(server: Server, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"rules": "standard", "seats": seats, "bot_delay_ms": 0, **extra}
    return dict(server.api("/api/tables", body))


def test_italian_browser_sees_italian_lobby_and_table(server: Server, browser: Any) -> None:
    ctx = browser.new_context(locale="it-IT", viewport={"width": 1280, "height": 820})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/")
    page.wait_for_selector("#seat-0")
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.input_value("#lang") == "it"
    lobby = page.inner_text("main")
    for word in ("Nuovo tavolo", "Tavoli aperti", "Regole della casa", "Crea il tavolo", "Posti"):
        assert word in lobby, word
    assert "New table" not in lobby and "Create table" not in lobby
    # the rule options' words, built by the script, are Italian too
    assert "Si gioca a" in page.inner_text("#options-main")
    # a table with us at South: seats, bids and the turn line in Italian
    t = _table(server, [BOT, BOT, {"open": True, "name": "Pia"}, BOT])
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][2]['token']}")
    page.wait_for_selector(".chip.you")
    board = page.inner_text("#board")
    assert "Nord" in board and "Ovest" in board and "tu" in board
    seen = ""
    for _ in range(400):  # play until our turn to play a card: the Italian turn line
        if page.locator("#turn-line").count():
            seen = page.inner_text("#turn-line")
            break
        if act_once(page) in (None, "continue"):
            page.wait_for_timeout(40)
    assert seen.startswith("Tocca a te"), seen
    assert "dich." in page.inner_text("#board")  # the seat's bid, "dich. 3"
    # a card's name for a screen reader, in the game's words ("donna di quadri")
    label = page.locator("#hand button.card").first.get_attribute("aria-label") or ""
    assert re.search(r"\b(di|asso|re|donna|fante)\b", label) and " of " not in label, label
    status = page.inner_text("#status")
    assert status.startswith("Mano ") and "presa" in status, status
    assert errors == []
    ctx.close()


def test_the_picker_persists_and_applies_in_place(server: Server, browser: Any) -> None:
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 820})
    page = ctx.new_page()
    page.goto(f"{server.base}/")
    page.wait_for_selector("#seat-0")
    assert page.input_value("#lang") == "en" and "New table" in page.inner_text("main")
    page.evaluate("window.__same = 1")  # gone if the page reloads
    page.select_option("#lang", "sl")
    page.wait_for_function("() => document.documentElement.lang === 'sl'")
    assert "Nova miza" in page.inner_text("main")
    assert "Sever" in page.inner_text("#seats")  # seats redrawn by the script
    assert page.evaluate("window.__same") == 1
    assert page.evaluate("localStorage.getItem('spades.lang')") == "sl"
    # "How to play" opens in the picked language, not the browser's
    assert page.get_attribute('a[href^="/howto"]', "href") == "/howto?lang=sl"
    # another page and a reload keep the choice
    page.goto(f"{server.base}/replay")
    page.wait_for_function("() => document.documentElement.lang === 'sl'")
    assert "Odpri datoteko z zapisom" in page.inner_text("main")
    page.select_option("#lang", "fr")
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert "Ouvrir un fichier" in page.inner_text("main")
    ctx.close()


def test_a_server_refusal_is_shown_in_the_pages_language(server: Server, browser: Any) -> None:
    t = _table(server, [BOT, BOT, {"open": True, "name": "Pia"}, BOT], hints=False)
    ctx = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 820})
    page = ctx.new_page()
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][2]['token']}")
    page.wait_for_selector(".chip.you")
    page.evaluate("() => 0")
    # the server answers a hint at a table without hints in English; the page says it in French
    page.keyboard.press("h")
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast") == "Les conseils sont désactivés à cette table."
    ctx.close()


def test_a_message_with_an_id_is_translated(server: Server, browser: Any) -> None:
    """An error the server sends as an id and values ({"msgid", "fields"}) is shown through
    the catalog, its values translated too."""
    t = _table(server, [BOT, BOT, {"open": True, "name": "Pia"}, BOT])
    ctx = browser.new_context(locale="it-IT", viewport={"width": 1280, "height": 820})
    page = ctx.new_page()
    routes: list[Any] = []

    def relay(ws: Any) -> None:
        ws.connect_to_server()
        routes.append(ws)

    page.route_web_socket(re.compile(r".*/ws/.*"), relay)
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][2]['token']}")
    page.wait_for_selector(".chip.you")
    # as spades.errors.reply_fields puts it beside the English message
    fields = {"bot": "x", "action": {"msgid": "Your turn", "fields": {}}}
    error = {"type": "error", "message": "x", "msgid": "Hint ({bot}): {action}", "fields": fields}
    routes[-1].send(json.dumps(error))
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast") == "Suggerimento (x): Tocca a te"
    ctx.close()


def test_the_pages_plural_rule_agrees_with_gettext(server: Server, browser: Any) -> None:
    """The page reads each catalog's Plural-Forms with its own small parser (no eval under the
    server's Content-Security-Policy): the same form as gettext's for 0..200, in each language."""
    import gettext

    from spades import i18n

    page = browser.new_page()
    page.goto(f"{server.base}/replay")
    page.wait_for_selector("#lang")
    for lang in i18n.LANGUAGES:
        expr = json.loads(i18n.catalog_json(lang))["plural"]
        got = page.evaluate(
            "async (e) => { const m = await import('/static/common.js'); const f = m.pluralRule(e);"
            " return [...Array(201).keys()].map(f); }",
            expr,
        )
        want = [gettext.c2py(expr)(n) for n in range(201)]
        assert got == want, lang
    page.close()
