"""The replay page in a real browser: the in-browser proof check stays while stepping, the
trick buttons cross hand boundaries, a phone shows the side hands compactly, and three-player
and joker records still replay. Records come from tests/golden/ or a finished bots' table."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from pageserver import ARTIFACTS, Server

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
BOT = {"bot": "heuristic"}


def watch_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def open_record(page: Any, server: Server, record: dict[str, Any]) -> None:
    """Upload ``record`` on the replay page and wait for its first hand to be drawn."""
    page.goto(f"{server.base}/replay")
    page.set_input_files(
        "#file",
        files=[{"name": "game.json", "mimeType": "application/json", "buffer": json.dumps(record).encode()}],
    )
    page.wait_for_selector("#viewer:not([hidden])")
    page.wait_for_selector("#r-0 .rhand svg")


def golden(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return record


def where(page: Any) -> str:
    return str(page.inner_text("#where"))


def finished_bots_game(server: Server) -> dict[str, Any]:
    """The record of a bots' game played to its end: it carries a shuffle proof per hand."""
    body = {"rules": {"preset": "standard", "target": 150}, "seats": [BOT] * 4, "bot_delay_ms": 0}
    t = server.api("/api/tables", body)
    for _ in range(600):
        if server.api(f"/api/tables/{t['id']}")["status"] == "over":
            break
        time.sleep(0.05)
    record: dict[str, Any] = server.api(f"/api/tables/{t['id']}/record")
    assert record["proofs"], "a finished table's record carries its shuffle proofs"
    return record


def test_the_browser_proof_check_stays_while_stepping(server: Server, browser: Any) -> None:
    record = finished_bots_game(server)
    page = browser.new_page(viewport=DESKTOP)
    errors = watch_errors(page)
    open_record(page, server, record)
    page.wait_for_selector("#browser-check:not(:empty)")
    n = len(record["proofs"])
    line = f"Checked in your browser too: {n} of {n} hashes match."
    assert page.inner_text("#browser-check") == line
    for click in ("#next", "#next", "#next", "#prev", "#next-hand", "#next", "#prev-hand"):
        page.click(click)
        assert page.inner_text("#browser-check") == line, f"the browser check vanished after {click}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#browser-check") == line
    assert page.locator("#rproofs .good").count() == n
    assert errors == []
    page.close()


def test_trick_buttons_cross_into_the_neighbouring_hand(server: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors = watch_errors(page)
    open_record(page, server, golden("standard_full"))
    assert where(page).startswith("Hand 1/5 · trick 0/13")
    page.click("#next-hand")
    assert where(page).startswith("Hand 2/5 · trick 0/13")
    # "‹ trick" at trick 0 of hand 2: the last trick of hand 1, its score shown.
    page.click("#prev")
    assert where(page).startswith("Hand 1/5 · trick 13/13")
    assert "Hand points" in page.inner_text("#rinfo")
    assert page.locator("#rcentre .played").count() == 4
    page.screenshot(path=str(ARTIFACTS / "replay_desktop.png"), full_page=True)
    # "trick ›" after the last trick: trick 0 of the next hand.
    page.click("#next")
    assert where(page).startswith("Hand 2/5 · trick 0/13")
    page.keyboard.press("ArrowLeft")
    assert where(page).startswith("Hand 1/5 · trick 13/13")
    page.keyboard.press("ArrowRight")
    assert where(page).startswith("Hand 2/5 · trick 0/13")
    # At either end of the game the buttons stop there.
    page.click("#prev-hand")
    page.click("#prev")
    assert where(page).startswith("Hand 1/5 · trick 0/13")
    for _ in range(4):
        page.click("#next-hand")
    for _ in range(14):
        page.click("#next")
    assert where(page).startswith("Hand 5/5 · trick 13/13")
    assert errors == []
    page.close()


ROWS_JS = """() => [0, 1, 2, 3].map(p => {
  const box = document.getElementById(`r-${p}`);
  if (box.hidden) return null;
  const tops = new Map();
  for (const svg of box.querySelectorAll('.rhand svg')) {
    const top = Math.round(svg.getBoundingClientRect().top);
    tops.set(top, (tops.get(top) || 0) + 1);
  }
  return [...tops.values()];
})"""


def rows_per_seat(page: Any) -> list[list[int] | None]:
    rows: list[list[int] | None] = page.evaluate(ROWS_JS)
    return rows


@pytest.mark.parametrize("viewport", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
def test_phone_shows_the_side_hands_compactly(server: Server, browser: Any, viewport: dict[str, int]) -> None:
    ctx = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    errors = watch_errors(page)
    open_record(page, server, golden("standard_full"))
    for step in range(0, 14, 3):
        rows = rows_per_seat(page)
        assert all(r is not None for r in rows)
        for seat, r in enumerate(rows):
            assert r is not None
            assert sum(r) == 13 - step, f"seat {seat} shows {sum(r)} cards at trick {step}"
            assert len(r) == 1 or min(r) >= 2, f"a card alone on a row at seat {seat}, trick {step}: {r}"
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height < 1000, f"the replay is {height} px tall on a phone at trick {step}"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the replay is {width} px wide on a phone"
        if step == 0:
            page.screenshot(path=str(ARTIFACTS / f"replay_phone_{viewport['width']}.png"), full_page=True)
            heights = page.evaluate(
                "[...document.querySelectorAll('#viewer > .row button')]"
                ".map(b => b.getBoundingClientRect().height)"
            )
            assert len(heights) == 4 and min(heights) >= 44, f"the step buttons are {heights} px tall"
        for _ in range(3):
            page.click("#next")
    assert errors == []
    ctx.close()


def test_three_player_and_joker_records_replay(server: Server, browser: Any) -> None:
    for name, seats, cards, viewport in (
        ("house_cutthroat3", 3, 17, DESKTOP),
        ("house_cutthroat3", 3, 17, PHONE),
        ("house_jokers", 4, 13, DESKTOP),
        ("house_jokers", 4, 13, PHONE),
    ):
        ctx = browser.new_context(viewport=viewport)
        page = ctx.new_page()
        errors = watch_errors(page)
        open_record(page, server, golden(name))
        rows = [r for r in rows_per_seat(page) if r is not None]
        assert [sum(r) for r in rows] == [cards] * seats, name
        assert all(len(r) == 1 or min(r) >= 2 for r in rows), f"{name}: a card alone on a row: {rows}"
        if name == "house_jokers":
            assert page.locator("#rboard svg[data-joker]").count() == 2
        kind = "phone" if viewport is PHONE else "desktop"
        page.screenshot(path=str(ARTIFACTS / f"replay_{name}_{kind}.png"), full_page=True)
        # Step through the first hand into the second and back.
        tricks = cards
        for _ in range(tricks):
            page.click("#next")
        assert where(page).startswith(f"Hand 1/2 · trick {tricks}/{tricks}")
        page.click("#next")
        assert where(page).startswith(f"Hand 2/2 · trick 0/{tricks}")
        page.click("#prev")
        assert where(page).startswith(f"Hand 1/2 · trick {tricks}/{tricks}")
        if viewport is PHONE:
            height = page.evaluate("document.documentElement.scrollHeight")
            assert height < 1100, f"{name} is {height} px tall on a phone"
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert errors == []
        ctx.close()
