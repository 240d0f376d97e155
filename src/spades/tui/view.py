"""The view-model: everything the terminal game draws, built from one ``Observation``.

This is the structural guarantee that the screen shows no hidden card: ``build_view`` takes
the human seat's observation and his own legal actions, and nothing else, and every widget
draws from the ``TableView`` it returns. No widget ever holds the ``Game``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from spades.actions import Action, Bid, Draw, Look, PassCard, PassCards, Play
from spades.cards import RANK_LETTERS, SUIT_SYMBOLS
from spades.observation import BidView, Observation
from spades.rules import Rules
from spades.scoring import HandScore, SeatBid
from spades.state import SUIT_NAMES, seat_name

POSITIONS_4 = ("bottom", "left", "top", "right")
POSITIONS_2 = ("bottom", "top")


def card_label(card: int) -> str:
    """How a card looks on screen: ``A♠``, ``10♥``."""
    rank = card % 13
    return ("10" if rank == 8 else RANK_LETTERS[rank]) + SUIT_SYMBOLS[card // 13]


def is_red(card: int) -> bool:
    return card // 13 in (1, 2)


def position(seat: int, human: int, players: int) -> str:
    rel = (seat - human) % players
    return POSITIONS_4[rel] if players == 4 else POSITIONS_2[rel]


def bid_text(bid: BidView) -> str:
    if bid is None:
        return "—"
    if bid == "nil":
        return "Nil"
    if bid == "blind_nil":
        return "Blind Nil"
    return str(bid)


def _seat_bid_short(bid: SeatBid) -> str:
    if bid.tricks == 0:
        return "BN" if bid.blind else "Nil"
    return str(bid.tricks)


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    """Seat name: North, East, South, West."""
    label: str
    """Who sits there: the person's name or the bot's spec."""
    position: str
    bid: str
    won: int
    dealer: bool
    to_move: bool
    is_human: bool


@dataclass(frozen=True, slots=True)
class CardView:
    card: int
    legal: bool
    received: bool
    """Passed to the player in this hand's exchange."""

    @property
    def label(self) -> str:
        return card_label(self.card)


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True, slots=True)
class TrickShown:
    """The cards on the table: the trick in progress, or the one just won (with its winner)."""

    plays: tuple[tuple[int, int], ...]
    """(seat, card) in the order played."""
    winner: int | None
    number: int


@dataclass(frozen=True, slots=True)
class TableView:
    mode: str
    """What the player can do now: wait, bid, play, pass, draw or over."""
    phase: str
    hand_number: int
    seats: tuple[SeatView, ...]
    hand: tuple[CardView, ...]
    face_down: int
    """Cards shown face down (the player has not looked), else 0."""
    trick: TrickShown | None
    choices: tuple[Choice, ...]
    prompt: str
    status: str
    pass_count: int
    pass_to: int | None
    stock_top: int | None
    stock_left: int
    discarded: tuple[int, ...]
    can_look: bool
    can_blind: bool
    spades_broken: bool
    my_turn: bool

    def seat_at(self, where: str) -> SeatView | None:
        return next((s for s in self.seats if s.position == where), None)

    @property
    def legal_cards(self) -> tuple[int, ...]:
        return tuple(c.card for c in self.hand if c.legal)


def side_label(rules: Rules, side: int, human: int, names: Mapping[int, str]) -> str:
    """``Us``/``Them`` for partnerships; ``You`` or the seat's name when each plays alone."""
    if rules.teams:
        return "Us" if rules.side_of(human) == side else "Them"
    return "You" if side == human else seat_name(side, rules.players)


def side_seats_text(rules: Rules, side: int, human: int, names: Mapping[int, str]) -> str:
    """Who makes up a side: ``N+S`` for a partnership; the seat, or the bot, otherwise."""
    if rules.teams:
        a, b = seat_name(side, 4), seat_name(side + 2, 4)
        return f"{a[0]}+{b[0]}"
    return seat_name(side, rules.players) if side == human else names.get(side, "")


def side_order(rules: Rules, human: int) -> tuple[int, ...]:
    """Sides in the order a player reads them: his own first, then the others in seat order
    (sitting West or East, "Us" still comes before "Them")."""
    mine = rules.side_of(human)
    return (mine, *(s for s in range(rules.sides) if s != mine))


def rules_name(rules: Rules) -> str:
    spec = rules.to_spec()
    if isinstance(spec, str):
        return spec
    return f"{spec.get('preset', 'custom')}*"


def status_line(obs: Observation, names: Mapping[int, str]) -> str:
    r = obs.rules
    parts = []
    for side in side_order(r, obs.seat):
        label = side_label(r, side, obs.seat, names)
        bags = f"{obs.bags[side]} bags" if r.sides <= 2 else f"{obs.bags[side]}b"
        parts.append(f"{label} {obs.totals[side]} ({bags})")
    if r.sides > 2:  # four scores: keep the line within 80 columns
        return f"Hand {obs.hand_number} to {r.target} │ " + " · ".join(parts)
    return f"Hand {obs.hand_number} · {rules_name(r)} to {r.target} │ " + " · ".join(parts)


def refusal(obs: Observation, card: int) -> str | None:
    """Why the player may not play ``card`` now, in his own terms; ``None`` if he may."""
    if obs.phase != "play" or not obs.my_turn:
        return "It is not your turn to play."
    hand = obs.hand
    if hand is None or card not in hand:
        return f"You do not hold {card_label(card)}."
    suit = card // 13
    lead = obs.lead_suit
    if lead is not None:
        if suit != lead and hand.suit(lead):
            return f"You must follow suit: play {SUIT_NAMES[lead]} {SUIT_SYMBOLS[lead]}."
        return None
    if suit == 0 and not obs.spades_broken and len(hand.suit(0)) != len(hand):
        return "Spades are not broken yet: lead another suit."
    return None


def _shown_trick(obs: Observation) -> TrickShown | None:
    n = obs.players
    if obs.trick:
        plays = tuple(((obs.trick_leader + i) % n, c) for i, c in enumerate(obs.trick))
        return TrickShown(plays, None, len(obs.tricks) + 1)
    if obs.tricks and obs.phase == "play":
        t = obs.tricks[-1]
        plays = tuple(((t.leader + i) % n, c) for i, c in enumerate(t.cards))
        return TrickShown(plays, t.winner, len(obs.tricks))
    return None


def _who(seat: int, human: int, players: int) -> str:
    return "You" if seat == human else seat_name(seat, players)


def build_view(obs: Observation, legal: Sequence[Action], names: Mapping[int, str]) -> TableView:
    """Everything to draw, from the human's observation and his own legal actions only.

    ``names`` maps each seat to who sits there (the person's name or a bot's spec).
    """
    n, me, r = obs.players, obs.seat, obs.rules
    my_turn = obs.my_turn
    legal_play = {a.card for a in legal if isinstance(a, Play)}
    can_look = any(isinstance(a, Look) for a in legal)
    can_blind = any(isinstance(a, Bid) and a.blind for a in legal)
    bids = [a for a in legal if isinstance(a, Bid) and not a.blind]
    seats = tuple(
        SeatView(
            seat=s,
            name=seat_name(s, n),
            label=names[s],
            position=position(s, me, n),
            bid=bid_text(obs.bids[s]),
            won=obs.tricks_won[s],
            dealer=s == obs.dealer,
            to_move=obs.to_move == s,
            is_human=s == me,
        )
        for s in range(n)
    )
    received = obs.received.mask if obs.received is not None and obs.phase in ("exchange", "play") else 0
    hand: tuple[CardView, ...] = ()
    face_down = 0
    if obs.hand is not None:
        hand = tuple(CardView(c, c in legal_play, bool(received >> c & 1)) for c in obs.hand)
    elif obs.phase == "bid":
        face_down = 13
    partner = r.partner_of(me) if r.teams else None
    mover = obs.to_move
    mover_name = _who(mover, me, n) if mover is not None else ""
    choices: tuple[Choice, ...] = ()
    k = r.blind_nil_exchange
    pass_to: int | None = None
    mode = "wait"
    if obs.winner is not None or obs.phase == "over":
        mode = "over"
        prompt = "The game is over."
    elif obs.phase == "draw":
        if my_turn and obs.stock_top is not None:
            mode = "draw"
            top = card_label(obs.stock_top)
            choices = (Choice("keep", f"Keep {top}"), Choice("discard", f"Discard {top}"))
            prompt = (
                f"The stock shows {top}. K: keep it (the next card is discarded unseen) · "
                f"D: discard it (and take the next card). {obs.stock_left} cards left."
            )
        else:
            prompt = f"{mover_name} is drawing from the stock ({obs.stock_left} cards left)."
    elif obs.phase == "bid":
        if my_turn and bids:
            mode = "bid"
            choices = tuple(
                Choice(f"bid:{b.tricks}", "Nil" if b.tricks == 0 else str(b.tricks)) for b in bids
            )
            partner_bid = f" Your partner bid {bid_text(obs.bids[partner])}." if partner is not None else ""
            if partner is not None and obs.bids[partner] is None:
                partner_bid = ""
            nil = ", N for Nil" if any(b.tricks == 0 for b in bids) else ""
            prompt = f"Your bid: ←→ or type a number{nil}, Enter to bid.{partner_bid}"
        elif my_turn and not obs.looked:
            mode = "bid"
            choices = (Choice("look", "Look at my cards"),) + (
                (Choice("blind", "Blind Nil"),) if can_blind else ()
            )
            prompt = (
                "Your turn to bid, and your cards are face down: bid Blind Nil (B) now, "
                "or look (L) and bid normally."
            )
        elif not obs.looked:
            choices = (Choice("look", "Look at my cards"),)
            prompt = (
                f"Your cards are face down. Look (L) when you like; Blind Nil is only possible "
                f"before you look. {mover_name} to bid."
            )
        else:
            prompt = f"{mover_name} to bid."
    elif obs.phase == "exchange":
        if my_turn:
            mode = "pass"
            pass_to = partner
            to = seat_name(partner, n) if partner is not None else "your partner"
            got = ""
            if obs.received is not None:
                got = "You received " + " ".join(card_label(c) for c in obs.received) + ". "
            choices = (Choice("pass", f"Pass {k} cards"),)
            prompt = f"{got}Choose {k} cards to pass to {to}: Space or click to pick, Enter to pass."
        else:
            prompt = f"{mover_name} is choosing {k} cards to pass."
            if obs.given is not None:
                prompt = "You passed " + " ".join(card_label(c) for c in obs.given) + ". " + prompt
    elif obs.phase == "play":
        if my_turn:
            mode = "play"
            lead = obs.lead_suit
            if lead is None:
                what = "Your lead"
            elif any(c.card // 13 == lead for c in hand):
                what = f"Your turn: follow {SUIT_NAMES[lead]} {SUIT_SYMBOLS[lead]}"
            else:
                what = f"Your turn: no {SUIT_NAMES[lead]}, play any card"
            prompt = f"{what}. ←→ or type a card (Q then H), then Enter; or click."
        else:
            prompt = f"{mover_name} to play."
        if not obs.trick and obs.tricks:
            won = obs.tricks[-1].winner
            prompt = f"{_who(won, me, n)} won trick {len(obs.tricks)}. " + prompt
    else:
        prompt = ""
    return TableView(
        mode=mode,
        phase=obs.phase,
        hand_number=obs.hand_number,
        seats=seats,
        hand=hand,
        face_down=face_down,
        trick=_shown_trick(obs),
        choices=choices,
        prompt=prompt,
        status=status_line(obs, names),
        pass_count=k,
        pass_to=pass_to,
        stock_top=obs.stock_top,
        stock_left=obs.stock_left,
        discarded=tuple(obs.discarded) if obs.discarded is not None else (),
        can_look=can_look,
        can_blind=can_blind,
        spades_broken=obs.spades_broken,
        my_turn=my_turn,
    )


# ---------------------------------------------------------------------- the score sheet
@dataclass(frozen=True, slots=True)
class ScoreSheet:
    title: str
    sides: tuple[str, ...]
    columns: tuple[str, ...]
    """Column heads under each side."""
    rows: tuple[tuple[str, ...], ...]
    """Per hand: the hand number, then the cells of each side in turn."""
    totals: tuple[int, ...]
    bags: tuple[int, ...]


def score_sheet(obs: Observation, names: Mapping[int, str]) -> ScoreSheet:
    """Bids, tricks, points, bags and totals per hand and side, from the observation's scores."""
    r = obs.rules
    wide = r.sides <= 2
    order = side_order(r, obs.seat)
    sides = tuple(
        f"{side_label(r, s, obs.seat, names)} ({side_seats_text(r, s, obs.seat, names)})"
        if wide
        else side_label(r, s, obs.seat, names)
        for s in order
    )
    columns = ("Bid", "Won", "Pts", "Bags", "Total") if wide else ("B/W", "Pts", "Total")
    rows = tuple(_sheet_row(i, s, r, wide, order) for i, s in enumerate(obs.scores, 1))
    return ScoreSheet(
        title=f"Score sheet · {rules_name(r)} to {r.target}",
        sides=sides,
        columns=columns,
        rows=rows,
        totals=tuple(obs.totals[s] for s in order),
        bags=tuple(obs.bags[s] for s in order),
    )


def _sheet_row(number: int, s: HandScore, r: Rules, wide: bool, order: Sequence[int]) -> tuple[str, ...]:
    cells = [str(number)]
    for side in order:
        seats = (side, side + 2) if r.teams else (side,)
        bid = "+".join(_seat_bid_short(s.bids[x]) for x in seats)
        won = str(sum(s.tricks[x] for x in seats))
        pts = f"{s.points[side]:+d}"
        if s.penalties[side]:
            pts += "!"
        if wide:
            cells += [bid, won, pts, str(s.bags[side]), str(s.totals[side])]
        else:
            cells += [f"{bid}/{won}", pts, f"{s.totals[side]} ({s.bags[side]})"]
    return tuple(cells)


def describe_action(action: Action) -> str:
    """An action in the player's words, with card symbols: ``play Q♥``, ``bid Blind Nil``."""
    if isinstance(action, Play):
        return f"play {card_label(action.card)}"
    if isinstance(action, Bid):
        return "bid Blind Nil" if action.blind else f"bid {'Nil' if action.tricks == 0 else action.tricks}"
    if isinstance(action, Look):
        return "look at your cards"
    if isinstance(action, PassCard):
        return f"pass {card_label(action.card)}"
    if isinstance(action, PassCards):
        return "pass " + " ".join(card_label(c) for c in action.cards)
    if isinstance(action, Draw):
        return "keep the card" if action.keep else "discard it and take the next"
    return str(action)


_CARD_CODE = re.compile(r"\b(10|[2-9TJQKA])([SHDC])\b")
_VERBS = ("play ", "pass ", "bid ", "keep ", "discard ")


def hint_reason(why: str) -> str:
    """A bot's reason as the hint shows it, after the action in the player's words: without
    the action said again in card codes ("play QH: ..."), and any card in symbols (Q♥)."""
    head, sep, tail = why.partition(": ")
    if sep and head.startswith(_VERBS):
        why = tail

    def label(m: re.Match[str]) -> str:
        rank = 8 if m[1] == "10" else RANK_LETTERS.index(m[1])
        return card_label(13 * "SHDC".index(m[2]) + rank)

    return _CARD_CODE.sub(label, why)


def result_text(obs: Observation, names: Mapping[int, str]) -> str:
    """One line: who won, and the final score."""
    r = obs.rules
    if obs.winner is None:
        return "The game is not finished."
    label = side_label(r, obs.winner, obs.seat, names)
    score = " to ".join(str(obs.totals[s]) for s in sorted(range(r.sides), key=lambda s: -obs.totals[s]))
    if r.teams:
        you_won = r.side_of(obs.seat) == obs.winner
        head = "You and your partner win" if you_won else "Your opponents win"
    else:
        head = "You win" if obs.winner == obs.seat else f"{label} wins"
    return f"{head}, {score}."
