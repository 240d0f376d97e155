"""How the expert's searched Blind Nil exchange departs from the fixed rule, and how.

Duplicate strength (``bench/expert_strength.py --paired``) says whether the searched exchange
scores more than the fixed rule (the partner's lowest cards, the bidder's most dangerous back);
this says what it does differently. Four experts play the bidding and the exchange of fresh
seeded deals under a preset (``standard``: one partner bids Blind Nil nearly every hand), and
each pass is set against the rule's pass from the same hand:

* how often the search leaves the rule, for the partner's pass and the bidder's pass back;
* how many spades and how many cards of queen or better it passes against the rule;
* how often it empties a suit of the passer's hand that the rule would have left (a void:
  the partner ruffs to cover, the bidder discards on it).

    python bench/exchange_choices.py --deals 60 --seed 1 [--rules standard]

The figures are counts, not timings; each deal takes a few seconds (four expert bids).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from spades.actions import PassCard
from spades.bots.exchange import rule_pass
from spades.bots.expert import ExpertBot
from spades.bots.knowledge import tables_of
from spades.legal import deck_of
from spades.rules import Rules
from spades.rulestext import parse_rules_text
from spades.state import Game, Phase


def _count(mask: int, of: int) -> int:
    return (mask & of).bit_count()


def run(rules: Rules, deals: int, seed: int) -> Counter[str]:
    """Play the bidding and the exchange of ``deals`` deals; count each pass against the rule."""
    deck = deck_of(rules)
    t = tables_of(deck)
    spades = deck.suit_masks[0]
    high = sum(1 << c for c in deck.cards if t.level[c] >= 10)
    out: Counter[str] = Counter()
    for deal in range(deals):
        g = Game(rules, seed=seed * 100_003 + deal)
        bots = [ExpertBot(seed=seed * 1_000 + deal * 4 + s) for s in range(4)]
        while g.phase in (Phase.BID, Phase.EXCHANGE):
            seat = g.to_move
            assert seat is not None
            obs = g.observation(seat)
            view = obs.bids[seat]
            if g.phase is not Phase.EXCHANGE or obs.pass_chosen is not None or view is None:
                g.apply(bots[seat].decide(obs, g.legal_actions(seat)).action, seat)
                continue
            hand = g.hands[seat]
            giving = not view.blind
            k = rules.blind_nil_exchange
            rule = rule_pass(hand, k, giving, t)
            passed = 0
            for _ in range(k):
                action = bots[seat].decide(g.observation(seat), g.legal_actions(seat)).action
                assert isinstance(action, PassCard)
                passed |= 1 << action.card
                g.apply(action, seat)
            role = "partner's pass" if giving else "bidder's pass back"
            out[role] += 1
            if passed == rule:
                continue
            out[f"{role}: not the rule's"] += 1
            for name, of in (("spades", spades), ("cards of queen or better", high)):
                a, b = _count(rule, of), _count(passed, of)
                if a != b:
                    out[f"{role}: {name} passed, rule {a} -> search {b}"] += 1
            kept, left = hand & ~rule, hand & ~passed
            if any(kept & deck.suit_masks[u] and not left & deck.suit_masks[u] for u in range(4)):
                out[f"{role}: empties a suit the rule kept"] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=60, help="deals to bid and exchange (default 60)")
    ap.add_argument("--seed", type=int, default=int(time.time()), help="seed of the deals and bots")
    ap.add_argument("--rules", default="standard", help="a preset name or a JSON object of overrides")
    args = ap.parse_args()
    rules = parse_rules_text(args.rules)
    if rules.blind_nil_exchange == 0 or not rules.blind_nil or not rules.teams:
        ap.error(f"--rules {args.rules}: no Blind Nil exchange under these rules")
    start = time.perf_counter()
    counts = run(rules, args.deals, args.seed)
    print(f"{args.deals} deals, seed {args.seed}, rules {args.rules} ({time.perf_counter() - start:.0f} s)")
    for role in ("partner's pass", "bidder's pass back"):
        total = counts[role]
        if not total:
            print(f"{role}: none")
            continue
        differs = counts[f"{role}: not the rule's"]
        print(f"{role}: {total}, not the rule's {differs} ({differs / total:.0%})")
        for key in sorted(k for k in counts if k.startswith(f"{role}: ") and "not the rule" not in k):
            print(f"  {key[len(role) + 2 :]}: {counts[key]} ({counts[key] / total:.0%})")


if __name__ == "__main__":
    main()
