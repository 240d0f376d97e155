"""Statistics of players from their games: what a profile page shows and a plot draws.

The input is a replayed game (``spades.record.load(path).game``, or a table's event log
replayed into a ``Game``) and the player id at each seat (``None`` for a seat nobody is
counted for, such as a guest). Each seat of each game becomes a :class:`GameLine` of
:class:`HandLine` s, and a player's :class:`PlayerStats` add those up. Everything is a frozen
value and a pure function of its input; ``PlayerStats`` add (``a + b``), so a server can keep
a running total and add each game as it ends.

Definitions (the same words in ``docs/tournament.md`` and on the profile page):

- **games**: seats played (a player id at two seats of one game, e.g. a bot level seated
  twice, counts each seat); **finished**: of them, games that reached a winner; **wins**:
  finished games whose winning side is the player's (a game cut short is never a win).
- **hands**: hands played to the end and scored (a game's unfinished last hand is left out).
- **points per hand**: the player's *side's* points over his hands (the hand's change on the
  score sheet, Nil bonuses and bag penalties included), divided by hands.
- **bid accuracy**: over the player's *own* number bids (Nil and Blind Nil are not number
  bids), the share where his own tricks equal his own bid exactly; **mean bid error**: the
  mean of ``|own tricks - own bid|`` over the same bids; **over** / **under**: how many of
  them took more / fewer tricks than bid.
- **contracts**: hands where the player's side had a contract (a number bid, its own or its
  partner's); **sets**: of them, hands where the side took fewer tricks toward it than the
  contract (tricks of number bidders, plus a failed Nil's tricks under the house rule
  ``nil_tricks: partner``); **set rate** = sets / contracts.
- **bags per hand**: bags the player's side took in the hand (overtricks, and a failed
  Nil's tricks when they count as bags), before any penalty, divided by hands.
- **Nil bid rate**: the player's Nil bids (not Blind) / hands; **Nil made rate**: Nils made
  (no trick taken) / Nil bids. The same for **Blind Nil** separately.
- **partners**: in partnership games, how many games (seats) the player played with each
  partner id (``None`` partners, i.e. uncounted seats, are left out).
- **series**: every hand in order (feed games in the order they were played), for plots:
  :func:`rolling_points_per_hand` smooths it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any

from spades.errors import SpadesError
from spades.rules import Rules
from spades.scoring import HandScore, score_hand, side_seats
from spades.state import Game


@dataclass(frozen=True, slots=True)
class HandLine:
    """One scored hand seen from one seat."""

    game: str
    """The caller's key of the game (an id, a file name, a date): it labels plot points."""
    hand: int
    """1 for the game's first hand."""
    seat: int
    bid: int
    """Tricks bid; 0 for Nil and Blind Nil."""
    nil: bool
    """A Nil bid (plain, not Blind)."""
    blind: bool
    """A Blind Nil bid."""
    tricks: int
    """Tricks the seat took itself."""
    points: int
    """The side's points in the hand (its change on the score sheet)."""
    bags: int
    """Bags the side took in the hand, before penalties."""
    contract: int
    """The side's contract (0: no number bid on the side)."""
    set: bool
    """The side's contract failed."""
    total: int
    """The side's running total after the hand."""

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, slots=True)
class GameLine:
    """One seat of one game: who sat there, with whom, how it ended, and each hand."""

    game: str
    player: str
    seat: int
    partner: str | None
    finished: bool
    won: bool
    hands: tuple[HandLine, ...]


def _count(pairs: Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    c: Counter[str] = Counter()
    for name, n in pairs:
        c[name] += n
    return tuple(sorted(c.items()))


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's counts over some games (see the module docstring for each definition);
    the rates are properties, ``None`` where nothing was there to count (no Nil bid: no Nil
    made rate)."""

    games: int = 0
    finished: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    number_bids: int = 0
    exact_bids: int = 0
    over_bids: int = 0
    under_bids: int = 0
    bid_error: int = 0
    contracts: int = 0
    sets: int = 0
    bags: int = 0
    nil_bids: int = 0
    nil_made: int = 0
    blind_nil_bids: int = 0
    blind_nil_made: int = 0
    partners: tuple[tuple[str, int], ...] = ()
    """(partner id, games together), sorted by id."""
    series: tuple[HandLine, ...] = field(default=(), repr=False)
    """Every hand, in the order the games were given."""

    # ------------------------------------------------------------------ building
    @staticmethod
    def of(lines: Iterable[GameLine]) -> PlayerStats:
        """The stats of one player's game lines (all of the same player, or a ``SpadesError``)."""
        total = PlayerStats()
        player: str | None = None
        for line in lines:
            if player is not None and line.player != player:
                raise SpadesError(f"stats of one player: {player!r} and {line.player!r} mixed")
            player = line.player
            total = total + _stats_of_line(line)
        return total

    def __add__(self, other: PlayerStats) -> PlayerStats:
        counts = {
            f.name: getattr(self, f.name) + getattr(other, f.name)
            for f in fields(self)
            if f.name not in ("partners", "series")
        }
        return PlayerStats(
            **counts,
            partners=_count((*self.partners, *other.partners)),
            series=self.series + other.series,
        )

    # ------------------------------------------------------------------ rates
    @property
    def win_rate(self) -> float | None:
        """Wins / finished games."""
        return _ratio(self.wins, self.finished)

    @property
    def points_per_hand(self) -> float | None:
        return _ratio(self.points, self.hands)

    @property
    def bid_accuracy(self) -> float | None:
        """Share of own number bids made exactly (own tricks == own bid)."""
        return _ratio(self.exact_bids, self.number_bids)

    @property
    def mean_bid_error(self) -> float | None:
        """Mean |own tricks - own bid| over own number bids."""
        return _ratio(self.bid_error, self.number_bids)

    @property
    def set_rate(self) -> float | None:
        """Sets / hands with a contract on the side."""
        return _ratio(self.sets, self.contracts)

    @property
    def bags_per_hand(self) -> float | None:
        return _ratio(self.bags, self.hands)

    @property
    def nil_bid_rate(self) -> float | None:
        return _ratio(self.nil_bids, self.hands)

    @property
    def nil_made_rate(self) -> float | None:
        return _ratio(self.nil_made, self.nil_bids)

    @property
    def blind_nil_bid_rate(self) -> float | None:
        return _ratio(self.blind_nil_bids, self.hands)

    @property
    def blind_nil_made_rate(self) -> float | None:
        return _ratio(self.blind_nil_made, self.blind_nil_bids)

    def partner_counts(self) -> dict[str, int]:
        return dict(self.partners)

    # ------------------------------------------------------------------ JSON
    RATES = (
        "win_rate",
        "points_per_hand",
        "bid_accuracy",
        "mean_bid_error",
        "set_rate",
        "bags_per_hand",
        "nil_bid_rate",
        "nil_made_rate",
        "blind_nil_bid_rate",
        "blind_nil_made_rate",
    )
    """The derived values :meth:`to_dict` adds under ``rates``."""

    def to_dict(self, *, series: bool = True) -> dict[str, Any]:
        """JSON-able: every count, ``partners`` as ``{id: games}``, ``rates`` (the properties,
        ``null`` where undefined) and, unless ``series=False``, ``series`` (a list of
        :class:`HandLine` dicts)."""
        out: dict[str, Any] = {
            f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("partners", "series")
        }
        out["partners"] = dict(self.partners)
        out["rates"] = {name: getattr(self, name) for name in self.RATES}
        if series:
            out["series"] = [h.to_dict() for h in self.series]
        return out

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> PlayerStats:
        """The inverse of :meth:`to_dict` (``rates`` are recomputed, not read)."""
        try:
            counts = {
                f.name: int(data[f.name]) for f in fields(PlayerStats) if f.name not in ("partners", "series")
            }
            partners = _count((str(k), int(v)) for k, v in dict(data.get("partners", {})).items())
            series = tuple(HandLine(**h) for h in data.get("series", []))
        except (KeyError, TypeError, ValueError) as e:
            raise SpadesError(f"player statistics: bad or missing field {e}") from None
        return PlayerStats(**counts, partners=partners, series=series)


def _stats_of_line(line: GameLine) -> PlayerStats:
    hands = line.hands
    number = [h for h in hands if not (h.nil or h.blind)]
    return PlayerStats(
        games=1,
        finished=int(line.finished),
        wins=int(line.won),
        hands=len(hands),
        points=sum(h.points for h in hands),
        number_bids=len(number),
        exact_bids=sum(h.tricks == h.bid for h in number),
        over_bids=sum(h.tricks > h.bid for h in number),
        under_bids=sum(h.tricks < h.bid for h in number),
        bid_error=sum(abs(h.tricks - h.bid) for h in number),
        contracts=sum(h.contract > 0 for h in hands),
        sets=sum(h.set for h in hands),
        bags=sum(h.bags for h in hands),
        nil_bids=sum(h.nil for h in hands),
        nil_made=sum(h.nil and h.tricks == 0 for h in hands),
        blind_nil_bids=sum(h.blind for h in hands),
        blind_nil_made=sum(h.blind and h.tricks == 0 for h in hands),
        partners=((line.partner, 1),) if line.partner is not None else (),
        series=hands,
    )


# ---------------------------------------------------------------------- games to lines
@cache
def _bag_rules(rules: Rules) -> Rules:
    """The same rules with bags never penalised: scoring a hand from zero bags under them
    leaves the hand's new bags in ``HandScore.bags``, by the one definition of scoring."""
    return rules.replace(bags="off")


def _new_bags(rules: Rules, score: HandScore) -> tuple[int, ...]:
    zeros = [0] * rules.sides
    return score_hand(_bag_rules(rules), score.dealer, score.bids, score.tricks, zeros, zeros).bags


def _is_set(rules: Rules, score: HandScore, side: int) -> bool:
    contract = score.contracts[side]
    if contract <= 0:
        return False
    members = side_seats(rules, side)
    taken = sum(score.tricks[s] for s in members if not score.bids[s].is_nil)
    if rules.nil_tricks == "partner":  # house rule: a failed Nil's tricks count toward the contract
        taken += sum(score.tricks[s] for s in members if score.bids[s].is_nil)
    return taken < contract


def game_lines(game: Game, seat_players: Sequence[str | None], key: str = "") -> list[GameLine]:
    """One :class:`GameLine` per seat with a player id (``None`` seats are skipped), from a
    game in any state: only its scored hands count, and it is a win only once it is over."""
    rules = game.rules
    if len(seat_players) != rules.players:
        raise SpadesError(f"{len(seat_players)} player ids for {rules.players} seats")
    hand_rows: list[tuple[HandScore, tuple[int, ...]]] = [(s, _new_bags(rules, s)) for s in game.scores]
    lines: list[GameLine] = []
    for seat, player in enumerate(seat_players):
        if player is None:
            continue
        side = rules.side_of(seat)
        hands: list[HandLine] = []
        for number, (score, bags) in enumerate(hand_rows, start=1):
            bid = score.bids[seat]
            hands.append(
                HandLine(
                    game=key,
                    hand=number,
                    seat=seat,
                    bid=bid.tricks,
                    nil=bid.is_nil and not bid.blind,
                    blind=bid.blind,
                    tricks=score.tricks[seat],
                    points=score.points[side],
                    bags=bags[side],
                    contract=score.contracts[side],
                    set=_is_set(rules, score, side),
                    total=score.totals[side],
                )
            )
        partner_seat = rules.partner_of(seat)
        lines.append(
            GameLine(
                game=key,
                player=player,
                seat=seat,
                partner=None if partner_seat is None else seat_players[partner_seat],
                finished=game.is_over,
                won=game.is_over and game.winner == side,
                hands=tuple(hands),
            )
        )
    return lines


def player_stats(
    games: Iterable[tuple[Game, Sequence[str | None]] | tuple[Game, Sequence[str | None], str]],
) -> dict[str, PlayerStats]:
    """Stats of every player id in ``games``: ``(game, seat_players)`` or ``(game,
    seat_players, key)``, in the order they were played; ids sorted."""
    by_player: dict[str, PlayerStats] = {}
    for item in games:
        game, seats = item[0], item[1]
        key = item[2] if len(item) == 3 else ""
        for line in game_lines(game, seats, key):
            by_player[line.player] = by_player.get(line.player, PlayerStats()) + _stats_of_line(line)
    return dict(sorted(by_player.items()))


def rolling_points_per_hand(series: Sequence[HandLine], window: int = 20) -> list[float]:
    """For a plot of points per hand over time: entry i is the mean side points of the hands
    ``max(0, i - window + 1) .. i`` (the first entries average fewer hands)."""
    if window < 1:
        raise SpadesError(f"window {window}: must be at least 1")
    out: list[float] = []
    running = 0
    for i, h in enumerate(series):
        running += h.points
        if i >= window:
            running -= series[i - window].points
        out.append(running / min(i + 1, window))
    return out


__all__ = [
    "GameLine",
    "HandLine",
    "PlayerStats",
    "game_lines",
    "player_stats",
    "rolling_points_per_hand",
]
