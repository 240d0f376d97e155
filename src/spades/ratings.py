"""Ratings of players and bots: OpenSkill (Weng-Lin, Plackett-Luce model), team-aware.

A partnership game is two teams of two, so both partners move together; solo is four teams
of one, three-player cutthroat three, two-player two. Ratings are kept by player id, a plain
string the caller chooses: account ids, or bot ids (:func:`bot_id`: ``bot:expert``,
``bot:heuristic:aggression=0.8``).

Which games count is the caller's rule, not this module's: the server rates a game only when
it was played under a standard preset, or under house rules at a table marked rated, and it
ended (a game abandoned half way is not rated); a tournament rates every game it plays.

The whole book is a JSON-able dict (:meth:`RatingBook.to_dict`), so the server can store it
in one row or one rating per account, and a tournament can print it.

    book = RatingBook()
    changes = book.rate_game([["ann", "bob"], ["bot:expert"]], ranks=[1, 2])
    changes["ann"].after.display      # 59: what a leaderboard shows
    book.get("ann").ordinal           # mu - 3 sigma, the conservative estimate
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

from spades.errors import SpadesError
from spades.rules import Rules

MODEL_NAME: Final = "PlackettLuce"
"""OpenSkill's model used; stored in :meth:`RatingBook.to_dict` so a later change is visible."""
MU: Final = 25.0
"""OpenSkill's default starting mean."""
SIGMA: Final = MU / 3
"""OpenSkill's default starting uncertainty."""
DISPLAY_SCALE: Final = 40
"""``display`` = round(40 x ordinal): a new player shows 0, a settled average one about 1000
(mu 25); big enough that one game moves it by whole numbers, small enough to read."""

_MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's skill: a mean ``mu`` and an uncertainty ``sigma``, after ``games`` rated
    games."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the skill the player has at least, with about 99.7% confidence;
        leaderboards sort by it, so one lucky game does not put a newcomer on top."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The number to show people: ``round(DISPLAY_SCALE * ordinal)`` (a newcomer 0)."""
        return round(DISPLAY_SCALE * self.ordinal)

    def to_dict(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Rating:
        """The inverse of :meth:`to_dict`; a bad value is a one-line ``SpadesError``."""
        try:
            mu, sigma, games = data["mu"], data["sigma"], data.get("games", 0)
        except (KeyError, TypeError):
            raise SpadesError(f"a rating needs mu and sigma, not {data!r}") from None
        numbers = (mu, sigma)
        if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in numbers):
            raise SpadesError(f"a rating's mu and sigma must be numbers, not {mu!r} and {sigma!r}")
        if not (math.isfinite(mu) and math.isfinite(sigma) and sigma > 0):
            raise SpadesError(f"a rating needs a finite mu and a positive sigma, not {mu!r} and {sigma!r}")
        if not isinstance(games, int) or isinstance(games, bool) or games < 0:
            raise SpadesError(f"a rating's games must be a whole number >= 0, not {games!r}")
        return Rating(float(mu), float(sigma), games)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one rated game did to one player (a server stores it for the rating-over-time plot)."""

    player: str
    before: Rating
    after: Rating

    @property
    def delta(self) -> float:
        """Change of the ordinal (the leaderboard value)."""
        return self.after.ordinal - self.before.ordinal

    @property
    def display_delta(self) -> int:
        return self.after.display - self.before.display


class RatingBook:
    """Ratings by player id; a player never rated has the starting :class:`Rating`.

    Not thread-safe: one writer (the server's rating worker, the tournament's parent process)
    updates it in the order games ended. The order matters: OpenSkill is sequential, so the
    same games in another order give slightly different ratings.
    """

    __slots__ = ("_ratings",)

    def __init__(self, ratings: Mapping[str, Rating] | None = None) -> None:
        self._ratings: dict[str, Rating] = dict(ratings or {})

    def get(self, player: str) -> Rating:
        return self._ratings.get(player, Rating())

    def __contains__(self, player: object) -> bool:
        return player in self._ratings

    def __len__(self) -> int:
        return len(self._ratings)

    def players(self) -> list[str]:
        return sorted(self._ratings)

    def set(self, player: str, rating: Rating) -> None:
        self._ratings[player] = rating

    def leaderboard(self, prefix: str | None = None) -> list[tuple[str, Rating]]:
        """Players (those whose id starts with ``prefix``, e.g. ``"bot:"``), best ordinal
        first; equal ordinals by id, so the order is stable."""
        rows = [(p, r) for p, r in self._ratings.items() if prefix is None or p.startswith(prefix)]
        rows.sort(key=lambda pr: (-pr[1].ordinal, pr[0]))
        return rows

    def rate_game(
        self,
        teams: Sequence[Sequence[str]],
        *,
        ranks: Sequence[float] | None = None,
        scores: Sequence[float] | None = None,
        fixed: Collection[str] = (),
    ) -> dict[str, RatingChange]:
        """Rate one game and update the book; return each updated player's change.

        ``teams``: the player ids of each side (a partnership: two ids; solo: one). Give the
        result as ``ranks`` (1 = first; equal ranks are a tie) or as ``scores`` (higher is
        better; the game's final totals will do). An id twice in one team counts once (two
        seats of the same bot are one partnership); an id in two teams (a bot level on both
        sides of a table) plays at its rating but is not updated, nor is any id in ``fixed``
        (a guest, an anchor). Bad input is a one-line ``SpadesError``; then nothing changes.
        """
        if len(teams) < 2:
            raise SpadesError(f"a rated game needs at least two teams, not {len(teams)}")
        result = ranks if ranks is not None else scores
        if (ranks is None) == (scores is None):
            raise SpadesError("give either ranks or scores")
        assert result is not None
        if len(result) != len(teams):
            raise SpadesError(f"{len(result)} results for {len(teams)} teams")
        if not all(isinstance(x, int | float) and math.isfinite(x) for x in result):
            raise SpadesError(f"results must be finite numbers, not {list(result)!r}")
        members: list[list[str]] = []
        seen: dict[str, int] = {}
        shared: set[str] = set()
        for t, team in enumerate(teams):
            if isinstance(team, str):
                raise SpadesError(f"team {t + 1} must be a list of player ids, not the string {team!r}")
            ids = list(dict.fromkeys(team))
            if not ids:
                raise SpadesError(f"team {t + 1} has no players")
            for p in ids:
                if not isinstance(p, str) or not p:
                    raise SpadesError(f"team {t + 1}: player ids must be non-empty strings, not {p!r}")
                if seen.setdefault(p, t) != t:
                    shared.add(p)
            members.append(ids)
        model_teams = [
            [_MODEL.rating(mu=self.get(p).mu, sigma=self.get(p).sigma) for p in ids] for ids in members
        ]
        if ranks is not None:
            rated = _MODEL.rate(model_teams, ranks=[float(r) for r in ranks])
        else:
            rated = _MODEL.rate(model_teams, scores=[float(s) for s in result])
        changes: dict[str, RatingChange] = {}
        for ids, new_team in zip(members, rated, strict=True):
            for p, new in zip(ids, new_team, strict=True):
                if p in shared or p in fixed:
                    continue
                before = self.get(p)
                after = Rating(float(new.mu), float(new.sigma), before.games + 1)
                changes[p] = RatingChange(p, before, after)
        for p, change in changes.items():
            self._ratings[p] = change.after
        return changes

    def predict_win(self, teams: Sequence[Sequence[str]]) -> list[float]:
        """OpenSkill's chance of each team winning (they add up to 1)."""
        model_teams = [
            [_MODEL.rating(mu=self.get(p).mu, sigma=self.get(p).sigma) for p in dict.fromkeys(team)]
            for team in teams
        ]
        return [float(x) for x in _MODEL.predict_win(model_teams)]

    def to_dict(self) -> dict[str, Any]:
        """``{"model": "PlackettLuce", "mu": 25.0, "sigma": 8.33, "players": {id: {mu, sigma,
        games}}}``: JSON-able, ids sorted."""
        return {
            "model": MODEL_NAME,
            "mu": MU,
            "sigma": SIGMA,
            "players": {p: self._ratings[p].to_dict() for p in sorted(self._ratings)},
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> RatingBook:
        if not isinstance(data, Mapping) or not isinstance(data.get("players", {}), Mapping):
            raise SpadesError("a rating book must be an object with a players object")
        model = data.get("model", MODEL_NAME)
        if model != MODEL_NAME:
            raise SpadesError(f"rating book of model {model!r}; this version rates with {MODEL_NAME}")
        players: Mapping[str, Any] = data.get("players", {})
        return RatingBook({str(p): Rating.from_dict(r) for p, r in players.items()})


# ---------------------------------------------------------------------- games to teams
def bot_id(spec: str) -> str:
    """The rating id of a bot spec: ``bot:`` + the spec, settings sorted, so
    ``heuristic:nil=false,aggression=0.8`` and ``heuristic:aggression=0.8,nil=false`` are one
    player. A spec that cannot be parsed is kept as written."""
    if spec.startswith("cmd:"):
        return f"bot:{spec}"
    name, _, rest = spec.partition(":")
    items = sorted(x.strip() for x in rest.split(",") if x.strip())
    return f"bot:{name.strip()}" + (f":{','.join(items)}" if items else "")


def teams_of(rules: Rules, seat_players: Sequence[str]) -> list[list[str]]:
    """The teams of a game from the player id at each seat: seats 0+2 and 1+3 in partnership
    games, one team per seat otherwise (side order, as ``HandScore`` lists sides)."""
    if len(seat_players) != rules.players:
        raise SpadesError(f"{len(seat_players)} players for {rules.players} seats")
    teams: list[list[str]] = [[] for _ in range(rules.sides)]
    for seat, player in enumerate(seat_players):
        teams[rules.side_of(seat)].append(player)
    return teams


def ranks_of(totals: Sequence[int], winner: int | None) -> list[int]:
    """Ranks (1 = first) of the sides of a finished game: the winner first (a rule such as
    ``lose_at`` can make him other than the highest total), the others by total, equal
    totals sharing a rank."""
    keys = [(0 if side == winner else 1, -total) for side, total in enumerate(totals)]
    order = sorted(set(keys))
    return [1 + order.index(k) for k in keys]


def rate_finished_game(
    book: RatingBook,
    rules: Rules,
    seat_players: Sequence[str],
    totals: Sequence[int],
    winner: int | None,
    *,
    fixed: Collection[str] = (),
) -> dict[str, RatingChange]:
    """Rate a game from its seats and final totals (``Game.totals``, ``Game.winner``): the
    call a server makes when a rated game ends."""
    return book.rate_game(teams_of(rules, seat_players), ranks=ranks_of(totals, winner), fixed=fixed)


def rate_many(book: RatingBook, games: Iterable[tuple[Sequence[Sequence[str]], Sequence[float]]]) -> None:
    """Rate ``(teams, ranks)`` pairs in order (rebuilding a book from a history of games)."""
    for teams, ranks in games:
        book.rate_game(teams, ranks=ranks)


__all__ = [
    "DISPLAY_SCALE",
    "MU",
    "SIGMA",
    "Rating",
    "RatingBook",
    "RatingChange",
    "bot_id",
    "ranks_of",
    "rate_finished_game",
    "rate_many",
    "teams_of",
]
