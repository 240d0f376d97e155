#!/usr/bin/env python3
"""A complete Spades bot speaking spades-bot/1, in plain Python with no dependency on spades.

Seat it with:  spades match "cmd:python examples/random_bot.py" heuristic
It looks at its cards, bids its aces and kings (plus long spades), and plays a random legal
card. Everything it needs comes from the "act" request; it ignores "event"s.
"""

import json
import random
import sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else None)


def choose(obs, legal):
    if "look" in legal:  # never bid Blind Nil: look at the cards first
        return "look", "look at my cards"
    bids = [a for a in legal if a.startswith("bid ") and a != "bid blind_nil"]
    if bids and obs["hand"] is not None:
        hand = obs["hand"]
        spades = sum(card[1] == "S" for card in hand)
        guess = sum(card[0] in "AK" for card in hand) + max(0, spades - 3)
        for want in (f"bid {max(guess, 1)}", "bid 1"):
            if want in legal:
                return want, f"{guess} sure tricks"
        return bids[0], "the lowest bid allowed"
    return rng.choice(legal), "random"  # a card to play, a card to pass, keep or discard


def main():
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] == "hello":
            answer = {"name": "random-example", "author": "docs/bot-protocol.md"}
        elif request["type"] == "act":
            action, why = choose(request["observation"], request["legal"])
            answer = {"action": action, "why": why}
        elif request["type"] == "bye":
            return
        else:  # "event": nothing to answer
            continue
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
