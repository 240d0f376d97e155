"""The lobby's Sit button in a real browser: the claimer plays with his own token, and the
seat's invite link, opened afterwards, says the seat was taken and only watches."""

from __future__ import annotations

from typing import Any

from pageserver import ARTIFACTS, Server

BOT = {"bot": "heuristic"}


def test_sit_from_the_lobby_then_the_invite_link_says_the_seat_is_taken(server: Server, browser: Any) -> None:
    body = {"rules": "standard", "seats": [{"open": True}, BOT, {"open": True}, BOT], "bot_delay_ms": 0}
    t: dict[str, Any] = server.api("/api/tables", body)
    tid = t["id"]
    lobby = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    lobby.goto(server.base + "/")
    lobby.fill("#name", "Stranger")
    row = lobby.locator("#open li", has=lobby.locator(f'a[href="/t/{tid}"]'))
    row.get_by_role("button", name="Sit North").click()
    lobby.wait_for_url(f"**/t/{tid}")
    lobby.wait_for_selector(".chip.you")

    invited = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    invited.goto(f"{server.base}/t/{tid}#token={t['seats'][0]['token']}")
    toast = invited.locator("#toast")
    toast.wait_for(state="visible")
    taken = "North was taken from the lobby by Stranger: this invite link no longer works"
    assert toast.inner_text() == taken
    invited.wait_for_selector(".who .name")  # the table is drawn, as for a spectator
    assert invited.locator(".chip.you").count() == 0
    assert invited.evaluate(f"localStorage.getItem('spades.seat.{tid}')") is None
    invited.screenshot(path=str(ARTIFACTS / "invite_seat_taken.png"))
    # The claimer's page still holds the seat.
    assert lobby.locator(".chip.you").count() == 1
    for page in (lobby, invited):
        page.context.close()
