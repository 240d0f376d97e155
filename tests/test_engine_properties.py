"""Random games under random rule sets, checked step by step against an independent model.

The model below is written from rules.md and house-rules.md, not from the engine (it never
calls ``spades.legal`` or ``spades.scoring``): the deck of each rule set and its trump order,
who is to move, which cards and bids are legal, who wins each trick, the bids the engine makes
itself (``mirror``), the exchange order, the scores, bags and the winner. It also audits every
observation (and its JSON) for cards the seat may not know, and probes undo.

``rule_sets`` draws every combination of options that ``Rules`` accepts (built to be valid
from the specs' own constraints, so a refusal is a failure), and the four table shapes (4 in
teams, 4 alone, 3, 2) are separate tests so that ``-n 2`` spreads them. Together they play
4,400 short random games (two hands at most, some 7,500 hands) in under a minute on 2 cores.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades import Bid, Draw, Game, Look, PassCard, PassCards, Play, Rules, record
from spades.actions import Action
from spades.cards import CardSet, card_text, parse_card
from spades.errors import InvalidRules
from spades.rules import PRESETS
from spades.scoring import SeatBid
from spades.state import Phase

RULES_MD_PRESETS = ["bicycle", "hoyle", "standard", "two_player"]
CARD_OF_TEXT = {card_text(c): c for c in range(54)}
CARD_WORD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|BJ|LJ)\b")
RANKS = "23456789TJQKA"
SUITS = "SHDC"
BJ, LJ = parse_card("BJ"), parse_card("LJ")
TABLES = {"teams4": (4, True), "solo4": (4, False), "three": (3, False), "two": (2, False)}
"""The table shapes: players and partnerships."""


# ---------------------------------------------------------------------- rule sets
@st.composite
def rule_sets(draw: st.DrawFn, table: str | None = None) -> Rules:
    """Any preset, then every option drawn over its whole range, combined as the specs allow.

    rules.md: partnerships need 4 players, Blind Nil needs ``min_bid`` 0 and is not for the
    two-player draw. house-rules.md: ``suicide`` only in teams; ``whiz``/``mirror`` without
    Blind Nil; jokers with 4 players; three players each for himself; ``team_min_bid`` and
    ``nil_tricks`` for teams. The engine adds (docs/rules-notes.md): the three bidding systems
    need Nil (``min_bid`` 0), and ``team_min_bid`` is for free bidding only."""
    name = draw(st.sampled_from(sorted(PRESETS)))
    players, teams = TABLES[table] if table else TABLES[draw(st.sampled_from(sorted(TABLES)))]
    systems = ["free", "free", "whiz", "mirror", *(["suicide"] if teams else [])]  # free: the most options
    bidding = draw(st.sampled_from(systems))
    min_bid = draw(st.sampled_from([0, 1])) if bidding == "free" else 0
    blind_ok = players != 2 and min_bid == 0 and bidding in ("free", "suicide")
    target = draw(st.integers(40, 260))
    over: dict[str, Any] = {
        "preset": name,
        "players": players,
        "teams": teams,
        "target": target,
        "min_bid": min_bid,
        "nil_bonus": draw(st.integers(0, 200)),
        "blind_nil": blind_ok and draw(st.booleans()),
        "blind_nil_bonus": draw(st.integers(0, 400)),
        "blind_nil_exchange": draw(st.sampled_from([0, 1, 3, 13])),
        "blind_nil_behind": draw(st.one_of(st.none(), st.integers(0, 150))),
        "set_penalty": draw(st.sampled_from(["minus", "zero"])),
        "bags": draw(st.sampled_from(["carry", "reset", "off"])),
        "bag_limit": draw(st.integers(1, 12)),
        "bag_penalty": draw(st.integers(0, 150)),
        "lose_at": draw(st.one_of(st.none(), st.integers(-300, -1))),
        "first_dealer": draw(st.sampled_from(["draw", "random", *range(players)])),
        "bidding": bidding,
        "suicide_min": draw(st.integers(1, 13)),
        "big_bid": draw(st.one_of(st.none(), st.integers(10, 13))),
        "team_min_bid": draw(st.sampled_from([0, 0, 1, 4, 7, 10, 13])) if teams and bidding == "free" else 0,
        "nil_tricks": draw(st.sampled_from(["bags", "partner"])) if teams else "bags",
        "spades_lead": draw(st.sampled_from(["broken", "any"])),
        "jokers": draw(st.sampled_from([None, "big_little", "jjdd"])) if players == 4 else None,
    }
    return Rules.from_spec(over)  # a refusal here is a combination the specs allow


# ---------------------------------------------------------------------- the independent model
class Laws:
    """One rule set's deck, suits and trump order as house-rules.md's tables give them."""

    def __init__(self, rules: Rules) -> None:
        deck = {parse_card(r + s) for r in RANKS for s in SUITS}
        trumps = [parse_card(r + "S") for r in reversed(RANKS)]  # A K ... 2 of spades
        if rules.players == 3:  # "Remove the 2C; 51 cards, 17 each"
            deck.remove(parse_card("2C"))
        if rules.jokers == "big_little":  # BJ, LJ, AS .. 2S; no 2C, 2D
            deck -= {parse_card("2C"), parse_card("2D")}
            trumps = [BJ, LJ, *trumps]
        elif rules.jokers == "jjdd":  # BJ, LJ, 2D, 2S, AS .. 3S; no 2H, 2C
            deck -= {parse_card("2H"), parse_card("2C")}
            trumps = [BJ, LJ, parse_card("2D"), parse_card("2S"), *trumps[:-1]]
        if rules.jokers:
            deck |= {BJ, LJ}
        self.deck = frozenset(deck)
        self.trump_power = {card: len(trumps) - i for i, card in enumerate(trumps)}
        self.suit = {c: 0 if c in self.trump_power else SUITS.index(card_text(c)[1]) for c in deck}
        self.rank = {c: RANKS.index(card_text(c)[0]) for c in deck if c not in (BJ, LJ)}
        self.hand_size = 13 if rules.players == 2 else len(deck) // rules.players
        self.lead_any = rules.spades_lead == "any"

    def legal(self, hand: set[int], trick: list[int], broken: bool) -> set[int]:
        suit = self.suit
        if trick:
            follow = {c for c in hand if suit[c] == suit[trick[0]]}
            return follow or set(hand)
        if broken or self.lead_any:
            return set(hand)
        return {c for c in hand if suit[c] != 0} or set(hand)

    def winner(self, leader: int, trick: list[int]) -> int:
        trumps = [c for c in trick if c in self.trump_power]
        if trumps:
            best = max(trumps, key=self.trump_power.__getitem__)
        else:
            led = self.suit[trick[0]]
            best = max((c for c in trick if self.suit[c] == led), key=self.rank.__getitem__)
        return (leader + trick.index(best)) % len(trick)

    def spades(self, hand: set[int]) -> int:
        return sum(1 for c in hand if self.suit[c] == 0)


def reference_number_bids(
    rules: Rules, laws: Laws, seat: int, bids: list[SeatBid | None], hand: set[int]
) -> set[int]:
    """The number bids (0 = Nil) of a seat that has looked, from the two specs' words."""
    top = laws.hand_size
    partner = bids[(seat + 2) % 4] if rules.teams else None
    if rules.bidding == "mirror":  # "the number of spades he holds, with no choice"
        return {laws.spades(hand)}
    if rules.bidding == "whiz":  # "Nil or exactly the number of spades he holds"
        return {0, laws.spades(hand)}
    if rules.bidding == "suicide":  # one Nil and one number >= suicide_min per partnership
        numbers = set(range(rules.suicide_min, top + 1))
        if partner is None:
            return {0} | numbers
        return numbers if partner.tricks == 0 else {0}
    out = set(range(rules.min_bid, top + 1))
    if rules.team_min_bid and partner is not None:  # the second of the pair reaches the sum
        out = {t for t in out if partner.tricks + t >= rules.team_min_bid}
    return out


def reference_blind_nil(rules: Rules, seat: int, bids: list[SeatBid | None], totals: list[int]) -> bool:
    """May ``seat`` bid Blind Nil now (it is a Nil: the partner's bid must leave room)?"""
    if not rules.blind_nil:
        return False
    behind = max(totals) - totals[rules.side_of(seat)]
    if rules.blind_nil_behind is not None and behind < rules.blind_nil_behind:
        return False
    partner = bids[(seat + 2) % 4] if rules.teams else None
    if partner is None:
        return True
    if rules.bidding == "suicide":
        return partner.tricks > 0
    return partner.tricks >= rules.team_min_bid


def side_seats(rules: Rules) -> list[list[int]]:
    return [[0, 2], [1, 3]] if rules.teams else [[s] for s in range(rules.players)]


def reference_score(
    rules: Rules, bids: list[SeatBid], tricks: list[int], bags: list[int]
) -> tuple[list[int], list[int]]:
    """rules.md's scoring with house-rules.md's ``big_bid`` and ``nil_tricks``, side by side."""
    points, out_bags = [], []
    for side, seats in enumerate(side_seats(rules)):
        number = [s for s in seats if bids[s].tricks > 0]
        nils = [s for s in seats if bids[s].tricks == 0]
        contract = sum(bids[s].tricks for s in number)
        made = sum(tricks[s] for s in number)
        failed_nil_tricks = sum(tricks[s] for s in nils)
        p = extra = 0
        for s in nils:
            bonus = rules.blind_nil_bonus if bids[s].blind else rules.nil_bonus
            p += bonus if tricks[s] == 0 else -bonus
        if rules.nil_tricks == "partner" and contract:
            made += failed_nil_tricks  # toward the partner's contract; over it, bags as usual
        else:
            p, extra = p + failed_nil_tricks, failed_nil_tricks
        if contract and made >= contract:
            per_trick = 20 if rules.big_bid is not None and contract >= rules.big_bid else 10
            p, extra = p + per_trick * contract + made - contract, extra + made - contract
        elif contract and rules.set_penalty == "minus":
            p -= 10 * contract
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
    """Follows the game from the outside: the engine's events in, its claims checked.

    ``cursor`` is how many events of ``game.history`` the model has followed; the bids the
    engine makes itself (``mirror``) are events the model expects and consumes on its own."""

    def __init__(self, game: Game, rng: random.Random | None = None, audit_rate: float = 1.0) -> None:
        self.g = game
        self.r = game.rules
        self.laws = Laws(game.rules)
        self.n = game.rules.players
        self.totals = [0] * game.rules.sides
        self.bags = [0] * game.rules.sides
        self.hands_done = 0
        self.cursor = 0
        self.rng = rng or random.Random(0)
        self.audit_rate = audit_rate
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
            assert sorted(log.stock) == sorted(self.laws.deck)
            self.phase = "draw"
            self.stock = list(log.stock)
            self.stock_pos = 0
            self.hands = [set[int](), set[int]()]
        else:
            self.start_bidding([set(CardSet(m)) for m in log.dealt])

    def start_bidding(self, hands: list[set[int]]) -> None:
        if self.n != 2:
            assert set().union(*hands) == self.laws.deck
        assert all(len(h) == self.laws.hand_size for h in hands)
        self.hands = hands
        self.phase = "bid"
        self.turn = (self.dealer + 1) % self.n
        self.looked = [not self.blind_by_score(s) for s in range(self.n)]
        if self.r.bidding == "mirror":  # the engine bids for everyone, in bidding order
            for _ in range(self.n):
                ev = self.g.history[self.cursor]
                self.cursor += 1
                assert ev.seat == self.turn
                assert ev.action == Bid(self.laws.spades(self.hands[self.turn]))
                self.after(ev.seat, ev.action, ev.trick_winner)

    def blind_by_score(self, seat: int) -> bool:
        """Blind Nil is possible this hand at all (the rule and the score): the seat's cards
        stay hidden from him until he looks."""
        return reference_blind_nil(self.r, seat, [None] * self.n, self.totals)

    # -- checks before an action
    def check(self) -> None:
        g = self.g
        assert g.phase.value == self.phase, (g.phase, self.phase)
        assert g.to_move == self.turn
        if self.phase == "bid":
            assert list(g.looked) == self.looked
            self.check_bids()
        if self.phase == "play":
            legal = self.laws.legal(self.hands[self.turn], self.trick, self.broken)
            assert set(g.legal_codes()) == {Play(c).code for c in legal}
            assert {a.card for a in g.legal_actions() if isinstance(a, Play)} == legal
            assert g.legal_cards() == CardSet(legal)
            assert g.spades_broken == self.broken
            assert list(g.trick) == self.trick
        for s in range(self.n):
            if self.phase in ("bid", "exchange", "play"):
                assert g.hand_of(s) == CardSet(self.hands[s])
        if self.audit_rate >= 1.0 or self.rng.random() < self.audit_rate:
            self.audit_observations()

    def allowed_bids(self, seat: int) -> set[Bid]:
        if self.looked[seat]:
            numbers = reference_number_bids(self.r, self.laws, seat, self.bids, self.hands[seat])
            return {Bid(t) for t in numbers}
        return {Bid(0, blind=True)} if reference_blind_nil(self.r, seat, self.bids, self.totals) else set()

    def check_bids(self) -> None:
        g, seat = self.g, self.turn
        allowed = self.allowed_bids(seat)
        assert set(g.legal_bids()) == allowed
        look = set() if self.looked[seat] else {Look().code}
        assert set(g.legal_codes()) == {b.code for b in allowed} | look

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

    # -- following the engine's events
    def follow(self) -> None:
        """Follow the next event of the game's history (and the engine's own bids after it)."""
        ev = self.g.history[self.cursor]
        self.cursor += 1
        self.after(ev.seat, ev.action, ev.trick_winner)

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
            assert action in self.allowed_bids(ev_seat)
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
        assert ev_seat == self.turn and card in self.laws.legal(self.hands[ev_seat], self.trick, self.broken)
        if self.laws.suit[card] == 0:  # a spade played breaks spades (a lead only if all spades)
            self.broken = True
        self.hands[ev_seat].remove(card)
        assert card not in self.played
        self.trick.append(card)
        if len(self.trick) < n:
            assert winner is None
            self.turn = (ev_seat + 1) % n
            return
        w = self.laws.winner(self.leader, self.trick)
        assert winner == w
        self.tricks[w] += 1
        self.played |= set(self.trick)
        self.trick = []
        self.leader = self.turn = w
        if sum(self.tricks) == self.laws.hand_size:
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
        size = self.laws.hand_size
        assert all(not h for h in self.hands)
        assert len(self.played) == size * n
        log = g.logs[self.hands_done]
        assert len(log.plays) == size * n and len(set(log.plays)) == size * n
        bids = [b for b in self.bids if b is not None]
        points, bags = reference_score(self.r, bids, self.tricks, self.bags)
        score = g.scores[self.hands_done]
        assert list(score.tricks) == self.tricks
        assert list(score.points) == points
        assert list(score.bags) == bags
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self.bags = bags
        assert list(score.totals) == self.totals
        assert list(g.totals) == self.totals and list(g.bags) == self.bags
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
    """Every card named anywhere in a JSON value (as a word of any string or key)."""
    return {CARD_OF_TEXT[w] for w in CARD_WORD.findall(json.dumps(value))}


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


def run_game(
    rules: Rules, seed: int, max_hands: int, undo_rate: float, audit_rate: float = 1.0
) -> tuple[Game, Model]:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    model = Model(game, rng, audit_rate)
    assert model.cursor == len(game.history)
    while not game.is_over and model.hands_done < max_hands:
        model.check()
        if rng.random() < undo_rate:
            probe_undo(game, rng)
        seat, action = choose(game, rng)
        assert game.can(action, seat)
        game.verify(action, seat)
        ev = apply(game, seat, action)
        assert ev.seat == seat and ev is game.history[model.cursor]
        model.follow()
        assert model.cursor == len(game.history)
    return game, model


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


# ---------------------------------------------------------------------- the properties
SHORT_GAMES = {"teams4-a": 1000, "teams4-b": 1000, "solo4": 900, "three": 900, "two": 600}
"""Random short games (two hands at most) per table shape, teams in two halves to spread them
over the workers: 4,400 games, some 7,500 random hands."""


@pytest.mark.parametrize("part", sorted(SHORT_GAMES))
def test_random_games_follow_the_rules(part: str) -> None:
    """Thousands of short games of every combination of options: every step checked against
    the model, observations audited on a tenth of the steps, undo probed now and then."""
    table = part.split("-")[0]

    @settings(
        max_examples=SHORT_GAMES[part],
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(rules=rule_sets(table), seed=st.integers(0, 2**32))
    def games(rules: Rules, seed: int) -> None:
        run_game(rules, seed, max_hands=2, undo_rate=0.01, audit_rate=0.1)

    games()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_random_games_audited_and_undone(rules: Rules, seed: int) -> None:
    """Fewer games, every observation of every step audited, undo probed often, and the
    record loads back to the same game."""
    game, _ = run_game(rules, seed, max_hands=3, undo_rate=0.05)
    again = record.loads(record.dumps(game))
    assert record.summary(again.game) == record.summary(game)


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32))
def test_whole_games_to_the_end(preset: str, seed: int) -> None:
    rules = PRESETS[preset].replace(target=120)
    game, _ = run_game(rules, seed, max_hands=60, undo_rate=0.0, audit_rate=0.1)
    assert game.is_over or len(game.scores) == 60
    loaded = record.loads(record.dumps(game))
    assert record.summary(loaded.game) == record.summary(game)
    assert record.dumps(loaded.game) == record.dumps(game)


# ---------------------------------------------------------------------- which rule sets exist
def spec_allows(o: dict[str, Any]) -> bool:
    """The combinations the specs (and docs/rules-notes.md) allow, written from their words."""
    players, teams, bidding = o["players"], o["teams"], o["bidding"]
    return not (
        (teams and players != 4)
        or (o["blind_nil"] and (o["min_bid"] != 0 or players == 2))
        or (o["jokers"] is not None and players != 4)
        or (bidding == "suicide" and not teams)
        or (bidding != "free" and o["min_bid"] != 0)
        or (bidding in ("whiz", "mirror") and o["blind_nil"])
        or (o["team_min_bid"] and (not teams or bidding != "free"))
        or (o["nil_tricks"] == "partner" and not teams)
    )


HOUSE_OPTIONS = ("jokers", "bidding", "team_min_bid", "nil_tricks")


@settings(max_examples=300, deadline=None)
@given(
    options=st.fixed_dictionaries(
        {
            "players": st.sampled_from([2, 3, 4]),
            "teams": st.booleans(),
            "min_bid": st.sampled_from([0, 1]),
            "blind_nil": st.booleans(),
            "bidding": st.sampled_from(["free", "suicide", "whiz", "mirror"]),
            "team_min_bid": st.sampled_from([0, 6]),
            "nil_tricks": st.sampled_from(["bags", "partner"]),
            "jokers": st.sampled_from([None, "big_little", "jjdd"]),
            "spades_lead": st.sampled_from(["broken", "any"]),
        }
    )
)
def test_rules_accept_exactly_the_combinations_the_specs_allow(options: dict[str, Any]) -> None:
    """And a refused house-rule combination names both options (house-rules.md)."""
    if not spec_allows(options):
        with pytest.raises(InvalidRules) as refused:
            Rules(**options)
        message = str(refused.value)
        assert "\n" not in message
        players, teams, blind_nil = options["players"], options["teams"], options["blind_nil"]
        if not ((teams and players != 4) or (blind_nil and (options["min_bid"] or players == 2))):
            names = (*HOUSE_OPTIONS, "players", "teams", "min_bid", "blind_nil")
            assert len([name for name in names if name in message]) >= 2, message
        return
    rules = Rules(**options)
    assert Rules.from_spec(rules.to_spec()) == rules
