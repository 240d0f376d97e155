"""Write the house-rule golden records of ``tests/golden`` and their expected ``spades replay --json``.

    python tests/golden/generate_house.py

One seeded game of random bots per house preset of house-rules.md (``suicide``, ``whiz``,
``mirror``, ``jokers``, ``cutthroat3``), one of the jjdd deck, and one with the scoring and
bidding options on (``big_bid``, ``team_min_bid``, ``nil_tricks: partner``, ``spades_lead:
any``). ``tests/test_cli_replay.py`` replays each and compares the output byte for byte.
Run it only when a change of the engine is meant to change these games; then review the diff.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from spades import Game, Rules, record
from spades.bots import make_bot
from spades.driver import play_game
from spades.rules import PRESETS

HERE = Path(__file__).parent

HOUSE_GAMES: dict[str, Rules] = {
    "house_suicide": PRESETS["suicide"],
    "house_whiz": PRESETS["whiz"],
    "house_mirror": PRESETS["mirror"],
    "house_jokers": PRESETS["jokers"].replace(target=150, lose_at=-300),
    "house_cutthroat3": PRESETS["cutthroat3"].replace(target=150, lose_at=-300),
    "house_jjdd": PRESETS["standard"].replace(jokers="jjdd", target=150, lose_at=-300),
    "house_options": PRESETS["standard"].replace(
        big_bid=10, team_min_bid=5, nil_tricks="partner", spades_lead="any", target=250, lose_at=-300
    ),
}
"""The golden house-rule games (``lose_at`` and lower targets so that random games end)."""


def random_game(rules: Rules, seed: int) -> Game:
    bots = [make_bot("random", seed=seed * 10 + s) for s in range(rules.players)]
    return play_game(Game(rules, seed=seed), bots, max_hands=12)


def finished_game(rules: Rules, first_seed: int) -> Game:
    """The first seeded game from ``first_seed`` on that ends after 2 to 12 hands."""
    for seed in range(first_seed, first_seed + 1000):
        game = random_game(rules, seed)
        if game.is_over and len(game.scores) >= 2:
            return game
    raise SystemExit(f"no game of {rules.to_spec()} ends in 2 to 12 hands")


def main() -> None:
    for i, (name, rules) in enumerate(HOUSE_GAMES.items()):
        path = HERE / f"{name}.json"
        record.save(path, finished_game(rules, 100 * (i + 1)))
        out = subprocess.run(
            [sys.executable, "-m", "spades", "replay", "--json", str(path)], capture_output=True, check=True
        ).stdout
        path.with_suffix(".expected.json").write_bytes(out)
        print(path.name, out[:80])


if __name__ == "__main__":
    main()
