"""``spades analyse``: every card gets a value no better than the best, and the values chain."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from spades import record
from spades.cli import main
from spades.search import reference_solve
from spades.state import Game


def _one_hand_record(seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(seed=seed)
    while game.hand_number < 2 and not game.is_over:
        game.apply_code(rng.choice(game.legal_codes()))
    return game


def test_analysis_is_consistent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _one_hand_record(5)
    path = tmp_path / "game.json"
    record.save(path, game)
    assert main(["analyse", str(path), "--json"]) == 0
    hands = json.loads(capsys.readouterr().out)["hands"]
    plays = hands[0]["plays"]
    assert len(plays) == 52
    tricks = game.scores[0].tricks
    final = {0: tricks[0] + tricks[2], 1: tricks[1] + tricks[3]}
    for i, p in enumerate(plays):
        assert p["value"] <= p["best"] and p["loss"] == p["best"] - p["value"]
        assert p["card"] in p["best_cards"] or p["loss"] > 0
        if i + 1 < len(plays):
            # With perfect play after a card, the next player's best is the same outcome.
            nxt = plays[i + 1]
            same_side = nxt["seat"] % 2 == p["seat"] % 2
            mine = nxt["best"] if same_side else 13 - nxt["best"]
            assert mine == p["value"]
    last = plays[-1]
    assert last["value"] == final[last["seat"] % 2]


def test_last_tricks_match_reference() -> None:
    from spades.search.analysis import analyse_game

    game = _one_hand_record(5)
    result = analyse_game(game)[0]
    # Rebuild the position with 3 tricks left from the record cut there, and compare with the
    # plain-Python solver.
    data = record.to_record(game)
    data["hands"] = data["hands"][:1]
    data["hands"][0]["play"] = data["hands"][0]["play"][:40]
    replay = record.replay(data).game
    _, values = reference_solve(replay.hands, replay.trick_leader, replay.trick, replay.spades_broken)
    p = result.plays[40]
    side = p.seat % 2
    won = sum(replay.tricks_won[s] for s in (side, side + 2))
    left = replay.hands[p.seat].bit_count()
    assert p.value == won + (values[p.card] if side == 0 else left - values[p.card])


def test_bad_record_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{nope")
    assert main(["analyse", str(path)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def _one_hand_with_bids(seed: int, bid: int) -> Game:
    """A random hand in which every seat bids ``bid`` (score mode is slow while a Nil lives)."""
    rng = random.Random(seed)
    game = Game(seed=seed)
    while game.hand_number < 2 and not game.is_over:
        codes = game.legal_codes()
        want = 104 + bid
        game.apply_code(want if want in codes else rng.choice([c for c in codes if not 104 <= c <= 118]))
    return game


def test_score_mode_chains_to_the_hand_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """By the hand's score: each figure is what the next player's best gives (seen from the
    other side, negated), and the last card's figure is the score sheet's difference."""
    game = _one_hand_with_bids(11, 3)
    path = tmp_path / "game.json"
    record.save(path, game)
    assert main(["analyse", str(path), "--json", "--score"]) == 0
    hand = json.loads(capsys.readouterr().out)["hands"][0]
    assert hand["unit"] == "points"
    plays = hand["plays"]
    for p, nxt in itertools.pairwise(plays):
        assert p["value"] <= p["best"]
        mine = nxt["best"] if nxt["seat"] % 2 == p["seat"] % 2 else -nxt["best"]
        assert mine == p["value"]
    points = game.scores[0].points
    last = plays[-1]
    side = last["seat"] % 2
    assert last["value"] == points[side] - points[1 - side]


def test_progress_counts_every_card_and_leaves_stdout_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from spades.search.analysis import analyse_game

    game = _one_hand_record(5)
    seen: list[int] = []
    analyse_game(game, on_play=lambda: seen.append(1))
    assert len(seen) == sum(len(log.plays) for log in game.logs) == 52
    path = tmp_path / "game.json"
    record.save(path, game)
    assert main(["analyse", str(path), "--json", "--no-progress"]) == 0
    plain = capsys.readouterr().out
    assert main(["analyse", str(path), "--json", "--progress"]) == 0
    assert capsys.readouterr().out == plain


def test_score_mode_in_worker_processes_gives_the_same_analysis() -> None:
    """By score, hands go to worker processes (one per core): the same figures, in the game's
    order, as one process; the progress callback still counts every card."""
    from spades.search.analysis import analyse_game

    game = Game(seed=4)
    rng = random.Random(4)
    while game.hand_number < 3 and not game.is_over:
        codes = game.legal_codes()
        game.apply_code(107 if 107 in codes else rng.choice([c for c in codes if not 104 <= c <= 118]))
    seen: list[int] = []
    pooled = analyse_game(game, score=True, jobs=2, on_play=lambda: seen.append(1))
    assert [h.number for h in pooled] == [1, 2]
    assert pooled == analyse_game(game, score=True, jobs=1)
    assert len(seen) == sum(len(log.plays) for log in game.logs)
