"""The expert's rollouts with ``contest``: the opponents keep taking tricks while the
deciding side's contract is not made, even with their own made; without it they duck bags
(unless they can set it only by taking nearly every trick left)."""

from __future__ import annotations

from spades.bots.expert_play import Table, play_mode, side_taken
from spades.rules import PRESETS

RULES = PRESETS["standard"]


def _mode(press: int, won: list[int], tricks_left: int, seat: int = 1) -> int:
    table = Table(RULES, [3, 2, 4, 2], press=press)  # North-South 7, East-West 4
    return play_mode(table, seat, won, side_taken(table, won), tricks_left)


def test_opponents_with_their_contract_made_contest_ours_when_pressed() -> None:
    won = [2, 4, 2, 0]  # East-West have their 4; North-South need 3 more, 5 tricks left
    assert _mode(press=-1, won=won, tricks_left=5) == 5  # duck: a set needs 3 of 5
    assert _mode(press=0, won=won, tricks_left=5) == 4  # contest North-South's contract


def test_no_contest_once_our_contract_is_made_or_already_lost() -> None:
    made = [4, 2, 3, 2]  # both sides have their contracts
    assert _mode(press=0, won=made, tricks_left=2) == 5
    lost = [1, 4, 0, 3]  # North-South need 6 with 5 left: already set, nothing to contest
    assert _mode(press=0, won=lost, tricks_left=5) == _mode(press=-1, won=lost, tricks_left=5)


def test_the_pressed_side_itself_plays_as_before() -> None:
    won = [2, 4, 2, 0]
    for seat in (0, 2):
        assert _mode(press=0, won=won, tricks_left=5, seat=seat) == _mode(-1, won, 5, seat=seat) == 4
