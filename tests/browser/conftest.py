"""Fixtures of the page tests: one server per module and one headless Chromium. Without
Chromium they skip, saying what to install (on CI, where ``CI`` is set, they fail instead)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from pageserver import (
    ARTIFACTS,
    LAUNCH_ARGS,
    Server,
    chromium_missing,
    chromium_path,
    free_port,
    start_server,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    pytest.importorskip("uvicorn")
    port = free_port()
    proc = start_server(port, tmp_path_factory.mktemp("web") / "web.db")
    yield Server(port)
    proc.kill()
    proc.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    exe = chromium_path()
    if exe is None:
        if os.environ.get("CI", "").strip() not in ("", "0", "false"):
            pytest.fail(f"{chromium_missing()}: CI must run the page tests")
        pytest.skip(chromium_missing())
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()
