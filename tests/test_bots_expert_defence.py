"""The expert defends against a Nil: it plays under the Nil bidder so he must take the trick
(a set Nil is a 200-point swing), rather than winning the trick itself."""

from __future__ import annotations

from spades.actions import Play
from spades.bots.expert import ExpertBot
from spades.cards import CardSet
from test_bots_expert import _card, _trick_one


def test_second_hand_plays_under_the_nil_bidders_lead() -> None:
    # North bid Nil and leads 9H. East (expert) holds AH JH 8H 2H; South (his partner, who
    # would cover) holds only low hearts, West the other high ones: East stays under the nine.
    for seed in range(2):
        g = _trick_one(
            {0: "9H", 1: "AH JH 8H 2H", 2: "4H 3H", 3: "KH QH TH 5H"},
            seed,
            ["nil", 3, 4, 3],
            ["9H"],
            dealer=3,
        )
        d = ExpertBot(seed=seed, samples=24, time_ms=0).decide(g.observation(1), g.legal_actions(1))
        assert isinstance(d.action, Play) and d.action.card in set(CardSet.parse("8H 2H")), d.why
        assert "nil" in d.why


def test_fourth_hand_lets_the_nil_bidder_win_the_trick() -> None:
    # North (Nil) led 9H, East 2H, South 4H: West (expert) holds KH QH 3H; 3H leaves North the
    # trick and his Nil broken, where a queen or king would save it.
    for seed in range(2):
        g = _trick_one(
            {0: "9H", 1: "AH JH 2H", 2: "4H", 3: "KH QH 3H"},
            seed,
            ["nil", 3, 4, 3],
            ["9H", "2H", "4H"],
            dealer=3,
        )
        d = ExpertBot(seed=seed, samples=24, time_ms=0).decide(g.observation(3), g.legal_actions(3))
        assert d.action == Play(_card("3H")), d.why
