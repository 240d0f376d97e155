"""What players of online Spades rooms expect (issue 13, item 3), in a real browser: each
side's contract progress and live bags, a review of every trick of the hand, confirm before
play, table chat between two people in two languages, the four-colour deck and large cards,
and a card animation that respects prefers-reduced-motion."""

from __future__ import annotations

import json
import time
from typing import Any

from pageserver import Server, act_once

BOT = {"bot": "heuristic"}


def _table(server: Server, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"rules": "standard", "seats": seats, "bot_delay_ms": 0, **extra}
    return dict(server.api("/api/tables", body))


def _seated(browser: Any, server: Server, t: dict[str, Any], seat: int, **ctx: Any) -> Any:
    prefs = ctx.pop("prefs", None)
    context = browser.new_context(viewport=ctx.pop("viewport", {"width": 1280, "height": 820}), **ctx)
    if prefs is not None:
        context.add_init_script(f"localStorage.setItem('spades.prefs', {json.dumps(json.dumps(prefs))})")
    page = context.new_page()
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][seat]['token']}")
    page.wait_for_selector(".chip.you")
    return page


def test_progress_review_and_confirm_before_play(server: Server, browser: Any) -> None:
    t = _table(server, [BOT, BOT, {"open": True, "name": "Pat"}, BOT])
    page = _seated(browser, server, t, 2, prefs={"confirm": True})
    # first clicks of a card only choose it (confirm is on): play through the confirm button
    end = time.monotonic() + 60
    while time.monotonic() < end and not page.locator("#turn-line").count():
        if act_once(page) in (None, "continue"):
            page.wait_for_timeout(40)
    if page.locator("#btn-unarm").count():  # act_once chose a card as the turn came: undo
        page.click("#btn-unarm")
    before = page.locator("#hand button.card").count()
    card = page.locator("#hand button.card.legal:not([disabled])").first
    name = card.get_attribute("aria-label")
    card.click()
    page.wait_for_selector("#btn-confirm")
    assert page.locator("#hand button.card").count() == before
    assert name and name in page.inner_text("#btn-confirm")
    page.click("#btn-confirm")
    page.wait_for_function(f"() => document.querySelectorAll('#hand button.card').length === {before - 1}")
    # a screen reader hears each card played, ours too, in words (a polite live region)
    page.wait_for_function("() => / played the .+ of /.test(document.getElementById('announce').textContent)")
    assert page.get_attribute("#announce", "aria-live") == "polite"
    # on to trick 5, confirming each card
    while time.monotonic() < end + 60:
        if page.locator("#turn-line").count() and "trick 5 of" in page.inner_text("#status"):
            break
        if page.locator("#btn-confirm").count():
            page.click("#btn-confirm")
        elif page.locator("#turn-line").count():
            page.locator("#hand button.card.legal:not([disabled])").first.click()
        page.wait_for_timeout(50)
    view = server.api(f"/api/tables/{t['id']}")
    # "NS won/contract" and the live bags in the top bar
    for side in (0, 1):
        seats = [side, side + 2]
        contract = sum(b for b in (view["bids"][s] for s in seats) if isinstance(b, int))
        won = sum(view["tricks_won"][s] for s in seats)
        box = page.locator(f"#score .side-score[data-side='{side}']")
        assert box.locator(".contract").inner_text().strip() == f"{won}/{contract}"
        bags = view["bags"][side] + max(0, won - contract)
        assert box.locator(".bags").inner_text().strip() == f"{bags}b"
    # every trick of the hand so far: its cards in order, the winners as the server counted
    page.keyboard.press("t")
    page.wait_for_selector("#review li")
    items = page.locator("#review li")
    assert items.count() == 4 + (len(view["plays"]) % 4 > 0)  # four done, maybe one in progress
    labels = page.locator("#review li .card-svg").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert len(labels) == len(view["plays"])
    wins = [0, 0, 0, 0]
    names = view["players"]
    for i in range(4):
        who = items.nth(i).locator(".review-who").inner_text()
        winner = next(s for s in range(4) if who.endswith(names[s]))
        wins[winner] += 1
    assert wins == view["tricks_won"]
    page.keyboard.press("Escape")
    page.context.close()


def test_chat_between_two_people_in_two_languages(server: Server, browser: Any) -> None:
    t = _table(
        server, [{"open": True, "name": "Ann"}, BOT, {"open": True, "name": "Bea"}, BOT], bot_delay_ms=3000
    )
    ann = _seated(browser, server, t, 0, locale="en-GB")
    bea = _seated(browser, server, t, 2, locale="it-IT")
    ann.click("#btn-chat")
    ann.click("#chatbox button[data-quick='good_luck']")
    bea.wait_for_function("() => document.querySelector('#btn-chat').textContent.includes('(1)')")
    bea.keyboard.press("c")
    bea.wait_for_selector("#chat-log li")
    assert "Ann: Buona fortuna!" in bea.inner_text("#chat-log")
    ann.fill("#chat-text", "<b>hi</b> & bye")
    ann.press("#chat-text", "Enter")
    bea.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2")
    assert bea.locator("#chat-log li").nth(1).inner_text() == "Ann: <b>hi</b> & bye"
    assert bea.locator("#chat-log b").count() == 0  # shown as text, never as HTML
    assert "Ann: Good luck!" in ann.inner_text("#chat-log")
    ann.context.close()
    bea.context.close()


def test_chat_off_at_a_table_hides_the_button(server: Server, browser: Any) -> None:
    t = _table(server, [{"open": True, "name": "Ann"}, BOT, BOT, BOT], chat=False, bot_delay_ms=3000)
    page = _seated(browser, server, t, 0)
    assert page.locator("#btn-chat").is_hidden()
    page.context.close()


def test_four_colours_large_cards_and_reduced_motion(server: Server, browser: Any) -> None:
    t = _table(server, [{"open": True, "name": "Ann"}, BOT, BOT, BOT], bot_delay_ms=3000)
    plain = _seated(browser, server, t, 0)
    plain.wait_for_selector("#btn-look, #hand button.card")
    if plain.locator("#btn-look").count():
        plain.click("#btn-look")
    plain.wait_for_selector("#hand button.card")
    card_width = "() => document.querySelector('#hand button.card').getBoundingClientRect().width"
    width = plain.evaluate(card_width)
    # options: the dialog, kept in this browser
    plain.click("#btn-options")
    plain.check("#pref-fourColour")
    plain.check("#pref-large")
    plain.keyboard.press("Escape")
    prefs = json.loads(plain.evaluate("localStorage.getItem('spades.prefs')"))
    assert prefs["fourColour"] and prefs["large"]
    plain.reload()
    plain.wait_for_selector("#hand button.card")
    assert plain.evaluate(card_width) > width * 1.15
    fills = plain.locator("#hand button.card .card-svg g").evaluate_all(
        "els => els.map(e => e.getAttribute('fill'))"
    )
    colours = {c for c in fills if c}
    assert (
        colours <= {"#1b1b1f", "#c4122f", "#1456b8", "#137333"} and len(colours & {"#1456b8", "#137333"}) >= 1
    )
    # the card just played moves in, unless the system asks for less motion
    probe = (
        "() => { const d = document.createElement('div'); d.className = 'played fresh at-1';"
        " document.getElementById('centre').appendChild(d); const a = getComputedStyle(d).animationName;"
        " d.remove(); return a; }"
    )
    assert plain.evaluate(probe) == "from-left"
    plain.context.close()
    still = _seated(browser, server, t, 0, reduced_motion="reduce")
    assert still.evaluate(probe) == "none"
    still.context.close()


def test_rematch_at_game_over_opens_a_new_table_in_the_same_seat(server: Server, browser: Any) -> None:
    """A short game played for us by the stand-in bot (we are away from the start)."""
    rules = {"preset": "standard", "target": 100}
    t = _table(server, [BOT, BOT, {"open": True, "name": "Pat"}, BOT], rules=rules, away_s=1)
    end = time.monotonic() + 90
    while server.api(f"/api/tables/{t['id']}")["status"] != "over" and time.monotonic() < end:
        time.sleep(0.3)
    page = _seated(browser, server, t, 2)
    status = page.inner_text("#status")
    assert status.startswith(("You won.", "You lost.")), status
    page.click("#btn-rematch")
    page.wait_for_url(lambda url: t["id"] not in url)
    page.wait_for_selector(".chip.you")
    new_id = page.url.rsplit("/", 1)[1]
    view = server.api(f"/api/tables/{new_id}")
    assert view["players"][2] == "Pat" and view["rules"] == server.api(f"/api/tables/{t['id']}")["rules"]
    assert [s["kind"] for s in view["seats"]] == ["bot", "bot", "human", "bot"]
    page.context.close()
