"""Two bots' duplicate single hands held against double dummy: where the points are lost.

A match's strength figure says who scores more, not why. This audit replays every hand of a
match (``spades match``'s records, played here first unless ``--records`` already holds them)
with every card in view and the hand's real payoff (``spades.search.ScoreSolver`` on
``payoff_table``: each side's points for the hand from 0-0):

* **Nils.** For each Nil bid: could its side keep it clean with every card in view (from the
  opening lead, bids made), and was it? A Nil the defence could break double dummy and did not
  was "let go"; the audit steps through its hand and names the defender's card after which it
  could no longer be broken (a lead or a card following, and at which trick). A Nil its side
  could keep clean and did not was "lost" by its own side.
* **Card play.** From ``--from-trick`` on (7 by default: where the expert's exact endgame
  starts), every card's double-dummy loss: the payoff of the best card minus that of the card
  played, for its own side, averaged by bot and trick: ``spades analyse --score``'s figures
  (``spades.search.analysis``), from that trick on. A bot that values bags at their share of
  the penalty (the expert) shows a point or so of "loss" per bag it refuses: the payoff here
  is one hand's points; a loss of 50 or more is a contract or a Nil.
* **Bids** (``--bids``): the bidding is played again with the same bots and seeds (a seeded bot
  decides the same way on the same position), and where a bot's reason gives the share of its
  sampled deals in which the bid comes through (the expert's: "made in 95%", "no trick taken in
  80%"), that forecast is set against what happened at the table: for its side's contract when
  both partners bid a number, and for its own Nil.

Double dummy is an upper bound no real player reaches (he does not see the cards); the audit
says where a bot stands from it, and which of its cards cost a Nil or a contract.

    python bench/dd_audit.py --hands 150 --seed S [--expert expert] [--opponent heuristic]
        [--rules '{"blind_nil": false}'] [--records DIR] [--from-trick 7] [--jobs 2] [--list] [--bids]

Both bots are given by their specs; ``--list`` prints every card that cost 50 points or more.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from spades import record
from spades.actions import Bid
from spades.bots import make_bot
from spades.bots.knowledge import trick_winner_index
from spades.cards import card_text
from spades.driver import apply_decision
from spades.errors import SpadesError
from spades.legal import deck_of, may_lead_spades
from spades.match import bot_seed, deal_rng, record_name, run_tasks, tasks_for
from spades.rules import Rules
from spades.rulestext import parse_rules_text
from spades.search import ScoreSolver
from spades.search.analysis import HandStakes, analyse_log, hands_in_play
from spades.state import Game, HandLog, Phase

BIG = 50
"""A double-dummy loss this large is a contract or a Nil, not a bag."""


@dataclass
class Hand:
    """One recorded hand of a match: who played each seat, the hand's log, the match's facts."""

    name: str
    bots: list[str]
    log: HandLog
    match: dict[str, Any]

    @property
    def hands(self) -> list[int]:
        return hands_in_play(self.log)

    @property
    def bids(self) -> list[Bid]:
        return [b for b in self.log.bids if b is not None]

    @property
    def leader(self) -> int:
        return (self.log.dealer + 1) % 4


def load_hand(path: Path) -> Hand:
    """The first hand of a match's record (``spades.record``: checked as it is replayed)."""
    rec = record.load(path)
    m = rec.extra["match"]
    bots = [m["a"] if s in m["a_seats"] else m["b"] for s in range(rec.game.n)]
    return Hand(path.name, bots, rec.game.logs[0], m)


@dataclass
class Position:
    hands: list[int]
    leader: int
    trick: tuple[int, ...]
    broken: bool
    won: tuple[int, ...]

    @property
    def mover(self) -> int:
        return (self.leader + len(self.trick)) % 4


def positions(h: Hand, rules: Rules) -> tuple[list[tuple[Position, int]], list[int]]:
    """Every position of the hand before a card, with the card played there; the tricks won."""
    deck = deck_of(rules)
    hands = list(h.hands)
    leader, broken, won = h.leader, False, [0, 0, 0, 0]
    trick: list[int] = []
    out: list[tuple[Position, int]] = []
    for card in h.log.plays:
        pos = Position(list(hands), leader, tuple(trick), broken, tuple(won))
        out.append((pos, card))
        hands[pos.mover] &= ~(1 << card)
        trick.append(card)
        broken = broken or deck.suit_of[card] == 0
        if len(trick) == 4:
            leader = (leader + trick_winner_index(trick, deck)) % 4
            won[leader] += 1
            trick = []
    return out, won


def nil_table(seat: int) -> np.ndarray[Any, np.dtype[np.int64]]:
    """1 where North/South like the split: the Nil broken if it is East/West's, clean if theirs."""
    table = np.zeros((14, 14, 14, 14), dtype=np.int64)
    for n in range(14):
        for e in range(14 - n):
            for s in range(14 - n - e):
                w = 13 - n - e - s
                broken = (n, e, s, w)[seat] > 0
                table[n, e, s, w] = int(broken) if seat % 2 else int(not broken)
    return table


def breakable(solver: ScoreSolver, table: Any, seat: int, pos: Position) -> bool:
    """Can the defence break ``seat``'s Nil from here, every card in view?"""
    if pos.won[seat]:
        return True
    v = solver.solve(pos.hands, pos.leader, table, pos.trick, pos.broken, pos.won, values=False).value
    return v == (1 if seat % 2 else 0)


def audit(paths: list[Path], rules: Rules, from_trick: int) -> dict[str, Any]:
    solver = ScoreSolver()
    nil_solver = ScoreSolver()
    nils: Counter[tuple[str, bool, bool]] = Counter()  # (bidder's bot, breakable, broken)
    let_go: Counter[tuple[str, str, int]] = Counter()  # (defender's bot, lead/follow, trick)
    loss: dict[tuple[str, int], float] = defaultdict(float)
    count: Counter[tuple[str, int]] = Counter()
    big: list[str] = []
    for path in paths:
        h = load_hand(path)
        steps, final = positions(h, rules)
        for seat in range(4):
            if not h.bids[seat].is_nil:
                continue
            table = nil_table(seat)
            can = breakable(nil_solver, table, seat, steps[0][0])
            nils[(h.bots[seat], can, final[seat] > 0)] += 1
            if not can or final[seat] > 0:
                continue
            for i, ((pos, _), (after, _)) in enumerate(pairwise(steps)):
                if not breakable(nil_solver, table, seat, after):
                    let_go[(h.bots[pos.mover], "lead" if not pos.trick else "follow", i // 4 + 1)] += 1
                    break
        stakes = HandStakes(rules, tuple(h.bids), (0, 0), (0, 0))
        lead_any = may_lead_spades(rules, False)
        cards = analyse_log(
            h.log, stakes=stakes, score_solver=solver, lead_any=lead_any, first_trick=from_trick
        )
        for play in cards.plays:
            key = (h.bots[play.seat], play.trick)
            loss[key] += play.loss
            count[key] += 1
            if play.loss >= BIG:
                best = card_text(play.best_cards[0])
                big.append(
                    f"{h.name} trick {play.trick} seat {play.seat} ({h.bots[play.seat]}): "
                    f"{card_text(play.card)} lost {play.loss} points ({best} was best)"
                )
    return {
        "nils": nils,
        "let_go": let_go,
        "loss": {k: loss[k] / count[k] for k in count},
        "decisions": count,
        "big": big,
    }


def forecasts(path: Path, rules: Rules, hand: Hand | None = None) -> list[tuple[str, int, float]]:
    """The bidding of a recorded hand played again: (kind, seat, forecast share) for each bid
    whose reason gives one; kind "nil" or "number" (the message's own words tell them apart)."""
    h = hand or load_hand(path)
    m = h.match
    bots = [make_bot(h.bots[s], seed=bot_seed(m["seed"], m["deal"], s, m["swapped"])) for s in range(4)]
    game = Game(rules, rng=deal_rng(m["seed"], m["deal"]))
    if game.phase is Phase.DEAL:
        game.deal()
    out: list[tuple[str, int, float]] = []
    while game.phase is Phase.BID:
        seat = game.turn
        decision = bots[seat].decide(game.observation(seat), game.legal_actions(seat))
        action = decision.action
        if isinstance(action, Bid):  # not a look at the cards before a blind bid
            if action != h.bids[seat]:
                raise SystemExit(
                    f"{path}: seat {seat} bids {action.record_value} again, the record has "
                    f"{h.bids[seat].record_value}: not these bots and seeds"
                    " (or a time cap changed a decision)"
                )
            fields = getattr(decision.why, "fields", {})
            if "share" in fields:
                kind = "nil" if action.is_nil else "number"
                out.append((kind, seat, float(str(fields["share"]).rstrip("%")) / 100))
        apply_decision(game, seat, action)
    for bot in bots:
        bot.close()
    return out


def calibration(paths: list[Path], rules: Rules) -> dict[tuple[str, str], tuple[int, float, int]]:
    """Per (bot, kind): bids, mean forecast share, how many came through."""
    acc: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0, 0])
    for path in paths:
        h = load_hand(path)
        _, won = positions(h, rules)
        for kind, seat, share in forecasts(path, rules, h):
            partner = (seat + 2) % 4
            if kind == "nil":
                through = won[seat] == 0
            elif h.bids[partner].is_nil:
                continue  # a contract beside a Nil: the side's tricks are not one count
            else:
                through = won[seat] + won[partner] >= h.bids[seat].tricks + h.bids[partner].tricks
            row = acc[(h.bots[seat], kind)]
            row[0] += 1
            row[1] += share
            row[2] += through
    return {k: (int(v[0]), v[1] / v[0], int(v[2])) for k, v in acc.items()}


def show(rep: dict[str, Any], bots: list[str], listing: bool) -> None:
    nils: Counter[tuple[str, bool, bool]] = rep["nils"]
    print("Nils, every card in view from the opening lead:")
    for bot in bots:
        mine = {k: v for k, v in nils.items() if k[0] == bot}
        total = sum(mine.values())
        if not total:
            continue
        can = sum(v for k, v in mine.items() if k[1])
        can_broken = mine.get((bot, True, True), 0)
        safe_broken = mine.get((bot, False, True), 0)
        print(
            f"  {bot}'s Nils: {total}; breakable by the defence {can} (broken {can_broken}, "
            f"let go {can - can_broken}); safe for its side {total - can} (lost by its side {safe_broken})"
        )
    let_go: Counter[tuple[str, str, int]] = rep["let_go"]
    for bot in bots:
        went = {k: v for k, v in let_go.items() if k[0] == bot}
        if not went:
            continue
        leads = sum(v for k, v in went.items() if k[1] == "lead")
        early = sum(v for k, v in went.items() if k[2] <= 3)
        late = sum(v for k, v in went.items() if k[2] >= 7)
        print(
            f"  breakable Nils {bot} let go as a defender: {sum(went.values())}, the card after which "
            f"it could not be broken a lead in {leads}; at tricks 1-3 {early}, 4-6 "
            f"{sum(went.values()) - early - late}, 7-13 {late}"
        )
    print("Double-dummy loss per card (points of the hand, for the player's side):")
    tricks = sorted({t for _, t in rep["decisions"]})
    print("  trick  " + "  ".join(f"{b:>12}" for b in bots))
    for t in tricks:
        cells = [f"{rep['loss'].get((b, t), 0.0):>12.2f}" for b in bots]
        print(f"  {t:>5}  " + "  ".join(cells))
    for b in bots:
        n = sum(v for k, v in rep["decisions"].items() if k[0] == b)
        total = sum(rep["loss"][k] * rep["decisions"][k] for k in rep["decisions"] if k[0] == b)
        print(f"  {b}: {n} cards, {total:.0f} points lost, {total / max(n, 1):.2f} a card")
    print(f"  cards that lost {BIG} points or more: {len(rep['big'])}")
    if listing:
        for line in rep["big"]:
            print("   ", line)
    for (bot, kind), (n, share, through) in sorted(rep.get("bids", {}).items()):
        what = "Nils kept clean" if kind == "nil" else "contracts made (partners both bid a number)"
        print(f"  {bot}'s bids: {n} forecast; {what}: forecast {share:.1%}, at the table {through / n:.1%}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=40, help="duplicate deals (each played twice)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--expert", default="expert")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--rules", default='{"blind_nil": false}', help="a preset name or a JSON object")
    ap.add_argument("--records", type=Path, default=None, help="folder of the match's records (reused)")
    ap.add_argument("--from-trick", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true", help="every card that cost 50 points or more")
    ap.add_argument("--bids", action="store_true", help="bid forecasts against the table")
    a = ap.parse_args()
    rules = parse_rules_text(a.rules)
    if rules.players != 4 or not rules.teams or not deck_of(rules).standard:
        raise SystemExit("dd_audit: four players in partnerships and the 52-card deck only")
    out = a.records or Path(f"/tmp/dd_audit-{a.seed}")
    tasks = tasks_for(a.expert, a.opponent, rules, hands=a.hands, seed=a.seed, out=out)
    paths = [out / record_name(t, rules.players) for t in tasks]
    run_tasks([t for t, p in zip(tasks, paths, strict=True) if not p.exists()], jobs=a.jobs)
    print(
        f"{a.expert} vs {a.opponent}: {a.hands} duplicate deals of seed {a.seed}, {len(paths)} hands ({out})"
    )
    rep = audit(paths, rules, a.from_trick)
    if a.bids:
        rep["bids"] = calibration(paths, rules)
    show(rep, [a.expert, a.opponent], a.list)


if __name__ == "__main__":
    try:
        main()
    except SpadesError as e:  # bad --hands, --rules or bot spec: one line, no traceback
        raise SystemExit(f"{Path(__file__).name}: {e}") from None
