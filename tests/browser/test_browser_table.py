"""The table page's defects of issue 13 (web table 1-6, 8, 10), each seen in a real browser
against a real server: the end-of-hand summary, the bag penalty, an unknown table link, the
last trick, the top bar under the pointer, the score sheet's width, and the wording."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from pageserver import Server, act_once

BOT = {"bot": "heuristic"}
RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RAW_CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")


def card_name(card: str) -> str:
    return f"{RANK_NAMES.get(card[0], card[0])} of {SUIT_NAMES[card[1]]}"


def new_table(server: Server, seats: list[dict[str, Any]], delay: int = 0, **extra: Any) -> dict[str, Any]:
    rules = extra.pop("rules", {"preset": "standard"})
    body = {"rules": rules, "seats": seats, "bot_delay_ms": delay, **extra}
    out: dict[str, Any] = server.api("/api/tables", body)
    return out


def wait_api(server: Server, table_id: str, done: Any, seconds: float = 60) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while True:
        view: dict[str, Any] = server.api(f"/api/tables/{table_id}")
        if done(view) or time.monotonic() > end:
            return view
        time.sleep(0.1)


def person_page(browser: Any, server: Server, t: dict[str, Any], seat: int, **ctx: Any) -> Any:
    context = browser.new_context(**({"viewport": {"width": 1280, "height": 820}} | ctx))
    page = context.new_page()
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][seat]['token']}")
    page.wait_for_selector(".chip.you")
    return page


@pytest.fixture(scope="module")
def played(server: Server) -> dict[str, Any]:
    """A bots' game with a low bag limit (so penalties happen), played to its end. The server
    deals from a secure random source, so a game may end (a Blind Nil's swing) before any side
    reaches the limit: then another is played, up to five."""
    rules = {"preset": "standard", "target": 300, "bag_limit": 3}
    for _ in range(5):
        t = new_table(server, [BOT] * 4, delay=0, rules=rules)
        view = wait_api(server, t["id"], lambda v: v["status"] == "over", 120)
        assert view["status"] == "over"
        if any(sum(r["penalties"]) for r in view["sheet"]):
            return view
    raise AssertionError("no bag penalty in five games")


# 1 -------------------------------------------------------------------------------------
def test_hand_summary_shows_the_hands_13th_trick(server: Server, browser: Any) -> None:
    t = new_table(server, [BOT] * 4, delay=40)
    page = browser.new_page(viewport={"width": 1280, "height": 820})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server.base}/t/{t['id']}")
    page.wait_for_selector(".dialog", timeout=60000)
    shown = page.locator("#summary-trick svg").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    rec = server.api(f"/api/tables/{t['id']}/record")
    last4 = rec["hands"][0]["play"][48:52]
    assert shown == [card_name(c) for c in last4]
    sheet = server.api(f"/api/tables/{t['id']}")["sheet"][0]
    text = page.inner_text(".dialog")
    assert "Last trick won by" in text
    # the winner named is the seat whose trick count the 13th trick raised
    assert sum(sheet["tricks"]) == 13
    assert errors == []
    page.close()


# 4 -------------------------------------------------------------------------------------
def test_bag_penalty_is_shown_apart_and_bags_are_a_running_count(
    server: Server, browser: Any, played: dict[str, Any]
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(f"{server.base}/t/{played['id']}")
    page.wait_for_selector("#sheet table.scores tbody tr")
    rows = page.locator("#sheet table.scores tbody tr")
    pen_rows = [r for r in played["sheet"] if sum(r["penalties"])]
    assert pen_rows
    bag_penalty = played["rules"]["bag_penalty"]
    for r in pen_rows:
        cells = rows.nth(r["hand"] - 1).locator("td.pts").all_inner_texts()
        for s, pen in enumerate(r["penalties"]):
            if pen:
                base = r["points"][s] + pen * bag_penalty
                sign = "+" if base > 0 else "−" if base < 0 else ""
                assert " ".join(cells[s].split()) == f"{sign}{abs(base)} − {pen * bag_penalty}"
    assert "bags Σ" in page.inner_text("#sheet thead")
    page.close()


def test_hand_summary_names_the_bag_penalty(server: Server, browser: Any) -> None:
    rules = {"preset": "standard", "bag_limit": 1, "target": 2000}
    t = new_table(server, [BOT] * 4, delay=15, rules=rules)
    page = browser.new_page(viewport={"width": 1280, "height": 820})
    page.goto(f"{server.base}/t/{t['id']}")
    page.wait_for_selector(".dialog .penalty", timeout=60000)
    got = page.evaluate(
        """() => ({ title: document.querySelector('.dialog h2').textContent,
                 head: document.querySelector('.dialog table:nth-of-type(2)').innerText,
                 pts: [...document.querySelectorAll('.dialog table:nth-of-type(2) tr td:nth-child(2)')]
                        .map(e => e.textContent) })"""
    )
    hand = int(re.search(r"Hand (\d+)", got["title"]).group(1))  # type: ignore[union-attr]
    line = server.api(f"/api/tables/{t['id']}")["sheet"][hand - 1]
    assert "Bags so far" in got["head"]
    for s, pen in enumerate(line["penalties"]):
        base = line["points"][s] + pen * 100
        sign = "+" if base > 0 else "−" if base < 0 else ""
        assert got["pts"][s] == (f"{sign}{abs(base)} − {pen * 100}" if pen else f"{sign}{abs(base)}")
    page.close()


# 8 -------------------------------------------------------------------------------------
def test_unknown_table_says_so_once_and_stops_reconnecting(server: Server, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(f"{server.base}/t/no-such-table-here")
    page.wait_for_selector("#no-table")
    page.wait_for_timeout(3500)  # the old page retried after 0.3, 0.6, 1.2 and 2.4 s
    assert len(sockets) == 1
    assert page.inner_text("#conn") == "no such table"
    assert "No such table" in page.inner_text("#status")
    assert page.locator("#no-table").is_visible()
    page.close()


# 6 -------------------------------------------------------------------------------------
def test_last_trick_is_momentary_and_keeps_the_trick_in_progress(server: Server, browser: Any) -> None:
    t = new_table(server, [BOT, BOT, {"open": True, "name": "Pat"}, BOT], delay=0)
    page = person_page(browser, server, t, 2)
    end = time.monotonic() + 60
    ready = False

    def my_turn_mid_trick() -> bool:
        return bool(
            page.locator("#centre .played").count() > 0
            and page.locator("#centre .caption").count() == 0
            and page.locator("#controls .hint-line", has_text="Your turn").count() > 0
            and page.locator("#hand button.card").count() <= 12
        )

    while time.monotonic() < end:
        if my_turn_mid_trick():
            page.wait_for_timeout(300)  # not the moment between our click and the server's answer
            if my_turn_mid_trick():
                ready = True
                break
        did = act_once(page)
        if did is None:
            page.wait_for_timeout(40)
        elif did == "play":
            page.wait_for_timeout(150)
    assert ready, "never my turn in the middle of a later trick"
    before = page.locator("#centre .played").evaluate_all("els => els.map(e => e.title)")
    page.click("#btn-last")
    page.wait_for_timeout(300)
    assert page.locator("#centre .played").evaluate_all("els => els.map(e => e.title)") == before
    assert page.locator("#hand button.card.legal:not([disabled])").count() > 0  # still our turn
    assert page.locator("#last-view .lastcard").count() == 4
    page.wait_for_timeout(3400)
    assert page.locator("#last-view").count() == 0  # it went away by itself
    assert page.locator("#centre .played").evaluate_all("els => els.map(e => e.title)") == before
    page.context.close()


# 5 -------------------------------------------------------------------------------------
CONTRAST = """el => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const v = c.map((x) => { x /= 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const cs = getComputedStyle(el);
  const a = lum(rgb(cs.color)), b = lum(rgb(cs.backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_top_bar_buttons_stay_readable_under_the_pointer(server: Server, browser: Any) -> None:
    t = new_table(server, [BOT, BOT, {"open": True, "name": "Pat"}, BOT], delay=0)
    page = person_page(browser, server, t, 2)
    for sel in ("#btn-last", "#btn-sheet", "#lnk-record"):
        page.hover(sel)
        page.wait_for_timeout(50)
        ratio = page.locator(sel).evaluate(CONTRAST)
        assert ratio >= 4.5, f"{sel} under the pointer: contrast {ratio:.2f}"
    page.context.close()


# 2 and 3 -------------------------------------------------------------------------------
FITS = """() => {
  const side = document.getElementById('side').getBoundingClientRect();
  const sheet = document.getElementById('sheet');
  const table = sheet.querySelector('table.scores').getBoundingClientRect();
  return { sideRight: side.right, tableRight: table.right,
           scroll: sheet.scrollWidth, client: sheet.clientWidth, page: document.documentElement.scrollWidth };
}"""


@pytest.mark.parametrize("width", [1024, 1280, 1600, 1920])
def test_score_sheet_fits_its_panel_on_the_desktop(
    server: Server, browser: Any, played: dict[str, Any], width: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(f"{server.base}/t/{played['id']}")
    page.wait_for_selector("#sheet table.scores tbody tr")
    got = page.evaluate(FITS)
    assert got["scroll"] <= got["client"], got
    assert got["tableRight"] <= got["sideRight"], got
    assert got["page"] <= width, got
    page.close()


def test_phone_score_sheet_fits_and_the_game_score_is_on_screen(
    server: Server, browser: Any, played: dict[str, Any]
) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(f"{server.base}/t/{played['id']}")
    page.wait_for_selector("#score .side-score")
    # During play the sheet is closed on a phone: the game score is in the top bar.
    assert page.locator("#side").is_hidden()
    box = page.locator("#score").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] < 844
    score = page.inner_text("#score")
    for total in played["totals"]:
        assert str(total) in score
    page.click("#btn-sheet")
    page.wait_for_selector("#side:not([hidden])")
    got = page.evaluate(FITS)
    assert got["page"] <= 390, got
    assert got["scroll"] <= got["client"] and got["tableRight"] <= 390, got
    ctx.close()


# 10 ------------------------------------------------------------------------------------
def test_a_seat_with_one_card_left_says_1_card(server: Server, browser: Any) -> None:
    t = new_table(server, [BOT] * 4, delay=60)
    page = browser.new_page(viewport={"width": 1280, "height": 820})
    page.goto(f"{server.base}/t/{t['id']}")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.meta span')].some(e => /^1 cards?$/.test(e.textContent))",
        timeout=60000,
    )
    texts = page.locator(".meta span").all_inner_texts()
    assert "1 cards" not in texts
    page.close()


def test_phone_turn_line_speaks_of_tapping(server: Server, browser: Any) -> None:
    t = new_table(server, [BOT, BOT, {"open": True, "name": "Pat"}, BOT], delay=0)
    page = person_page(
        browser, server, t, 2, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    end = time.monotonic() + 30
    turn = page.locator("#controls .hint-line", has_text="Your turn")
    while time.monotonic() < end and not turn.count():
        if act_once(page) in (None, "continue"):
            page.wait_for_timeout(40)
    text = turn.inner_text()
    assert "tap" in text and "click" not in text and "←" not in text
    page.context.close()


def test_blind_nil_exchange_in_words_with_a_confirmation(server: Server, browser: Any) -> None:
    page = None
    for _ in range(4):  # a table where we bid Blind Nil (not one where our partner did first)
        t = new_table(server, [BOT, BOT, {"open": True, "name": "Pat"}, BOT], delay=0)
        page = person_page(browser, server, t, 2)
        end = time.monotonic() + 30
        did = None
        while time.monotonic() < end and did not in ("blind", "look"):
            did = act_once(page, blind=True)
            if did is None:
                page.wait_for_timeout(40)
        if did == "blind":
            break
        page.context.close()
    assert page is not None and did == "blind"
    page.wait_for_selector("#btn-pass", timeout=20000)
    ask = page.inner_text("#controls")
    assert "You received the " in ask and not RAW_CARD.search(ask), ask
    new = page.locator("#hand button.card.received").count()
    assert new == 3
    for _ in range(3):
        page.locator("#hand button.card.legal:not(.selected)").first.click()
    chosen = page.locator("#hand button.card.selected").evaluate_all("els => els.map(e => e.dataset.card)")
    # The chosen cards rise: none may reach into the controls above the hand, where it covered
    # the Pass button on some deals (its "new" label lets clicks through).
    controls_bottom = page.eval_on_selector("#controls", "c => c.getBoundingClientRect().bottom")
    tops = page.locator("#hand button.card.selected").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().top)"
    )
    assert min(tops) >= controls_bottom, (tops, controls_bottom)
    label_clicks = page.eval_on_selector(
        "#hand button.card.received", "e => getComputedStyle(e, '::after').pointerEvents"
    )
    assert label_clicks == "none"
    page.click("#btn-pass")
    page.wait_for_selector("#passed-line")
    line = page.inner_text("#passed-line")
    assert all(card_name(c) in line for c in chosen) and not RAW_CARD.search(line), line
    # The "new" marks stay until our first play, then go.
    while time.monotonic() < end:
        if page.locator("#turn-line").count():
            break
        page.wait_for_timeout(40)
    page.locator("#hand button.card.legal:not([disabled])").first.click()
    page.wait_for_function("() => document.querySelectorAll('#hand button.card').length === 12")
    assert page.locator("#hand button.card.received").count() == 0
    page.context.close()


def test_game_over_says_you_won_or_you_lost(server: Server, browser: Any) -> None:
    rules = {"preset": "standard", "target": 150}
    t = new_table(server, [BOT, BOT, {"open": True, "name": "Pat"}, BOT], delay=0, rules=rules, away_s=1)
    view = wait_api(server, t["id"], lambda v: v["status"] == "over", 90)
    assert view["status"] == "over"
    page = person_page(browser, server, t, 2)
    status = page.inner_text("#status")
    expect = "You won" if view["winner"] == 0 else "You lost"  # South sits with North: side 0
    assert status.startswith(expect), status
    page.context.close()


def test_a_hint_names_its_card_in_words(server: Server, browser: Any) -> None:
    """The hint as the server words it ("play QD"), passed to the page through the real socket."""
    t = new_table(server, [BOT, BOT, {"open": True, "name": "Pat"}, BOT], delay=0)
    context = browser.new_context(viewport={"width": 1280, "height": 820})
    page = context.new_page()
    routes: list[Any] = []

    def relay(ws: Any) -> None:
        ws.connect_to_server()  # everything passes both ways, as without the route
        routes.append(ws)

    page.route_web_socket(re.compile(r".*/ws/.*"), relay)
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][2]['token']}")
    page.wait_for_selector(".chip.you")
    end = time.monotonic() + 30
    legal = page.locator("#hand button.card.legal:not([disabled])")
    turn = page.locator("#controls .hint-line", has_text="Your turn")
    while time.monotonic() < end:
        if turn.count():
            page.wait_for_timeout(300)  # not the moment between our click and the server's answer
            if turn.count():
                break
        if act_once(page) in (None, "continue"):
            page.wait_for_timeout(40)
    card = legal.first.get_attribute("data-card")
    assert card and routes
    hint = {"type": "hint", "bot": "expert", "action": f"play {card}", "why": f"{card} wins the trick"}
    routes[-1].send(json.dumps(hint))
    page.wait_for_selector("#hint-text")
    text = page.inner_text("#hint-text")
    assert f"play the {card_name(card)}" in text and not RAW_CARD.search(text), text
    assert page.locator(f"#hand button.card.hinted[data-card='{card}']").count() == 1
    context.close()
