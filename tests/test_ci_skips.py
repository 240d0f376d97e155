"""On CI (``CI`` set, as ``.ci/run`` does) a skipped test fails with its reason, unless the
reason is one of ``conftest.CI_SKIPS_ALLOWED``; off CI a skip stays a skip."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CASES = """
import pytest

def test_needs_a_service():
    pytest.skip("no PostgreSQL here")

@pytest.mark.skipif(True, reason="root may write anywhere")
def test_allowed():
    pass

@pytest.mark.xfail(reason="a known bug")
def test_known_bug():
    assert False

def test_plain():
    pass
"""


def _run(folder: Path, ci: str | None) -> str:
    shutil.copy(Path(__file__).with_name("conftest.py"), folder / "conftest.py")
    (folder / "pytest.ini").write_text("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    cmd = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", str(folder)]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=folder).stdout


def test_a_skip_fails_on_ci_with_its_reason(tmp_path: Path) -> None:
    (tmp_path / "test_cases.py").write_text(CASES)
    out = _run(tmp_path, "1")
    assert "1 failed, 1 passed, 1 skipped, 1 xfailed" in out
    assert "skipped on CI, where every test must run: no PostgreSQL here" in out
    assert "root may write anywhere" in out  # the allowed one is still reported as a skip


def test_off_ci_a_skip_is_a_skip(tmp_path: Path) -> None:
    (tmp_path / "test_cases.py").write_text(CASES)
    for ci in (None, "0"):
        assert "1 passed, 2 skipped, 1 xfailed" in _run(tmp_path, ci)


def test_a_missing_module_fails_collection_on_ci(tmp_path: Path) -> None:
    (tmp_path / "test_extra.py").write_text(
        'import pytest\npytest.importorskip("no_such_extra_xyz")\n\ndef test_x():\n    pass\n'
    )
    out = _run(tmp_path, "1")
    assert "skipped on CI, where every test must run: could not import 'no_such_extra_xyz'" in out
    assert "1 skipped" in _run(tmp_path, None)
