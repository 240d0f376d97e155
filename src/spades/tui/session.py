"""The one object of the terminal game that holds the ``Game``; the screens never touch it.

Everything the screens show comes from ``Session.observation()`` (the human seat's
``Observation``) and ``Session.legal()`` (the human's own legal actions). Bots are fed
the same way as everywhere else: their seat's observation and legal actions, built here on
the UI thread and handed to a worker thread, so a slow bot never blocks the screen and never
sees the game itself.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import random
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spades import record
from spades.actions import Action, PassCard, PassCards, Play
from spades.bots import Bot
from spades.bots.base import Decision
from spades.cards import CardSet
from spades.driver import apply_decision, notify_others
from spades.errors import SpadesError
from spades.i18n import _, localized
from spades.observation import Observation
from spades.state import Event, Game, Phase, seat_name, shuffled_deck
from spades.tui.config import DEFAULT_BOT, PlayConfig, assign_bots, build_bots, hint_bot, resolve_bots
from spades.tui.view import TrickShown


@dataclass(frozen=True, slots=True)
class HintQuestion:
    """The human's question for the hint bot: his observation and legal actions, nothing more."""

    obs: Observation
    legal: tuple[Action, ...]
    version: int


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A question for a bot, asked off the UI thread: everything it may know, and nothing more."""

    seat: int
    bot: Bot
    obs: Observation
    legal: tuple[Action, ...]
    version: int


class Session:
    """A game between one person and bots, with its record."""

    def __init__(
        self,
        config: PlayConfig,
        bots: dict[int, Bot] | None = None,
        game: Game | None = None,
        *,
        later: bool = False,
        make_bots: Callable[[], dict[int, Bot]] | None = None,
    ) -> None:
        """``game`` is a game to continue (a saved one, read back by ``resume.resume``).

        Without ``bots`` they are built from the config (``make_bots``, default
        ``build_bots``): now, or with ``later`` only when ``prepare`` is called, which the
        screen does in a thread of its own: building an expert loads its compiled search (a
        second after ``spades warm``, minutes without it), and the screen must be up and
        answering keys meanwhile. Until then no bot is asked to move."""
        self.config = config
        self.human = config.human
        self.__game = game if game is not None else Game(config.rules, seed=config.seed)
        self._make_bots = make_bots or (lambda: build_bots(config))
        self.bots: dict[int, Bot] = {}
        self._closed = False
        self.ready = False
        """The bots are built (``prepare`` has run, or they were handed in)."""
        if bots is not None:
            self.bots, self.ready = bots, True
        elif not later:
            self.prepare()
        self.bot_names = dict(config.bots)
        self._hint: tuple[Bot, str] | None = None
        self._hint_lock = threading.Lock()
        self.version = 0
        """Bumped by every action, so an answer computed for an older state is dropped."""
        self.saved_to: Path | None = None
        self.last_trick: TrickShown | None = None
        """The last trick completed, as the human saw it played (it outlives the hand)."""
        self.save_error: str | None = None

    # ------------------------------------------------------------------ what the screens read
    @property
    def players(self) -> int:
        return self.config.rules.players

    def observation(self) -> Observation:
        return self.__game.observation(self.human)

    def legal(self) -> tuple[Action, ...]:
        """The human's own legal actions now (a look may come before his turn to bid)."""
        return tuple(self.__game.legal_actions(self.human))

    def player_names(self) -> list[str]:
        """Names for the record: the person's name, and each bot's spec with its seat."""
        return [
            self.config.name if s == self.human else f"{seat_name(s, self.players)} ({self.bot_names[s]})"
            for s in range(self.players)
        ]

    # ------------------------------------------------------------------ the human
    def act(self, action: Action) -> str | None:
        """Apply the human's action; return the engine's one-line refusal instead of raising."""
        game = self.__game
        before = self.observation()
        try:
            ev = game.apply(action, self.human)
        except SpadesError as e:
            return localized(e)  # the engine's refusal in the player's language
        self._track(before, ev)
        return None

    def _track(self, before: Observation, ev: Event) -> None:
        """Remember a trick when it completes: its cards were public, and so is its winner;
        tell the bots that want events (``notify_others``)."""
        self.version += 1
        notify_others(self.__game, self.bots)
        if ev.trick_winner is not None and isinstance(ev.action, Play):
            n = self.players
            plays = [((before.trick_leader + i) % n, c) for i, c in enumerate(before.trick)]
            plays.append((ev.seat, ev.action.card))
            self.last_trick = TrickShown(tuple(plays), ev.trick_winner, len(before.tricks) + 1)

    # ------------------------------------------------------------------ the bots
    def prepare(self) -> None:
        """Build the bots (slow for the expert: call it off the UI thread). Once only; the
        bots are published whole, so a reader sees either none or all of them."""
        if self.ready:
            return
        bots = self._make_bots()
        if self._closed:  # the game ended while they were built: close them as ``close`` would
            self.bots = bots
            self.close()
            return
        self.bots = bots
        self.ready = True

    def next_bot(self) -> BotTurn | None:
        """The bot to move with its question, or ``None`` when the human (or no one) is to move,
        or the bots are still being prepared."""
        seat = self.__game.to_move
        if seat is None or seat == self.human or not self.ready:
            return None
        legal = tuple(self.__game.legal_actions(seat))
        return BotTurn(seat, self.bots[seat], self.__game.observation(seat), legal, self.version)

    def apply_bot(self, turn: BotTurn, decision: Decision) -> str | None:
        """Apply a bot's answer; a stale or illegal one is replaced by its first legal action."""
        if turn.version != self.version:
            return None  # the state moved on (the human looked); ask again
        action: Action = decision.action
        note = None
        before = self.observation()
        try:
            ev = apply_decision(self.__game, turn.seat, action)
        except SpadesError as e:
            note = _("{who}'s bot chose badly ({error}); it plays its first option").format(
                who=_(seat_name(turn.seat, self.players)), error=e
            )
            ev = apply_decision(self.__game, turn.seat, turn.legal[0])
        self._track(before, ev)
        return note

    def hint_turn(self) -> HintQuestion | None:
        """The human's question for the hint bot; ``None`` unless it is his turn. Cheap: the
        bot itself is built by ``answer_hint``, off the UI thread (the expert compiles)."""
        if self.__game.to_move != self.human:
            return None
        return HintQuestion(self.observation(), self.legal(), self.version)

    def answer_hint(self, question: HintQuestion) -> tuple[Decision, str]:
        """The hint bot's answer and its name. Slow (the first call builds the bot): call it in
        a thread. It reads only the question, never the game, so the game may move on meanwhile."""
        with self._hint_lock:
            if self._hint is None:
                self._hint = hint_bot(self.config.seed + 99)
            bot, name = self._hint
            return whole_pass(bot, question.obs, question.legal), name

    # ------------------------------------------------------------------ the record
    def save(self) -> Path | None:
        """Write the record (atomically); on failure keep the one-line reason in ``save_error``."""
        path = self.config.record_path
        if path is None:
            return None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            record.save(
                path,
                self.__game,
                self.player_names(),
                seed=self.config.seed,
                client="spades play",
                human=self.human,
                saved=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            )
        except OSError as e:
            self.save_error = _("could not save the record to {path}: {error}").format(
                path=path, error=e.strerror or e
            )
            return None
        self.saved_to = path
        self.save_error = None
        return path

    def close(self) -> None:
        self._closed = True
        for bot in self.bots.values():
            with contextlib.suppress(Exception):  # a bot failing to close must not lose the record
                bot.close()


def whole_pass(bot: Bot, obs: Observation, legal: tuple[Action, ...]) -> Decision:
    """The bot's decision; in an exchange, its whole pass. Bots pass one card a step (the
    flat action space), but the person passes all his cards at once, and a hint naming one
    card of three would leave him to guess the rest: ask again without the cards picked."""
    first = bot.decide(obs, legal)
    if not isinstance(first.action, PassCard):
        return first
    chosen = obs.pass_chosen.mask.bit_count() if obs.pass_chosen is not None else 0
    need = obs.rules.blind_nil_exchange - chosen
    picked = [first.action.card]
    while len(picked) < need:
        rest = tuple(a for a in legal if isinstance(a, PassCard) and a.card not in picked)
        if not rest:
            break
        step = bot.decide(obs, rest).action
        if not isinstance(step, PassCard) or step.card in picked:
            break
        picked.append(step.card)
    return Decision(PassCards(CardSet(picked)), first.why)


# ---------------------------------------------------------------------- resuming a saved game
_BOT_NAME = re.compile(r"^(?P<seat>\w+) \((?P<spec>[^()]+)\)$")


def _human_seat(players: tuple[str, ...], extra: dict[str, object], path: Path) -> int:
    n = len(players)
    seat = extra.get("human")
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n:
        return seat
    people = [
        s
        for s, name in enumerate(players)
        if not ((m := _BOT_NAME.match(name)) and m["seat"] == seat_name(s, n))
    ]
    if len(people) != 1:
        raise SpadesError(
            _("--resume: {path} does not say which seat is yours (not a game of 'spades play'?)").format(
                path=path
            )
        )
    return people[0]


def _bot_spec(name: str) -> str:
    m = _BOT_NAME.match(name)
    return m["spec"] if m else DEFAULT_BOT


def continue_dealing(game: Game, seed: int) -> None:
    """Give a replayed game (which waits for ``deal()``) its random source back, advanced past
    the hands already dealt, and let it deal again by itself. A game started with ``seed``
    deals the same hands next as if it had never been saved; any other game gets fresh hands."""
    fresh = Game(game.rules, seed=seed)  # draws the first dealer and deals hand 1
    rng = fresh.rng

    def first_deal(g: Game) -> object:
        log = g.logs[0] if g.logs else None
        return None if log is None else log.stock if log.stock is not None else log.dealt

    if fresh.first_dealer != game.first_dealer or first_deal(fresh) != first_deal(game) or not game.logs:
        rng = random.Random(f"{seed}/{len(game.logs)}")
    else:
        for _log in game.logs[1:]:
            shuffled_deck(rng)
    game.rng = rng
    game.auto_deal = True
    if game.phase is Phase.DEAL:
        game.deal()


def resume(
    path: str | Path,
    *,
    delay_ms: int = 400,
    record_path: str | Path | None = None,
    bots: str | None = None,
) -> tuple[PlayConfig, Game]:
    """A game saved by ``spades play`` (``--resume FILE``), at the point where it stopped, and
    its setup: ready for ``Session(config, game=game)``.

    The record is the game's history: ``record.load`` replays every action into a fresh
    ``Game``. What it does not hold is rebuilt from what it does: the person's seat (``human``,
    or the one seat not named "Seat (bot spec)"), each computer seat's bot spec (from its
    name), the seed (so a seeded game goes on with the hands it would have dealt) and the rules.
    Raises a one-line ``SpadesError`` for an unreadable record or a game already over."""
    p = Path(path).expanduser()
    try:
        saved = record.load(p)
    except SpadesError as e:
        raise SpadesError(f"--resume: {e}") from None
    game = saved.game
    if game.is_over:
        raise SpadesError(
            _("--resume: the game in {path} is over; watch it with: spades replay {path}").format(path=p)
        )
    n = game.n
    human = _human_seat(saved.players, saved.extra, p)
    seed = saved.extra.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        seed = random.SystemRandom().randrange(2**31)
    if bots is not None:
        specs = assign_bots(bots, n, human)
    else:
        specs = {s: _bot_spec(saved.players[s]) for s in range(n) if s != human}
    specs, notes = resolve_bots(specs, n)
    continue_dealing(game, seed)
    where = Path(record_path).expanduser() if record_path is not None else p
    config = PlayConfig(
        rules=game.rules,
        human=human,
        bots=specs,
        seed=seed,
        delay_ms=delay_ms,
        record_path=where,
        name=saved.players[human],
        notes=(
            _("Resumed the game saved in {path} (hand {hand}).").format(path=p, hand=game.hand_number),
            *notes,
        ),
    )
    return config, game
