"""Compile every kernel ahead of play: ``spades warm`` (``python -m spades warm``).

numba compiles a kernel the first time it is called and keeps the machine code on disk
(``__pycache__`` beside the source, or ``NUMBA_CACHE_DIR``). The first compile of all of them
takes one to two minutes; so ``scripts/ensure-venv`` runs this step right after an install
and ``scripts/run`` before the server starts, and no player waits for it at the table. Later
processes only load the code (about a second, ``warm_up``). A cache from other sources is
dropped at import (``spades.search._jit``) and refilled here.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from spades.i18n import _, ngettext
from spades.rules import Rules
from spades.scoring import SeatBid

KERNEL_MODULES = (
    "spades.search._jit",
    "spades.search._kernel_common",
    "spades.search._dd_kernel",
    "spades.search._score_kernel",
    "spades.search.playout",
)
"""Every module whose jitted functions are cached on disk."""


def warm_up() -> None:
    """Run each kernel once on a tiny position; afterwards no call pays for compilation.

    Each public entry point (``Solver``, ``ScoreSolver``, ``playout_batch``, ``playout_cards``)
    passes its kernel the same argument types whatever the position, so one call each fills
    the cache for every use: the expert, hints, ``spades solve`` and ``spades analyse`` (which
    also sorts hands by ``_nil_seats``)."""
    from spades.search._score_kernel import _nil_seats
    from spades.search.dd import Solver
    from spades.search.playout import playout_batch, playout_cards
    from spades.search.score import ScoreSolver, payoff_table

    hands = [1 << 13 | 1, 1 << 14 | 2, 1 << 15 | 4, 1 << 16 | 8]
    playout_batch(np.array([hands]), 0, policy="random")
    playout_batch(np.array([hands]), 0, policy="greedy")
    playout_cards(hands, 0)
    Solver(10).solve(hands, 0, (), False)
    table = payoff_table(Rules(), [SeatBid(1)] * 4)
    ScoreSolver(10).solve(hands, 0, table, (), False, (3, 3, 3, 2))
    _nil_seats(table)  # the analysis's ordering of hands by live Nils


def dispatchers() -> Iterator[tuple[str, Any]]:
    """Every cached jitted function of the kernel modules, by ``module.name``; not those
    inlined into their callers (``njit_inline``), which numba never compiles on their own."""
    import importlib

    from numba.core.dispatcher import Dispatcher

    for name in KERNEL_MODULES:
        module = importlib.import_module(name)
        for attr, value in sorted(vars(module).items()):
            inlined = isinstance(value, Dispatcher) and value.targetoptions.get("inline", "never") != "never"
            if isinstance(value, Dispatcher) and value.__module__ == name and not inlined:
                yield f"{name.rsplit('.', 1)[1]}.{attr}", value


def cache_dir() -> Path | None:
    """The folder numba keeps the kernels' compiled code in (None: no disk cache)."""
    from spades.search._jit import cache_dir_of, popcount

    return cache_dir_of(popcount)


def compiled_here() -> dict[str, int]:
    """Kernels this process compiled rather than loaded from the cache, with how many
    signatures each (empty after a full warm-up: every use loads)."""
    return {
        name: sum(d.stats.cache_misses.values())
        for name, d in dispatchers()
        if sum(d.stats.cache_misses.values())
    }


def missing_index(folder: Path) -> list[str]:
    """Kernels with no index file in ``folder`` (numba's ``<module>.<name>-<line>.py*.nbi``)."""
    present = {p.name.split("-", 1)[0] for p in folder.glob("*.nbi")}
    return [name for name, _ in dispatchers() if name not in present]


def main(argv: Sequence[str] | None = None) -> int:
    """Warm the kernels and say where and how long; exit 1 if the cache is left incomplete."""
    parser = argparse.ArgumentParser(
        prog="spades warm", description="Compile the search kernels now (once per install)."
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    try:
        warm_up()
    except Exception as e:  # numba missing or broken: play still works with the other bots
        why = f"{type(e).__name__}: {e}"
        print(_("spades warm: cannot compile the search kernels: {why}").format(why=why), file=sys.stderr)
        return 1
    seconds = time.perf_counter() - t0
    folder = cache_dir()
    compiled = compiled_here()
    if folder is None:
        no_cache = _("spades warm: numba has no disk cache here; kernels compile in each process")
        print(no_cache, file=sys.stderr)
        return 1
    missing = missing_index(folder)
    if missing:
        kernels = ", ".join(missing)
        print(
            _("spades warm: no cache in {folder} for {kernels}").format(folder=folder, kernels=kernels),
            file=sys.stderr,
        )
        return 1
    if not args.quiet:
        line = (
            ngettext(
                "spades warm: compiled {n} kernel in {seconds} s (cache: {folder})",
                "spades warm: compiled {n} kernels in {seconds} s (cache: {folder})",
                len(compiled),
            )
            if compiled
            else _("spades warm: all kernels already compiled in {seconds} s (cache: {folder})")
        )
        print(line.format(n=len(compiled), seconds=f"{seconds:.1f}", folder=folder))
    return 0
