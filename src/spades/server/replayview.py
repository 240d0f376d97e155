"""What the replay page shows: a record checked by the engine, laid out hand by hand and trick
by trick, with its shuffle proofs checked. The page only draws; the engine judges.

A record comes from anyone, so reading it is bounded: ``parse_record_json`` refuses a body that
is too big, not UTF-8, nested too deep or holding absurd numbers with a one-line
``SpadesError`` (never a crash), and ``replay_view`` replays the record once, front to back,
taking each hand's tricks as the replay passes them (time linear in the record), and refuses
a record over ``MAX_HANDS`` hands or one that takes longer than its time budget.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Mapping
from typing import Any, NoReturn

from spades.cards import CardSet, card_text
from spades.errors import SpadesError
from spades.observation import bid_value
from spades.record import replay
from spades.server.fairness import verify_record
from spades.state import Game

MAX_RECORD_BYTES = 2_000_000
"""Largest body ``parse_record_json`` reads (a 400-hand record is about 220 kB)."""
MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted (a record needs 4)."""
MAX_DIGITS = 30
"""Most digits in one JSON number (a record's largest number is a score: 5 or 6 digits)."""
MAX_HANDS = 1000
"""Most hands a record may hold for the replay page (a game to 500 lasts about 10 to 30)."""
REPLAY_BUDGET_S = 10.0
"""Time a replay may take, checked between hands (one hand replays in well under 1 ms)."""

_LONE_SURROGATE = re.compile(r"\\[uU][dD][89a-fA-F]")
"""A ``\\uD8xx``-style escape: the only way a JSON text can smuggle in a string that cannot
be written back out as UTF-8 (a lone surrogate), so strings are checked only if one occurs."""


# ---------------------------------------------------------------------- reading the body
def parse_record_json(body: bytes, *, max_bytes: int = MAX_RECORD_BYTES) -> Any:
    """Parse an uploaded record, refusing with a one-line ``SpadesError`` whatever could
    crash or stall the server later: more than ``max_bytes``, bytes that are not UTF-8,
    invalid JSON, ``NaN``/``Infinity``, numbers of more than ``MAX_DIGITS`` digits (Python
    would refuse past 4300 anyway, after spending time on them), nesting deeper than
    ``MAX_DEPTH`` and strings holding a lone surrogate (the answer could not be encoded)."""
    if len(body) > max_bytes:
        raise SpadesError(f"the record is over {max_bytes} bytes")
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SpadesError(
            f"the record is not UTF-8 text: byte {body[e.start]:#04x} at offset {e.start}"
        ) from None
    try:
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise SpadesError(f"the record is not JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise SpadesError(f"the record nests arrays and objects deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:  # our hooks, or Python's own limits
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise SpadesError(f"the record is not usable JSON: {why}") from None
    _check_shape(data, check_strings=_LONE_SURROGATE.search(text) is not None)
    return data


def _digits(text: str) -> int:
    return sum(ch.isdigit() for ch in text)


def _too_long(text: str) -> NoReturn:
    shown = text if len(text) <= 12 else text[:12] + "…"
    raise ValueError(f"the number {shown} has {_digits(text)} digits, more than {MAX_DIGITS}")


def _parse_int(text: str) -> int:
    if len(text) > MAX_DIGITS + 1 and _digits(text) > MAX_DIGITS:
        _too_long(text)
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_DIGITS and _digits(text) > MAX_DIGITS:
        _too_long(text)
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text} is too large")
    return value


def _no_constant(text: str) -> NoReturn:
    raise ValueError(f"{text} is not a JSON number")


def _check_shape(data: Any, *, check_strings: bool) -> None:
    """Nesting depth (and, if asked, every string's encodability), without recursion."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            items: Any = value.values()
            if check_strings:
                for key in value:
                    _check_string(key)
        elif isinstance(value, list):
            items = value
        else:
            if check_strings and isinstance(value, str):
                _check_string(value)
            continue
        if depth > MAX_DEPTH:
            raise SpadesError(f"the record nests arrays and objects deeper than {MAX_DEPTH} levels")
        for item in items:
            if isinstance(item, (dict, list)) or (check_strings and isinstance(item, str)):
                stack.append((item, depth + 1))


def _check_string(s: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise SpadesError(
            "the record holds a string with a lone surrogate escape (\\ud800-\\udfff)"
        ) from None


# ---------------------------------------------------------------------- the view
class _OverBudget(SpadesError):
    """The replay ran out of time or hands: the page gets the message instead of a view."""


def replay_view(data: Any, *, deadline: float | None = None, max_hands: int = MAX_HANDS) -> dict[str, Any]:
    """The replay page's layout of a parsed record. Never raises on bad input: a broken
    record, or one over budget (more than ``max_hands`` hands, or still replaying at
    ``deadline``, a ``time.monotonic()`` value, checked between hands), comes back as
    ``{"error": "..."}``.

    One pass: ``replay`` calls back after each hand, while the game still holds that hand's
    tricks and current trick (the next deal clears them), and the view takes them there."""
    if isinstance(data, Mapping):
        hands_in = data.get("hands")
        if isinstance(hands_in, list) and len(hands_in) > max_hands:
            return {"error": f"the record has {len(hands_in)} hands; a replay shows at most {max_hands}"}
    played: list[tuple[list[dict[str, Any]], dict[str, Any]]] = []

    def on_hand(number: int, game: Game) -> None:
        played.append(
            (
                [
                    {"leader": t.leader, "cards": [card_text(c) for c in t.cards], "winner": t.winner}
                    for t in game.tricks
                ],
                {"leader": game.trick_leader, "cards": [card_text(c) for c in game.trick]},
            )
        )
        if deadline is not None and time.monotonic() > deadline:
            raise _OverBudget(f"the record took too long to replay (stopped after hand {number})")

    try:
        rep = replay(data, on_hand=on_hand)
    except SpadesError as e:
        return {"error": str(e)}
    assert isinstance(data, Mapping)
    game = rep.game
    hands: list[dict[str, Any]] = []
    for i, log in enumerate(game.logs):
        tricks, current = played[i]
        score = game.scores[i] if i < len(game.scores) else None
        hands.append(
            {
                "number": i + 1,
                "dealer": log.dealer,
                "deal": [CardSet(m).texts() for m in log.dealt],
                "bids": [bid_value(b) for b in log.bids],
                "exchange": [
                    {"from": ex.giver, "to": ex.receiver, "cards": ex.cards.texts()} for ex in log.exchanges
                ],
                "tricks": tricks,
                "current": current,
                "score": None
                if score is None
                else {
                    "tricks": list(score.tricks),
                    "points": list(score.points),
                    "bags": list(score.bags),
                    "totals": list(score.totals),
                },
            }
        )
    proofs: list[dict[str, Any]] = []
    proof_error = None
    if data.get("proofs"):
        try:
            _, checks = verify_record(data, replayed=rep)
            proofs = [{"hand": c.hand, "ok": c.ok, "why": c.why, "commit": c.commit} for c in checks]
        except SpadesError as e:
            proof_error = str(e)
    return {
        "error": None,
        "players": list(rep.players),
        "n": game.n,
        "teams": game.rules.teams,
        "rules": game.rules.to_spec(),
        "hands": hands,
        "totals": list(game.totals),
        "winner": game.winner,
        "proofs": proofs,
        "proof_error": proof_error,
    }


def view_json(view: dict[str, Any]) -> bytes:
    """A view as a response body, byte for byte as Starlette's ``JSONResponse`` renders it."""
    return json.dumps(view, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode(
        "utf-8"
    )


def replay_body(body: bytes, *, budget_s: float = REPLAY_BUDGET_S) -> dict[str, Any]:
    """``POST /api/replay`` in one call: parse the body (raising a one-line ``SpadesError``)
    and lay the record out within ``budget_s`` seconds from now."""
    data = parse_record_json(body)
    return replay_view(data, deadline=time.monotonic() + budget_s)


__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_HANDS",
    "MAX_RECORD_BYTES",
    "REPLAY_BUDGET_S",
    "parse_record_json",
    "replay_body",
    "replay_view",
    "view_json",
]
