"""Helpers of the page tests: a real ``spades serve`` and Debian's Chromium (never a
downloaded browser). Kept out of conftest.py so test modules can import them by a unique name."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[1] / "_artifacts"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-extensions",
    "--disable-sync",
    "--no-first-run",
    "--mute-audio",
]


CHROMIUM_HINT = "apt-get install chromium (or set SPADES_CHROMIUM to a Chromium binary)"
"""What a local user installs for the page tests: without it they skip (on CI they fail)."""


def chromium_path() -> str | None:
    for cand in (os.environ.get("SPADES_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if cand and Path(cand).exists():
            return cand
    return None


def chromium_missing() -> str:
    """Why the page tests cannot run here and what to install, in one line."""
    looked = [p for p in (os.environ.get("SPADES_CHROMIUM"), "/usr/bin/chromium") if p] + ["chromium on PATH"]
    return f"chromium not found at {', '.join(looked)}: {CHROMIUM_HINT}"


def browser_status() -> str:
    """The test run's header line for the page tests: the Chromium they use, or what is missing."""
    exe = chromium_path()
    if exe is None:
        return f"browser tests: {chromium_missing()} (they skip; on CI they fail)"
    return f"browser tests: chromium at {exe}"


class Server:
    def __init__(self, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"

    def api(self, path: str, body: Any = None) -> Any:
        req = urllib.request.Request(
            self.base + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: Path) -> subprocess.Popen[bytes]:
    """``spades serve`` on ``port``, returned once it answers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades", "serve", "--port", str(port), "--db", f"sqlite:///{db}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    srv = Server(port)
    for _ in range(300):
        try:
            srv.api("/api/info")
            break
        except OSError:
            time.sleep(0.1)
    return proc


def act_once(page: Any, *, dismiss: bool = True, blind: bool = False) -> str | None:
    """Do whatever the page offers, as a person would (bid 3, or Blind Nil when ``blind`` and
    offered; pass the first cards; play the first legal card); return what was done."""
    try:
        if page.locator("#btn-continue").is_visible():
            if not dismiss:
                return None
            page.click("#btn-continue", timeout=2000)
            return "continue"
        if page.locator("#btn-join").count():
            return None
        if blind and page.locator("#btn-blind").count():
            page.click("#btn-blind", timeout=2000)
            return "blind"
        if page.locator("#btn-look").count():
            page.click("#btn-look", timeout=2000)
            return "look"
        bids = page.locator("#controls button.bid")
        if bids.count():
            bids.nth(min(3, bids.count() - 1)).click(timeout=2000)
            return "bid"
        if page.locator("#btn-pass").count():
            for _ in range(13):
                if page.locator("#btn-pass").is_enabled():
                    break
                page.locator("#hand button.card.legal:not(.selected)").first.click(timeout=2000)
            page.click("#btn-pass", timeout=2000)
            return "pass"
        legal = page.locator("#hand button.card.legal:not([disabled])")
        if legal.count():
            legal.first.click(timeout=2000)
            return "play"
    except Exception:  # the page re-rendered under the click: look again
        return None
    return None
