"""Rules as data: one frozen ``Rules`` value holds every option of ``spec/rules.md``.

Variants are values, not subclasses; presets are named values and overrides are applied on
top with ``Rules.from_spec``. Validation lives here so that every door into the engine
(Python, records, CLI, web, protocol) rejects a bad option with the same one-line message.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal, TypeGuard

from spades.errors import N_, InvalidRules, Text

SetPenalty = Literal["minus", "zero"]
BagsMode = Literal["carry", "reset", "off"]
FirstDealer = Literal["draw", "random"] | int
Bidding = Literal["free", "suicide", "whiz", "mirror"]
NilTricks = Literal["bags", "partner"]
SpadesLead = Literal["broken", "any"]
Jokers = Literal["big_little", "jjdd"] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """Every option of the rules; the defaults are the ``standard`` preset.

    The options after ``first_dealer`` are the house rules of ``docs/spec/house-rules.md``;
    all are off by default, so the presets of ``rules.md`` do not change."""

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
    bidding: Bidding = "free"
    suicide_min: int = 4
    big_bid: int | None = None
    team_min_bid: int = 0
    nil_tricks: NilTricks = "bags"
    spades_lead: SpadesLead = "broken"
    jokers: Jokers = None

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
            raise InvalidRules(N_("rules must be a preset name or an object, not {spec}"), spec=show(spec))
        options = dict(spec)
        preset_name = options.pop("preset", None)
        if preset_name is not None:
            if not isinstance(preset_name, str):
                raise InvalidRules(N_("preset must be a name, not {preset}"), preset=show(preset_name))
            start = preset(preset_name)
        else:
            start = base or PRESETS["standard"]
        values = start.to_dict()
        for name, value in options.items():
            if name not in values:
                raise InvalidRules(N_("unknown rule option {name}"), name=show(name))
            values[name] = value
        return Rules(**values)


RANGES: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "target": (1, 2000),
        "nil_bonus": (0, 1000),
        "blind_nil_bonus": (0, 2000),
        "blind_nil_exchange": (0, 13),
        "blind_nil_behind": (0, 4000),
        "bag_limit": (1, 100),
        "bag_penalty": (0, 2000),
        "lose_at": (-2000, 1999),
        "suicide_min": (1, 13),
        "big_bid": (10, 13),
        "team_min_bid": (0, 13),
    }
)
"""Inclusive range of every whole-number option: the one place these numbers live.

``_validate`` reads it, and so may a lobby form or a doc page. Why each bound:
``docs/rules-notes.md`` (Option ranges). The bounds keep the target within reach and every
score a small number: one hand moves a total by at most 10 * 26 + 13 + 2 * 2000 + 13 * 2000
points (a set contract of 26, thirteen bags, two Blind Nils, thirteen bag penalties). They
cannot make every game end whatever the players do: a side that is always set never reaches
the target (``lose_at`` ends such games). ``lose_at`` must also be below ``target``.
"""

NULLABLE: Final[frozenset[str]] = frozenset({"blind_nil_behind", "lose_at", "big_bid"})
"""Options of ``RANGES`` that may also be null (off)."""

CHOICES: Final[Mapping[str, tuple[object, ...]]] = MappingProxyType(
    {
        "players": (4, 2, 3),
        "teams": (True, False),
        "min_bid": (0, 1),
        "blind_nil": (True, False),
        "set_penalty": ("minus", "zero"),
        "bags": ("carry", "reset", "off"),
        "bidding": ("free", "suicide", "whiz", "mirror"),
        "nil_tricks": ("bags", "partner"),
        "spades_lead": ("broken", "any"),
        "jokers": (None, "big_little", "jjdd"),
    }
)
"""Options that take one of a few values; a value must equal one and be of its type, so
``1`` is not ``true`` and ``4.0`` is not ``4``."""


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


_LOG10_2 = 0.30102999566398120


def _digits(n: int) -> str:
    """Decimal digits of ``n`` without ``str(n)``, which Python refuses past 4,300 digits.

    ``n`` lies in [2**(b-1), 2**b), so it has d or d + 1 digits, d those of 2**(b-1); one
    comparison decides, unless ``n`` is so long that building 10**d would itself be slow."""
    n = abs(n)
    b = n.bit_length()
    d = int((b - 1) * _LOG10_2) + 1
    if b > 200_000:
        return f"about {d}"
    return str(d + 1 if n >= 10**d else d)


def _show_int(value: int) -> str:
    if value.bit_length() <= 100 and abs(value) < 10**30:  # up to 30 digits: printed as they are
        return repr(value)
    sign = "a negative" if value < 0 else "a"
    return f"{sign} number of {_digits(value)} digits"


class _ShortRepr(reprlib.Repr):
    """``reprlib`` with short limits, whose ints never go through ``str`` when huge."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 2
        self.maxstring = 40
        self.maxother = 40

    def repr_int(self, x: int, level: int) -> str:
        return _show_int(x)


_SHORT = _ShortRepr()
_SHOW_MAX = 60


def show(value: object) -> str:
    """A value as an error message may print it: one line, at most 60 characters, never
    raising (a 5,000-digit number is "a number of 5000 digits", a long string is cut)."""
    try:
        text = _show_int(value) if _is_int(value) else _SHORT.repr(value)
    except Exception:  # a foreign object whose repr fails still gets a message
        text = f"a value of type {type(value).__name__}"
    lines = text.splitlines()  # reprs of foreign objects may hold line breaks
    if len(lines) > 1:
        text = " ".join(lines)
    if len(text) > _SHOW_MAX:
        text = text[: _SHOW_MAX - 3] + "..."
    return text


def _spell(choice: object) -> str:
    """A choice as the records and the web spell it: true/false, null, 'name', 4."""
    if choice is None:
        return "null"
    if isinstance(choice, bool):
        return "true" if choice else "false"
    return repr(choice)


def _one_of(value: object, choices: tuple[object, ...]) -> bool:
    # Type first: an object whose == misbehaves (an array, say) is never compared.
    return any(type(value) is type(c) and value == c for c in choices)


def _validate(r: Rules) -> None:
    """Check every option alone (``RANGES``, ``CHOICES``), then the combinations.

    Options are checked in field order, so the first bad one is the one reported."""

    def bad(name: str, why: Text) -> InvalidRules:
        return InvalidRules(
            N_("rule option {name} = {value}: {why}"), name=name, value=show(getattr(r, name)), why=why
        )

    for field in dataclasses.fields(r):
        name = field.name
        value = getattr(r, name)
        if name in RANGES:
            if value is None and name in NULLABLE:
                continue
            low, high = RANGES[name]
            below = False
            if name == "lose_at" and _is_int(r.target):
                high, below = min(high, r.target - 1), True
            if not (_is_int(value) and low <= value <= high):
                if below:
                    raise bad(
                        name,
                        Text(
                            N_("must be null or a whole number {low}..{high} (below the target)"),
                            low=low,
                            high=high,
                        ),
                    )
                if name in NULLABLE:
                    raise bad(
                        name, Text(N_("must be null or a whole number {low}..{high}"), low=low, high=high)
                    )
                raise bad(name, Text(N_("must be a whole number {low}..{high}"), low=low, high=high))
        elif name in CHOICES:
            choices = CHOICES[name]
            if not _one_of(value, choices):
                spelled = [_spell(c) for c in choices]
                raise bad(
                    name,
                    Text(
                        N_("must be {choices} or {last}"), choices=", ".join(spelled[:-1]), last=spelled[-1]
                    ),
                )
    if r.teams and r.players != 4:
        raise bad("teams", Text(N_("partnerships need 4 players")))
    if r.blind_nil and r.min_bid != 0:
        raise bad("blind_nil", Text(N_("Blind Nil needs min_bid 0")))
    if r.blind_nil and r.players == 2:
        raise bad("blind_nil", Text(N_("the two-player draw shows every player his cards")))
    _validate_house_rules(r, bad)
    fd = r.first_dealer
    if not ((isinstance(fd, str) and fd in ("draw", "random")) or (_is_int(fd) and 0 <= int(fd) < r.players)):
        raise bad("first_dealer", Text(N_("must be 'draw', 'random' or a seat 0..{top}"), top=r.players - 1))


def _validate_house_rules(r: Rules, bad: Callable[[str, Text], InvalidRules]) -> None:
    """Combinations of the house rules that make no sense; each message names both options."""
    if r.jokers is not None and r.players != 4:
        raise bad(
            "jokers", Text(N_("jokers are for 4-player games (players = {players})"), players=r.players)
        )
    system = r.bidding
    if system == "suicide" and not r.teams:
        raise bad("bidding", Text(N_("suicide needs partnerships (teams = false)")))
    if system != "free" and r.min_bid != 0:
        raise bad(
            "bidding",
            Text(N_("{system} needs Nil bids (min_bid = {lowest})"), system=system, lowest=r.min_bid),
        )
    if system in ("whiz", "mirror") and r.blind_nil:
        raise bad("blind_nil", Text(N_("there is no Blind Nil with bidding {system}"), system=system))
    if r.team_min_bid:
        if not r.teams:
            raise bad("team_min_bid", Text(N_("a partnership minimum needs partnerships (teams = false)")))
        if system != "free":
            raise bad("team_min_bid", Text(N_("bidding {system} fixes the bids itself"), system=system))
    if r.nil_tricks == "partner" and not r.teams:
        raise bad(
            "nil_tricks",
            Text(N_("a Nil bidder's tricks go to a partner only in partnerships (teams = false)")),
        )


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "bicycle": Rules(teams=False, min_bid=1, blind_nil=False, set_penalty="zero"),
    "hoyle": Rules(blind_nil_exchange=0, bags="reset"),
    "two_player": Rules(players=2, teams=False, blind_nil=False),
    # The house-rule presets players know (docs/spec/house-rules.md), with their usual
    # companions (MSN, Trickster): a side at -200 loses.
    "suicide": Rules(bidding="suicide", lose_at=-200),
    "whiz": Rules(bidding="whiz", blind_nil=False, lose_at=-200),
    "mirror": Rules(bidding="mirror", blind_nil=False, lose_at=-200),
    "jokers": Rules(jokers="big_little"),
    "cutthroat3": Rules(players=3, teams=False),
}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise InvalidRules(
            N_("unknown preset {name} (known: {known})"), name=show(name), known=known
        ) from None
