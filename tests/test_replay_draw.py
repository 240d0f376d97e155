"""The two-player draw in ``spades replay``'s text: every step, as the engine played it, and
in a one-seat view (``--seat``) nothing of the other player's draw.

The goldens hold the text of ``tests/golden/two_player_stock.json``; after a reviewed change
of that record or of the text, write them again with
``spades replay tests/golden/two_player_stock.json > tests/golden/two_player_stock.replay.txt``
(and ``--seat south`` into ``two_player_stock.replay-south.txt``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades import Game, Rules, record
from spades.actions import Draw
from spades.cards import card_text
from spades.cli import main
from spades.report import DrawStep, describe, draw_steps
from spades.state import Phase

GOLDEN = Path(__file__).parent / "golden"
CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")
PLAYERS = ("Sue", "Ned")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("args", "golden"), [((), "replay"), (("--seat", "south"), "replay-south")])
def test_golden_text_of_the_two_player_record(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], golden: str
) -> None:
    code, out, err = run(capsys, *args, str(GOLDEN / "two_player_stock.json"))
    assert (code, err) == (0, "")
    assert out == (GOLDEN / f"two_player_stock.{golden}.txt").read_text()
    assert out.count("  Draw from the stock, ") == out.count("Hand ") == 5


def test_a_seat_by_number_is_the_same_view_and_a_wrong_seat_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(GOLDEN / "two_player_stock.json")
    assert run(capsys, "--seat", "0", path)[1] == run(capsys, "--seat", "South", path)[1]
    code, out, err = run(capsys, "--seat", "west", path)
    assert code == 1 and out == "" and "'west' is not a seat of this 2-player game" in err


def draw_section(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("  Draw")]


def played_draw(seed: int, choices: list[bool], steps: int) -> tuple[Game, list[DrawStep]]:
    """A two-player hand drawn by the engine with these keep/throw choices, stopped after
    ``steps`` turns (26: the whole draw); returns the game and each turn as it happened."""
    game = Game(Rules.from_spec("two_player"), seed=seed)
    done = []
    for k in range(steps):
        seat, top = game.to_move, game.stock_top
        assert seat is not None and top is not None
        keep = choices[k % len(choices)]
        done.append(DrawStep(seat, top, keep, game.stock[game.stock_pos + 1]))
        game.apply(Draw(keep), seat)
    assert (game.phase is Phase.DRAW) == (steps < 26)
    return game, done


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    choices=st.lists(st.booleans(), min_size=1, max_size=26),
    steps=st.sampled_from([26, 26, 0, 1, 13, 25]),
)
def test_the_replayed_draw_is_the_engines_and_a_seat_view_hides_the_other_draw(
    seed: int, choices: list[bool], steps: int
) -> None:
    game, done = played_draw(seed, choices, steps)
    rep = record.replay(record.to_record(game, list(PLAYERS)))
    assert draw_steps(rep.game, 0) == done  # recovered from the stock and the kept cards

    text = describe(rep.game, PLAYERS)
    full = draw_section(text)
    assert len(full) == 1 + steps
    assert (f"  (draw in progress: {52 - 2 * steps} cards left in the stock)" in text) == (steps < 26)
    shown = [c for line in full for c in CARD.findall(line)]
    assert sorted(shown) == sorted(card_text(c) for s in done for c in (s.top, s.other))
    said = [
        f"{PLAYERS[t.seat]} looks at {card_text(t.top)} and "
        + (
            f"keeps it ({card_text(t.other)} goes out unseen)"
            if t.keep
            else f"throws it away, takes {card_text(t.other)}"
        )
        for t in done
    ]
    assert full[1:] == [f"  Draw {k:>2}: {text}" for k, text in enumerate(said, 1)]

    for seat in (0, 1):
        view = draw_section(describe(rep.game, PLAYERS, seat))
        own = [s for s in done if s.seat == seat]
        # Only the cards this seat looked at or took: never the other's, nor the unseen ones.
        seen = {card_text(s.top) for s in own} | {card_text(s.other) for s in own if not s.keep}
        assert {c for line in view for c in CARD.findall(line)} == seen
        assert sum(f"{PLAYERS[1 - seat]} draws (hidden)" in line for line in view) == len(done) - len(own)


def test_a_two_player_record_without_its_stock_says_the_draw_is_not_in_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game, _ = played_draw(7, [True, False, False], 26)
    data = record.to_record(game, list(PLAYERS))
    del data["hands"][0]["stock"]
    text = describe(record.replay(data).game, PLAYERS)
    assert draw_section(text) == ["  Draw: not in the record (it gives only the cards each player kept)"]


def test_four_player_replays_have_no_draw() -> None:
    rep = record.load(GOLDEN / "standard_full.json")
    assert draw_section(describe(rep.game, rep.players)) == []


def test_a_seat_view_tells_passes_between_others_without_their_cards() -> None:
    rep = record.load(GOLDEN / "blind_nil_exchange.json")
    exchanges = [ex for log in rep.game.logs for ex in log.exchanges]
    assert exchanges
    for seat in range(4):
        passes = [line for line in describe(rep.game, rep.players, seat).splitlines() if " passes " in line]
        assert len(passes) == len(exchanges)
        for ex, line in zip(exchanges, passes, strict=True):
            if seat in (ex.giver, ex.receiver):
                assert str(ex.cards) in line
            else:
                assert not CARD.findall(line) and f"passes {len(ex.cards)} cards" in line
