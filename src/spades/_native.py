"""Whether the engine runs compiled (mypyc) and whether a compiled module is stale.

An editable install (``pip install -e .``) puts the compiled ``state.*.so`` beside
``src/spades/state.py``, and Python imports the ``.so`` first: after an edit of the ``.py``
without a rebuild, the old code would run silently. The build writes the SHA-256 of each
compiled source into the compiled ``spades._compiled``; here it is compared with the source
now on disk. The engine warns at import, and the test suite refuses to run, until
``pip install -e .`` rebuilds it.

``SPADES_PURE_PYTHON=1`` in the environment when ``spades`` is imported runs the engine from
its ``.py`` sources even where a compiled build sits beside them (the same variable makes the
build skip compiling): the test suite runs the engine's tests both ways, and a benchmark can
time both from one install. ``spades/__init__.py`` imports this module first, so the switch
is in place before anything imports ``spades.state``.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

COMPILABLE = ("state", "legal", "scoring")
"""The modules ``setup.py`` compiles, under ``spades``."""

PURE_ENV = "SPADES_PURE_PYTHON"
"""Set (to anything but ``0``) to run the engine in pure Python; ``setup.py`` reads it too."""


def pure_requested() -> bool:
    """Whether ``SPADES_PURE_PYTHON`` asks for the pure-Python engine."""
    return os.environ.get(PURE_ENV, "").strip() not in ("", "0")


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds each ``spades.<COMPILABLE>`` module as its ``.py`` source, ahead of the standard
    finder, which would prefer the compiled extension beside it."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != __package__ or name not in COMPILABLE:
            return None
        source = Path(__file__).with_name(f"{name}.py")
        if not source.is_file():
            return None  # installed without its source: the compiled module is all there is
        return importlib.util.spec_from_file_location(fullname, source)


def select_engine() -> None:
    """Put ``SourceFinder`` first on ``sys.meta_path`` if ``SPADES_PURE_PYTHON`` asks for it
    (once; a module imported before this call stays as it was loaded)."""
    if pure_requested() and not any(isinstance(f, SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())


select_engine()


def _baked() -> dict[str, str]:
    try:
        from spades import _compiled  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        return {}
    sources: dict[str, str] = _compiled.SOURCES
    return sources


def is_compiled(module_file: str) -> bool:
    return not module_file.endswith((".py", ".pyc"))


def stale_line(name: str, module_file: str, baked: dict[str, str]) -> str | None:
    """One line naming the fix if the compiled ``module_file`` of ``spades.<name>`` was not
    built from the ``<name>.py`` beside it, else ``None`` (also for a pure-Python module)."""
    if not is_compiled(module_file):
        return None
    source = Path(module_file).with_name(f"{name}.py")
    if not source.is_file():
        return None  # installed without its source: nothing to go stale against
    if baked.get(f"{name}.py") == hashlib.sha256(source.read_bytes()).hexdigest():
        return None
    return (
        f"spades: the compiled {Path(module_file).name} is older than {source}: rebuild it with "
        "`pip install -e .` (or `SPADES_PURE_PYTHON=1 pip install -e .` for pure Python)"
    )


def compiled_modules() -> list[str]:
    """The engine modules that run compiled in this interpreter."""
    out = []
    for name in COMPILABLE:
        module = importlib.import_module(f"spades.{name}")
        if is_compiled(str(module.__file__)):
            out.append(name)
    return out


def describe_engine() -> str:
    """Which engine runs, in a few words (the test suite's report header)."""
    compiled = compiled_modules()
    if compiled:
        return "compiled (mypyc): " + ", ".join(compiled)
    return f"pure Python ({PURE_ENV}=1)" if pure_requested() else "pure Python (not compiled)"


def stale_message() -> str | None:
    """The first stale compiled module's line (see ``stale_line``), or ``None``."""
    baked = _baked()
    for name in COMPILABLE:
        module = importlib.import_module(f"spades.{name}")
        line = stale_line(name, str(module.__file__), baked)
        if line:
            return line
    return None


def warn_if_stale(name: str, module_file: str) -> None:
    """Called by a compiled module as it is imported."""
    line = stale_line(name, module_file, _baked())
    if line:
        warnings.warn(line, RuntimeWarning, stacklevel=2)
