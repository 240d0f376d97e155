"""How soon the terminal game answers: the table on screen, then the first expert decision.

    python bench/tui_start.py                 # expert bots, a fresh process per run (3 runs)
    python bench/tui_start.py --runs 5 --bots heuristic

Each run is a fresh ``python`` process (imports included) that opens ``spades play``'s app
headless (Textual's ``run_test``) with three ``expert`` bots, no move delay, on a seed where a
bot moves first, and times from the process start: the table drawn (its first view), then
the first bot decision applied. The bots are built in a thread once the table is up
(``Session(later=True)``), so the first figure does not wait for them. Target: first decision
within 5 s of the table starting, on a warm install (after ``spades warm``). For the cold
figures (kernels compiled at play time) see ``bench/cold_start.py``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START = time.perf_counter()


def _drawn(app: object) -> bool:
    try:
        return app.game_screen.view is not None  # type: ignore[attr-defined]
    except LookupError:  # the table screen is not pushed yet
        return False


async def _child(bots: str, record: str) -> dict[str, float]:
    from spades.tui.app import SpadesApp
    from spades.tui.config import make_config
    from spades.tui.session import Session

    for seed in range(1, 50):
        cfg = make_config(seed=seed, delay_ms=0, record=Path(record), bots=bots)
        session = Session(cfg, later=True)
        if session.observation().to_move not in (None, cfg.human):
            break
    out: dict[str, float] = {}
    t0 = time.perf_counter()
    out["app_start_s"] = t0 - START
    app = SpadesApp(cfg, session)
    async with app.run_test(size=(80, 24)) as pilot:
        while not _drawn(app):
            await pilot.pause(0.01)
        out["table_s"] = time.perf_counter() - t0
        while not any(b is not None for b in session.observation().bids):
            await pilot.pause(0.01)
        out["first_decision_s"] = time.perf_counter() - t0
        await pilot.press("ctrl+c")
    return out


def child(bots: str) -> None:
    import asyncio

    with tempfile.TemporaryDirectory() as tmp:
        out = asyncio.run(_child(bots, str(Path(tmp) / "game.json")))
    print(json.dumps(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--bots", default="expert")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(a.bots)
        return
    rows = []
    for _ in range(a.runs):
        res = subprocess.run(
            [sys.executable, __file__, "--child", "--bots", a.bots],
            capture_output=True,
            text=True,
            check=True,
        )
        rows.append(json.loads(res.stdout.strip().splitlines()[-1]))
    for key, label in (
        ("app_start_s", "imports done, app starting (from process start)"),
        ("table_s", "table on screen (from app start)"),
        ("first_decision_s", "first bot decision (from app start)"),
    ):
        vals = [r[key] for r in rows]
        print(
            f"{label:52} median {statistics.median(vals):6.2f} s  max {max(vals):6.2f} s  ({len(vals)} runs)"
        )
    print("target: first decision within 5 s of the table starting (warm install)")


if __name__ == "__main__":
    main()
