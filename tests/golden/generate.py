"""Write the golden records of ``tests/golden`` and their expected ``spades replay --json``.

    python tests/golden/generate.py

Run it only when a change of the engine is meant to change these games; then review the diff.
The ``record_example`` record is the game of spec/record.md (bids 3, nil, 4, blind_nil; tricks
4, 0, 6, 3; points 73 and -97), found by search so that its figures come from the spec.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from spades import Bid, Game, Rules, record
from spades.bots import make_bot
from spades.driver import play_game
from spades.rules import PRESETS
from spades.state import Phase

HERE = Path(__file__).parent


def bot_game(rules: Rules, seed: int, max_hands: int | None = None) -> Game:
    bots = [make_bot("heuristic", seed=seed + s) for s in range(rules.players)]
    return play_game(Game(rules, seed=seed), bots, max_hands=max_hands)


def main() -> None:
    games: dict[str, tuple[Game, dict[str, str]]] = {}
    games["standard_full"] = (bot_game(PRESETS["standard"].replace(target=250), 11), {})
    games["bicycle_full"] = (bot_game(PRESETS["bicycle"].replace(target=200), 12), {})
    games["hoyle_full"] = (bot_game(PRESETS["hoyle"].replace(target=250), 13), {})
    games["two_player_stock"] = (bot_game(PRESETS["two_player"].replace(target=150), 14), {})
    games["partial_standard"] = (bot_game(PRESETS["standard"], 15, max_hands=2), {})
    for seed in range(200):
        g = bot_game(PRESETS["standard"].replace(target=300), 100 + seed)
        if any(log.exchanges for log in g.logs):
            games["blind_nil_exchange"] = (g, {})
            break
    for name, (game, extra) in games.items():
        path = HERE / f"{name}.json"
        record.save(path, game, **extra)
    example = HERE / "record_example.json"
    data = search_example()
    example.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for path in sorted(HERE.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        out = subprocess.run(
            [sys.executable, "-m", "spades", "replay", "--json", str(path)], capture_output=True, check=True
        ).stdout
        path.with_suffix(".expected.json").write_bytes(out)
        print(path.name, out[:80])


def search_example() -> dict[str, object]:
    """The record.md example: first dealer West (3), bids 3, nil, 4, blind_nil, one hand."""
    rules = PRESETS["standard"].replace(target=300)
    for seed in range(200000):
        rng = random.Random(seed)
        game = Game(rules, seed=seed, first_dealer=3, auto_deal=False)
        game.deal()
        game.look(0)
        game.make_bid(3)
        game.look(1)
        game.make_bid(0)
        game.look(2)
        game.make_bid(4)
        game.make_bid(Bid(0, blind=True))
        while game.phase in (Phase.EXCHANGE, Phase.PLAY):
            game.apply_code(rng.choice(game.legal_codes()))
        if list(game.scores[0].tricks) == [4, 0, 6, 3]:
            return record.to_record(game, ["Ann", "Bot (expert)", "Cal", "Bot (expert)"])
    raise SystemExit("no example found")


if __name__ == "__main__":
    main()
