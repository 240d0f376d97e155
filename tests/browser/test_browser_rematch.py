"""A rematch started at game over reaches everyone still at the old table (issue 13): the other
person gets a one-click link that seats him in his own seat of the new table (by the token his
browser holds, never another's), a spectator a link to watch it, and a page that reloads still
shows it."""

from __future__ import annotations

import time
from typing import Any

from pageserver import Server

BOT = {"bot": "heuristic"}


def _page(browser: Any, server: Server, path: str, locale: str = "en-GB") -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 820}, locale=locale)
    page = context.new_page()
    page.goto(server.base + path)
    return page


def test_rematch_offers_each_person_his_own_seat_and_spectators_a_link(server: Server, browser: Any) -> None:
    seats = [{"open": True, "name": "Bea"}, BOT, {"open": True, "name": "Pat"}, BOT]
    body = {"rules": {"preset": "standard", "target": 100}, "seats": seats, "bot_delay_ms": 0, "away_s": 1}
    t = server.api("/api/tables", body)
    old = t["id"]
    end = time.monotonic() + 90
    while server.api(f"/api/tables/{old}")["status"] != "over" and time.monotonic() < end:
        time.sleep(0.3)
    pat = _page(browser, server, f"/t/{old}#token={t['seats'][2]['token']}")
    bea = _page(browser, server, f"/t/{old}#token={t['seats'][0]['token']}", locale="it-IT")
    watcher = _page(browser, server, f"/t/{old}")
    for page in (pat, bea):
        page.wait_for_selector("#btn-rematch")
    watcher.wait_for_selector("#status")
    pat.click("#btn-rematch")
    pat.wait_for_url(lambda url: old not in url)
    new = pat.url.rsplit("/", 1)[1].split("#")[0]
    pat.wait_for_selector(".chip.you")
    # Bea, in Italian: told who started it, one click to her own seat there
    bea.wait_for_selector("#lnk-rematch")
    assert "Pat ha avviato la rivincita." in bea.inner_text("#rematch-line")
    assert bea.locator("#btn-rematch").count() == 0
    href = bea.get_attribute("#lnk-rematch", "href")
    assert href == f"/t/{new}#rematch={old}"  # no secret in the link
    bea.click("#lnk-rematch")
    bea.wait_for_url(lambda url: new in url)
    bea.wait_for_selector(".chip.you")
    view = server.api(f"/api/tables/{new}")
    assert view["players"][0] == "Bea" and view["players"][2] == "Pat"
    assert view["status"] == "playing"
    # the spectator: a link to watch, also after a reload
    watcher.reload()
    watcher.wait_for_selector("#lnk-rematch")
    assert watcher.get_attribute("#lnk-rematch", "href") == f"/t/{new}"
    assert watcher.inner_text("#lnk-rematch") == "Watch the rematch"
    for page in (pat, bea, watcher):
        page.context.close()
