"""Computer players by name: ``make_bot("heuristic")``, ``make_bot("expert:samples=40")``.

A spec is a bot name with optional ``key=value`` settings after a colon, separated by commas;
``cmd:PROGRAM ARGS`` seats an outside program speaking ``docs/spec/bot-protocol.md``. Each
built-in bot declares its settings as data (``Bot.SETTINGS``, ``spades.bots.settings``), and
a spec is checked against them before the bot is built. A named level (``beginner``,
``club``, ``expert``: ``spades.bots.levels``) is a spec by another name, and takes the same
settings as the bot it plays, which override the level's own.
"""

from __future__ import annotations

import importlib
from typing import Any

from spades.bots.base import Bot, Decision
from spades.bots.levels import LEVELS, level_of
from spades.bots.settings import Setting, check_settings
from spades.errors import SpadesError

# name -> (module, class); imported lazily so a light bot never pays for a heavy one.
REGISTRY: dict[str, tuple[str, str]] = {
    "random": ("spades.bots.random", "RandomBot"),
    "heuristic": ("spades.bots.heuristic", "HeuristicBot"),
    "expert": ("spades.bots.expert", "ExpertBot"),
}
BOTS: tuple[str, ...] = tuple(REGISTRY)
"""The built-in bots by their own names (each with its own settings); the levels below are not."""
# A level is known wherever a bot name is (the server's seat check, availability): it is
# listed under the bot it plays, and ``make_bot`` adds the level's settings.
for _level in LEVELS:
    REGISTRY.setdefault(_level.name, REGISTRY[_level.bot])


def _value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    if spec.startswith("cmd:"):  # the rest is a command line, not settings
        return "cmd", {"command": spec[4:]}
    name, _, rest = spec.partition(":")
    settings: dict[str, Any] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, val = item.partition("=")
        if not eq or not key:
            raise SpadesError(f"bot setting {item!r} in {spec!r} is not key=value")
        settings[key.strip()] = _value(val.strip())
    return name.strip(), settings


def _bot_class(name: str) -> type[Bot]:
    if name not in REGISTRY:
        raise SpadesError(f"unknown bot {name!r} (known: {', '.join(REGISTRY)}, cmd:PROGRAM)")
    module_name, class_name = REGISTRY[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise SpadesError(f"bot {name!r} is not available in this build") from None
    cls: type[Bot] = getattr(module, class_name)
    return cls


def check_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """The bot name and its settings converted to their declared types, without building the
    bot (so a command can refuse a bad spec at once); an unknown name or a bad setting is a
    one-line ``SpadesError``. A ``cmd:`` spec is returned as it is: its program is not run.
    A level's settings come first and the spec's own override them (``beginner:mistakes=0``)."""
    name, settings = parse_spec(spec)
    if name == "cmd":
        return name, settings
    level = level_of(name)
    if level is not None and level.spec != name:
        _base, preset = parse_spec(level.spec)
        settings = {**preset, **settings}
    return name, check_settings(name, _bot_class(name).SETTINGS, settings)


def make_bot(spec: str, *, seed: int | None = None) -> Bot:
    """Build a bot from its spec; an unknown name or setting is a one-line ``SpadesError``."""
    if spec.startswith("cmd:"):
        try:
            from spades.protocol.client import ProgramBot  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise SpadesError("outside bots (cmd:) are not available in this build") from None
        bot: Bot = ProgramBot(spec[4:], seed=seed)
        return bot
    name, settings = check_spec(spec)
    made: Bot = _bot_class(name)(seed=seed, **settings)  # type: ignore[call-arg]
    return made


def bot_settings(name: str) -> tuple[Setting, ...]:
    """The settings built-in bot ``name`` takes, as declared (imports its module)."""
    return _bot_class(name).SETTINGS


__all__ = [
    "BOTS",
    "LEVELS",
    "REGISTRY",
    "Bot",
    "Decision",
    "Setting",
    "bot_settings",
    "check_spec",
    "make_bot",
    "parse_spec",
]
