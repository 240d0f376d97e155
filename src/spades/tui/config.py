"""Options of ``spades play`` turned into one checked value, before any screen is drawn.

Parsing lives here, apart from the command and the app, so that a bad ``--rules``,
``--seat`` or ``--bots`` is a one-line ``SpadesError`` naming the option, and tests can build
a game without going through the command line.
"""

from __future__ import annotations

import datetime as _dt
import importlib.util
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from spades.bots import Bot, make_bot, parse_spec
from spades.bots.levels import LEVELS, level_of
from spades.errors import SpadesError
from spades.i18n import _
from spades.rules import Rules
from spades.rulestext import parse_rules_text
from spades.state import seat_name

DEFAULT_BOT = "heuristic"
HINT_BOTS = ("expert", "heuristic")
"""The hint asks the strongest bot that exists in this build, in this order."""


@dataclass(frozen=True, slots=True)
class PlayConfig:
    """Everything a terminal game needs to start; made by ``make_config``."""

    rules: Rules
    human: int
    bots: dict[int, str]
    """Bot spec per computer seat."""
    seed: int
    delay_ms: int = 400
    record_path: Path | None = None
    name: str = "You"
    notes: tuple[str, ...] = field(default=())
    """Messages for the player about the setup (e.g. a bot that fell back)."""


def parse_seat(text: str | None, players: int) -> int:
    """A seat number or name; the default is South (seat 2, or seat 0 of two players), and
    North (seat 0) in the three-player game, which has no South."""
    names = [seat_name(s, players).lower() for s in range(players)]
    if text is None:
        return names.index("south") if "south" in names else 0
    t = text.strip().lower()
    if t.isdigit() and int(t) < players:
        return int(t)
    for s, name in enumerate(names):
        if t in (name, name[0]):
            return s
    raise SpadesError(
        _("--seat: {text} is not a seat ({names} or 0..{last})").format(
            text=repr(text), names=", ".join(names), last=players - 1
        )
    )


def split_bot_specs(text: str) -> list[str]:
    """Split ``a,b:x=1,y=2,c`` into specs; a ``key=value`` item joins the spec before it."""
    specs: list[str] = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        if specs and "=" in item and ":" not in item:
            sep = "," if ":" in specs[-1] else ":"
            specs[-1] = f"{specs[-1]}{sep}{item}"
        else:
            specs.append(item)
    return specs


def assign_bots(text: str | None, players: int, human: int) -> dict[int, str]:
    """Specs per computer seat. One spec seats it everywhere; otherwise one per computer seat,
    clockwise from the player's left (left, partner, right when four play)."""
    others = [(human + i) % players for i in range(1, players)]
    specs = split_bot_specs(text) if text else [DEFAULT_BOT]
    if len(specs) == 1:
        specs = specs * len(others)
    if len(specs) != len(others):
        if len(others) == 1:
            message = _("--bots: give 1 bot spec, not {given}")
        else:
            message = _("--bots: give 1 or {n} bot specs (clockwise from your left), not {given}")
        raise SpadesError(message.format(n=len(others), given=len(specs)))
    return dict(zip(others, specs, strict=True))


def level_menu() -> list[str]:
    """The named levels ``--bots`` takes, one line each in the player's language, weakest
    first: ``beginner  Beginner: knows the rules...`` (the expert's only where this build has
    it). ``spades play --bots list`` prints them."""
    width = max(len(level.name) for level in LEVELS)
    return [
        f"{level.name:<{width}}  " + _("{level}: {about}").format(level=_(level.title), about=_(level.about))
        for level in LEVELS
        if bot_available(level.bot)
    ]


def bot_label(spec: str) -> str:
    """What a seat shows for its bot: a level's name in the player's language (``Club
    player``), any other spec as it is written."""
    level = level_of(spec) if ":" not in spec else None
    return _(level.title) if level is not None else spec


def bot_available(name: str) -> bool:
    from spades.bots import REGISTRY

    entry = REGISTRY.get(name)
    if entry is None:
        return False
    try:
        return importlib.util.find_spec(entry[0]) is not None
    except ImportError:
        return False


def resolve_bots(specs: dict[int, str], players: int) -> tuple[dict[int, str], tuple[str, ...]]:
    """Swap a bot this build lacks (the expert, until it lands) for the heuristic, with a note."""
    out: dict[int, str] = {}
    notes: list[str] = []
    for seat, spec in specs.items():
        name, _settings = parse_spec(spec)
        if name == "expert" and not bot_available(name):
            notes.append(
                _("The expert bot is not available in this build: {seat} plays {bot} instead.").format(
                    seat=_(seat_name(seat, players)), bot=DEFAULT_BOT
                )
            )
            spec = DEFAULT_BOT
        out[seat] = spec
    return out, tuple(notes)


def build_bots(config: PlayConfig) -> dict[int, Bot]:
    """Make each seat's bot, seeded from the game seed so a seeded game replays alike."""
    return {seat: make_bot(spec, seed=config.seed * 7 + seat) for seat, spec in config.bots.items()}


def hint_bot(seed: int) -> tuple[Bot, str]:
    """The strongest available bot for hints, and its name."""
    for name in HINT_BOTS:
        if bot_available(name):
            try:
                return make_bot(name, seed=seed), name
            except SpadesError:
                continue
    return make_bot(DEFAULT_BOT, seed=seed), DEFAULT_BOT


def default_record_path(seed: int, when: _dt.datetime | None = None) -> Path:
    """``<user data dir>/spades/games/<date>-<time>-seed<N>.json``."""
    import platformdirs

    when = when or _dt.datetime.now()
    base = Path(platformdirs.user_data_dir("spades", appauthor=False)) / "games"
    return base / f"{when:%Y%m%d-%H%M%S}-seed{seed}.json"


def make_config(
    *,
    rules: str | None = None,
    target: int | None = None,
    seed: int | None = None,
    seat: str | None = None,
    bots: str | None = None,
    delay_ms: int = 400,
    record: str | Path | None = None,
    name: str = "You",
) -> PlayConfig:
    """Check every option; raise a one-line ``SpadesError`` naming the bad one."""
    r = parse_rules_text(rules, target=target)
    human = parse_seat(seat, r.players)
    specs, notes = resolve_bots(assign_bots(bots, r.players, human), r.players)
    if delay_ms < 0:
        raise SpadesError(_("--delay-ms: {ms} is negative").format(ms=delay_ms))
    if seed is None:
        seed = secrets.randbelow(2**31)
    path = Path(record).expanduser() if record is not None else default_record_path(seed)
    config = PlayConfig(
        rules=r,
        human=human,
        bots=specs,
        seed=seed,
        delay_ms=delay_ms,
        record_path=path,
        name=name,
        notes=notes,
    )
    return config
