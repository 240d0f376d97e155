"""The warm step (``spades warm``): it leaves every kernel in numba's cache, every use after it
only loads, an edited kernel source recompiles instead of running or crashing on old code, and
the install script runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("numba")


def run_py(code: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    res = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env={**os.environ, **(env or {})},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr
    return res.stdout


@pytest.fixture(scope="module")
def warmed() -> Path:
    """Run the warm step on the installed cache (about a second when it is already full)."""
    res = subprocess.run(
        [sys.executable, "-m", "spades", "warm"], capture_output=True, text=True, timeout=600
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("spades warm: ")
    folder = Path(res.stdout.rsplit("(cache: ", 1)[1].rstrip().rstrip(")"))
    assert folder.is_dir()
    return folder


def test_warm_leaves_an_index_file_for_every_kernel(warmed: Path) -> None:
    names = json.loads(
        run_py("""
            import json
            from spades.search.warm import dispatchers
            print(json.dumps([n for n, _ in dispatchers()]))
        """)
    )
    assert len(names) > 30  # the listing found the kernels (the solvers, the playouts, helpers)
    assert {"_dd_kernel._solve", "_score_kernel._score_solve", "playout._batch"} <= set(names)
    present = {p.name.split("-", 1)[0] for p in warmed.glob("*.nbi")}
    assert [n for n in names if n not in present] == []
    assert (warmed / "spades-kernels.stamp").is_file()
    if "NUMBA_CACHE_DIR" not in os.environ:  # beside the sources the package runs from
        import spades.search

        assert warmed == Path(spades.search.__file__).resolve().parent / "__pycache__"


def test_missing_index_names_the_kernels_without_a_cache_entry(tmp_path: Path) -> None:
    from spades.search.warm import dispatchers, missing_index

    names = [n for n, _ in dispatchers()]
    assert missing_index(tmp_path) == names
    for n in names[1:]:
        (tmp_path / f"{n}-12.py311.nbi").touch()
    assert missing_index(tmp_path) == names[:1]


def test_after_warm_the_expert_hints_solve_and_analyse_compile_nothing(warmed: Path) -> None:
    """A fresh process doing what play does (an expert's bid, an early card, an exact endgame),
    what ``spades solve`` and ``spades analyse`` do, loads every kernel: none compiles."""
    out = run_py("""
        import json
        from spades.bots import make_bot
        from spades.driver import apply_decision
        from spades.rules import PRESETS
        from spades.search.analysis import analyse_game
        from spades.search.dd import Solver
        from spades.search.warm import compiled_here
        from spades.state import Game, Phase

        g = Game(PRESETS["standard"], seed=3)
        if g.phase is Phase.DEAL:
            g.deal()
        expert = make_bot("expert:samples=4,bid_samples=4,time_ms=0", seed=1)
        others = [make_bot("heuristic", seed=s) for s in range(4)]
        asked = set()
        while not g.scores:
            seat = g.to_move
            obs, legal = g.observation(seat), g.legal_actions(seat)
            key = "bid" if g.phase is not Phase.PLAY else ("end" if len(obs.hand) <= 4 else "card")
            bot = others[seat]
            if key not in asked and (key != "card" or len(obs.hand) == 12):
                asked.add(key)
                bot = expert
            apply_decision(g, seat, bot.decide(obs, legal).action)
        analyse_game(g)
        Solver().solve([1 << 13 | 1, 1 << 14 | 2, 1 << 15 | 4, 1 << 16 | 8], 0, values=False)
        print(json.dumps({"asked": sorted(asked), "compiled": compiled_here()}))
    """)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["asked"] == ["bid", "card", "end"]
    assert result["compiled"] == {}


STALE_KERNELS = {
    "_jit.py": """
        import numba
        def njit(fn):
            return numba.njit(cache=True)(fn)
        @njit
        def helper(x):
            return x + HELPER_ADD
    """,
    "_kernel_common.py": """
        from _jit import njit, helper
        @njit
        def kernel(x):
            return helper(x) * 10
    """,
}


def _write_kernels(folder: Path, add: int) -> None:
    for name, text in STALE_KERNELS.items():
        (folder / name).write_text(textwrap.dedent(text).replace("HELPER_ADD", str(add)))


RUN_STALE = """
    import sys
    from pathlib import Path
    sys.path.insert(0, ".")
    from spades.search._jit import KERNEL_FILES, cache_dir_of, drop_stale_cache, kernels_stamp
    import _jit
    where = cache_dir_of(_jit.helper)
    dropped = drop_stale_cache(where, kernels_stamp(Path(".")), [n[:-3] for n in KERNEL_FILES])
    import _kernel_common
    print(_kernel_common.kernel(1), dropped, sum(_kernel_common.kernel.stats.cache_hits.values()))
"""


def test_an_edited_helper_recompiles_its_callers_rather_than_running_old_code(tmp_path: Path) -> None:
    """numba's own cache checks only a kernel's own file; the kernels stamp drops the lot when
    a helper they inline changes (here ``kernel`` in one file calls ``helper`` in another)."""
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONDONTWRITEBYTECODE": "1"}
    _write_kernels(tmp_path, 1)
    assert run_py(RUN_STALE, env, tmp_path).split() == ["20", "False", "0"]  # compiled
    assert run_py(RUN_STALE, env, tmp_path).split() == ["20", "False", "1"]  # loaded
    _write_kernels(tmp_path, 2)
    # _kernel_common.py is untouched: numba alone would load ``kernel`` with the old helper (20).
    assert run_py(RUN_STALE, env, tmp_path).split() == ["30", "True", "0"]  # recompiled
    assert run_py(RUN_STALE, env, tmp_path).split() == ["30", "False", "1"]


def test_an_edited_kernel_file_recompiles_without_error(tmp_path: Path) -> None:
    """numba's own check: the kernel's file changed (a line moved, a body changed)."""
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONDONTWRITEBYTECODE": "1"}
    _write_kernels(tmp_path, 1)
    run_py(RUN_STALE, env, tmp_path)
    text = (tmp_path / "_kernel_common.py").read_text()
    (tmp_path / "_kernel_common.py").write_text("\n\n" + text.replace("* 10", "* 100"))
    assert run_py(RUN_STALE, env, tmp_path).split()[0] == "200"


def test_the_install_script_runs_the_warm_step_and_run_uses_it() -> None:
    ensure = (ROOT / "scripts" / "ensure-venv").read_text()
    body = ensure.split("ensure_venv() {", 1)[1].split("\n}\n", 1)[0]
    assert 'ensure_warm "$why"' in body  # after the install, every time ensure_venv runs
    assert "-m spades warm" in ensure.split("ensure_warm() {", 1)[1]
    run = (ROOT / "scripts" / "run").read_text()
    assert run.index("ensure_venv") < run.index("spades serve")
