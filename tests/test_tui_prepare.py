"""Pilot tests: the terminal game builds its bots off the UI thread, with the table on screen.

Building an expert loads its compiled search (a second after ``spades warm``, minutes on an
install that skipped it). These hold the build on an event, as a slow build would, and check
that the screen is up saying so, that keys (help, quit) answer meanwhile, that no bot moves
before the bots are ready, and that play starts once they are.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from spades import record
from spades.bots import Bot, make_bot
from spades.tui.app import GameScreen, SpadesApp
from spades.tui.screens import HelpScreen
from spades.tui.session import Session
from test_tui import SIZE, config, game_of, gs, screen_text, until


class SlowBuild:
    """A bot factory that waits for ``release`` (bounded, so a regression fails, not hangs)
    and notes the thread it ran on and the bots it built."""

    def __init__(self, seats: list[int]) -> None:
        self.seats = seats
        self.release = threading.Event()
        self.threads: list[bool] = []
        self.built: list[Bot] = []
        self.closed: list[Bot] = []

    def _closer(self, bot: Bot) -> Callable[[], None]:
        return lambda: self.closed.append(bot)

    def __call__(self) -> dict[int, Bot]:
        self.threads.append(threading.current_thread() is threading.main_thread())
        self.release.wait(10)
        bots: dict[int, Bot] = {}
        for s in self.seats:
            bot = make_bot("heuristic", seed=s)
            bot.close = self._closer(bot)  # type: ignore[method-assign]
            bots[s] = bot
        self.built.extend(bots.values())
        return bots


def _bot_first(tmp_path: Path) -> tuple[Session, SlowBuild]:
    """A session whose first decision is a bot's (so a bot that moved early would show)."""
    for seed in range(1, 40):
        cfg = config(tmp_path, seed=seed)
        build = SlowBuild(sorted(cfg.bots))
        session = Session(cfg, later=True, make_bots=build)
        if session.observation().to_move not in (None, cfg.human):
            return session, build
    raise AssertionError("no seed with a bot to move first")


async def test_bots_are_prepared_off_the_ui_thread_while_keys_answer(tmp_path: Path) -> None:
    session, build = _bot_first(tmp_path)
    first = session.observation().to_move
    app = SpadesApp(session.config, session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(build.threads))
        assert build.threads == [False]  # built in a thread of its own, not on the UI's
        await until(pilot, lambda: gs(app).view is not None)
        assert gs(app).preparing and not session.ready
        assert "Preparing the computer players" in screen_text(app)
        await pilot.press("f1")  # help opens while the bots are still being built
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        obs = session.observation()
        assert obs.to_move == first and all(b is None for b in obs.bids)  # no bot moved yet
        build.release.set()
        await until(pilot, lambda: any(b is not None for b in session.observation().bids), limit=2000)
        assert session.ready and not gs(app).preparing
        assert "Preparing the computer players" not in screen_text(app)
        assert session.observation().bids[first] is not None  # the bot on turn played first


async def test_quit_while_preparing_ends_at_once_and_closes_the_late_bots(tmp_path: Path) -> None:
    session, build = _bot_first(tmp_path)
    app = SpadesApp(session.config, session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(build.threads))
        await pilot.press("ctrl+c")
    assert not session.ready  # the app ended while the bots were still being built
    build.release.set()
    for _ in range(500):
        if len(build.closed) == len(build.seats):
            break
        threading.Event().wait(0.01)
    assert sorted(map(id, build.closed)) == sorted(map(id, build.built))  # none left running
    assert record.load(tmp_path / "game.json").game.hand_number == game_of(app).hand_number
