"""One error family, so callers can catch ``SpadesError`` and show its one-line message.

Every error subclasses ``ValueError`` (as python-chess does) because each one means a value
handed to us was wrong; tracebacks are reserved for our own bugs.
"""

from __future__ import annotations


class SpadesError(ValueError):
    """Base of every error the package raises on bad input."""


class InvalidCard(SpadesError):
    """Card text that names no card."""


class InvalidRules(SpadesError):
    """An unknown preset, an unknown option, or an option value out of range."""


class IllegalAction(SpadesError):
    """An action the rules forbid in the current state; the message names seat, action and rule."""


class InvalidRecord(SpadesError):
    """A game record that cannot be read or that breaks a rule."""


def first_line(e: BaseException) -> str:
    """An exception as one short line for a log or a client (a driver's message can run to
    many lines, and a huge one must not flood either)."""
    lines = str(e).splitlines()
    return (lines[0] if lines else type(e).__name__)[:200]
