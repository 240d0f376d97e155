"""Every message a client may send, as pydantic models: anything else is refused unchanged.

The schema checks shape only (types, sizes, known fields); whether an action is allowed is
for the engine alone to say. Limits here are the server's promises: small messages, short
names, at most 13 cards in a pass, bids up to 17 (the 17 tricks of a three-player hand; the
engine refuses a bid over the hand's size).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

MAX_MESSAGE_BYTES = 2048
MAX_NAME = 24
MAX_BID = 17
"""The largest bid of any rule set: a three-player hand has 17 tricks (``legal.Deck.max_bid``)."""
Token = Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_\-]+$")]
CardText = Annotated[str, Field(min_length=2, max_length=3)]


class _Msg(BaseModel):
    # strict: a bid of ``true`` or ``"3"`` is refused, not read as 1 or 3.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def clean_name(value: str) -> str:
    """Names are shown to others: strip control characters and squeeze spaces. Escaping is
    the page's job (it only ever sets text, never HTML)."""
    cleaned = "".join(ch for ch in value if ch.isprintable())
    cleaned = " ".join(cleaned.split())
    if not cleaned:
        raise ValueError("a name needs at least one visible character")
    return cleaned[:MAX_NAME]


class Hello(_Msg):
    """``token``: the seat's own token; ``invite``: an invite link's one-time ticket, answered
    with ``{"type": "seat", "seat", "token"}``; ``prior``: at a rematch, the token this
    browser held at the old table, answered the same way; none: a spectator."""

    type: Literal["hello"]
    token: Token | None = None
    invite: Token | None = None
    prior: Token | None = None


class Join(_Msg):
    type: Literal["join"]
    name: Annotated[str, Field(min_length=1, max_length=64)]

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return clean_name(v)


class LookMsg(_Msg):
    type: Literal["look"]


class BidMsg(_Msg):
    type: Literal["bid"]
    bid: Annotated[int, Field(ge=0, le=MAX_BID)] | Literal["nil", "blind_nil"]


class PassMsg(_Msg):
    type: Literal["pass"]
    cards: Annotated[list[CardText], Field(min_length=1, max_length=13)]


class PlayMsg(_Msg):
    type: Literal["play"]
    card: CardText


class DrawMsg(_Msg):
    type: Literal["draw"]
    keep: bool


class HintMsg(_Msg):
    type: Literal["hint"]


class Ping(_Msg):
    type: Literal["ping"]


QuickPhrase = Literal["hello", "good_luck", "well_played", "thanks", "sorry", "oops", "good_game", "bye"]
"""The table chat's quick phrases, sent as ids: each page shows them in its own language."""
MAX_CHAT = 200


class ChatMsg(_Msg):
    """A line of table chat: a quick phrase (by id) or free text (shown as text, never HTML)."""

    type: Literal["chat"]
    quick: QuickPhrase | None = None
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)] | None = None

    @field_validator("text")
    @classmethod
    def _text(cls, v: str | None) -> str | None:
        if v is None:
            return None
        cleaned = " ".join("".join(ch for ch in v if ch.isprintable()).split())
        if not cleaned:
            raise ValueError("a chat line needs at least one visible character")
        return cleaned


ClientMessage = Annotated[
    Hello | Join | LookMsg | BidMsg | PassMsg | PlayMsg | DrawMsg | HintMsg | Ping | ChatMsg,
    Field(discriminator="type"),
]
client_message: TypeAdapter[Any] = TypeAdapter(ClientMessage)

BOT_LEVELS = ("random", "heuristic", "expert")


class SeatSpec(_Msg):
    """A seat at creation: ``{"open": true}`` for a person, ``{"bot": "heuristic"}`` for a bot."""

    open: bool = False
    bot: Annotated[str, Field(max_length=40)] | None = None
    name: Annotated[str, Field(min_length=1, max_length=64)] | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else clean_name(v)


class CreateTable(_Msg):
    rules: dict[str, Any] | str | None = None
    seats: Annotated[list[SeatSpec], Field(min_length=2, max_length=4)]
    bot_delay_ms: Annotated[int, Field(ge=0, le=10_000)] = 600
    hints: bool = True
    chat: bool = True
    away_s: Annotated[float, Field(ge=1, le=3600)] = 60.0
    rated: bool = False
    """Rate the game under house rules too (games under a preset are always rated)."""


class Rematch(_Msg):
    """``POST /api/tables/{id}/rematch``: the starter's seat token at the finished table (a
    signed-in account's bound seat needs none)."""

    token: Token | None = None


class RulesCheck(_Msg):
    """``POST /api/rules/check``: rules as a create request gives them."""

    rules: dict[str, Any] | str | None = None


class Claim(_Msg):
    seat: Annotated[int, Field(ge=0, le=3)]
    name: Annotated[str, Field(min_length=1, max_length=64)]

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return clean_name(v)


def first_error(exc: Exception) -> str:
    """One line from a pydantic ValidationError: where and what."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            items = errors()
        except Exception:
            items = []
        if items:
            e = items[0]
            loc = ".".join(str(x) for x in e.get("loc", ()) if x != "type") or "message"
            return f"{loc}: {e.get('msg', 'invalid')}"
    return str(exc).splitlines()[0]
