"""Double-dummy analysis of played hands: what each card cost, trick by trick.

For every card of a record, the position just before it is solved with all hands open (the
Spades lead rule included while spades are unbroken): the card's value is the number of tricks
the player's side ends the hand with if everyone plays perfectly afterwards, and the best value
is the same figure for the best legal card. A positive difference is a double-dummy mistake.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.cards import card_text
from spades.errors import SpadesError
from spades.search._jit import trick_winner
from spades.search.dd import Solver
from spades.state import Game, HandLog


@dataclass(frozen=True, slots=True)
class PlayAnalysis:
    trick: int
    seat: int
    card: int
    value: int
    """Tricks the player's side takes in the whole hand after this card, with best play."""
    best: int
    best_cards: tuple[int, ...]

    @property
    def loss(self) -> int:
        return self.best - self.value

    def to_json(self) -> dict[str, object]:
        return {
            "trick": self.trick,
            "seat": self.seat,
            "card": card_text(self.card),
            "value": self.value,
            "best": self.best,
            "best_cards": [card_text(c) for c in self.best_cards],
            "loss": self.loss,
        }


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    number: int
    plays: tuple[PlayAnalysis, ...]

    def to_json(self) -> dict[str, object]:
        return {"hand": self.number, "plays": [p.to_json() for p in self.plays]}


def analyse_log(log: HandLog, solver: Solver | None = None, number: int = 1) -> HandAnalysis:
    """Analyse the cards played in one hand's log (dealt hands, exchanges, plays)."""
    solver = solver or Solver()
    hands = list(log.dealt)
    if len(hands) != 4:
        raise SpadesError("double-dummy analysis needs a four-player game")
    for ex in log.exchanges:
        hands[ex.giver] &= ~ex.cards.mask
        hands[ex.receiver] |= ex.cards.mask
    leader = (log.dealer + 1) % 4
    trick: list[int] = []
    broken = False
    won = [0, 0]  # per side, tricks so far
    out: list[PlayAnalysis] = []
    for i, card in enumerate(log.plays):
        seat = (leader + len(trick)) % 4
        sol = solver.solve(hands, leader, trick, broken)
        side = seat % 2
        left = hands[seat].bit_count()

        def mine(ns: int, side: int = side, left: int = left) -> int:
            return won[side] + (ns if side == 0 else left - ns)

        values = {c: mine(v) for c, v in sol.card_values.items()}
        best = max(values.values())
        if card not in values:
            raise SpadesError(f"hand {number}, trick {i // 4 + 1}: {card_text(card)} was not a legal card")
        out.append(
            PlayAnalysis(
                i // 4 + 1,
                seat,
                card,
                values[card],
                best,
                tuple(sorted((c for c, v in values.items() if v == best), reverse=True)),
            )
        )
        hands[seat] &= ~(1 << card)
        if card < 13 and (not trick or trick[0] >= 13):
            broken = True
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick[0], trick[1], trick[2], trick[3])) % 4
            won[leader % 2] += 1
            trick = []
    return HandAnalysis(number, tuple(out))


def analyse_game(game: Game, solver: Solver | None = None) -> list[HandAnalysis]:
    """Analyse every hand of a (replayed) game that reached the play."""
    if game.n != 4 or not game.rules.teams:
        raise SpadesError("double-dummy analysis needs a four-player partnership game")
    solver = solver or Solver()
    return [analyse_log(log, solver, i + 1) for i, log in enumerate(game.logs) if log.plays]
