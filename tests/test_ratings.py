"""Ratings: the book must agree with OpenSkill's own model called directly, game after game,
and keep the rules it adds (partners move together, a shared id is not updated, JSON round
trips, ranks from a game's totals)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from spades.errors import SpadesError
from spades.ratings import (
    MU,
    SIGMA,
    Rating,
    RatingBook,
    bot_id,
    ranks_of,
    rate_finished_game,
    teams_of,
)
from spades.rules import PRESETS

POOL = [f"p{i}" for i in range(7)]


@st.composite
def games(draw: st.DrawFn) -> tuple[list[list[str]], list[int]]:
    """A game of 2..4 teams of 1..2 distinct players, with ranks (ties allowed)."""
    n_teams = draw(st.integers(2, 4))
    size = draw(st.integers(1, 2))
    players = draw(st.permutations(POOL))[: n_teams * size]
    teams = [players[i * size : (i + 1) * size] for i in range(n_teams)]
    ranks = draw(st.lists(st.integers(1, n_teams), min_size=n_teams, max_size=n_teams))
    return teams, ranks


@settings(max_examples=60, deadline=None)
@given(st.lists(games(), min_size=1, max_size=8))
def test_the_book_follows_openskill_called_directly(history: list[tuple[list[list[str]], list[int]]]) -> None:
    model = PlackettLuce(mu=MU, sigma=SIGMA)
    direct = {p: model.rating(mu=MU, sigma=SIGMA) for p in POOL}
    book = RatingBook()
    for teams, ranks in history:
        rated = model.rate([[direct[p] for p in team] for team in teams], ranks=ranks)
        for team, new in zip(teams, rated, strict=True):
            for p, r in zip(team, new, strict=True):
                direct[p] = r
        changes = book.rate_game(teams, ranks=ranks)
        assert set(changes) == {p for team in teams for p in team}
    for p in POOL:
        assert book.get(p).mu == pytest.approx(direct[p].mu, abs=1e-12)
        assert book.get(p).sigma == pytest.approx(direct[p].sigma, abs=1e-12)
        assert book.get(p).ordinal == pytest.approx(direct[p].ordinal(), abs=1e-12)
    games_played = {p: sum(p in t for teams, _ in history for t in teams) for p in POOL}
    assert all(book.get(p).games == games_played[p] for p in POOL)


def test_scores_mean_the_same_as_ranks_and_follow_openskill() -> None:
    model = PlackettLuce()
    teams = [["a", "b"], ["c", "d"]]
    by_score = RatingBook()
    by_score.rate_game(teams, scores=[-120, 510])
    by_rank = RatingBook()
    by_rank.rate_game(teams, ranks=[2, 1])
    direct = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], scores=[-120, 510]
    )
    for book in (by_score, by_rank):
        assert book.get("c").mu == pytest.approx(direct[1][0].mu)
        assert book.get("a").sigma == pytest.approx(direct[0][0].sigma)


def test_partners_move_together_and_the_winners_go_up() -> None:
    book = RatingBook()
    changes = book.rate_game([["ann", "bob"], ["cal", "dan"]], ranks=[1, 2])
    assert changes["ann"].after == changes["bob"].after
    assert changes["ann"].delta > 0 > changes["cal"].delta
    assert changes["ann"].after.display > 0 > changes["cal"].after.display
    assert changes["ann"].before == Rating() and changes["ann"].after.games == 1
    assert [p for p, _ in book.leaderboard()] == ["ann", "bob", "cal", "dan"]


def test_a_bot_on_both_sides_is_not_updated_but_the_person_is() -> None:
    """One person with three experts: the expert sits on both teams, so its result is
    ambiguous; the person's rating moves against the expert's strength."""
    book = RatingBook({"bot:expert": Rating(mu=35.0, sigma=2.0, games=500)})
    changes = book.rate_game([["ann", "bot:expert"], ["bot:expert", "bot:expert"]], ranks=[1, 2])
    assert set(changes) == {"ann"}
    assert book.get("bot:expert") == Rating(35.0, 2.0, 500)
    model = PlackettLuce()
    direct = model.rate(
        [[model.rating(), model.rating(mu=35.0, sigma=2.0)], [model.rating(mu=35.0, sigma=2.0)]], ranks=[1, 2]
    )
    assert book.get("ann").mu == pytest.approx(direct[0][0].mu)


def test_a_fixed_player_plays_at_his_rating_and_keeps_it() -> None:
    book = RatingBook()
    changes = book.rate_game([["ann"], ["guest:7"]], ranks=[2, 1], fixed={"guest:7"})
    assert set(changes) == {"ann"} and "guest:7" not in book
    assert book.get("ann").mu < MU


def test_json_round_trip() -> None:
    book = RatingBook()
    book.rate_game([["a", "b"], ["c", "d"]], ranks=[1, 2])
    book.rate_game([["a"], ["c"], ["e"]], scores=[10, 5, 10])
    again = RatingBook.from_dict(json.loads(json.dumps(book.to_dict())))
    assert again.to_dict() == book.to_dict()
    assert all(again.get(p) == book.get(p) for p in book.players())


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda b: b.rate_game([["a"]], ranks=[1]), "at least two teams"),
        (lambda b: b.rate_game([["a"], ["b"]]), "either ranks or scores"),
        (lambda b: b.rate_game([["a"], ["b"]], ranks=[1]), "1 results for 2 teams"),
        (lambda b: b.rate_game([["a"], []], ranks=[1, 2]), "team 2 has no players"),
        (lambda b: b.rate_game(["ab", ["c"]], ranks=[1, 2]), "team 1 must be a list"),
        (lambda b: b.rate_game([["a"], ["b"]], ranks=[1, float("nan")]), "finite numbers"),
        (lambda b: RatingBook.from_dict({"players": {"a": {"mu": 1}}}), "needs mu and sigma"),
        (lambda b: RatingBook.from_dict({"players": {"a": {"mu": 1, "sigma": -1}}}), "positive sigma"),
        (lambda b: RatingBook.from_dict({"model": "Glicko", "players": {}}), "model 'Glicko'"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(call: object, words: str) -> None:
    book = RatingBook()
    with pytest.raises(SpadesError) as e:
        call(book)  # type: ignore[operator]
    assert words in str(e.value) and "\n" not in str(e.value)
    assert len(book) == 0


def test_bot_ids_are_stable_under_setting_order() -> None:
    assert bot_id("expert") == "bot:expert"
    assert bot_id("heuristic:nil=false,aggression=0.8") == bot_id("heuristic: aggression=0.8, nil=false")
    assert bot_id("heuristic:aggression=0.8") == "bot:heuristic:aggression=0.8"
    assert bot_id("cmd:./my bot --fast") == "bot:cmd:./my bot --fast"


def test_teams_and_ranks_of_a_game() -> None:
    assert teams_of(PRESETS["standard"], ["a", "b", "c", "d"]) == [["a", "c"], ["b", "d"]]
    assert teams_of(PRESETS["cutthroat3"], ["a", "b", "c"]) == [["a"], ["b"], ["c"]]
    assert ranks_of([510, 320], 0) == [1, 2]
    assert ranks_of([120, 300, 300], 0) == [1, 2, 2]  # lose_at: the winner need not lead
    assert ranks_of([200, 200, 90, 500], 3) == [2, 2, 3, 1]
    with pytest.raises(SpadesError, match="3 players for 4 seats"):
        teams_of(PRESETS["standard"], ["a", "b", "c"])


def test_rate_finished_game_rates_the_partnerships() -> None:
    book = RatingBook()
    rate_finished_game(book, PRESETS["standard"], ["a", "b", "c", "d"], [520, 310], 0)
    assert book.get("a") == book.get("c") and book.get("a").mu > MU > book.get("b").mu
