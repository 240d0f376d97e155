"""The lobby's Sit button in a real browser: the claimer plays with his own token, the
creator's page stops offering that seat's invite link, and the link, opened anyway, says the
seat was taken and only watches."""

from __future__ import annotations

from typing import Any

from pageserver import ARTIFACTS, Server

INVITES = "#controls input.invite"


def test_sit_from_the_lobby_then_the_invite_link_says_the_seat_is_taken(server: Server, browser: Any) -> None:
    creator = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    creator.goto(server.base + "/")
    creator.fill("#name", "Lee")
    creator.fill("#delay", "0")
    creator.select_option("#seat-0", "open")
    creator.select_option("#seat-1", "open")
    creator.click("#btn-create")
    creator.wait_for_selector("#go-table")
    north_link = creator.locator(".invites input").first.input_value()
    creator.click("#go-table")
    creator.wait_for_selector(".chip.you")
    tid = creator.url.rsplit("/", 1)[1]
    assert creator.locator(INVITES).count() == 2

    lobby = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    lobby.goto(server.base + "/")
    lobby.fill("#name", "Stranger")
    row = lobby.locator("#open li", has=lobby.locator(f'a[href="/t/{tid}"]'))
    row.get_by_role("button", name="Sit North").click()
    lobby.wait_for_url(f"**/t/{tid}")
    lobby.wait_for_selector(".chip.you")
    # The creator is offered only the link of the seat still empty (East).
    creator.wait_for_function(f"document.querySelectorAll('{INVITES}').length === 1")
    assert creator.locator(INVITES).input_value() != north_link

    invited = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    invited.goto(north_link)
    toast = invited.locator("#toast")
    toast.wait_for(state="visible")
    taken = "North was taken from the lobby by Stranger: this invite link no longer works"
    assert toast.inner_text() == taken
    invited.wait_for_selector(".who .name")  # the table is drawn, as for a spectator
    assert invited.locator(".chip.you").count() == 0
    assert invited.evaluate(f"localStorage.getItem('spades.seat.{tid}')") is None
    invited.screenshot(path=str(ARTIFACTS / "invite_seat_taken.png"))
    assert lobby.locator(".chip.you").count() == 1  # the claimer still holds the seat
    for page in (creator, lobby, invited):
        page.context.close()


def test_an_invite_link_opens_its_seat_once(server: Server, browser: Any) -> None:
    """The first browser on an invite link gets the seat; the same link opened again (the
    creator trying it, a forwarded message) only watches, and says why."""
    t = server.api(
        "/api/tables",
        {"rules": "two_player", "seats": [{"open": True, "name": "Lee"}, {"open": True}], "bot_delay_ms": 0},
    )
    tid, link = t["id"], f"{server.base}/t/{t['id']}#invite={t['seats'][1]['invite']}"
    friend = browser.new_context(viewport={"width": 1000, "height": 760}).new_page()
    friend.goto(link)
    friend.wait_for_selector(".chip.you")
    assert "invite" not in (friend.evaluate(f"localStorage.getItem('spades.seat.{tid}')") or "invite")

    again = browser.new_context(viewport={"width": 1000, "height": 760}).new_page()
    again.goto(link)
    toast = again.locator("#toast")
    toast.wait_for(state="visible")
    assert toast.inner_text() == "the invite link for North was already used: it opens the seat only once"
    again.wait_for_selector(".who .name")  # drawn as for a spectator
    assert again.locator(".chip.you").count() == 0
    assert again.evaluate(f"localStorage.getItem('spades.seat.{tid}')") is None
    again.screenshot(path=str(ARTIFACTS / "invite_used.png"))
    # The friend, reloading, is still on his seat (his browser kept the token, not the ticket),
    # and opening his link once more neither spends nor loses anything.
    friend.reload()
    friend.wait_for_selector(".chip.you")
    tab = friend.context.new_page()  # the link clicked again, in a new tab of his browser
    tab.goto(link)
    tab.locator("#toast").wait_for(state="visible")
    assert "already holds a seat" in tab.locator("#toast").inner_text()
    tab.wait_for_selector(".chip.you")
    assert "token" in tab.evaluate(f"localStorage.getItem('spades.seat.{tid}')")
    for page in (friend, again):
        page.context.close()
