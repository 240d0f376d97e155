"""Waiting on a server table over REST, for the tests that drive one through ``TestClient``."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the callers skip themselves without fastapi; importing this must not fail
    from fastapi.testclient import TestClient


def wait_for(c: TestClient, tid: str, pred: Any, timeout: float = 30) -> dict[str, Any]:
    """The table's view once ``pred(view)`` holds, or the last view after ``timeout`` s."""
    end = time.monotonic() + timeout
    while True:
        view: dict[str, Any] = c.get(f"/api/tables/{tid}").json()
        if pred(view) or time.monotonic() > end:
            return view
        time.sleep(0.02)
