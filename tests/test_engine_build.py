"""The compiled (mypyc) and pure-Python engines are the same engine: snapshots name every
attribute, the stale-build check notices an edit, and junk is refused the same way."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from pathlib import Path

import pytest

import spades.state as state_module
from spades import Bid, Game, HandScore, IllegalAction, Play, Rules, scoring
from spades._native import compiled_modules, is_compiled, pure_requested, stale_line
from spades.state import _GAME_LONG, _RULE_TABLES, _SNAP_LISTS, _STATE_ATTRS


def _attributes(game: Game) -> set[str]:
    if hasattr(game, "__dict__"):
        return set(vars(game))
    return set(type(game).__mypyc_attrs__)  # type: ignore[attr-defined]


@pytest.mark.parametrize("rules", [Rules(), Rules(players=2, teams=False, blind_nil=False)])
def test_snapshots_name_every_attribute_of_a_game(rules: Rules) -> None:
    game = Game(rules, seed=3)
    assert set(_STATE_ATTRS) | set(_GAME_LONG) | set(_RULE_TABLES) == _attributes(game)
    assert not set(_STATE_ATTRS) & set(_GAME_LONG)
    assert set(_SNAP_LISTS) <= set(_STATE_ATTRS)
    refs = game._state_refs()
    assert len(refs) == len(_STATE_ATTRS)
    assert all(v is getattr(game, name) for name, v in zip(_STATE_ATTRS, refs, strict=True))


def test_undo_of_a_whole_hand_restores_every_attribute() -> None:
    game = Game(Rules(blind_nil=False), seed=11)
    before = {name: getattr(game, name) for name in _STATE_ATTRS}
    before = {k: list(v) if isinstance(v, list) else v for k, v in before.items()}
    moves = 0
    while game.hand_number == 1:
        game.apply_code(game.legal_codes()[0])
        moves += 1
    for _ in range(moves):
        game.undo()
    assert {name: getattr(game, name) for name in _STATE_ATTRS} == before


def test_junk_fields_are_illegal_actions_not_type_errors() -> None:
    # The compiled module must not check a caller's values against the annotations.
    game = Game(Rules(blind_nil=False), seed=2)
    for bad in (Play("AS"), Play(None), 3.0, "x", None):  # type: ignore[arg-type]
        with pytest.raises(IllegalAction):
            game.apply(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        game.apply_code("104")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        game.make_bid(4.5)  # type: ignore[arg-type]


def test_the_stale_check_compares_the_source_with_the_baked_hash(tmp_path: Path) -> None:
    source = tmp_path / "state.py"
    source.write_text("x = 1\n")
    built = str(tmp_path / "state.cpython-311-x86_64-linux-gnu.so")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    assert stale_line("state", built, {"state.py": digest}) is None
    source.write_text("x = 2\n")
    line = stale_line("state", built, {"state.py": digest})
    assert line is not None and "pip install -e ." in line and "\n" not in line
    assert stale_line("state", built, {}) is not None  # a build without its stamp
    assert stale_line("state", str(source), {}) is None  # pure Python is never stale


def test_compiled_modules_reports_what_runs() -> None:
    built = is_compiled(str(state_module.__file__))
    assert compiled_modules() == (["state", "legal", "scoring"] if built else [])


def test_the_compiled_hand_score_sets_every_field() -> None:
    # scoring._hand_score fills a frozen HandScore field by field when compiled: a field
    # added to the class but not there would be missing from every score.
    names = [f.name for f in dataclasses.fields(HandScore)]
    for seed in range(20):
        game = Game(Rules(), seed=seed)
        while game.hand_number == 1:
            game.apply_code(game.legal_codes()[0])
        score = game.scores[0]
        assert score == HandScore(**{name: getattr(score, name) for name in names})
        assert [name for name in names if not hasattr(score, name)] == []
    made = scoring._hand_score(1, (Bid(3),) * 4, (3, 3, 3, 4), (6, 6), (60, 61), (0, 1), (60, 61), (0, 0))
    assert made == HandScore(1, (Bid(3),) * 4, (3, 3, 3, 4), (6, 6), (60, 61), (0, 1), (60, 61), (0, 0))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.dealer = 2  # type: ignore[misc]


def test_ci_tests_the_compiled_engine_and_pure_python_when_asked() -> None:
    # A fresh install that silently fell back to pure Python (setup.py only warns, and pip -q
    # hides it) would leave the compiled engine untested and the README's speed untrue. CI
    # installs with a compiler, so there the engine must be compiled, except in scripts/test's
    # second pass, which asks for pure Python and must get it.
    if pure_requested():
        assert compiled_modules() == []
    elif os.environ.get("CI", "").strip() not in ("", "0", "false"):
        assert compiled_modules() == ["state", "legal", "scoring"], (
            "CI runs the pure-Python engine: mypyc could not compile it (pip install -v -e . shows why)"
        )
    else:
        assert compiled_modules() in ([], ["state", "legal", "scoring"])
