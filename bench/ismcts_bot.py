"""OpenSpiel's ISMCTS as a bot-protocol program: an outside opponent for the expert.

    spades match expert "cmd:python bench/ismcts_bot.py --sims 1000" --hands 150 \
        --rules '{"blind_nil": false}' --jobs 2

OpenSpiel (a bench-only extra: ``pip install -e ".[bench]"``) has a ``spades`` game and an
information-set MCTS (``open_spiel.python.algorithms.ismcts``, random rollouts). Its spades
state cannot resample the hidden hands itself (``ResampleFromInfostate`` is not implemented),
so this adapter gives the search a resampler: each simulation deals the cards this seat
cannot see at random within what it knows (its hand, the cards played, the voids shown:
``spades.bots.sampling``, the same facts our bots use, no more) and replays the hand's bids
and cards into a fresh OpenSpiel state. The search itself, its rollouts and its payoff (the
hand's points for the searching player's side, OpenSpiel's ``returns``) are OpenSpiel's.

The games differ in two places, both kept out of the way: OpenSpiel has no Blind Nil (play
with ``{"blind_nil": false}``; asked to, it looks and bids a plain Nil's card code for Blind
Nil already made by others) and no exchange (it passes its lowest cards). Seats are rotated
so that the player on the dealer's left is OpenSpiel's North (who bids and leads first), and
cards are renamed (OpenSpiel orders suits clubs, diamonds, hearts, spades).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any

from spades.actions import Action, Bid, Look, PassCard, Play
from spades.bots.base import Bot, Decision
from spades.bots.sampling import Knowledge, sample_deal
from spades.cards import card_text
from spades.observation import Observation
from spades.protocol.server import BotServer

BID_BASE = 52
"""OpenSpiel's action code of a Nil bid; a bid of n tricks is ``BID_BASE + n``."""


def os_card(card: int) -> int:
    """Our card (spades 0..12, hearts, diamonds, clubs; 2 to ace) as OpenSpiel's action code."""
    return (3 - card // 13) * 13 + card % 13


def our_card(action: int) -> int:
    return (3 - action // 13) * 13 + action % 13


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


class IsmctsBot(Bot):
    """OpenSpiel's ISMCTS on its ``spades`` game, ``sims`` simulations a decision."""

    name = "ismcts"

    def __init__(self, sims: int = 1000, uct_c: float = 100.0, seed: int = 0) -> None:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

        self._pyspiel = pyspiel
        self.game = pyspiel.load_game("spades")
        self.rng = random.Random(seed)
        self.bot = ismcts.ISMCTSBot(
            game=self.game,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed)),
            uct_c=uct_c,
            max_simulations=sims,
            max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
            random_state=np.random.RandomState(seed + 1),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            use_observation_string=True,
            allow_inconsistent_action_sets=False,
        )
        self._obs: Observation | None = None
        self.bot.set_resampler(self._resample)

    # ------------------------------------------------------------------ state building
    def _history(self, obs: Observation) -> tuple[int, list[int]]:
        """(our seat of OpenSpiel's North, the bids and cards of the hand as action codes)."""
        first = (obs.dealer + 1) % 4
        acts: list[int] = []
        for i in range(4):
            b = obs.bids[(first + i) % 4]
            if b is None:
                break
            acts.append(BID_BASE + b.tricks)
        for t in obs.tricks:
            acts.extend(os_card(c) for c in t.cards)
        acts.extend(os_card(c) for c in obs.trick)
        return first, acts

    def _state(self, obs: Observation, deal: Sequence[int]) -> Any:
        """A fresh OpenSpiel state: ``deal`` (hands at the start of the hand, by our seat),
        then the hand's bids and cards."""
        first, acts = self._history(obs)
        hands = [_cards(deal[(first + p) % 4]) for p in range(4)]
        s = self.game.new_initial_state()
        for i in range(13):
            for p in range(4):
                s.apply_action(os_card(hands[p][i]))
        for a in acts:
            s.apply_action(a)
        return s

    def _sampled(self, obs: Observation) -> Any:
        k = Knowledge.of(obs)
        deal = sample_deal(k, self.rng)
        return self._state(obs, [deal[s] | k.played_by[s] for s in range(4)])

    def _resample(self, state: Any, player: int) -> Any:
        assert self._obs is not None
        return self._sampled(self._obs)

    # ------------------------------------------------------------------ decisions
    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        if any(isinstance(a, Look) for a in legal):
            return Decision(Look(), "look (OpenSpiel's spades has no Blind Nil)")
        passes = [a for a in legal if isinstance(a, PassCard)]
        if passes:
            low = min(passes, key=lambda a: (a.card % 13, a.card < 13))
            return Decision(low, "pass a low card (OpenSpiel's spades has no exchange)")
        if len(legal) == 1:
            return Decision(legal[0], "the only legal action")
        self._obs = obs
        action = int(self.bot.step(self._sampled(obs)))
        if action >= BID_BASE:
            n = action - BID_BASE
            bid = next((a for a in legal if isinstance(a, Bid) and a.tricks == n and not a.blind), None)
            if bid is None:
                return Decision(legal[0], f"ismcts chose bid {n}, not legal here")
            return Decision(bid, f"ismcts: bid {n}")
        card = our_card(action)
        play = next((a for a in legal if isinstance(a, Play) and a.card == card), None)
        if play is None:
            return Decision(legal[0], f"ismcts chose {card_text(card)}, not legal here")
        return Decision(play, f"ismcts: play {card_text(card)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sims", type=int, default=1000, help="simulations per decision")
    ap.add_argument("--uct-c", type=float, default=100.0, help="UCT exploration (returns are points)")
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1 << 30)
    server = BotServer(lambda: IsmctsBot(a.sims, a.uct_c, seed), author="OpenSpiel ISMCTS adapter")
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        answer = server.handle(line)
        if answer is not None:
            sys.stdout.buffer.write(answer)
            sys.stdout.buffer.flush()
        if server.done:
            break


if __name__ == "__main__":
    main()
