"""Accounts in a real browser (a real ``spades serve``, Debian's Chromium): sign up, a seat
that follows the account to a second browser, the abuse cases (wrong password, forged CSRF,
too many failures), fixation, sign out everywhere, deletion, and the profile and leaderboard
pages drawing. Each test uses fresh names, so they share the module's server."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from pageserver import ARTIFACTS, Server

expect = pytest.importorskip("playwright.sync_api").expect

PASSWORD = "correct horse battery"
VIEW = {"width": 1100, "height": 900}


def _name(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def _page(browser: Any) -> Any:
    page = browser.new_context(viewport=VIEW).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def _signup(page: Any, server: Server, name: str) -> None:
    page.goto(server.base + "/signin")
    page.fill("#up-name", name)
    page.fill("#up-password", PASSWORD)
    page.click("#btn-signup")
    page.wait_for_url("**/account")
    expect(page.locator("#me-name")).to_have_text(name)


def _signin(page: Any, server: Server, name: str, password: str = PASSWORD, *, next_: str = "") -> None:
    page.goto(server.base + "/signin" + (f"?next={next_}" if next_ else ""))
    page.fill("#in-name", name)
    page.fill("#in-password", password)
    page.click("#btn-signin")


def _signin_here(page: Any, name: str) -> None:
    """Sign in on the page an account link led to (its ``next`` kept)."""
    page.wait_for_url("**/signin?next=*")
    page.fill("#in-name", name)
    page.fill("#in-password", PASSWORD)
    page.click("#btn-signin")


def _session_cookie(page: Any) -> str | None:
    for c in page.context.cookies():
        if c["name"] in ("spades_session", "__Host-spades_session"):
            assert c["httpOnly"] and c["sameSite"] == "Lax"
            return str(c["value"])
    return None


def test_a_seat_follows_the_account_to_another_browser(server: Server, browser: Any) -> None:
    name = _name("ada")
    home = _page(browser)
    _signup(home, server, name)
    home.goto(server.base + "/")
    expect(home.locator("#account-link")).to_have_text(name)
    expect(home.locator("#name")).to_have_value(name)  # signed in: "Your name" is filled
    home.fill("#name", "typed name")
    home.fill("#delay", "0")
    home.select_option("#seat-0", "open")  # North waits for someone: the game does not start
    home.click("#btn-create")  # a signed-in POST: the page's CSRF token goes with it
    home.wait_for_selector("#go-table")
    home.click("#go-table")
    home.wait_for_selector(".chip.you")
    tid = home.url.rsplit("/", 1)[1]
    assert server.api(f"/api/tables/{tid}")["players"][2] == name  # the account's name

    laptop = _page(browser)  # no seat token in this browser's storage
    laptop.goto(server.base + f"/t/{tid}")
    laptop.wait_for_selector(".who .name")
    assert laptop.locator(".chip.you").count() == 0  # not signed in: watches
    link = laptop.locator("#account-link")  # the table page has the account link too
    expect(link).to_have_text("Sign in")
    link.click()  # it comes back to this table after signing in
    _signin_here(laptop, name)
    laptop.wait_for_url(f"**/t/{tid}")
    expect(laptop.locator("#account-link")).to_have_text(name)
    laptop.wait_for_selector(".chip.you")  # signed in: the account's seat opens here too
    laptop.screenshot(path=str(ARTIFACTS / "account_seat_second_browser.png"))

    history = _page(browser)
    _signin(history, server, name, next_="/history")
    history.wait_for_url("**/history")
    history.wait_for_selector("#games tr.game")
    assert history.locator("#games tr.game").count() == 1
    italian = history.context.browser.new_context(locale="it-IT", viewport=VIEW)
    italian.add_cookies(history.context.cookies())
    it_history = italian.new_page()
    it_history.goto(server.base + "/history")
    it_history.wait_for_selector("#games tr.game")
    row = it_history.locator("#games tr.game").inner_text()
    assert "Est (bot " in row and "East" not in row, row  # the bots' seat names in Italian
    italian.close()
    replay = _page(browser)  # the replay page: signed out, its sign-in link comes back to it
    replay.goto(server.base + f"/replay?table={tid}")
    expect(replay.locator("#account-link")).to_have_text("Sign in")
    replay.click("#account-link")
    _signin_here(replay, name)
    replay.wait_for_url(f"**/replay?table={tid}")
    expect(replay.locator("#account-link")).to_have_text(name)
    replay.context.close()
    for page in (home, laptop, history):
        assert page.errors == []
        page.context.close()


def test_wrong_password_forged_csrf_and_too_many_failures(server: Server, browser: Any) -> None:
    name = _name("bea")
    page = _page(browser)
    _signup(page, server, name)
    page.click("#btn-signout")
    page.wait_for_selector("#guest", state="visible")
    _signin(page, server, name, "not my password")
    expect(page.locator("#error")).not_to_be_empty()
    assert page.locator("#error").inner_text() == "wrong user name or password"
    # A request with a made-up token (or none) is refused; the page's own works.
    forged = page.evaluate(
        """() => fetch('/api/account/signin', {method: 'POST', headers: {'content-type':
        'application/json', 'x-csrf-token': 'forged-forged-forged'}, body: JSON.stringify({name: 'x',
        password: 'y'})}).then(async (r) => [r.status, (await r.json()).error])"""
    )
    assert forged[0] == 403 and "CSRF" in forged[1]
    # Ten failures lock the account for a while, even against the right password.
    for _ in range(9):
        status = page.evaluate(
            f"""() => fetch('/api/account/signin', {{method: 'POST', headers: {{'content-type':
            'application/json'}}, body: JSON.stringify({{name: {name!r}, password: 'guess'}})}})
            .then((r) => r.status)"""
        )
        assert status == 401
    _signin(page, server, name)
    expect(page.locator("#error")).not_to_be_empty()
    assert "too many failed sign-ins for this account" in page.locator("#error").inner_text()
    assert page.errors == []
    page.context.close()


def test_fixation_sign_out_everywhere_and_delete(server: Server, browser: Any) -> None:
    name = _name("cid")
    a = _page(browser)
    _signup(a, server, name)
    first = _session_cookie(a)
    _signin(a, server, name)
    a.wait_for_url("**/account")
    second = _session_cookie(a)
    assert first and second and first != second  # a new session id at every sign-in

    b = _page(browser)
    _signin(b, server, name)
    b.wait_for_url("**/account")
    b.wait_for_selector("#me", state="visible")
    a.click("#btn-signout-all")
    a.wait_for_selector("#guest", state="visible")
    b.reload()
    b.wait_for_selector("#guest", state="visible")  # the other browser's session ended too

    _signin(b, server, name)
    b.wait_for_url("**/account")
    b.fill("#del-password", PASSWORD)
    b.check("#del-sure")
    b.click("#btn-delete")
    b.wait_for_selector("#guest", state="visible")
    assert b.locator("#done").inner_text() != ""
    _signin(b, server, name)
    expect(b.locator("#error")).not_to_be_empty()
    for page in (a, b):
        assert page.errors == []
        page.context.close()


def test_profile_and_leaderboard_pages_draw(server: Server, browser: Any) -> None:
    name = _name("dee")
    page = _page(browser)
    _signup(page, server, name)
    page.click("#to-profile")
    page.wait_for_selector("#stats-panel", state="visible")
    assert page.locator("#name").inner_text() == name
    assert page.locator("#stats dt").count() >= 8
    page.wait_for_load_state("networkidle")
    assert page.evaluate("() => document.getElementById('points-plot').naturalWidth") > 0
    page.goto(server.base + "/leaderboard")
    page.wait_for_selector("#family option", state="attached")
    page.goto(server.base + "/u/nobody-at-all")
    expect(page.locator("#error")).not_to_be_empty()
    assert "nobody-at-all" in page.locator("#error").inner_text()
    assert page.errors == []
    page.context.close()


def test_signing_in_before_the_page_has_loaded_keeps_the_next_page(server: Server, browser: Any) -> None:
    """A press while the page still loads its words and account used to submit the form
    natively: the user name went into the address and the page to come back to was lost."""
    name = _name("fay")
    _signup(_page(browser), server, name)
    page = _page(browser)
    held: list[Any] = []
    # The page's "who am I" waits until released.
    page.route("**/api/account", lambda route: held.append(route))
    page.goto(server.base + "/signin?next=/leaderboard")
    page.fill("#in-name", name)
    page.fill("#in-password", PASSWORD)
    page.click("#btn-signin")
    page.wait_for_timeout(300)
    assert "username=" not in page.url
    for route in held:
        route.continue_()
    page.unroute("**/api/account")
    page.wait_for_url("**/leaderboard")
    expect(page.locator("#account-link")).to_have_text(name)
    assert page.errors == []
    page.context.close()
