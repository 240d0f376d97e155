"""The pages in a real browser: a person plays a hand by clicking, two people share a table,
a reload reconnects by itself. Screenshots land in tests/_artifacts/ for review."""

from __future__ import annotations

import json
import time
from typing import Any

from pageserver import ARTIFACTS, Server, act_once


def new_table(server: Server, seats: list[dict[str, Any]], delay: int = 60) -> dict[str, Any]:
    body = {"rules": {"preset": "standard"}, "seats": seats, "bot_delay_ms": delay}
    result: dict[str, Any] = server.api("/api/tables", body)
    return result


BOT = {"bot": "heuristic"}


def test_one_person_plays_a_whole_hand_against_three_bots(server: Server, browser: Any) -> None:
    name = "<img src=x onerror=f()>"  # within the 24 characters a name keeps
    t = new_table(server, [BOT, BOT, {"open": True, "name": name}, BOT])
    page = browser.new_page(viewport={"width": 1280, "height": 820})
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    console_errors: list[str] = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: console_errors.append(str(e)))
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][2]['token']}")
    page.wait_for_selector(".chip.you")
    page.screenshot(path=str(ARTIFACTS / "table_start.png"))
    plays = 0
    shot_mid = False
    end = time.monotonic() + 90
    while time.monotonic() < end:
        if page.locator(".dialog").is_visible():
            break
        did = act_once(page, dismiss=False)
        if did == "play":
            plays += 1
            if plays == 6 and not shot_mid:
                page.wait_for_timeout(150)
                page.screenshot(path=str(ARTIFACTS / "table_midhand.png"))
                shot_mid = True
        if did is None:
            page.wait_for_timeout(40)
    assert page.locator(".dialog").is_visible(), "the end-of-hand summary never showed"
    page.screenshot(path=str(ARTIFACTS / "table_hand_summary.png"))
    assert plays == 13
    view = server.api(f"/api/tables/{t['id']}")
    assert len(view["sheet"]) == 1
    # The hostile name is shown as text and never ran.
    assert page.get_by_text(name).count() >= 1
    assert page.locator(".name img").count() == 0
    assert dialogs == []
    assert console_errors == []  # no script error, no Content-Security-Policy violation
    page.click("#btn-continue")
    page.wait_for_timeout(300)
    page.screenshot(path=str(ARTIFACTS / "table_after_hand.png"), full_page=True)
    page.close()


def test_a_name_being_typed_survives_the_next_state(server: Server, browser: Any) -> None:
    """The controls are rebuilt on every state; someone else sitting down while you type your
    name must not blank it (it did: a CI run lost a join this way)."""
    t = new_table(server, [{"open": True}, BOT, {"open": True}, BOT], delay=30)
    ctx = browser.new_context(viewport={"width": 1100, "height": 800})
    page = ctx.new_page()
    page.goto(f"{server.base}/t/{t['id']}#invite={t['seats'][0]['invite']}")
    page.fill("#join-name", "Nora")
    page.focus("#join-name")
    server.api(f"/api/tables/{t['id']}/claim", {"seat": 2, "name": "Sam"})
    page.get_by_text("Sam").first.wait_for()  # the state with Sam seated has been drawn
    assert page.input_value("#join-name") == "Nora"
    assert page.evaluate("document.activeElement && document.activeElement.id") == "join-name"
    page.click("#btn-join")
    page.wait_for_function("() => !document.getElementById('join-name')")
    view = server.api(f"/api/tables/{t['id']}")
    assert view["seats"][0]["name"] == "Nora"
    ctx.close()


def test_two_people_share_a_table(server: Server, browser: Any) -> None:
    t = new_table(server, [{"open": True}, BOT, {"open": True}, BOT], delay=30)
    assert [s["token"] for s in t["seats"]] == [None] * 4  # the creator holds nobody's seat
    pages = []
    for seat, who in ((0, "Nora"), (2, "Sam")):
        ctx = browser.new_context(viewport={"width": 1100, "height": 800})
        page = ctx.new_page()
        page.goto(f"{server.base}/t/{t['id']}#invite={t['seats'][seat]['invite']}")
        page.fill("#join-name", who)
        page.click("#btn-join")
        pages.append(page)
    for page in pages:
        page.wait_for_selector(".chip.you")
    # Each browser traded its ticket for the seat's own token and keeps only that.
    for page, seat in zip(pages, (0, 2), strict=True):
        kept = json.loads(page.evaluate(f"localStorage.getItem('spades.seat.{t['id']}')"))
        assert kept == {"token": kept["token"], "seat": seat} and len(kept["token"]) >= 24
        assert "#invite" not in page.url
    # A reload reconnects with the token (the ticket is spent: it would only watch now).
    pages[1].reload()
    pages[1].wait_for_selector(".chip.you")
    pages[1].wait_for_selector(".conn.ok")
    # Both see both names, each at the bottom of his own view.
    for page in pages:  # the other's name arrives with the table's next state: wait for it
        page.get_by_text("Nora").first.wait_for()
        page.get_by_text("Sam").first.wait_for()
        assert page.get_by_text("Nora").count() >= 1 and page.get_by_text("Sam").count() >= 1
    end = time.monotonic() + 60
    while time.monotonic() < end:
        view = server.api(f"/api/tables/{t['id']}")
        if len(view["plays"]) >= 12 or view["hand"] > 1:
            break
        acted = [act_once(p) for p in pages]
        if not any(acted):
            pages[0].wait_for_timeout(40)
    assert len(view["plays"]) >= 12 or view["hand"] > 1
    pages[0].screenshot(path=str(ARTIFACTS / "shared_north.png"))
    pages[1].screenshot(path=str(ARTIFACTS / "shared_south.png"))
    for page in pages:
        page.context.close()


def test_a_reload_reconnects_the_seat_and_phone_layout(server: Server, browser: Any) -> None:
    t = new_table(server, [BOT, BOT, {"open": True, "name": "Pat"}, BOT], delay=0)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(f"{server.base}/t/{t['id']}#token={t['seats'][2]['token']}")
    page.wait_for_selector(".chip.you")
    assert "#token" not in page.url  # the token moved from the address bar to local storage
    page.reload()
    page.wait_for_selector(".chip.you")
    page.wait_for_selector(".conn.ok")
    done = None
    for _ in range(200):
        done = act_once(page)
        if done:
            break
        page.wait_for_timeout(30)
    assert done in ("look", "bid")
    page.wait_for_timeout(300)
    page.screenshot(path=str(ARTIFACTS / "phone_table.png"), full_page=True)
    ctx.close()


def test_lobby_creates_a_table_and_the_replay_page_steps(server: Server, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(server.base + "/")
    page.fill("#name", "Lee")
    page.fill("#delay", "0")
    page.select_option("#seat-0", "open")
    page.click("#btn-create")
    page.wait_for_selector("#go-table")
    assert page.locator(".invites input").count() == 1
    page.screenshot(path=str(ARTIFACTS / "lobby_created.png"), full_page=True)
    page.click("#go-table")
    page.wait_for_selector(".chip.you")
    # Waiting for North: the creator's page offers the invite link.
    page.wait_for_selector("#controls input.invite")
    page.screenshot(path=str(ARTIFACTS / "table_waiting.png"))
    # A finished bots' game in the replay viewer, with its shuffle proofs checked.
    done = new_table(server, [BOT] * 4, delay=0)
    for _ in range(300):
        if server.api(f"/api/tables/{done['id']}")["status"] == "over":
            break
        time.sleep(0.05)
    page.goto(f"{server.base}/replay?table={done['id']}")
    page.wait_for_selector("#viewer:not([hidden])")
    for _ in range(5):
        page.click("#next")
    assert "trick 5/13" in page.inner_text("#where")
    assert page.locator("#rproofs .good").count() >= 1
    assert page.locator("#rproofs .fail").count() == 0
    page.screenshot(path=str(ARTIFACTS / "replay.png"), full_page=True)
    # Uploading a record whose revealed deck was tampered with: the page says which hand.
    rec = server.api(f"/api/tables/{done['id']}/record")
    deck = rec["proofs"][0]["deck"].split()
    deck[0], deck[5] = deck[5], deck[0]
    rec["proofs"][0]["deck"] = " ".join(deck)
    page.goto(f"{server.base}/replay")
    page.set_input_files(
        "#file",
        files=[{"name": "game.json", "mimeType": "application/json", "buffer": json.dumps(rec).encode()}],
    )
    page.wait_for_selector("#rproofs .fail")
    assert "hand 1" in page.inner_text("#rproofs .fail")
    page.close()
