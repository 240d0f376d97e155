"""Suite-wide checks: refuse to test a stale compiled engine, say which engine runs, and on CI
let no test skip (a skip there means a dependency or service CI should have provided)."""

from __future__ import annotations

import os
from collections.abc import Generator

import pytest

from spades._native import describe_engine, stale_message

os.environ["SPADES_LANG"] = "en"  # the tests read English whatever the machine's locale (spades.i18n)

CI_SKIPS_ALLOWED = {
    "root may write anywhere": "a file-permission refusal cannot be seen as root, and CI may run as root",
    "POSIX file modes": "file modes exist only on POSIX; CI is Linux, so this never skips there",
}
"""The only skip reasons accepted when ``CI`` is set, each with why it is legitimate."""


def _browser() -> list[str]:
    try:  # tests/browser/pageserver.py: where the page tests' Chromium is, or what to install
        from browser.pageserver import browser_status
    except ImportError:  # this file copied elsewhere (test_ci_skips)
        return []
    return [browser_status()]


def pytest_report_header() -> list[str]:
    return [f"spades engine: {describe_engine()}", *_browser()]


def pytest_sessionstart(session: pytest.Session) -> None:
    # An editable install's .so beside an edited .py would test the old code: stop instead.
    message = stale_message()
    if message:
        pytest.exit(message, returncode=4)
    # Under -q (the default) the header is not shown: a missing Chromium is still said first.
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    missing = [line for line in _browser() if "not found" in line]
    if reporter is not None and missing and session.config.get_verbosity() < 0:
        reporter.write_line(missing[0])


def _on_ci() -> bool:
    return os.environ.get("CI", "").strip() not in ("", "0", "false")


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def _fail_skip_on_ci(report: pytest.TestReport | pytest.CollectReport) -> None:
    if not (_on_ci() and report.skipped) or hasattr(report, "wasxfail"):
        return
    reason = _skip_reason(report)
    if reason in CI_SKIPS_ALLOWED:
        return
    report.outcome = "failed"
    report.longrepr = f"skipped on CI, where every test must run: {reason}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    _fail_skip_on_ci(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    # A module-level importorskip skips at collection: a missing extra on CI fails instead.
    report = yield
    _fail_skip_on_ci(report)
    return report
