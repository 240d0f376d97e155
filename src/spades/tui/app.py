"""``SpadesApp``: the terminal game. One person, computer players, one screen.

The game screen asks the ``Session`` for the human's observation after every action and
draws the ``TableView`` built from it. Bots move in an async worker that waits a short,
visible delay and runs each decision in a thread, so the screen stays responsive; the score
sheet after each hand and the result at the end are pop-up screens the worker waits on.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import threading
from collections.abc import Callable
from typing import ClassVar, TypeVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Footer, Static

from spades.actions import Action, Bid, Draw, Look, PassCard, PassCards, Play
from spades.bots.base import Decision
from spades.cards import BIG_JOKER, LITTLE_JOKER, CardSet
from spades.i18n import N_, _, ngettext
from spades.tui.config import PlayConfig, bot_label
from spades.tui.screens import (
    MODAL_CSS,
    HelpScreen,
    LastTrickScreen,
    QuitScreen,
    ResultScreen,
    ScoreScreen,
)
from spades.tui.session import BotTurn, HintQuestion, Session
from spades.tui.view import (
    TableView,
    TrickShown,
    build_view,
    card_label,
    describe_action,
    hint_reason,
    refusal,
    result_text,
    score_sheet,
)
from spades.tui.widgets import FELT, ChoiceBar, HandView, SeatBox, TrickArea

RANK_KEYS = {"a": 12, "k": 11, "q": 10, "j": 9, "t": 8, "0": 8, **{str(d): d - 2 for d in range(2, 10)}}
SUIT_KEYS = {"s": 0, "h": 1, "d": 2, "c": 3}
JOKER_KEYS = {"b": BIG_JOKER, "l": LITTLE_JOKER}
"""With jokers in the deck, ``B`` then ``J`` chooses the Big Joker and ``L`` then ``J`` the Little
one: their card text, typed as a rank and a suit are. B and L (Blind Nil, look) are commands
only while bidding, and J is no suit, so no other key sequence changes meaning."""
JOKER_NAMES = {BIG_JOKER: N_("Big Joker… now J."), LITTLE_JOKER: N_("Little Joker… now J.")}
_TYPED = "abcdefghijklmnopqrstuvwxyz0123456789"
HAND_OVER = N_("The hand is over: the score sheet follows.")
THINKING = N_("Hint: thinking…")
PREPARING = N_("Preparing the computer players…")
STILL_THINKING = N_("Still thinking about your hint: one moment, please.")
_GAME_INPUT = frozenset({"move", "confirm", "pick", "cancel", "input", "joker"})
"""Actions that change the game or the choice on screen: held while a hand's sheet is due."""

T = TypeVar("T")


async def in_daemon_thread(work: Callable[[], T]) -> T:
    """``work()`` in a daemon thread of its own, awaited. Unlike ``asyncio.to_thread`` (whose
    pool the event loop joins on exit), a slow answer (the expert compiling its kernels on a
    fresh install) never keeps Ctrl+C or Ctrl+Q from ending the program at once."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if done.done():  # the asker went away (cancelled): drop the answer
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = work(), None
        except BaseException as e:  # handed to the awaiting task, which decides
            result, error = None, e
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: the app has ended
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name="spades-hint", daemon=True).start()
    return await done


def speak_bindings(node: DOMNode) -> None:
    """The footer's labels in the language in use when ``node`` is made: the class lists hold
    the English ids (they are built at import, before ``spades play`` chooses the language)."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():  # new lists: the class's own map is left as it was
        table[key] = [
            dataclasses.replace(b, description=_(b.description)) if b.description else b for b in bindings
        ]


def _input_bindings() -> list[BindingType]:
    # Footer labels: English ids, translated when a screen is made (``speak_bindings``).
    shown = {"l": N_("Look"), "b": N_("Blind Nil"), "h": N_("Hint"), "p": N_("Last trick"), "s": N_("Scores")}
    out: list[BindingType] = [
        Binding("left", "move(-1)", N_("Move"), key_display="←→"),
        Binding("right", "move(1)", N_("Move"), show=False),
        Binding("up", "move(1)", show=False),
        Binding("down", "move(-1)", show=False),
        Binding("enter", "confirm", "OK", key_display="⏎"),
        Binding("space", "pick", N_("Pick"), show=False),
        Binding("escape", "cancel", show=False),
        Binding("question_mark,f1", "help", N_("Help"), key_display="?"),
    ]
    for ch in _TYPED:
        out.append(Binding(ch, f"input('{ch}')", shown.get(ch, ""), show=ch in shown))
        if ch.isalpha():  # Shift or Caps Lock: the same key
            out.append(Binding(ch.upper(), f"input('{ch}')", show=False))
    for ch in JOKER_KEYS:  # B and L again, live only when they start a joker (check_action)
        out += [Binding(ch, f"joker('{ch}')", show=False), Binding(ch.upper(), f"joker('{ch}')", show=False)]
    return out


class GameScreen(Screen[None]):
    """The table. All game input is handled here; pop-ups have their own keys."""

    BINDINGS: ClassVar[list[BindingType]] = _input_bindings()

    DEFAULT_CSS = f"""
    GameScreen {{ layout: vertical; background: #08361b; }}
    #status {{ height: 1; background: #263238; color: #eceff1; padding: 0 1; }}
    #table {{ height: 1fr; background: {FELT}; }}
    #top {{ height: 1; content-align: center middle; width: 1fr; }}
    #middle {{ height: 1fr; }}
    #left, #right {{ width: 16; height: 1fr; content-align: center middle; padding: 0 1; }}
    #bottom {{ height: 1; content-align: center middle; width: 1fr; }}
    SeatBox {{ color: #e0e0e0; }}
    SeatBox.turn {{ background: #14753c; }}
    #prompt {{ height: 2; padding: 0 1; background: #102a1a; color: #fff8e1; }}
    #prompt.error {{ color: #ffab91; text-style: bold; }}
    #choices {{ background: #102a1a; }}
    #hand {{ background: #08361b; }}
    """

    def __init__(self, session: Session, delay_ms: int) -> None:
        super().__init__()
        speak_bindings(self)
        self.session = session
        self.delay = delay_ms / 1000
        n = session.players
        self.names = {
            s: session.config.name if s == session.human else bot_label(session.bot_names[s])
            for s in range(n)
        }
        self.short_names = {
            s: _("You") if s == session.human else seat for s, seat in enumerate(_seat_names(n))
        }
        self.view: TableView | None = None
        self.mode = ""
        self.cursor: int | None = None
        self.choice: str | None = None
        self.picked: set[int] = set()
        self.rank_key: int | None = None
        self.joker_key: int | None = None
        """The joker chosen by ``B`` or ``L``, waiting for its ``J``."""
        self.bid_digits = ""
        self.sheets_seen = len(session.observation().scores)
        """Hands whose score sheet the player has read (a resumed game's count as read)."""
        self.sheets_shown = self.sheets_seen
        """Hands whose score sheet has opened (until then the table keeps the last trick)."""
        self.driving = False
        self.preparing = False
        """The bots are being built (``_prepare``): the prompt says so."""
        self.hinting = False
        self.message: str | None = None
        self.message_is_error = False
        self.hint_shown: Decision | None = None

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Vertical(id="table"):
            yield SeatBox(id="top")
            with Horizontal(id="middle"):
                yield SeatBox(id="left")
                yield TrickArea(id="trick")
                yield SeatBox(id="right")
            yield SeatBox(id="bottom")
        yield Static(id="prompt")
        yield ChoiceBar(id="choices")
        yield HandView(id="hand")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        for note in self.session.config.notes:
            self.notify(note, title=_("Setup"), timeout=8)
        if not self.session.ready:
            self.preparing = True
            # The specs were checked before the screen opened: a bot that still cannot be
            # built is a bug, and ends the app with its traceback (the record is saved).
            self.run_worker(self._prepare(), group="prepare", exit_on_error=True)
        self.kick()

    async def _prepare(self) -> None:
        """Build the bots in a thread of their own: the expert loads its compiled search (a
        second after ``spades warm``; minutes on an install that skipped it). The table is on
        screen meanwhile, saying so, and every key (help, quit, the player's own bid) works;
        no bot moves until they are all ready."""
        await in_daemon_thread(self.session.prepare)
        self.preparing = False
        self.kick()

    # ------------------------------------------------------------------ drawing
    def refresh_view(self) -> None:
        obs = self.session.observation()
        legal = self.session.legal()
        view = build_view(obs, legal, self.names)
        mode = f"{view.mode}/{view.hand_number}/" + ",".join(c.value for c in view.choices)
        if mode != self.mode:
            self._enter_mode(view, mode)
        self.view = view
        self._fix_cursor(view)
        self.query_one("#status", Static).update(view.status)
        for where in ("top", "left", "right", "bottom"):
            self.query_one(f"#{where}", SeatBox).show(view.seat_at(where))
        trick = view.trick
        if trick is None and len(obs.scores) > self.sheets_shown:
            trick = self.session.last_trick  # the hand's last trick, until the sheet is read
        self.query_one(TrickArea).show(view, trick)
        prompt = self.query_one("#prompt", Static)
        prompt.update(self._prompt_text(view))
        prompt.set_class(bool(self.message) and self.message_is_error, "error")
        self.query_one(ChoiceBar).show(view.choices, self.choice)
        self.query_one(HandView).show(
            view.hand,
            face_down=view.face_down,
            cursor=self.cursor if view.mode in ("play", "pass") else None,
            picked=frozenset(self.picked),
            show_legal=view.mode == "play",
        )
        self.refresh_bindings()

    def _enter_mode(self, view: TableView, mode: str) -> None:
        """A new kind of decision: reset the cursor, picks and half-typed keys."""
        self.mode = mode
        self.picked = set()
        self.rank_key = None
        self.joker_key = None
        self.bid_digits = ""
        self.message = None
        self.choice = None
        if view.choices:
            values = [c.value for c in view.choices]
            # A number under the cursor, not Nil, so that Enter never bids Nil by surprise
            # (whiz offers Nil or the spades held; suicide Nil or 4 and up).
            numbers = [v for v in values if v.startswith("bid:") and v != "bid:0"]
            self.choice = "bid:3" if "bid:3" in values else numbers[0] if numbers else values[0]

    def _fix_cursor(self, view: TableView) -> None:
        cards = [c.card for c in view.hand]
        if view.mode == "play":
            legal = view.legal_cards
            if self.cursor not in legal:
                self.cursor = legal[0] if legal else None
        elif self.cursor not in cards:
            self.cursor = cards[0] if cards else None
        values = [c.value for c in view.choices]
        if self.choice not in values:
            self.choice = values[0] if values else None

    def _prompt_text(self, view: TableView) -> str:
        if self.sheet_due:
            return _(HAND_OVER)
        if self.message:
            return self.message
        if self.preparing:
            return f"{_(PREPARING)} {view.prompt}"
        return f"{_(THINKING)} {view.prompt}" if self.hinting else view.prompt

    def say(self, text: str | None, *, error: bool = False) -> None:
        """Show a one-off message in the prompt line until the next state change."""
        self.message = text
        self.message_is_error = error
        if self.view is not None:
            prompt = self.query_one("#prompt", Static)
            prompt.update(self._prompt_text(self.view))
            prompt.set_class(bool(text) and error, "error")

    @property
    def sheet_due(self) -> bool:
        """A hand has ended and its score sheet is not read yet. The engine has dealt the next
        hand already, but the player must not act in it before he has seen how the last one
        ended (Enter would look at his cards, B bid Blind Nil): game keys wait till then."""
        return len(self.session.observation().scores) > self.sheets_seen

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in _GAME_INPUT and self.sheet_due:
            return parameters == ("p",)  # the last trick may be looked at again; nothing else
        if action == "joker":  # the first key of a joker (B J, L J), where jokers can be chosen
            return self.view is not None and self.view.jokers and self.view.mode in ("play", "pass")
        if action == "input" and self.view is not None:
            if parameters == ("l",):
                return self.view.can_look
            if parameters == ("b",):
                return self.view.can_blind
        return True

    # ------------------------------------------------------------------ the bots' worker
    def kick(self) -> None:
        """Redraw, and start the bots' worker unless it is already running."""
        self.refresh_view()
        if not self.driving:
            self.driving = True
            self.run_worker(self._drive(), group="bots", exit_on_error=True)

    async def _drive(self) -> None:
        try:
            while True:
                obs = self.session.observation()
                if len(obs.scores) > self.sheets_seen:
                    await self._pause(2)
                    await self._after_hand()
                    if obs.winner is not None:
                        return
                    continue
                if obs.winner is not None:
                    return
                turn = self.session.next_bot()
                if turn is None:
                    return
                await self._pause(1)
                while self.app.screen is not self:  # the player is reading a pop-up: wait
                    await asyncio.sleep(0.05)
                turn = self.session.next_bot()
                if turn is None:
                    continue
                decision = await self._decide(turn)
                note = self.session.apply_bot(turn, decision)
                if note:
                    self.notify(note, severity="warning")
                self.message = None
                self.refresh_view()
                if self.session.last_trick is not None and not self.session.observation().trick:
                    await self._pause(1)  # let the completed trick be seen
        finally:
            self.driving = False

    async def _pause(self, units: float) -> None:
        if self.delay > 0:
            await asyncio.sleep(self.delay * units)

    async def _decide(self, turn: BotTurn) -> Decision:
        """The bot's answer, computed in a thread; a bot that fails plays its first option."""
        try:
            if self.delay == 0:
                return turn.bot.decide(turn.obs, turn.legal)  # no pauses asked for: stay on the loop
            return await asyncio.to_thread(turn.bot.decide, turn.obs, turn.legal)
        except Exception as e:  # a broken bot must not end the person's game
            self.notify(
                _("{who}'s bot failed ({error}); it plays its first option").format(
                    who=self.short_names[turn.seat], error=e
                )
            )
            return Decision(turn.legal[0], "fallback")

    async def _after_hand(self) -> None:
        obs = self.session.observation()
        sheet = score_sheet(obs, self.names)
        self.sheets_shown = len(obs.scores)
        if obs.winner is not None:
            self.sheets_seen = len(obs.scores)
            self.refresh_view()
            self.session.save()
            await self.app.push_screen(
                ResultScreen(
                    result_text(obs, self.names), sheet, self.session.saved_to, self.session.save_error
                )
            )
            return
        done = asyncio.Event()
        last = obs.scores[-1]
        taken = ", ".join(f"{self.short_names[s]} {t}" for s, t in enumerate(last.tricks))
        self.app.push_screen(
            ScoreScreen(
                sheet, _("After hand {hand} · tricks: {taken}").format(hand=len(obs.scores), taken=taken)
            ),
            lambda _closed: done.set(),
        )
        self.refresh_view()
        await done.wait()
        self.sheets_seen = len(obs.scores)  # read: the next hand takes keys from now on
        self.refresh_view()

    # ------------------------------------------------------------------ human actions
    def _act(self, action: Action) -> None:
        err = self.session.act(action)
        if err:
            self.say(err, error=True)
            return
        self.message = None
        self.kick()

    def _play(self, card: int) -> None:
        obs = self.session.observation()
        why = refusal(obs, card)
        if why is not None:
            self.cursor = card if obs.hand is not None and card in obs.hand else self.cursor
            self.refresh_view()
            self.say(why, error=True)
            return
        self._act(Play(card))

    def _toggle_pick(self, card: int) -> None:
        view = self.view
        if view is None or view.mode != "pass":
            return
        if card in self.picked:
            self.picked.discard(card)
        elif len(self.picked) < view.pass_count:
            self.picked.add(card)
        else:
            self.say(
                ngettext(
                    "You have picked {n} card already: Enter to pass it.",
                    "You have picked {n} cards already: Enter to pass them.",
                    view.pass_count,
                ).format(n=view.pass_count),
                error=True,
            )
            return
        self.cursor = card
        self.refresh_view()
        left = view.pass_count - len(self.picked)
        more = (
            ngettext("{n} more to pick.", "{n} more to pick.", left).format(n=left)
            if left
            else _("Enter to pass.")
        )
        self.say(_("Picked {n}:").format(n=len(self.picked)) + " " + more)

    def _pass(self) -> None:
        view = self.view
        if view is None or view.mode != "pass":
            return
        if len(self.picked) != view.pass_count:
            self.say(
                ngettext(
                    "Pick {n} card to pass ({picked} picked).",
                    "Pick {n} cards to pass ({picked} picked).",
                    view.pass_count,
                ).format(n=view.pass_count, picked=len(self.picked)),
                error=True,
            )
            return
        err = self.session.act(PassCards(CardSet(self.picked)))
        if err:
            self.say(err, error=True)
            return
        self.picked = set()
        self.kick()

    def _choose(self, value: str) -> None:
        view = self.view
        if view is None or value not in {c.value for c in view.choices}:
            return
        if value.startswith("bid:"):
            self._act(Bid(int(value[4:])))
        elif value == "blind":
            self._act(Bid(0, blind=True))
        elif value == "look":
            self._act(Look())
        elif value in ("keep", "discard"):
            self._act(Draw(value == "keep"))
        elif value == "pass":
            self._pass()

    def _card_typed(self, card: int) -> None:
        view = self.view
        if view is None:
            return
        if view.mode == "pass":
            if card in {c.card for c in view.hand}:
                self._toggle_pick(card)
            else:
                self.say(_("You do not hold {card}.").format(card=card_label(card)), error=True)
            return
        # A typed card is selected, not played: H, S and D are suits after a rank and commands
        # otherwise, so "A" then "H" meant as a hint must not throw the A♥ on the table.
        why = refusal(self.session.observation(), card)
        if why is not None:
            self._play(card)  # says why, and moves the cursor there if he holds it
            return
        self.cursor = card
        self.refresh_view()
        self.say(_("{card}: Enter to play it.").format(card=card_label(card)))

    # ------------------------------------------------------------------ key actions
    def action_move(self, step: int) -> None:
        view = self.view
        if view is None:
            return
        if view.mode in ("play", "pass"):
            cards = list(view.legal_cards) if view.mode == "play" else [c.card for c in view.hand]
            if not cards:
                return
            i = cards.index(self.cursor) if self.cursor in cards else -step
            self.cursor = cards[(i + step) % len(cards)]
        elif view.choices:
            values = [c.value for c in view.choices]
            i = values.index(self.choice) if self.choice in values else 0
            self.choice = values[max(0, min(len(values) - 1, i + step))]
        self.refresh_view()

    def action_confirm(self) -> None:
        view = self.view
        if view is None:
            return
        if view.mode == "play" and self.cursor is not None:
            self._play(self.cursor)
        elif view.mode == "pass":
            self._pass()
        elif self.choice is not None:
            self._choose(self.choice)

    def action_pick(self) -> None:
        if self.view is not None and self.view.mode == "pass" and self.cursor is not None:
            self._toggle_pick(self.cursor)

    def action_cancel(self) -> None:
        self.rank_key = None
        self.joker_key = None
        self.bid_digits = ""
        if self.picked:
            self.picked = set()
        self.message = None
        self.refresh_view()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.session.config.rules))

    def action_input(self, ch: str) -> None:
        view = self.view
        if view is None:
            return
        mode = view.mode
        if mode in ("play", "pass"):
            joker, self.joker_key = self.joker_key, None
            if joker is not None and ch == "j":
                self.rank_key = None
                self._card_typed(joker)
                return
            if self.rank_key is not None and ch in SUIT_KEYS:
                card = SUIT_KEYS[ch] * 13 + self.rank_key
                self.rank_key = None
                self._card_typed(card)
                return
            if ch == "1":
                self.say(_("1… then 0 for a ten."))
                return
            if ch in RANK_KEYS:
                self.rank_key = RANK_KEYS[ch]
                label = "10" if self.rank_key == 8 else ch.upper()
                self.say(_("{rank}… now the suit: S H D C.").format(rank=label))
                return
        if mode == "bid" and ch.isdigit():
            top = view.max_bid  # 13, or 17 with three players
            digits = self.bid_digits + ch if self.bid_digits == "1" and 10 + int(ch) <= top else ch
            self.bid_digits = digits if digits == "1" else ""
            values = {c.value for c in view.choices}
            if digits == "1" and "bid:1" not in values and any(f"bid:1{d}" in values for d in range(top - 9)):
                self.say(
                    _("1… then the second digit (10 to {top}).").format(top=top)
                )  # suicide: 1 alone is refused
                return
            self._select_choice(f"bid:{int(digits)}")
            return
        if mode == "bid" and ch == "n":
            self._select_choice("bid:0")
            return
        if mode == "draw" and ch in ("k", "d"):
            self._choose("keep" if ch == "k" else "discard")
            return
        if ch == "l":
            if view.can_look:
                self._act(Look())
        elif ch == "b":
            if view.can_blind:
                self._act(Bid(0, blind=True))
        elif ch == "h":
            self.action_hint()
        elif ch == "p":
            self.action_last_trick()
        elif ch == "s":
            self.action_scores()

    def action_joker(self, ch: str) -> None:
        """``B`` or ``L`` while playing or passing with jokers in the deck: a ``J`` must follow."""
        self.rank_key = None
        self.joker_key = JOKER_KEYS[ch]
        self.say(_(JOKER_NAMES[self.joker_key]))

    def _select_choice(self, value: str) -> None:
        view = self.view
        if view is not None and value in {c.value for c in view.choices}:
            self.choice = value
            self.message = None  # an earlier "not allowed" is answered
            self.refresh_view()
        else:
            self.say(_("That bid is not allowed."), error=True)

    def action_last_trick(self) -> None:
        self.app.push_screen(LastTrickScreen(self.session.last_trick, self.short_names))

    def action_scores(self) -> None:
        obs = self.session.observation()
        self.app.push_screen(ScoreScreen(score_sheet(obs, self.names), _("Score sheet"), _("Enter: close")))

    def action_hint(self) -> None:
        if self.hinting:
            self.say(_(STILL_THINKING))
            return
        asked = self.session.hint_turn()
        if asked is None:
            self.say(_("A hint is for your turn."))
            return
        self.hinting = True
        self.say(_(THINKING))
        self.run_worker(self._hint(asked), group="hint", exit_on_error=False)

    async def _hint(self, turn: HintQuestion) -> None:
        """The hint bot is built and asked in a thread of its own: the first hint may wait for
        the expert's kernels to compile, and the keys (help, quit) must work meanwhile."""
        try:
            decision, name = await in_daemon_thread(lambda: self.session.answer_hint(turn))
        except Exception as e:  # a broken hint bot costs the hint, never the game
            self.hinting = False
            self.say(_("No hint this time: the hint bot failed ({error}).").format(error=e), error=True)
            return
        self.hinting = False
        if turn.version != self.session.version:
            if self.message in (_(THINKING), _(STILL_THINKING)):
                self.say(None)
            return
        action = decision.action
        if isinstance(action, Play | PassCard):
            self.cursor = action.card
        elif isinstance(action, PassCards) and self.view is not None and self.view.mode == "pass":
            self.picked = set(action.cards)  # picked for him: Enter passes them, Space unpicks
            self.cursor = min(self.picked, default=self.cursor)
        elif isinstance(action, Bid) and not action.blind:
            self.choice = f"bid:{action.tricks}"
        elif isinstance(action, Draw):
            self.choice = "keep" if action.keep else "discard"
        what = describe_action(action)
        self.refresh_view()
        reason = hint_reason(decision.why)
        why = f" — {reason}" if reason else ""
        self.say(_("Hint ({bot}): {what}{why}").format(bot=name, what=what, why=why))
        self.hint_shown = decision

    # ------------------------------------------------------------------ mouse
    def on_hand_view_clicked(self, message: HandView.Clicked) -> None:
        view = self.view
        if view is None or self.sheet_due:
            return
        if view.mode == "pass":
            self._toggle_pick(message.card)
        elif view.mode == "play":
            self._play(message.card)
        else:
            self.say(_("It is not your turn to play."), error=True)

    def on_choice_bar_chosen(self, message: ChoiceBar.Chosen) -> None:
        if self.sheet_due:
            return
        self.choice = message.value
        self._choose(message.value)


def _seat_names(n: int) -> list[str]:
    from spades.tui.view import seat_label

    return [seat_label(s, n) for s in range(n)]


class SpadesApp(App[None]):
    """A game of Spades in the terminal for one person and computer players."""

    TITLE = "Spades"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "ask_quit", N_("Quit"), key_display="^q", priority=True),
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
    ]
    ENABLE_COMMAND_PALETTE = False
    CSS = MODAL_CSS

    def __init__(self, config: PlayConfig, session: Session | None = None) -> None:
        super().__init__()
        speak_bindings(self)
        self.config = config
        self.session = session or Session(config, later=True)

    def on_mount(self) -> None:
        self.push_screen(GameScreen(self.session, self.config.delay_ms))

    @property
    def game_screen(self) -> GameScreen:
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("the game screen is not up")

    def action_ask_quit(self) -> None:
        """Ctrl+Q: ask before leaving (a second Ctrl+Q is a yes)."""
        if isinstance(self.screen, QuitScreen):
            self.screen.dismiss(True)
            return

        def answered(quit_: bool | None) -> None:
            if quit_:
                self.session.save()
                self.exit()

        self.push_screen(QuitScreen(self.session.config.record_path), answered)

    async def action_quit(self) -> None:
        """Save the record, then leave at once (Ctrl+C, and the result screen)."""
        self.session.save()
        self.exit()

    def on_unmount(self) -> None:
        self.session.close()


__all__ = ["GameScreen", "SpadesApp", "TrickShown"]
