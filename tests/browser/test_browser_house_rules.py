"""The house rules in a real browser: a cutthroat3 table and a jjdd table made from the lobby's
form (its options come from the server's rules data, its errors are the server's one line),
then a hand of each played by clicking; jokers, the jjdd 2D among the spades, three seats, 17
cards that fit a desktop and a phone; mirror's bids made without a prompt."""

from __future__ import annotations

import json
import time
from typing import Any

from pageserver import ARTIFACTS, Server, act_once

RANDOM = {"bot": "random"}
HOUSE_PRESETS = {"suicide", "whiz", "mirror", "jokers", "cutthroat3"}


def wait_until(page: Any, js: str, seconds: float = 30) -> None:
    """Poll a page expression until it is true (``wait_for_function`` polls through
    ``eval``, which the pages' Content-Security-Policy forbids)."""
    end = time.monotonic() + seconds
    while not page.evaluate(js):
        assert time.monotonic() < end, f"never true: {js}"
        page.wait_for_timeout(30)


def watch_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def lobby(browser: Any, server: Server) -> Any:
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.goto(f"{server.base}/")
    page.wait_for_selector("#opt-jokers")
    page.wait_for_selector("#seat-0")
    page.fill("#name", "Ann")
    page.fill("#delay", "0")
    return page


def seats_shown(page: Any, n: int) -> None:
    wait_until(page, f"document.querySelectorAll('#seats select').length === {n}")


def create_from_lobby(page: Any, me: int, n: int) -> str:
    for s in range(n):
        page.select_option(f"#seat-{s}", "me" if s == me else "bot:random")
    wait_until(page, "!document.querySelector('#btn-create').disabled")
    page.click("#btn-create")
    page.click("#go-table")
    page.wait_for_selector(".chip.you")
    return str(page.url.rsplit("/", 1)[-1])


def play_first_hand(page: Any) -> dict[str, Any]:
    """Click through the first hand as a person would; note what the page showed."""
    seen: dict[str, Any] = {"plays": 0, "hand_sizes": set(), "bid_buttons": 0, "status": set(), "orders": []}
    # Every status line the page renders, noted by the page itself: sampling it from here
    # between clicks can miss a short-lived one (the bots may finish a trick between a look
    # and the click that follows it).
    page.evaluate(
        """() => {
            window.__statusSeen = [];
            const note = () => {
                const s = document.querySelector('#status');
                const text = s ? s.textContent : null;
                const seen = window.__statusSeen;
                if (text !== null && seen[seen.length - 1] !== text) seen.push(text);
            };
            note();
            const all = {subtree: true, childList: true, characterData: true};
            new MutationObserver(note).observe(document.body, all);
        }"""
    )
    end = time.monotonic() + 150
    while time.monotonic() < end:
        if page.locator(".dialog").is_visible():
            break
        try:
            cards = page.locator("#hand button.card").evaluate_all("els => els.map(e => e.dataset.card)")
            seen["hand_sizes"].add(len(cards))
            if cards:
                seen["orders"].append(cards)
            seen["bid_buttons"] = max(seen["bid_buttons"], page.locator("#controls button.bid").count())
        except Exception:  # the page re-rendered under us: look again
            continue
        did = act_once(page, dismiss=False)
        if did == "play":
            seen["plays"] += 1
        elif did is None:
            page.wait_for_timeout(30)
    assert page.locator(".dialog").is_visible(), "the end-of-hand summary never showed"
    seen["status"].update(page.evaluate("window.__statusSeen || []"))
    return seen


def in_deck_order(cards: list[str], order: list[str]) -> bool:
    at = {c: i for i, c in enumerate(order)}
    return [at[c] for c in cards] == sorted(at[c] for c in cards)


def test_lobby_offers_every_preset_and_option_from_the_server(server: Server, browser: Any) -> None:
    page = lobby(browser, server)
    errors = watch_errors(page)
    cat = server.api("/api/rules")
    presets = page.locator("#preset option").evaluate_all("els => els.map(e => e.value)")
    assert presets == list(cat["presets"]) and set(presets) >= HOUSE_PRESETS
    for opt in cat["options"]:
        box = page.locator(f"#opt-{opt['name']}")
        if "choices" in opt:
            values = box.locator("option").evaluate_all("els => els.map(e => e.value)")
            assert values == [json.dumps(c) for c in opt["choices"]], opt["name"]
        else:
            assert (box.get_attribute("min"), box.get_attribute("max")) == (str(opt["min"]), str(opt["max"]))
    # A preset fills the form with its values; a bad combination shows the server's line.
    page.select_option("#preset", "whiz")
    wait_until(page, "document.querySelector('#opt-bidding').value === '\"whiz\"'")
    page.select_option("#opt-blind_nil", "true")
    expected = server.api("/api/rules/check", {"rules": {"preset": "whiz", "blind_nil": True}})["error"]
    assert expected and "blind_nil" in expected
    wait_until(page, "document.querySelector('#rules-error').textContent.length > 0")
    assert page.inner_text("#rules-error") == expected
    assert page.locator("#btn-create").is_disabled()
    page.select_option("#opt-blind_nil", "false")
    wait_until(page, "!document.querySelector('#btn-create').disabled")
    assert page.inner_text("#rules-error") == ""
    assert errors == []
    page.close()


def test_cutthroat3_from_the_lobby_three_seats_and_17_cards(server: Server, browser: Any) -> None:
    page = lobby(browser, server)
    errors = watch_errors(page)
    page.select_option("#preset", "cutthroat3")
    seats_shown(page, 3)
    labels = page.locator("#seats label").all_inner_texts()
    assert [x.split()[0] for x in labels] == ["North", "East", "West"]
    # Jokers are for four players: the page says so in the server's words.
    page.select_option("#opt-jokers", json.dumps("jjdd"))
    expected = server.api("/api/rules/check", {"rules": {"preset": "cutthroat3", "jokers": "jjdd"}})["error"]
    wait_until(page, "document.querySelector('#rules-error').textContent.length > 0")
    assert page.inner_text("#rules-error") == expected
    page.select_option("#opt-jokers", "null")
    tid = create_from_lobby(page, 0, 3)
    view = server.api(f"/api/tables/{tid}")
    assert view["rules"]["players"] == 3 and len(view["seats"]) == 3
    # Three seats: ours at the bottom, the others left and right, none at the top.
    assert page.locator("#pos-2").is_hidden()
    for pos in (0, 1, 3):
        assert page.locator(f"#pos-{pos}").is_visible()
    assert "North" in page.inner_text("#pos-0")
    assert "East" in page.inner_text("#pos-1") and "West" in page.inner_text("#pos-3")
    # 17 cards fit a desktop and a phone, without sideways scrolling.
    wait_until(page, "document.querySelectorAll('#hand button.card, #hand .card.down').length === 17")
    if page.locator("#btn-look").count():
        page.click("#btn-look")
    wait_until(page, "document.querySelectorAll('#hand button.card').length === 17")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    right = page.locator("#hand button.card").evaluate_all(
        "els => Math.max(...els.map(e => e.getBoundingClientRect().right))"
    )
    assert right <= 1366
    page.screenshot(path=str(ARTIFACTS / "house_cutthroat3_1366.png"))
    kept = json.loads(page.evaluate(f"localStorage.getItem('spades.seat.{tid}')"))
    phone_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = phone_ctx.new_page()
    phone.goto(f"{server.base}/t/{tid}#token={kept['token']}")
    wait_until(phone, "document.querySelectorAll('#hand button.card').length === 17")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    rights = phone.locator("#hand button.card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().right)"
    )
    assert max(rights) <= 390
    phone.screenshot(path=str(ARTIFACTS / "house_cutthroat3_390.png"), full_page=True)
    phone_ctx.close()
    seen = play_first_hand(page)
    assert seen["plays"] == 17
    assert 17 in seen["hand_sizes"]
    assert seen["bid_buttons"] == 18  # Nil, 1 .. 17: the legal bids the server listed
    assert any("trick 1 of 17" in s for s in seen["status"])
    # The score sheet has a column group per player, the summary a row per seat.
    assert page.locator("#sheet thead th[scope='colgroup']").count() == 3
    widths = page.evaluate(
        "(() => { const s = document.getElementById('sheet'); return [s.scrollWidth, s.clientWidth]; })()"
    )
    assert widths[0] <= widths[1], f"the three-player score sheet scrolls sideways: {widths}"
    assert page.locator(".dialog table.scores").first.locator("tr").count() == 4
    page.screenshot(path=str(ARTIFACTS / "house_cutthroat3_summary.png"))
    assert errors == []
    page.close()


def test_jjdd_from_the_lobby_jokers_drawn_and_sorted(server: Server, browser: Any) -> None:
    page = lobby(browser, server)
    errors = watch_errors(page)
    page.select_option("#preset", "jokers")
    page.select_option("#opt-jokers", json.dumps("jjdd"))
    wait_until(page, "document.querySelector('#preset-note').textContent.includes('BJ, LJ, 2D')")
    seats_shown(page, 4)
    tid = create_from_lobby(page, 2, 4)
    view = server.api(f"/api/tables/{tid}")
    assert view["rules"]["jokers"] == "jjdd"
    order = server.api("/api/rules/check", {"rules": view["rules"]})["deck"]["order"]
    seen = play_first_hand(page)
    assert seen["plays"] == 13
    assert seen["orders"] and all(in_deck_order(cards, order) for cards in seen["orders"])
    assert "House rules: Joker Joker Deuce Deuce" in page.inner_text("#side")
    assert errors == []
    page.close()
    # The replay shows every hand of the deal: both jokers drawn and named, each seat's
    # spades led by its jokers, the 2D next (marked a spade), no 2C or 2H.
    replay = browser.new_page(viewport={"width": 1366, "height": 900})
    replay.goto(f"{server.base}/replay?table={tid}")
    replay.wait_for_selector("#r-0 .rhand svg")
    wait_until(replay, "document.querySelectorAll('#rboard svg[data-joker]').length === 2")
    by_seat = replay.evaluate(
        "() => [0,1,2,3].map(p => [...document.querySelectorAll(`#r-${p} .rhand svg`)]"
        ".map(e => e.getAttribute('aria-label')))"
    )
    labels = [x for seat in by_seat for x in seat]
    assert len(labels) == 52
    assert "Big Joker" in labels and "Little Joker" in labels
    assert "2 of diamonds (a spade)" in labels
    assert "2 of clubs" not in labels and "2 of hearts" not in labels
    rank = {"Big Joker": 0, "Little Joker": 1, "2 of diamonds (a spade)": 2}
    for seat in by_seat:
        tops = [rank[x] for x in seat if x in rank]
        assert seat[: len(tops)] == [x for x in seat if x in rank] and tops == sorted(tops)
    replay.screenshot(path=str(ARTIFACTS / "house_jjdd_replay.png"))
    replay.close()


def test_mirror_bids_appear_without_a_prompt(server: Server, browser: Any) -> None:
    body = {"rules": "mirror", "seats": [{"open": True, "name": "Ann"}, *[RANDOM] * 3], "bot_delay_ms": 0}
    t = server.api("/api/tables", body)
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][0]['token']}")
    page.wait_for_selector("#mirror-line")
    assert page.locator("#controls button.bid").count() == 0 and page.locator("#btn-look").count() == 0
    bids = server.api(f"/api/tables/{t['id']}")["bids"]
    assert None not in bids
    for s, bid in enumerate(bids):
        pos = page.locator(".seat").filter(has_text=["North", "East", "South", "West"][s]).first
        assert f"bid {'Nil' if bid == 'nil' else bid}" in pos.inner_text()
    assert errors == []
    page.close()
