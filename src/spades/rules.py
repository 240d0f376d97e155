"""Rules as data: one frozen ``Rules`` value holds every option of ``spec/rules.md``.

Variants are values, not subclasses; presets are named values and overrides are applied on
top with ``Rules.from_spec``. Validation lives here so that every door into the engine
(Python, records, CLI, web, protocol) rejects a bad option with the same one-line message.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from spades.errors import InvalidRules

SetPenalty = Literal["minus", "zero"]
BagsMode = Literal["carry", "reset", "off"]
FirstDealer = Literal["draw", "random"] | int


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """Every option of the rules; the defaults are the ``standard`` preset."""

    players: int = 4
    teams: bool = True
    target: int = 500
    min_bid: int = 0
    nil_bonus: int = 100
    blind_nil: bool = True
    blind_nil_bonus: int = 200
    blind_nil_exchange: int = 3
    blind_nil_behind: int | None = None
    set_penalty: SetPenalty = "minus"
    bags: BagsMode = "carry"
    bag_limit: int = 10
    bag_penalty: int = 100
    lose_at: int | None = None
    first_dealer: FirstDealer = "draw"

    def __post_init__(self) -> None:
        _validate(self)

    # Derived facts the engine asks for often; kept here so every client agrees on them.
    @property
    def sides(self) -> int:
        """Number of scoring sides: 2 teams, or one per seat in solo and two-player games."""
        return 2 if self.teams else self.players

    @property
    def nil_allowed(self) -> bool:
        return self.min_bid == 0

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    def partner_of(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.teams else None

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def to_spec(self) -> dict[str, Any] | str:
        """The shortest record form: the closest preset name plus the options that differ."""
        best_name, best_diff = "standard", self._diff(PRESETS["standard"])
        for name, preset in PRESETS.items():
            diff = self._diff(preset)
            if len(diff) < len(best_diff):
                best_name, best_diff = name, diff
        if not best_diff:
            return best_name
        return {"preset": best_name, **best_diff}

    def _diff(self, other: Rules) -> dict[str, Any]:
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(other, f.name)
        }

    def replace(self, **overrides: Any) -> Rules:
        return Rules.from_spec(overrides, base=self)

    @staticmethod
    def from_spec(spec: str | Mapping[str, Any] | None, *, base: Rules | None = None) -> Rules:
        """Build rules from a preset name, or a mapping with an optional ``preset`` and overrides.

        ``None`` means ``standard``. Unknown names and bad values raise ``InvalidRules``.
        """
        if spec is None:
            return base or PRESETS["standard"]
        if isinstance(spec, str):
            return preset(spec)
        if not isinstance(spec, Mapping):
            raise InvalidRules(f"rules must be a preset name or an object, not {spec!r}")
        options = dict(spec)
        preset_name = options.pop("preset", None)
        if preset_name is not None:
            if not isinstance(preset_name, str):
                raise InvalidRules(f"preset must be a name, not {preset_name!r}")
            start = preset(preset_name)
        else:
            start = base or PRESETS["standard"]
        values = start.to_dict()
        for name, value in options.items():
            if name not in values:
                raise InvalidRules(f"unknown rule option {name!r}")
            values[name] = value
        return Rules(**values)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(r: Rules) -> None:
    def bad(name: str, why: str) -> InvalidRules:
        return InvalidRules(f"rule option {name} = {getattr(r, name)!r}: {why}")

    for name in ("target", "nil_bonus", "blind_nil_bonus", "bag_penalty", "bag_limit"):
        if not _is_int(getattr(r, name)):
            raise bad(name, "must be a whole number")
    if r.players not in (2, 4) or not _is_int(r.players):
        raise bad("players", "must be 4 or 2")
    if not isinstance(r.teams, bool):
        raise bad("teams", "must be true or false")
    if r.teams and r.players != 4:
        raise bad("teams", "partnerships need 4 players")
    if r.min_bid not in (0, 1) or not _is_int(r.min_bid):
        raise bad("min_bid", "must be 0 or 1")
    if not isinstance(r.blind_nil, bool):
        raise bad("blind_nil", "must be true or false")
    if r.blind_nil and r.min_bid != 0:
        raise bad("blind_nil", "Blind Nil needs min_bid 0")
    if r.blind_nil and r.players == 2:
        raise bad("blind_nil", "the two-player draw shows every player his cards")
    if not _is_int(r.blind_nil_exchange) or not 0 <= r.blind_nil_exchange <= 13:
        raise bad("blind_nil_exchange", "must be 0..13")
    if r.blind_nil_behind is not None and not _is_int(r.blind_nil_behind):
        raise bad("blind_nil_behind", "must be null or a whole number")
    if r.set_penalty not in ("minus", "zero"):
        raise bad("set_penalty", "must be 'minus' or 'zero'")
    if r.bags not in ("carry", "reset", "off"):
        raise bad("bags", "must be 'carry', 'reset' or 'off'")
    if r.bag_limit < 1:
        raise bad("bag_limit", "must be at least 1")
    if r.target < 1:
        raise bad("target", "must be at least 1")
    if r.lose_at is not None and not _is_int(r.lose_at):
        raise bad("lose_at", "must be null or a whole number")
    if r.lose_at is not None and r.lose_at >= r.target:
        raise bad("lose_at", "must be below the target")
    fd = r.first_dealer
    if not (fd in ("draw", "random") or (_is_int(fd) and 0 <= int(fd) < r.players)):
        raise bad("first_dealer", f"must be 'draw', 'random' or a seat 0..{r.players - 1}")


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "bicycle": Rules(teams=False, min_bid=1, blind_nil=False, set_penalty="zero"),
    "hoyle": Rules(blind_nil_exchange=0, bags="reset"),
    "two_player": Rules(players=2, teams=False, blind_nil=False),
}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise InvalidRules(f"unknown preset {name!r} (known: {known})") from None
