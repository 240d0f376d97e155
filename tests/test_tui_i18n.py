"""Pilot tests of the terminal game in Italian and Slovenian: the first bid, as a player sees it."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console

from spades.actions import Bid
from spades.i18n import set_language
from spades.tui.app import GameScreen, SpadesApp
from spades.tui.config import make_config
from spades.tui.screens import HelpScreen

SIZE = (80, 24)


@pytest.fixture
def speak() -> Iterator[Callable[[str], None]]:
    yield set_language
    set_language("en")


def screen_text(app: SpadesApp) -> str:
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, force_terminal=True)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


async def until(pilot: object, cond: Callable[[], bool], limit: int = 300) -> None:
    for _i in range(limit):
        if cond():
            return
        await pilot.pause()  # type: ignore[attr-defined]
    raise AssertionError("the app never reached the expected state")


def ready(app: SpadesApp) -> Callable[[], bool]:
    """The human is to bid, with his cards seen (the bots before him have bid)."""
    return lambda: (
        app.game_screen.view is not None
        and app.game_screen.view.mode == "bid"
        and app.session.observation().hand is not None
    )


FIRST_BID = {
    # language: words of the table and the bid prompt, and English that must be gone
    "it": (
        ("Dichiarazioni", "La tua dichiarazione", "Invio per dichiarare", "Mano 1", "mazziere"),
        "Your bid",
    ),
    "sl": (("Licitacija", "Tvoja napoved", "Enter za napoved", "Deljenje 1", "delivec"), "Your bid"),
    "fr": (("Annonces", "Votre annonce", "Entrée pour annoncer", "Donne 1", "donneur"), "Your bid"),
}


FOOTER = {"it": "Suggerimento", "sl": "Namig"}
HELP_WORDS = {"it": "questo aiuto", "sl": "ta pomoč"}


@pytest.mark.parametrize("lang", ["it", "sl"])
async def test_the_first_bid_in_another_language(
    tmp_path: Path, lang: str, speak: Callable[[str], None]
) -> None:
    speak(lang)
    words, english = FIRST_BID[lang]
    app = SpadesApp(make_config(seed=5, delay_ms=0, record=tmp_path / "game.json"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.game_screen.view is not None)
        await pilot.pause()
        if app.game_screen.view is not None and app.game_screen.view.can_look:
            await pilot.press("l")
        await until(pilot, ready(app))
        await until(pilot, lambda: app.session.observation().my_turn)
        await pilot.pause()
        text = screen_text(app)
        missing = [w for w in words if w not in text]
        assert not missing, f"{lang}: {missing} not on screen:\n{text}"
        assert english not in text
        assert FOOTER[lang] in text  # the app was imported in English: its footer speaks anyway
        assert all(len(line) <= 80 for line in text.splitlines())
        await pilot.press("4", "enter")
        await until(pilot, lambda: app.session.observation().bids[app.session.human] is not None)
        assert app.session.observation().bids[app.session.human] == Bid(4)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        help_text = screen_text(app)
        assert HELP_WORDS[lang] in help_text and "this help" not in help_text
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
