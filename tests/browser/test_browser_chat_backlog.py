"""Table chat survives a reload, a dropped connection and a second device (issue 13): the
page shows the table's earlier lines in order, each once, still as text, never as HTML."""

from __future__ import annotations

from typing import Any

from pageserver import Server

BOT = {"bot": "heuristic"}
SOCKETS = (
    "window.__sockets = []; const W = window.WebSocket; window.WebSocket = class extends W {"
    " constructor(...a) { super(...a); window.__sockets.push(this); } };"
)
LINES = "() => [...document.querySelectorAll('#chat-log li:not(.note)')].map(li => li.textContent)"


def _open(browser: Any, server: Server, tid: str, token: str | None) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 820}, locale="en-GB")
    context.add_init_script(SOCKETS)
    page = context.new_page()
    page.goto(f"{server.base}/t/{tid}" + (f"#token={token}" if token else ""))
    page.wait_for_selector(".chip.you" if token else "#board")
    return page


def _lines(page: Any, n: int) -> list[str]:
    page.wait_for_function(f"() => document.querySelectorAll('#chat-log li:not(.note)').length >= {n}")
    return list(page.evaluate(LINES))


def test_chat_lines_survive_reload_reconnect_and_a_second_device(server: Server, browser: Any) -> None:
    seats = [{"open": True, "name": "Ann"}, BOT, {"open": True, "name": "Bea"}, BOT]
    t = server.api("/api/tables", {"rules": "standard", "seats": seats, "bot_delay_ms": 4000})
    tid, ann_token, bea_token = t["id"], t["seats"][0]["token"], t["seats"][2]["token"]
    ann = _open(browser, server, tid, ann_token)
    ann.click("#btn-chat")
    ann.click("#chatbox button[data-quick='hello']")
    ann.wait_for_function("() => document.querySelectorAll('#chat-log li:not(.note)').length === 1")
    ann.fill("#chat-text", "<b>ready</b> & set")
    ann.press("#chat-text", "Enter")
    want = ["Ann: Hello!", "Ann: <b>ready</b> & set"]
    assert _lines(ann, 2) == want
    # a reload: the panel opens on the same two lines
    ann.reload()
    ann.wait_for_selector(".chip.you")
    ann.click("#btn-chat")
    assert _lines(ann, 2) == want
    assert ann.locator("#chat-log b").count() == 0  # still text, never HTML
    # the connection drops and comes back: the backlog sent again adds nothing twice
    ann.evaluate("() => window.__sockets.at(-1).close()")
    ann.wait_for_function("() => window.__sockets.length === 2 && window.__sockets[1].readyState === 1")
    ann.wait_for_function("() => document.getElementById('conn').classList.contains('ok')")
    ann.fill("#chat-text", "back")
    ann.press("#chat-text", "Enter")
    assert _lines(ann, 3) == [*want, "Ann: back"]
    # Bea arrives later and a spectator too: both see everything said before, in order
    bea = _open(browser, server, tid, bea_token)
    bea.wait_for_function("() => document.querySelector('#btn-chat').textContent.trim() === 'Chat'")
    bea.click("#btn-chat")
    assert _lines(bea, 3) == [*want, "Ann: back"]
    watcher = _open(browser, server, tid, None)
    watcher.wait_for_selector("#btn-chat:not([hidden])")
    watcher.click("#btn-chat")
    assert _lines(watcher, 3) == [*want, "Ann: back"]
    for page in (ann, bea, watcher):
        page.context.close()
