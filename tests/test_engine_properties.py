"""Random games under random rule sets, checked step by step against an independent model.

The model below is written from rules.md, not from the engine: who is to move, which cards
are legal, who wins each trick, the exchange order, the scores, bags and the winner. It also
audits every observation (and its JSON) for cards the seat may not know, and probes undo.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades import Bid, Draw, Game, Look, PassCard, PassCards, Play, Rules, record
from spades.actions import Action
from spades.cards import CardSet, card_text
from spades.rules import PRESETS
from spades.scoring import SeatBid
from spades.state import Phase

RULES_MD_PRESETS = ["bicycle", "hoyle", "standard", "two_player"]
CARD_RE = re.compile(r"^[2-9TJQKA][SHDC]$")


# ---------------------------------------------------------------------- rule sets
@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """A preset plus random overrides, every value within rules.md's ranges."""
    name = draw(st.sampled_from(RULES_MD_PRESETS))
    base = PRESETS[name]
    players = base.players
    teams = base.teams if players == 2 else draw(st.booleans())
    min_bid = draw(st.sampled_from([0, 1]))
    blind_nil = players == 4 and min_bid == 0 and draw(st.booleans())
    target = draw(st.integers(40, 260))
    over: dict[str, Any] = {
        "preset": name,
        "teams": teams,
        "target": target,
        "min_bid": min_bid,
        "nil_bonus": draw(st.integers(0, 200)),
        "blind_nil": blind_nil,
        "blind_nil_bonus": draw(st.integers(0, 400)),
        "blind_nil_exchange": draw(st.sampled_from([0, 1, 3, 13])),
        "blind_nil_behind": draw(st.one_of(st.none(), st.integers(0, 150))),
        "set_penalty": draw(st.sampled_from(["minus", "zero"])),
        "bags": draw(st.sampled_from(["carry", "reset", "off"])),
        "bag_limit": draw(st.integers(1, 12)),
        "bag_penalty": draw(st.integers(0, 150)),
        "lose_at": draw(st.one_of(st.none(), st.integers(-300, -1))),
        "first_dealer": draw(st.sampled_from(["draw", "random", *range(players)])),
    }
    return Rules.from_spec(over)


# ---------------------------------------------------------------------- the independent model
def suit(card: int) -> int:
    return card // 13


def reference_legal(hand: set[int], trick: list[int], broken: bool) -> set[int]:
    if trick:
        follow = {c for c in hand if suit(c) == suit(trick[0])}
        return follow or set(hand)
    if broken:
        return set(hand)
    return {c for c in hand if suit(c) != 0} or set(hand)


def reference_winner(leader: int, trick: list[int], n: int) -> int:
    spades = [c for c in trick if suit(c) == 0]
    pool = spades or [c for c in trick if suit(c) == suit(trick[0])]
    return (leader + trick.index(max(pool))) % n


def side_seats(rules: Rules) -> list[list[int]]:
    return [[0, 2], [1, 3]] if rules.teams else [[s] for s in range(rules.players)]


def reference_score(
    rules: Rules, bids: list[SeatBid], tricks: list[int], bags: list[int]
) -> tuple[list[int], list[int]]:
    points, out_bags = [], []
    for side, seats in enumerate(side_seats(rules)):
        number = [s for s in seats if bids[s].tricks > 0]
        contract = sum(bids[s].tricks for s in number)
        made = sum(tricks[s] for s in number)
        p = extra = 0
        if contract and made >= contract:
            p, extra = 10 * contract + made - contract, made - contract
        elif contract and rules.set_penalty == "minus":
            p = -10 * contract
        for s in seats:
            if bids[s].tricks == 0:
                bonus = rules.blind_nil_bonus if bids[s].blind else rules.nil_bonus
                p += bonus if tricks[s] == 0 else tricks[s] - bonus
                extra += tricks[s]
        count = bags[side] + extra
        if rules.bags == "carry":
            while count >= rules.bag_limit:
                p, count = p - rules.bag_penalty, count - rules.bag_limit
        elif rules.bags == "reset" and count >= rules.bag_limit:
            p, count = p - rules.bag_penalty, 0
        points.append(p)
        out_bags.append(count)
    return points, out_bags


def reference_winner_of_game(rules: Rules, totals: list[int]) -> int | None:
    """rules.md plus docs/rules-notes.md: a side at or below ``lose_at`` is out; the last one
    standing wins; if all are out the highest wins; else a standing side at the target ends
    the game and the highest standing total wins; a tie for the lead plays on."""
    sides = list(range(len(totals)))
    pool = sides
    if rules.lose_at is not None:
        standing = [s for s in sides if totals[s] > rules.lose_at]
        if len(standing) == 1:
            return standing[0]
        if standing:
            pool = standing
    all_out = rules.lose_at is not None and all(t <= rules.lose_at for t in totals)
    if not all_out and all(totals[s] < rules.target for s in pool):
        return None
    best = max(totals[s] for s in pool)
    leaders = [s for s in pool if totals[s] == best]
    return leaders[0] if len(leaders) == 1 else None


class Model:
    """Follows the game from the outside: the engine's events in, its claims checked."""

    def __init__(self, game: Game) -> None:
        self.g = game
        self.r = game.rules
        self.n = game.rules.players
        self.totals = [0] * game.rules.sides
        self.bags = [0] * game.rules.sides
        self.hands_done = 0
        self.dealer = game.first_dealer
        if isinstance(self.r.first_dealer, int):
            assert game.first_dealer == self.r.first_dealer
        self.start_hand()

    # -- per hand
    def start_hand(self) -> None:
        g, n = self.g, self.n
        assert g.dealer == self.dealer
        assert g.hand_number == self.hands_done + 1
        self.turn = (self.dealer + 1) % n
        self.bids: list[SeatBid | None] = [None] * n
        self.trick: list[int] = []
        self.leader = self.turn
        self.broken = False
        self.tricks = [0] * n
        self.played: set[int] = set()
        self.given: dict[int, set[int]] = {}
        self.received: dict[int, set[int]] = {}
        self.discards = [set[int]() for _ in range(n)]
        self.steps: list[tuple[int, int]] = []
        self.pending: set[int] = set()
        log = g.logs[-1]
        if n == 2 and log.stock is not None:
            self.phase = "draw"
            self.stock = list(log.stock)
            self.stock_pos = 0
            self.hands = [set[int](), set[int]()]
        else:
            self.start_bidding([set(CardSet(m)) for m in log.dealt])

    def start_bidding(self, hands: list[set[int]]) -> None:
        if self.n == 4:
            assert set().union(*hands) == set(range(52))
        assert all(len(h) == 13 for h in hands)
        self.hands = hands
        self.phase = "bid"
        self.turn = (self.dealer + 1) % self.n
        self.looked = [not self.blind_possible(s) for s in range(self.n)]

    def blind_possible(self, seat: int) -> bool:
        if not self.r.blind_nil:
            return False
        if self.r.blind_nil_behind is None:
            return True
        side = self.r.side_of(seat)
        return max(self.totals) - self.totals[side] >= self.r.blind_nil_behind

    # -- checks before an action
    def check(self) -> None:
        g = self.g
        assert g.phase.value == self.phase, (g.phase, self.phase)
        assert g.to_move == self.turn
        if self.phase == "bid":
            assert g.looked == self.looked
        if self.phase == "play":
            legal = reference_legal(self.hands[self.turn], self.trick, self.broken)
            assert set(g.legal_codes()) == legal
            assert {a.card for a in g.legal_actions() if isinstance(a, Play)} == legal
            assert g.legal_cards() == CardSet(legal)
            assert g.spades_broken == self.broken
            assert g.trick == self.trick
        for s in range(self.n):
            if self.phase in ("bid", "exchange", "play"):
                assert g.hand_of(s) == CardSet(self.hands[s])
        self.audit_observations()

    def audit_observations(self) -> None:
        g = self.g
        for seat in range(self.n):
            obs = g.observation(seat)
            looked = self.phase != "bid" or self.looked[seat]
            if self.phase == "draw" or looked:
                assert obs.hand == CardSet(self.hands[seat])
            else:
                assert obs.hand is None
            allowed = set(self.played) | set(self.trick) | self.discards[seat]
            allowed |= self.given.get(seat, set()) | self.received.get(seat, set())
            if looked or self.phase == "draw":
                allowed |= self.hands[seat]
            if self.phase == "draw" and self.turn == seat:
                allowed.add(self.stock[self.stock_pos])
            shown = cards_in(obs.to_json())
            assert shown <= allowed, (seat, sorted(map(card_text, shown - allowed)))
            assert shown_cards(obs) <= allowed

    # -- following an event
    def after(self, ev_seat: int, action: Action, winner: int | None) -> None:
        g, r, n = self.g, self.r, self.n
        if isinstance(action, Draw):
            assert self.phase == "draw" and ev_seat == self.turn
            top, nxt = self.stock[self.stock_pos], self.stock[self.stock_pos + 1]
            if action.keep:
                self.hands[ev_seat].add(top)
            else:
                self.discards[ev_seat].add(top)
                self.hands[ev_seat].add(nxt)
            self.stock_pos += 2
            self.turn = 1 - ev_seat
            if self.stock_pos == 52:
                self.start_bidding(self.hands)
            return
        if isinstance(action, Look):
            assert self.phase == "bid" and not self.looked[ev_seat] and self.bids[ev_seat] is None
            self.looked[ev_seat] = True
            return
        if isinstance(action, Bid):
            assert self.phase == "bid" and ev_seat == self.turn
            if action.blind:
                assert not self.looked[ev_seat] and self.blind_possible(ev_seat)
            else:
                assert self.looked[ev_seat] and r.min_bid <= action.tricks <= 13
            self.looked[ev_seat] = True
            self.bids[ev_seat] = SeatBid(action.tricks, action.blind)
            self.turn = (ev_seat + 1) % n
            if all(b is not None for b in self.bids):
                self.end_bidding()
            return
        if isinstance(action, (PassCard, PassCards)):
            assert self.phase == "exchange"
            giver, receiver = self.steps[0]
            assert ev_seat == giver
            cards = {action.card} if isinstance(action, PassCard) else set(action.cards)
            self.pending |= cards
            if len(self.pending) < r.blind_nil_exchange:
                return
            ex = g.logs[-1].exchanges[len(g.logs[-1].exchanges) - 1]
            assert (ex.giver, ex.receiver, set(ex.cards)) == (giver, receiver, self.pending)
            assert self.pending <= self.hands[giver]
            self.hands[giver] -= self.pending
            self.hands[receiver] |= self.pending
            self.given[giver] = set(self.pending)
            self.received[receiver] = set(self.pending)
            self.pending = set()
            self.steps.pop(0)
            if self.steps:
                self.turn = self.steps[0][0]
            else:
                self.start_play()
            return
        assert isinstance(action, Play)
        card = action.card
        assert ev_seat == self.turn and card in reference_legal(self.hands[ev_seat], self.trick, self.broken)
        if suit(card) == 0:
            self.broken = True
        self.hands[ev_seat].remove(card)
        assert card not in self.played
        self.trick.append(card)
        if len(self.trick) < n:
            assert winner is None
            self.turn = (ev_seat + 1) % n
            return
        w = reference_winner(self.leader, self.trick, n)
        assert winner == w
        self.tricks[w] += 1
        self.played |= set(self.trick)
        self.trick = []
        self.leader = self.turn = w
        if sum(self.tricks) == 13:
            self.end_hand()

    def end_bidding(self) -> None:
        r, n = self.r, self.n
        bids = [b for b in self.bids if b is not None]
        self.steps = []
        if r.teams and r.blind_nil_exchange:
            for k in range(n):
                seat = (self.dealer + 1 + k) % n
                partner = (seat + 2) % n
                if bids[seat].blind and not bids[partner].blind:
                    self.steps += [(partner, seat), (seat, partner)]
        if self.steps:
            self.phase = "exchange"
            self.turn = self.steps[0][0]
        else:
            self.start_play()

    def start_play(self) -> None:
        self.phase = "play"
        self.turn = self.leader = (self.dealer + 1) % self.n

    def end_hand(self) -> None:
        g, n = self.g, self.n
        assert all(not h for h in self.hands)
        assert len(self.played) == 13 * n
        log = g.logs[self.hands_done]
        assert len(log.plays) == 13 * n and len(set(log.plays)) == 13 * n
        bids = [b for b in self.bids if b is not None]
        points, bags = reference_score(self.r, bids, self.tricks, self.bags)
        score = g.scores[self.hands_done]
        assert list(score.tricks) == self.tricks
        assert list(score.points) == points
        assert list(score.bags) == bags
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self.bags = bags
        assert list(score.totals) == self.totals
        assert g.totals == self.totals and g.bags == self.bags
        self.hands_done += 1
        winner = reference_winner_of_game(self.r, self.totals)
        assert g.winner == winner
        self.dealer = (self.dealer + 1) % n
        if winner is not None:
            self.phase = "over"
            self.turn = None  # type: ignore[assignment]
            assert g.is_over
        else:
            self.start_hand()


def cards_in(value: Any) -> set[int]:
    """Every card named anywhere in a JSON value."""
    out: set[int] = set()
    if isinstance(value, str) and CARD_RE.match(value):
        out.add("SHDC".index(value[1]) * 13 + "23456789TJQKA".index(value[0]))
    elif isinstance(value, dict):
        for v in value.values():
            out |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= cards_in(v)
    return out


def shown_cards(obs: Any) -> set[int]:
    out: set[int] = set()
    for name in ("hand", "given", "received", "discarded", "pass_chosen"):
        cs = getattr(obs, name)
        if cs is not None:
            out |= set(cs)
    for t in obs.tricks:
        out |= set(t.cards)
    out |= set(obs.trick)
    if obs.stock_top is not None:
        out.add(obs.stock_top)
    return out


# ---------------------------------------------------------------------- driving a game
def choose(game: Game, rng: random.Random) -> tuple[int, Action]:
    """A random legal action of the seat to move (sometimes an early look by another seat,
    sometimes a whole pass at once)."""
    if game.phase is Phase.BID and rng.random() < 0.1:
        early = [s for s in range(game.n) if game.can_look(s) and game.bid[s] == -1]
        if early:
            return early[0], Look()
    seat = game.to_move
    assert seat is not None
    if game.phase is Phase.EXCHANGE and rng.random() < 0.5 and not game.pending_pass:
        hand = list(game.hand_of(seat))
        return seat, PassCards(CardSet(rng.sample(hand, game.rules.blind_nil_exchange)))
    return seat, rng.choice(game.legal_actions())


def apply(game: Game, seat: int, action: Action) -> Any:
    if isinstance(action, PassCards):
        return game.pass_cards(action.cards, seat)
    return game.apply(action, seat)


def snapshot(game: Game) -> Any:
    return (
        [json.dumps(game.observation(s).to_json(), sort_keys=True) for s in range(game.n)],
        record.dumps(game),
        list(game.history),
        game.legal_codes(),
        game.to_move,
        list(game.totals),
        list(game.bags),
        game.winner,
        [(s.points, s.totals) for s in game.scores],
    )


def run_game(rules: Rules, seed: int, max_hands: int, undo_rate: float) -> Game:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    model = Model(game)
    while not game.is_over and model.hands_done < max_hands:
        model.check()
        if rng.random() < undo_rate:
            probe_undo(game, rng)
        seat, action = choose(game, rng)
        assert game.can(action, seat)
        game.verify(action, seat)
        ev = (
            game.pass_cards(action.cards, seat) if isinstance(action, PassCards) else game.apply(action, seat)
        )
        assert ev.seat == seat and ev is game.history[-1]
        model.after(seat, action, ev.trick_winner)
    return game


def probe_undo(game: Game, rng: random.Random) -> None:
    """Take 1-5 random actions, undo them all: everything visible is as before."""
    before = snapshot(game)
    taken = 0
    for _ in range(rng.randint(1, 5)):
        if game.is_over:
            break
        seat, action = choose(game, rng)
        apply(game, seat, action)
        taken += 1
    for _ in range(taken):
        game.undo()
    assert snapshot(game) == before


settings_games = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@settings_games
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_random_games_follow_the_rules(rules: Rules, seed: int) -> None:
    game = run_game(rules, seed, max_hands=3, undo_rate=0.03)
    again = record.loads(record.dumps(game))
    assert record.summary(again.game) == record.summary(game)


@settings(max_examples=4, deadline=None)
@given(preset=st.sampled_from(RULES_MD_PRESETS), seed=st.integers(0, 2**32))
def test_whole_games_to_the_end(preset: str, seed: int) -> None:
    rules = PRESETS[preset].replace(target=120)
    game = run_game(rules, seed, max_hands=60, undo_rate=0.0)
    assert game.is_over or len(game.scores) == 60
    loaded = record.loads(record.dumps(game))
    assert record.summary(loaded.game) == record.summary(game)
    assert record.dumps(loaded.game) == record.dumps(game)
