"""A record written at any moment loads back to the same game: the same summary, the same
seat to move and legal actions, the same observations (looks not yet followed by a bid and
a half-chosen pass are not part of a record, so those seats are compared once they act)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades import Game, Rules, record
from spades.rules import PRESETS
from spades.state import Phase
from test_engine_properties import rule_sets


@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6), steps=st.integers(0, 250))
def test_record_at_any_moment_loads_to_the_same_game(preset: str, seed: int, steps: int) -> None:
    check_moment(PRESETS[preset].replace(target=150), seed, steps)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 10**6), steps=st.integers(0, 250))
def test_record_of_any_rule_combination_loads_to_the_same_game(rules: Rules, seed: int, steps: int) -> None:
    check_moment(rules, seed, steps)


def check_moment(rules: Rules, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply_code(rng.choice(game.legal_codes()))
    loaded = record.loads(record.dumps(game)).game
    assert record.summary(loaded) == record.summary(game)
    assert record.dumps(loaded) == record.dumps(game)
    if game.phase is Phase.DEAL:
        return
    assert loaded.to_move == game.to_move
    transient = game.phase is Phase.BID or game.pending_pass
    if not transient:
        assert loaded.legal_codes() == game.legal_codes()
    for seat in range(game.n):
        if transient and game.phase is Phase.BID and game.bid[seat] == -1:
            continue  # a look before the bid is not recorded
        mine, theirs = game.observation(seat).to_json(), loaded.observation(seat).to_json()
        mine.pop("pass_chosen", None)
        assert theirs == mine
