"""Build the package, with the engine's hot module compiled by mypyc when this machine can.

Everything else is in ``pyproject.toml``; this file only adds the compiled extension.
``src/spades/state.py`` (the game state machine, where random playouts and RL spend their
time), with the rules it calls on every hand (``legal.py``, ``scoring.py``), is compiled with
mypyc, about 1.6x faster than CPython runs it. Compiling needs a C
compiler and the Python headers; when they are missing, or the compilation fails, or
``SPADES_PURE_PYTHON=1`` is set, the install goes on with the same module in pure Python
(identical behaviour, slower), after a warning.

Next to the compiled module the build writes ``spades/_compiled.py`` (compiled too) with the
SHA-256 of each compiled source, so ``spades._native`` can tell when an editable install's
``.so`` is older than the ``.py`` beside it (tests refuse to run then, the engine warns).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PKG = ROOT / "src" / "spades"
COMPILED = ["state.py", "legal.py", "scoring.py"]
"""The modules compiled by mypyc, relative to ``src/spades``."""
STAMP = PKG / "_compiled.py"
BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def _warn(message: str) -> None:
    print(f"spades: WARNING: {message}; installing the pure-Python engine", file=sys.stderr)


def _clear_in_tree_artefacts() -> None:
    """Remove the compiled modules an earlier editable build left beside the sources, so that
    a failed or pure build can never leave an old ``.so`` to shadow a newer ``.py``."""
    for name in [*COMPILED, STAMP.name]:
        stem = name.removesuffix(".py")
        for path in PKG.glob(f"{stem}.*.so"):
            path.unlink()
        for path in PKG.glob(f"{stem}__mypyc.*.so"):
            path.unlink()
    STAMP.unlink(missing_ok=True)


def _write_stamp() -> None:
    lines = [
        '"""Written by setup.py with the compiled engine: the SHA-256 of each compiled source."""',
        "",
        "from typing import Final",
        "",
        "SOURCES: Final = {",
    ]
    for name in COMPILED:
        digest = hashlib.sha256((PKG / name).read_bytes()).hexdigest()
        lines.append(f'    "{name}": "{digest}",')
    lines.append("}")
    STAMP.write_text("\n".join(lines) + "\n")


def _ext_modules() -> list[Any]:
    if not BUILD_COMMANDS.intersection(sys.argv[1:]):
        return []  # metadata only (egg_info, dist_info, sdist): nothing to compile
    _clear_in_tree_artefacts()
    if os.environ.get("SPADES_PURE_PYTHON", "").strip() not in ("", "0"):
        print("spades: SPADES_PURE_PYTHON is set; installing the pure-Python engine", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc (part of mypy) is not installed")
        return []
    _write_stamp()
    paths = [str(Path("src", "spades", name)) for name in [*COMPILED, STAMP.name]]
    try:
        # MYPYC widens the annotations of the engine's public parameters to Any for the
        # compiler only (see spades.state): the methods check a caller's values themselves.
        return list(mypycify(["--always-true=MYPYC", *paths], opt_level="3", separate=True))
    except (Exception, SystemExit) as e:  # mypycify exits on a type error
        STAMP.unlink(missing_ok=True)
        _warn(f"mypyc could not compile the engine ({e!r})")
        return []


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to pure Python when the C compiler fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:
            for path in self.get_outputs():
                Path(path).unlink(missing_ok=True)
            STAMP.unlink(missing_ok=True)
            _warn(f"compiling the engine failed ({e!r})")


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
