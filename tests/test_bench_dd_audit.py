"""``bench/dd_audit.py``: hands replayed from records against double dummy."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from bench_modules import load_bench
from spades import record
from spades.actions import Bid
from spades.cards import parse_card
from spades.match import run_tasks, tasks_for
from spades.rulestext import parse_rules_text
from spades.search import ScoreSolver

RULES = parse_rules_text('{"blind_nil": false}')


def _bench() -> ModuleType:
    return load_bench("dd_audit")


def _mask(text: str) -> int:
    return sum(1 << parse_card(c) for c in text.split())


def test_a_nil_holding_the_ace_of_spades_is_breakable_and_one_under_cover_is_not() -> None:
    bench = _bench()
    solver = ScoreSolver()
    # North bids Nil with the ace of spades: it wins a trick whatever anyone plays.
    hands = [
        _mask("AS 2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H"),
        _mask("KS QS JS TS 6C 7C 8C 6D 7D 8D 6H 7H 8H"),
        _mask("9S 8S 7S 6S 9C TC JC 9D TD JD 9H TH JH"),
        _mask("5S 4S 3S 2S QC KC AC QD KD AD QH KH AH"),
    ]
    assert bench.breakable(solver, bench.nil_table(0), 0, bench.Position(hands, 1, (), False, (0, 0, 0, 0)))
    # North holds no spade and the lowest cards of every suit, and East leads: every card he
    # follows with is under the one led, every other is a discard, and he never leads.
    hands = [
        _mask("2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H 5H"),
        _mask("AS KS QS JS 7C 8C 9C 6D 7D 8D 6H 7H 8H"),
        _mask("TS 9S 8S 7S 6S TC JC 9D TD JD 9H TH JH"),
        _mask("5S 4S 3S 2S QC KC AC QD KD AD QH KH AH"),
    ]
    start = bench.Position(hands, 1, (), False, (0, 0, 0, 0))
    assert not bench.breakable(solver, bench.nil_table(0), 0, start)
    # East's Nil with the ace of spades, seen from the other side of the table.
    assert bench.breakable(solver, bench.nil_table(1), 1, start)


def test_the_audit_of_played_hands_agrees_with_their_records(tmp_path: Path) -> None:
    bench = _bench()
    tasks = tasks_for("heuristic", "random", RULES, hands=1, seed=5, out=tmp_path)
    run_tasks(tasks, jobs=1)
    paths = sorted(tmp_path.glob("*.json"))
    assert len(paths) == 2
    nil_bids = 0
    for path in paths:
        hand = bench.load_hand(path)
        steps, won = bench.positions(hand, RULES)
        assert len(steps) == 52 and sum(won) == 13
        assert won == record.summary(record.load(path).game)["hands"][0]["tricks"], path.name
        nil_bids += sum(b == Bid(0) for b in hand.bids)
    rep = bench.audit(paths, RULES, from_trick=11)
    # Three tricks a hand audited, four cards each; a lone last card is never a loss.
    assert sum(rep["decisions"].values()) == 2 * 3 * 4
    assert all(rep["loss"][k] == 0 for k in rep["loss"] if k[1] == 13)
    assert all(v >= 0 for v in rep["loss"].values())
    assert sum(rep["nils"].values()) == nil_bids


def test_bid_forecasts_replay_the_recorded_bidding(tmp_path: Path) -> None:
    """The bidding is played again with the same seeds: every forecast belongs to a bid the
    record holds (a Nil forecast to a Nil), and the calibration counts each one."""
    bench = _bench()
    expert = "expert:samples=8,bid_samples=16,time_ms=0"
    tasks = tasks_for(expert, "heuristic", RULES, hands=2, seed=11, out=tmp_path)
    run_tasks(tasks, jobs=1)
    paths = sorted(tmp_path.glob("*.json"))
    seen = 0
    for path in paths:
        hand = bench.load_hand(path)
        for kind, seat, share in bench.forecasts(path, RULES):
            assert hand.bots[seat] == expert and 0.0 <= share <= 1.0
            assert (kind == "nil") == hand.bids[seat].is_nil, (path.name, seat)
            seen += 1
    assert seen >= 4  # two expert seats a hand, each bid with a forecast
    calib = bench.calibration(paths, RULES)
    assert sum(n for n, _, _ in calib.values()) <= seen
    assert all(0 <= through <= n for n, _, through in calib.values())
