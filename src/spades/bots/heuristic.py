"""Placeholder rules of thumb until the full heuristic bot lands (issue 3)."""

from __future__ import annotations

from collections.abc import Sequence

from spades.actions import Action, Bid, Look, PassCard, Play
from spades.bots.base import Bot, Decision
from spades.cards import CardSet, card_text
from spades.observation import Observation


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        if any(isinstance(a, Look) for a in legal):
            return Decision(Look(), "look at the cards")
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids and obs.hand is not None:
            est = sum(1 for c in obs.hand if c % 13 >= 11) + max(0, len(obs.hand.suit(0)) - 3)
            est = max(est, min(b.tricks for b in bids if not b.blind))
            choice = next((b for b in bids if b.tricks == min(est, 13) and not b.blind), bids[-1])
            return Decision(choice, f"bid {choice.tricks}: high cards and spade length")
        passes = [a for a in legal if isinstance(a, PassCard)]
        if passes:
            low = min(passes, key=lambda a: a.card % 13)
            return Decision(low, f"pass {card_text(low.card)}")
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            if not obs.trick:
                pick = max(plays, key=lambda a: (a.card >= 13, a.card % 13))
            else:
                pick = min(plays, key=lambda a: (a.card < 13, a.card % 13))
            return Decision(pick, f"play {card_text(pick.card)}")
        return Decision(legal[0], "only choice")


__all__ = ["CardSet", "HeuristicBot"]
