"""Named bot levels (``spades.bots.levels``): each is a spec everywhere a spec is taken, its
settings can be overridden after a colon, a beginner's slips are legal, seeded and honest,
and the menus (lobby, ``spades play --bots list``) offer the levels in each language."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.actions import Bid, Play
from spades.bots import REGISTRY, check_spec, make_bot
from spades.bots.heuristic import HeuristicBot
from spades.bots.levels import LEVELS, level_of, levels_on, offered
from spades.driver import apply_decision
from spades.errors import SpadesError
from spades.i18n import set_language
from spades.ratings import bot_id
from spades.rules import PRESETS
from spades.state import Game
from test_bots_common import checked_game


def test_every_level_is_a_known_spec_with_its_settings() -> None:
    for level in LEVELS:
        name, given_settings = check_spec(level.name)
        assert name == level.name and level.name in REGISTRY
        _base, own = check_spec(level.spec)
        assert given_settings == own  # the level plays exactly its spec
        assert bot_id(level.name) == f"bot:{level.name}"  # rated under its own short name
    assert [level.name for level in LEVELS] == ["beginner", "club", "expert"]


def test_a_level_builds_its_bot_and_settings_after_a_colon_override_the_levels() -> None:
    bot = make_bot("beginner", seed=1)
    assert isinstance(bot, HeuristicBot)
    assert bot.mistakes == pytest.approx(0.3) and not bot.allow_blind_nil and not bot.allow_nil
    bot = make_bot("beginner:mistakes=0.1,nil=true", seed=1)
    assert isinstance(bot, HeuristicBot) and bot.mistakes == pytest.approx(0.1) and bot.allow_nil
    club = make_bot("club", seed=1)
    assert isinstance(club, HeuristicBot) and club.mistakes == 0 and club.allow_blind_nil
    with pytest.raises(
        SpadesError, match=r"^bot beginner: setting mistakes='2' must be a number from 0 to 1$"
    ):
        check_spec("beginner:mistakes=2")
    with pytest.raises(SpadesError, match="unknown bot 'grandmaster'"):
        make_bot("grandmaster")


def test_menus_offer_the_levels_the_build_has() -> None:
    assert offered({"random", "heuristic"}) == ["beginner", "club"]
    assert offered({"random", "heuristic", "expert"}) == ["beginner", "club", "expert"]
    assert levels_on("heuristic") == {"beginner", "club"}
    assert level_of("club") is not None and level_of("club:x=1") is None


def test_the_server_lists_levels_and_plays_them_inline(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from spades.server.app import create_app
    from spades.server.compute import FAST_BOTS

    assert {"beginner", "club"} <= FAST_BOTS and "expert" not in FAST_BOTS
    with TestClient(create_app(f"sqlite:///{tmp_path / 'levels.db'}", hint_level="heuristic")) as c:
        bots = c.get("/api/info").json()["bots"]
        assert bots[:2] == ["beginner", "club"] and "random" in bots and "expert" not in bots
        seats = [{"open": True, "name": "Ann"}, {"bot": "beginner"}, {"bot": "club"}, {"bot": "beginner"}]
        r = c.post("/api/tables", json={"seats": seats, "bot_delay_ms": 0})
        assert r.status_code == 200, r.text


def test_play_lists_the_levels_in_the_players_language() -> None:
    from spades.tui.config import bot_label, level_menu

    try:
        set_language("fr")
        lines = level_menu()
        assert lines[0].startswith("beginner  Débutant : ")
        assert any(line.startswith("club      Joueur de club : ") for line in lines)
        assert bot_label("club") == "Joueur de club" and bot_label("club:aggression=1") == "club:aggression=1"
    finally:
        set_language("en")


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_beginner_plays_only_legal_actions(seed: int) -> None:
    game = checked_game(PRESETS["standard"].replace(target=200), ["beginner", "club"], seed, max_hands=2)
    assert len(game.scores) >= 1


def test_slips_are_seeded_by_the_position_and_none_at_zero() -> None:
    """Same seed, same slips, whatever the bot decided before; ``mistakes=0`` is the club."""
    game = Game(PRESETS["standard"].replace(blind_nil=False), seed=3)
    spec = "beginner:mistakes=0.5,nil=true,blind_nil=true"  # only the slips differ from the club
    beginner = [make_bot(spec, seed=s) for s in range(4)]
    again = [make_bot(spec, seed=s) for s in range(4)]
    club = [make_bot("heuristic", seed=s) for s in range(4)]
    zero = [make_bot("beginner:mistakes=0,nil=true,blind_nil=true", seed=s) for s in range(4)]
    slips = 0
    while len(game.scores) < 1:
        seat = game.to_move
        assert seat is not None
        obs, legal = game.observation(seat), game.legal_actions(seat)
        a = beginner[seat].decide(obs, legal)
        again[seat].decide(obs, legal)  # a second ask of the same position...
        assert again[seat].decide(obs, legal).action == a.action  # ...gives the same answer
        careful = club[seat].decide(obs, legal)
        assert zero[seat].decide(obs, legal).action == careful.action
        assert a.action in legal
        if a.action != careful.action:
            slips += 1
            assert "slip" in a.why
            assert isinstance(a.action, (Play, Bid))
            if isinstance(a.action, Bid):
                assert isinstance(careful.action, Bid) and abs(a.action.tricks - careful.action.tricks) == 1
        apply_decision(game, seat, careful.action)  # follow the careful line: one position set
    assert slips >= 5  # half of 50-odd choices with a real alternative
