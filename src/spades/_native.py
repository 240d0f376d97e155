"""Whether the engine runs compiled (mypyc) and whether a compiled module is stale.

An editable install (``pip install -e .``) puts the compiled ``state.*.so`` beside
``src/spades/state.py``, and Python imports the ``.so`` first: after an edit of the ``.py``
without a rebuild, the old code would run silently. The build writes the SHA-256 of each
compiled source into the compiled ``spades._compiled``; here it is compared with the source
now on disk. The engine warns at import, and the test suite refuses to run, until
``pip install -e .`` rebuilds it.
"""

from __future__ import annotations

import hashlib
import importlib
import warnings
from pathlib import Path

COMPILABLE = ("state",)
"""The modules ``setup.py`` compiles, under ``spades``."""


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
