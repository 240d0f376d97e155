"""Pilot tests of ``spades play``: a person's whole path through the terminal game.

Each test drives the real app headless at 80x24 with bots that move at once (``delay_ms=0``)
and checks the game behind it, which the tests (and only the tests) may read.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from rich.console import Console

from spades import record
from spades.actions import Action, Bid, PassCard, PassCards
from spades.bots import Bot, Decision, make_bot
from spades.cards import card_text
from spades.legal import deck_of
from spades.observation import Observation
from spades.rules import PRESETS
from spades.state import Game
from spades.tui.app import GameScreen, SpadesApp
from spades.tui.config import PlayConfig, make_config
from spades.tui.screens import HelpScreen, LastTrickScreen, QuitScreen, ResultScreen, ScoreScreen
from spades.tui.session import Session, resume
from spades.tui.view import POSITIONS, card_label, describe_action
from spades.tui.widgets import ChoiceBar, HandView

SIZE = (80, 24)


class BlindNilBot(Bot):
    """Bids Blind Nil whenever it may; otherwise plays like the heuristic."""

    name = "blind"

    def __init__(self) -> None:
        self.inner = make_bot("heuristic", seed=1)

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        blind = [a for a in legal if isinstance(a, Bid) and a.blind]
        if blind:
            return Decision(blind[0], "blind")
        return self.inner.decide(obs, legal)


def game_of(app: SpadesApp) -> Game:
    """The hidden game, for the tests' own checks (the app never reads it)."""
    game: Game = app.session._Session__game  # type: ignore[attr-defined]
    return game


def screen_text(app: SpadesApp) -> str:
    """Everything on the terminal now, pop-ups included, as plain text."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, force_terminal=True)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def config(tmp_path: Path, **kw: object) -> PlayConfig:
    opts: dict[str, object] = {"seed": 5, "delay_ms": 0, "record": tmp_path / "game.json"}
    opts.update(kw)
    return make_config(**opts)  # type: ignore[arg-type]


def gs(app: SpadesApp) -> GameScreen:
    return app.game_screen


async def until(pilot: object, cond: Callable[[], bool], limit: int = 300) -> None:
    for _ in range(limit):
        if cond():
            return
        await pilot.pause()  # type: ignore[attr-defined]
    raise AssertionError("the app never reached the expected state")


def idle(app: SpadesApp) -> Callable[[], bool]:
    """The bots are done: the human is to decide, or a pop-up waits."""
    return lambda: (
        gs(app).view is not None and (not gs(app).driving or not isinstance(app.screen, GameScreen))
    )


async def settle(pilot: object, app: SpadesApp) -> None:
    await until(pilot, idle(app))
    await pilot.pause()  # type: ignore[attr-defined]


def hidden_labels(app: SpadesApp) -> set[str]:
    """Labels of cards the human may not know: other seats' hands, and his own before he looks."""
    game = game_of(app)
    me = app.session.human
    obs = app.session.observation()
    known = obs.given.mask if obs.given is not None else 0
    out = set()
    for seat in range(game.n):
        if seat == me and obs.hand is not None:
            continue
        for card in game.hand_of(seat):
            if not known >> card & 1:
                out.add(card_label(card))
    return out


def assert_nothing_hidden_shown(app: SpadesApp, text: str | None = None) -> None:
    """``text``: the screen, if the caller has just read it (reading it takes a while)."""
    text = screen_text(app) if text is None else text
    leaked = {label for label in hidden_labels(app) if label in text}
    assert not leaked, f"hidden cards on screen: {sorted(leaked)}\n{text}"


async def auto_step(pilot: object, app: SpadesApp) -> None:
    """One plain decision for the human: look, bid the cursor, play the cursor, pass, keep."""
    press = pilot.press  # type: ignore[attr-defined]
    if isinstance(app.screen, ScoreScreen):
        await press("enter")
        return
    view = gs(app).view
    assert view is not None
    if view.can_look:
        await press("l")
    elif view.mode in ("bid", "play", "draw"):
        await press("enter")
    elif view.mode == "pass":
        for _ in range(view.pass_count):
            await press("space", "right")
        await press("enter")
    await pilot.pause()  # type: ignore[attr-defined]


async def play_until(pilot: object, app: SpadesApp, cond: Callable[[], bool], limit: int = 400) -> None:
    for _ in range(limit):
        await settle(pilot, app)
        if cond():
            return
        await auto_step(pilot, app)
    raise AssertionError("the game never reached the expected state")


# ---------------------------------------------------------------------- tests
async def test_look_then_bid_with_the_cards_face_down_until_then(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        obs = app.session.observation()
        assert obs.hand is None and obs.phase == "bid"
        assert gs(app).query_one(HandView).face_down == 13
        own = {card_label(c) for c in game_of(app).hand_of(app.session.human)}
        text = screen_text(app)
        assert not any(label in text for label in own), "cards shown before looking"
        assert "Look" in text
        assert_nothing_hidden_shown(app)
        await pilot.press("L")  # upper case works too
        await settle(pilot, app)
        text = screen_text(app)
        assert all(label in text for label in own)
        await until(pilot, lambda: app.session.observation().my_turn)
        await pilot.press("4")
        assert gs(app).choice == "bid:4"
        await pilot.press("1", "1")
        assert gs(app).choice == "bid:11"
        await pilot.press("n")
        assert gs(app).choice == "bid:0"
        await pilot.press("5", "enter")
        await settle(pilot, app)
        assert app.session.observation().bids[app.session.human] == Bid(5)
        assert_nothing_hidden_shown(app)


async def test_the_minimum_bid_is_respected(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, rules="bicycle"))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "bid")  # type: ignore[union-attr]
        view = gs(app).view
        assert view is not None
        values = [c.value for c in view.choices]
        assert "bid:0" not in values and values[0] == "bid:1" and values[-1] == "bid:13"
        await pilot.press("n")
        assert "not allowed" in screen_text(app)


async def test_blind_nil_offered_before_cards_then_exchange_as_bidder(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, seed=11))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.session.observation().my_turn)
        await settle(pilot, app)
        view = gs(app).view
        assert view is not None and view.can_blind and view.face_down == 13
        text = screen_text(app)
        assert "Blind Nil" in text
        assert_nothing_hidden_shown(app)
        await pilot.press("b")
        await play_until(pilot, app, lambda: gs(app).view.mode == "pass")  # type: ignore[union-attr]
        obs = app.session.observation()
        assert obs.bids[app.session.human] == Bid(0, blind=True)
        assert obs.received is not None and len(obs.received) == 3
        assert obs.hand is not None and len(obs.hand) == 16
        assert_nothing_hidden_shown(app)
        hand = gs(app).query_one(HandView)
        assert max(c.x + c.width for c in hand.cells()) <= SIZE[0]
        chosen = list(obs.hand)[-3:]
        for card in chosen:  # by card keys: rank then suit
            rank = card_label(card)[:-1]
            await pilot.press("t" if rank == "10" else rank.lower(), "shdc"[card // 13])
        assert gs(app).picked == set(chosen)
        await pilot.press("enter")
        await settle(pilot, app)
        obs = app.session.observation()
        assert obs.given is not None and set(obs.given) == set(chosen)
        assert obs.phase == "play" and obs.hand is not None and len(obs.hand) == 13
        assert_nothing_hidden_shown(app)


async def test_exchange_as_the_partner_of_a_blind_nil_bidder_by_mouse(tmp_path: Path) -> None:
    cfg = config(tmp_path, seed=2)
    bots = {s: make_bot("heuristic", seed=s) for s in cfg.bots}
    bots[0] = BlindNilBot()  # North, the human's partner
    app = SpadesApp(cfg, Session(cfg, bots))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "pass")  # type: ignore[union-attr]
        obs = app.session.observation()
        assert obs.bids[0] == Bid(0, blind=True) and obs.given is None
        assert "pass to North" in screen_text(app)
        hand = gs(app).query_one(HandView)
        chosen = [c.card for c in hand.cards[:3]]
        for card in chosen:
            await pilot.click(HandView, offset=(hand.card_x(card), 1))
        await pilot.press("enter")
        await settle(pilot, app)
        obs = app.session.observation()
        assert obs.given is not None and set(obs.given) == set(chosen)
        assert obs.received is not None and len(obs.received) == 3
        assert_nothing_hidden_shown(app)  # the cards he passed are his to know, nothing else


async def test_play_by_key_and_by_click_and_refuse_an_illegal_card(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, seed=8))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "play")  # type: ignore[union-attr]
        obs = app.session.observation()
        card = gs(app).view.legal_cards[-1]  # type: ignore[union-attr]
        rank = card_label(card)[:-1]
        await pilot.press("0" if rank == "10" else rank.lower(), "shdc"[card // 13])
        assert card in app.session.observation().hand  # type: ignore[operator]
        assert gs(app).cursor == card and "Enter to play it" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert card in app.session.observation().played_cards() or app.session.last_trick is not None
        assert app.session.observation().hand is not None
        assert card not in app.session.observation().hand  # type: ignore[operator]

        await play_until(pilot, app, lambda: gs(app).view.mode == "play")  # type: ignore[union-attr]
        hand = gs(app).query_one(HandView)
        card = gs(app).view.legal_cards[0]  # type: ignore[union-attr]
        before = len(app.session.observation().hand)  # type: ignore[arg-type]
        await pilot.click(HandView, offset=(hand.card_x(card), 1))
        await settle(pilot, app)
        assert card not in app.session.observation().hand  # type: ignore[operator]
        assert len(app.session.observation().hand) == before - 1  # type: ignore[arg-type]

        def illegal_exists() -> bool:
            view = gs(app).view
            return view is not None and view.mode == "play" and any(not c.legal for c in view.hand)

        await play_until(pilot, app, illegal_exists)
        view = gs(app).view
        assert view is not None
        bad = next(c.card for c in view.hand if not c.legal)
        obs = app.session.observation()
        await pilot.click(HandView, offset=(gs(app).query_one(HandView).card_x(bad), 1))
        await pilot.pause()
        after = app.session.observation()
        assert after.hand == obs.hand and after.trick == obs.trick and after.my_turn
        text = screen_text(app)
        assert "must follow suit" in text or "not broken" in text
        rank = card_label(bad)[:-1]
        await pilot.press("t" if rank == "10" else rank.lower(), "shdc"[bad // 13])
        assert app.session.observation().hand == obs.hand


async def test_last_trick_key_and_score_sheet_after_a_hand(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, seed=4))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: app.session.last_trick is not None)
        await until(pilot, idle(app))
        trick = game_of(app).tricks[-1] if game_of(app).tricks else None
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, LastTrickScreen))
        text = screen_text(app)
        shown = app.session.last_trick
        assert shown is not None
        if trick is not None:
            assert tuple(c for _, c in shown.plays) == trick.cards and shown.winner == trick.winner
        assert all(card_label(c) in text for _, c in shown.plays)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await play_until(pilot, app, lambda: isinstance(app.screen, ScoreScreen))
        game = game_of(app)
        assert len(game.scores) == 1
        text = screen_text(app)
        assert "After hand 1" in text
        for total in game.scores[0].totals:
            assert str(total) in text
        assert_nothing_hidden_shown(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert game.hand_number == 2


async def test_hint_shows_a_bot_choice_with_its_reason(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, seed=6))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "play")  # type: ignore[union-attr]
        await pilot.press("h")
        # The hint bot thinks in a thread; the expert may first compile its kernels, which on a
        # busy machine takes minutes: wait for the answer (bounded, so a hang still fails).
        for _ in range(6000):
            if gs(app).hint_shown is not None or not gs(app).hinting:
                break
            await pilot.pause(0.05)
        assert "Hint (" in screen_text(app)
        legal = gs(app).view.legal_cards  # type: ignore[union-attr]
        assert gs(app).cursor in legal
        shown = gs(app).hint_shown
        assert shown is not None and shown.action in app.session.legal()
        assert describe_action(shown.action) in screen_text(app)


async def test_a_short_game_to_its_result_and_a_loadable_record(tmp_path: Path) -> None:
    cfg = config(tmp_path, seed=9, rules='{"preset": "hoyle", "target": 100, "lose_at": -100}')
    app = SpadesApp(cfg)
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: isinstance(app.screen, ResultScreen), limit=2000)
        game = game_of(app)
        assert game.is_over
        text = screen_text(app)
        assert "Game over" in text
        assert (tmp_path / "game.json").exists()
        await pilot.press("enter")
    loaded = record.load(tmp_path / "game.json").game
    assert loaded.totals == game.totals and loaded.winner == game.winner


@pytest.mark.parametrize("keys", [("ctrl+q", "enter"), ("ctrl+q", "ctrl+q"), ("ctrl+c",)])
async def test_quitting_saves_a_loadable_record(tmp_path: Path, keys: tuple[str, ...]) -> None:
    app = SpadesApp(config(tmp_path, seed=12))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: len(app.session.observation().tricks) >= 2)
        plays = list(game_of(app).logs[-1].plays)
        await pilot.press(*keys)
    path = tmp_path / "game.json"
    rep = record.load(path)
    assert rep.game.logs[-1].plays == plays
    assert rep.players[app.session.human] == "You"


async def test_any_seat_sits_at_the_bottom(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, seat="east", seed=14))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        view = gs(app).view
        assert view is not None and app.session.human == 1
        assert [view.seat_at(p).seat for p in ("bottom", "left", "top", "right")] == [1, 2, 3, 0]  # type: ignore[union-attr]
        assert "East (you)" in screen_text(app)
        await play_until(pilot, app, lambda: gs(app).view.mode == "play")  # type: ignore[union-attr]
        assert_nothing_hidden_shown(app)


async def test_bots_think_in_threads_when_there_is_a_delay(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, seed=13, delay_ms=1))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: len(app.session.observation().tricks) >= 1)
        assert app.session.last_trick is not None
        assert_nothing_hidden_shown(app)


async def test_two_player_draw_keep_and_discard(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, rules="two_player", seed=3))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "draw")  # type: ignore[union-attr]
        assert app.session.human == 0
        obs = app.session.observation()
        top = obs.stock_top
        assert top is not None and card_label(top) in screen_text(app)
        assert_nothing_hidden_shown(app)
        await pilot.press("k")
        await play_until(pilot, app, lambda: gs(app).view.mode == "draw")  # type: ignore[union-attr]
        assert top in app.session.observation().hand  # type: ignore[operator]
        top = app.session.observation().stock_top
        await pilot.click(ChoiceBar, offset=(gs(app).query_one(ChoiceBar).choice_x("discard"), 0))
        await play_until(pilot, app, lambda: gs(app).view.mode == "draw")  # type: ignore[union-attr]
        obs = app.session.observation()
        assert top not in obs.hand and top in obs.discarded  # type: ignore[operator]
        await play_until(pilot, app, lambda: app.session.observation().phase == "play")
        assert len(app.session.observation().hand) == 13  # type: ignore[arg-type]
        assert_nothing_hidden_shown(app)


async def test_the_screen_never_shows_hidden_cards_through_a_hand(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, seed=21))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(60):
            await settle(pilot, app)
            assert_nothing_hidden_shown(app)
            if game_of(app).scores:
                break
            await auto_step(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        assert_nothing_hidden_shown(app)


# ---------------------------------------------------------------------- issue 13, terminal items
async def test_a_slow_hint_bot_is_built_off_the_ui_thread_and_keys_still_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first hint may compile the expert for minutes: the screen must answer meanwhile."""
    release = threading.Event()
    on_ui_thread: list[bool] = []

    def slow_hint_bot(seed: int) -> tuple[Bot, str]:
        on_ui_thread.append(threading.current_thread() is threading.main_thread())
        release.wait(5)  # a bot still compiling (bounded, so the old code fails instead of hanging)
        return make_bot("heuristic", seed=seed), "slow"

    monkeypatch.setattr("spades.tui.session.hint_bot", slow_hint_bot)
    app = SpadesApp(config(tmp_path, seed=6))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "play")  # type: ignore[union-attr]
        await pilot.press("h")
        await until(pilot, lambda: bool(on_ui_thread))
        assert on_ui_thread == [False]
        assert "thinking" in screen_text(app)
        await pilot.press("f1")  # help opens while the bot is still being built
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert not release.is_set() and gs(app).hint_shown is None
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("h")  # asked again while pending: a polite refusal, no second bot
        assert "Still thinking" in screen_text(app)
        release.set()
        for _ in range(400):
            if gs(app).hint_shown is not None:
                break
            await pilot.pause(0.02)
        assert on_ui_thread == [False]
        assert "Hint (slow)" in screen_text(app)
        shown = gs(app).hint_shown
        assert shown is not None and shown.action in app.session.legal()


async def test_quit_while_a_hint_is_pending_saves_and_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    finished = threading.Event()

    def stuck_hint_bot(seed: int) -> tuple[Bot, str]:
        release.wait(5)
        finished.set()
        return make_bot("heuristic", seed=seed), "stuck"

    monkeypatch.setattr("spades.tui.session.hint_bot", stuck_hint_bot)
    app = SpadesApp(config(tmp_path, seed=6))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "play")  # type: ignore[union-attr]
        await pilot.press("h")
        await pilot.press("ctrl+c")
    ended_early = not finished.is_set()  # the app ended while the hint bot was still building
    release.set()
    assert ended_early
    assert record.load(tmp_path / "game.json").game.hand_number == 1


async def test_keys_right_after_the_last_card_do_nothing_to_the_next_hand(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, seed=4))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: len(app.session.observation().tricks) >= 12)
        gs(app).delay = 0.3  # the pause that shows the last trick before the sheet, as in play
        for _ in range(2000):
            if game_of(app).scores:
                break
            view = gs(app).view
            if view is not None and view.mode == "play" and app.session.observation().my_turn:
                await pilot.press("enter")
            await pilot.pause(0.01)
        assert len(game_of(app).scores) == 1
        assert isinstance(app.screen, GameScreen)  # the sheet is not up yet
        me = app.session.human
        await pilot.press("enter", "l", "b", "5", "right")
        obs = app.session.observation()
        assert obs.hand_number == 2 and obs.hand is None and not obs.looked
        assert obs.bids[me] is None
        assert "score sheet follows" in screen_text(app)
        await until(pilot, lambda: isinstance(app.screen, ScoreScreen))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        obs = app.session.observation()
        assert obs.hand is None and not obs.looked and obs.bids[me] is None
        await pilot.press("l")  # and now the keys are the next hand's
        await settle(pilot, app)
        assert app.session.observation().looked


async def test_ctrl_q_asks_first_and_escape_keeps_playing(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, seed=12))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "play")  # type: ignore[union-attr]
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen))
        text = screen_text(app)
        assert "Save the game and quit?" in text and "cancel" in text
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.is_running and not (tmp_path / "game.json").exists()
        before = len(app.session.observation().hand)  # type: ignore[arg-type]
        await pilot.press("enter")  # still playing: the card goes down
        await settle(pilot, app)
        assert len(app.session.observation().hand) == before - 1  # type: ignore[arg-type]


async def test_save_mid_hand_then_resume_at_the_same_point(tmp_path: Path) -> None:
    cfg = config(tmp_path, seed=12, seat="west", bots="heuristic,random,heuristic")
    app = SpadesApp(cfg)
    async with app.run_test(size=SIZE) as pilot:
        await play_until(
            pilot, app, lambda: game_of(app).hand_number == 2 and len(game_of(app).tricks) >= 3, limit=800
        )
        await until(pilot, idle(app))
        saved = app.session.observation()
        game = game_of(app)
        plays = list(game.logs[-1].plays)
        await pilot.press("ctrl+q", "enter")
    path = tmp_path / "game.json"
    cfg2, game2 = resume(path, delay_ms=0)
    assert cfg2.human == cfg.human == 3 and cfg2.bots == cfg.bots and cfg2.seed == 12
    assert cfg2.rules == cfg.rules and cfg2.record_path == path
    app2 = SpadesApp(cfg2, Session(cfg2, game=game2))
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot, app2)
        assert isinstance(app2.screen, GameScreen)  # no stale score sheet on the way in
        obs = app2.session.observation()
        assert obs.hand_number == saved.hand_number == 2
        assert obs.totals == saved.totals and obs.bags == saved.bags
        assert obs.hand == saved.hand and obs.bids == saved.bids and obs.trick == saved.trick
        assert len(obs.tricks) == len(saved.tricks) and obs.to_move == saved.to_move
        assert list(game_of(app2).logs[-1].plays) == plays
        assert game_of(app2).logs[0].dealt == game.logs[0].dealt
        await play_until(pilot, app2, lambda: len(app2.session.observation().tricks) > len(saved.tricks))
        await pilot.press("ctrl+c")
    again = record.load(path).game  # the resumed game saves where it came from, longer now
    assert again.hand_number >= 2 and len(again.logs[-1].plays) > len(plays)


async def test_bicycle_bids_never_offer_nil_and_a_valid_bid_clears_the_refusal(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, rules="bicycle"))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "bid")  # type: ignore[union-attr]
        assert "Nil" not in screen_text(app)
        await pilot.press("n")
        assert "That bid is not allowed." in screen_text(app)
        await pilot.press("4")
        assert gs(app).choice == "bid:4"
        assert "not allowed" not in screen_text(app)


@pytest.mark.parametrize(
    ("rules", "present", "absent"),
    [
        (None, ["Nil (bid 0, N): +100", "-100", "Blind Nil (B, before you look): +/-200", "failed Nil"], []),
        ("bicycle", ["bag"], ["Nil"]),
    ],
)
async def test_help_gives_nil_values_and_the_failed_nil_bag_rule(
    tmp_path: Path, rules: str | None, present: list[str], absent: list[str]
) -> None:
    app = SpadesApp(config(tmp_path, rules=rules))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = screen_text(app)
        for words in present:
            assert words in text
        scoring = text[text.index("been played") : text.index("←/→")]  # what bids are worth
        for words in absent:
            assert words not in scoring


class OneCardPasser(Bot):
    """Passes one card a step, as the expert does; its reasons name cards in codes."""

    name = "passer"

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        passes = sorted(a.card for a in legal if isinstance(a, PassCard))
        if passes:
            return Decision(
                PassCard(passes[0]), f"pass {card_text(passes[0])}: low cards, like {card_text(passes[0])}"
            )
        return Decision(legal[0], "the first")


async def test_the_hint_for_a_pass_names_every_card_and_picks_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("spades.tui.session.hint_bot", lambda seed: (OneCardPasser(), "passer"))
    cfg = config(tmp_path, seed=2)
    bots = {s: make_bot("heuristic", seed=s) for s in cfg.bots}
    bots[0] = BlindNilBot()  # North, the human's partner: the human passes him 3 cards
    app = SpadesApp(cfg, Session(cfg, bots))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "pass")  # type: ignore[union-attr]
        await pilot.press("h")
        await until(pilot, lambda: gs(app).hint_shown is not None)
        obs = app.session.observation()
        assert obs.hand is not None
        lowest = sorted(obs.hand)[:3]
        shown = gs(app).hint_shown
        assert shown is not None and isinstance(shown.action, PassCards)
        assert sorted(shown.action.cards) == lowest
        assert gs(app).picked == set(lowest)
        text = screen_text(app)
        line = text.split("Hint (passer): ")[1].split("\n")[0]
        assert line.startswith(describe_action(shown.action))
        assert all(card_label(c) in line for c in lowest)
        assert card_text(lowest[0]) not in line  # "3S" said once, as 3♠
        await pilot.press("enter")  # the hint's picks pass as they stand
        await settle(pilot, app)
        given = app.session.observation().given
        assert given is not None and sorted(given) == lowest


async def test_rank_then_h_chooses_a_heart_but_never_plays_it(tmp_path: Path) -> None:
    """H is a suit after a rank and the hint otherwise: typed as a hint after a stray rank key,
    it must not throw a card on the table."""
    app = SpadesApp(config(tmp_path, seed=8))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "play")  # type: ignore[union-attr]
        obs = app.session.observation()
        assert obs.hand is not None
        for rank in "akqjt98765432":
            await pilot.press(rank, "h")
            assert app.session.observation().hand == obs.hand and app.session.observation().my_turn
        assert gs(app).cursor in gs(app).view.legal_cards  # type: ignore[union-attr]


@pytest.mark.parametrize(("size", "cell"), [((80, 24), 4), ((160, 45), 7), ((200, 60), 7)])
async def test_the_hand_grows_on_a_wide_terminal(tmp_path: Path, size: tuple[int, int], cell: int) -> None:
    app = SpadesApp(config(tmp_path, seed=8))
    async with app.run_test(size=size) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "play")  # type: ignore[union-attr]
        hand = gs(app).query_one(HandView)
        cells = hand.cells()
        assert {c.width for c in cells} == {cell}
        assert max(c.x + c.width for c in cells) <= size[0]
        text = screen_text(app)
        assert all(card_label(c.card) in text for c in hand.cards)
        card = gs(app).view.legal_cards[0]  # type: ignore[union-attr]
        await pilot.click(HandView, offset=(hand.card_x(card) + cell - 2, 1))  # the card's right edge
        await settle(pilot, app)
        assert card not in app.session.observation().hand  # type: ignore[operator]


# ---------------------------------------------------------------------- issue 14: house rules
def seed_where(rules: str, want: Callable[[Game], bool]) -> int:
    """The first seed whose first deal suits the test (the app deals the same from it)."""
    from spades.rulestext import parse_rules_text

    r = parse_rules_text(rules)
    for seed in range(200):
        if want(Game(r, seed=seed)):
            return seed
    raise AssertionError("no seed deals what the test wants")


def hand_line(app: SpadesApp) -> str:
    """The player's cards as one screen row: the row of his cards, with the raised one (under
    the cursor, a row higher) put back in line."""
    hand = gs(app).query_one(HandView)
    rows = screen_text(app).splitlines()
    raised, flat = rows[hand.region.y], rows[hand.region.y + 1]
    return "".join(b if b != " " else a for a, b in zip(raised, flat, strict=False))


async def play_one_hand(pilot: object, app: SpadesApp, check: Callable[[], None], limit: int = 300) -> None:
    """Plays the human's part of a whole hand by the plain keys, with ``check`` at each of his
    decisions, until the score sheet opens."""
    for _ in range(limit):
        await settle(pilot, app)
        if isinstance(app.screen, ScoreScreen):
            return
        check()
        await auto_step(pilot, app)
    raise AssertionError("the hand never ended")


async def test_a_whole_hand_of_cutthroat3_on_a_three_seat_table(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, rules="cutthroat3", seed=3, bots="random"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert app.session.human == 0
        view = gs(app).view
        assert view is not None and view.face_down == 17 and len(gs(app).query_one(HandView).cells()) == 17
        await play_until(pilot, app, lambda: gs(app).view.mode == "bid" and bool(gs(app).view.hand))  # type: ignore[union-attr]
        await pilot.press("1", "5")  # two digits up to 17
        assert gs(app).choice == "bid:15"
        await pilot.press("1", "7")
        assert gs(app).choice == "bid:17"
        await pilot.press("4", "enter")
        await settle(pilot, app)
        assert app.session.observation().bids[0] == Bid(4)
        played = 0

        def check() -> None:
            nonlocal played
            view = gs(app).view
            assert view is not None
            assert [view.seat_at(p).name for p in ("bottom", "left", "right")] == ["North", "East", "West"]  # type: ignore[union-attr]
            assert view.seat_at("top") is None
            text = screen_text(app)
            assert "North (you)" in text and "East" in text and "West" in text
            assert_nothing_hidden_shown(app, text)
            if view.mode == "play":
                hand = gs(app).query_one(HandView)
                assert len(hand.cells()) == 17 - len(app.session.observation().tricks)
                assert max(c.x + c.width for c in hand.cells()) <= SIZE[0]
                assert all(c.label in text for c in view.hand)
                assert "of 17" in text or "won" in text
                played += 1

        await play_one_hand(pilot, app, check)
        assert played == 17
        text = screen_text(app)
        assert "After hand 1" in text and "You" in text and "East" in text and "West" in text
        assert sum(game_of(app).scores[0].tricks) == 17


async def test_a_whole_hand_with_jokers_and_their_keys(tmp_path: Path) -> None:
    from spades.cards import BIG_JOKER, LITTLE_JOKER

    rules = '{"preset": "jokers", "blind_nil": false}'  # no exchange takes the jokers away
    seed = seed_where(rules, lambda g: {BIG_JOKER, LITTLE_JOKER} <= set(g.hand_of(2)))
    app = SpadesApp(config(tmp_path, rules=rules, seed=seed, bots="random"))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "play")  # type: ignore[union-attr]
        view = gs(app).view
        assert view is not None
        assert [c.label for c in view.hand[:2]] == ["BJ", "LJ"]  # the top of the spade group
        line = hand_line(app)
        assert line.index("BJ") < line.index("LJ") < min(line.index(c.label) for c in view.hand[2:])
        for key, joker in (("b", BIG_JOKER), ("l", LITTLE_JOKER)):
            await pilot.press(key, "j")
            text = screen_text(app)
            if joker in view.legal_cards:
                assert gs(app).cursor == joker and f"{card_label(joker)}: Enter to play it" in text
            else:
                assert "is a spade" in text or "not broken" in text
        assert app.session.observation().hand == game_of(app).hand_of(2)  # typed, never played
        await pilot.press("escape", "q", "j")  # a queen then J: nothing, as before
        jokers_seen = 0

        def check() -> None:
            nonlocal jokers_seen
            text = screen_text(app)
            assert_nothing_hidden_shown(app, text)
            jokers_seen += sum(label in text for label in ("BJ", "LJ"))

        await play_one_hand(pilot, app, check)
        assert jokers_seen > 0 and sum(game_of(app).scores[0].tricks) == 13


async def test_a_whole_hand_of_jjdd_with_the_deuce_of_diamonds_a_spade(tmp_path: Path) -> None:
    from spades.cards import parse_card

    rules = '{"preset": "jokers", "jokers": "jjdd"}'
    two_d, two_s = parse_card("2D"), parse_card("2S")
    seed = seed_where(rules, lambda g: {two_d, two_s} <= set(g.hand_of(2)))
    app = SpadesApp(config(tmp_path, rules=rules, seed=seed, bots="random"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.session.observation().my_turn)
        await settle(pilot, app)
        assert gs(app).view.can_blind  # type: ignore[union-attr]
        await pilot.press("l")  # B would still bid Blind Nil here: jokers change no bidding key
        await settle(pilot, app)
        view = gs(app).view
        assert view is not None
        labels = [c.label for c in view.hand]
        spades = [c.label for c in view.hand if c.suit == 0]
        assert labels[: len(spades)] == spades and spades.index("2♦") == spades.index("2♠") - 1
        assert all(lab in ("BJ", "LJ") for lab in spades[: spades.index("2♦")])
        line = hand_line(app)
        assert line.index("2♦") < line.index("2♠") < line.index(spades[-1])

        def check() -> None:
            assert_nothing_hidden_shown(app)

        await play_one_hand(pilot, app, check)
        assert sum(game_of(app).scores[0].tricks) == 13


async def test_a_whole_hand_of_mirror_asks_for_no_bid(tmp_path: Path) -> None:
    app = SpadesApp(config(tmp_path, rules="mirror", seed=2, bots="random"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        modes = []

        def check() -> None:
            view = gs(app).view
            assert view is not None
            modes.append(view.mode)
            assert not any(c.value.startswith("bid:") for c in view.choices)
            text = screen_text(app)
            assert_nothing_hidden_shown(app, text)
            if view.mode == "play" and not app.session.observation().tricks:
                assert "Mirror: every bid is the spades held" in text

        await play_one_hand(pilot, app, check)
        assert "bid" not in modes and modes.count("play") == 13
        game = game_of(app)
        deck_spades = [(mask & 0x1FFF).bit_count() for mask in game.logs[0].dealt]
        assert [b.tricks for b in game.scores[0].bids] == deck_spades


@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_every_preset_reaches_its_first_card_at_80x24(tmp_path: Path, preset: str) -> None:
    """Each rule set, from the deal to the player's first card: the whole hand on screen within
    80 columns, the table of the right size, the trick count of the deck, nothing hidden."""
    rules = PRESETS[preset]
    size = deck_of(rules).hand_size
    app = SpadesApp(config(tmp_path, rules=preset, seed=7, bots="random"))
    async with app.run_test(size=SIZE) as pilot:
        await play_until(pilot, app, lambda: gs(app).view.mode == "play")  # type: ignore[union-attr]
        view = gs(app).view
        assert view is not None
        hand = gs(app).query_one(HandView)
        held = len(app.session.observation().hand or ())
        assert len(hand.cells()) == held and held >= size - 1
        assert max(c.x + c.width for c in hand.cells()) <= SIZE[0]
        text = screen_text(app)
        assert all(c.label in text for c in view.hand)
        assert f"of {size}" in text or "won trick" in text
        assert {s.position for s in view.seats} == set(POSITIONS[rules.players])
        assert all(len(line.rstrip()) <= SIZE[0] for line in text.splitlines())
        assert_nothing_hidden_shown(app, text)


async def test_with_jokers_b_still_bids_blind_nil_while_bidding(tmp_path: Path) -> None:
    """B starts a joker only while playing or passing cards; at the bid it is Blind Nil, as ever."""
    app = SpadesApp(config(tmp_path, rules="jokers", seed=11, bots="random"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.session.observation().my_turn)
        await settle(pilot, app)
        assert gs(app).view.can_blind and gs(app).view.jokers  # type: ignore[union-attr]
        await pilot.press("b")
        await settle(pilot, app)
        assert app.session.observation().bids[app.session.human] == Bid(0, blind=True)
        assert gs(app).joker_key is None
