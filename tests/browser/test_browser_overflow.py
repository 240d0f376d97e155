"""Long Italian, French and Slovenian words fit their boxes (issue 13): on every page (the
lobby, a table waiting, bidding and in play with its panels and dialogs open, the summary at
a hand's end, a finished table, the replay, "How to play", the account pages) at 1366x800 and 390x844, no
button, label, table cell or other box of text is narrower than its text (``scrollWidth >
clientWidth``: cut, ellipsised or spilling out), no top-bar button's label wraps, and the page
is never wider than the screen (``overflow.js`` measures)."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

import pytest
from pageserver import Server, act_once

BOT = {"bot": "heuristic"}
PROBE = (Path(__file__).parent / "overflow.js").read_text(encoding="utf-8")
SIZES = [(1366, 800), (390, 844)]
LANGS = ["it", "fr", "sl"]


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    """A finished game of two people and two bots (the stand-ins played it)."""
    seats = [{"open": True, "name": "Pat"}, BOT, {"open": True, "name": "Bea"}, BOT]
    body = {"rules": {"preset": "standard", "target": 100}, "seats": seats, "bot_delay_ms": 0, "away_s": 1}
    t: dict[str, Any] = server.api("/api/tables", body)
    end = time.monotonic() + 90
    while server.api(f"/api/tables/{t['id']}")["status"] != "over" and time.monotonic() < end:
        time.sleep(0.2)
    return t


def _fits(page: Any, what: str, problems: list[str]) -> None:
    got = page.evaluate(PROBE)
    if got["scroll"] > got["width"]:
        problems.append(f"{what}: the page is {got['scroll']} px wide in {got['width']}")
    problems += [f"{what}: {o}" for o in got["over"]]
    problems += [f"{what}: a top-bar label wraps: {w}" for w in got["wrapped"]]


def _modal(page: Any, key: str) -> None:
    page.keyboard.press(key)
    page.wait_for_selector("#modal:not([hidden])")


def _close_modal(page: Any) -> None:
    page.evaluate("() => { document.getElementById('modal').hidden = true; }")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_page_fits_its_words(
    server: Server, browser: Any, finished: dict[str, Any], lang: str, width: int, height: int
) -> None:
    phone = width < 500
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, locale=lang, is_mobile=phone, has_touch=phone
    )
    page = ctx.new_page()
    problems: list[str] = []
    base = server.base
    # the lobby, its every option open
    page.goto(base + "/")
    page.wait_for_selector("#seat-0")
    page.click("#more summary")
    _fits(page, "lobby", problems)
    page.goto(f"{base}/howto?lang={lang}")
    page.wait_for_selector("h1")
    _fits(page, "how to play", problems)
    # the account pages, a guest's then an account's
    page.goto(base + "/signin")
    page.wait_for_selector("#btn-signup")
    _fits(page, "sign in", problems)
    name = f"lang{secrets.token_hex(3)}"
    page.fill("#up-name", name)
    page.fill("#up-password", "correct horse battery")
    page.click("#btn-signup")
    page.wait_for_url("**/account")
    page.wait_for_selector("#me-name")
    _fits(page, "account", problems)
    page.goto(f"{base}/u/{name}")
    page.wait_for_selector("#stats-panel", state="visible")
    _fits(page, "profile", problems)
    page.goto(base + "/leaderboard")
    page.wait_for_selector("#family option", state="attached")
    _fits(page, "leaderboard", problems)
    page.goto(base + "/history")
    page.wait_for_load_state("networkidle")
    _fits(page, "history", problems)
    # the replay of a finished game, a few tricks in
    page.goto(f"{base}/replay?table={finished['id']}")
    page.wait_for_selector("#viewer:not([hidden])")
    page.click("#next")
    page.wait_for_selector("#rcentre .played")
    _fits(page, "replay", problems)
    # a finished table, seated
    page.goto(f"{base}/t/{finished['id']}#token={finished['seats'][0]['token']}")
    page.wait_for_selector("#btn-rematch")
    _fits(page, "game over", problems)
    # a table waiting for us: the seat form
    t = server.api(
        "/api/tables", {"rules": "standard", "seats": [BOT, BOT, {"open": True}, BOT], "bot_delay_ms": 0}
    )
    page.goto(f"{base}/t/{t['id']}#invite={t['seats'][2]['invite']}")
    page.wait_for_selector("#btn-join")
    _fits(page, "waiting", problems)
    page.fill("#join-name", "Pat")
    page.click("#btn-join")
    # bidding, then play with every panel and dialog
    page.wait_for_selector("#btn-look, #controls button.bid", timeout=30_000)
    _fits(page, "bidding", problems)
    end = time.monotonic() + 30
    while time.monotonic() < end and not page.locator("#turn-line").count():
        if act_once(page) is None:
            page.wait_for_timeout(40)
    _fits(page, "in play", problems)
    on = "() => document.getElementById('btn-sheet').classList.contains('on')"
    was = page.evaluate(on)
    page.click("#btn-sheet")
    page.wait_for_function(f"() => ({on})() !== {str(was).lower()}")
    _fits(page, "in play, score sheet toggled", problems)
    for key, what in (("t", "tricks"), ("o", "options")):
        _modal(page, key)
        _fits(page, what, problems)
        _close_modal(page)
    page.click("#btn-chat")
    page.wait_for_selector("#chatbox:not([hidden])")
    _fits(page, "chat", problems)
    page.click("#btn-chat")
    page.wait_for_selector("#chatbox", state="hidden")
    # on to the hand's end: its summary
    end = time.monotonic() + 60
    while time.monotonic() < end and not page.locator("#btn-continue").is_visible():
        if act_once(page, dismiss=False) is None:
            page.wait_for_timeout(40)
    _fits(page, "the hand's summary", problems)
    ctx.close()
    assert not problems, f"{lang} {width}x{height}:\n" + "\n".join(dict.fromkeys(problems))
