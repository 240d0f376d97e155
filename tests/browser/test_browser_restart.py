"""The server dies (SIGKILL) under an open page and comes back: the page reconnects by
itself with the seat token it kept, and the game goes on where it was."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
from pageserver import ARTIFACTS, Server, free_port, start_server


def test_the_page_reconnects_after_the_server_is_killed(browser: Any, tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    port = free_port()
    db = tmp_path / "restart.db"
    proc = start_server(port, db)
    srv = Server(port)
    try:
        bot = {"bot": "heuristic"}
        t = srv.api(
            "/api/tables", {"seats": [bot, bot, {"open": True, "name": "Kim"}, bot], "bot_delay_ms": 0}
        )
        page = browser.new_page(viewport={"width": 1000, "height": 760})
        page.goto(f"{srv.base}/t/{t['id']}#token={t['seats'][2]['token']}")
        page.wait_for_selector(".chip.you")
        page.wait_for_selector("#btn-look, #controls button.bid")
        before = srv.api(f"/api/tables/{t['id']}")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        page.wait_for_selector(".conn.bad", timeout=10_000)
        proc = start_server(port, db)
        page.wait_for_selector(".conn.ok", timeout=15_000)
        after = srv.api(f"/api/tables/{t['id']}")
        assert after["bids"] == before["bids"] and after["to_move"] == before["to_move"] == 2
        # Still our seat: look and bid from the page, and the server takes it.
        if page.locator("#btn-look").count():
            page.click("#btn-look")
        page.locator("#controls button.bid").nth(2).click()
        for _ in range(100):
            if srv.api(f"/api/tables/{t['id']}")["bids"][2] is not None:
                break
            page.wait_for_timeout(100)
        assert srv.api(f"/api/tables/{t['id']}")["bids"][2] is not None
        page.screenshot(path=str(ARTIFACTS / "table_after_restart.png"))
        page.close()
    finally:
        proc.kill()
        proc.wait()
