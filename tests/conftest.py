"""Suite-wide checks: refuse to test a stale compiled engine, and say which engine runs."""

from __future__ import annotations

import pytest

from spades._native import compiled_modules, stale_message


def pytest_report_header() -> str:
    compiled = compiled_modules()
    return f"spades engine: {'compiled (mypyc): ' + ', '.join(compiled) if compiled else 'pure Python'}"


def pytest_sessionstart(session: pytest.Session) -> None:
    # An editable install's .so beside an edited .py would test the old code: stop instead.
    message = stale_message()
    if message:
        pytest.exit(message, returncode=4)
