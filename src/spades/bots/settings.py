"""Bot settings as data: each built-in bot declares what it accepts (``Bot.SETTINGS``), and
``make_bot`` checks a spec's ``key=value`` words against it before the bot is built.

Why data rather than constructor errors: a constructor fails late and in its own words
(``float('abc')`` is a traceback, an unknown keyword a ``TypeError`` naming ``__init__``),
and silently accepts what it can convert (``blind_nil=maybe``, ``aggression=9``). Declared
settings give every bot the same one-line error, naming the bot, the setting and what it
takes, and let help texts and tests list them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spades.errors import SpadesError

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting a bot accepts: ``kind`` is ``bool``, ``int`` or ``float``; whole numbers
    and numbers lie in ``low..high`` (both included)."""

    name: str
    kind: type
    default: bool | int | float
    help: str
    low: float | None = None
    high: float | None = None

    def allowed(self) -> str:
        """What the setting takes, in words: ``true or false``, ``a whole number from 1 to 10000``."""
        if self.kind is bool:
            return "true or false"
        what = "a whole number" if self.kind is int else "a number"
        return f"{what} from {_num(self.low)} to {_num(self.high)}"

    def describe(self) -> str:
        """``name``: what it takes, default, help (a line of a listing)."""
        return f"{self.name}: {self.allowed()}, default {_num(self.default)} ({self.help})"

    def convert(self, value: Any) -> bool | int | float | None:
        """The value as this setting's type if it is one it takes, else ``None``."""
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            return True if text in _TRUE else False if text in _FALSE else None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        if self.kind is int:
            if not isinstance(value, int):
                return None
            number: int | float = value
        else:
            number = float(value)
            if not math.isfinite(number):
                return None
        assert self.low is not None and self.high is not None
        return number if self.low <= number <= self.high else None


def _num(value: float | bool | None) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _shown(value: Any) -> str:
    """A value as typed, cut short: an error line stays one line whatever was typed."""
    if isinstance(value, str):
        text = value
    else:
        text = _num(value) if isinstance(value, (int, float)) else repr(value)
    text = " ".join(text.split())
    return repr(text if len(text) <= 24 else text[:21] + "...")


def check_settings(bot: str, declared: Sequence[Setting], given: Mapping[str, Any]) -> dict[str, Any]:
    """``given`` converted to each setting's type; a ``SpadesError`` of one line naming the bot,
    the setting and what it takes (or, for a name it does not know, the ones it knows)."""
    by_name = {s.name: s for s in declared}
    out: dict[str, Any] = {}
    for key, value in given.items():
        setting = by_name.get(key)
        if setting is None:
            known = f"settings: {', '.join(by_name)}" if by_name else f"{bot} takes no settings"
            raise SpadesError(f"bot {bot}: unknown setting {_shown(key)} ({known})")
        converted = setting.convert(value)
        if converted is None:
            raise SpadesError(f"bot {bot}: setting {key}={_shown(value)} must be {setting.allowed()}")
        out[key] = converted
    return out


__all__ = ["Setting", "check_settings"]
