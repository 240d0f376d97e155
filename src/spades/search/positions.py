"""Positions as text (the oracle's JSON lines) and as masks, and the checks between them.

One JSON object per position: ``hands`` (four hands' card text, North first), ``leader`` (the
seat that led the current trick, or leads next), optionally ``trick`` (cards on the table in
play order), ``spades_broken`` (default true) and ``trump`` (must be ``"S"`` if given).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from spades.cards import CardSet, parse_card
from spades.errors import SpadesError


class InvalidPosition(SpadesError):
    """A position that cannot be read or cannot happen."""


@dataclass(frozen=True, slots=True)
class Position:
    hands: tuple[int, int, int, int]
    leader: int
    trick: tuple[int, ...] = ()
    spades_broken: bool = True

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 4


def position_from_json(data: Any) -> Position:
    """Read one position object; raise ``InvalidPosition`` saying what is wrong."""
    if not isinstance(data, Mapping):
        raise InvalidPosition("a position must be a JSON object")
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != 4:
        raise InvalidPosition("hands must be a list of 4 hands")
    masks = []
    for seat, h in enumerate(hands):
        if not isinstance(h, (str, list)):
            raise InvalidPosition(f"hand {seat} must be card text")
        try:
            masks.append(CardSet.parse(h).mask)
        except SpadesError as e:
            raise InvalidPosition(f"hand {seat}: {e}") from None
    leader = data.get("leader")
    if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < 4:
        raise InvalidPosition(f"leader {leader!r} is not a seat 0..3")
    trump = data.get("trump", "S")
    if trump != "S":
        raise InvalidPosition(f"trump {trump!r}: spades are always trump")
    broken = data.get("spades_broken", True)
    if not isinstance(broken, bool):
        raise InvalidPosition("spades_broken must be true or false")
    raw_trick = data.get("trick", [])
    if not isinstance(raw_trick, list) or len(raw_trick) > 3:
        raise InvalidPosition("trick must be a list of at most 3 cards")
    try:
        trick = tuple(parse_card(c) if isinstance(c, str) else -1 for c in raw_trick)
    except SpadesError as e:
        raise InvalidPosition(f"trick: {e}") from None
    if -1 in trick:
        raise InvalidPosition("trick cards must be card text")
    pos = Position((masks[0], masks[1], masks[2], masks[3]), leader, trick, broken)
    check_position(pos)
    return pos


def check_position(pos: Position) -> None:
    """Cards dealt once, hands of equal size (counting cards on the table), a legal trick."""
    seen = 0
    for c in pos.trick:
        if seen >> c & 1:
            raise InvalidPosition(f"card {CardSet(1 << c)} is on the table twice")
        seen |= 1 << c
    for h in pos.hands:
        if h & seen:
            raise InvalidPosition(f"card {CardSet(h & seen).texts()[0]} is in two places")
        seen |= h
    sizes = [
        h.bit_count() + (1 if (seat - pos.leader) % 4 < len(pos.trick) else 0)
        for seat, h in enumerate(pos.hands)
    ]
    if len(set(sizes)) != 1 or not 1 <= sizes[0] <= 13:
        raise InvalidPosition(f"hands must hold 1 to 13 cards each, all the same, not {sizes}")
    if pos.trick and all(h == 0 for h in pos.hands):
        raise InvalidPosition("no card left to play")


def position_from_line(line: str) -> Position:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        raise InvalidPosition(f"unreadable JSON at column {e.colno}: {e.msg}") from None
    return position_from_json(data)
