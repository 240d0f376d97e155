"""Phones (issue 13, items 4 and 7): at 360x740 and 390x844, on the lobby, the replay and a
table with each of its panels open, nothing is wider than the screen and every tap target is
at least 44 px; a 13-card hand lies in two rows (7 and 6), each card showing a 44 px strip;
side seats keep more than a letter of their names; the Hint button keeps its place."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from pageserver import Server, act_once

BOT = {"bot": "heuristic"}
PHONES = [(360, 740), (390, 844)]
MEASURE = (Path(__file__).parent / "taptargets.js").read_text(encoding="utf-8")


def _check(page: Any, what: str) -> dict[str, Any]:
    got: dict[str, Any] = page.evaluate(MEASURE)
    assert got["scroll"] <= got["width"], f"{what}: the page is {got['scroll']} px wide in {got['width']}"
    assert not got["small"], f"{what}: tap targets under 44 px: {got['small']}"
    for c in got["cards"]:
        assert c["w"] >= 43.5 and c["h"] >= 43.5, f"{what}: a card shows only {c}"
    return got


@pytest.mark.parametrize(("width", "height"), PHONES)
def test_lobby_and_replay_fit_a_phone(server: Server, browser: Any, width: int, height: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(f"{server.base}/")
    page.wait_for_selector("#seat-0")
    _check(page, "lobby")
    page.click("#more summary")
    _check(page, "lobby, more options open")
    page.goto(f"{server.base}/replay")
    page.wait_for_selector("#lang")
    _check(page, "replay")
    ctx.close()


@pytest.mark.parametrize(("width", "height"), PHONES)
def test_a_table_fits_a_phone_with_any_panel_open(
    server: Server, browser: Any, width: int, height: int
) -> None:
    t = server.api(
        "/api/tables",
        {"rules": "standard", "seats": [BOT, BOT, {"open": True, "name": "Pat"}, BOT], "bot_delay_ms": 0},
    )
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][2]['token']}")
    page.wait_for_selector(".chip.you")
    hint = page.locator("#btn-hint").bounding_box()
    end = time.monotonic() + 60
    while time.monotonic() < end and not page.locator("#btn-look").count():
        page.wait_for_timeout(40)
    page.click("#btn-look")  # 13 cards, none raised yet: two rows, 7 and 6
    page.wait_for_function("() => document.querySelectorAll('#hand button.card').length === 13")
    tops = page.locator("#hand button.card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().top)"
    )
    thirteen = [tops.count(t) for t in sorted(set(tops))]
    while time.monotonic() < end and not page.locator("#turn-line").count():
        if act_once(page) in (None, "continue"):
            page.wait_for_timeout(40)
    # our turn to play: the hand in two balanced rows, the Hint button where it was
    got = _check(page, "table, our turn")
    rows: list[list[int]] = []  # the cards' tops, grouped into rows (a playable card sits 6 px up)
    for top in sorted(c["top"] for c in got["cards"]):
        if rows and top - rows[-1][0] < 20:
            rows[-1].append(top)
        else:
            rows.append([top])
    counts = [len(r) for r in rows]
    n = len(got["cards"])
    assert counts == [(n + 1) // 2, n // 2], counts  # balanced rows, no card alone
    assert thirteen == [7, 6]
    again = page.locator("#btn-hint").bounding_box()
    # (the top bar's first row may grow a little when the score gets the contracts: not a move)
    assert hint and again and hint["x"] == again["x"] and abs(hint["y"] - again["y"]) <= 6
    # the side seats: more than one letter of a name, and short
    for pos in ("#pos-1", "#pos-3"):
        name = page.locator(f"{pos} .name")
        shown = name.evaluate("e => e.getBoundingClientRect().width")
        whole = name.evaluate("e => e.scrollWidth <= e.clientWidth + 1")  # a bot's seat word fits whole
        assert shown >= 40 or whole, f"{pos}: the name has {shown} px"
        assert page.locator(pos).bounding_box()["height"] < 110
    for button, panel in [
        ("#btn-sheet", "#side"),
        ("#btn-chat", "#chatbox"),
        ("#btn-options", "#modal"),
        ("#btn-tricks", "#modal"),
        ("#btn-last", "#last-view"),
    ]:
        page.click(button)
        page.wait_for_selector(f"{panel}:not([hidden])")
        _check(page, f"table, {button} open")
        if panel == "#modal":
            page.click("#btn-close")
        elif button != "#btn-last":
            page.click(button)
    ctx.close()
