"""The readable replay of ``spades replay`` (without ``--json``): the two-player draw, bids,
passes, tricks, score sheets; the whole game, or only what one seat saw (``seat``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spades.cards import card_text
from spades.i18n import _, ngettext
from spades.legal import trick_winner
from spades.scoring import HandScore, SeatBid
from spades.state import Exchange, Game, HandLog, Phase, Trick, seat_name


def side_name(game: Game, side: int, players: Sequence[str]) -> str:
    if game.rules.teams:
        return _("{a} & {b}").format(a=players[side], b=players[side + 2])
    return players[side]


def score_sheet(game: Game, players: Sequence[str], scores: Sequence[HandScore]) -> list[str]:
    """The running score sheet: one row per hand, one right-aligned column per side, each
    column as wide as its widest cell so that neighbouring cells never run together."""
    sides = game.rules.sides
    names = [side_name(game, s, players) for s in range(sides)]
    cell = _("{points} ({total}, bags {bags})")
    rows = [
        [cell.format(points=f"{s.points[k]:+d}", total=s.totals[k], bags=s.bags[k]) for k in range(sides)]
        for s in scores
    ]
    widths = [max(len(names[k]), *(len(r[k]) for r in rows)) for k in range(sides)]
    hand = _("hand")
    lines = [f"  {hand:>4}" + "".join(f"   {x:>{w}}" for x, w in zip(names, widths, strict=True))]
    for i, cells in enumerate(rows, 1):
        lines.append(f"  {i:>4}" + "".join(f"   {c:>{w}}" for c, w in zip(cells, widths, strict=True)))
    return lines


def _bids_line(game: Game, log: HandLog, players: Sequence[str]) -> str:
    parts = []
    for s, b in enumerate(log.bids):
        parts.append(f"{players[s]} {seat_bid_text(b)}")
    return "  " + _("Bids: {bids}").format(bids=", ".join(parts))


def _trick_line(game: Game, number: int, trick: Trick, players: Sequence[str]) -> str:
    seats = [(trick.leader + i) % game.n for i in range(len(trick.cards))]
    cards = ", ".join(f"{players[s]} {card_text(c)}" for s, c in zip(seats, trick.cards, strict=True))
    return "  " + _("Trick {n}: {cards}  -> {winner}").format(
        n=f"{number:>2}", cards=cards, winner=players[trick.winner]
    )


def tricks_of(game: Game, log: HandLog, leader: int) -> list[Trick]:
    """Split a hand's plays into tricks again, from the first leader."""
    out: list[Trick] = []
    n = game.n
    for start in range(0, len(log.plays) - len(log.plays) % n, n):
        cards = tuple(log.plays[start : start + n])
        winner = trick_winner(game.deck, cards, leader)  # the one definition: jokers trump too
        out.append(Trick(leader, cards, winner))
        leader = winner
    return out


@dataclass(frozen=True, slots=True)
class DrawStep:
    """One turn of the two-player draw: ``seat`` looked at ``top``; ``keep`` says whether he
    kept it (``other`` then went out unseen) or threw it away and took ``other``."""

    seat: int
    top: int
    keep: bool
    other: int

    @property
    def kept(self) -> int:
        return self.top if self.keep else self.other


def draw_steps(game: Game, index: int) -> list[DrawStep] | None:
    """The draw of hand ``index`` (from 0), recovered from its stock and the cards each seat
    kept, as ``record.replay`` does; ``None`` when the hand has no stock (a four-player hand,
    or a two-player record that gives only the kept cards)."""
    log = game.logs[index]
    if log.stock is None:
        return None
    in_draw = index == len(game.logs) - 1 and game.phase is Phase.DRAW
    kept, end = (game.hands, game.stock_pos) if in_draw else (log.dealt, len(log.stock))
    seat = (log.dealer + 1) % game.n  # the non-dealer draws first
    steps = []
    for pos in range(0, end, 2):
        top, nxt = log.stock[pos], log.stock[pos + 1]
        keep = bool(kept[seat] >> top & 1)
        steps.append(DrawStep(seat, top, keep, nxt))
        seat = 1 - seat
    return steps


def _draw_lines(game: Game, index: int, players: Sequence[str], seat: int | None) -> list[str]:
    steps = draw_steps(game, index)
    if steps is None:
        if game.n == 2:
            return ["  " + _("Draw: not in the record (it gives only the cards each player kept)")]
        return []
    first = (game.logs[index].dealer + 1) % game.n
    lines = ["  " + _("Draw from the stock, {who} first:").format(who=players[first])]
    for k, st in enumerate(steps, 1):
        who = players[st.seat]
        you = _is_you(who)
        if seat is not None and st.seat != seat:
            text = (_("You draw (hidden)") if you else _("{who} draws (hidden)")).format(who=who)
        elif st.keep:
            if seat is not None:
                line = (
                    _("You look at {card} and keep it (the next card goes out unseen)")
                    if you
                    else _("{who} looks at {card} and keeps it (the next card goes out unseen)")
                )
            else:
                line = (
                    _("You look at {card} and keep it ({other} goes out unseen)")
                    if you
                    else _("{who} looks at {card} and keeps it ({other} goes out unseen)")
                )
            text = line.format(who=who, card=card_text(st.top), other=card_text(st.other))
        else:
            line = (
                _("You look at {card} and throw it away, take {other}")
                if you
                else _("{who} looks at {card} and throws it away, takes {other}")
            )
            text = line.format(who=who, card=card_text(st.top), other=card_text(st.other))
        lines.append("  " + _("Draw {n}: {text}").format(n=f"{k:>2}", text=text))
    if len(steps) * 2 < 52:
        left = 52 - len(steps) * 2
        lines.append(
            "  "
            + ngettext(
                "(draw in progress: {n} card left in the stock)",
                "(draw in progress: {n} cards left in the stock)",
                left,
            ).format(n=left)
        )
    return lines


def _is_you(who: str) -> bool:
    """The seat's own view of a replay names him "You" (a record saved by ``spades play``):
    his sentences are in the second person."""
    return who in ("You", _("You"))


def _pass_line(ex: Exchange, players: Sequence[str], seat: int | None) -> str:
    who, to = players[ex.giver], players[ex.receiver]
    you = _is_you(who)
    if seat is not None and seat not in (ex.giver, ex.receiver):
        n = len(ex.cards)
        line = (
            ngettext("You pass {n} card to {to}", "You pass {n} cards to {to}", n)
            if you
            else ngettext("{who} passes {n} card to {to}", "{who} passes {n} cards to {to}", n)
        )
        return "  " + line.format(who=who, n=n, to=to)
    line = _("You pass {cards} to {to}") if you else _("{who} passes {cards} to {to}")
    return "  " + line.format(who=who, cards=ex.cards, to=to)


def describe(game: Game, players: Sequence[str], seat: int | None = None) -> str:
    """The readable replay. With ``seat``, only what that seat saw of hidden cards: the other
    player's draw and the Blind Nil passes between others are told without their cards."""
    lines: list[str] = []
    n = game.n
    for i, log in enumerate(game.logs):
        lines.append(_("Hand {n} (dealer {dealer})").format(n=i + 1, dealer=players[log.dealer]))
        lines.extend(_draw_lines(game, i, players, seat))
        lines.append(_bids_line(game, log, players))
        for ex in log.exchanges:
            lines.append(_pass_line(ex, players, seat))
        tricks = tricks_of(game, log, (log.dealer + 1) % n)
        for k, t in enumerate(tricks, 1):
            lines.append(_trick_line(game, k, t, players))
        rest = log.plays[len(tricks) * n :]
        if rest:
            leader = tricks[-1].winner if tricks else (log.dealer + 1) % n
            played = ", ".join(f"{players[(leader + i) % n]} {card_text(c)}" for i, c in enumerate(rest))
            lines.append(
                "  " + _("Trick {n} (in progress): {cards}").format(n=f"{len(tricks) + 1:>2}", cards=played)
            )
        if i < len(game.scores):
            s = game.scores[i]
            taken = ", ".join(f"{players[k]} {s.tricks[k]}" for k in range(n))
            lines.append("  " + _("Tricks taken: {tricks}").format(tricks=taken))
            lines.extend(score_sheet(game, players, game.scores[: i + 1]))
        else:
            lines.append("  " + _("(hand not finished)"))
        lines.append("")
    if game.winner is not None:
        lines.append(
            _("Winner: {side} with {total}").format(
                side=side_name(game, game.winner, players), total=game.totals[game.winner]
            )
        )
    else:
        totals = ", ".join(f"{side_name(game, k, players)} {game.totals[k]}" for k in range(game.rules.sides))
        lines.append(_("Game not finished: {totals}").format(totals=totals))
    return "\n".join(lines)


def seat_bid_text(bid: SeatBid | None) -> str:
    """A bid as people read it: ``3``, ``Nil``, ``Blind Nil`` (records write ``nil``)."""
    if bid is None:
        return "-"
    if bid.blind:
        return _("Blind Nil")
    return _("Nil") if bid.is_nil else str(bid.tricks)


__all__ = ["DrawStep", "describe", "draw_steps", "score_sheet", "seat_name", "side_name", "tricks_of"]
