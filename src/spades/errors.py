"""One error family, so callers can catch ``SpadesError`` and show its one-line message.

Every error subclasses ``ValueError`` (as python-chess does) because each one means a value
handed to us was wrong; tracebacks are reserved for our own bugs.

An error's text is English for Python callers (``str(e)``), and it also keeps its message id
(an ``N_()``-marked template) and named values, so a screen can show it in the player's
language (``spades.i18n.localized``) and a server can send both (``as_json``). A value that
is itself a ``Text`` (a seat name, "hand 3, trick 2", the rule that refused a bid) is
translated too; any other value is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def N_(message: str) -> str:
    """Marks a template for extraction into the catalogs (``pybabel extract -k N_``); the
    text stays English here and is translated where it is shown."""
    return message


def english(msgid: str, fields: Mapping[str, object]) -> str:
    """``msgid`` with its values, in English (a template without values is its own text, so
    one holding a brace from a ``repr`` is never formatted)."""
    if not fields:
        return msgid
    try:
        return msgid.format(**fields)
    except (KeyError, IndexError, ValueError):
        return msgid


class Text(str):
    """English text that remembers its message id and named values.

    A ``str`` (it prints, compares, joins and pickles as the English), so code that only
    shows it needs no change; ``spades.i18n.localized`` shows it in another language and
    :func:`as_json` sends it to a page that does the same."""

    msgid: str
    fields: dict[str, object]

    def __new__(cls, msgid: str, /, **fields: object) -> Text:
        self = super().__new__(cls, english(msgid, fields))
        self.msgid = msgid
        self.fields = fields
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_text, (self.msgid, self.fields))

    def __repr__(self) -> str:
        return f"Text({self.msgid!r}, **{self.fields!r})"


def _text(msgid: str, fields: dict[str, object]) -> Text:
    return Text(msgid, **fields)


def as_json(value: object) -> object:
    """A ``Text`` as ``{"msgid", "fields"}`` for a client (a field that is a ``Text`` nests the
    same way; other values are JSON numbers or strings)."""
    if isinstance(value, Text):
        return {"msgid": value.msgid, "fields": {k: as_json(v) for k, v in value.fields.items()}}
    if isinstance(value, bool | int | float) or value is None:
        return value
    return str(value)


def from_json(value: object) -> object:
    """The inverse of :func:`as_json`: ``{"msgid", "fields"}`` back into a ``Text``."""
    if isinstance(value, dict) and isinstance(value.get("msgid"), str):
        fields = value.get("fields") or {}
        return Text(value["msgid"], **{str(k): from_json(v) for k, v in dict(fields).items()})
    return value


def reply_fields(message: object, prefix: str = "") -> dict[str, object]:
    """What a server adds beside an English ``message`` so a page can translate it:
    ``{"msgid": ..., "fields": {...}}`` for a ``Text`` or an engine error (``prefix`` names
    them, e.g. ``why_msgid``), nothing for plain text (an error raised with ready-made English,
    whose text is in no catalog)."""
    if isinstance(message, SpadesError):
        message = message.text
    if not isinstance(message, Text):
        return {}
    if not message.fields:
        from spades.i18n import is_message_id  # (i18n imports this module)

        if not is_message_id(message.msgid):  # ready-made English text: nothing to translate
            return {}
    body = as_json(message)
    assert isinstance(body, dict)
    return {f"{prefix}msgid": body["msgid"], f"{prefix}fields": body["fields"]}


class SpadesError(ValueError):
    """Base of every error the package raises on bad input.

    ``SpadesError(N_("seat {seat} is not at the table"), seat="5")``: ``str(e)`` is the
    English line; ``e.msgid`` and ``e.fields`` let a screen translate it. An error raised
    with ready-made text (or a ``Text``) keeps working: the text is its own id."""

    msgid: str
    fields: dict[str, object]

    def __init__(self, msgid: object = "", /, **fields: object) -> None:
        if isinstance(msgid, Text | SpadesError) and not fields:  # a Text, or re-raised as another kind
            fields = dict(msgid.fields)
            msgid = msgid.msgid
        msgid = str(msgid)
        super().__init__(english(msgid, fields))
        self.msgid = msgid
        self.fields = fields

    @property
    def text(self) -> Text:
        """The message as a ``Text`` (for ``localized`` or ``as_json``)."""
        return Text(self.msgid, **self.fields)


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
