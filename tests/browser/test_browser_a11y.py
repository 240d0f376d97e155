"""Accessibility (issue 13, items 4 and 11): axe-core finds no serious or critical violation
on the lobby, a table in each phase (waiting, bidding, play with each panel open, the end of
a hand, game over, on a desktop and a phone) and the replay page; and a whole hand can be
played with the keyboard alone.

axe-core comes vendored in the ``axe-playwright-python`` wheel (the test extra): a test-only
asset injected by Playwright, never loaded by the app."""

from __future__ import annotations

import time
from typing import Any

import pytest
from pageserver import Server, act_once

axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

BOT = {"bot": "heuristic"}
BAD = ("serious", "critical")


def _axe(page: Any, where: str) -> None:
    found = axe_sync.Axe().run(page).response["violations"]
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in found if v["impact"] in BAD]
    assert not bad, f"{where}: {bad}"


def _table(server: Server, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"rules": "standard", "seats": seats, "bot_delay_ms": 0, **extra}
    return dict(server.api("/api/tables", body))


def _wait(server: Server, tid: str, done: Any, limit: float) -> dict[str, Any]:
    end = time.monotonic() + limit
    while True:
        view = dict(server.api(f"/api/tables/{tid}"))
        if done(view) or time.monotonic() > end:
            return view
        time.sleep(0.2)


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 820}, {"width": 390, "height": 844}])
def test_axe_on_the_lobby_a_table_in_each_phase_and_the_replay(
    server: Server, browser: Any, viewport: dict[str, int]
) -> None:
    phone = viewport["width"] < 500
    ctx = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    page.goto(f"{server.base}/")
    page.wait_for_selector("#seat-0")
    _axe(page, "lobby")
    # waiting: our seat by invite link, the name asked
    w = _table(server, [{"open": True}, BOT, {"open": True}, BOT])
    page.goto(f"{server.base}/t/{w['id']}#invite={w['seats'][0]['invite']}")
    page.wait_for_selector("#btn-join")
    _axe(page, "table, waiting")
    # bidding, then play, then each panel
    t = _table(server, [BOT, BOT, {"open": True, "name": "Pat"}, BOT])
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][2]['token']}")
    page.wait_for_selector("#btn-look")
    _axe(page, "table, bidding")
    end = time.monotonic() + 60
    while time.monotonic() < end and not page.locator("#turn-line").count():
        if act_once(page) in (None, "continue"):
            page.wait_for_timeout(40)
    _axe(page, "table, play")
    for button, panel in [("#btn-sheet", "#side"), ("#btn-chat", "#chatbox")]:
        shown = page.locator(f"{panel}:not([hidden])").count() > 0  # a desktop shows the sheet
        if not shown:
            page.click(button)
        page.wait_for_selector(f"{panel}:not([hidden])")
        _axe(page, f"table, {button}")
        if not shown:
            page.click(button)
    for button in ("#btn-tricks", "#btn-options"):
        page.click(button)
        page.wait_for_selector("#modal:not([hidden])")
        _axe(page, f"table, {button}")
        page.click("#btn-close")
    # the end of a hand (bots only, watched) and game over
    b = _table(server, [BOT] * 4, rules={"preset": "standard", "target": 150}, bot_delay_ms=30)
    page.goto(f"{server.base}/t/{b['id']}")
    page.wait_for_selector(".dialog", timeout=60000)
    _axe(page, "table, end of hand")
    _wait(server, b["id"], lambda v: v["status"] == "over", 90)
    page.goto(f"{server.base}/t/{b['id']}")
    page.wait_for_selector(".caption.result")
    _axe(page, "table, game over")
    page.goto(f"{server.base}/replay?table={b['id']}")
    page.wait_for_selector("#rboard .seat:not([hidden])")
    _axe(page, "replay")
    ctx.close()


def test_a_whole_hand_with_the_keyboard_alone(server: Server, browser: Any) -> None:
    """No click: the focus goes to the first thing to do on our turn (Look, a bid, a card),
    Tab moves among the bids, Enter acts, and the end-of-hand dialog takes Enter too."""
    rules = {"preset": "standard", "blind_nil": False}
    t = _table(server, [BOT, BOT, {"open": True, "name": "Kay"}, BOT], rules=rules)
    page = browser.new_page(viewport={"width": 1280, "height": 820})
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][2]['token']}")
    page.wait_for_selector(".chip.you")
    focus = "() => { const a = document.activeElement; return a ? `${a.id}|${a.className}|` : ''; }"
    cards = "() => document.querySelectorAll('#hand button.card').length"
    played = 0
    end = time.monotonic() + 120
    while time.monotonic() < end:
        if page.locator("#btn-continue").is_visible():
            assert page.evaluate(focus).startswith("btn-continue|")
            page.keyboard.press("Enter")
            break
        view = page.evaluate("() => document.getElementById('status').textContent")
        if "Your turn" not in view:
            page.wait_for_timeout(40)
            continue
        page.wait_for_timeout(120)  # the page settles on our turn
        where = page.evaluate(focus)
        if where.startswith("btn-look|"):
            page.keyboard.press("Enter")
        elif "bid" in where.split("|")[1].split():
            for _ in range(3):  # from Nil to 3 tricks
                page.keyboard.press("Tab")
            page.keyboard.press("Enter")
        elif "card" in where.split("|")[1].split():
            held = page.evaluate(cards)
            page.keyboard.press("Enter")
            played += 1
            # played: one card fewer, or (the 13th) the end-of-hand dialog
            page.wait_for_function(
                f"() => ({cards[6:]}) < {held} || !document.getElementById('modal').hidden"
            )
        elif page.evaluate(focus).startswith("|"):
            raise AssertionError(f"our turn, and the focus is nowhere: {view}")
        page.wait_for_timeout(60)
    sheet = _wait(server, t["id"], lambda v: len(v["sheet"]) >= 1, 10)["sheet"]
    assert played == 13 and len(sheet) == 1
    assert page.locator("#modal").is_hidden()
    page.close()
