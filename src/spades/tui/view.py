"""The view-model: everything the terminal game draws, built from one ``Observation``.

This is the structural guarantee that the screen shows no hidden card: ``build_view`` takes
the human seat's observation and his own legal actions, and nothing else, and every widget
draws from the ``TableView`` it returns. No widget ever holds the ``Game``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from spades.actions import Action, Bid, Draw, Look, PassCard, PassCards, Play
from spades.cards import BIG_JOKER, JOKER_TEXT, RANK_LETTERS, SUIT_SYMBOLS
from spades.i18n import N_, _, localized, ngettext
from spades.legal import Deck, deck_of, may_lead_spades, play_mask
from spades.observation import BidView, Observation
from spades.rules import Rules
from spades.scoring import HandScore, SeatBid
from spades.state import seat_name

SUIT_WORDS = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))
"""The suits as a sentence names them (translated where shown: ``_(SUIT_WORDS[s])``)."""
SEAT_WORDS = (N_("North"), N_("East"), N_("South"), N_("West"))
"""The seat names of ``state.seat_name``, marked for the catalogs."""


def seat_label(seat: int, players: int) -> str:
    """A seat's name in the player's language: ``Nord``, ``Sever``, ``Ouest``."""
    return _(seat_name(seat, players))


def suit_word(suit: int) -> str:
    return _(SUIT_WORDS[suit])


POSITIONS: Mapping[int, tuple[str, ...]] = {
    4: ("bottom", "left", "top", "right"),
    3: ("bottom", "left", "right"),
    2: ("bottom", "top"),
}
"""Where each seat sits on screen, clockwise from the player, who is always at the bottom."""


def card_label(card: int) -> str:
    """How a card looks on screen: ``A♠``, ``10♥``, and ``BJ``/``LJ`` for the jokers (their
    record text, which is also what the player types: ``B`` then ``J``)."""
    if card >= 52:
        return JOKER_TEXT[card]
    rank = card % 13
    return ("10" if rank == 8 else RANK_LETTERS[rank]) + SUIT_SYMBOLS[card // 13]


def is_red(card: int) -> bool:
    """Printed in red: hearts, diamonds (the jjdd 2♦ too, though it plays as a spade) and the
    Big Joker, as on the physical cards."""
    return card == BIG_JOKER or (card < 52 and card // 13 in (1, 2))


def hand_order(deck: Deck, cards: Iterable[int]) -> list[int]:
    """A hand as the player holds it: by suit in play (spades, hearts, diamonds, clubs), each
    suit from its strongest card in a trick down. The jokers and the jjdd 2♦ sit with the
    spades in trump order: BJ LJ 2♦ 2♠ A♠ … 3♠."""
    return sorted(cards, key=lambda c: (deck.suit_of[c], -deck.trick_keys[deck.suit_of[c]][c]))


def position(seat: int, human: int, players: int) -> str:
    return POSITIONS[players][(seat - human) % players]


def bid_text(bid: BidView) -> str:
    if bid is None:
        return "—"
    if bid.blind:
        return _("Blind Nil")
    return _("Nil") if bid.is_nil else str(bid.tricks)


def _seat_bid_short(bid: SeatBid) -> str:
    if bid.tricks == 0:
        return _("BN") if bid.blind else _("Nil")
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
    suit: int
    """The card's suit in play, which the hand groups it under: a joker, and the 2♦ of
    ``jjdd``, are spades."""

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
    tricks_per_hand: int = 13
    """Tricks in a hand (17 with three players): "Trick 5 of 17"."""
    max_bid: int = 13
    jokers: bool = False
    """The deck holds the two jokers (their keys, B J and L J, are live)."""

    def seat_at(self, where: str) -> SeatView | None:
        return next((s for s in self.seats if s.position == where), None)

    @property
    def legal_cards(self) -> tuple[int, ...]:
        return tuple(c.card for c in self.hand if c.legal)


def side_label(rules: Rules, side: int, human: int, names: Mapping[int, str]) -> str:
    """``Us``/``Them`` for partnerships; ``You`` or the seat's name when each plays alone."""
    if rules.teams:
        return _("Us") if rules.side_of(human) == side else _("Them")
    return _("You") if side == human else seat_label(side, rules.players)


def side_seats_text(rules: Rules, side: int, human: int, names: Mapping[int, str]) -> str:
    """Who makes up a side: ``N+S`` for a partnership; the seat, or the bot, otherwise."""
    if rules.teams:
        a, b = seat_label(side, 4), seat_label(side + 2, 4)
        return f"{a[0]}+{b[0]}"
    return seat_label(side, rules.players) if side == human else names.get(side, "")


def side_order(rules: Rules, human: int) -> tuple[int, ...]:
    """Sides in the order a player reads them: his own first, then the others in seat order
    (sitting West or East, "Us" still comes before "Them")."""
    mine = rules.side_of(human)
    return (mine, *(s for s in range(rules.sides) if s != mine))


def rules_name(rules: Rules) -> str:
    """The rule set in a word: its preset, with ``*`` when options change it. Joker Joker
    Deuce Deuce has no preset of its own but a name players know, so it is ``jjdd``."""
    spec = rules.to_spec()
    if isinstance(spec, str):
        return spec
    changed = {k: v for k, v in spec.items() if k != "preset"}
    name = str(spec.get("preset", "custom"))
    if changed.get("jokers") == "jjdd" and name in ("standard", "jokers"):
        name = "jjdd"
        del changed["jokers"]
    return f"{name}*" if changed else name


STATUS_WIDTH = 78
"""Columns of the status bar on an 80-column terminal (it has a column of padding each side)."""


def status_line(obs: Observation, names: Mapping[int, str]) -> str:
    r = obs.rules
    parts, short = [], []
    for side in side_order(r, obs.seat):
        label = side_label(r, side, obs.seat, names)
        b = obs.bags[side]
        bags = ngettext("{n} bag", "{n} bags", b).format(n=b) if r.sides <= 2 else _("{n}b").format(n=b)
        parts.append(f"{label} {obs.totals[side]} ({bags})")
        short.append(f"{label if label == _('You') else label[0]} {obs.totals[side]} ({bags})")
    # The longest form that fits the 78 columns of the status bar at 80 (three or four scores
    # and a long game need the shorter ones).
    hand, target = obs.hand_number, r.target
    long_head = _("Hand {hand} · {rules} to {target}").format(hand=hand, rules=rules_name(r), target=target)
    head = _("Hand {hand} to {target}").format(hand=hand, target=target)
    for line in (
        f"{long_head} │ " + " · ".join(parts),
        f"{head} │ " + " · ".join(parts),
        f"{head} │ " + " · ".join(short),
    ):
        if len(line) <= STATUS_WIDTH:
            return line
    return _("Hand {hand}").format(hand=hand) + " │ " + " · ".join(short)


def refusal(obs: Observation, card: int) -> str | None:
    """Why the player may not play ``card`` now, in his own terms; ``None`` if he may."""
    if obs.phase != "play" or not obs.my_turn:
        return _("It is not your turn to play.")
    hand = obs.hand
    if hand is None or card not in hand:
        return _("You do not hold {card}.").format(card=card_label(card))
    deck = deck_of(obs.rules)
    lead = obs.lead_suit
    may_lead = may_lead_spades(obs.rules, obs.spades_broken)
    if play_mask(deck, hand.mask, -1 if lead is None else lead, may_lead) >> card & 1:
        return None
    trump = ""
    if card >= 52 or deck.suit_of[card] != card // 13:
        trump = " " + _("({card} is a spade)").format(card=card_label(card))
    if lead is not None:
        return _("You must follow suit{trump}: play {suit} {symbol}.").format(
            trump=trump, suit=suit_word(lead), symbol=SUIT_SYMBOLS[lead]
        )
    return _("Spades are not broken yet{trump}: lead another suit.").format(trump=trump)


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
    return _("You") if seat == human else seat_label(seat, players)


def build_view(obs: Observation, legal: Sequence[Action], names: Mapping[int, str]) -> TableView:
    """Everything to draw, from the human's observation and his own legal actions only.

    ``names`` maps each seat to who sits there (the person's name or a bot's spec).
    """
    n, me, r = obs.players, obs.seat, obs.rules
    deck = deck_of(r)
    my_turn = obs.my_turn
    legal_play = {a.card for a in legal if isinstance(a, Play)}
    can_look = any(isinstance(a, Look) for a in legal)
    can_blind = any(isinstance(a, Bid) and a.blind for a in legal)
    bids = sorted((a for a in legal if isinstance(a, Bid) and not a.blind), key=lambda b: b.tricks)
    seats = tuple(
        SeatView(
            seat=s,
            name=seat_label(s, n),
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
        hand = tuple(
            CardView(c, c in legal_play, bool(received >> c & 1), deck.suit_of[c])
            for c in hand_order(deck, obs.hand)
        )
    elif obs.phase == "bid":
        face_down = deck.hand_size
    partner = r.partner_of(me) if r.teams else None
    mover = obs.to_move
    mover_name = _who(mover, me, n) if mover is not None else ""
    choices: tuple[Choice, ...] = ()
    k = r.blind_nil_exchange
    pass_to: int | None = None
    mode = "wait"
    if obs.winner is not None or obs.phase == "over":
        mode = "over"
        prompt = _("The game is over.")
    elif obs.phase == "draw":
        if my_turn and obs.stock_top is not None:
            mode = "draw"
            top = card_label(obs.stock_top)
            choices = (
                Choice("keep", _("Keep {card}").format(card=top)),
                Choice("discard", _("Discard {card}").format(card=top)),
            )
            left = ngettext("{n} card left.", "{n} cards left.", obs.stock_left).format(n=obs.stock_left)
            prompt = (
                _(
                    "The stock shows {card}. K: keep it (the next card is discarded unseen) · "
                    "D: discard it (and take the next card)."
                ).format(card=top)
                + " "
                + left
            )
        else:
            prompt = ngettext(
                "{who} is drawing from the stock ({n} card left).",
                "{who} is drawing from the stock ({n} cards left).",
                obs.stock_left,
            ).format(who=mover_name, n=obs.stock_left)
    elif obs.phase == "bid":
        if my_turn and bids:
            mode = "bid"
            choices = tuple(
                Choice(f"bid:{b.tricks}", _("Nil") if b.tricks == 0 else str(b.tricks)) for b in bids
            )
            partner_bid = ""
            if partner is not None:
                partner_bid = " " + _("Your partner bid {bid}.").format(bid=bid_text(obs.bids[partner]))
            if partner is not None and obs.bids[partner] is None:
                partner_bid = ""
            nil = _(", N for Nil") if any(b.tricks == 0 for b in bids) else ""
            note = bid_rule_note(obs, [b.tricks for b in bids])
            if note and r.bidding == "suicide":
                partner_bid = ""  # the note says what the partner's bid leaves
            prompt = (
                _("Your bid: ←→ or type a number{nil}, Enter to bid.").format(nil=nil) + partner_bid + note
            )
        elif my_turn and not obs.looked:
            mode = "bid"
            choices = (Choice("look", _("Look at my cards")),) + (
                (Choice("blind", _("Blind Nil")),) if can_blind else ()
            )
            prompt = _(
                "Your turn to bid, and your cards are face down: bid Blind Nil (B) now, "
                "or look (L) and bid normally."
            )
        elif not obs.looked:
            choices = (Choice("look", _("Look at my cards")),)
            prompt = _(
                "Your cards are face down. Look (L) when you like; Blind Nil is only possible "
                "before you look. {who} to bid."
            ).format(who=mover_name)
        else:
            prompt = _("{who} to bid.").format(who=mover_name)
    elif obs.phase == "exchange":
        if my_turn:
            mode = "pass"
            pass_to = partner
            to = seat_label(partner, n) if partner is not None else _("your partner")
            got = ""
            if obs.received is not None:
                got = (
                    _("You received {cards}.").format(cards=" ".join(card_label(c) for c in obs.received))
                    + " "
                )
            choices = (Choice("pass", ngettext("Pass {n} card", "Pass {n} cards", k).format(n=k)),)
            prompt = got + ngettext(
                "Choose {n} card to pass to {to}: Space or click to pick, Enter to pass.",
                "Choose {n} cards to pass to {to}: Space or click to pick, Enter to pass.",
                k,
            ).format(n=k, to=to)
        else:
            prompt = ngettext(
                "{who} is choosing {n} card to pass.", "{who} is choosing {n} cards to pass.", k
            ).format(who=mover_name, n=k)
            if obs.given is not None:
                given = " ".join(card_label(c) for c in obs.given)
                prompt = _("You passed {cards}.").format(cards=given) + " " + prompt
    elif obs.phase == "play":
        if my_turn:
            mode = "play"
            lead = obs.lead_suit
            if lead is None:
                what = _("Your lead")
            elif any(c.suit == lead for c in hand):
                what = _("Your turn: follow {suit} {symbol}").format(
                    suit=suit_word(lead), symbol=SUIT_SYMBOLS[lead]
                )
            else:
                what = _("Your turn: no {suit}, play any card").format(suit=suit_word(lead))
            prompt = _("{what}. ←→ or type a card (Q then H), then Enter; or click.").format(what=what)
        else:
            prompt = _("{who} to play.").format(who=mover_name)
        if not obs.trick and obs.tricks:
            won = obs.tricks[-1].winner
            if won == me:
                said = _("You won trick {number}.").format(number=len(obs.tricks))
            else:
                said = _("{who} won trick {number}.").format(who=_who(won, me, n), number=len(obs.tricks))
            prompt = f"{said} {prompt}"
        elif r.bidding == "mirror" and not obs.tricks:  # the first trick: say where the bids came from
            said = _("Mirror: every bid is the spades held; yours is {bid}.").format(
                bid=bid_text(obs.bids[me])
            )
            prompt = f"{said} {prompt}"
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
        tricks_per_hand=deck.hand_size,
        max_bid=deck.max_bid,
        jokers=r.jokers is not None,
    )


def bid_rule_note(obs: Observation, allowed: Sequence[int]) -> str:
    """Why the bids offered are these, when a house rule narrows them: `` Suicide: Nil or 4+.``
    Empty under the free bidding of ``rules.md``. ``allowed`` are the engine's legal bids
    (0 = Nil), so the note never promises a bid the engine would refuse."""
    r = obs.rules
    numbers = [b for b in allowed if b > 0]
    low = min(numbers, default=0)
    if r.bidding == "suicide":
        mate = obs.bids[(obs.seat + 2) % 4]
        if mate is None:
            return " " + _("Suicide: Nil or {low}+ (your partner must then bid the other).").format(low=low)
        if 0 not in allowed:
            return " " + _("Suicide: your partner bid {bid}, so you bid {low} or more.").format(
                bid=bid_text(mate), low=low
            )
        return " " + _("Suicide: your partner bid {bid}, so you bid Nil.").format(bid=bid_text(mate))
    if r.bidding == "whiz":
        if not numbers:
            return " " + _("Whiz: you hold no spades, so you bid Nil.")
        return " " + _("Whiz: Nil or {n}, the spades you hold.").format(n=numbers[0])
    if r.team_min_bid and r.teams:
        mate = obs.bids[(obs.seat + 2) % 4]
        if mate is None:
            return " " + _("Your side must bid {n} or more in all.").format(n=r.team_min_bid)
        least = _("Nil") if 0 in allowed else str(low)
        return " " + _("Your side must bid {n} or more in all: you bid {least} or more.").format(
            n=r.team_min_bid, least=least
        )
    return ""


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
    columns = (
        (_("Bid"), _("Won"), _("Pts"), _("Bags"), _("Total")) if wide else (_("B/W"), _("Pts"), _("Total"))
    )
    rows = tuple(_sheet_row(i, s, r, wide, order) for i, s in enumerate(obs.scores, 1))
    return ScoreSheet(
        title=_("Score sheet · {rules} to {target}").format(rules=rules_name(r), target=r.target),
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
        return _("play {card}").format(card=card_label(action.card))
    if isinstance(action, Bid):
        if action.blind:
            return _("bid Blind Nil")
        return _("bid {bid}").format(bid=_("Nil") if action.tricks == 0 else action.tricks)
    if isinstance(action, Look):
        return _("look at your cards")
    if isinstance(action, PassCard):
        return _("pass {cards}").format(cards=card_label(action.card))
    if isinstance(action, PassCards):
        return _("pass {cards}").format(cards=" ".join(card_label(c) for c in action.cards))
    if isinstance(action, Draw):
        return _("keep the card") if action.keep else _("discard it and take the next")
    return str(action)


_CARD_CODE = re.compile(r"\b(10|[2-9TJQKA])([SHDC])\b")
_VERBS = ("play ", "pass ", "bid ", "keep ", "discard ")


def hint_reason(why: str) -> str:
    """A bot's reason as the hint shows it, after the action in the player's words: without
    the action said again in card codes ("play QH: ..."), and any card in symbols (Q♥). A
    reason that is a ``Text`` is said in the player's language (its translation keeps the
    action before the first ": ")."""
    head, sep, _tail = why.partition(": ")
    said = localized(why)
    why = (said.partition(": ")[2] or said) if sep and head.startswith(_VERBS) else said

    def label(m: re.Match[str]) -> str:
        rank = 8 if m[1] == "10" else RANK_LETTERS.index(m[1])
        return card_label(13 * "SHDC".index(m[2]) + rank)

    return _CARD_CODE.sub(label, why)


def result_text(obs: Observation, names: Mapping[int, str]) -> str:
    """One line: who won, and the final score."""
    r = obs.rules
    if obs.winner is None:
        return _("The game is not finished.")
    label = side_label(r, obs.winner, obs.seat, names)
    score = _(" to ").join(str(obs.totals[s]) for s in sorted(range(r.sides), key=lambda s: -obs.totals[s]))
    if r.teams:
        you_won = r.side_of(obs.seat) == obs.winner
        head = _("You and your partner win") if you_won else _("Your opponents win")
    else:
        head = _("You win") if obs.winner == obs.seat else _("{side} wins").format(side=label)
    return _("{head}, {score}.").format(head=head, score=score)
