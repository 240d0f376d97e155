"""The wire form of ``spec/bot-protocol.md``, shared by both ends so they cannot disagree.

Both ``ProgramBot`` (which talks to an outside program) and ``spades bot`` (which makes a
built-in bot such a program) turn typed actions into action words and back here, and agree
here on how the Blind Nil exchange is written: ``legal`` lists one ``pass C`` per card that
may still be chosen, and the answer is either one of them (a single card; the bot is asked
again for the next) or ``pass C1 .. Ck`` naming all ``pass_count`` cards still to choose.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from spades.actions import Action, Bid, Draw, Look, PassCard, PassCards, Play, parse_action
from spades.cards import CardSet, card_text
from spades.errors import SpadesError
from spades.observation import Observation
from spades.rules import Rules

PROTOCOL: Final = "spades-bot/1"
MAX_LINE: Final = 1 << 20
"""Longest line either end accepts (1 MiB): a runaway program cannot fill our memory."""


def action_word(action: Action) -> str:
    """The protocol text of one action (``play AS``, ``bid nil``, ``pass 2H``, ``keep``)."""
    if isinstance(action, Play):
        return f"play {card_text(action.card)}"
    if isinstance(action, PassCard):
        return f"pass {card_text(action.card)}"
    if isinstance(action, Bid | Look | PassCards | Draw):
        return action.text
    raise SpadesError(f"no protocol word for action {action!r}")


def legal_words(legal: Sequence[Action]) -> list[str]:
    return [action_word(a) for a in legal]


def pass_count(obs: Observation) -> int:
    """Cards the seat must still choose in the exchange (0 outside it)."""
    if obs.phase != "exchange":
        return 0
    chosen = 0 if obs.pass_chosen is None else len(obs.pass_chosen)
    return obs.rules.blind_nil_exchange - chosen


def rules_message(rules: Rules) -> dict[str, Any]:
    """``hello``'s rules: the nearest preset's name plus every option spelled out, so a bot in
    another language needs no table of presets (``Rules.from_spec`` reads it back exactly)."""
    spec = rules.to_spec()
    name = spec if isinstance(spec, str) else str(spec["preset"])
    return {"preset": name, **rules.to_dict()}


def encode(message: dict[str, Any]) -> bytes:
    """One JSON line, compact (the observation is sent at every decision)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def decode_line(line: bytes | str) -> dict[str, Any]:
    """Read one line as a JSON object; anything else is a ``SpadesError`` saying what it was."""
    if len(line) > MAX_LINE:
        raise SpadesError(f"line of {len(line)} bytes is longer than {MAX_LINE}")
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise SpadesError(f"malformed JSON: {e}") from None
    if not isinstance(data, dict):
        raise SpadesError(f"expected a JSON object, got {type(data).__name__}")
    return data


def legal_from_words(words: Sequence[str]) -> list[Action]:
    """The server side of ``legal``: words back to actions (``pass C`` is one ``PassCard``)."""
    out: list[Action] = []
    for w in words:
        if not isinstance(w, str):
            raise SpadesError(f"legal action {w!r} is not text")
        a = parse_action(w)
        if isinstance(a, PassCards):
            if len(a.cards) != 1:
                raise SpadesError(f"legal entry {w!r} must name one card")
            a = PassCard(next(iter(a.cards)))
        out.append(a)
    return out


def answer_word(action: Action, obs: Observation) -> str:
    """The server side of an answer. A whole pass is written without the cards already chosen
    (they are no longer in ``legal``), as ``pass_count`` cards."""
    if isinstance(action, PassCards) and obs.pass_chosen:
        return "pass " + " ".join((action.cards - obs.pass_chosen).texts())
    return action_word(action)


def read_answer(text: object, obs: Observation, legal: Sequence[Action]) -> Action:
    """The client side of an answer: the action, if it is legal now; else ``SpadesError``.

    Accepts every spelling ``parse_action`` reads (``bid 0`` for Nil, ``10H``, lower case). In
    the exchange, a single ``pass C`` is a step and ``pass C1 .. Ck`` with all the cards still
    to choose is the whole pass (returned as ``PassCards`` holding the earlier steps too).
    """
    if not isinstance(text, str):
        raise SpadesError(f"action {text!r} is not text")
    action = parse_action(text)
    if isinstance(action, PassCards):
        chosen = obs.pass_chosen or CardSet()
        new = action.cards - chosen
        steps = {a.card for a in legal if isinstance(a, PassCard)}
        if not steps:
            raise SpadesError(f"{text!r} is not legal now (not in the exchange)")
        outside = [c for c in new if c not in steps]
        if outside:
            raise SpadesError(f"{text!r}: {card_text(outside[0])} may not be passed")
        if len(action.cards) == 1 and len(new) == 1:
            return PassCard(next(iter(new)))
        if len(new) != pass_count(obs):
            raise SpadesError(f"{text!r} names {len(new)} new cards; pass 1 or {pass_count(obs)}")
        return PassCards(chosen | new)
    if action not in legal:
        raise SpadesError(f"{text!r} is not one of the legal actions")
    return action


__all__ = [
    "MAX_LINE",
    "PROTOCOL",
    "action_word",
    "answer_word",
    "decode_line",
    "encode",
    "legal_from_words",
    "legal_words",
    "pass_count",
    "read_answer",
    "rules_message",
]
