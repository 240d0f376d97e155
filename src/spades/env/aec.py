"""Spades as a PettingZoo AEC environment (``pip install 'spades[rl]'``).

Agents ``player_0``..``player_3`` (``player_0``, ``player_1`` in the two-player game) are the
seats. Each observes a dict: ``observation``, the vector of ``spades.env.encoding`` (built
from that seat's ``Observation`` only), and ``action_mask`` over the one ``Discrete``
space of the engine's dense action codes (``spades.actions``: plays, single-card pass steps,
bids, Blind Nil, look, keep, discard). The engine is the judge: a step is
``Game.apply_code``; the environment adds only agents, rewards and rendering.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Final, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from spades.actions import NUM_ACTIONS, decode
from spades.cards import CardSet, card_text
from spades.env.encoding import SIZE, bounds, check_encodable, encode
from spades.errors import SpadesError
from spades.rules import Rules
from spades.state import Game, Phase, seat_name

RewardMode = Literal["hand", "game", "both"]
REWARD_MODES: Final = ("hand", "game", "both")

ObsDict = dict[str, npt.NDArray[Any]]


class SpadesEnv(AECEnv[str, ObsDict, int | None]):  # type: ignore[misc]  # pettingzoo is untyped
    """A game of Spades, hand after hand, until a side wins (or ``max_hands`` truncates it).

    Rewards, shared by partners (each seat is its own side in solo and two-player games):

    - ``reward="hand"`` (default): at the end of each hand, the side's points that hand
      times ``points_scale`` (default 0.01: 100 points = 1.0);
    - ``reward="game"``: at the end of the game, +1 for the winning side, and -1 shared
      equally by the other sides (so the rewards sum to zero); nothing on truncation;
    - ``reward="both"``: the sum of the two.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "spades_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str | dict[str, Any] | None = None,
        *,
        reward: RewardMode = "hand",
        points_scale: float = 0.01,
        max_hands: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules if isinstance(rules, Rules) else Rules.from_spec(rules)
        check_encodable(self.rules)
        if reward not in REWARD_MODES:
            raise SpadesError(f"reward {reward!r} must be one of {', '.join(REWARD_MODES)}")
        if render_mode not in (None, "human", "ansi"):
            raise SpadesError(f"render_mode {render_mode!r} must be 'human' or 'ansi'")
        if max_hands is not None and max_hands < 1:
            raise SpadesError(f"max_hands {max_hands} must be at least 1")
        self.reward_mode: RewardMode = reward
        self.points_scale = points_scale
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self.agents: list[str] = []
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        low, high = bounds()
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, shape=(SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        # One space object per agent, kept: seeding a space must stick (pettingzoo's seed_test).
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game = Game(self.rules, seed=0)

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the AEC cycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; the same ``seed`` deals the same cards as ``Game(rules, seed=seed)``."""
        if seed is not None:
            self._seeds.seed(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(64)
        self.game = Game(self.rules, seed=game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.game.to_move
        self.agent_selection = self.possible_agents[0 if seat is None else seat]

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat[agent]
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self.game.to_move == seat and agent in self.agents and not self.terminations[agent]:
            mask[self.game.legal_codes()] = 1
        return {"observation": encode(self.game.observation(seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        if action is None or not 0 <= int(action) < NUM_ACTIONS or int(action) not in game.legal_codes():
            raise SpadesError(f"{agent}: action {action!r} is not legal now (see the action_mask)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        hands_before = len(game.scores)
        game.apply_code(int(action))
        if len(game.scores) > hands_before:
            self._hand_rewards()
        if game.is_over:
            for a in self.agents:
                self.terminations[a] = True
        elif self.max_hands is not None and len(game.scores) >= self.max_hands:
            for a in self.agents:
                self.truncations[a] = True
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def _hand_rewards(self) -> None:
        game, rules = self.game, self.rules
        score = game.scores[-1]
        for agent in self.agents:
            side = rules.side_of(self._seat[agent])
            r = 0.0
            if self.reward_mode in ("hand", "both"):
                r += score.points[side] * self.points_scale
            if self.reward_mode in ("game", "both") and game.winner is not None:
                r += 1.0 if side == game.winner else -1.0 / (rules.sides - 1)
            self.rewards[agent] = r

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        """The whole table as text (every hand shown: this is the researcher's view, not a
        player's). ``ansi`` returns it, ``human`` prints it."""
        if self.render_mode is None:
            return None
        text = table_text(self.game)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def table_text(game: Game) -> str:
    n = game.n
    lines = [f"hand {game.hand_number}, {game.phase.value}; totals {game.totals}, bags {game.bags}"]
    for s in range(n):
        bid = game.bid[s]
        bid_text = "-" if bid < 0 else ("blind nil" if game.blind[s] else ("nil" if bid == 0 else str(bid)))
        mark = ">" if game.to_move == s else " "
        dealer = " (dealer)" if game.dealer == s else ""
        lines.append(
            f"{mark} {seat_name(s, n):<5} bid {bid_text:<9} won {game.tricks_won[s]:>2}  "
            f"{CardSet(game.hands[s])}{dealer}"
        )
    if game.phase is Phase.PLAY or game.trick:
        lines.append("  trick: " + " ".join(card_text(c) for c in game.trick))
    if game.phase is Phase.DRAW and game.stock_top is not None:
        lines.append(f"  stock: {card_text(game.stock_top)} on top, {len(game.stock) - game.stock_pos} left")
    if game.winner is not None:
        lines.append(f"  winner: side {game.winner}")
    return "\n".join(lines)


def raw_env(**kwargs: Any) -> SpadesEnv:
    """The environment without wrappers (an illegal action raises ``SpadesError``)."""
    return SpadesEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int | None]:
    """The environment with PettingZoo's usual wrappers for classic games: an illegal action
    ends the game with reward -1 for its agent, and the AEC call order is enforced."""
    e: AECEnv[str, ObsDict, int | None] = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def action_text(code: int) -> str:
    """The protocol word of a dense code, for logs and rendering (``play AS``, ``bid 4``)."""
    from spades.protocol.messages import action_word

    return action_word(decode(code))


__all__ = ["REWARD_MODES", "SpadesEnv", "action_text", "env", "raw_env", "table_text"]
