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
