"""Uniform over legal actions: the floor every other bot must beat."""

from __future__ import annotations

import random
from collections.abc import Sequence

from spades.actions import Action, Look
from spades.bots.base import Bot, Decision
from spades.errors import N_, Text
from spades.observation import Observation


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        if not legal:
            raise ValueError("no legal action to choose from")
        return Decision(self.rng.choice(list(legal)), Text(N_("a random legal action")))


__all__ = ["Look", "RandomBot"]
