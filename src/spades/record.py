"""Game records (``spec/record.md``): write any game down, read it back, replay and score it.

Reading a record is feeding its actions to a fresh ``Game``: the engine is the only judge, so
a record that breaks a rule fails with the engine's own one-line message, prefixed with the
hand and the trick or bid where it happened.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spades.actions import Bid
from spades.cards import CardSet, card_text, parse_card
from spades.errors import N_, InvalidCard, InvalidRecord, InvalidRules, SpadesError, Text
from spades.observation import bid_value
from spades.rules import Rules
from spades.scoring import HandScore
from spades.state import Game, Phase, seat_name

FORMAT = "spades-record/1"


@dataclass(frozen=True, slots=True)
class Replay:
    """A record read and replayed: the game at its last action, and the record's metadata."""

    game: Game
    players: tuple[str, ...]
    extra: dict[str, Any]


def default_players(n: int) -> list[str]:
    return [seat_name(s, n) for s in range(n)]


# ---------------------------------------------------------------------- writing
def to_record(game: Game, players: Sequence[str] | None = None, **extra: Any) -> dict[str, Any]:
    """The record of everything played so far in ``game`` (the last hand may be partial)."""
    hands = []
    for i, log in enumerate(game.logs):
        dealt = log.dealt
        if i == len(game.logs) - 1 and game.phase is Phase.DRAW:
            dealt = list(game.hands)  # the two-player draw is under way: the cards kept so far
        hand: dict[str, Any] = {
            "deal": [str(CardSet(m)) for m in dealt],
            "bids": [bid_value(b) for b in log.bids],
        }
        if log.stock is not None:
            hand["stock"] = " ".join(card_text(c) for c in log.stock)
        if log.exchanges:
            hand["exchange"] = [
                {"from": ex.giver, "to": ex.receiver, "cards": ex.cards.texts()} for ex in log.exchanges
            ]
        hand["play"] = [card_text(c) for c in log.plays]
        hands.append(hand)
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": game.rules.to_spec(),
        "players": list(players) if players is not None else default_players(game.n),
        "first_dealer": game.first_dealer,
        "hands": hands,
    }
    out.update(extra)
    return out


def dumps(game: Game, players: Sequence[str] | None = None, **extra: Any) -> str:
    return json.dumps(to_record(game, players, **extra), indent=1)


def save(path: str | Path, game: Game, players: Sequence[str] | None = None, **extra: Any) -> None:
    """Write atomically, so a crash mid-write never leaves half a record behind."""
    p = Path(path)
    tmp = p.with_suffix(p.suffix + ".tmp")
    tmp.write_text(dumps(game, players, **extra) + "\n", encoding="utf-8")
    tmp.replace(p)


# ---------------------------------------------------------------------- reading
def loads(text: str) -> Replay:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidRecord(
            N_("unreadable JSON at line {line}, column {column}: {why}"),
            line=e.lineno,
            column=e.colno,
            why=e.msg,
        ) from None
    except (ValueError, RecursionError) as e:  # e.g. nesting too deep, a number too long
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise InvalidRecord(N_("unreadable JSON: {why}"), why=why) from None
    return replay(data)


def load(path: str | Path) -> Replay:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidRecord(
            N_("cannot read {path}: {why}"), path=str(path), why=str(getattr(e, "strerror", None) or e)
        ) from None
    return loads(text)


def replay(data: Any, *, on_hand: Callable[[int, Game], None] | None = None) -> Replay:
    """Check and replay a parsed record; raise ``InvalidRecord`` naming the first violation.

    ``on_hand(number, game)`` is called after each hand is replayed (1-based, the last one
    maybe partial), so a caller can read what the game holds only until the next deal (the
    hand's tricks) in the same single pass; whatever it raises goes through unchanged."""
    if not isinstance(data, Mapping):
        raise InvalidRecord(N_("a record must be a JSON object"))
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise InvalidRecord(
            N_("unknown record format {format} (expected {expected})"),
            format=repr(fmt),
            expected=repr(FORMAT),
        )
    try:
        rules = Rules.from_spec(data.get("rules"))
    except InvalidRules as e:
        raise InvalidRecord(e) from None
    n = rules.players
    players = data.get("players", default_players(n))
    if not isinstance(players, list) or len(players) != n or not all(isinstance(p, str) for p in players):
        raise InvalidRecord(N_("players must be a list of {n} names"), n=n)
    fd = data.get("first_dealer")
    if fd is None:
        if not isinstance(rules.first_dealer, int):
            raise InvalidRecord(N_("the record does not say who dealt first (first_dealer)"))
        fd = rules.first_dealer
    if not isinstance(fd, int) or isinstance(fd, bool) or not 0 <= fd < n:
        raise InvalidRecord(N_("first_dealer {dealer} is not a seat 0..{top}"), dealer=repr(fd), top=n - 1)
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise InvalidRecord(N_("hands must be a list"))
    game = Game(rules, first_dealer=fd, auto_deal=False)
    for i, hand in enumerate(hands):
        number = i + 1
        if game.is_over:
            raise InvalidRecord(N_("hand {hand}: the game was already over"), hand=number)
        last = i == len(hands) - 1
        try:
            _replay_hand(game, hand, number, last)
        except InvalidRecord:
            raise
        except SpadesError as e:
            raise _prefixed(e, number) from None
        if on_hand is not None:
            on_hand(number, game)
    extra = {
        k: v for k, v in data.items() if k not in ("format", "rules", "players", "first_dealer", "hands")
    }
    return Replay(game, tuple(players), extra)


def _prefixed(e: SpadesError, number: int) -> InvalidRecord:
    if str(e).startswith("hand "):
        return InvalidRecord(e)
    return InvalidRecord(N_("hand {hand}: {error}"), hand=number, error=e.text)


def _parse_hand_cards(text: Any, where: Text, passed: bool = False) -> int:
    if isinstance(text, list):
        items = text
    elif isinstance(text, str):
        items = text.split()
    else:
        raise InvalidRecord(N_("{where} must be card text"), where=where)
    mask = 0
    for item in items:
        if not isinstance(item, str):
            raise InvalidRecord(N_("{where}: {card} is not a card"), where=where, card=repr(item))
        try:
            c = parse_card(item)
        except InvalidCard as e:
            raise InvalidRecord(N_("{where}: {error}"), where=where, error=e.text) from None
        if mask >> c & 1:
            twice = (
                N_("{where}: card {card} is passed twice")
                if passed
                else N_("{where}: card {card} was dealt twice")
            )
            raise InvalidRecord(twice, where=where, card=card_text(c))
        mask |= 1 << c
    return mask


def _parse_bid(value: Any, where: Text) -> Bid | None:
    if value is None:
        return None
    if value == "nil" or (isinstance(value, int) and not isinstance(value, bool) and value == 0):
        return Bid(0)
    if value == "blind_nil":
        return Bid(0, blind=True)
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 17:
        return Bid(value)
    raise InvalidRecord(
        N_("{where} bid {bid}, which is not 0..17, nil or blind_nil"), where=where, bid=repr(value)
    )


def _replay_hand(game: Game, hand: Any, number: int, last: bool) -> None:
    n = game.n
    if not isinstance(hand, Mapping):
        raise InvalidRecord(N_("hand {hand} must be an object"), hand=number)
    deal = hand.get("deal")
    if not isinstance(deal, list) or len(deal) != n:
        raise InvalidRecord(N_("hand {hand}: deal must list {n} hands"), hand=number, n=n)
    masks = [
        _parse_hand_cards(d, Text(N_("hand {hand}, {who}'s deal"), hand=number, who=Text(seat_name(s, n))))
        for s, d in enumerate(deal)
    ]
    stock_text = hand.get("stock")
    # A two-player record's last hand may stop during the draw: its deal is the cards kept so far.
    drawing = n == 2 and stock_text is not None and last and sum(m.bit_count() for m in masks) < 26
    seen = 0
    size = game.deck.hand_size
    for s, m in enumerate(masks):
        if m.bit_count() != size and not (drawing and m.bit_count() < size):
            raise InvalidRecord(
                N_("hand {hand}: {who} was dealt {count} cards, not {size}"),
                hand=number,
                who=Text(seat_name(s, n)),
                count=m.bit_count(),
                size=size,
            )
        if seen & m:
            raise InvalidRecord(
                N_("hand {hand}: card {card} was dealt twice"),
                hand=number,
                card=card_text((seen & m).bit_length() - 1),
            )
        seen |= m
    if n == 2 and stock_text is not None:
        stock = _parse_stock(stock_text, number)
        game.deal(stock=stock)
        _replay_draw(game, masks, number, drawing)
        if game.phase is Phase.DRAW:
            bids = hand.get("bids")
            if (isinstance(bids, list) and any(b is not None for b in bids)) or hand.get("play"):
                raise InvalidRecord(
                    N_("hand {hand}: bids or cards are played before the draw ended"), hand=number
                )
            return
        for s, m in enumerate(masks):
            if game.hands[s] != m:
                extra = CardSet(m & ~game.hands[s])
                raise InvalidRecord(
                    N_("hand {hand}: the stock does not produce {who}'s deal ({cards} not kept from it)"),
                    hand=number,
                    who=Text(seat_name(s, n)),
                    cards=str(extra),
                )
    else:
        game.deal(masks)
    _replay_bids(game, hand.get("bids", []), number, last)
    if game.phase is Phase.BID:
        if hand.get("exchange") or hand.get("play"):
            raise InvalidRecord(
                N_("hand {hand}: cards are exchanged or played before the bidding ended"), hand=number
            )
        return
    _replay_exchange(game, hand.get("exchange") or [], number, last)
    if game.phase is Phase.EXCHANGE:
        if hand.get("play"):
            raise InvalidRecord(N_("hand {hand}: cards are played before the exchange ended"), hand=number)
        return
    plays = hand.get("play", [])
    size = game.deck.hand_size
    if not isinstance(plays, list):
        raise InvalidRecord(N_("hand {hand}: play must be a list of cards"), hand=number)
    for i, text in enumerate(plays):
        where = Text(N_("hand {hand}, trick {trick}"), hand=number, trick=i // n + 1)
        if not isinstance(text, str):
            raise InvalidRecord(N_("{where}: {card} is not a card"), where=where, card=repr(text))
        try:
            card = parse_card(text)
        except InvalidCard as e:
            raise InvalidRecord(N_("{where}: {error}"), where=where, error=e.text) from None
        if game.phase is not Phase.PLAY:
            raise InvalidRecord(N_("{where}: more than {total} cards played"), where=where, total=size * n)
        game.play(card)
    if len(plays) != size * n and not last:
        raise InvalidRecord(
            N_("hand {hand}: {count} cards played, not {total}"),
            hand=number,
            count=len(plays),
            total=size * n,
        )


def _parse_stock(text: Any, number: int) -> list[int]:
    items = text.split() if isinstance(text, str) else text
    if not isinstance(items, list):
        raise InvalidRecord(N_("hand {hand}: stock must be card text"), hand=number)
    try:
        stock = [parse_card(t) for t in items]
    except InvalidCard as e:
        raise InvalidRecord(N_("hand {hand}, stock: {error}"), hand=number, error=e.text) from None
    except AttributeError as e:
        raise InvalidRecord(N_("hand {hand}, stock: {error}"), hand=number, error=str(e)) from None
    if sorted(stock) != list(range(52)):
        raise InvalidRecord(N_("hand {hand}: the stock must hold each of the 52 cards once"), hand=number)
    return stock


def _replay_draw(game: Game, masks: list[int], number: int, partial: bool = False) -> None:
    """Recover each draw choice from the stock and the kept hands (``partial``: the record
    stops during the draw, once every kept card is accounted for)."""
    while game.phase is Phase.DRAW:
        if partial and list(game.hands) == masks:
            return
        seat = game.turn
        top = game.stock[game.stock_pos]
        nxt = game.stock[game.stock_pos + 1]
        if masks[seat] >> top & 1:
            game.draw(True)
        elif masks[seat] >> nxt & 1:
            game.draw(False)
        else:
            raise InvalidRecord(
                N_(
                    "hand {hand}: the stock does not produce {who}'s deal (neither {top} nor {next} was kept)"
                ),
                hand=number,
                who=Text(seat_name(seat, 2)),
                top=card_text(top),
                next=card_text(nxt),
            )


def _replay_bids(game: Game, bids: Any, number: int, last: bool) -> None:
    n = game.n
    if not isinstance(bids, list) or len(bids) > n:
        raise InvalidRecord(
            N_("hand {hand}: bids must list at most {n} bids, one per seat"), hand=number, n=n
        )
    bids = bids + [None] * (n - len(bids))
    parsed = [
        _parse_bid(b, Text(N_("hand {hand}, bid: {who}"), hand=number, who=Text(seat_name(s, n))))
        for s, b in enumerate(bids)
    ]
    for k in range(n):
        if game.phase is not Phase.BID:  # bids the engine made itself (mirror)
            break
        seat = game.turn
        bid = parsed[seat]
        if bid is None:
            if not last:
                raise InvalidRecord(
                    N_("hand {hand}, bid: {who} has no bid"), hand=number, who=Text(seat_name(seat, n))
                )
            for j in range(k + 1, n):
                later = (seat + j - k) % n
                if parsed[later] is not None:
                    raise InvalidRecord(
                        N_("hand {hand}, bid: {who} bid {bid} but {before}, who bids before him, has no bid"),
                        hand=number,
                        who=Text(seat_name(later, n)),
                        bid=repr(bids[later]),
                        before=Text(seat_name(seat, n)),
                    )
            return
        if not bid.blind and not game.looked[seat]:
            game.look(seat)
        game.make_bid(bid)
    _check_made_bids(game, parsed, number, last)


def _check_made_bids(game: Game, parsed: list[Bid | None], number: int, last: bool) -> None:
    """``mirror``: the engine made the bids at the deal; the record's must be those, written
    like any bids (only the last hand may stop before them)."""
    made = game.logs[-1].bids
    for k in range(game.n):
        seat = (game.logs[-1].dealer + 1 + k) % game.n
        bid, mine = parsed[seat], made[seat]
        if bid is None and mine is not None and not last:
            raise InvalidRecord(
                N_("hand {hand}, bid: {who} has no bid"), hand=number, who=Text(seat_name(seat, game.n))
            )
        if bid is not None and mine is not None and (bid.tricks, bid.blind) != (mine.tricks, mine.blind):
            raise InvalidRecord(
                N_(
                    "hand {hand}, bid: {who} bid {bid} but holds {spades} spades,"
                    " which is his bid (bidding mirror)"
                ),
                hand=number,
                who=Text(seat_name(seat, game.n)),
                bid=str(bid.record_value),
                spades=mine.tricks,
            )


def _replay_exchange(game: Game, exchange: Any, number: int, last: bool) -> None:
    n = game.n
    where = Text(N_("hand {hand}, exchange"), hand=number)
    if not isinstance(exchange, list):
        raise InvalidRecord(N_("{where}: must be a list of passes"), where=where)
    steps = list(game.exchange_steps)
    if len(exchange) > len(steps):
        raise InvalidRecord(
            N_("{where}: {count} passes but the bids call for {steps}"),
            where=where,
            count=len(exchange),
            steps=len(steps),
        )
    parsed = []
    for item in exchange:
        if not isinstance(item, Mapping):
            raise InvalidRecord(
                N_("{where}: each pass must be an object with from, to and cards"), where=where
            )
        giver, receiver, cards = item.get("from"), item.get("to"), item.get("cards")
        if (
            not isinstance(giver, int)
            or not isinstance(receiver, int)
            or isinstance(giver, bool)
            or isinstance(receiver, bool)
            or giver not in range(n)
            or receiver not in range(n)
        ):
            raise InvalidRecord(
                N_("{where}: a pass from {giver} to {receiver} names no seats"),
                where=where,
                giver=repr(giver),
                receiver=repr(receiver),
            )
        mask = _parse_hand_cards(
            cards,
            Text(N_("hand {hand}, exchange, {who}'s pass"), hand=number, who=Text(seat_name(giver, n))),
            True,
        )
        parsed.append((giver, receiver, mask))
    # The record may list the two teams in either order; the engine takes them in bid order.
    team_rank = {giver % 2: i for i, (giver, _) in enumerate(steps)}
    parsed.sort(key=lambda p: team_rank.get(p[0] % 2, 99))
    for giver, receiver, mask in parsed:
        expected = game.exchange_steps[0]
        if (giver, receiver) != expected:
            raise InvalidRecord(
                N_("{where}: {giver} passed to {receiver} but {first} must pass to {to} first"),
                where=where,
                giver=Text(seat_name(giver, n)),
                receiver=Text(seat_name(receiver, n)),
                first=Text(seat_name(expected[0], n)),
                to=Text(seat_name(expected[1], n)),
            )
        game.pass_cards(CardSet(mask), giver)
    if game.phase is Phase.EXCHANGE and not last:
        raise InvalidRecord(
            N_("{where}: {count} passes are missing"), where=where, count=len(game.exchange_steps)
        )


# ---------------------------------------------------------------------- the replay report
def summary(game: Game) -> dict[str, Any]:
    """The JSON of ``spades replay --json``."""
    hands = [_hand_summary(s, True) for s in game.scores]
    if game.phase not in (Phase.DEAL, Phase.OVER) and game.logs:
        hands.append(_partial_summary(game))
    return {"hands": hands, "totals": list(game.totals), "winner": game.winner}


def _hand_summary(s: HandScore, complete: bool) -> dict[str, Any]:
    return {
        "dealer": s.dealer,
        "tricks": list(s.tricks),
        "contracts": list(s.contracts),
        "points": list(s.points),
        "bags": list(s.bags),
        "totals": list(s.totals),
        "complete": complete,
    }


def _partial_summary(game: Game) -> dict[str, Any]:
    r = game.rules
    contracts = []
    for side in range(r.sides):
        seats = (side, side + 2) if r.teams else (side,)
        contracts.append(sum(game.bid[s] for s in seats if game.bid[s] > 0))
    return {
        "dealer": game.dealer,
        "tricks": list(game.tricks_won),
        "contracts": contracts,
        "points": [0] * r.sides,
        "bags": list(game.bags),
        "totals": list(game.totals),
        "complete": False,
    }
