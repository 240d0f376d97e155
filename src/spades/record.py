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
from spades.errors import InvalidCard, InvalidRecord, InvalidRules, SpadesError
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
        raise InvalidRecord(f"unreadable JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except (ValueError, RecursionError) as e:  # e.g. nesting too deep, a number too long
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise InvalidRecord(f"unreadable JSON: {why}") from None
    return replay(data)


def load(path: str | Path) -> Replay:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidRecord(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    return loads(text)


def replay(data: Any, *, on_hand: Callable[[int, Game], None] | None = None) -> Replay:
    """Check and replay a parsed record; raise ``InvalidRecord`` naming the first violation.

    ``on_hand(number, game)`` is called after each hand is replayed (1-based, the last one
    maybe partial), so a caller can read what the game holds only until the next deal (the
    hand's tricks) in the same single pass; whatever it raises goes through unchanged."""
    if not isinstance(data, Mapping):
        raise InvalidRecord("a record must be a JSON object")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise InvalidRecord(f"unknown record format {fmt!r} (expected {FORMAT!r})")
    try:
        rules = Rules.from_spec(data.get("rules"))
    except InvalidRules as e:
        raise InvalidRecord(str(e)) from None
    n = rules.players
    players = data.get("players", default_players(n))
    if not isinstance(players, list) or len(players) != n or not all(isinstance(p, str) for p in players):
        raise InvalidRecord(f"players must be a list of {n} names")
    fd = data.get("first_dealer")
    if fd is None:
        if not isinstance(rules.first_dealer, int):
            raise InvalidRecord("the record does not say who dealt first (first_dealer)")
        fd = rules.first_dealer
    if not isinstance(fd, int) or isinstance(fd, bool) or not 0 <= fd < n:
        raise InvalidRecord(f"first_dealer {fd!r} is not a seat 0..{n - 1}")
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise InvalidRecord("hands must be a list")
    game = Game(rules, first_dealer=fd, auto_deal=False)
    for i, hand in enumerate(hands):
        number = i + 1
        if game.is_over:
            raise InvalidRecord(f"hand {number}: the game was already over")
        last = i == len(hands) - 1
        try:
            _replay_hand(game, hand, number, last)
        except InvalidRecord:
            raise
        except SpadesError as e:
            raise InvalidRecord(_prefixed(str(e), number)) from None
        if on_hand is not None:
            on_hand(number, game)
    extra = {
        k: v for k, v in data.items() if k not in ("format", "rules", "players", "first_dealer", "hands")
    }
    return Replay(game, tuple(players), extra)


def _prefixed(msg: str, number: int) -> str:
    return msg if msg.startswith("hand ") else f"hand {number}: {msg}"


def _parse_hand_cards(text: Any, where: str, twice: str = "was dealt twice") -> int:
    if isinstance(text, list):
        items = text
    elif isinstance(text, str):
        items = text.split()
    else:
        raise InvalidRecord(f"{where} must be card text")
    mask = 0
    for item in items:
        if not isinstance(item, str):
            raise InvalidRecord(f"{where}: {item!r} is not a card")
        try:
            c = parse_card(item)
        except InvalidCard as e:
            raise InvalidRecord(f"{where}: {e}") from None
        if mask >> c & 1:
            raise InvalidRecord(f"{where}: card {card_text(c)} {twice}")
        mask |= 1 << c
    return mask


def _parse_bid(value: Any, where: str) -> Bid | None:
    if value is None:
        return None
    if value == "nil" or (isinstance(value, int) and not isinstance(value, bool) and value == 0):
        return Bid(0)
    if value == "blind_nil":
        return Bid(0, blind=True)
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 17:
        return Bid(value)
    raise InvalidRecord(f"{where} bid {value!r}, which is not 0..17, nil or blind_nil")


def _replay_hand(game: Game, hand: Any, number: int, last: bool) -> None:
    n = game.n
    if not isinstance(hand, Mapping):
        raise InvalidRecord(f"hand {number} must be an object")
    deal = hand.get("deal")
    if not isinstance(deal, list) or len(deal) != n:
        raise InvalidRecord(f"hand {number}: deal must list {n} hands")
    masks = [_parse_hand_cards(d, f"hand {number}, {seat_name(s, n)}'s deal") for s, d in enumerate(deal)]
    stock_text = hand.get("stock")
    # A two-player record's last hand may stop during the draw: its deal is the cards kept so far.
    drawing = n == 2 and stock_text is not None and last and sum(m.bit_count() for m in masks) < 26
    seen = 0
    size = game.deck.hand_size
    for s, m in enumerate(masks):
        if m.bit_count() != size and not (drawing and m.bit_count() < size):
            raise InvalidRecord(
                f"hand {number}: {seat_name(s, n)} was dealt {m.bit_count()} cards, not {size}"
            )
        if seen & m:
            raise InvalidRecord(
                f"hand {number}: card {card_text((seen & m).bit_length() - 1)} was dealt twice"
            )
        seen |= m
    if n == 2 and stock_text is not None:
        stock = _parse_stock(stock_text, number)
        game.deal(stock=stock)
        _replay_draw(game, masks, number, drawing)
        if game.phase is Phase.DRAW:
            bids = hand.get("bids")
            if (isinstance(bids, list) and any(b is not None for b in bids)) or hand.get("play"):
                raise InvalidRecord(f"hand {number}: bids or cards are played before the draw ended")
            return
        for s, m in enumerate(masks):
            if game.hands[s] != m:
                extra = CardSet(m & ~game.hands[s])
                raise InvalidRecord(
                    f"hand {number}: the stock does not produce {seat_name(s, n)}'s deal "
                    f"({extra} not kept from it)"
                )
    else:
        game.deal(masks)
    _replay_bids(game, hand.get("bids", []), number, last)
    if game.phase is Phase.BID:
        if hand.get("exchange") or hand.get("play"):
            raise InvalidRecord(f"hand {number}: cards are exchanged or played before the bidding ended")
        return
    _replay_exchange(game, hand.get("exchange") or [], number, last)
    if game.phase is Phase.EXCHANGE:
        if hand.get("play"):
            raise InvalidRecord(f"hand {number}: cards are played before the exchange ended")
        return
    plays = hand.get("play", [])
    size = game.deck.hand_size
    if not isinstance(plays, list):
        raise InvalidRecord(f"hand {number}: play must be a list of cards")
    for i, text in enumerate(plays):
        where = f"hand {number}, trick {i // n + 1}"
        if not isinstance(text, str):
            raise InvalidRecord(f"{where}: {text!r} is not a card")
        try:
            card = parse_card(text)
        except InvalidCard as e:
            raise InvalidRecord(f"{where}: {e}") from None
        if game.phase is not Phase.PLAY:
            raise InvalidRecord(f"{where}: more than {size * n} cards played")
        game.play(card)
    if len(plays) != size * n and not last:
        raise InvalidRecord(f"hand {number}: {len(plays)} cards played, not {size * n}")


def _parse_stock(text: Any, number: int) -> list[int]:
    items = text.split() if isinstance(text, str) else text
    if not isinstance(items, list):
        raise InvalidRecord(f"hand {number}: stock must be card text")
    try:
        stock = [parse_card(t) for t in items]
    except (InvalidCard, AttributeError) as e:
        raise InvalidRecord(f"hand {number}, stock: {e}") from None
    if sorted(stock) != list(range(52)):
        raise InvalidRecord(f"hand {number}: the stock must hold each of the 52 cards once")
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
                f"hand {number}: the stock does not produce {seat_name(seat, 2)}'s deal "
                f"(neither {card_text(top)} nor {card_text(nxt)} was kept)"
            )


def _replay_bids(game: Game, bids: Any, number: int, last: bool) -> None:
    n = game.n
    if not isinstance(bids, list) or len(bids) > n:
        raise InvalidRecord(f"hand {number}: bids must list at most {n} bids, one per seat")
    bids = bids + [None] * (n - len(bids))
    parsed = [_parse_bid(b, f"hand {number}, bid: {seat_name(s, n)}") for s, b in enumerate(bids)]
    for k in range(n):
        if game.phase is not Phase.BID:  # bids the engine made itself (mirror)
            break
        seat = game.turn
        bid = parsed[seat]
        if bid is None:
            if not last:
                raise InvalidRecord(f"hand {number}, bid: {seat_name(seat, n)} has no bid")
            for j in range(k + 1, n):
                later = (seat + j - k) % n
                if parsed[later] is not None:
                    raise InvalidRecord(
                        f"hand {number}, bid: {seat_name(later, n)} bid {bids[later]!r} "
                        f"but {seat_name(seat, n)}, who bids before him, has no bid"
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
            raise InvalidRecord(f"hand {number}, bid: {seat_name(seat, game.n)} has no bid")
        if bid is not None and mine is not None and (bid.tricks, bid.blind) != (mine.tricks, mine.blind):
            raise InvalidRecord(
                f"hand {number}, bid: {seat_name(seat, game.n)} bid {bid.record_value} "
                f"but holds {mine.tricks} spades, which is his bid (bidding mirror)"
            )


def _replay_exchange(game: Game, exchange: Any, number: int, last: bool) -> None:
    n = game.n
    where = f"hand {number}, exchange"
    if not isinstance(exchange, list):
        raise InvalidRecord(f"{where}: must be a list of passes")
    steps = list(game.exchange_steps)
    if len(exchange) > len(steps):
        raise InvalidRecord(f"{where}: {len(exchange)} passes but the bids call for {len(steps)}")
    parsed = []
    for item in exchange:
        if not isinstance(item, Mapping):
            raise InvalidRecord(f"{where}: each pass must be an object with from, to and cards")
        giver, receiver, cards = item.get("from"), item.get("to"), item.get("cards")
        if (
            not isinstance(giver, int)
            or not isinstance(receiver, int)
            or isinstance(giver, bool)
            or isinstance(receiver, bool)
            or giver not in range(n)
            or receiver not in range(n)
        ):
            raise InvalidRecord(f"{where}: a pass from {giver!r} to {receiver!r} names no seats")
        mask = _parse_hand_cards(cards, f"{where}, {seat_name(giver, n)}'s pass", "is passed twice")
        parsed.append((giver, receiver, mask))
    # The record may list the two teams in either order; the engine takes them in bid order.
    team_rank = {giver % 2: i for i, (giver, _) in enumerate(steps)}
    parsed.sort(key=lambda p: team_rank.get(p[0] % 2, 99))
    for giver, receiver, mask in parsed:
        expected = game.exchange_steps[0]
        if (giver, receiver) != expected:
            raise InvalidRecord(
                f"{where}: {seat_name(giver, n)} passed to {seat_name(receiver, n)} but "
                f"{seat_name(expected[0], n)} must pass to {seat_name(expected[1], n)} first"
            )
        game.pass_cards(CardSet(mask), giver)
    if game.phase is Phase.EXCHANGE and not last:
        raise InvalidRecord(f"{where}: {len(game.exchange_steps)} passes are missing")


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
