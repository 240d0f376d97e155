"""``SPADES_PURE_PYTHON=1`` runs the engine from its ``.py`` source even beside a compiled
build (``scripts/test`` runs the engine's tests a second time that way), and says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import spades
from spades._native import PURE_ENV, describe_engine, pure_requested

SRC = Path(spades.__file__).parent
PROBE = (
    "import json, spades.state as s; from spades._native import compiled_modules; "
    "print(json.dumps([s.__file__, s._COMPILED, compiled_modules()]))"
)


def _probe(value: str | None) -> tuple[str, bool, list[str]]:
    """Where ``spades.state`` comes from in a fresh interpreter with the switch at ``value``."""
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    if value is not None:
        env[PURE_ENV] = value
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    file, compiled, modules = json.loads(out.stdout)
    return file, compiled, modules


def _built() -> bool:
    """Whether a compiled engine sits beside the source (the default install on a machine with gcc)."""
    return any(SRC.glob("state.*.so")) or any(SRC.glob("state.*.pyd"))


@pytest.mark.parametrize("value", ["1", "yes"])
def test_the_switch_loads_the_python_source(value: str) -> None:
    file, compiled, modules = _probe(value)
    assert Path(file) == SRC / "state.py"
    assert compiled is False and modules == []


@pytest.mark.parametrize("value", [None, "", "0"])
def test_without_the_switch_the_compiled_build_wins(value: str | None) -> None:
    file, compiled, modules = _probe(value)
    assert file.endswith(".py") is not _built()
    assert compiled is _built() and modules == (["state", "legal", "scoring"] if _built() else [])


def test_this_run_tests_the_engine_it_says() -> None:
    """Under the switch (the second run of ``scripts/test``) this process's engine is the source."""
    import spades.state

    if pure_requested():
        assert spades.state.__file__ == str(SRC / "state.py")
    else:
        assert spades.state.__file__.endswith(".py") is not _built()


def test_the_report_header_names_the_engine() -> None:
    if pure_requested():
        assert describe_engine() == f"pure Python ({PURE_ENV}=1)"
    elif _built():
        assert describe_engine() == "compiled (mypyc): state, legal, scoring"
    else:
        assert describe_engine() == "pure Python (not compiled)"
