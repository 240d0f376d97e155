"""Computer players by name: ``make_bot("heuristic")``, ``make_bot("expert:samples=40")``.

A spec is a bot name with optional ``key=value`` settings after a colon, separated by commas;
``cmd:PROGRAM ARGS`` seats an outside program speaking ``spec/bot-protocol.md``.
"""

from __future__ import annotations

import importlib
from typing import Any

from spades.bots.base import Bot, Decision
from spades.errors import SpadesError

# name -> (module, class); imported lazily so a light bot never pays for a heavy one.
REGISTRY: dict[str, tuple[str, str]] = {
    "random": ("spades.bots.random", "RandomBot"),
    "heuristic": ("spades.bots.heuristic", "HeuristicBot"),
    "expert": ("spades.bots.expert", "ExpertBot"),
}


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


def make_bot(spec: str, *, seed: int | None = None) -> Bot:
    """Build a bot from its spec; an unknown name or setting is a one-line ``SpadesError``."""
    if spec.startswith("cmd:"):
        try:
            from spades.protocol.client import ProgramBot  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise SpadesError("outside bots (cmd:) are not available in this build") from None
        bot: Bot = ProgramBot(spec[4:], seed=seed)
        return bot
    name, settings = parse_spec(spec)
    if name not in REGISTRY:
        raise SpadesError(f"unknown bot {name!r} (known: {', '.join(REGISTRY)}, cmd:PROGRAM)")
    module_name, class_name = REGISTRY[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise SpadesError(f"bot {name!r} is not available in this build") from None
    cls = getattr(module, class_name)
    try:
        made: Bot = cls(seed=seed, **settings)
    except TypeError as e:
        raise SpadesError(f"bad setting for bot {name!r}: {e}") from None
    return made


__all__ = ["REGISTRY", "Bot", "Decision", "make_bot", "parse_spec"]
