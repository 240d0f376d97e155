"""The readable replay of ``spades replay`` (without ``--json``): bids, tricks, score sheets."""

from __future__ import annotations

from collections.abc import Sequence

from spades.cards import card_text
from spades.observation import bid_value
from spades.scoring import HandScore, SeatBid
from spades.state import Game, HandLog, Trick, seat_name


def side_name(game: Game, side: int, players: Sequence[str]) -> str:
    if game.rules.teams:
        return f"{players[side]} & {players[side + 2]}"
    return players[side]


def score_sheet(game: Game, players: Sequence[str], scores: Sequence[HandScore]) -> list[str]:
    """The running score sheet: one row per hand, one right-aligned column per side, each
    column as wide as its widest cell so that neighbouring cells never run together."""
    sides = game.rules.sides
    names = [side_name(game, s, players) for s in range(sides)]
    rows = [[f"{s.points[k]:+d} ({s.totals[k]}, bags {s.bags[k]})" for k in range(sides)] for s in scores]
    widths = [max(len(names[k]), *(len(r[k]) for r in rows)) for k in range(sides)]
    lines = ["  hand" + "".join(f"   {x:>{w}}" for x, w in zip(names, widths, strict=True))]
    for i, cells in enumerate(rows, 1):
        lines.append(f"  {i:>4}" + "".join(f"   {c:>{w}}" for c, w in zip(cells, widths, strict=True)))
    return lines


def _bids_line(game: Game, log: HandLog, players: Sequence[str]) -> str:
    parts = []
    for s, b in enumerate(log.bids):
        parts.append(f"{players[s]} {bid_value(b) if b is not None else '-'}")
    return "  Bids: " + ", ".join(parts)


def _trick_line(game: Game, number: int, trick: Trick, players: Sequence[str]) -> str:
    seats = [(trick.leader + i) % game.n for i in range(len(trick.cards))]
    cards = ", ".join(f"{players[s]} {card_text(c)}" for s, c in zip(seats, trick.cards, strict=True))
    return f"  Trick {number:>2}: {cards}  -> {players[trick.winner]}"


def tricks_of(game: Game, log: HandLog, leader: int) -> list[Trick]:
    """Split a hand's plays into tricks again, from the first leader."""
    out: list[Trick] = []
    n = game.n
    for start in range(0, len(log.plays) - len(log.plays) % n, n):
        cards = tuple(log.plays[start : start + n])
        lead = cards[0] // 13
        best = max(range(n), key=lambda i: (cards[i] < 13, cards[i] // 13 == lead, cards[i]))
        winner = (leader + best) % n
        out.append(Trick(leader, cards, winner))
        leader = winner
    return out


def describe(game: Game, players: Sequence[str]) -> str:
    lines: list[str] = []
    n = game.n
    for i, log in enumerate(game.logs):
        lines.append(f"Hand {i + 1} (dealer {players[log.dealer]})")
        lines.append(_bids_line(game, log, players))
        for ex in log.exchanges:
            lines.append(f"  {players[ex.giver]} passes {ex.cards} to {players[ex.receiver]}")
        tricks = tricks_of(game, log, (log.dealer + 1) % n)
        for k, t in enumerate(tricks, 1):
            lines.append(_trick_line(game, k, t, players))
        rest = log.plays[len(tricks) * n :]
        if rest:
            leader = tricks[-1].winner if tricks else (log.dealer + 1) % n
            played = ", ".join(f"{players[(leader + i) % n]} {card_text(c)}" for i, c in enumerate(rest))
            lines.append(f"  Trick {len(tricks) + 1:>2} (in progress): {played}")
        if i < len(game.scores):
            s = game.scores[i]
            taken = ", ".join(f"{players[k]} {s.tricks[k]}" for k in range(n))
            lines.append(f"  Tricks taken: {taken}")
            lines.extend(score_sheet(game, players, game.scores[: i + 1]))
        else:
            lines.append("  (hand not finished)")
        lines.append("")
    if game.winner is not None:
        lines.append(f"Winner: {side_name(game, game.winner, players)} with {game.totals[game.winner]}")
    else:
        lines.append(
            "Game not finished: "
            + ", ".join(f"{side_name(game, k, players)} {game.totals[k]}" for k in range(game.rules.sides))
        )
    return "\n".join(lines)


def seat_bid_text(bid: SeatBid | None) -> str:
    v = bid_value(bid)
    return "-" if v is None else str(v)


__all__ = ["describe", "score_sheet", "seat_name", "side_name", "tricks_of"]
